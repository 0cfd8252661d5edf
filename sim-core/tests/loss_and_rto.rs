//! Losses that duplicate ACKs cannot reveal are repaired by the retransmission
//! timeout: Linux's 200 ms floor, cwnd 1 afterwards, ssthresh from the
//! algorithm, everything outstanding resent (go-back-N).

mod common;
use common::*;
use sim_core::analysis::summarize;
use sim_core::config::PathConfig;
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

#[test]
fn a_drop_tail_overflow_is_repaired_and_the_transfer_completes() {
    let run = run(&shallow_queue());
    let sum = summarize(&run);
    assert!(sum.drops > 0, "the shallow queue must overflow");
    assert!(sum.retransmissions > 0);
    assert!(sum.completion.is_some(), "the transfer must still finish");
}

/// cwnd just before and after the server's first RTO on data (a lost SYN-ACK
/// also times out, without touching cwnd), and the new ssthresh.
fn first_rto(s: &sim_core::config::Scenario) -> (u32, u32, u32) {
    let run = run(s);
    let records = run.trace.records();
    records
        .windows(2)
        .find_map(|w| match (w[0].event, w[1].event) {
            (
                TraceEvent::RtoFired {
                    side: Side::Server, ..
                },
                TraceEvent::CwndChanged {
                    old, new, ssthresh, ..
                },
            ) => Some((old, new, ssthresh)),
            _ => None,
        })
        .expect("a data RTO fires")
}

#[test]
fn after_a_timeout_reno_sets_cwnd_1_and_ssthresh_half_the_old_cwnd() {
    let mut s = heavy_loss();
    s.server.sender.congestion_control = sim_core::cc::Algorithm::by_name("reno").unwrap();
    let (old, new, ssthresh) = first_rto(&s);
    assert_eq!(new, 1);
    assert_eq!(ssthresh, (old / 2).max(2));
}

#[test]
fn after_a_timeout_cubic_sets_cwnd_1_and_ssthresh_717_1024_of_the_old_cwnd() {
    let (old, new, ssthresh) = first_rto(&heavy_loss());
    assert_eq!(new, 1);
    assert_eq!(ssthresh, (old * 717 / 1024).max(2));
}

#[test]
fn the_first_timeout_waits_at_least_linuxs_200ms_floor() {
    let run = run(&heavy_loss());
    let rto = run.trace.records().iter().find_map(|r| match r.event {
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
    use sim_core::config::HostConfig;
    use sim_core::tcp::Socket;
    use sim_core::time::SimTime;
    use sim_core::trace::Trace;

    let mut trace = Trace::default();
    let mut client = Socket::connect(&HostConfig::default());
    let mut server = Socket::listen(&HostConfig::default());
    let mut now = SimTime::ZERO;
    let out = |s: &mut Socket, now| {
        std::iter::from_fn(|| s.poll_transmit(now).map(|(seg, _, _)| seg)).collect::<Vec<_>>()
    };
    // Handshake, delivered instantly.
    for _ in 0..3 {
        now += SimDuration::from_millis(1);
        for seg in out(&mut client, now) {
            server.handle_segment(now, &seg, &mut trace);
        }
        for seg in out(&mut server, now) {
            client.handle_segment(now, &seg, &mut trace);
        }
    }
    assert!(server.is_established());
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
        .iter()
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
        .iter()
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
