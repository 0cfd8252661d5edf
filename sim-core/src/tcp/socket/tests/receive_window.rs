//! The receive window each kernel era advertises, segment by segment: the
//! SYN and the first ACKs (tcp_output.c `tcp_select_initial_window`,
//! `__tcp_select_window`, `tcp_select_window`; tcp_input.c
//! `tcp_init_buffer_space`, `tcp_grow_window`), a locked 8 KiB `SO_RCVBUF`,
//! and growth on out-of-order data (`tcp_data_queue_ofo`). The numbers are
//! the seeds' captures where they have one (seed 004: 64240, 502, 28960,
//! 235; seed 001: 14600 then 115 units) and otherwise worked out from the
//! kernel's arithmetic in each comment.

use super::*;
use crate::config::{HostSettings, Kernel};

/// A host of `kernel` as booted.
fn of(kernel: Kernel) -> HostConfig {
    HostSettings::for_kernel(kernel).finish().unwrap()
}

/// A host of `kernel` with `set` applied.
fn of_with(kernel: Kernel, set: impl FnOnce(&mut HostSettings)) -> HostConfig {
    let mut s = HostSettings::for_kernel(kernel);
    set(&mut s);
    s.finish().unwrap()
}

/// A client of `cfg` that sent its SYN at 0 and got the SYN-ACK at 10 ms:
/// its SYN and the ACK it answered with.
fn connect(cfg: &HostConfig) -> (Tcp, Segment, Segment) {
    let mut tcp = Tcp::new(Socket::connect(cfg));
    let syn = tcp.drain()[0];
    tcp.at_ms(10);
    send!(tcp, syn_ack());
    let ack = tcp.drain()[0];
    (tcp, syn, ack)
}

/// The peer's `n`th full segment (from 0), at the test's clock.
fn data(n: u64) -> Segment {
    Segment {
        seq: seq(n),
        len: MSS,
        ..from_peer()
    }
}

/// The window of the ACK the socket sends now (it must send exactly one).
#[track_caller]
fn acked_window(tcp: &mut Tcp) -> u64 {
    let out = tcp.drain();
    assert_eq!(out.len(), 1, "one ACK: {out:?}");
    out[0].wnd
}

#[test]
fn todays_client_offers_64240_then_63_units_of_1024() {
    // tcp_rmem[1] = 131072, half of it 65536, in whole segments of advmss
    // 1460: 64240. On ESTABLISHED the clamp keeps one segment in reserve
    // (65536 - 1448 = 64088 = rcv_ssthresh), which window scale 10 (tcp_rmem[2]
    // = 32 MiB) rounds up to 64512: 63 << 10.
    let (_, syn, ack) = connect(&of(Kernel::Today));
    assert_eq!(syn.wnd, 64_240);
    assert_eq!(ack.wnd, 63 << 10);
}

#[test]
fn a_5_5_client_acks_the_syn_ack_with_502_units_of_128_as_seed_004_shows() {
    // rcv_ssthresh 64088 rounds up to 64128 (scale 7), less than the 64240 the
    // SYN promised: the right edge stays, rounded up to 128: 64256 = 502 << 7.
    // The model's default host (65535 cap, scale 7) does the same.
    for cfg in [of(Kernel::V5_5), HostConfig::default()] {
        let (_, syn, ack) = connect(&cfg);
        assert_eq!((syn.wnd, ack.wnd), (64_240, 502 << 7));
    }
}

#[test]
fn a_4_18_server_offers_20_segments_and_acks_a_147_byte_request_with_235_units() {
    // Seed 004's CentOS 8.1 server: tcp_default_init_rwnd caps the SYN-ACK at
    // 20 x 1448 = 28960. The request arrives in quick-ACK mode; its 2304-byte
    // skb fails tcp_grow_window's check #2 (1152 > 147), so __tcp_grow_window
    // halves until 144 <= 147 and grants 2 x rcv_mss (536) = 1072:
    // rcv_ssthresh 30032, rounded up to 128: 30080 = 235 << 7.
    let (mut tcp, syn_ack) = accept(&of(Kernel::V4_18));
    assert_eq!(syn_ack.wnd, 28_960);
    tcp.at_ms(11);
    send!(
        tcp,
        Segment {
            len: 147,
            ..from_peer()
        }
    );
    assert_eq!(acked_window(&mut tcp), 235 << 7);
}

#[test]
fn a_2_6_32_client_offers_ten_segments_then_115_units_as_seed_001_shows() {
    // CentOS 6: TCP_DEFAULT_INIT_RCVWND = 10 x 1460 = 14600 ("starts at
    // 1460 x 10"), then rcv_ssthresh 14600 rounded up to 128: 14720 ("1472 x 10").
    let (_, syn, ack) = connect(&of(Kernel::V2_6_32));
    assert_eq!((syn.wnd, ack.wnd), (14_600, 115 << 7));
}

#[test]
fn today_the_first_ack_offers_the_whole_initial_space_of_a_raised_tcp_rmem() {
    // 378979e94e95 (6.10): tcp_rmem[1] = 1 MiB backs 524288 of window; the
    // SYN still says 65535 (unscaled), the handshake's ACK 524288 = 512 << 10.
    // 5.5 caps rcv_wnd at 65535: its ACK offers 65536 = 512 << 7.
    let big = |s: &mut HostSettings| s.set_tcp_rmem([4096, 1 << 20, 33_554_432]);
    let (_, syn, ack) = connect(&of_with(Kernel::Today, big));
    assert_eq!((syn.wnd, ack.wnd), (65_535, 512 << 10));
    let big = |s: &mut HostSettings| s.set_tcp_rmem([4096, 1 << 20, 6_291_456]);
    let (_, syn, ack) = connect(&of_with(Kernel::V5_5, big));
    assert_eq!((syn.wnd, ack.wnd), (65_535, 512 << 7));
}

/// A listener of `kernel` with `SO_RCVBUF` = 8 KiB set before `listen()`,
/// reading at once, after `rounds` rounds of two full segments from the
/// peer, each answered by one ACK: the windows of those ACKs.
fn so_rcvbuf_8k_windows(kernel: Kernel, rounds: u64) -> (Segment, Vec<u64>) {
    let (mut tcp, syn_ack) = accept(&of_with(kernel, |s| s.set_so_rcvbuf(8192)));
    let mut windows = vec![];
    for r in 0..rounds {
        tcp.at_ms(20 + 10 * r);
        send!(tcp, data(2 * r));
        send!(tcp, data(2 * r + 1));
        let acks = tcp.drain();
        windows.push(acks.last().expect("an ACK of the pair").wnd);
    }
    (syn_ack, windows)
}

#[test]
fn an_8k_so_rcvbuf_offers_four_segments_before_6_6_and_six_today() {
    // 16384 of buffer, window clamped to it before listen (3.x+): no scale,
    // SYN-ACK 8192 rounded down to 5 x 1448 = 7240.
    // tcp_adv_win_scale 1: clamp 8192 - 1448 = 6744, whole segments: 5792.
    for k in [Kernel::V3_10, Kernel::V4_18, Kernel::V5_5] {
        let (syn_ack, windows) = so_rcvbuf_8k_windows(k, 4);
        assert_eq!(syn_ack.wnd, 7_240, "{k}");
        assert_eq!(windows, vec![5_792; 4], "{k}");
    }
    // Today: the first segment (1448 in a 2304-byte skb) measures
    // scaling_ratio 160; the clamp becomes 16384 x 160/256 = 10240 and
    // rcv_ssthresh 7240, which then grows to what the buffer backs with one
    // skb charged: 14080 x 160/256 = 8800, in whole segments 8688.
    let (syn_ack, windows) = so_rcvbuf_8k_windows(Kernel::Today, 4);
    assert_eq!(syn_ack.wnd, 7_240);
    assert_eq!(windows, vec![8_688; 4]);
}

#[test]
fn an_8k_so_rcvbuf_keeps_scale_7_on_2_6_32_and_offers_three_quarters() {
    // No clamp to the locked buffer on 2.6.32: scale 7 from tcp_rmem[2], and
    // tcp_adv_win_scale 2 offers 12288: SYN-ACK 8 x 1448 = 11584 (under the
    // 10-segment cap). Clamp 12288 - 1448 = 10840, rounded up to 128: 85 << 7.
    let (syn_ack, windows) = so_rcvbuf_8k_windows(Kernel::V2_6_32, 3);
    assert_eq!(syn_ack.wnd, 11_584);
    assert_eq!(windows, vec![85 << 7; 3]);
}

/// A listener of `cfg` that got the peer's segment 0 in order at 20 ms, then
/// segments `1..=n` out of order (segment `hole` missing): the windows of the
/// ACKs the out-of-order segments drew.
fn ofo_windows(cfg: &HostConfig, in_order: bool, n: u64) -> Vec<u64> {
    let (mut tcp, _) = accept(cfg);
    let first_ofo = if in_order {
        tcp.at_ms(20);
        send!(tcp, data(0));
        tcp.drain();
        2
    } else {
        1
    };
    (first_ofo..first_ofo + n)
        .map(|k| {
            tcp.at_ms(21 + k);
            send!(tcp, data(k));
            acked_window(&mut tcp)
        })
        .collect()
}

#[test]
fn out_of_order_data_grows_the_window_on_5_5_sack_or_not() {
    // tcp_rmem[1] = 1 MiB: rcv_wnd 65535 (the 64 KB cap), clamp 522840, so
    // there is room. Each held segment adds 2 x 1448 to rcv_ssthresh
    // (65535 → 68431 → 71327 → 74223), rounded up to 128 (4e4f1fc22681).
    let big = |s: &mut HostSettings| s.set_tcp_rmem([4096, 1 << 20, 6_291_456]);
    let grown = vec![535 << 7, 558 << 7, 580 << 7];
    assert_eq!(ofo_windows(&of_with(Kernel::V5_5, big), false, 3), grown);
    let no_sack = |s: &mut HostSettings| {
        big(s);
        s.set_tcp_sack(false);
    };
    assert_eq!(
        ofo_windows(&of_with(Kernel::V5_5, no_sack), false, 3),
        grown
    );
}

#[test]
fn todays_kernel_grows_the_window_on_out_of_order_data_only_with_sack() {
    // The in-order segment 0 measures scaling_ratio 160: clamp 81920,
    // rcv_ssthresh 65160 + 2896 = 68056. Held segments then add 2896 each
    // (70952, 73848, rounded up to 1024), but only on a SACK connection: a
    // sender without SACK needs ACKs whose window did not change.
    let grown = vec![70 << 10, 73 << 10];
    assert_eq!(ofo_windows(&of(Kernel::Today), true, 2), grown);
    let no_sack = of_with(Kernel::Today, |s| s.set_tcp_sack(false));
    assert_eq!(ofo_windows(&no_sack, true, 2), vec![67 << 10; 2]);
}

#[test]
fn kernel_2_6_32_never_grows_the_window_on_out_of_order_data() {
    // rcv_ssthresh stays at the SYN-ACK's 10 x 1448 = 14480: 14592 = 114 << 7.
    assert_eq!(
        ofo_windows(&of(Kernel::V2_6_32), false, 3),
        vec![114 << 7; 3]
    );
}
