//! The three-way handshake, from both ends.

use super::*;

/// A client that sent its SYN at 0 and got the SYN-ACK at 10 ms.
fn active_open() -> Tcp {
    let mut tcp = Tcp::new(Socket::connect(&host()));
    recv!(tcp, syn());
    tcp.at_ms(10);
    send!(tcp, syn_ack());
    tcp
}

#[test]
fn connect_sends_a_syn_with_the_unscaled_initial_window_and_waits_one_second() {
    // tcp_connect: the SYN carries the window tcp_select_initial_window chose
    // (never scaled in a SYN), and the retransmission timer starts at
    // TCP_TIMEOUT_INIT, 1 s (RFC 6298 2.1).
    let mut tcp = Tcp::new(Socket::connect(&host()));
    recv!(tcp, syn());
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_secs(1)));
    assert!(!tcp.sock.is_established());
}

#[test]
fn a_syn_ack_completes_the_active_open_and_is_acknowledged_at_once() {
    // tcp_rcv_synsent_state_process: the SYN-ACK acknowledges our SYN
    // (snd_una = 1), the connection is established, and tcp_send_ack answers
    // it at once. Nothing is left to retransmit, so no timer runs.
    let mut tcp = active_open();
    recv!(
        tcp,
        Segment {
            from: Side::Client,
            wnd: CLIENT_WND,
            ..from_us()
        }
    );
    recv_nothing!(tcp);
    assert!(tcp.sock.is_established());
    assert_eq!(tcp.next_timeout(), None);
}

#[test]
fn the_handshake_gives_the_first_rtt_sample_and_an_rto_of_srtt_plus_200ms() {
    // tcp_rtt_estimator's first sample: srtt = R, rttvar = R/2; __tcp_set_rto:
    // srtt + max(rttvar terms, TCP_RTO_MIN) = 10 ms + 200 ms.
    let tcp = active_open();
    let info = tcp.sock.info();
    assert_eq!(tcp.sock.srtt(), Some(SimDuration::from_millis(10)));
    assert_eq!(info.rttvar_ns, 5 * MS);
    assert_eq!(info.rto_ns, 210 * MS);
}

#[test]
fn a_listener_answers_a_syn_with_a_syn_ack_and_times_it_like_a_syn() {
    // tcp_conn_request → tcp_v4_send_synack: rcv_nxt = the SYN's sequence + 1;
    // the SYN-ACK is resent after TCP_TIMEOUT_INIT if no ACK comes.
    let mut tcp = Tcp::new(Socket::listen(&host()));
    send!(tcp, syn());
    recv!(tcp, syn_ack());
    recv_nothing!(tcp);
    assert!(!tcp.sock.is_established());
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_secs(1)));
}

#[test]
fn the_ack_of_the_syn_ack_establishes_the_passive_side_with_initcwnd_ten() {
    // tcp_rcv_state_process, TCP_SYN_RECV: the ACK establishes the socket,
    // measures the RTT from the SYN-ACK, and takes the peer's window
    // (tcp_ack_update_window). cwnd starts at TCP_INIT_CWND (RFC 6928) with
    // no ssthresh yet (TCP_INFINITE_SSTHRESH).
    let tcp = established();
    assert_eq!(tcp.sock.srtt(), Some(RTT));
    assert_eq!(tcp.sock.info().snd_wnd, PEER_WND);
    assert_eq!(tcp.sock.cwnd(), 10);
    assert_eq!(tcp.sock.info().ssthresh, None);
    assert_eq!(tcp.next_timeout(), None);
    assert!(
        tcp.events()
            .contains(&TraceEvent::Established { side: Side::Server })
    );
}

#[test]
fn a_lost_syn_is_resent_after_one_second_and_the_next_wait_doubles() {
    // tcp_retransmit_timer: the SYN goes again, and icsk_rto doubles
    // (RFC 6298 5.5) for the next attempt.
    let mut tcp = Tcp::new(Socket::connect(&host()));
    recv!(tcp, syn());
    tcp.fire_timer();
    assert_eq!(tcp.now, SimTime(1_000 * MS));
    recv_retransmit!(tcp, syn());
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_secs(2)));
    assert!(tcp.events().contains(&TraceEvent::RtoFired {
        side: Side::Client,
        rto_ns: 1_000 * MS,
    }));
}

#[test]
fn a_retried_syn_makes_the_listener_send_its_syn_ack_again() {
    // The client's SYN came again, so our SYN-ACK was lost: tcp_check_req
    // answers the duplicate SYN with the same SYN-ACK.
    let mut tcp = Tcp::new(Socket::listen(&host()));
    send!(tcp, syn());
    recv!(tcp, syn_ack());
    tcp.at_ms(1_000);
    send!(tcp, syn());
    assert_eq!(tcp.drain(), vec![syn_ack()]);
}

/// The server's SYN-ACK as it arrives, carrying the time it was sent at
/// `ms` as its timestamp (as the simulator stamps every segment).
fn syn_ack_sent_at(ms: u64) -> Segment {
    Segment {
        ts_val: ms * MS,
        ..syn_ack()
    }
}

/// The client's bare ACK of the handshake, echoing the timestamp `ts_ecr`.
fn client_ack(ts_ecr: u64) -> Segment {
    Segment {
        from: Side::Client,
        ts_ecr,
        // An active open's window counts whole advmss (1460) segments:
        // tcp_select_initial_window from tcp_connect_init, 44 x 1460.
        wnd: 64240,
        ..from_us()
    }
}

/// A client whose SYN left at 0 and whose SYN-ACK (sent by the server at
/// 5 ms) arrived at 10 ms: it is established and has sent its ACK.
fn client_established() -> Tcp {
    let mut tcp = Tcp::new(Socket::connect(&host()));
    recv!(tcp, syn());
    tcp.at_ms(10);
    send!(tcp, syn_ack_sent_at(5));
    // tcp_rcv_synsent_state_process stores the SYN-ACK's timestamp
    // (tcp_store_ts_recent): the ACK echoes it.
    recv!(tcp, client_ack(5 * MS));
    tcp
}

#[test]
fn an_established_client_answers_a_retransmitted_syn_ack_with_a_pure_ack() {
    // The ACK above was lost; the server's request timer resent the SYN-ACK
    // at 1005 ms. tcp_validate_incoming, step 4 (RFC 5961 4.2): a SYN on a
    // synchronized connection gets tcp_send_challenge_ack, a bare ACK of the
    // current state, and is dropped. Its TSecr is still the first SYN-ACK's:
    // the dropped segment never reached tcp_replace_ts_recent.
    let mut tcp = client_established();
    tcp.at_ms(1_010);
    send!(tcp, syn_ack_sent_at(1_005));
    recv!(tcp, client_ack(5 * MS));
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), None, "nothing else to do");
}

#[test]
fn challenge_acks_go_at_most_once_per_half_second() {
    // tcp_send_challenge_ack → __tcp_oow_rate_limited: one answer per
    // tcp_invalid_ratelimit (HZ/2 = 500 ms) per socket (last_oow_ack_time);
    // 500 ms after the last one is no longer "within" it.
    let mut tcp = client_established();
    tcp.at_ms(1_010);
    send!(tcp, syn_ack_sent_at(1_005));
    recv!(tcp, client_ack(5 * MS));
    tcp.at_ms(1_400);
    send!(tcp, syn_ack_sent_at(1_395));
    recv_nothing!(tcp);
    tcp.at_ms(1_510);
    send!(tcp, syn_ack_sent_at(1_505));
    recv!(tcp, client_ack(5 * MS));
}

#[test]
fn a_kernel_without_the_rate_limit_answers_every_syn_ack() {
    // CentOS 6's 2.6.32 has RFC 5961's challenge ACK but no per-socket
    // limit (tcp_oow_rate_limited came with 4.0).
    let mut cfg = host();
    cfg.behaviour.oow_rate_limit = false;
    let mut tcp = Tcp::new(Socket::connect(&cfg));
    recv!(tcp, syn());
    tcp.at_ms(10);
    send!(tcp, syn_ack_sent_at(5));
    recv!(tcp, client_ack(5 * MS));
    for ms in [1_010, 1_100] {
        tcp.at_ms(ms);
        send!(tcp, syn_ack_sent_at(ms - 5));
        recv!(tcp, client_ack(5 * MS));
    }
}

#[test]
fn a_retried_syn_resends_the_syn_ack_once_per_half_second_and_restarts_its_timer() {
    // tcp_check_req, "pure retransmitted SYN": the SYN-ACK goes again at once
    // unless tcp_oow_rate_limited (on the request's last_oow_ack_time), and
    // the pending timer moves to now + reqsk_timeout (1 s, no timeout yet).
    let mut tcp = Tcp::new(Socket::listen(&host()));
    send!(tcp, syn());
    recv!(tcp, syn_ack());
    tcp.at_ms(400);
    send!(tcp, syn());
    recv_retransmit!(tcp, syn_ack());
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_secs(1)));
    tcp.at_ms(700);
    send!(tcp, syn());
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(700)));
    tcp.at_ms(900);
    send!(tcp, syn());
    recv_retransmit!(tcp, syn_ack());
    assert_eq!(tcp.sock.total_retrans(), 2, "req->num_retrans");
}

#[test]
fn the_clients_first_data_completes_the_passive_open_when_its_ack_was_lost() {
    // tcp_check_req: any segment acknowledging snt_isn + 1 creates the child,
    // which tcp_rcv_state_process establishes; the data then goes on to
    // tcp_data_queue as on any established socket.
    let mut tcp = Tcp::new(Socket::listen(&host()));
    send!(tcp, syn());
    recv!(tcp, syn_ack());
    tcp.at_ms(10);
    send!(
        tcp,
        Segment {
            len: 147,
            ..from_peer()
        }
    );
    assert!(tcp.sock.is_established());
    assert_eq!(tcp.sock.app_received(), 147);
}
