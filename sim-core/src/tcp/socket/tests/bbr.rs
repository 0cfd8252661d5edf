//! BBR through fast recovery, ACK by ACK: the core leaves cwnd to the
//! algorithm (tcp_input.c `tcp_cong_control`, `tcp_end_cwnd_reduction`,
//! tcp_recovery.c `tcp_rack_reo_timeout`), which conserves packets for a
//! round and then restores what it had (tcp_bbr.c `bbr_set_cwnd`).
//!
//! The server runs BBR over the module's 10 ms handshake and sends ten
//! segments at 10 ms; segment 0 is lost:
//!
//! ```text
//!   10 ms     ──► segments 0..9              cwnd 10 (Startup)
//!   20, 21    ◄── SACK 1, SACK 1..2          cwnd 11, 12 (+ delivered)
//!   22        ◄── SACK 1..3                  Recovery: prior_cwnd 12, cwnd 7
//!             ──► segment 0 again
//!   23..28    ◄── SACK 1..4 .. 1..9          cwnd 7 (packet conservation)
//!   32        ◄── ACK of everything          Open: cwnd max(7, 12) + 1 = 13
//! ```

use super::*;
use crate::cc::CaState;

/// As `bbr_check_drain` sets it when Startup ends: BBR's estimate of the
/// path then (`bbr_inflight(max_bw, 1.0)`), never lowered on loss. Above the
/// cwnd BBR has at the loss, as for a flow whose share of the path has since
/// shrunk (others joined) or that is climbing back after a timeout.
const SSTHRESH_FROM_DRAIN: u32 = 40;

/// A BBR server with ten segments out and ssthresh as Drain left it.
fn ten_segments_out() -> Tcp {
    let mut cfg = host();
    cfg.sender.congestion_control = Algorithm::by_name("bbr").unwrap();
    let mut tcp = established_with(&cfg);
    tcp.sock.cb.ssthresh = SSTHRESH_FROM_DRAIN;
    tcp.write(10 * MSS as u64);
    // Pacing starts from an empty pipe: the initial window goes at once.
    for seg in full_segments(0, 9) {
        recv!(tcp, seg);
    }
    // The write's last segment carries PSH (tcp_push).
    recv!(tcp, pushed(full_segment(9)));
    recv_nothing!(tcp);
    tcp
}

/// The peer's SACK of segments `1..=last`.
fn sack_up_to(last: u64) -> Segment {
    Segment {
        sack: SackBlocks::new(&[(seq(1), seq(last + 1))]),
        ..from_peer()
    }
}

#[test]
fn bbr_conserves_packets_in_recovery_and_restores_its_cwnd_not_ssthresh_after() {
    let mut tcp = ten_segments_out();
    // Startup: bbr_set_cwnd adds what each ACK delivered (the pipe is not
    // known to be full, and cwnd is below the target).
    for (ms, last, cwnd) in [(20, 1, 11), (21, 2, 12)] {
        tcp.at_ms(ms);
        send!(tcp, sack_up_to(last));
        assert_eq!(
            (tcp.sock.ca_state(), tcp.sock.cwnd()),
            (CaState::Open, cwnd)
        );
    }
    // Three SACKed: RACK marks segment 0 lost and recovery starts.
    // bbr_ssthresh saves cwnd (prior_cwnd 12) and leaves ssthresh as it was.
    // No PRR for BBR: its first ACK in Recovery takes the lost segment off
    // (12 − 1) and then conserves packets: cwnd = in flight (10 − 3 SACKed −
    // 1 lost) + 1 delivered = 7.
    tcp.at_ms(22);
    send!(tcp, sack_up_to(3));
    assert_eq!(tcp.sock.ca_state(), CaState::Recovery);
    assert_eq!(
        (tcp.sock.cwnd(), tcp.sock.ssthresh()),
        (7, SSTHRESH_FROM_DRAIN)
    );
    recv_retransmit!(tcp, full_segment(0));
    recv_nothing!(tcp);
    // Packet conservation for the rest of the round: cwnd = max(cwnd, in
    // flight + delivered), 7 throughout.
    for last in 4..=9 {
        tcp.at_ms(19 + last);
        send!(tcp, sack_up_to(last));
        assert_eq!(tcp.sock.cwnd(), 7);
    }
    // The ACK of everything ends Recovery. tcp_end_cwnd_reduction returns at
    // once for an algorithm with cong_control (cwnd stays 7, not ssthresh 40);
    // bbr_set_cwnd_to_recover_or_restore then restores max(7, prior_cwnd 12)
    // and Startup adds the one segment delivered: 13.
    tcp.at_ms(32);
    send!(tcp, ack(seq(10)));
    assert_eq!(tcp.sock.ca_state(), CaState::Open);
    assert_eq!(
        (tcp.sock.cwnd(), tcp.sock.ssthresh()),
        (13, SSTHRESH_FROM_DRAIN)
    );
}

#[test]
fn bbr_keeps_its_cwnd_when_the_reorder_timer_starts_recovery() {
    // One SACK (cwnd 11): segment 0 is due at 10 + RTT 10 + reo_wnd 2.5 ms,
    // the timer fires 2 ms later. tcp_rack_reo_timeout enters Recovery but
    // skips the PRR step for an algorithm with cong_control: cwnd stays 11
    // until BBR's next ACK, so the lost segment goes at once.
    let mut tcp = ten_segments_out();
    tcp.at_ms(20);
    send!(tcp, sack_up_to(1));
    assert_eq!(tcp.sock.cwnd(), 11);
    tcp.fire_timer();
    assert_eq!(tcp.now, SimTime(24_500_000));
    assert_eq!(tcp.sock.ca_state(), CaState::Recovery);
    assert_eq!(
        (tcp.sock.cwnd(), tcp.sock.ssthresh()),
        (11, SSTHRESH_FROM_DRAIN)
    );
    recv_retransmit!(tcp, full_segment(0));
    recv_nothing!(tcp);
}
