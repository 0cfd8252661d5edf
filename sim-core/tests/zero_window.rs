//! A slow or stopped reader: unread data fills the receive buffer, the window
//! closes, the sender probes on the persist timer with exponential backoff
//! (tcp_timer.c `tcp_probe_timer`), and reads reopen the window with an update
//! (`tcp_cleanup_rbuf`).

mod common;
use common::*;
use sim_core::analysis::summarize;
use sim_core::config::Scenario;
use sim_core::segment::Side;
use sim_core::time::SimDuration;
use sim_core::trace::TraceEvent;

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

#[test]
fn a_stopped_reader_closes_the_window_and_the_sender_probes_with_backoff() {
    let mut s = slow_client(100_000, 0);
    s.time_limit = SimDuration::from_secs(30);
    let run = run(&s);
    assert!(summarize(&run).timed_out, "nothing is ever read");
    // The client ends up advertising a zero window.
    let last_wnd = sent_by(&run, Side::Client).last().unwrap().1.wnd;
    assert_eq!(last_wnd, 0);
    // The first probe still finds a little room and carries data (tcp_write_wakeup);
    // its ACK comes back after the client's delayed-ACK timer. From then on the
    // window is shut and each empty probe waits twice as long as the one before
    // (RTO × 2^probes, tcp_probe_timer).
    let probes: Vec<_> = run
        .trace
        .records()
        .iter()
        .filter(|r| {
            matches!(
                r.event,
                TraceEvent::ZeroWindowProbe {
                    side: Side::Server,
                    ..
                }
            )
        })
        .map(|r| r.time)
        .collect();
    assert!(probes.len() >= 5, "{} probes", probes.len());
    let gaps: Vec<u64> = probes.windows(2).map(|w| w[1].since(w[0]).0).collect();
    for pair in gaps.windows(2).skip(1).take(3) {
        assert_eq!(
            pair[1],
            2 * pair[0],
            "each probe waits twice as long: {gaps:?}"
        );
    }
    // Every probe is answered at once with the (still zero) window.
    let probe_answers = sent_by(&run, Side::Client)
        .iter()
        .filter(|(_, seg, _)| seg.wnd == 0)
        .count();
    assert!(probe_answers >= probes.len());
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
fn reading_reopens_the_window_with_an_update_of_its_own() {
    // At 100 kB/s, reading one 1448-byte segment takes 14.5 ms. With the window
    // full, each read is answered by a pure window update from the client.
    let run = run(&slow_client(200_000, 100_000));
    let updates = sent_by(&run, Side::Client)
        .windows(2)
        .filter(|w| w[1].1.len == 0 && w[1].1.ack == w[0].1.ack && w[1].1.wnd > w[0].1.wnd)
        .count();
    assert!(updates > 10, "{updates} window updates");
}
