//! Slow start, packet by packet, against what Linux does (tcp_cong.c
//! `tcp_slow_start`, initcwnd 10). The ladder below is for a receiver that ACKs
//! every second segment; a Linux receiver whose window is still growing ACKs
//! every segment instead (cwnd +1 per ACK), with the same flights.
//!
//! ```text
//!  server                                client
//!    |--- flight 1: 10 x 1448 ----------->|   cwnd 10
//!    |<-- 5 ACKs, each for 2 segments ----|   cwnd 12, 14, 16, 18, 20
//!    |--- flight 2: 20 x 1448 ----------->|   each ACK released 4 segments
//!    |<-- 10 ACKs ------------------------|   cwnd 22 ... 40
//!    |--- flight 3: 40 x 1448 ----------->|   ... and so on, doubling per RTT
//! ```

mod common;
use common::*;
use sim_core::analysis::{flights, summarize};
use sim_core::segment::Side;
use sim_core::time::SimDuration;

#[test]
fn flights_double_exactly_when_the_window_is_large() {
    let run = run(&large_window(seed_004()));
    let bytes: Vec<u64> = flights(&run.trace, Side::Server)
        .iter()
        .map(|f| f.bytes)
        .collect();
    // 10, 20, 40, 80, 160 segments of 1448 bytes, then the remaining 75408 bytes.
    assert_eq!(
        bytes,
        vec![14_480, 28_960, 57_920, 115_840, 231_680, 75_408]
    );
    assert_eq!(bytes.iter().sum::<u64>(), 524_288);
}

#[test]
fn each_ack_for_two_segments_adds_two_to_cwnd() {
    let run = run(&every_other_ack(large_window(seed_004())));
    let steps = cwnd_steps(&run);
    // Flight 1's five ACKs take cwnd from 10 to 20, flight 2's ten ACKs to 40.
    assert_eq!(&steps[..5], &[12, 14, 16, 18, 20]);
    assert_eq!(steps[14], 40);
    assert!(
        steps.windows(2).take(150).all(|w| w[1] == w[0] + 2),
        "{steps:?}"
    );
}

#[test]
fn each_ack_releases_four_segments_in_slow_start() {
    let run = run(&every_other_ack(large_window(seed_004())));
    // The second flight goes out in bursts of four, one burst per ACK.
    let data: Vec<_> = sent_by(&run, Side::Server)
        .into_iter()
        .filter(|(_, s, _)| s.len > 0)
        .collect();
    let flight2: Vec<_> = data.iter().filter(|(_, _, f)| *f == 2).collect();
    assert_eq!(flight2.len(), 20);
    for burst in flight2.chunks(4) {
        assert!(
            burst.iter().all(|(t, _, _)| *t == burst[0].0),
            "a burst shares one ACK's arrival time"
        );
    }
    assert_ne!(flight2[0].0, flight2[4].0);
}

#[test]
fn a_linux_receiver_whose_window_grows_acks_every_segment_and_cwnd_grows_by_one() {
    // tcp_grow_window sets quick-ACK mode each time rcv_ssthresh grows, so with a
    // large buffer every segment is acknowledged on arrival: +1 per ACK, and each
    // ACK releases two segments. The flights still double.
    let run = run(&large_window(seed_004()));
    let steps = cwnd_steps(&run);
    assert_eq!(&steps[..10], &[11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    let acks = client_acks(&run);
    let firsts: Vec<u64> = acks.iter().take(10).map(|(_, a)| *a).collect();
    assert_eq!(firsts, (1..=10).map(|i| 1 + i * 1448).collect::<Vec<_>>());
    let bytes: Vec<u64> = flights(&run.trace, Side::Server)
        .iter()
        .map(|f| f.bytes)
        .collect();
    assert_eq!(&bytes[..5], &[14_480, 28_960, 57_920, 115_840, 231_680]);
}

#[test]
fn the_first_flight_leaves_one_and_a_half_rtts_after_the_syn() {
    // SYN at 0, SYN-ACK back at 1 RTT, request reaches the server at 1.5 RTT.
    let run = run(&seed_004());
    let first_data = sent_by(&run, Side::Server)
        .into_iter()
        .find(|(_, s, _)| s.len > 0)
        .unwrap();
    let rtt = SimDuration::from_millis(7).0;
    let t = first_data.0.as_nanos();
    // plus serialisation of the SYN, SYN-ACK and request (a few microseconds at 1 Gbit/s)
    assert!(
        t >= rtt * 3 / 2 && t < rtt * 3 / 2 + 5_000,
        "first data at {t} ns"
    );
}

#[test]
fn a_default_linux_client_window_caps_initcwnd_100_at_44_segments() {
    // The client's SYN says 64240; its ACK with the request says 502 x 128 = 64256.
    // Whole segments only: 44 x 1448 = 63712 bytes fit, the 45th does not.
    // (Seed 004's capture with initcwnd 100 shows the same 63712-byte first flight.)
    let mut s = seed_004();
    s.server.sender.initcwnd = 100;
    let run = run(&s);
    let f = flights(&run.trace, Side::Server);
    assert_eq!(f[0].segments, 44);
    assert_eq!(f[0].bytes, 63_712);
}

#[test]
fn initcwnd_100_sends_100_segments_at_once_when_the_window_allows() {
    let mut s = large_window(seed_004());
    s.server.sender.initcwnd = 100;
    s.client.receiver.syn_window = 65_535;
    // A 65535-byte SYN window is still less than 100 segments: the cap is the SYN's.
    let run = run(&s);
    let f = flights(&run.trace, Side::Server);
    assert_eq!(f[0].bytes, 45 * 1448);
}

#[test]
fn the_summary_counts_flights_as_round_trips() {
    let run = run(&large_window(seed_004()));
    let s = summarize(&run);
    assert_eq!(s.round_trips(), 6);
    assert_eq!(s.retransmissions, 0);
    assert_eq!(s.drops, 0);
    // Handshake and request take 1.5 RTT, the first flight leaves then, each
    // later flight one RTT after the previous one, and the sixth arrives half an
    // RTT after it leaves: 1.5 + 5 + 0.5 = 7 RTT = 49 ms, plus serialisation
    // (53 packets of the last flight alone take 0.62 ms at 1 Gbit/s).
    let done = s.completion.unwrap().as_millis_f64();
    assert!((49.6..50.0).contains(&done), "completed at {done} ms");
}

#[test]
fn a_near_zero_rtt_makes_the_link_rate_the_limit() {
    let mut s = large_window(seed_004());
    s.path = sim_core::config::PathConfig::symmetric(1_000_000_000, SimDuration::from_micros(300));
    let run = run(&s);
    let done = summarize(&run).completion.unwrap().as_millis_f64();
    // 524288 bytes in 1500-byte packets at 1 Gbit/s take 4.35 ms on the wire alone.
    let wire_ms = (524_288f64 / 1448.0).ceil() * 1500.0 * 8.0 / 1e6;
    assert!(
        done > wire_ms && done < wire_ms + 3.0,
        "{done} ms vs {wire_ms} ms on the wire"
    );
}
