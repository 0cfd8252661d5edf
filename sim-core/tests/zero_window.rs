//! A slow or stopped reader: unread data fills the receive buffer, the window
//! closes, the sender probes on the persist timer with exponential backoff
//! (tcp_timer.c `tcp_probe_timer`), and reads reopen the window with an update
//! (`tcp_cleanup_rbuf`).

mod common;
use common::*;
use sim_core::analysis::summarize;
use sim_core::config::Scenario;
use sim_core::segment::{Segment, Side};
use sim_core::time::{SimDuration, SimTime};
use sim_core::timer_wheel::{Hz, TimerWheel};

/// The server pushes `bytes` to a client with a locked 16 KB receive buffer
/// (8 KB of window) whose application reads `rate` bytes per second.
fn slow_client(bytes: u64, rate: u64) -> Scenario {
    let mut s = seed_004();
    s.app.request = vec![];
    s.app.response = vec![bytes];
    s.client.receiver.rcvbuf = 16_384;
    s.client.receiver.rcvbuf_max = 16_384;
    s.client.receiver.autotune = false;
    s.client.receiver.syn_window = 8_192;
    s.client.receiver.read_rate = Some(rate);
    s
}

/// When the server received each ACK from the client, in order.
fn acks_at_server(run: &sim_core::sim::RunResult) -> Vec<(SimTime, Segment)> {
    received_by(run, Side::Server)
        .into_iter()
        .filter(|(_, s)| s.flags.ack)
        .collect()
}

#[test]
fn a_stopped_reader_closes_the_window_and_the_sender_probes_with_backoff() {
    let mut s = slow_client(100_000, 0);
    s.time_limit = SimDuration::from_secs(30);
    let run = run(&s);
    assert!(summarize(&run).timed_out, "nothing is ever read");
    // The client ends up advertising a zero window.
    let last_wnd = sent_by(&run, Side::Client).last().unwrap().1.wnd;
    assert_eq!(last_wnd, 0);
    // The first probe still finds a little room and carries data
    // (tcp_write_wakeup), which hands over to the RTO; its ACK shuts the
    // window with nothing in flight, so probing starts afresh at
    // tcp_probe0_base (tcp_check_probe_timer). From then on each probe timer
    // runs tcp_probe0_when = base << (empty probes sent): from the
    // receiver's zero-window answer when one came (tcp_ack_probe), else
    // from the unanswered probe (tcp_send_probe0).
    let probes = probe_times(&run, Side::Server);
    let acks = acks_at_server(&run);
    let shut = acks
        .iter()
        .rfind(|(t, seg)| *t < probes[1] && seg.wnd == 0)
        .expect("an ACK shut the window")
        .0;
    // Each timer is a jiffies timer on the server's wheel (HZ=1000): armed
    // for `when` rounded up to ticks, it runs on the expiry tick (the
    // cascading wheel these hosts have) or, on 4.8+, on the first tick of its
    // level's granularity past it (8 ticks for 63–503, 64 for 504–4031 …).
    // The RTO is not a whole number of ticks, so `rto << k` is known to a
    // range of ticks: the first wait gives the candidates B for ticks(rto),
    // and wait k must be what the wheel makes of some tick count in
    // ((B − 1) << k, B << k].
    let wheel = s.server.behaviour.timer_wheel;
    let runs_at = |from: SimTime, ticks: u64| wheel.arm(Hz::DEFAULT, from, ticks).1;
    let bases: Vec<u64> = (1..2_000)
        .filter(|&b| runs_at(shut, b) == probes[1])
        .collect();
    assert!(!bases.is_empty(), "the first probe is on the wheel");
    let empty = &probes[1..];
    assert!(empty.len() >= 5, "{} probes", empty.len());
    for (k, w) in empty.windows(2).enumerate() {
        let answered_at = acks
            .iter()
            .find(|(t, _)| *t > w[0] && *t < w[1])
            .map(|(t, _)| *t);
        let from = answered_at.unwrap_or(w[0]);
        let shift = k + 1;
        let fits = bases.iter().any(|&b| {
            (((b - 1) << shift) + 1..=b << shift).any(|t| runs_at(from, t.min(120_000)) == w[1])
        });
        assert!(fits, "probe {} of {empty:?}", k + 2);
    }
    // The client answers a probe only if its last answer is 500 ms old
    // (tcp_oow_rate_limited): the second probe follows the first answer by
    // 2 x base + 3.5 ms < 500 ms and goes unanswered, the later ones are
    // answered.
    let answers: Vec<SimTime> = sent_by(&run, Side::Client)
        .iter()
        .filter(|(t, seg, _)| *t > probes[1] && seg.wnd == 0)
        .map(|(t, ..)| *t)
        .collect();
    for pair in answers.windows(2) {
        assert!(pair[1].since(pair[0]) >= SimDuration::from_millis(500));
    }
    assert_eq!(answers.len(), empty.len() - 1, "all but the second");
}

#[test]
fn a_slow_reader_sets_the_pace_of_the_whole_transfer() {
    // 1 MB read at 100 kB/s takes about 10 s whatever the 1 Gbit/s path could do.
    let run = run(&slow_client(1_000_000, 100_000));
    let t = &summarize(&run).transfers[0];
    let secs = t.duration().as_secs_f64();
    assert!((9.9..10.1).contains(&secs), "{secs:.3} s");
}

#[test]
fn with_the_window_nearly_shut_the_read_that_reopens_it_sends_the_ack() {
    // At 100 kB/s, reading one 1448-byte segment takes 14.5 ms. Once the
    // window is nearly shut, a segment arriving alone is not ACKed on arrival
    // (one rcv_mss, and no quick ACKs left: __tcp_select_window ended them);
    // the read that frees room sends the ACK, with the window it reopened
    // (tcp_cleanup_rbuf: at least twice what was left).
    let run = run(&slow_client(200_000, 100_000));
    let arrivals: std::collections::BTreeSet<_> = run
        .trace
        .records()
        .filter_map(|r| match r.event {
            sim_core::trace::TraceEvent::SegmentReceived {
                to: Side::Client,
                seg,
            } if seg.len > 0 => Some(r.time),
            _ => None,
        })
        .collect();
    let on_read: Vec<_> = sent_by(&run, Side::Client)
        .into_iter()
        .filter(|(t, s, _)| s.ack > 1 && !arrivals.contains(t))
        .collect();
    assert!(on_read.len() > 10, "{} ACKs sent on a read", on_read.len());
    // (The last, 176-byte segment is ACKed when a read empties the buffer
    // after it: a short segment sets PUSHED.)
    let small: Vec<_> = on_read
        .iter()
        .filter(|(_, s, _)| s.ack < 200_001 && s.wnd < 2 * 1152)
        .collect();
    assert!(small.is_empty(), "{small:?}");
}

#[test]
fn the_stopped_reader_case_stays_open_because_its_probes_are_answered() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios/seed-001-receiver-stops-reading.toml");
    let (_, s) = sim_core::scenario_file::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let run = run(&s);
    assert!(
        matches!(run.outcome, sim_core::sim::Outcome::TimeLimit { .. }),
        "{:?}",
        run.outcome
    );
    let probes = probe_times(&run, Side::Server);
    // Backoff doubles up to TCP_RTO_MAX and stays there: the last timers run
    // 120 s from the answer to the probe before, a round trip after it.
    let [.., before, last] = probes[..] else {
        panic!("{} probes", probes.len())
    };
    let answered = acks_at_server(&run)
        .into_iter()
        .find(|(t, _)| *t > before)
        .expect("the probe was answered")
        .0;
    // On 3.10's wheel with timer slack: 120,000 ticks may run up to
    // 120000 / 256 = 468 ticks late, at the tick apply_slack picks.
    let from = answered.0 / 1_000_000;
    assert_eq!(
        last.0 / 1_000_000,
        TimerWheel::CascadingSlack.runs_on(from, from + 120_000),
        "{:?}",
        last.since(answered)
    );
    let rtt = answered.since(before);
    assert!(
        rtt >= SimDuration::from_millis(7) && rtt < SimDuration::from_micros(7_010),
        "answered a round trip (and two 52-byte serialisations) later: {rtt:?}"
    );
    assert!(
        probes.len() > 15,
        "more probes than tcp_retries2, and still open"
    );
}

/// Drives two sockets by hand (sans-IO), delivering segments instantly, so a
/// test can cut the wire.
mod by_hand {
    use sim_core::config::HostConfig;
    use sim_core::segment::Segment;
    use sim_core::tcp::Socket;
    use sim_core::time::{SimDuration, SimTime};
    use sim_core::trace::{Trace, TraceEvent};

    fn out(s: &mut Socket, now: SimTime) -> Vec<Segment> {
        std::iter::from_fn(|| s.poll_transmit(now).map(|(seg, _, _)| seg)).collect()
    }

    #[test]
    fn probes_with_no_answer_give_up_after_tcp_retries2() {
        let mut trace = Trace::default();
        let mut client_cfg = HostConfig::default();
        client_cfg.receiver.read_rate = Some(0); // never reads
        let mut client = Socket::connect(&client_cfg);
        let mut server = Socket::listen(&HostConfig::default());
        let mut now = SimTime::ZERO;
        // Handshake and the server's data, delivered instantly, with every timer
        // honoured, until the window is shut to the byte: the first probe finds
        // a sliver of room and carries data (tcp_write_wakeup); once that is
        // acknowledged nothing is in flight and only empty probes remain.
        server.app_write(now, 1 << 20, false, &mut trace);
        let mut last_wnd = u64::MAX;
        for _ in 0..10_000 {
            for seg in out(&mut client, now) {
                server.handle_segment(now, &seg, &mut trace);
            }
            for seg in out(&mut server, now) {
                client.handle_segment(now, &seg, &mut trace);
            }
            for seg in out(&mut client, now) {
                last_wnd = seg.wnd;
                server.handle_segment(now, &seg, &mut trace);
            }
            let probed = trace
                .records()
                .any(|r| matches!(r.event, TraceEvent::ZeroWindowProbe { .. }));
            if probed && last_wnd == 0 && server.packets_out() == 0 {
                break;
            }
            let next = [client.poll_timeout(), server.poll_timeout()]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(now + SimDuration::from_micros(10));
            now = next.max(now + SimDuration::from_micros(10));
            client.handle_timeout(now, &mut trace);
            server.handle_timeout(now, &mut trace);
        }
        assert_eq!(last_wnd, 0, "the client's window is shut");
        assert_eq!(server.packets_out(), 0, "nothing left in flight");
        let dead_from = now;
        // Now the wire goes dead: the server's probes are never answered.
        let mut gave_up_at = None;
        for _ in 0..100 {
            // The sender reacts to the last ACK (arming its persist timer) and
            // anything it sends from here on is lost.
            let _ = out(&mut server, now);
            let Some(t) = server.poll_timeout() else {
                break;
            };
            now = t;
            server.handle_timeout(now, &mut trace);
            let _ = out(&mut server, now);
            if server.is_aborted() {
                gave_up_at = Some(now);
                break;
            }
        }
        assert!(gave_up_at.is_some(), "the server gives up");
        let probes = trace
            .records()
            .filter(|r| r.time > dead_from)
            .filter(|r| matches!(r.event, TraceEvent::ZeroWindowProbe { .. }))
            .count();
        let rtos = trace
            .records()
            .filter(|r| r.time > dead_from)
            .filter(|r| matches!(r.event, TraceEvent::RtoFired { .. }))
            .count();
        assert_eq!(rtos, 0, "empty probes arm no retransmission timer");
        assert_eq!(
            probes, 15,
            "net.ipv4.tcp_retries2 = 15 unanswered probes, then tcp_write_err"
        );
    }

    /// When the window leaves a sliver of room, the first probe carries data
    /// (tcp_write_wakeup). If the peer then goes silent, that data is in flight,
    /// so the retransmission timer (not the persist timer) takes over: it
    /// resends the same bytes at each RTO (__tcp_retransmit_skb cuts them at the
    /// window's edge) and gives up after tcp_retries2 worth of backoff.
    #[test]
    fn an_unanswered_data_probe_is_retransmitted_on_the_rto_until_give_up() {
        let mut trace = Trace::default();
        let mut client_cfg = HostConfig::default();
        client_cfg.receiver.read_rate = Some(0);
        let mut client = Socket::connect(&client_cfg);
        let mut server = Socket::listen(&HostConfig::default());
        let mut now = SimTime::ZERO;
        server.app_write(now, 1 << 20, false, &mut trace);
        for _ in 0..200 {
            now += SimDuration::from_micros(10);
            for seg in out(&mut client, now) {
                server.handle_segment(now, &seg, &mut trace);
            }
            for seg in out(&mut server, now) {
                client.handle_segment(now, &seg, &mut trace);
            }
        }
        // The wire goes dead; record everything the server sends from here on.
        let dead_from = now;
        let mut sent: Vec<(SimTime, Segment)> = vec![];
        let mut gave_up_at = None;
        for _ in 0..100 {
            sent.extend(out(&mut server, now).into_iter().map(|seg| (now, seg)));
            let Some(t) = server.poll_timeout() else {
                break;
            };
            now = t;
            server.handle_timeout(now, &mut trace);
            if server.is_aborted() {
                gave_up_at = Some(now);
                break;
            }
        }
        let after = |r: &sim_core::trace::TraceRecord| r.time > dead_from;
        let probes: Vec<SimTime> = trace
            .records()
            .filter(after)
            .filter(|r| matches!(r.event, TraceEvent::ZeroWindowProbe { .. }))
            .map(|r| r.time)
            .collect();
        let rtos: Vec<SimTime> = trace
            .records()
            .filter(after)
            .filter(|r| matches!(r.event, TraceEvent::RtoFired { .. }))
            .map(|r| r.time)
            .collect();
        assert_eq!(probes.len(), 1, "one probe, carrying data");
        let data: Vec<&(SimTime, Segment)> = sent.iter().filter(|(_, s)| s.len > 0).collect();
        let first = &data[0].1;
        assert!(
            first.len > 0 && first.len < 1448,
            "the probe fills the sliver: {} bytes",
            first.len
        );
        // Every RTO resends exactly those bytes, at the moment it fires.
        assert_eq!(data.len(), 1 + rtos.len());
        for ((at, seg), rto) in data[1..].iter().zip(&rtos) {
            assert_eq!((seg.seq, seg.len), (first.seq, first.len));
            assert_eq!(at, rto);
        }
        // tcp_write_timeout: 924.6 s for tcp_retries2 = 15, counted from
        // retrans_stamp, the probe's own send (the segment the first RTO resent).
        let gave_up_at = gave_up_at.expect("the server gives up");
        assert_eq!(
            server.gave_up(),
            Some(sim_core::tcp::GiveUp::Retries2),
            "tcp_retries2"
        );
        let retrying = gave_up_at.since(data[0].0);
        assert!(
            retrying >= SimDuration::from_millis(924_600)
                && retrying < SimDuration::from_millis(924_600 + 120_000),
            "{retrying:?}"
        );
    }
}
