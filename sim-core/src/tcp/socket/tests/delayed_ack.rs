//! When the receiver acknowledges: quick ACKs, the delayed-ACK timer, and
//! out-of-order data (tcp_input.c `__tcp_ack_snd_check`, tcp_output.c
//! `tcp_send_delayed_ack`).

use super::*;
use crate::config::DelayedAck;

/// The peer's `n`th full data segment (from 0).
fn data(n: u64) -> Segment {
    Segment {
        seq: seq(n),
        len: MSS,
        ..from_peer()
    }
}

/// The window once data flows: rcv_ssthresh is the clamp less one segment
/// of reserve (65536 − 1448 = 64088, `tcp_init_buffer_space`), and without
/// window scaling `__tcp_select_window` offers whole segments of it: 44 × 1448.
const DATA_WND: u64 = 63_712;

/// Our ACK of everything before the peer's `n`th segment.
fn ack_of(n: u64) -> Segment {
    Segment {
        ack: seq(n),
        wnd: DATA_WND,
        ..from_us()
    }
}

/// Feeds the peer's segments `0..n`, 1 ms apart from 11 ms, each answered at once.
fn quick_acked(tcp: &mut Tcp, n: u64) {
    for i in 0..n {
        tcp.at_ms(11 + i);
        send!(tcp, data(i));
        recv!(tcp, ack_of(i + 1));
    }
}

/// The 17th segment, at 27 ms, after the sixteen quick ACKs: its ACK waits.
fn one_segment_delayed() -> Tcp {
    let mut tcp = established();
    quick_acked(&mut tcp, 16);
    tcp.at_ms(27);
    send!(tcp, data(16));
    recv_nothing!(tcp);
    tcp
}

#[test]
fn the_first_sixteen_segments_are_acknowledged_one_by_one() {
    // tcp_incr_quickack on the first data: min(rcv_wnd / (2 × rcv_mss),
    // TCP_MAX_QUICKACKS) = min(64240 / 2896, 16) = 16 quick ACKs, each sent at
    // once (tcp_in_quickack_mode) and counted down (tcp_dec_quickack_mode).
    let mut tcp = established();
    quick_acked(&mut tcp, 16);
    tcp.assert_quiet();
}

#[test]
fn once_quick_acks_are_used_up_a_single_segment_waits_40ms() {
    // __tcp_ack_snd_check: one segment unacknowledged and no quick ACKs left,
    // so tcp_send_delayed_ack arms the timer for ato = TCP_ATO_MIN (40 ms);
    // tcp_delack_timer_handler sends the ACK when it fires.
    let mut tcp = one_segment_delayed();
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(40)));
    assert!(tcp.events().contains(&TraceEvent::DelayedAckArmed {
        side: Side::Server,
        deadline: SimTime(67 * MS),
    }));
    tcp.fire_timer();
    assert_eq!(tcp.now, SimTime(67 * MS));
    recv!(tcp, ack_of(17));
    tcp.assert_quiet();
}

#[test]
fn on_the_cascading_wheel_a_segment_between_ticks_waits_less_than_40ms() {
    // tcp_send_delayed_ack: timeout = jiffies + ato, and the pre-4.8 timer
    // wheel (the model's default behaviour) runs the handler on that tick. A segment at 27.6 ms arrives in jiffy 27
    // (HZ = 1000), so its ACK leaves at 67 ms: 39.4 ms later, not 40.
    let mut tcp = established();
    quick_acked(&mut tcp, 16);
    tcp.now = SimTime(27 * MS + 600_000);
    send!(tcp, data(16));
    recv_nothing!(tcp);
    assert!(tcp.events().contains(&TraceEvent::DelayedAckArmed {
        side: Side::Server,
        deadline: SimTime(67 * MS),
    }));
    tcp.fire_timer();
    assert_eq!(tcp.now, SimTime(67 * MS));
    recv!(tcp, ack_of(17));
}

#[test]
fn a_second_full_segment_is_acknowledged_at_once() {
    // __tcp_ack_snd_check: more than one full segment unacknowledged means an
    // ACK now (RFC 5681 4.2: at least every second full-sized segment), and
    // sending it clears the delayed-ACK timer (tcp_event_ack_sent).
    let mut tcp = one_segment_delayed();
    tcp.at_ms(28);
    send!(tcp, data(17));
    recv!(tcp, ack_of(18));
    tcp.assert_quiet();
}

#[test]
fn the_quickack_route_option_acknowledges_every_segment() {
    // `ip route ... quickack 1` (RTAX_QUICKACK): tcp_in_quickack_mode is
    // always true, so even the 17th and later single segments are ACKed at once.
    let mut cfg = host();
    cfg.receiver.quickack = true;
    let mut tcp = established_with(&cfg);
    quick_acked(&mut tcp, 20);
    assert_eq!(tcp.next_timeout(), None);
}

#[test]
fn a_classic_delayed_ack_receiver_delays_even_the_first_segment() {
    // A fixed delayed-ACK timer with no quick-ACK mode (as on the BSD-derived
    // stacks of RFC 1122 4.2.3.2: at most 500 ms, here 200 ms): one segment
    // waits for the timer.
    let mut cfg = host();
    cfg.receiver.delayed_ack = DelayedAck::Fixed(SimDuration::from_millis(200));
    let mut tcp = established_with(&cfg);
    tcp.at_ms(11);
    send!(tcp, data(0));
    recv_nothing!(tcp);
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(200)));
    tcp.fire_timer();
    recv!(tcp, ack_of(1));
}

#[test]
fn an_out_of_order_segment_is_acknowledged_at_once_with_a_sack_block() {
    // tcp_data_queue_ofo: the segment is queued, the ACK repeats rcv_nxt and
    // reports what arrived above it (tcp_sack_new_ofo_skb, RFC 2018).
    let mut tcp = established();
    tcp.at_ms(11);
    send!(tcp, data(1));
    recv!(
        tcp,
        Segment {
            sack: SackBlocks::new(&[(seq(1), seq(2))]),
            wnd: WND,
            ..ack_of(0)
        }
    );
    recv_nothing!(tcp);
}

#[test]
fn filling_the_hole_is_acknowledged_at_once_up_to_the_held_data() {
    // tcp_data_queue → tcp_ofo_queue: the in-order segment joins what was
    // held; RFC 5681 4.2 asks for an immediate ACK when a gap is filled, and
    // with nothing held above rcv_nxt the ACK carries no SACK block.
    let mut tcp = established();
    tcp.at_ms(11);
    send!(tcp, data(1));
    tcp.drain();
    tcp.at_ms(12);
    send!(tcp, data(0));
    recv!(tcp, ack_of(2));
    recv_nothing!(tcp);
    assert_eq!(tcp.sock.app_received(), 2 * MSS as u64);
}

#[test]
fn a_duplicate_segment_is_acknowledged_at_once() {
    // tcp_data_queue: a segment entirely below rcv_nxt is a retransmission;
    // tcp_send_dupack answers at once so the sender learns rcv_nxt. (Linux
    // would add a D-SACK block for it, RFC 2883; the model sends none.)
    let mut tcp = established();
    quick_acked(&mut tcp, 1);
    tcp.at_ms(20);
    send!(tcp, data(0));
    recv!(tcp, ack_of(1));
    recv_nothing!(tcp);
}
