//! Seed 000, case 2 (after Stuart Cheshire): 99,900 bytes moved at 5.2 MB/s,
//! 100,000 bytes at 2.7 MB/s. With classic Nagle the 88-byte tail of 100,000
//! waits until the 69th (odd) full segment is acknowledged, which a delaying
//! receiver does only when its timer fires; 99,900 ends on an even segment and
//! never waits. Linux's Minshall variant sends both tails at once.
//!
//! The report gives no path or timer details, so the classic files assume a
//! 100 Mbit/s LAN and a 200 ms delayed-ACK timer. The tests assert the effect
//! (which size stalls, on what, and by at least the reported factor), not the
//! absolute speeds.
#![cfg(feature = "scenario-file")]

mod common;
use common::{scenario_file, scenario_text};

use sim_core::analysis::{TransferTiming, summarize};
use sim_core::sim;
use sim_core::time::SimDuration;

fn transfers(name: &str) -> Vec<TransferTiming> {
    summarize(&common::run(&scenario_file(name))).transfers
}

/// Bytes per second over all the transfers of a loop.
fn speed(t: &[TransferTiming]) -> f64 {
    let bytes: u64 = t.iter().map(|x| x.bytes).sum();
    let secs: f64 = t.iter().map(|x| x.duration().as_secs_f64()).sum();
    bytes as f64 / secs
}

#[test]
fn with_classic_stacks_100000_bytes_stall_on_every_transfer_and_99900_never_do() {
    let slow = transfers("seed-000-100000-classic.toml");
    let fast = transfers("seed-000-99900-classic.toml");
    assert_eq!((slow.len(), fast.len()), (20, 20));
    for t in &slow {
        assert!(
            t.duration() >= SimDuration::from_millis(200),
            "transfer {} took {}",
            t.index,
            t.duration()
        );
    }
    for t in &fast {
        assert!(
            t.duration() < SimDuration::from_millis(20),
            "transfer {} took {}",
            t.index,
            t.duration()
        );
    }
    // Reported: 5.2 vs 2.7 MB/s, a factor of 1.9. The stall here is the whole
    // 200 ms timer, so the factor is at least that.
    assert!(speed(&fast) / speed(&slow) > 5.2 / 2.7);
}

#[test]
fn with_linux_stacks_the_hundred_extra_bytes_cost_nothing() {
    let a = speed(&transfers("seed-000-99900-linux.toml"));
    let b = speed(&transfers("seed-000-100000-linux.toml"));
    // 100 extra bytes in 100,000: the speeds agree within 1 %.
    assert!(
        (a / b - 1.0).abs() < 0.01,
        "{:.2} vs {:.2} MB/s",
        a / 1e6,
        b / 1e6
    );
}

#[test]
fn a_post_split_into_header_and_body_waits_40ms_once_the_connection_is_interactive() {
    // 7 ms RTT. First POST: the header reaches the server at 3.5 ms, which is in
    // quick-ACK mode and ACKs at once; the held body leaves at 7 ms, arrives at
    // 10.5 ms, and the response is back at 14 ms. Later POSTs: the server has
    // replied quickly before, so it is in ping-pong mode and delays the ACK of the
    // header by 40 ms: 3.5 + 40 + 3.5 + 3.5 + 3.5 = 54 ms. The timer is due
    // 40 jiffies after the jiffy the header arrived in (tcp_send_delayed_ack),
    // so the wait is up to one jiffy (1 ms at HZ = 1000) shorter.
    let t = transfers("seed-000-post-header-body.toml");
    let ms: Vec<f64> = t.iter().map(|x| x.duration().as_millis_f64()).collect();
    assert!((14.0..14.1).contains(&ms[0]), "{ms:?}");
    for later in &ms[1..] {
        assert!((53.0..54.1).contains(later), "{ms:?}");
    }
    assert!(
        ms[1] < 54.0,
        "the second header arrived 0.5 ms into a jiffy: {ms:?}"
    );
}

#[test]
fn tcp_nodelay_removes_the_wait_from_every_post() {
    let text =
        scenario_text("seed-000-post-header-body.toml") + "\n[client.sockopt]\nTCP_NODELAY = 1\n";
    let (_, scenario) = sim_core::scenario_file::parse(&text).unwrap();
    for t in summarize(&sim::run(&scenario).unwrap()).transfers {
        // Header and body leave together: one round trip each.
        assert!(
            (7.0..7.1).contains(&t.duration().as_millis_f64()),
            "{}",
            t.duration()
        );
    }
}

#[test]
fn tcp_cork_sends_header_and_body_as_one_segment_without_waiting() {
    // Corked while it writes the message, the client holds the 300-byte header
    // until the body is written, then sends both as one 1300-byte segment.
    let text =
        scenario_text("seed-000-post-header-body.toml") + "\n[client.sockopt]\nTCP_CORK = 1\n";
    let (_, scenario) = sim_core::scenario_file::parse(&text).unwrap();
    let run = common::run(&scenario);
    let requests: Vec<u32> = common::sent_by(&run, sim_core::segment::Side::Client)
        .iter()
        .filter(|(_, s, _)| s.len > 0)
        .map(|(_, s, _)| s.len)
        .collect();
    assert_eq!(requests, vec![1300; 3], "one segment per POST");
    for t in summarize(&run).transfers {
        assert!(
            (7.0..7.1).contains(&t.duration().as_millis_f64()),
            "{}",
            t.duration()
        );
    }
}

#[test]
fn ss_shows_the_servers_ato_and_its_unacknowledged_last_reply() {
    // At the end of the run (the client has read the third reply) the
    // server's ato is back at TCP_ATO_MIN after its timers fired in
    // ping-pong mode; its reply left half a round trip (3.5 ms, whole ms
    // as `ss` prints them) ago, after the request's data and ACK arrived,
    // and the client's ACK of it is not back yet.
    let run = common::run(&scenario_file("seed-000-post-header-body.toml"));
    let line = sim_core::report::ss_line(&run);
    assert!(line.contains(" rtt:7.005/1.973 ato:40 mss:1448 "), "{line}");
    assert!(
        line.contains(" lastsnd:3 lastrcv:3 lastack:3 unacked:1 snd_wnd:"),
        "{line}"
    );
}
