//! Losses that SACK and duplicate ACKs cannot reveal are repaired by the
//! retransmission timeout: Linux's 200 ms floor, cwnd 1 afterwards, ssthresh
//! from the algorithm (unless the timeout interrupts a recovery already under
//! way, `tcp_enter_loss`), everything not SACKed resent.

mod common;
use common::*;
use sim_core::analysis::summarize;
use sim_core::config::{DropRule, PathConfig};
use sim_core::segment::Side;
use sim_core::time::SimDuration;
use sim_core::trace::TraceEvent;

fn shallow_queue() -> sim_core::config::Scenario {
    let mut s = seed_004();
    s.path = PathConfig {
        queue_bytes: 15_000,
        ..PathConfig::symmetric(10_000_000, SimDuration::from_millis(20))
    };
    s.server.sender.initcwnd = 40;
    s.client.receiver.rcvbuf = 4 << 20;
    s
}

/// A path so lossy that retransmissions are lost too and only the timer helps.
fn heavy_loss() -> sim_core::config::Scenario {
    let mut s = seed_004();
    s.app.response = vec![100_000];
    s.path.loss = 0.3;
    s
}

/// One initial window of data (10 segments) whose last segment is lost: no
/// SACK can reveal a lost tail, so the first loss event is the RTO.
fn one_flight_tail_lost() -> sim_core::config::Scenario {
    let mut s = seed_004();
    s.app.response = vec![10 * 1448];
    s.path.drops = vec![DropRule::data_segment(10)];
    s
}

#[test]
fn a_drop_tail_overflow_is_repaired_and_the_transfer_completes() {
    let run = run(&shallow_queue());
    let sum = summarize(&run);
    assert!(sum.drops > 0, "the shallow queue must overflow");
    assert!(sum.retransmissions > 0);
    assert!(sum.completion.is_some(), "the transfer must still finish");
}

/// cwnd just before and after the server's first RTO on data, and the new
/// ssthresh, in a run whose first loss event is that timeout (no fast
/// recovery before it), so ssthresh is computed afresh.
fn first_rto(s: &sim_core::config::Scenario) -> (u32, u32, u32) {
    first_rto_of(s, false).expect("the lost tail times out, with no fast recovery before")
}

fn first_rto_of(s: &sim_core::config::Scenario, after_recovery: bool) -> Option<(u32, u32, u32)> {
    let run = run(s);
    let records: Vec<_> = run.trace.records().collect();
    let rto_at = records.windows(2).position(|w| {
        matches!(
            (w[0].event, w[1].event),
            (
                TraceEvent::RtoFired {
                    side: Side::Server,
                    ..
                },
                TraceEvent::CwndChanged { .. }
            )
        )
    })?;
    let recovered_before = records[..rto_at].iter().any(|r| {
        matches!(
            r.event,
            TraceEvent::FastRetransmit {
                side: Side::Server,
                ..
            }
        )
    });
    if recovered_before != after_recovery {
        return None;
    }
    match (records[rto_at + 1].event, rto_at) {
        (
            TraceEvent::CwndChanged {
                old, new, ssthresh, ..
            },
            _,
        ) => Some((old, new, ssthresh)),
        _ => None,
    }
}

#[test]
fn after_a_timeout_reno_sets_cwnd_1_and_ssthresh_half_the_old_cwnd() {
    let mut s = one_flight_tail_lost();
    s.server.sender.congestion_control = sim_core::cc::Algorithm::by_name("reno").unwrap();
    let (old, new, ssthresh) = first_rto(&s);
    assert_eq!(new, 1);
    assert_eq!(ssthresh, (old / 2).max(2));
    assert!(old >= 4, "cwnd {old} before the timeout");
}

#[test]
fn after_a_timeout_cubic_sets_cwnd_1_and_ssthresh_717_1024_of_the_old_cwnd() {
    let (old, new, ssthresh) = first_rto(&one_flight_tail_lost());
    assert_eq!(new, 1);
    assert_eq!(ssthresh, (old * 717 / 1024).max(2));
    assert!(old >= 4, "cwnd {old} before the timeout");
}

/// A timeout in the middle of fast recovery continues the same loss episode:
/// cwnd drops to 1 but ssthresh stays what recovery set (`tcp_enter_loss`
/// recomputes it only from Open, or once `high_seq` is acknowledged). Here
/// every transmission of the 5th segment is lost, so recovery cannot end.
#[test]
fn a_timeout_during_recovery_keeps_recoverys_ssthresh() {
    let mut s = seed_004();
    s.app.response = vec![30 * 1448];
    s.path.drops = vec![DropRule::data_segment(5).every_transmission()];
    s.time_limit = SimDuration::from_secs(5);
    let (before, new, ssthresh) =
        rto_during_recovery(&run(&s)).expect("the timer fires during recovery");
    assert_eq!(new, 1);
    assert_eq!(ssthresh, before);
}

/// The ssthresh recovery set, then cwnd and ssthresh after the first RTO,
/// if one fires before recovery ends.
fn rto_during_recovery(run: &sim_core::sim::RunResult) -> Option<(u32, u32, u32)> {
    let recs: Vec<_> = run.trace.records().collect();
    let fr = recs.iter().position(|r| {
        matches!(
            r.event,
            TraceEvent::FastRetransmit {
                side: Side::Server,
                ..
            }
        )
    })?;
    // high_seq: the highest sequence sent before recovery began.
    let high_seq = recs[..fr]
        .iter()
        .filter_map(|r| match r.event {
            TraceEvent::SegmentSent { seg, .. } if seg.from == Side::Server => Some(seg.end_seq()),
            _ => None,
        })
        .max()?;
    let mut ssthresh_in_recovery = None;
    for w in recs[fr..].windows(2) {
        match (w[0].event, w[1].event) {
            (
                TraceEvent::SegmentReceived {
                    to: Side::Server,
                    seg,
                },
                _,
            ) if seg.ack >= high_seq => {
                return None; // recovery ended first
            }
            (
                TraceEvent::RtoFired {
                    side: Side::Server, ..
                },
                TraceEvent::CwndChanged { new, ssthresh, .. },
            ) => return Some((ssthresh_in_recovery?, new, ssthresh)),
            (
                TraceEvent::CwndChanged {
                    ssthresh,
                    side: Side::Server,
                    ..
                },
                _,
            ) => {
                ssthresh_in_recovery.get_or_insert(ssthresh);
            }
            _ => {}
        }
    }
    None
}

#[test]
fn the_first_timeout_waits_at_least_linuxs_200ms_floor() {
    let run = run(&heavy_loss());
    let rto = run.trace.records().find_map(|r| match r.event {
        TraceEvent::RtoFired {
            side: Side::Server,
            rto_ns,
        } => Some(rto_ns),
        _ => None,
    });
    assert!(rto.unwrap() >= 200_000_000);
}

/// With the wire cut after the handshake, the server's retransmissions go
/// unanswered: it backs off to 120 s and gives up once retransmitting has
/// lasted tcp_retries2 (15) doublings from 200 ms, 924.6 s (tcp_write_timeout).
#[test]
fn unanswered_retransmissions_give_up_after_tcp_retries2() {
    use sim_core::tcp::Socket;
    use sim_core::trace::Trace;

    let mut trace = Trace::default();
    let (_client, mut server, mut now) = connected_pair(&mut trace);
    let out = |s: &mut Socket, now| drain(s, now);
    // The server writes; nothing it sends arrives any more.
    server.app_write(now, 100_000, false, &mut trace);
    let _ = out(&mut server, now);
    let mut first_rto = None;
    while !server.is_aborted() {
        now = server
            .poll_timeout()
            .expect("a timer is armed while data is outstanding");
        server.handle_timeout(now, &mut trace);
        first_rto.get_or_insert(now);
        let _ = out(&mut server, now);
    }
    let rtos = trace
        .records()
        .filter(|r| {
            matches!(
                r.event,
                TraceEvent::RtoFired {
                    side: Side::Server,
                    ..
                }
            )
        })
        .count();
    let lasted = now.since(first_rto.unwrap());
    assert!(lasted >= SimDuration::from_millis(924_600), "{lasted}");
    assert!(
        lasted < SimDuration::from_millis(924_600) + SimDuration::from_secs(120),
        "{lasted}"
    );
    assert!(rtos >= 15, "{rtos} timeouts");
}

#[test]
fn the_ss_line_counts_retransmitted_bytes_not_segments_times_mss() {
    // 100,000 B is 69 full segments and an 88-byte tail; at 30 % loss the
    // tail is among the segments resent.
    let run = run(&heavy_loss());
    let resent: Vec<u64> = run
        .trace
        .records()
        .filter_map(|r| match r.event {
            TraceEvent::SegmentSent {
                seg,
                retransmit: true,
                ..
            } if seg.from == Side::Server && seg.len > 0 => Some(seg.len as u64),
            _ => None,
        })
        .collect();
    assert!(
        !resent.is_empty(),
        "the shallow queue forces retransmissions"
    );
    let line = sim_core::report::ss_line(&run);
    let field = format!(" bytes_retrans:{} ", resent.iter().sum::<u64>());
    assert!(line.contains(&field), "{field} in {line}");
}

/// A timeout that fires while the originals are only delayed (here: held,
/// then delivered after it) is spurious. The client's ACK echoes the
/// original's timestamp, older than the first retransmission, so the server
/// undoes it (`tcp_try_undo_loss`, `tcp_packet_delayed`): cwnd and ssthresh
/// come back and the state returns to Open.
#[test]
fn a_spurious_timeout_is_undone_by_the_echoed_timestamp() {
    use sim_core::cc::CaState;
    use sim_core::tcp::Socket;
    use sim_core::time::SimTime;
    use sim_core::trace::Trace;

    let mut trace = Trace::default();
    let (mut client, mut server, now) = connected_pair(&mut trace);
    let mut now = now;
    let out = |s: &mut Socket, now: SimTime| drain(s, now);
    server.app_write(now, 10 * 1448, false, &mut trace);
    let originals = out(&mut server, now);
    assert_eq!(originals.len(), 10);
    let cwnd_before = server.cwnd();
    // Nothing arrives until the RTO has fired and the head has been resent.
    now = server.poll_timeout().unwrap();
    server.handle_timeout(now, &mut trace);
    assert_eq!(server.ca_state(), CaState::Loss);
    assert_eq!(server.cwnd(), 1);
    let resent = out(&mut server, now);
    assert_eq!(resent.len(), 1);
    // Now the delayed originals reach the client; its ACKs echo their timestamps.
    now += SimDuration::from_millis(1);
    for seg in &originals {
        client.handle_segment(now, seg, &mut trace);
    }
    let acks = out(&mut client, now);
    assert!(acks.iter().all(|a| a.ts_ecr < resent[0].ts_val));
    for ack in &acks {
        server.handle_segment(now, ack, &mut trace);
    }
    assert_eq!(server.ca_state(), CaState::Open);
    assert!(server.cwnd() >= cwnd_before, "cwnd {}", server.cwnd());
    assert!(
        server.ssthresh() > 1_000_000,
        "ssthresh restored to infinity"
    );
}
