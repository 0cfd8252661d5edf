//! Loss recovery with SACK and RACK (Linux's default: `tcp_sack = 1`,
//! `tcp_recovery = 1`), packet by packet.
//!
//! ```text
//!  server                              client
//!    |-- n (lost) -----X                  |
//!    |-- n+1 ---------------------------->|  held: ACK n, sack {n+1}
//!    |-- n+2 ---------------------------->|  ACK n, sack {n+1..n+2}
//!    |-- n+3 ---------------------------->|  ACK n, sack {n+1..n+3}
//!    |   third SACKed segment: RACK's reordering window is 0, n is lost
//!    |-- n (retransmitted) -------------->|
//! ```

mod common;
use common::*;
use sim_core::config::{DropRule, Scenario};
use sim_core::segment::{Segment, Side};
use sim_core::sim::RunResult;
use sim_core::time::{SimDuration, SimTime};
use sim_core::trace::TraceEvent;

fn rto_fired(r: &RunResult) -> bool {
    r.trace.records().any(|x| {
        matches!(
            x.event,
            TraceEvent::RtoFired {
                side: Side::Server,
                ..
            }
        )
    })
}

/// `base` with the first transmission of each of its server's data
/// `segments` (counted from 1) dropped.
fn lose(base: &Scenario, segments: &[u32]) -> (Scenario, RunResult) {
    let mut s = base.clone();
    s.path.drops = segments
        .iter()
        .map(|&n| DropRule::data_segment(n))
        .collect();
    let r = run(&s);
    assert_eq!(
        dropped(&r).len(),
        segments.len(),
        "only the listed segments are lost"
    );
    (s, r)
}

#[test]
fn duplicate_acks_carry_sack_blocks_for_what_arrived_past_the_hole() {
    let (_, r) = lose(&large_window(seed_004()), &[50]);
    let lost = dropped(&r)[0];
    let dups: Vec<Segment> = sent_by(&r, Side::Client)
        .into_iter()
        .map(|(_, s, _)| s)
        .filter(|s| s.ack == lost.seq && !s.sack.is_empty())
        .collect();
    assert!(dups.len() >= 3);
    // The first block starts right after the hole and grows one segment per ACK.
    for (i, d) in dups.iter().take(3).enumerate() {
        assert_eq!(
            d.sack.as_slice()[0],
            (lost.end_seq(), lost.end_seq() + (i as u64 + 1) * 1448)
        );
    }
}

#[test]
fn recovery_starts_when_the_third_segment_past_the_hole_is_sacked() {
    let (_, r) = lose(&large_window(seed_004()), &[50]);
    let lost = dropped(&r)[0];
    let third_sack_arrives = received_by(&r, Side::Server)
        .into_iter()
        .filter(|(_, s)| s.ack == lost.seq && !s.sack.is_empty())
        .nth(2)
        .unwrap()
        .0;
    assert_eq!(recovery_starts(&r), vec![(third_sack_arrives, lost.seq)]);
    assert!(!rto_fired(&r));
}

/// Three segments lost from one window: SACK tells the sender about every
/// hole at once, so all three are resent within one round trip of the first;
/// NewReno (no SACK) learns of one hole per round trip.
#[test]
fn several_holes_are_repaired_in_one_round_trip_with_sack_and_one_per_round_trip_without() {
    let rtt = SimDuration::from_millis(7);
    let retransmit_span = |r: &RunResult| {
        let t: Vec<SimTime> = r
            .trace
            .records()
            .filter_map(|x| match x.event {
                TraceEvent::SegmentSent {
                    retransmit: true,
                    seg,
                    ..
                } if seg.from == Side::Server => Some(x.time),
                _ => None,
            })
            .collect();
        assert_eq!(t.len(), 3, "each hole resent once");
        t[2].since(t[0])
    };
    // Three holes in one window of about 60 segments.
    let (sacked, r) = lose(&large_window(seed_004()), &[50, 55, 60]);
    assert!(!rto_fired(&r));
    assert!(retransmit_span(&r) < rtt, "{:?}", retransmit_span(&r));
    assert_eq!(recovery_starts(&r).len(), 1);

    // The same losses without SACK.
    let mut reno = sacked.clone();
    reno.client.sender.sack = false;
    let r = run(&reno);
    assert_eq!(dropped(&r).len(), 3);
    assert!(
        retransmit_span(&r) >= rtt + rtt,
        "{:?}",
        retransmit_span(&r)
    );
}

/// A loss with too few segments behind it for three SACKs: RACK's reorder
/// timer (a quarter of the minimum RTT, plus 2 ms) finds it long before the
/// 200 ms RTO would.
#[test]
fn a_loss_near_the_tail_is_found_by_the_reorder_timer_not_the_rto() {
    let mut base = large_window(seed_004());
    base.app.response = vec![30 * 1448];
    // Only the 30th follows the lost one.
    let (_, r) = lose(&base, &[29]);
    let lost = dropped(&r)[0];
    assert!(!rto_fired(&r));
    let last_sack = received_by(&r, Side::Server)
        .into_iter()
        .rfind(|(_, s)| s.ack == lost.seq && !s.sack.is_empty())
        .unwrap()
        .0;
    let (start, seq) = recovery_starts(&r)[0];
    assert_eq!(seq, lost.seq);
    // reo_wnd = min_rtt / 4 ≈ 1.75 ms, plus TCP_TIMEOUT_MIN 2 ms, counted
    // from the later segment's send time; well under 5 ms after the SACK.
    let wait = start.since(last_sack);
    assert!(
        wait > SimDuration::ZERO && wait < SimDuration::from_millis(5),
        "{wait:?}"
    );
}

#[test]
fn sack_is_used_only_when_both_ends_offer_it() {
    let (s, r) = lose(&large_window(seed_004()), &[50]);
    assert!(
        sent_by(&r, Side::Client)
            .iter()
            .any(|(_, seg, _)| !seg.sack.is_empty())
    );
    let mut off = s.clone();
    off.server.sender.sack = false; // the server's SYN-ACK does not offer it
    let r = run(&off);
    assert!(
        sent_by(&r, Side::Client)
            .iter()
            .all(|(_, seg, _)| seg.sack.is_empty())
    );
}
