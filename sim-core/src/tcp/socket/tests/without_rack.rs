//! Loss detection on kernels before RACK (2.6.32, 3.10: `Behaviour::rack`
//! off): FACK, by the forward-most SACK (tcp_input.c of those kernels,
//! `tcp_time_to_recover`, `tcp_update_scoreboard`, `tcp_mark_lost_retrans`).
//!
//! As in `sack_recovery`, ten segments go at 10 ms and the peer SACKs from
//! 20 ms; here the host's behaviour is an old kernel's.

use super::*;
use crate::cc::CaState;
use crate::config::Kernel;

/// The module's host with the loss detection of `kernel`.
fn host_of(kernel: Kernel) -> HostConfig {
    let mut cfg = host();
    cfg.behaviour.rack = kernel.behaviour().rack;
    cfg
}

/// Ten segments sent at 10 ms (of `written` written).
fn ten_out(kernel: Kernel, written: u64) -> Tcp {
    let mut tcp = established_with(&host_of(kernel));
    tcp.write(written * MSS as u64);
    assert_eq!(tcp.drain().len(), 10);
    tcp
}

/// The peer's ACK of our SYN with SACK `blocks`, given as segment ranges
/// `first..=last`.
fn sacking(blocks: &[(u64, u64)]) -> Segment {
    let bytes: Vec<(u64, u64)> = blocks.iter().map(|&(a, b)| (seq(a), seq(b + 1))).collect();
    Segment {
        sack: SackBlocks::new(&bytes),
        ..from_peer()
    }
}

#[test]
fn without_rack_one_sacked_segment_leaves_the_hole_to_the_rto() {
    // fackets_out = 2 ≤ reordering: not yet time to recover, and no reorder
    // timer exists; only the RTO (10 + 210 ms) waits. A 4.18 host's RACK
    // arms its reorder timer instead (4.5 ms, see sack_recovery).
    for (kernel, next) in [(Kernel::V3_10, 200_000), (Kernel::V4_18, 4_500)] {
        let mut tcp = ten_out(kernel, 10);
        tcp.at_ms(20);
        send!(tcp, sacking(&[(1, 1)]));
        recv_nothing!(tcp);
        assert_eq!(tcp.sock.ca_state(), CaState::Open);
        assert_eq!(tcp.next_timeout(), Some(SimDuration::from_micros(next)));
    }
}

#[test]
fn without_rack_the_third_sacked_segment_above_a_hole_starts_recovery() {
    // SACK 1, 1..2, 1..3: fackets_out reaches 4 > reordering 3, the first
    // 4 − 3 = 1 segment is lost: recovery as with RACK (ssthresh 5, PRR
    // cwnd 6 in flight + 1 = 7), and segment 0 goes again.
    let mut tcp = ten_out(Kernel::V2_6_32, 10);
    for last in 1..=2 {
        tcp.at_ms(19 + last);
        send!(tcp, sacking(&[(1, last)]));
        assert_eq!(tcp.sock.ca_state(), CaState::Open);
    }
    tcp.at_ms(22);
    send!(tcp, sacking(&[(1, 3)]));
    assert_eq!(tcp.sock.ca_state(), CaState::Recovery);
    assert_eq!((tcp.sock.cwnd(), tcp.sock.ssthresh()), (7, 5));
    recv_retransmit!(tcp, full_segment(0));
    recv_nothing!(tcp);
}

#[test]
fn without_rack_one_sack_four_segments_above_the_head_marks_holes_lost_at_once() {
    // Segments 0..3 lost, 4 SACKed: fackets_out = 5, so segments 0 and 1
    // (5 − 3) are lost at once and recovery starts on this first SACK
    // (RACK would wait a quarter RTT for its reorder timer). PRR: in flight
    // 10 − 1 − 2 = 7 > ssthresh 5, ceil(1 × 5 / 10) = 1 more: cwnd 8, one
    // retransmission.
    let mut tcp = ten_out(Kernel::V3_10, 10);
    tcp.at_ms(20);
    send!(tcp, sacking(&[(4, 4)]));
    assert_eq!(tcp.sock.ca_state(), CaState::Recovery);
    assert_eq!(tcp.sock.in_flight(), 7);
    assert_eq!(tcp.sock.cwnd(), 8);
    recv_retransmit!(tcp, full_segment(0));
    recv_nothing!(tcp);
    // 4..5 SACKed: fackets_out 6 marks segment 2 as well. PRR: in flight
    // 10 − 2 − 3 + 1 = 6, ceil(2 × 5 / 10) − 1 sent = 0: cwnd 6, nothing goes.
    tcp.at_ms(21);
    send!(tcp, sacking(&[(4, 5)]));
    assert_eq!((tcp.sock.in_flight(), tcp.sock.cwnd()), (6, 6));
    recv_nothing!(tcp);
}

#[test]
fn without_rack_a_lost_retransmission_is_resent_once_data_sent_after_it_is_sacked() {
    // Segment 0 lost, recovery at the third SACK (22 ms): its retransmission
    // leaves with snd_nxt at segment 10. PRR then lets new data out,
    // segment 10 at 25 ms. When the peer SACKs segment 10 but still lacks 0
    // (33 ms), the retransmission must have been lost too: it is marked lost
    // again (tcp_mark_lost_retrans) and resent, rather than left to the RTO.
    let mut tcp = ten_out(Kernel::V3_10, 20);
    for last in 1..=3 {
        tcp.at_ms(19 + last);
        send!(tcp, sacking(&[(1, last)]));
    }
    recv_retransmit!(tcp, full_segment(0));
    for last in 4..=6 {
        tcp.at_ms(19 + last);
        send!(tcp, sacking(&[(1, last)]));
    }
    recv!(tcp, full_segment(10));
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.board.retrans_out(), 1);
    tcp.at_ms(33);
    send!(tcp, sacking(&[(10, 10), (1, 6)]));
    assert_eq!(tcp.sock.board.retrans_out(), 0);
    assert_eq!(tcp.sock.ca_state(), CaState::Recovery);
    recv_retransmit!(tcp, full_segment(0));
}
