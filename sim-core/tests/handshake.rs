//! The handshake under loss: a lost final ACK must not hang the connection
//! (the established client answers the server's resent SYN-ACK,
//! `tcp_send_challenge_ack`), and a run that does not deliver says which
//! limit ended it (`tcp_syn_retries`, `tcp_synack_retries`, `tcp_retries2`).

mod common;
use common::*;
use proptest::prelude::*;
use sim_core::config::{DropRule, HostConfig, LossDirection, Scenario};
use sim_core::segment::{Segment, Side};
use sim_core::sim::{Outcome, RunResult};
use sim_core::tcp::{GiveUp, Socket};
use sim_core::time::{SimDuration, SimTime};
use sim_core::trace::{Trace, TraceEvent};

/// Two sockets joined by a wire with a fixed one-way delay, driven by hand
/// so that a test can drop exactly the segments it names.
struct Wire {
    client: Socket,
    server: Socket,
    now: SimTime,
    delay: SimDuration,
    /// Segments on the wire: arrival time, receiver, segment.
    in_flight: Vec<(SimTime, Side, Segment)>,
    /// Everything sent, with its send time (dropped segments too).
    sent: Vec<(SimTime, Segment)>,
    trace: Trace,
}

impl Wire {
    fn new(delay: SimDuration) -> Self {
        Wire {
            client: Socket::connect(&HostConfig::default()),
            server: Socket::listen(&HostConfig::default()),
            now: SimTime::ZERO,
            delay,
            in_flight: vec![],
            sent: vec![],
            trace: Trace::default(),
        }
    }

    fn socket(&mut self, side: Side) -> &mut Socket {
        match side {
            Side::Client => &mut self.client,
            Side::Server => &mut self.server,
        }
    }

    /// Puts on the wire what `side` sends now, except what `drop` picks.
    fn pump(&mut self, side: Side, drop: &mut impl FnMut(&Segment) -> bool) {
        let now = self.now;
        while let Some((mut seg, ..)) = self.socket(side).poll_transmit(now) {
            seg.ts_val = now.0;
            self.sent.push((now, seg));
            if !drop(&seg) {
                self.in_flight.push((now + self.delay, side.peer(), seg));
            }
        }
    }

    /// Runs until `until`, delivering segments and firing timers in time
    /// order; `on_established` runs once, when the server is established.
    fn run(
        &mut self,
        until: SimTime,
        mut drop: impl FnMut(&Segment) -> bool,
        mut on_established: impl FnMut(&mut Socket, SimTime, &mut Trace),
    ) {
        let mut server_was_established = false;
        self.pump(Side::Client, &mut drop);
        loop {
            let arrival = self.in_flight.iter().map(|(t, ..)| *t).min();
            let timers = [self.client.poll_timeout(), self.server.poll_timeout()];
            let Some(next) = timers.into_iter().chain([arrival]).flatten().min() else {
                return;
            };
            if next > until {
                return;
            }
            self.now = next;
            if let Some(i) = self.in_flight.iter().position(|(t, ..)| *t == next) {
                let (_, to, seg) = self.in_flight.remove(i);
                let (now, trace) = (self.now, &mut self.trace);
                match to {
                    Side::Client => self.client.handle_segment(now, &seg, trace),
                    Side::Server => self.server.handle_segment(now, &seg, trace),
                }
            } else {
                self.client.handle_timeout(next, &mut self.trace);
                self.server.handle_timeout(next, &mut self.trace);
            }
            if self.server.is_established() && !server_was_established {
                server_was_established = true;
                on_established(&mut self.server, self.now, &mut self.trace);
            }
            self.pump(Side::Server, &mut drop);
            self.pump(Side::Client, &mut drop);
        }
    }

    /// When `side` became established.
    fn established_at(&self, side: Side) -> Option<SimTime> {
        self.trace
            .records()
            .find(|r| r.event == TraceEvent::Established { side })
            .map(|r| r.time)
    }
}

/// The client's bare ACKs after the handshake, in the order sent.
fn is_client_pure_ack(seg: &Segment) -> bool {
    seg.from == Side::Client && !seg.flags.syn && seg.len == 0
}

#[test]
fn a_lost_handshake_ack_is_repaired_by_the_clients_answer_to_the_resent_syn_ack() {
    // The hang, dropped by hand: the client has nothing to send (the
    // server pushes on accept), and exactly its handshake ACK is lost.
    //
    //   0 ms      client ──SYN──────────────────► server
    //   5 ms      client ◄──SYN-ACK (TSval 5)──── server   request timer: 1 s
    //   10 ms     client ──ACK (TSecr 5)──X                 (lost)
    //   1005 ms   client ◄──SYN-ACK again──────── server   reqsk_timer_handler
    //   1010 ms   client ──ACK (TSecr 5)────────► server   tcp_send_challenge_ack
    //   1015 ms   server established: cwnd 10 (one SYN-ACK retransmission),
    //             RTT 1010 ms from the echoed first SYN-ACK; the push goes.
    let mut wire = Wire::new(SimDuration::from_millis(5));
    let mut acks = 0;
    let drop_first_ack = |seg: &Segment| {
        let first = is_client_pure_ack(seg) && acks == 0;
        acks += is_client_pure_ack(seg) as u32;
        first
    };
    let mut srtt_at_start = None;
    let mut cwnd_at_start = 0;
    let push = |server: &mut Socket, now: SimTime, trace: &mut Trace| {
        srtt_at_start = server.srtt();
        cwnd_at_start = server.cwnd();
        server.app_write(now, 100_000, false, trace);
    };
    wire.run(
        SimTime::ZERO + SimDuration::from_secs(5),
        drop_first_ack,
        push,
    );

    assert_eq!(wire.established_at(Side::Client), Some(SimTime(10_000_000)));
    let answer = wire
        .sent
        .iter()
        .filter(|(_, s)| is_client_pure_ack(s))
        .nth(1)
        .expect("the client answered the resent SYN-ACK");
    assert_eq!(answer.0, SimTime(1_010_000_000));
    assert_eq!((answer.1.ack, answer.1.ts_ecr), (1, 5_000_000));
    assert_eq!(
        wire.established_at(Side::Server),
        Some(SimTime(1_015_000_000))
    );
    // tcp_synack_rtt_meas → tcp_rtt_tsopt_us: now − the echoed TSval.
    assert_eq!(srtt_at_start, Some(SimDuration::from_millis(1_010)));
    assert_eq!(
        cwnd_at_start, 10,
        "one SYN-ACK retransmission costs nothing"
    );
    assert_eq!(wire.client.app_received(), 100_000, "the push arrived");
    assert_eq!(wire.server.gave_up(), None);
}

/// The seed-004 path with a push from the server: the client sends nothing
/// after its handshake ACK.
fn server_push() -> Scenario {
    let mut s = seed_004();
    s.app.request = vec![];
    s.app.response = vec![100_000];
    s
}

#[test]
fn a_run_that_loses_the_handshake_ack_still_delivers() {
    // The hang with the scenario's drop list: exactly the client's
    // first pure ACK, the handshake's, is lost. Before the fix the server
    // stayed in SYN-RECV, resending its SYN-ACK unanswered, and the run
    // delivered nothing.
    let mut s = server_push();
    s.path.drops = vec![DropRule::client_ack(1)];
    let run = run(&s);
    let dropped: Vec<Segment> = run
        .trace
        .records()
        .filter_map(|r| match r.event {
            TraceEvent::SegmentDropped { seg } => Some(seg),
            _ => None,
        })
        .collect();
    assert!(
        dropped.len() == 1 && is_client_pure_ack(&dropped[0]) && dropped[0].ack == 1,
        "{dropped:?}"
    );
    let done = run
        .outcome
        .completed_at()
        .unwrap_or_else(|| panic!("{:?}", run.outcome));
    let server_up = run
        .trace
        .records()
        .find(|r| r.event == TraceEvent::Established { side: Side::Server })
        .expect("the server got established")
        .time;
    // The SYN-ACK left at 3.5 ms and again 1 s later, reached the client
    // 3.5 ms after that, and the client's answer took 3.5 ms more (plus two
    // serialisations of a 52-byte segment at 1 Gbit/s).
    let expected = SimTime(1_010_500_000);
    assert!(
        server_up >= expected && server_up < expected + SimDuration::from_micros(10),
        "{server_up:?}"
    );
    assert!(done < SimTime::ZERO + SimDuration::from_secs(2), "{done:?}");
}

/// The push over a path that loses half the packets both ways.
fn lossy_handshake() -> Scenario {
    let mut s = server_push();
    s.path.loss = 0.5;
    s.path.loss_direction = LossDirection::Both;
    s
}

/// The run's outcome names the host and the limit, at the instant the trace
/// records the host giving up.
fn assert_gave_up(run: &RunResult, side: Side, reason: GiveUp) {
    let Outcome::Aborted {
        at,
        side: s,
        reason: r,
    } = run.outcome
    else {
        panic!("{:?}", run.outcome);
    };
    assert_eq!((s, r), (side, reason));
    let recorded = run
        .trace
        .records()
        .find(|rec| matches!(rec.event, TraceEvent::Aborted { side: s, .. } if s == side))
        .expect("the trace records it")
        .time;
    assert_eq!(at, recorded);
}

/// The first seed of `s` whose run ends with `side` giving up for `reason`.
fn first_giving_up(s: &Scenario, side: Side, reason: GiveUp) -> RunResult {
    (1..500)
        .map(|seed| run(&Scenario { seed, ..s.clone() }))
        .find(|run| run.outcome.gave_up() == Some((side, reason)))
        .unwrap_or_else(|| panic!("no seed makes the {side:?} give up for {reason:?}"))
}

#[test]
fn a_client_whose_syns_go_unanswered_reports_tcp_syn_retries() {
    // tcp_syn_retries = 1: the SYN at 0 and once more at 1 s; connect()
    // fails 3 s after the first (tcp_model_timeout(1, 1 s)).
    let mut s = lossy_handshake();
    s.client.sender.syn_retries = 1;
    let run = first_giving_up(&s, Side::Client, GiveUp::SynRetries);
    assert_gave_up(&run, Side::Client, GiveUp::SynRetries);
    assert_eq!(run.outcome.at(), SimTime::ZERO + SimDuration::from_secs(3));
}

#[test]
fn a_server_whose_syn_ack_goes_unanswered_reports_tcp_synack_retries() {
    let mut s = lossy_handshake();
    s.server.sender.synack_retries = 1;
    let run = first_giving_up(&s, Side::Server, GiveUp::SynAckRetries);
    assert_gave_up(&run, Side::Server, GiveUp::SynAckRetries);
}

/// A scenario for the property below: the seed-004 path with random loss
/// both ways for the whole run, a short response, with or without a request.
fn lossy_transfer() -> impl Strategy<Value = Scenario> {
    (0.0f64..0.5, any::<u64>(), 1u64..20_000, any::<bool>()).prop_map(
        |(loss, seed, response, push)| {
            let mut s = seed_004();
            s.path.loss = loss;
            s.path.loss_direction = LossDirection::Both;
            s.seed = seed;
            s.app.response = vec![response];
            if push {
                s.app.request = vec![];
            }
            s.time_limit = SimDuration::from_secs(3_600);
            s
        },
    )
}

/// Every SYN-ACK that reached the client after it was established was
/// answered there and then, unless it came within 500 ms of the previous
/// answer (`tcp_send_challenge_ack`, `tcp_oow_rate_limited`).
fn resent_syn_acks_are_answered(run: &RunResult) -> Result<(), String> {
    let mut established = false;
    let mut last_answer: Option<SimTime> = None;
    let records: Vec<_> = run.trace.records().collect();
    for (i, r) in records.iter().enumerate() {
        match r.event {
            TraceEvent::Established { side: Side::Client } => established = true,
            TraceEvent::SegmentReceived {
                to: Side::Client,
                seg,
            } if established && seg.flags.syn => {
                if last_answer.is_some_and(|t| r.time.since(t) < SimDuration::from_millis(500)) {
                    continue;
                }
                let answered = records[i + 1..]
                    .iter()
                    .take_while(|n| n.time == r.time)
                    .any(|n| matches!(n.event, TraceEvent::SegmentSent { seg, .. } if seg.from == Side::Client));
                if !answered {
                    return Err(format!("SYN-ACK at {:?} not answered", r.time));
                }
                last_answer = Some(r.time);
            }
            _ => {}
        }
    }
    Ok(())
}

/// When the connection last moved forward: a host became established, the
/// client received data beyond what it had, or the server an ACK beyond
/// what it had.
fn last_progress(run: &RunResult) -> SimTime {
    let (mut data, mut acked, mut last) = (0, 0, SimTime::ZERO);
    for r in run.trace.records() {
        let moved = match r.event {
            TraceEvent::Established { .. } => true,
            TraceEvent::SegmentReceived {
                to: Side::Client,
                seg,
            } if seg.end_seq() > data => {
                data = seg.end_seq();
                true
            }
            TraceEvent::SegmentReceived {
                to: Side::Server,
                seg,
            } if seg.ack > acked => {
                acked = seg.ack;
                true
            }
            _ => false,
        };
        if moved {
            last = r.time;
        }
    }
    last
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Under any random loss below 50 % both ways, a transfer either
    /// completes or ends because a host gave up, and says which limit made it;
    /// it never stalls with data undelivered and no reason. A run may still
    /// reach its hour's time limit while it makes progress (one in about
    /// 20,000 at 45 % loss, with the RTO backed off to 120 s): then the last
    /// progress must be recent enough that tcp_retries2 could not yet have
    /// given up (924.6 s, plus one TCP_RTO_MAX for the timer to come round).
    #[test]
    fn a_transfer_under_random_loss_completes_or_says_why_it_gave_up(s in lossy_transfer()) {
        let run = sim_core::sim::run(&s).unwrap();
        match run.outcome {
            Outcome::Completed { .. } => {
                prop_assert_eq!(
                    run.trace.records().filter(|r| matches!(r.event, TraceEvent::Aborted { .. })).count(),
                    0
                );
            }
            Outcome::Aborted { side, reason, at } => {
                let limit = match reason {
                    GiveUp::SynRetries => side == Side::Client,
                    GiveUp::SynAckRetries => side == Side::Server,
                    GiveUp::Retries2 => at >= SimTime::ZERO + SimDuration::from_millis(924_600),
                    // Neither a reader that stops nor a run that goes on
                    // after a give-up is drawn here.
                    GiveUp::ZeroWindowProbes | GiveUp::Reset => false,
                };
                prop_assert!(limit, "{:?} gave up for {:?} at {:?}", side, reason, at);
            }
            Outcome::TimeLimit { at } => {
                let quiet = at.since(last_progress(&run));
                prop_assert!(
                    quiet < SimDuration::from_millis(924_600 + 120_000),
                    "stalled for {:?} before the time limit", quiet
                );
            }
            other => prop_assert!(false, "{:?}", other),
        }
        prop_assert_eq!(resent_syn_acks_are_answered(&run), Ok(()));
    }
}
