//! PSH: where a Linux sender sets it (tcp.c `tcp_push`, `forced_push`), and
//! what a receiver does with it (tcp_input.c `tcp_measure_rcv_mss`, tcp.c
//! `tcp_cleanup_rbuf`): a segment that looks like the end of a write is ACKed
//! as soon as the application has read it, not when the delayed-ACK timer
//! fires. Short segments have done that in every era; a full-sized one only
//! since 4720852ed9af "tcp: fix delayed ACKs for MSS boundary condition"
//! (6.6, October 2023).

use super::*;
use crate::config::{HostSettings, Kernel};

/// The peer's `n`th full segment (from 0).
fn data(n: u64) -> Segment {
    Segment {
        seq: seq(n),
        len: MSS,
        ..from_peer()
    }
}

/// A listener of `kernel`, reading at once, fed one full segment per
/// millisecond from 20 ms until one is not ACKed on arrival (quick-ACK
/// mode is over); its delayed ACK has gone. Returns the next segment's index.
fn past_quick_acks(kernel: Kernel) -> (Tcp, u64) {
    let (mut tcp, _) = accept(&HostSettings::for_kernel(kernel).finish().unwrap());
    for n in 0..100 {
        tcp.at_ms(20 + n);
        send!(tcp, data(n));
        if tcp.drain().is_empty() {
            tcp.fire_timer();
            assert_eq!(tcp.drain().len(), 1, "the delayed ACK");
            tcp.now += SimDuration::from_millis(1);
            return (tcp, n + 1);
        }
    }
    panic!("still in quick-ACK mode after 100 segments");
}

#[test]
fn today_a_full_segment_with_psh_is_acked_as_soon_as_it_is_read() {
    // tcp_measure_rcv_mss sets ICSK_ACK_PUSHED for a full-sized PSH segment;
    // the reader empties the buffer, not in ping-pong mode, so
    // tcp_cleanup_rbuf ACKs at once.
    let (mut tcp, n) = past_quick_acks(Kernel::Today);
    send!(tcp, pushed(data(n)));
    let out = tcp.drain();
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].ack, seq(n + 1));
    assert_eq!(tcp.next_timeout(), None, "no delayed-ACK timer left");
}

#[test]
fn before_6_6_a_full_segment_with_psh_waits_for_the_delayed_ack_timer() {
    // Without the 2023 fix a full segment never sets PUSHED: one segment
    // unacknowledged (not more than rcv_mss), the window not opened twofold,
    // so the ACK waits for ato, bounded by max(srtt, 40 ms) = 40 ms: armed
    // on a tick, it runs on tick +40 on 3.10's cascading wheel and on tick
    // +41 on 4.8 and later (calc_index rounds up).
    for (k, wait) in [(Kernel::V5_5, 41), (Kernel::V4_18, 41), (Kernel::V3_10, 40)] {
        let (mut tcp, n) = past_quick_acks(k);
        send!(tcp, pushed(data(n)));
        recv_nothing!(tcp);
        assert_eq!(
            tcp.next_timeout(),
            Some(SimDuration::from_millis(wait)),
            "{k}"
        );
        tcp.fire_timer();
        assert_eq!(tcp.drain()[0].ack, seq(n + 1), "{k}");
    }
}

#[test]
fn every_era_acks_a_short_segment_as_soon_as_it_is_read() {
    // A segment shorter than rcv_mss sets ICSK_ACK_PUSHED in every kernel
    // (tcp_measure_rcv_mss's else branch), with or without PSH.
    for k in Kernel::ALL {
        let (mut tcp, n) = past_quick_acks(k);
        send!(
            tcp,
            Segment {
                len: 1000,
                ..data(n)
            }
        );
        let out = tcp.drain();
        assert_eq!(out.len(), 1, "{k}");
        assert_eq!(out[0].ack, seq(n) + 1000, "{k}");
    }
}

#[test]
fn the_sender_marks_the_end_of_each_write_and_every_half_of_the_peers_window() {
    // The peer offers 5792 (4 segments) from its SYN on: forced_push marks
    // the skb that takes write_seq past pushed_seq + 2896 (ends 4345, 8689,
    // 13033), and tcp_push the write's last one (14481).
    let mut tcp = Tcp::new(Socket::listen(&host()));
    let small = |seg: Segment| Segment { wnd: 5_792, ..seg };
    send!(tcp, small(syn()));
    tcp.drain();
    tcp.at_ms(10);
    send!(tcp, small(from_peer()));
    tcp.write(10 * MSS as u64);
    let psh = |segs: Vec<Segment>| -> Vec<bool> { segs.iter().map(|s| s.flags.psh).collect() };
    assert_eq!(psh(tcp.drain()), [false, false, true, false]);
    tcp.at_ms(20);
    send!(tcp, small(ack(seq(4))));
    assert_eq!(psh(tcp.drain()), [false, true, false, false]);
    tcp.at_ms(30);
    send!(tcp, small(ack(seq(8))));
    assert_eq!(psh(tcp.drain()), [true, true]);
}
