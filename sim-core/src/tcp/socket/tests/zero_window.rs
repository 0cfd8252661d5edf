//! The peer's window: it bounds what is sent (`tcp_snd_wnd_test`), and when
//! it is too small with nothing in flight the persist timer probes it
//! (tcp_timer.c `tcp_probe_timer`, tcp_output.c `tcp_write_wakeup`).

use super::*;

/// A window update from the peer: nothing new acknowledged, `wnd` open.
fn window(wnd: u64) -> Segment {
    Segment { wnd, ..from_peer() }
}

/// Our zero-window probe: an already acknowledged byte, no data.
fn probe() -> Segment {
    Segment {
        seq: 0,
        ..from_us()
    }
}

/// A zero-window probe from the peer.
fn probe_from_peer() -> Segment {
    Segment {
        seq: 0,
        ..from_peer()
    }
}

/// Our first data segment, of `len` bytes.
fn first_data(len: u32) -> Segment {
    Segment { len, ..from_us() }
}

/// Our first `len` bytes leave, and only the retransmission timer (210 ms) runs.
#[track_caller]
fn recv_under_rto(tcp: &mut Tcp, seg: Segment) {
    recv!(tcp, seg);
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(210)));
}

/// The server of [`established_with`], after the peer closed its window
/// and the application wrote `bytes`.
fn shut_out(cfg: &HostConfig, bytes: u64) -> Tcp {
    let mut tcp = established_with(cfg);
    send!(tcp, window(0));
    tcp.write(bytes);
    recv_nothing!(tcp);
    tcp
}

#[test]
fn data_stops_at_the_right_edge_of_the_peers_window() {
    // tcp_snd_wnd_test: a segment must end within snd_una + snd_wnd; the
    // window update itself is taken by tcp_ack_update_window.
    let mut tcp = established();
    send!(tcp, window(3 * MSS as u64));
    assert_eq!(tcp.sock.info().snd_wnd, 3 * MSS as u64);
    tcp.write(10 * MSS as u64);
    for seg in full_segments(0, 3) {
        recv!(tcp, seg);
    }
    recv_nothing!(tcp);
    // Data is in flight, so its ACKs will reopen the window: no probing.
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(210)));
}

#[test]
fn a_zero_window_with_nothing_in_flight_arms_the_persist_timer_for_one_rto() {
    // tcp_check_probe_timer: no ACK will come to reopen the window, so the
    // probe timer starts, at tcp_probe0_base = the RTO (210 ms).
    let tcp = shut_out(&host(), 1000);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(210)));
}

#[test]
fn the_persist_timer_sends_a_probe_below_snd_una_and_backs_off() {
    // tcp_probe_timer → tcp_send_probe0 → tcp_write_wakeup with no room:
    // tcp_xmit_probe_skb sends snd_una − 1 with no data, which the peer must
    // answer with its window. icsk_backoff grows: the next probe waits
    // RTO << 1 (tcp_probe0_when).
    let mut tcp = shut_out(&host(), 1000);
    tcp.fire_timer();
    recv!(tcp, probe());
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(420)));
    assert!(tcp.events().contains(&TraceEvent::ZeroWindowProbe {
        side: Side::Server,
        probes: 1,
    }));
}

#[test]
fn a_window_update_stops_the_persist_timer_and_the_data_goes() {
    // tcp_ack_probe: the window has room for the next segment, so the probe
    // timer stops; tcp_write_xmit sends, and the RTO takes over.
    let mut tcp = shut_out(&host(), 1000);
    tcp.at_ms(50);
    send!(tcp, window(PEER_WND));
    // The whole write: PSH.
    recv_under_rto(&mut tcp, pushed(first_data(1000)));
}

#[test]
fn a_probe_into_a_window_smaller_than_the_segment_carries_what_fits() {
    // 1000 bytes of window cannot take a 1448-byte segment (tcp_snd_wnd_test),
    // so the persist timer runs; tcp_write_wakeup then sends as much as the
    // window allows (tcp_fragment at the window's edge), and the RTO runs for it.
    let mut tcp = established();
    send!(tcp, window(1000));
    tcp.write(MSS as u64);
    recv_nothing!(tcp);
    tcp.fire_timer();
    assert_eq!(tcp.now, SimTime(220 * MS));
    // The first piece of the write: PSH stays with the rest (tcp_fragment).
    recv_under_rto(&mut tcp, first_data(1000));
}

#[test]
fn the_receiver_answers_a_probe_with_its_current_window() {
    // A segment below rcv_nxt with no data (a zero-window probe) is answered
    // at once with an ACK carrying the window (tcp_send_dupack).
    let mut tcp = established();
    tcp.at_ms(20);
    send!(tcp, probe_from_peer());
    recv!(tcp, from_us());
    recv_nothing!(tcp);
}

#[test]
fn unanswered_probes_give_the_connection_up_after_tcp_retries2() {
    // tcp_probe_timer: once icsk_probes_out reaches tcp_retries2 (2 here)
    // with no ACK in between, tcp_write_err aborts the connection.
    let mut cfg = host();
    cfg.sender.retries2 = 2;
    let mut tcp = shut_out(&cfg, 1000);
    for _ in 0..2 {
        tcp.fire_timer();
        assert_eq!(tcp.drain().len(), 1, "one probe");
    }
    assert!(!tcp.sock.is_aborted());
    tcp.fire_timer();
    assert!(tcp.sock.is_aborted());
    assert_eq!(
        tcp.sock.gave_up(),
        Some(crate::tcp::GiveUp::ZeroWindowProbes)
    );
    tcp.assert_quiet();
    assert!(tcp.events().contains(&TraceEvent::Aborted {
        side: Side::Server,
        retries: 2,
    }));
}

/// The case: a server established over a 100 ms round trip (RTO =
/// 100 ms + the 200 ms floor = 300 ms) whose peer closes its window at
/// 200 ms, when the application has `bytes` to send.
fn shut_out_at_100ms_rtt(bytes: u64) -> Tcp {
    let mut tcp = Tcp::new(Socket::listen(&host()));
    send!(tcp, syn());
    recv!(tcp, syn_ack());
    tcp.at_ms(100);
    send!(tcp, from_peer());
    assert_eq!(tcp.sock.info().rto_ns, 300 * MS);
    tcp.at_ms(200);
    send!(tcp, window(0));
    tcp.write(bytes);
    recv_nothing!(tcp);
    tcp
}

#[test]
fn each_probe_timer_after_the_first_runs_from_the_receivers_zero_window_answer() {
    // tcp_check_probe_timer arms the first at tcp_probe0_base (the RTO, 0.3 s);
    // tcp_send_probe0 backs off; each answer (window still 0) reaches
    // tcp_ack's no_queue path, where tcp_ack_probe re-arms the timer at now +
    // tcp_probe0_when: 0.6 s, then 1.2 s, then 2.4 s. Probes at 0.3, 1.0 and
    // 2.3 s after the window closed, each answered 100 ms later.
    let mut tcp = shut_out_at_100ms_rtt(1000);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(300)));
    for (probe_at, timer) in [(500, 600), (1_200, 1_200), (2_500, 2_400)] {
        tcp.fire_timer();
        assert_eq!(tcp.now, SimTime(probe_at * MS));
        recv!(tcp, probe());
        recv_nothing!(tcp);
        tcp.at_ms(probe_at + 100);
        send!(tcp, window(0));
        recv_nothing!(tcp);
        assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(timer)));
    }
}

#[test]
fn a_probe_that_carries_data_resets_the_backoff_and_hands_over_to_the_rto() {
    // tcp_send_probe0: when tcp_write_wakeup sent data (packets_out > 0),
    // icsk_backoff and icsk_probes_out go back to 0 and no probe timer is
    // set: the retransmission timer armed for the data takes over. When the
    // window shuts again with nothing in flight, probing starts afresh at
    // tcp_probe0_base.
    let mut tcp = shut_out_at_100ms_rtt(2 * MSS as u64);
    tcp.fire_timer();
    recv!(tcp, probe());
    tcp.at_ms(600);
    send!(tcp, window(0));
    tcp.fire_timer();
    recv!(tcp, probe());
    // 1000 bytes of window: too little for the first segment (tcp_ack_probe
    // keeps the backed-off timer, 1.2 s), enough for the probe to carry them.
    tcp.at_ms(1_300);
    send!(tcp, window(1000));
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(1_200)));
    tcp.fire_timer();
    recv!(
        tcp,
        Segment {
            len: 1000,
            ..from_us()
        }
    );
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(300)));
    tcp.at_ms(2_600);
    send!(
        tcp,
        Segment {
            ack: 1001,
            wnd: 0,
            ..from_peer()
        }
    );
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(300)));
}

#[test]
fn the_receiver_answers_probes_at_most_once_per_half_second() {
    // A probe fails tcp_sequence (its end is below rcv_wup): tcp_validate_incoming
    // answers with tcp_send_dupack unless tcp_oow_rate_limited, which passes
    // one segment without data per tcp_invalid_ratelimit (500 ms).
    let mut tcp = established();
    for (ms, answered) in [(20, true), (300, false), (520, true)] {
        tcp.at_ms(ms);
        send!(tcp, probe_from_peer());
        if answered {
            recv!(tcp, from_us());
        }
        recv_nothing!(tcp);
    }
}

#[test]
fn a_kernel_without_the_rate_limit_answers_every_probe() {
    let mut cfg = host();
    cfg.behaviour.oow_rate_limit = false;
    let mut tcp = established_with(&cfg);
    for ms in [20, 300] {
        tcp.at_ms(ms);
        send!(tcp, probe_from_peer());
        recv!(tcp, from_us());
    }
}
