//! Fast recovery: SACK and RACK find the hole, PRR sizes what is sent
//! (tcp_input.c `tcp_fastretrans_alert`, `tcp_enter_recovery`,
//! `tcp_cwnd_reduction`; tcp_recovery.c).
//!
//! Every test sends the initial window at 10 ms; the first segment is lost
//! and the peer reports the later ones as they arrive, from 20 ms:
//!
//! ```text
//!   10 ms  ──► segments 0..9             (0 is lost)
//!   20 ms  ◄── ack 1, SACK 1             RACK: 0 not overdue yet (reo_wnd 2.5 ms)
//!   21 ms  ◄── ack 1, SACK 1..2
//!   22 ms  ◄── ack 1, SACK 1..3          three SACKed: reo_wnd 0, 0 is lost
//!          ──► segment 0 again           Recovery, ssthresh 5, PRR
//! ```

use super::*;
use crate::cc::CaState;

/// The peer's ACK of our SYN, SACKing our segments `1..=last`.
fn sack_up_to(last: u64) -> Segment {
    Segment {
        sack: SackBlocks::new(&[(seq(1), seq(last + 1))]),
        ..from_peer()
    }
}

/// Ten segments sent at 10 ms, and the SACKs of segments 1..=`sacked` one
/// per millisecond from 20 ms.
fn sacked(cfg: &HostConfig, sacked: u64) -> Tcp {
    let mut tcp = established_with(cfg);
    tcp.write(10 * MSS as u64);
    tcp.drain();
    for last in 1..=sacked {
        tcp.at_ms(19 + last);
        send!(tcp, sack_up_to(last));
    }
    tcp
}

/// Segments 1..9 SACKed, the hole resent at 22 ms, and its ACK (of
/// everything) at 32 ms.
fn recovered() -> Tcp {
    let mut tcp = sacked(&host(), 9);
    tcp.drain();
    tcp.at_ms(32);
    send!(tcp, ack(seq(10)));
    tcp
}

#[test]
fn fewer_than_three_sacked_segments_leave_the_hole_to_the_reorder_window() {
    // tcp_rack_reo_wnd: with fewer than `reordering` (3) segments SACKed, RACK
    // waits min_rtt / 4 beyond the RTT before it calls a segment lost.
    let mut tcp = sacked(&host(), 2);
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.ca_state(), CaState::Open);
    assert_eq!(tcp.sock.cwnd(), 10);
}

#[test]
fn three_sacked_segments_mark_the_hole_lost_and_start_recovery() {
    // tcp_rack_reo_wnd is 0 once three segments are SACKed, so segment 0 is
    // lost (tcp_rack_detect_loss); tcp_enter_recovery takes ssthresh from
    // tcp_reno_ssthresh (5), and tcp_cwnd_reduction (PRR, RFC 6937) lets out
    // ceil(1 × 5 / 10) = 1 segment: cwnd = in flight (10 − 3 SACKed − 1 lost)
    // + 1 = 7. The retransmission is that segment.
    let mut tcp = sacked(&host(), 3);
    assert_eq!(tcp.sock.ca_state(), CaState::Recovery);
    assert_eq!(tcp.sock.ssthresh(), 5);
    assert_eq!(tcp.sock.cwnd(), 7);
    recv_retransmit!(tcp, full_segment(0));
    recv_nothing!(tcp);
    assert!(tcp.events().contains(&TraceEvent::FastRetransmit {
        side: Side::Server,
        seq: 1,
    }));
}

#[test]
fn without_sack_the_third_duplicate_ack_starts_recovery() {
    // NewReno: each duplicate ACK counts as one segment delivered
    // (tcp_add_reno_sack); at `reordering` (3) of them the head is lost
    // (tcp_newreno_mark_lost) and recovery begins with the same PRR step.
    let mut cfg = host();
    cfg.sender.sack = false;
    let mut tcp = established_with(&cfg);
    tcp.write(10 * MSS as u64);
    tcp.drain();
    for ms in [20, 21] {
        tcp.at_ms(ms);
        send!(tcp, from_peer());
        recv_nothing!(tcp);
    }
    tcp.at_ms(22);
    send!(tcp, from_peer());
    assert_eq!(tcp.sock.ca_state(), CaState::Recovery);
    assert_eq!((tcp.sock.cwnd(), tcp.sock.ssthresh()), (7, 5));
    recv_retransmit!(tcp, full_segment(0));
    recv_nothing!(tcp);
}

#[test]
fn one_sacked_segment_arms_the_reorder_timer_whose_expiry_resends_the_hole() {
    // tcp_rack_detect_loss: segment 0 (sent 10 ms) becomes overdue at
    // 10 + RTT 10 + reo_wnd 2.5 = 22.5 ms; the timer waits TCP_TIMEOUT_MIN
    // (2 ms) more. tcp_rack_reo_timeout then marks it lost and enters recovery.
    let mut tcp = sacked(&host(), 1);
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_micros(4_500)));
    tcp.fire_timer();
    assert_eq!(tcp.sock.ca_state(), CaState::Recovery);
    assert_eq!(tcp.sock.ssthresh(), 5);
    recv_retransmit!(tcp, full_segment(0));
    recv_nothing!(tcp);
}

#[test]
fn entering_recovery_from_the_reorder_timer_takes_one_prr_step() {
    // tcp_rack_reo_timeout calls tcp_cwnd_reduction(sk, 1, newly_lost, 0)
    // after tcp_enter_recovery (for algorithms without .cong_control):
    // cwnd = in flight (10 − 1 SACKed − 1 lost) + ceil(1 × 5 / 10) = 9, so
    // the lost segment goes (9 > 8 in flight) and nothing more.
    let mut tcp = sacked(&host(), 1);
    tcp.fire_timer();
    assert_eq!(tcp.sock.cwnd(), 9);
    recv_retransmit!(tcp, full_segment(0));
    recv_nothing!(tcp);
}

#[test]
fn the_ack_of_everything_sent_before_recovery_ends_it() {
    // tcp_fastretrans_alert: snd_una reaching high_seq (what was sent when
    // recovery began) ends Recovery; with everything acknowledged the RTO stops.
    let mut tcp = recovered();
    assert_eq!(tcp.sock.ca_state(), CaState::Open);
    assert_eq!(tcp.sock.packets_out(), 0);
    tcp.assert_quiet();
}

#[test]
fn leaving_recovery_starts_again_from_ssthresh() {
    // tcp_end_cwnd_reduction sets cwnd = ssthresh (5); tcp_cong_control then
    // calls cong_avoid with acked_sacked, the segments this ACK newly
    // delivered: only the retransmission, the others were SACKed already.
    // tcp_cong_avoid_ai(w = 5, acked = 1) leaves cwnd at 5. (The ten
    // segments the ACK removed from the queue would make it 7.)
    let tcp = recovered();
    assert_eq!(tcp.sock.cwnd(), 5);
}

#[test]
fn an_ack_that_repairs_one_loss_and_reveals_a_lost_retransmission_counts_the_new_loss() {
    // Segments 0..3 are lost. SACKs of 4..6 (20–22 ms) start recovery
    // (ssthresh 5, PRR cwnd 4: in flight 10 − 3 − 4 = 3, + 1) and resend 0;
    // SACKs of 7, 8, 9 resend 1, 2, 3, all at 22 ms.
    let mut tcp = established();
    tcp.write(10 * MSS as u64);
    tcp.drain();
    for (ms, last) in [(20, 5), (21, 6), (22, 7)] {
        tcp.at_ms(ms);
        send!(
            tcp,
            Segment {
                sack: SackBlocks::new(&[(seq(4), seq(last))]),
                ..from_peer()
            }
        );
    }
    assert_eq!(
        (tcp.sock.ca_state(), tcp.sock.cwnd()),
        (CaState::Recovery, 4)
    );
    recv_retransmit!(tcp, full_segment(0));
    for last in 8..=10 {
        send!(
            tcp,
            Segment {
                sack: SackBlocks::new(&[(seq(4), seq(last))]),
                ..from_peer()
            }
        );
        recv_retransmit!(tcp, full_segment(last - 7));
    }
    // 32 ms: segment 0's retransmission is ACKed and segment 2's SACKed, but
    // not segment 1's, resent just before 2's: RACK marks it lost again. This
    // ACK marked one segment lost (tp->lost grew by 1) while lost_out fell
    // from 4 to 2. PRR (tcp_cwnd_reduction) gives its slow-start bonus only
    // when the ACK marked nothing lost: in flight 9 − 7 SACKed − 2 lost + 1
    // resent = 1, sndcnt = max(prr_delivered 6 − prr_out 4, 2 delivered) = 2,
    // no +1: cwnd 3 (with the bonus it would be 4).
    tcp.at_ms(32);
    send!(
        tcp,
        Segment {
            ack: seq(1),
            sack: SackBlocks::new(&[(seq(2), seq(3)), (seq(4), seq(10))]),
            ..from_peer()
        }
    );
    assert_eq!(tcp.sock.in_flight(), 1);
    assert_eq!(tcp.sock.cwnd(), 3);
    recv_retransmit!(tcp, full_segment(1));
    recv_nothing!(tcp);
}
