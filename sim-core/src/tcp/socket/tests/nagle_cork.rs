//! What holds a sub-MSS segment back: Nagle's rule in its three forms, and
//! `TCP_CORK` (tcp_output.c `tcp_nagle_test`, `tcp_nagle_check`,
//! `tcp_minshall_check`).

use super::*;
use crate::config::Nagle;
use crate::tcp::Hold;

fn established_nagle(nagle: Nagle) -> Tcp {
    let mut cfg = host();
    cfg.sender.nagle = nagle;
    established_with(&cfg)
}

/// A socket whose application corks it while it writes a message (TCP_CORK).
fn corked() -> Tcp {
    let mut cfg = host();
    cfg.sender.cork = true;
    established_with(&cfg)
}

/// Our data segment of `len` bytes at `seq`.
fn data(seq: u64, len: u32) -> Segment {
    Segment {
        seq,
        len,
        ..from_us()
    }
}

/// The same, ending a write: it carries PSH (`tcp_push`).
fn last(seq: u64, len: u32) -> Segment {
    pushed(data(seq, len))
}

#[test]
fn a_small_write_goes_at_once_when_nothing_is_in_flight() {
    // tcp_nagle_check only holds a partial segment while packets_out > 0.
    let mut tcp = established();
    tcp.write(100);
    recv!(tcp, last(1, 100));
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.held(), None);
}

#[test]
fn linux_holds_a_second_small_segment_until_the_first_is_acknowledged() {
    // tcp_minshall_check: an earlier sub-MSS segment (snd_sml) is still
    // unacknowledged, so the next one waits; its ACK releases it.
    let mut tcp = established();
    tcp.write(100);
    recv!(tcp, last(1, 100));
    tcp.write(100);
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.held(), Some((Hold::Nagle, 100)));
    tcp.at_ms(20);
    send!(tcp, ack(101));
    recv!(tcp, last(101, 100));
    recv_nothing!(tcp);
}

#[test]
fn linux_sends_a_small_tail_behind_full_segments_at_once() {
    // Full segments do not count for tcp_minshall_check: only an
    // unacknowledged *small* segment holds the next one.
    let mut tcp = established();
    tcp.write(2 * MSS as u64 + 100);
    recv!(tcp, data(seq(0), MSS), data(seq(1), MSS), last(seq(2), 100));
    recv_nothing!(tcp);
}

#[test]
fn classic_nagle_holds_the_small_tail_until_everything_is_acknowledged() {
    // RFC 896 as BSD stacks apply it: a partial segment waits while any data is
    // unacknowledged, even after a partial ACK.
    let mut tcp = established_nagle(Nagle::Classic);
    tcp.write(2 * MSS as u64 + 100);
    recv!(tcp, data(seq(0), MSS), data(seq(1), MSS));
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.held(), Some((Hold::Nagle, 100)));
    tcp.at_ms(20);
    send!(tcp, ack(seq(1)));
    recv_nothing!(tcp);
    tcp.at_ms(21);
    send!(tcp, ack(seq(2)));
    recv!(tcp, last(seq(2), 100));
    recv_nothing!(tcp);
}

#[test]
fn nodelay_sends_every_small_write_at_once() {
    // TCP_NODELAY (TCP_NAGLE_OFF): tcp_nagle_test always passes.
    let mut tcp = established_nagle(Nagle::Off);
    for seq in [1, 101, 201] {
        tcp.write(100);
        recv!(tcp, last(seq, 100));
    }
}

#[test]
fn cork_holds_a_partial_segment_until_the_last_write_even_with_nothing_in_flight() {
    // TCP_CORK (TCP_NAGLE_CORK): tcp_nagle_test holds a partial segment
    // whatever is in flight; uncorking after the last write sends all of it.
    let mut tcp = corked();
    tcp.write_more(100);
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.held(), Some((Hold::Cork, 100)));
    // The second write appends to the unsent 100 bytes, which lose their PSH
    // to the end of the write.
    tcp.write(100);
    recv!(tcp, last(1, 200));
    recv_nothing!(tcp);
}

#[test]
fn cork_lets_full_segments_through_and_holds_the_rest() {
    // Corking holds only partial segments: a full MSS is sent at once
    // (tcp_nagle_test passes when the segment is full).
    let mut tcp = corked();
    tcp.write_more(2000);
    recv!(tcp, data(1, MSS));
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.held(), Some((Hold::Cork, 2000 - MSS as u64)));
}
