//! A SYN or SYN-ACK that goes unanswered: when it is sent again, when the
//! host gives up, and what the retransmissions leave the connection with.
//!
//! ```text
//!   client (tcp_retransmit_timer)        server (reqsk_timer_handler)
//!   SYN 0, 1, 3, 7, 15, 31, 63 s         SYN-ACK 0, 1, 3, 7, 15, 31 s
//!   connect() fails at 127 s             request forgotten at 63 s
//!   (6.5+: 0, 1, 2, 3, 4, 5, 7, 11, 19,
//!    35, 67 s; fails at 131 s)
//! ```

use super::*;
use crate::tcp::GiveUp;

/// When each of the socket's timers fires from now on, in seconds, while
/// each firing resends (or, the last, gives up).
fn timeouts_until_give_up(tcp: &mut Tcp) -> Vec<u64> {
    let mut at = vec![];
    while !tcp.sock.is_aborted() {
        tcp.fire_timer();
        at.push(tcp.now.0 / (1_000 * MS));
        if !tcp.sock.is_aborted() {
            assert_eq!(tcp.drain().len(), 1, "one SYN per timeout");
        }
    }
    tcp.assert_quiet();
    at
}

#[test]
fn the_syn_is_resent_at_1_3_7_15_31_63_s_and_connect_fails_at_127_s() {
    // tcp_write_timeout in SYN-SENT: expired once icsk_retransmits reaches
    // tcp_syn_retries (6), or retrans_stamp (the first SYN, tcp_connect) is
    // tcp_model_timeout(6, 1 s) = 127 s old; tcp_write_err: ETIMEDOUT.
    let mut tcp = Tcp::new(Socket::connect(&host()));
    recv!(tcp, syn());
    assert_eq!(timeouts_until_give_up(&mut tcp), [1, 3, 7, 15, 31, 63, 127]);
    assert_eq!(tcp.sock.gave_up(), Some(GiveUp::SynRetries));
    assert!(tcp.events().contains(&TraceEvent::Aborted {
        side: Side::Client,
        retries: 6,
    }));
}

#[test]
fn since_6_5_the_first_four_syn_retransmissions_are_a_second_apart() {
    // ccce324dabfe: tcp_retransmit_timer leaves icsk_rto alone while
    // total_rto <= tcp_syn_linear_timeouts (4), and tcp_write_timeout allows
    // tcp_syn_retries + 4 retransmissions: ETIMEDOUT at 131 s.
    let mut cfg = host();
    cfg.behaviour.syn_linear_timeouts = 4;
    let mut tcp = Tcp::new(Socket::connect(&cfg));
    recv!(tcp, syn());
    assert_eq!(
        timeouts_until_give_up(&mut tcp),
        [1, 2, 3, 4, 5, 7, 11, 19, 35, 67, 131]
    );
    assert_eq!(tcp.sock.gave_up(), Some(GiveUp::SynRetries));
}

#[test]
fn tcp_syn_retries_sets_how_many_syns_are_resent() {
    let mut cfg = host();
    cfg.sender.syn_retries = 2;
    let mut tcp = Tcp::new(Socket::connect(&cfg));
    recv!(tcp, syn());
    assert_eq!(timeouts_until_give_up(&mut tcp), [1, 3, 7]);
}

#[test]
fn the_syn_ack_is_resent_at_1_3_7_15_31_s_and_the_request_forgotten_at_63_s() {
    // reqsk_timer_handler: while num_timeout < tcp_synack_retries (5) the
    // SYN-ACK goes again and the timer is re-armed at reqsk_timeout =
    // TCP_TIMEOUT_INIT << num_timeout; then inet_csk_reqsk_queue_drop_and_put
    // forgets the request, with no RST.
    let mut tcp = Tcp::new(Socket::listen(&host()));
    send!(tcp, syn());
    recv!(tcp, syn_ack());
    assert_eq!(timeouts_until_give_up(&mut tcp), [1, 3, 7, 15, 31, 63]);
    assert_eq!(tcp.sock.gave_up(), Some(GiveUp::SynAckRetries));
    assert!(tcp.events().contains(&TraceEvent::Aborted {
        side: Side::Server,
        retries: 5,
    }));
}

#[test]
fn with_tcp_synack_retries_0_the_request_is_forgotten_after_one_second() {
    let mut cfg = host();
    cfg.sender.synack_retries = 0;
    let mut tcp = Tcp::new(Socket::listen(&cfg));
    send!(tcp, syn());
    recv!(tcp, syn_ack());
    assert_eq!(timeouts_until_give_up(&mut tcp), [1]);
}

/// A listener that got the SYN at 10 ms and whose SYN-ACK timed out twice:
/// SYN-ACKs left at 10, 1010 and 3010 ms.
fn syn_ack_timed_out_twice(cfg: &HostConfig) -> Tcp {
    let mut tcp = Tcp::new(Socket::listen(cfg));
    tcp.at_ms(10);
    send!(tcp, syn());
    recv!(tcp, syn_ack());
    for _ in 0..2 {
        tcp.fire_timer();
        recv_retransmit!(tcp, syn_ack());
    }
    assert_eq!(tcp.now, SimTime(3_010 * MS));
    tcp
}

/// The client's ACK arriving at 3020 ms, echoing the SYN-ACK sent at `ms`.
fn ack_echoing(tcp: &mut Tcp, ms: u64) {
    tcp.at_ms(3_020);
    send!(
        tcp,
        Segment {
            ts_ecr: ms * MS,
            ..from_peer()
        }
    );
    assert!(tcp.sock.is_established());
}

#[test]
fn an_ack_echoing_a_resent_syn_ack_starts_the_server_at_cwnd_one() {
    // tcp_create_openreq_child: total_retrans = num_retrans (2), undo_marker
    // set (num_timeout > 0); tcp_init_transfer: more than one SYN-ACK
    // retransmission and no undo → cwnd 1 (RFC 6298 5.7). The RTT comes from
    // the echoed timestamp (tcp_ack_update_rtt → tcp_rtt_tsopt_us), which
    // Karn's rule does not forbid: 10 ms.
    let mut tcp = syn_ack_timed_out_twice(&host());
    ack_echoing(&mut tcp, 3_010);
    assert_eq!(tcp.sock.cwnd(), 1);
    assert_eq!(tcp.sock.srtt(), Some(RTT));
    assert_eq!(tcp.sock.total_retrans(), 2);
    assert!(tcp.events().contains(&TraceEvent::CwndChanged {
        side: Side::Server,
        old: 10,
        new: 1,
        ssthresh: crate::cc::TCP_INFINITE_SSTHRESH,
    }));
}

#[test]
fn an_ack_echoing_the_first_syn_ack_proves_the_timeouts_spurious_and_keeps_initcwnd() {
    // tcp_try_undo_spurious_syn: the ACK's TSecr equals retrans_stamp (the
    // first SYN-ACK's), so that one arrived and undo_marker is cleared: cwnd
    // stays at TCP_INIT_CWND. The echo also dates the RTT sample from the
    // first SYN-ACK: 3010 ms, as Linux measures it.
    let mut tcp = syn_ack_timed_out_twice(&host());
    ack_echoing(&mut tcp, 10);
    assert_eq!(tcp.sock.cwnd(), 10);
    assert_eq!(tcp.sock.srtt(), Some(SimDuration::from_millis(3_010)));
}

#[test]
fn before_5_4_two_syn_ack_retransmissions_always_cost_the_initial_window() {
    // tcp_init_metrics on 4.18 and older: cwnd = 1 whenever total_retrans > 1.
    let mut cfg = host();
    cfg.behaviour.spurious_syn_undo = false;
    let mut tcp = syn_ack_timed_out_twice(&cfg);
    ack_echoing(&mut tcp, 10);
    assert_eq!(tcp.sock.cwnd(), 1);
}

#[test]
fn one_syn_ack_retransmission_keeps_initcwnd() {
    // "we only reset cwnd when more than 1 SYN/SYN-ACK retransmission has
    // occurred" (tcp_init_transfer): a lost final ACK alone costs nothing.
    let mut tcp = Tcp::new(Socket::listen(&host()));
    send!(tcp, syn());
    recv!(tcp, syn_ack());
    tcp.fire_timer();
    recv_retransmit!(tcp, syn_ack());
    tcp.at_ms(1_010);
    send!(
        tcp,
        Segment {
            ts_ecr: 1_000 * MS,
            ..from_peer()
        }
    );
    assert!(tcp.sock.is_established());
    assert_eq!(tcp.sock.cwnd(), 10);
    assert_eq!(tcp.sock.srtt(), Some(RTT));
}

#[test]
fn a_client_whose_syn_was_resent_twice_starts_at_cwnd_one() {
    // The active side's undo_marker (tcp_enter_loss on the SYN timeout) is
    // never cleared: tcp_packet_delayed is false in SYN-SENT. The SYN-ACK
    // echoes the SYN sent at 3 s, which dates the RTT sample: 10 ms.
    let mut tcp = Tcp::new(Socket::connect(&host()));
    recv!(tcp, syn());
    for _ in 0..2 {
        tcp.fire_timer();
        recv_retransmit!(tcp, syn());
    }
    tcp.at_ms(3_010);
    send!(
        tcp,
        Segment {
            ts_ecr: 3_000 * MS,
            ..syn_ack()
        }
    );
    assert!(tcp.sock.is_established());
    assert_eq!(tcp.sock.cwnd(), 1);
    assert_eq!(tcp.sock.srtt(), Some(RTT));
}
