//! A RST reaches the socket (tcp_input.c `tcp_validate_incoming`, RFC 5961
//! 3.2): exactly at rcv_nxt it resets the connection (`tcp_reset`); in the
//! window but elsewhere it draws a challenge ACK; outside it, nothing.

use super::*;
use crate::tcp::GiveUp;

/// A RST from the peer at `seq`, as a host with no socket sends it in
/// answer to our ACK (`tcp_v4_send_reset`): no ACK, window 0.
fn rst(seq: u64) -> Segment {
    Segment {
        seq,
        ack: 0,
        wnd: 0,
        flags: Flags {
            rst: true,
            ..Flags::default()
        },
        ..from_peer()
    }
}

#[test]
fn a_rst_at_rcv_nxt_resets_the_connection_and_silences_the_socket() {
    // The peer's SYN took sequence number 0, so rcv_nxt is 1: the RST a
    // host with no socket builds from our ACK (seq = its ack_seq) is there.
    let mut tcp = established();
    tcp.write(10 * MSS as u64);
    let sent = tcp.drain();
    assert!(!sent.is_empty());
    tcp.at_ms(20);
    send!(tcp, rst(1));
    assert!(tcp.sock.is_aborted());
    assert_eq!(tcp.sock.gave_up(), Some(GiveUp::Reset));
    // tcp_done: nothing more is sent, the RTO of the data in flight is gone.
    tcp.assert_quiet();
    assert!(
        tcp.events()
            .contains(&TraceEvent::Reset { side: Side::Server })
    );
    // A second RST finds the socket closed: nothing more happens.
    send!(tcp, rst(1));
    let resets = tcp
        .events()
        .iter()
        .filter(|e| matches!(e, TraceEvent::Reset { .. }))
        .count();
    assert_eq!(resets, 1);
}

#[test]
fn a_rst_elsewhere_in_the_window_draws_a_challenge_ack() {
    // tcp_send_challenge_ack: the sender of a RST that is in the window
    // but not at rcv_nxt may be blind; a genuine one answers the ACK with
    // an exact RST. The connection stays.
    let mut tcp = established();
    tcp.at_ms(20);
    send!(tcp, rst(1 + 1000));
    assert!(!tcp.sock.is_aborted());
    recv!(tcp, from_us());
    recv_nothing!(tcp);
}

#[test]
fn a_rst_outside_the_window_is_dropped() {
    // tcp_sequence fails: a RST is never answered (RFC 793 p. 69), only dropped.
    let mut tcp = established();
    tcp.at_ms(20);
    send!(tcp, rst(1 + 10 * PEER_WND));
    assert!(!tcp.sock.is_aborted());
    recv_nothing!(tcp);
}

#[test]
fn a_zero_window_sender_reset_by_the_peer_stops_probing() {
    // The persist timer dies with the socket: no probe after tcp_reset.
    let mut tcp = established();
    send!(
        tcp,
        Segment {
            wnd: 0,
            ..from_peer()
        }
    );
    tcp.write(1000);
    recv_nothing!(tcp);
    assert!(tcp.next_timeout().is_some(), "the persist timer runs");
    send!(tcp, rst(1));
    tcp.assert_quiet();
}

#[test]
fn a_connecting_socket_takes_a_rst_only_with_the_ack_of_its_syn() {
    // tcp_rcv_synsent_state_process: a RST counts with an ACK of exactly
    // snd_nxt (the SYN); then tcp_reset (connect() fails: ECONNREFUSED).
    let mut tcp = Tcp::new(Socket::connect(&host()));
    let syn = tcp.drain();
    assert!(syn[0].flags.syn);
    let refused = |ack| Segment {
        seq: 0,
        ack,
        flags: Flags {
            rst: true,
            ack: true,
            ..Flags::default()
        },
        from: Side::Server,
        ..rst(0)
    };
    send!(tcp, refused(5));
    assert!(!tcp.sock.is_aborted(), "an ACK of nothing we sent");
    send!(tcp, rst(0));
    assert!(!tcp.sock.is_aborted(), "no ACK");
    send!(tcp, refused(1));
    assert_eq!(tcp.sock.gave_up(), Some(GiveUp::Reset));
    tcp.assert_quiet();
}
