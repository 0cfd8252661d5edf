//! Nagle's algorithm in its three forms, packet by packet (tcp_output.c
//! `tcp_nagle_check`, `tcp_minshall_check`):
//!
//! ```text
//!  classic (RFC 896: BSD, macOS, Windows)  a sub-MSS segment waits while ANY data is unacknowledged
//!  Minshall (Linux)                        ... while an earlier SUB-MSS segment is unacknowledged
//!  TCP_NODELAY                             never waits
//! ```

mod common;
use common::*;
use sim_core::config::{DelayedAck, Nagle, Scenario};
use sim_core::segment::Side;
use sim_core::time::{SimDuration, SimTime};

const MS: u64 = 1_000_000;

/// The server answers with `response` bytes under `nagle`; the client is a
/// classic delayed-ACK receiver with a `delack` timer (no quick ACKs).
fn bulk(response: u64, nagle: Nagle, delack_ms: u64) -> Scenario {
    let mut s = large_window(seed_004());
    s.app.response = vec![response];
    s.server.sender.nagle = nagle;
    s.client.receiver.delayed_ack = DelayedAck::Fixed(SimDuration::from_millis(delack_ms));
    s
}

/// When the sub-MSS tail of the response left the server, and when the last
/// full segment before it reached the client.
fn tail_timing(s: &Scenario) -> (SimTime, SimTime) {
    let run = run(s);
    let data: Vec<_> = sent_by(&run, Side::Server)
        .into_iter()
        .filter(|(_, seg, _)| seg.len > 0)
        .collect();
    let (tail_sent, tail, _) = *data.last().unwrap();
    assert!(tail.len < 1448, "the response ends in a short segment");
    let last_full = data[data.len() - 2].1;
    let (arrived, _) = received_by(&run, Side::Client)
        .into_iter()
        .find(|(_, seg)| seg.seq == last_full.seq)
        .unwrap();
    (tail_sent, arrived)
}

#[test]
fn classic_nagle_holds_the_88_byte_tail_of_100000_bytes_for_the_delayed_ack() {
    // 100000 = 69 x 1448 + 88. The 69th full segment is odd, so the receiver
    // delays its ACK (200 ms here, as on the BSD-derived stacks of Cheshire's
    // note); classic Nagle holds the tail until everything is acknowledged.
    let (tail_sent, last_full_arrived) = tail_timing(&bulk(100_000, Nagle::Classic, 200));
    let wait = tail_sent.since(last_full_arrived).0;
    // The timer's 200 ms, then the ACK's 3.5 ms trip back.
    assert!(
        (203 * MS..205 * MS).contains(&wait),
        "tail left {} ms after",
        wait as f64 / 1e6
    );
}

#[test]
fn classic_nagle_sends_the_tail_of_99900_bytes_one_ack_later() {
    // 99900 = 68 x 1448 + 1436: the 68th completes a pair and is ACKed at once,
    // so the tail only waits for that ACK's trip back.
    let (tail_sent, last_full_arrived) = tail_timing(&bulk(99_900, Nagle::Classic, 200));
    let wait = tail_sent.since(last_full_arrived).0;
    assert!(wait < 4 * MS, "tail left {} ms after", wait as f64 / 1e6);
}

#[test]
fn linuxs_minshall_check_sends_the_88_byte_tail_at_once() {
    // No earlier small segment is outstanding, so Linux does not hold the tail:
    // it leaves in the same burst as the full segments before it.
    for nagle in [Nagle::Minshall, Nagle::Off] {
        let (tail_sent, last_full_arrived) = tail_timing(&bulk(100_000, nagle, 200));
        assert!(
            tail_sent < last_full_arrived,
            "{nagle:?}: the tail left before the last full segment arrived"
        );
    }
}

/// The client writes an HTTP header and then its body, two small writes.
fn header_then_body(nagle: Nagle, server_acks: DelayedAck) -> Scenario {
    let mut s = seed_004();
    s.app.request = vec![300, 1000];
    s.app.response = vec![1000];
    s.client.sender.nagle = nagle;
    s.server.receiver.delayed_ack = server_acks;
    s
}

/// How long after the header the body left the client.
fn body_delay(s: &Scenario) -> SimDuration {
    let run = run(s);
    let writes: Vec<SimTime> = sent_by(&run, Side::Client)
        .into_iter()
        .filter(|(_, seg, _)| seg.len > 0)
        .map(|(t, _, _)| t)
        .collect();
    assert_eq!(writes.len(), 2, "header and body are separate segments");
    writes[1].since(writes[0])
}

#[test]
fn minshall_holds_the_body_until_the_small_header_is_acknowledged() {
    // The header is a small segment still in flight: Linux holds the body for
    // the server's ACK. A textbook delayed-ACK server makes that the header's
    // trip (3.5 ms), its 40 ms timer and the ACK's trip back (3.5 ms); Linux's
    // own server, in quick-ACK mode on a new connection, answers at once and
    // the body waits one round trip.
    let delayed = body_delay(&header_then_body(
        Nagle::Minshall,
        DelayedAck::Fixed(SimDuration::from_millis(40)),
    ));
    assert!((47 * MS..48 * MS).contains(&delayed.0), "{delayed}");
    let quick = body_delay(&header_then_body(Nagle::Minshall, DelayedAck::Linux));
    assert!((7 * MS..8 * MS).contains(&quick.0), "{quick}");
}

#[test]
fn tcp_nodelay_sends_the_body_right_behind_the_header() {
    let d = body_delay(&header_then_body(
        Nagle::Off,
        DelayedAck::Fixed(SimDuration::from_millis(40)),
    ));
    assert_eq!(d, SimDuration::ZERO);
}

/// The trace records each hold when it begins, so the ladder diagram can show
/// Nagle's wait as a countdown.
#[test]
fn the_trace_records_the_hold_from_the_header_to_the_ack_that_ends_it() {
    use sim_core::trace::TraceEvent;
    let r = run(&header_then_body(
        Nagle::Minshall,
        DelayedAck::Fixed(SimDuration::from_millis(40)),
    ));
    let holds: Vec<_> = r
        .trace
        .records()
        .filter_map(|rec| match rec.event {
            TraceEvent::SendHeld {
                side,
                reason,
                bytes,
            } => Some((rec.time, side, reason, bytes)),
            _ => None,
        })
        .collect();
    let data: Vec<SimTime> = sent_by(&r, Side::Client)
        .into_iter()
        .filter(|(_, seg, _)| seg.len > 0)
        .map(|(t, _, _)| t)
        .collect();
    // Held at the instant the header left, all 1000 bytes of the body.
    assert_eq!(holds, vec![(data[0], Side::Client, "nagle", 1000)]);
    // Released by the first ACK that reaches the client.
    let (ack_at, _) = received_by(&r, Side::Client)
        .into_iter()
        .find(|(_, seg)| seg.ack > 1)
        .unwrap();
    assert_eq!(data[1], ack_at);

    let nodelay = run(&header_then_body(
        Nagle::Off,
        DelayedAck::Fixed(SimDuration::from_millis(40)),
    ));
    assert!(
        !nodelay
            .trace
            .records()
            .any(|rec| matches!(rec.event, TraceEvent::SendHeld { .. }))
    );
}
