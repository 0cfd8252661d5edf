//! Where and which way the path loses packets: random loss in the data
//! direction only (netem on the server's egress) unless told otherwise,
//! before the bottleneck (a lost packet costs the queue and the link nothing)
//! or after it, and drop lists that lose exactly the segments they name.
//!
//! Seed 004's path: 1 Gbit/s, 7 ms RTT; a 1500-byte packet takes 12 µs to
//! serialise. The server's first flight is ten segments sent at once:
//!
//! ```text
//!  server                                 client
//!    |-- 1:1449, 1449:2897, 2897:4345 ------->|  in order: ACK 1449, 2897, 4345
//!    |-- 4345:5793 ---X (drop list)           |
//!    |-- 5793:7241 .. 13033:14481 ----------->|  out of order: ACK 4345 with
//!    |<-- ACK 4345 sack 5793:7241, 5793:8689, |  SACK growing by one segment each
//!    |    5793:10137 (third) ...              |
//!    |-- 4345:5793 (retransmission) --------->|  sent when the third arrives
//!    |<-- ACK past everything held -----------|
//! ```

mod common;
use common::*;
use sim_core::analysis::summarize;
use sim_core::config::{Direction, DropRule, DropTarget, LossDirection, LossPosition, Scenario};
use sim_core::segment::{Segment, Side};
use sim_core::sim::RunResult;
use sim_core::time::{SimDuration, SimTime};
use sim_core::trace::TraceEvent;

const MSS: u64 = 1448;
/// 1500 bytes at 1 Gbit/s.
const SLOT: SimDuration = SimDuration::from_micros(12);

fn slots(n: u64) -> SimDuration {
    SimDuration(SLOT.0 * n)
}

/// Relative sequence number of the n-th full segment's first byte.
fn seq_of(n: u64) -> u64 {
    1 + (n - 1) * MSS
}

fn with_drops(mut s: Scenario, rules: &[DropRule]) -> Scenario {
    s.path.drops = rules.to_vec();
    s
}

#[test]
fn a_drop_list_naming_the_fourth_data_segment_loses_exactly_it() {
    let r = fourth_lost();
    let lost = dropped(&r);
    assert_eq!(lost.len(), 1);
    assert_eq!(
        (lost[0].from, lost[0].seq, lost[0].len),
        (Side::Server, seq_of(4), 1448)
    );
}

/// Seed 004's transfer with its 4th data segment on the drop list.
fn fourth_lost() -> RunResult {
    run(&with_drops(seed_004(), &[DropRule::data_segment(4)]))
}

#[test]
fn the_client_acks_the_segments_before_the_hole_then_sacks_each_one_past_it() {
    let r = fourth_lost();
    // The client ACKs the three in-order segments, then answers each segment
    // past the hole at once with a duplicate ACK whose SACK block grows.
    let acks: Vec<Segment> = sent_by(&r, Side::Client)
        .into_iter()
        .map(|(_, s, _)| s)
        .filter(|s| s.len == 0 && s.ack > 1)
        .collect();
    assert_eq!(
        acks[..3].iter().map(|a| a.ack).collect::<Vec<_>>(),
        vec![seq_of(2), seq_of(3), seq_of(4)]
    );
    for (i, dup) in acks[3..9].iter().enumerate() {
        assert_eq!(dup.ack, seq_of(4));
        assert_eq!(dup.sack.as_slice()[0], (seq_of(5), seq_of(6 + i as u64)));
    }
}

#[test]
fn the_fourth_segment_is_resent_once_when_the_third_duplicate_ack_arrives() {
    let r = fourth_lost();
    // The third duplicate ACK (SACK 5793:10137) starts recovery, and the
    // hole is resent at that instant, once.
    let third_dup = received_by(&r, Side::Server)
        .into_iter()
        .find(|(_, s)| {
            s.ack == seq_of(4) && s.sack.as_slice().first() == Some(&(seq_of(5), seq_of(8)))
        })
        .expect("the third duplicate ACK arrives")
        .0;
    assert_eq!(recovery_starts(&r), vec![(third_dup, seq_of(4))]);
    let resent: Vec<(SimTime, Segment)> = r
        .trace
        .records()
        .filter_map(|x| match x.event {
            TraceEvent::SegmentSent {
                seg,
                retransmit: true,
                ..
            } => Some((x.time, seg)),
            _ => None,
        })
        .collect();
    assert_eq!(resent.len(), 1);
    assert_eq!((resent[0].0, resent[0].1.seq), (third_dup, seq_of(4)));
    let sum = summarize(&r);
    assert_eq!(sum.retransmissions, 1);
    assert!(sum.completion.is_some());
    assert!(
        !r.trace
            .records()
            .any(|x| matches!(x.event, TraceEvent::RtoFired { .. })),
        "no timeout"
    );
}

#[test]
fn the_filled_hole_is_acked_at_once_past_everything_held() {
    let r = fourth_lost();
    // When it arrives, the client's next ACK covers everything it held.
    let (filled, _) = received_by(&r, Side::Client)
        .into_iter()
        .find(|(_, s)| s.seq == seq_of(4))
        .unwrap();
    let held = received_by(&r, Side::Client)
        .into_iter()
        .filter(|(t, _)| *t < filled)
        .map(|(_, s)| s.end_seq())
        .max()
        .unwrap();
    let next = sent_by(&r, Side::Client)
        .into_iter()
        .find(|(t, _, _)| *t >= filled)
        .unwrap();
    assert_eq!((next.0, next.1.ack), (filled, held));
    // The path is FIFO, so that is everything the server sent before the
    // retransmission: the rest of the first flight and the second flight
    // that the in-order ACKs released.
    let server = sent_by(&r, Side::Server);
    let resent_at = server
        .iter()
        .rposition(|(_, s, _)| s.seq == seq_of(4))
        .unwrap();
    let sent_before = server[..resent_at]
        .iter()
        .map(|(_, s, _)| s.end_seq())
        .max()
        .unwrap();
    assert_eq!(held, sent_before);
}

#[test]
fn a_drop_list_loses_the_same_segments_whatever_the_seed() {
    let rules = [
        DropRule::data_segment(30),
        DropRule::new(
            Direction::Data,
            DropTarget::Bytes {
                first: seq_of(40) + 100,
                last: seq_of(41),
            },
        ),
    ];
    let lost_with = |seed| {
        let mut s = with_drops(large_window(seed_004()), &rules);
        s.seed = seed;
        dropped(&run(&s)).iter().map(|d| d.seq).collect::<Vec<_>>()
    };
    // The byte range touches the 40th and 41st segments.
    assert_eq!(lost_with(1), vec![seq_of(30), seq_of(40), seq_of(41)]);
    assert_eq!(lost_with(2), lost_with(1));
}

#[test]
fn every_transmission_of_a_black_holed_segment_is_lost() {
    let mut s = with_drops(
        seed_004(),
        &[DropRule::data_segment(4).every_transmission()],
    );
    s.time_limit = SimDuration::from_secs(3);
    let r = run(&s);
    let lost = dropped(&r);
    assert!(
        lost.len() >= 3,
        "the first, the fast retransmission and the timer's"
    );
    assert!(lost.iter().all(|d| d.seq == seq_of(4)));
    assert!(summarize(&r).completion.is_none());
}

#[test]
fn the_clients_third_pure_ack_is_dropped_by_number() {
    let r = run(&with_drops(seed_004(), &[DropRule::client_ack(3)]));
    let lost = dropped(&r);
    assert_eq!(lost.len(), 1);
    // The request carried the handshake's ACK; the pure ACKs then cover
    // segments 1, 2 and 3 of the first flight.
    assert_eq!(
        (lost[0].from, lost[0].len, lost[0].ack),
        (Side::Client, 0, seq_of(4))
    );
}

/// Seed 004's transfer with 10 % random loss in `direction`.
fn lossy(direction: LossDirection) -> RunResult {
    let mut s = seed_004();
    s.path.loss = 0.1;
    s.path.loss_direction = direction;
    run(&s)
}

fn senders_of_lost(r: &RunResult) -> (usize, usize) {
    let d = dropped(r);
    let by = |side| d.iter().filter(|s| s.from == side).count();
    (by(Side::Server), by(Side::Client))
}

#[test]
fn random_loss_in_the_data_direction_never_drops_what_the_client_sends() {
    let (server, client) = senders_of_lost(&lossy(LossDirection::Data));
    assert!(server > 0);
    assert_eq!(client, 0, "no ACK is lost");
}

#[test]
fn random_loss_in_the_ack_direction_never_drops_what_the_server_sends() {
    let (server, client) = senders_of_lost(&lossy(LossDirection::Acks));
    assert_eq!(server, 0, "no data is lost");
    assert!(client > 0);
}

#[test]
fn random_loss_in_both_directions_drops_data_and_acks() {
    let (server, client) = senders_of_lost(&lossy(LossDirection::Both));
    assert!(server > 0 && client > 0, "{server} {client}");
}

/// The server's first flight: ten segments sent at one instant, the 4th
/// lost at the path's loss position.
struct FirstFlight {
    /// When they were sent.
    t0: SimTime,
    /// Per segment: when the bottleneck starts it, and when it reaches the
    /// client (`None`: lost).
    segments: Vec<(Option<SimTime>, Option<SimTime>)>,
    /// Bytes waiting in the queue just after `t0`.
    waiting: u64,
}

fn first_flight(position: LossPosition) -> FirstFlight {
    let mut s = with_drops(seed_004(), &[DropRule::data_segment(4)]);
    s.path.loss_position = position;
    let r = run(&s);
    let flight: Vec<_> = r
        .trace
        .records()
        .filter_map(|x| match x.event {
            TraceEvent::SegmentSent {
                seg,
                departs,
                arrives,
                flight: 1,
                ..
            } if seg.from == Side::Server => Some((x.time, seg, departs, arrives)),
            _ => None,
        })
        .take(10)
        .collect();
    let t0 = flight[0].0;
    assert!(flight.iter().all(|f| f.0 == t0), "sent at one instant");
    let waiting = flight
        .iter()
        .filter(|f| f.2.is_some_and(|d| d > t0))
        .map(|f| f.1.wire_bytes() as u64)
        .sum();
    FirstFlight {
        t0,
        segments: flight.iter().map(|f| (f.2, f.3)).collect(),
        waiting,
    }
}

#[test]
fn a_segment_lost_before_the_bottleneck_leaves_the_queue_as_it_was() {
    let FirstFlight {
        t0,
        segments: flight,
        waiting,
    } = first_flight(LossPosition::Before);
    assert_eq!(flight[3], (None, None));
    // The 5th takes the 4th's place: the 10th starts 8 slots after the 1st.
    assert_eq!(flight[4].0, Some(t0 + slots(3)));
    assert_eq!(flight[9].0, Some(t0 + slots(8)));
    assert_eq!(waiting, 8 * 1500, "nine sent, one being serialised");
}

#[test]
fn a_segment_lost_after_the_bottleneck_holds_its_place_in_the_queue() {
    let FirstFlight {
        t0,
        segments: flight,
        waiting,
    } = first_flight(LossPosition::After);
    assert_eq!(flight[3], (Some(t0 + slots(3)), None));
    assert_eq!(flight[4].0, Some(t0 + slots(4)));
    assert_eq!(flight[9].0, Some(t0 + slots(9)));
    assert_eq!(
        flight[9].1.unwrap().since(flight[9].0.unwrap()),
        SLOT + SimDuration::from_micros(3_500),
        "serialisation plus the one-way delay"
    );
    assert_eq!(waiting, 9 * 1500, "the lost one waited too");
}
