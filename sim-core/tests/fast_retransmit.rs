//! Fast retransmit and recovery without SACK (NewReno + PRR), packet by
//! packet: the client does not offer SACK (`net.ipv4.tcp_sack = 0`), so
//! duplicate ACKs are all the server learns. `sack_rack.rs` covers SACK.
//!
//! ```text
//!  server                         client
//!    |-- n (lost) ----X              |
//!    |-- n+1, n+2, n+3 ------------->|  out of order: held, each answered at once
//!    |<-- ACK n, ACK n, ACK n -------|  three duplicate ACKs
//!    |-- n (retransmitted) --------->|  fills the hole
//!    |<-- ACK past everything held --|  recovery over: cwnd = ssthresh
//! ```

mod common;
use common::*;
use sim_core::analysis::summarize;
use sim_core::config::{DropRule, Scenario};
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;

/// Seed 004's transfer losing exactly one data segment, the 50th, after slow
/// start has built up a window.
fn one_loss() -> (Scenario, RunResult) {
    let mut s = large_window(seed_004());
    s.client.sender.sack = false;
    s.path.drops = vec![DropRule::data_segment(50)];
    let r = run(&s);
    (s, r)
}

/// The one segment the path dropped.
fn lost_segment(r: &RunResult) -> sim_core::segment::Segment {
    let lost = dropped(r);
    assert_eq!(lost.len(), 1, "only the listed segment is lost");
    lost[0]
}

#[test]
fn one_lost_segment_is_resent_after_three_duplicate_acks_without_a_timeout() {
    let (_, r) = one_loss();
    let lost = lost_segment(&r);
    let events: Vec<_> = r.trace.records().map(|x| x.event).collect();
    assert!(
        !events.iter().any(|e| matches!(
            e,
            TraceEvent::RtoFired {
                side: Side::Server,
                ..
            }
        )),
        "no RTO"
    );
    let frs: Vec<u64> = events
        .iter()
        .filter_map(|e| match e {
            TraceEvent::FastRetransmit {
                side: Side::Server,
                seq,
            } => Some(*seq),
            _ => None,
        })
        .collect();
    assert_eq!(
        frs,
        vec![lost.seq],
        "one fast retransmit, of the lost segment"
    );
    // It was resent exactly once, and the client's duplicate ACKs all named it.
    let resent = sent_by(&r, Side::Server)
        .iter()
        .filter(|(_, s, _)| s.seq == lost.seq && s.len > 0)
        .count();
    assert_eq!(resent, 2);
    let dups = sent_by(&r, Side::Client)
        .iter()
        .filter(|(_, s, _)| s.len == 0 && s.ack == lost.seq)
        .count();
    assert!(dups >= 3, "{dups} duplicate ACKs");
    let s = summarize(&r);
    assert_eq!(s.retransmissions, 1);
    assert!(s.completion.is_some());
}

#[test]
fn recovery_sets_ssthresh_from_cubic_and_ends_at_ssthresh() {
    let (_, r) = one_loss();
    let events: Vec<_> = r.trace.records().map(|x| x.event).collect();
    let at = events
        .iter()
        .position(|e| matches!(e, TraceEvent::FastRetransmit { .. }))
        .unwrap();
    // The cwnd change that comes with entering recovery: ssthresh = cwnd × 717/1024.
    let (before, ssthresh) = events[..=at + 1]
        .iter()
        .rev()
        .find_map(|e| match e {
            TraceEvent::CwndChanged {
                side: Side::Server,
                old,
                ssthresh,
                ..
            } if *ssthresh < u32::MAX / 4 => Some((*old, *ssthresh)),
            _ => None,
        })
        .unwrap();
    assert_eq!(ssthresh, (before * 717 / 1024).max(2));
    // Afterwards cwnd settles at ssthresh and grows from there (no collapse to 1).
    let after: Vec<u32> = events[at..]
        .iter()
        .filter_map(|e| match e {
            TraceEvent::CwndChanged {
                side: Side::Server,
                new,
                ..
            } => Some(*new),
            _ => None,
        })
        .collect();
    assert!(after.contains(&ssthresh), "{after:?}");
    assert!(after.iter().all(|c| *c > 1), "{after:?}");
}

#[test]
fn the_receiver_holds_out_of_order_data_and_acks_the_filled_hole_at_once() {
    let (_, r) = one_loss();
    let lost = lost_segment(&r);
    // When the retransmission arrives, the very next client ACK jumps past every
    // segment that had arrived after the hole.
    let recv = received_by(&r, Side::Client);
    let (t_fill, _) = recv
        .iter()
        .rev()
        .find(|(_, s)| s.seq == lost.seq)
        .copied()
        .unwrap();
    let ack_after = sent_by(&r, Side::Client)
        .into_iter()
        .find(|(t, s, _)| *t >= t_fill && s.ack > lost.seq)
        .unwrap();
    assert_eq!(ack_after.0, t_fill, "ACKed the moment the hole is filled");
    let highest_before: u64 = recv
        .iter()
        .filter(|(t, _)| *t < t_fill)
        .map(|(_, s)| s.seq + s.len as u64)
        .max()
        .unwrap();
    assert_eq!(ack_after.1.ack, highest_before);
}
