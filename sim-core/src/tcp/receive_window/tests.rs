//! The window arithmetic against numbers worked out by hand from the
//! kernel's functions (tcp_output.c `__tcp_select_window`,
//! `tcp_select_window`; tcp_input.c `tcp_init_buffer_space`,
//! `tcp_grow_window`, `tcp_measure_rcv_mss`).

use super::*;
use crate::config::{HostConfig, HostSettings, Kernel};

const MSS: u32 = 1448;

/// The receive half of `host`, connecting (`active`) or listening, after
/// the handshake: rcv_nxt is 1, nothing read yet.
fn established(host: &HostConfig, active: bool) -> ReceiveWindow {
    let mut w = ReceiveWindow::new(&host.receiver, &host.behaviour, MSS, active);
    w.syn_window(if active { 0 } else { 1 });
    w.start(SimTime::ZERO, 1, None);
    w
}

fn kernel(k: Kernel) -> HostConfig {
    HostSettings::for_kernel(k).finish().unwrap()
}

fn kernel_with_so_rcvbuf(k: Kernel, asked: u64) -> HostConfig {
    let mut s = HostSettings::for_kernel(k);
    s.set_so_rcvbuf(asked);
    s.finish().unwrap()
}

/// A segment of `len` bytes arrives in order, ending at `end`; measured as
/// `tcp_event_data_recv` would (rcv_mss 536 until the first full segment).
fn arrive(w: &mut ReceiveWindow, len: u32, end: u64, rcv_mss: &mut u32) -> bool {
    w.queue(len, end, end, 0);
    if len >= *rcv_mss {
        if len != *rcv_mss {
            w.measure_scaling_ratio(len);
        }
        *rcv_mss = len;
    }
    len >= GROW_MIN_LEN && w.grow(len, *rcv_mss)
}

#[test]
fn todays_client_acks_the_syn_ack_with_63_units_of_1024() {
    // rcv_wnd 64240; tcp_init_buffer_space: clamp 65536 - 1448 = 64088, so
    // rcv_ssthresh 64088, aligned up to 1024: 64512 (> what is left, 64240).
    let h = kernel(Kernel::Today);
    assert_eq!(h.receiver.wscale, 10, "tcp_rmem[2] 32 MiB needs 2^10");
    let mut w = established(&h, true);
    assert_eq!(w.window_clamp(), 64_088);
    let (wnd, _) = w.advertise(1, 536);
    assert_eq!(wnd, 63 << 10);
}

#[test]
fn the_5_5_client_acks_with_502_units_of_128_as_seed_004_captured() {
    // ALIGN(64088, 128) = 64128 is less than the 64240 promised in the SYN:
    // the old right edge stays, rounded up to 128 (64256 = 502 << 7).
    let mut w = established(&kernel(Kernel::V5_5), true);
    assert_eq!(w.advertise(1, 536).0, 502 << 7);
}

#[test]
fn the_4_18_server_acks_a_147_byte_request_with_235_units_of_128() {
    // Seed 004's CentOS 8.1 server: SYN-ACK 28960 (20 x 1448). The request's
    // 2304-byte skb fails check #2 (1152 > 147), so __tcp_grow_window halves
    // until 144 <= 147 and grants 2 x rcv_mss = 1072: rcv_ssthresh 30032,
    // aligned up to 128: 30080 = 235 << 7.
    let mut w = established(&kernel(Kernel::V4_18), false);
    assert_eq!(w.syn_window(1), 28_960);
    let mut rcv_mss = 536;
    assert!(arrive(&mut w, 147, 148, &mut rcv_mss));
    assert_eq!(w.rcv_ssthresh(), 30_032);
    assert_eq!(w.advertise(148, rcv_mss).0, 235 << 7);
}

#[test]
fn todays_server_keeps_the_right_edge_of_its_syn_ack() {
    // 65160 offered; after 147 bytes 65013 is left. The buffer backs
    // min(64384, rcv_ssthresh 64088) -> 64512, less: ALIGN(65013, 1024) = 64 << 10.
    let mut w = established(&kernel(Kernel::Today), false);
    assert_eq!(w.syn_window(1), 65_160);
    let mut rcv_mss = 536;
    assert!(!arrive(&mut w, 147, 148, &mut rcv_mss), "no room to grow");
    assert_eq!(w.advertise(148, rcv_mss).0, 64 << 10);
}

#[test]
fn the_2_6_32_client_offers_ten_segments_then_115_units() {
    // Seed 001's Wireshark: "starts at 1460 x 10, then 1472 x 10".
    let mut w = established(&kernel(Kernel::V2_6_32), true);
    assert_eq!(w.syn_window(0), 14_600);
    w.start(SimTime::ZERO, 1, None);
    assert_eq!(w.advertise(1, 536).0, 115 << 7);
}

#[test]
fn a_raised_tcp_rmem_1_is_advertised_whole_today_but_not_on_5_5() {
    // 378979e94e95's example: tcp_rmem[1] = 1 MiB offers 524288 after the
    // handshake on 6.10+; 5.5 stays at 65535 (512 << 7) until the window grows.
    let mut s = HostSettings::for_kernel(Kernel::Today);
    s.set_tcp_rmem([4096, 1 << 20, 33_554_432]);
    let mut w = established(&s.finish().unwrap(), true);
    assert_eq!(w.syn_window(0), 65_535);
    w.start(SimTime::ZERO, 1, None);
    assert_eq!(w.advertise(1, 536).0, 512 << 10);
    let mut s = HostSettings::for_kernel(Kernel::V5_5);
    s.set_tcp_rmem([4096, 1 << 20, 6_291_456]);
    let mut w = established(&s.finish().unwrap(), true);
    assert_eq!(w.advertise(1, 536).0, 512 << 7);
}

#[test]
fn so_rcvbuf_8k_before_listen_offers_no_scale_and_7240() {
    // 16384 of buffer, half of it 8192, clamped (3.x+): scale 0, and the
    // SYN-ACK rounds 8192 down to 5 x 1448.
    for k in [Kernel::V3_10, Kernel::V4_18, Kernel::V5_5, Kernel::Today] {
        let h = kernel_with_so_rcvbuf(k, 8192);
        assert_eq!(h.receiver.wscale, 0, "{k}");
        let mut w = ReceiveWindow::new(&h.receiver, &h.behaviour, MSS, false);
        assert_eq!(w.syn_window(1), 7_240, "{k}");
    }
    // 2.6.32 keeps scale 7 and offers three quarters: 12288 -> 8 x 1448.
    let h = kernel_with_so_rcvbuf(Kernel::V2_6_32, 8192);
    assert_eq!(h.receiver.wscale, 7);
    let mut w = ReceiveWindow::new(&h.receiver, &h.behaviour, MSS, false);
    assert_eq!(w.syn_window(1), 11_584);
}

/// The largest window a receiver with SO_RCVBUF 8K (set before listen)
/// advertises while its reader keeps up: segments arrive one at a time, and
/// each is read before the ACK leaves (`__tcp_ack_snd_check` leaves the ACK
/// to the read once the window would shrink).
fn steady_window(k: Kernel) -> u64 {
    let h = kernel_with_so_rcvbuf(k, 8192);
    let mut w = established(&h, false);
    let mut rcv_mss = 536;
    let mut end = 1;
    let mut max = 0;
    for _ in 0..20 {
        end += MSS as u64;
        arrive(&mut w, MSS, end, &mut rcv_mss);
        w.read(SimTime::ZERO, MSS as u64);
        max = max.max(w.advertise(end, rcv_mss).0);
    }
    max
}

#[test]
fn so_rcvbuf_8k_windows_follow_each_eras_share_exactly() {
    // adv_win_scale 1: clamp 8192 - 1448 = 6744, rounded down to whole
    // segments without scaling: 4 x 1448.
    for k in [Kernel::V3_10, Kernel::V4_18, Kernel::V5_5] {
        assert_eq!(steady_window(k), 5_792, "{k}");
    }
    // Today: the first segment measures 1448/2304 -> scaling_ratio 160, the
    // clamp becomes 16384 x 160 / 256 = 10240, and rcv_ssthresh 7240. It
    // grows only while the buffer can take more: with the arriving 2304-byte
    // skb charged, tcp_space = 14080 x 160 / 256 = 8800, its ceiling; whole
    // segments of that: 6 x 1448 (not the 7 the notes expected from the clamp).
    assert_eq!(steady_window(Kernel::Today), 8_688);
    // 2.6.32 (scale 7, three quarters): 12288 - 1448 = 10840, aligned up to
    // 128: 10880 = 85 << 7.
    assert_eq!(steady_window(Kernel::V2_6_32), 10_880);
}

#[test]
fn without_scaling_the_window_keeps_its_offer_within_one_segment_of_free_space() {
    // __tcp_select_window, wscale 0: a window within one MSS below the free
    // space is kept as it is (no rounding), else rounded down to whole MSS.
    let h = kernel_with_so_rcvbuf(Kernel::V3_10, 8192);
    let mut w = established(&h, false);
    assert_eq!(w.select(MSS).window, 5_792);
    w.rcv_wnd = 6_000;
    assert_eq!(w.select(MSS).window, 6_000, "5296 < 6000 <= 6744");
    w.rcv_wnd = 5_000;
    assert_eq!(w.select(MSS).window, 5_792, "5000 <= 6744 - 1448");
}

#[test]
fn each_full_segment_grows_rcv_ssthresh_by_two_advmss_up_to_the_buffer() {
    let cfg = ReceiverConfig {
        rcvbuf: 8 << 20,
        autotune: false,
        ..ReceiverConfig::default()
    };
    let mut w = ReceiveWindow::new(&cfg, &Behaviour::model(), MSS, true);
    w.start(SimTime::ZERO, 1, None);
    let before = w.rcv_ssthresh();
    let mut rcv_mss = 536;
    assert!(arrive(&mut w, MSS, 1449, &mut rcv_mss));
    assert_eq!(w.rcv_ssthresh(), before + 2 * 1448);
}

#[test]
fn with_the_default_buffer_the_window_stays_at_64088_until_autotuning_runs() {
    // The clamp keeps one segment in reserve (tcp_init_buffer_space) and each
    // arriving segment is charged before tcp_grow_window looks: no room.
    let mut w = established(&HostConfig::default(), true);
    assert_eq!(w.rcv_ssthresh(), 64_088);
    let mut rcv_mss = 536;
    for i in 0..40 {
        assert!(!arrive(&mut w, MSS, 1 + (i + 1) * MSS as u64, &mut rcv_mss));
        w.read(SimTime::ZERO, MSS as u64);
    }
    assert_eq!(w.rcv_ssthresh(), 64_088);
}

#[test]
fn autotuning_grows_the_buffer_after_one_rtt_of_reading() {
    let mut w = ReceiveWindow::new(&ReceiverConfig::default(), &Behaviour::model(), MSS, true);
    let rtt = SimDuration::from_millis(7);
    w.start(SimTime::ZERO, 1, Some(rtt));
    // 20 segments read within the first RTT: more than the 14480-byte seed
    // (10 x advmss).
    let copied = 20 * 1448;
    for i in 0..20 {
        w.queue(MSS, 1 + (i + 1) * MSS as u64, 1 + (i + 1) * MSS as u64, 0);
    }
    w.read(SimTime::ZERO + rtt, copied);
    // rcvwin = 2*28960 + 16*1448 = 81088; grow = 81088*(28960-14480)/14480 = 81088
    // rcvwin += 2*81088 → 243264; rcvbuf = 2*243264 = 486528.
    assert_eq!(w.rcvbuf(), 486_528);
    assert_eq!(w.window_clamp(), 243_264);
}

#[test]
fn unread_data_closes_the_window_and_a_read_reopens_it() {
    // A locked 16 KB buffer offers 8192 (50 %), the model's ideal truesize.
    let cfg = ReceiverConfig {
        rcvbuf: 16_384,
        rcvbuf_max: 16_384,
        autotune: false,
        locked: true,
        wscale: 7,
        ..ReceiverConfig::default()
    };
    let mut w = ReceiveWindow::new(&cfg, &Behaviour::model(), MSS, true);
    w.syn_window(0);
    w.start(SimTime::ZERO, 1, None);
    // The SYN promised 7300: the right edge stays, rounded up to 128.
    assert_eq!(w.advertise(1, MSS).0, 7_424);
    for i in 0..5 {
        w.queue(MSS, 1 + (i + 1) * MSS as u64, 1 + (i + 1) * MSS as u64, 0);
    }
    let rcv_nxt = 1 + 5 * 1448;
    // 7240 unread bytes take 14480 of the buffer: 1904 free, 952 of window,
    // less than an MSS, so Linux chooses 0. But the edge already promised
    // (184 bytes ahead) may not move back: 184 rounded up to 128 is 256.
    assert_eq!(w.select(MSS).window, 0);
    assert_eq!(w.advertise(rcv_nxt, MSS).0, 256);
    assert_eq!(
        w.update_worth_sending(rcv_nxt, MSS).map(|x| x.0),
        Some(false)
    );
    // Once the application has read everything the window is back, and
    // at least doubling what is left makes it worth an ACK of its own.
    w.read(SimTime::ZERO, 7_240);
    assert_eq!(w.select(MSS).window, 6_784, "ALIGN(clamp 6744, 128)");
    assert_eq!(
        w.update_worth_sending(rcv_nxt, MSS).map(|x| x.0),
        Some(true)
    );
}

#[test]
fn a_locked_buffer_is_never_autotuned() {
    let cfg = ReceiverConfig {
        autotune: false,
        locked: true,
        ..ReceiverConfig::default()
    };
    let mut w = ReceiveWindow::new(&cfg, &Behaviour::model(), MSS, true);
    w.start(SimTime::ZERO, 1, Some(SimDuration::from_millis(1)));
    for i in 0..100 {
        w.queue(MSS, 1 + (i + 1) * MSS as u64, 1 + (i + 1) * MSS as u64, 0);
    }
    w.read(SimTime(5_000_000), 100 * 1448);
    assert_eq!(w.rcvbuf(), 131_072);
}

#[test]
fn a_4_18_host_raises_its_buffer_on_establishing_and_3_10_too() {
    // tcp_fixup_rcvbuf: 2 x SKB_TRUESIZE(1448 + 320) x 20 x 4 = 375040.
    for k in [Kernel::V3_10, Kernel::V4_18] {
        assert_eq!(established(&kernel(k), false).rcvbuf(), 375_040, "{k}");
    }
    assert_eq!(established(&kernel(Kernel::V5_5), false).rcvbuf(), 131_072);
    let locked = kernel_with_so_rcvbuf(Kernel::V3_10, 8192);
    assert_eq!(established(&locked, false).rcvbuf(), 16_384);
}

#[test]
fn tcp_rcvbuf_grow_sizes_twice_what_was_read_plus_room_for_doubling() {
    // 6.16+: rcvwin = 2 × 58 KB; from 1 ms of RTT, grow = (2 × rcvwin) ×
    // (58 − 29) / 29 = 2 × rcvwin: 116 + 232 = 348 KB (before 6.16 the same
    // reads gave 2 × 58 + 16 × 1448 = 139 KB, plus 2 × 139 = 417 KB).
    let ms = |n| SimDuration::from_millis(n);
    assert_eq!(
        super::tcp_rcvbuf_grow_window(58_000, 29_000, ms(7)),
        348_000
    );
    // Under 1 ms: only rtt / 1 ms of the window, whatever the growth.
    assert_eq!(
        super::tcp_rcvbuf_grow_window(58_000, 29_000, SimDuration::from_micros(300)),
        116_000 + 116_000 * 300 / 1000
    );
}

#[test]
fn from_6_16_held_out_of_order_data_grows_the_buffer_at_once() {
    // tcp_data_queue_ofo calls tcp_rcvbuf_grow(sk, rcvq_space.space): with
    // the space unchanged the slow-start term is 0 (7 ms is over
    // tcp_rcvbuf_low_rtt), so rcvwin = 2 x space + what the queue spans.
    // Before 6.16 held data never touches the buffer.
    let rtt = SimDuration::from_millis(7);
    let run = |k: Kernel| {
        let h = kernel(k);
        let mut w = ReceiveWindow::new(&h.receiver, &h.behaviour, MSS, true);
        w.syn_window(0);
        w.start(SimTime::ZERO, 1, Some(rtt));
        // 20 segments read within the first RTT (rcvq_space starts at 10 x
        // advmss = 14480).
        for i in 0..20u64 {
            let end = 1 + (i + 1) * MSS as u64;
            w.queue(MSS, end, end, 0);
        }
        w.read(SimTime::ZERO + rtt, 20 * 1448);
        let after_read = w.rcvbuf();
        // A hole, then data held up to 200 segments past rcv_nxt.
        w.ooo_changed(200 * 1448, true);
        (after_read, w.rcvbuf())
    };
    // Today: rcvwin = 2 x 28960 + 2 x 57920 x (28960 - 14480) / 14480 =
    // 173760, backed at the default 50 % share: 347520. Held data:
    // 2 x 28960 + 289600 = 347520 of window, 695040 of buffer.
    assert_eq!(run(Kernel::Today), (347_520, 695_040));
    let (read, held) = run(Kernel::V5_5);
    assert_eq!(read, held, "5.5 leaves the buffer to the next read");
}
