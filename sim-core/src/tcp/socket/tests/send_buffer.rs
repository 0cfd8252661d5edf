//! The send buffer, skb by skb: what `write()` takes on today's kernel (GSO
//! skbs, `tcp_sendmsg_locked`) against one skb per MSS, when the blocked
//! writer wakes (`sk_stream_write_space`), when an autotuned buffer grows
//! (`tcp_new_space`), and `TCP_NOTSENT_LOWAT` (`tcp_stream_memory_free`).
//!
//! Setup: the server with `SO_SNDBUF` 16 KiB (sk_sndbuf 32768), Reno, a
//! 100 ms handshake RTT and a peer offering 65160 bytes, so that:
//!
//! - the size goal (`tcp_xmit_size_goal`) is half the peer's largest window
//!   in whole MSS: 32580 → 22 × 1448 = 31856;
//! - TSO packets (`tcp_tso_autosize`) are 2 segments: 200 % of 10 × 1448 B
//!   per 100 ms is 289600 B/s, ~282 B per ms, under `tcp_min_tso_segs`;
//! - every skb costs its payload plus a 960-byte head (6.3+ `skb_small_head_cache`);
//! - TCP Small Queues (`tcp_small_queue_check`) holds a packet back once
//!   `sk_wmem_alloc` (1 + the truesize the device holds) passes 2 × 3856 =
//!   7712 (1 ms of the pacing rate is less): with the device completing
//!   nothing while the copy loop runs, the third packet of an instant waits
//!   (1 + 7712 > 7712), unless the rtx queue holds one skb or none.

use super::*;
use crate::config::{HostSettings, Kernel, SendSkbs};

/// The size goal with the peer at 65160 bytes (see the module docs).
const GOAL: u64 = 22 * MSS as u64;
/// Truesize of an skb head on today's kernel.
const HEAD: u64 = 960;
/// A two-segment TSO packet's skb: payload and head.
const PACKET: u64 = 2 * MSS as u64 + HEAD;

/// The server of `kernel` with `set` applied, Reno, established after a
/// 100 ms handshake by a peer offering `peer_wnd`.
fn established_on(kernel: Kernel, set: impl FnOnce(&mut HostSettings), peer_wnd: u64) -> Tcp {
    let mut s = HostSettings::for_kernel(kernel);
    s.set_tcp_congestion_control(Algorithm::by_name("reno").unwrap());
    set(&mut s);
    let cfg = s.finish().unwrap();
    let mut tcp = Tcp::new(Socket::listen(&cfg));
    send!(tcp, syn());
    tcp.drain();
    tcp.at_ms(100);
    send!(
        tcp,
        Segment {
            wnd: peer_wnd,
            ..from_peer()
        }
    );
    assert!(tcp.sock.is_established());
    tcp
}

/// Today's server with `SO_SNDBUF` 16 KiB (see the module docs).
fn small_sndbuf(kernel: Kernel) -> Tcp {
    established_on(kernel, |s| s.set_so_sndbuf(16 * 1024), 65_160)
}

/// The peer's ACK of everything before `n` full segments, window 65160.
fn ack_segments(n: u64) -> Segment {
    Segment {
        wnd: 65_160,
        ..ack(seq(n))
    }
}

/// What the application has handed TCP of `written` bytes.
fn accepted(tcp: &Tcp, written: u64) -> u64 {
    written - tcp.sock.app_backlog()
}

/// The application writes 1 MiB, TCP sends what it may; returns what
/// `write()` took before it blocked.
fn write_1mib(tcp: &mut Tcp) -> u64 {
    tcp.write(1 << 20);
    tcp.drain();
    accepted(tcp, 1 << 20)
}

/// Payload bytes of every data segment the socket sends now.
fn data_sent(tcp: &mut Tcp) -> Vec<u32> {
    tcp.drain().iter().map(|s| s.len).collect()
}

#[test]
fn todays_first_write_fills_a_size_goal_skb_unchecked_and_tops_it_up_after_each_push() {
    // tcp_sendmsg_locked, 1 MB written into an empty socket:
    //   skb 1: allocated (0 < 32768), filled to the size goal: 31856 + 960.
    //   It is the send head: tcp_push_one sends one 2-segment packet (the
    //   rtx queue empty, TSQ lets it go); the cut (tso_fragment) puts the
    //   rest in a new skb with its own head. The loop tops the tail up by
    //   2896 unchecked: write_seq 34753 > pushed_seq 1 + 65160/2, a forced
    //   push. It sends packet 2 (one skb in the rtx queue) and cuts packet
    //   3, which TSQ holds (1 + 7712 > 7712): the push is over. The loop tops
    //   the tail up by 5792 unchecked; with the held packet as the send head
    //   the tail is not, so the copy asks for a new skb: w = 40544 + 4 × 960
    //   ≥ 32768, refused. Packets 3 to 5 go as the device completes (cwnd 10).
    //   Taken 40544 = 28 segments, 10 sent, w = 40544 + 6 heads.
    let mut tcp = small_sndbuf(Kernel::Today);
    tcp.write(1 << 20);
    assert_eq!(data_sent(&mut tcp), vec![MSS; 10]);
    assert_eq!(accepted(&tcp, 1 << 20), 28 * MSS as u64);
    let info = tcp.sock.info();
    assert_eq!(info.sndbuf, 32_768, "ss tb");
    assert_eq!(info.wmem_queued, 40_544 + 6 * HEAD, "ss w, past tb");
    assert_eq!(info.notsent_bytes, 18 * MSS as u64, "ss notsent");
}

#[test]
fn a_new_skb_is_refused_only_once_wmem_queued_reaches_sk_sndbuf() {
    // SO_SNDBUF 200000: sk_sndbuf 400000. As with 16 KiB, the first skb and
    // its top-ups leave a full tail once TSQ stops the push: 40544 bytes
    // taken, w = 40544 + 4 × 960 = 44384, with 2 more heads to come when
    // packets 4 and 5 are cut. The copy then asks for new skbs, each checked
    // by sk_stream_memory_free and filled to the size goal (+ 32816):
    // 44384 + 10 × 32816 = 372544 (+ 1920 at most) < 400000 lets an 11th
    // in; 44384 + 11 × 32816 = 405360 ≥ 400000 refuses a 12th.
    let mut tcp = established_on(Kernel::Today, |s| s.set_so_sndbuf(200_000), 65_160);
    assert_eq!(tcp.sock.sndbuf(), 400_000);
    tcp.write(1 << 20);
    assert_eq!(data_sent(&mut tcp), vec![MSS; 10]);
    assert_eq!(accepted(&tcp, 1 << 20), 40_544 + 11 * GOAL);
    let info = tcp.sock.info();
    assert_eq!(info.wmem_queued, 40_544 + 6 * HEAD + 11 * (GOAL + HEAD));
    assert_eq!(info.notsent_bytes, 40_544 - 14_480 + 11 * GOAL);
}

#[test]
fn one_skb_per_mss_stops_at_the_segment_that_fills_the_buffer() {
    // The model's per-MSS charging (2.6.32's era, SendSkbs::PerMss): 12 skbs
    // of 1448 + 1280 take 32736 < 32768, so a 13th is copied; 10 go out.
    let mut tcp = established_on(
        Kernel::Today,
        |s| {
            s.set_so_sndbuf(16 * 1024);
            s.set_send_skbs(SendSkbs::PerMss);
        },
        65_160,
    );
    tcp.write(1 << 20);
    assert_eq!(data_sent(&mut tcp), vec![MSS; 10]);
    assert_eq!(accepted(&tcp, 1 << 20), 13 * MSS as u64);
    assert_eq!(tcp.sock.info().wmem_queued, 13 * (MSS as u64 + 1280));
}

#[test]
fn the_blocked_writer_wakes_only_when_wmem_queued_falls_to_two_thirds_of_the_buffer() {
    // sk_stream_write_space: 32768 − w ≥ w / 2, i.e. w ≤ 21845.
    let mut tcp = small_sndbuf(Kernel::Today);
    let blocked = write_1mib(&mut tcp);
    assert_eq!(blocked, 40_544);
    // 200 ms: the 5 packets are ACKed (5 skbs freed, w = 27024). Reno's cwnd
    // is 20: the 18 unsent segments go, 2 per packet, each cut off the tail:
    // 9 packets, w = 9 × 3856 = 34704.
    tcp.at_ms(200);
    send!(tcp, ack_segments(10));
    assert_eq!(data_sent(&mut tcp), vec![MSS; 18]);
    assert_eq!(tcp.sock.info().wmem_queued, 9 * PACKET);
    assert_eq!(accepted(&tcp, 1 << 20), blocked, "still asleep");
    // 300 ms: 3 packets ACKed: w = 23136 > 21845, still asleep.
    tcp.at_ms(300);
    send!(tcp, ack_segments(16));
    assert_eq!(tcp.sock.info().wmem_queued, 6 * PACKET);
    assert_eq!(accepted(&tcp, 1 << 20), blocked, "23136 > 21845");
    // One more packet ACKed: w = 19280 ≤ 21845 wakes the writer, which fills
    // a new skb to the size goal (w 19280 < 32768). It is the send head:
    // tcp_push_one sends a 2-segment packet (TSQ: the device holds nothing
    // of this instant), the loop tops the tail up by 2896 unchecked, which
    // is a forced push (write_seq 75297 > the write's PSH at 40545 + 32580).
    // It sends packet 2 and cuts packet 3, which TSQ holds: the loop tops
    // the tail up by 5792, asks for a new skb and is refused (w ≥ 32768).
    // Taken: 31856 + 2896 + 5792 = 40544 again. cwnd 28 with 10 in flight
    // sends 18 segments; 10 stay unsent in the tail skb.
    send!(tcp, ack_segments(18));
    assert_eq!(data_sent(&mut tcp), vec![MSS; 18]);
    assert_eq!(accepted(&tcp, 1 << 20), blocked + 40_544);
    let info = tcp.sock.info();
    assert_eq!(info.notsent_bytes, 10 * MSS as u64);
    assert_eq!(info.wmem_queued, 14 * PACKET + 10 * MSS as u64 + HEAD);
}

#[test]
fn a_partial_ack_frees_the_payload_of_a_packet_but_not_its_head() {
    // tcp_clean_rtx_queue → tcp_trim_head: an ACK inside a 2-segment skb
    // trims its first segment's bytes; the skb and its head stay until the
    // rest is ACKed (the trimmed skb leaves nothing to wake the writer).
    let mut tcp = small_sndbuf(Kernel::Today);
    write_1mib(&mut tcp);
    let w = tcp.sock.info().wmem_queued;
    tcp.at_ms(200);
    send!(tcp, ack_segments(1));
    assert_eq!(tcp.sock.info().wmem_queued, w - MSS as u64);
    send!(tcp, ack_segments(2));
    assert_eq!(tcp.sock.info().wmem_queued, w - PACKET);
}

#[test]
fn heads_cost_what_each_kernel_allocates() {
    // 3.10: each skb tcp_sendmsg allocates has a 2 KB head (truesize 2304)
    // holding its first 1408 bytes; the 5 skbs cut off it cost 1280 each.
    // Packet 1 keeps the linear bytes: 2304 + 1488 = 3792, the next 1280 +
    // 2896 = 4176, so TSQ (limit 2 × 4176 = 8352) lets packet 3 go (1 + 3792
    // + 4176 ≤ 8352) and holds the 4th: the tail takes one top-up more than
    // today's, 43440 bytes in all.
    let mut tcp = small_sndbuf(Kernel::V3_10);
    assert_eq!(write_1mib(&mut tcp), 30 * MSS as u64);
    let payload_paged = 43_440 - 1_408;
    assert_eq!(
        tcp.sock.info().wmem_queued,
        payload_paged + 2_304 + 5 * 1_280
    );
    // 5.x: 1280 for every skb; packets of 4176 from the first, so TSQ holds
    // the third (1 + 8352 > 8352), as today's.
    let mut tcp = small_sndbuf(Kernel::V5_5);
    assert_eq!(write_1mib(&mut tcp), 28 * MSS as u64);
    assert_eq!(tcp.sock.info().wmem_queued, 40_544 + 6 * 1_280);
}

#[test]
fn an_autotuned_buffer_grows_only_while_the_writer_waits_for_it() {
    // tcp_init_buffer_space: 2 × 10 × 4352 = 87040 (the seed's `tb87040`).
    // tcp_check_space → tcp_new_space expands only with SOCK_NOSPACE set
    // and cwnd not full (tcp_should_expand_sndbuf).
    let mut tcp = established_on(Kernel::Today, |_| {}, 256 * 1024);
    assert_eq!(tcp.sock.sndbuf(), 87_040);
    tcp.write(10 * MSS as u64);
    tcp.drain();
    tcp.at_ms(200);
    send!(tcp, ack(seq(10)));
    tcp.recv_nothing();
    assert_eq!(tcp.sock.cwnd(), 20);
    assert_eq!(tcp.sock.sndbuf(), 87_040, "the writer never waited");
    // A write larger than the buffer: the writer sleeps. The next ACK's push
    // finds cwnd 30 not full after its first packet: 2 × 30 × 4352.
    tcp.write(1 << 20);
    assert_eq!(tcp.drain().len(), 20);
    assert!(tcp.sock.app_backlog() > 0);
    tcp.at_ms(300);
    send!(tcp, ack(seq(20)));
    tcp.drain();
    assert_eq!(tcp.sock.cwnd(), 30);
    assert_eq!(tcp.sock.sndbuf(), 2 * 30 * 4_352);
}

#[test]
fn before_6x_the_buffer_grows_only_if_the_acks_push_leaves_cwnd_open() {
    // 5.x runs tcp_check_space once, after the push an ACK triggers: a push
    // that fills cwnd (30 in flight of 30) leaves the buffer as it was.
    // Today's kernel checks after each packet, with cwnd still open.
    for (kernel, grown) in [(Kernel::V5_5, 87_040), (Kernel::Today, 2 * 30 * 4_352)] {
        let mut tcp = established_on(kernel, |_| {}, 256 * 1024);
        tcp.write(10 * MSS as u64);
        tcp.drain();
        tcp.at_ms(200);
        send!(tcp, ack(seq(10)));
        write_1mib(&mut tcp);
        tcp.at_ms(300);
        send!(tcp, ack(seq(20)));
        assert_eq!(tcp.drain().len(), 20, "{kernel}");
        assert_eq!(tcp.sock.in_flight(), 30);
        assert_eq!(tcp.sock.sndbuf(), grown, "{kernel}");
    }
}

#[test]
fn the_model_grows_an_autotuned_buffer_on_every_ack() {
    // SendSkbs::PerMss keeps the model's rule (tcp_sndbuf_expand from every
    // ACK's tcp_check_space), writer asleep or not.
    let mut tcp = established_on(
        Kernel::Today,
        |s| s.set_send_skbs(SendSkbs::PerMss),
        256 * 1024,
    );
    tcp.write(10 * MSS as u64);
    tcp.drain();
    tcp.at_ms(200);
    send!(tcp, ack(seq(10)));
    assert_eq!(tcp.sock.sndbuf(), 2 * 20 * 4_352);
}

/// `TCP_NOTSENT_LOWAT` 16 KiB and `SO_SNDBUF` 200000 (400000, never the limit here).
fn with_lowat(kernel: Kernel) -> Tcp {
    established_on(
        kernel,
        |s| {
            s.set_so_sndbuf(200_000);
            s.set_tcp_notsent_lowat_option(16 * 1024);
        },
        65_160,
    )
}

#[test]
fn notsent_lowat_refuses_a_new_skb_once_unsent_bytes_reach_it() {
    // TCP_NOTSENT_LOWAT 16 KiB, a buffer that is never the limit: the
    // first skb is filled to the size goal whatever the lowat (only a new
    // skb is checked) and topped up as with 16 KiB until TSQ stops the
    // push: 40544 taken, 2 packets sent, so 34752 unsent ≥ 16384 when the
    // copy asks for a second skb: refused. Unsent stays within the lowat +
    // one skb; cwnd 10 then sends 10 segments in all.
    let mut tcp = with_lowat(Kernel::Today);
    tcp.write(1 << 20);
    assert_eq!(tcp.drain().len(), 10);
    assert_eq!(accepted(&tcp, 1 << 20), 28 * MSS as u64);
    let info = tcp.sock.info();
    assert!(
        info.wmem_queued < info.sndbuf,
        "the buffer is not the limit"
    );
    assert_eq!(info.notsent_bytes, 18 * MSS as u64);
}

#[test]
fn notsent_lowat_wakes_the_writer_as_data_leaves_on_todays_kernel() {
    // 6.x: tcp_event_new_data_sent → tcp_check_space, and the waker's rule
    // is unsent · 2 < lowat: the writer wakes while the ACK's push sends,
    // once fewer than 8192 bytes are unsent, and copies a new skb.
    let mut tcp = with_lowat(Kernel::Today);
    let blocked = write_1mib(&mut tcp);
    tcp.at_ms(200);
    send!(tcp, ack_segments(10));
    // cwnd 20 takes the 18 unsent segments; after the 7th packet 5792
    // bytes are unsent (× 2 < 16384), and the writer tops up the tail.
    tcp.drain();
    assert!(accepted(&tcp, 1 << 20) > blocked, "woken by the sends");
}

#[test]
fn before_5x_the_waker_compares_unsent_bytes_themselves_with_the_lowat() {
    // The first write leaves 20 segments unsent on 4.18 (its first packet
    // keeps 1408 linear bytes, so TSQ lets a third packet go) and 18 on 5.x
    // (see heads_cost_what_each_kernel_allocates). 200 ms, ACK of 3
    // packets: cwnd 16 with 4 in flight sends 6 packets from the tail,
    // leaving 11584 and 8688 unsent. 4.18's waker asks unsent < 16384 and
    // wakes the writer, which tops the tail up to the size goal again (14
    // segments); 5.x asks unsent · 2 < 16384 (17376) and lets it sleep.
    for (kernel, wakes) in [(Kernel::V4_18, true), (Kernel::V5_5, false)] {
        let mut tcp = with_lowat(kernel);
        let blocked = write_1mib(&mut tcp);
        tcp.at_ms(200);
        send!(tcp, ack_segments(6));
        assert_eq!(data_sent(&mut tcp), vec![MSS; 12]);
        let woken = accepted(&tcp, 1 << 20) - blocked;
        assert_eq!(woken, if wakes { 14 * MSS as u64 } else { 0 }, "{kernel}");
    }
}
