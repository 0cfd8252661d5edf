//! Sending data and taking cumulative ACKs; receiving data and answering it.

use super::*;

/// `written` full segments written at 10 ms (as many sent as cwnd allows),
/// and the peer's ACK of the first `acked` at 20 ms.
fn sent_then_acked(written: u64, acked: u64) -> Tcp {
    let mut tcp = established();
    tcp.write(written * MSS as u64);
    tcp.drain();
    tcp.at_ms(20);
    send!(tcp, ack(seq(acked)));
    tcp
}

#[test]
fn the_initial_window_sends_ten_full_segments_and_then_waits() {
    // RFC 6928 / TCP_INIT_CWND: ten segments, then tcp_cwnd_test stops
    // tcp_write_xmit. The first one starts the retransmission timer
    // (tcp_event_new_data_sent → tcp_rearm_rto): RTO 210 ms after 10 ms RTT.
    let mut tcp = established();
    tcp.write(20 * MSS as u64);
    for seg in full_segments(0, 10) {
        recv!(tcp, seg);
    }
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.packets_out(), 10);
    assert_eq!(tcp.sock.in_flight(), 10);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(210)));
}

#[test]
fn each_ack_in_slow_start_grows_cwnd_by_the_segments_it_acknowledges() {
    // tcp_slow_start: cwnd += acked while cwnd < ssthresh, when cwnd is the
    // limit (tcp_is_cwnd_limited: 10 < 2 × max_packets_out). An ACK of two
    // segments frees two and adds two: four new segments go.
    let mut tcp = sent_then_acked(20, 2);
    assert_eq!(tcp.sock.cwnd(), 12);
    for seg in full_segments(10, 4) {
        recv!(tcp, seg);
    }
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.in_flight(), 12);
    assert_eq!(tcp.sock.bytes_acked(), 2 * MSS as u64);
}

#[test]
fn an_ack_of_new_data_restarts_the_retransmission_timer_from_its_arrival() {
    // RFC 6298 5.3 (tcp_rearm_rto). The ACK also gives an RTT sample of 10 ms:
    // srtt stays 10 ms, rttvar = 3/4 × 5 ms = 3.75 ms, so RTO = 10 + 200 ms.
    let tcp = sent_then_acked(10, 2);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(210)));
    assert_eq!(tcp.sock.info().rttvar_ns, 3_750_000);
}

#[test]
fn an_ack_of_everything_stops_the_retransmission_timer() {
    // RFC 6298 5.2: all outstanding data acknowledged, the timer stops.
    let mut tcp = sent_then_acked(10, 10);
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.packets_out(), 0);
    assert_eq!(tcp.next_timeout(), None);
}

#[test]
fn an_ack_older_than_snd_una_is_ignored_window_and_all() {
    // tcp_ack: an ACK below snd_una is old (`old_ack`); Linux returns before
    // tcp_ack_update_window, so its window is not taken either.
    let mut tcp = sent_then_acked(10, 2);
    let cwnd = tcp.sock.cwnd();
    send!(
        tcp,
        Segment {
            wnd: 1000,
            ..ack(seq(1))
        }
    );
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.info().snd_wnd, PEER_WND);
    assert_eq!(tcp.sock.cwnd(), cwnd);
    assert_eq!(tcp.sock.bytes_acked(), 2 * MSS as u64);
}

#[test]
fn received_data_is_acknowledged_with_the_new_rcv_nxt_and_its_timestamp_echoed() {
    // The first data of a connection finds the receiver in quick-ACK mode
    // (tcp_incr_quickack), so the ACK goes at once; it echoes the segment's
    // timestamp (tcp_replace_ts_recent → ts_recent). The window is what is
    // left of the SYN-ACK's 65160: the buffer would back only 63784 (rcv_ssthresh
    // 64088 in whole segments of rcv_mss 536), and the right edge never moves back.
    let mut tcp = established();
    send!(
        tcp,
        Segment {
            len: 100,
            ts_val: 7 * MS,
            ..from_peer()
        }
    );
    recv!(
        tcp,
        Segment {
            ack: 101,
            wnd: WND - 100,
            ts_ecr: 7 * MS,
            ..from_us()
        }
    );
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.app_received(), 100);
}

#[test]
fn a_reply_written_before_the_ack_leaves_carries_the_ack() {
    // Data sent while an ACK is due carries it (tcp_transmit_skb sets the ACK
    // fields; tcp_event_ack_sent clears the pending ACK), so no bare ACK follows.
    // The reply is a whole write: PSH.
    let mut tcp = established();
    send!(
        tcp,
        Segment {
            len: 100,
            ..from_peer()
        }
    );
    tcp.write(1000);
    recv!(
        tcp,
        pushed(Segment {
            len: 1000,
            ack: 101,
            wnd: WND - 100,
            ..from_us()
        })
    );
    recv_nothing!(tcp);
}
