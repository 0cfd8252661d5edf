//! The retransmission timeout (tcp_timer.c `tcp_retransmit_timer`,
//! tcp_input.c `tcp_enter_loss`, `tcp_try_undo_loss`).
//!
//! Every test sends the initial window (ten segments at 10 ms) and lets no
//! ACK come, so the RTO fires at 10 + 210 ms:
//!
//! ```text
//!   10 ms   ──► 10 segments           cwnd 10
//!   220 ms  RTO: segment 0 again      cwnd 1, ssthresh 5, Loss
//!   640 ms  RTO again (doubled)       cwnd 1
//! ```

use super::*;
use crate::cc::{CaState, TCP_INFINITE_SSTHRESH};

fn timed_out() -> Tcp {
    let mut tcp = established();
    tcp.write(10 * MSS as u64);
    tcp.drain();
    tcp.fire_timer();
    assert_eq!(tcp.now, SimTime(220 * MS));
    tcp
}

#[test]
fn the_rto_resends_the_first_segment_with_cwnd_one_and_half_the_window_as_ssthresh() {
    // tcp_enter_loss: ssthresh from the algorithm (tcp_reno_ssthresh:
    // max(cwnd / 2, 2) = 5), everything outstanding marked lost, cwnd =
    // packets in flight (none now) + 1; tcp_retransmit_timer resends the head.
    let mut tcp = timed_out();
    recv_retransmit!(tcp, full_segment(0));
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.cwnd(), 1);
    assert_eq!(tcp.sock.ssthresh(), 5);
    assert_eq!(tcp.sock.ca_state(), CaState::Loss);
    assert_eq!(tcp.sock.total_retrans(), 1);
    assert!(tcp.events().contains(&TraceEvent::CwndChanged {
        side: Side::Server,
        old: 10,
        new: 1,
        ssthresh: 5,
    }));
}

#[test]
fn each_timeout_doubles_the_next_and_keeps_the_first_ssthresh() {
    // RFC 6298 5.5 (icsk_backoff): 420 ms after the first timeout, then 840 ms.
    // A second timeout within the same episode (snd_una below high_seq) keeps
    // ssthresh (tcp_enter_loss only recomputes it on a new episode).
    let mut tcp = timed_out();
    tcp.drain();
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(420)));
    tcp.fire_timer();
    recv_retransmit!(tcp, full_segment(0));
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(840)));
    assert_eq!((tcp.sock.cwnd(), tcp.sock.ssthresh()), (1, 5));
}

#[test]
fn after_a_timeout_each_ack_grows_cwnd_in_slow_start_and_resends_the_next_lost() {
    // In Loss, cwnd grows by slow start (tcp_cong_avoid → tcp_slow_start,
    // cwnd < ssthresh) and tcp_xmit_retransmit_queue resends what is still
    // marked lost, oldest first.
    let mut tcp = timed_out();
    tcp.drain();
    tcp.at_ms(230);
    send!(tcp, ack(seq(1)));
    assert_eq!(tcp.sock.cwnd(), 2);
    assert_eq!(tcp.sock.ca_state(), CaState::Loss);
    recv_retransmit!(tcp, full_segment(1), full_segment(2));
    recv_nothing!(tcp);
}

#[test]
fn an_ack_echoing_a_timestamp_from_before_the_timeout_undoes_it() {
    // tcp_try_undo_loss via tcp_packet_delayed: the ACK echoes the original
    // transmission's timestamp (10 ms, before the retransmission at 220 ms),
    // so the original arrived and the timeout was spurious. (It comes 5 ms
    // after the retransmission, sooner than any RTT, so RACK does not take it
    // as the retransmission's ACK either: tcp_rack_advance.) cwnd and ssthresh
    // come back (tcp_undo_cwnd_reduction: max(cwnd, undo_cwnd), prior
    // ssthresh), the state is Open again, and slow start then counts the ACK:
    // 10 + 1. The other nine are in flight again, so nothing is resent.
    let mut tcp = timed_out();
    tcp.drain();
    tcp.at_ms(225);
    send!(
        tcp,
        Segment {
            ack: seq(1),
            ts_ecr: 10 * MS,
            ..from_peer()
        }
    );
    assert_eq!(tcp.sock.ca_state(), CaState::Open);
    assert_eq!(tcp.sock.ssthresh(), TCP_INFINITE_SSTHRESH);
    assert_eq!(tcp.sock.cwnd(), 11);
    assert_eq!(tcp.sock.in_flight(), 9);
    recv_nothing!(tcp);
}

#[test]
fn retransmissions_give_up_after_tcp_retries2s_924_6_seconds() {
    // retransmits_timed_out: expired once tcp_model_timeout(15, TCP_RTO_MIN)
    // = (2^10 - 1) x 0.2 s + 6 x 120 s = 924.6 s have passed since
    // retrans_stamp, the original send of the first segment retransmitted.
    // With an RTO of exactly 200 ms (a negligible RTT) the 16th expiry falls
    // on 924.6 s: 15 retransmissions, then tcp_write_err.
    let mut tcp = Tcp::new(Socket::listen(&host()));
    send!(tcp, syn());
    recv!(tcp, syn_ack());
    send!(tcp, from_peer());
    assert_eq!(tcp.sock.info().rto_ns, 200 * MS);
    tcp.write(MSS as u64);
    recv!(tcp, pushed(full_segment(0)));
    let mut resent = 0;
    while !tcp.sock.is_aborted() {
        tcp.fire_timer();
        resent += tcp.drain().len();
    }
    assert_eq!(resent, 15);
    assert_eq!(tcp.now, SimTime(924_600 * MS));
    assert_eq!(tcp.sock.gave_up(), Some(crate::tcp::GiveUp::Retries2));
    tcp.assert_quiet();
}
