//! The setters and `finish()` against the kernel's rules, with the numbers
//! worked out by hand from them (net/core/sock.c, tcp_select_initial_window).

use super::*;
use crate::config::{PAGE_SIZE, RMEM_MAX_DEFAULT, Scenario, TCP_RMEM_MAX, WMEM_MAX_DEFAULT};
use crate::time::SimDuration;

/// A 5.5 host with `set` applied. The numbers below were worked out for
/// 5.5's defaults (`rmem_max`/`wmem_max` 212992, `tcp_rmem[2]` 6 MiB); the
/// rules are today's too, whose larger defaults other tests cover.
fn finish(set: impl FnOnce(&mut HostSettings)) -> HostConfig {
    let mut settings = HostSettings::for_kernel(Kernel::V5_5);
    set(&mut settings);
    settings.finish().unwrap()
}

#[test]
fn a_host_that_names_no_kernel_is_todays_as_booted() {
    let today = HostSettings::for_kernel(Kernel::Today).finish().unwrap();
    assert_eq!(HostSettings::default().finish(), Ok(today.clone()));
    assert_eq!(today.kernel, Some(Kernel::Today));
    // 6.18: rmem_max 4 MiB and tcp_rmem[2] 32 MiB, so window scale 10.
    assert_eq!(today.receiver.wscale, 10);
    assert_eq!(today.receiver.rcvbuf_max, 32 << 20);
}

#[test]
fn so_rcvbuf_is_doubled_and_locks_the_buffer_against_autotuning() {
    let h = finish(|s| s.set_so_rcvbuf(8 * 1024));
    assert_eq!(h.receiver.rcvbuf, 16_384, "8 KiB asked, twice that given");
    assert_eq!(h.receiver.rcvbuf_max, 16_384, "SOCK_RCVBUF_LOCK: no growth");
    assert!(!h.receiver.autotune, "even with tcp_moderate_rcvbuf = 1");
}

#[test]
fn so_rcvbuf_is_capped_at_rmem_max_before_it_is_doubled() {
    let h = finish(|s| s.set_so_rcvbuf(1 << 20));
    assert_eq!(h.receiver.rcvbuf, 2 * RMEM_MAX_DEFAULT, "2 x 212992");
}

#[test]
fn so_rcvbuf_never_leaves_less_than_sock_min_rcvbuf() {
    assert_eq!(finish(|s| s.set_so_rcvbuf(1_000)).receiver.rcvbuf, 2_304);
    assert_eq!(
        finish(|s| s.set_so_rcvbuf(0)).receiver.rcvbuf,
        SOCK_MIN_RCVBUF
    );
}

#[test]
fn so_sndbuf_is_doubled_capped_at_wmem_max_and_at_least_sock_min_sndbuf() {
    // Seed 000's SO_SNDBUF = 16000: the socket gets 32000.
    let h = finish(|s| s.set_so_sndbuf(16_000));
    assert_eq!((h.sender.sndbuf, h.sender.sndbuf_max), (32_000, 32_000));
    assert!(!h.sender.sndbuf_autotune, "SOCK_SNDBUF_LOCK");
    let h = finish(|s| s.set_so_sndbuf(256 * 1024));
    assert_eq!(
        h.sender.sndbuf,
        2 * WMEM_MAX_DEFAULT,
        "capped, then doubled"
    );
    assert_eq!(finish(|s| s.set_so_sndbuf(1)).sender.sndbuf, 4_608);
}

#[test]
fn so_buf_requests_meet_the_final_mem_max_whatever_the_order() {
    let rcv_first = finish(|s| {
        s.set_so_rcvbuf(1 << 20);
        s.set_so_sndbuf(1 << 20);
        s.set_rmem_max(4 << 20);
        s.set_wmem_max(4 << 20);
    });
    let max_first = finish(|s| {
        s.set_rmem_max(4 << 20);
        s.set_wmem_max(4 << 20);
        s.set_so_rcvbuf(1 << 20);
        s.set_so_sndbuf(1 << 20);
    });
    assert_eq!(rcv_first, max_first);
    assert_eq!(
        rcv_first.receiver.rcvbuf,
        2 << 20,
        "1 MiB under a 4 MiB cap"
    );
    assert_eq!(rcv_first.sender.sndbuf, 2 << 20);
}

#[test]
fn without_so_rcvbuf_the_buffer_is_tcp_rmem_and_autotunes_if_moderate_rcvbuf() {
    let h = finish(|s| s.set_tcp_rmem([4_096, 87_380, 34_952_000]));
    assert_eq!(
        (h.receiver.rcvbuf, h.receiver.rcvbuf_max),
        (87_380, 34_952_000)
    );
    assert!(h.receiver.autotune);
    assert!(
        !finish(|s| s.set_tcp_moderate_rcvbuf(false))
            .receiver
            .autotune
    );
    let h = finish(|s| s.set_tcp_wmem([4_096, 87_380, 26_214_400]));
    assert_eq!((h.sender.sndbuf, h.sender.sndbuf_max), (87_380, 26_214_400));
    assert!(h.sender.sndbuf_autotune);
}

#[test]
fn the_window_scale_fits_max_of_tcp_rmem_2_and_rmem_max() {
    // ilog2(6291456) = 22: 22 - 15 = 7.
    assert_eq!(finish(|_| {}).receiver.wscale, 7);
    // Seed 003's 34,952,000: ilog2 = 25, so 10, from either sysctl.
    let seed_003 = 34_952_000;
    assert_eq!(
        finish(|s| s.set_tcp_rmem([4_096, 87_380, seed_003]))
            .receiver
            .wscale,
        10
    );
    assert_eq!(finish(|s| s.set_rmem_max(seed_003)).receiver.wscale, 10);
    // A small SO_RCVBUF set before connect() clamps it on 3.x and later
    // (`rcvbuf_lock_clamps_wscale`): 16 KiB needs no scaling.
    assert_eq!(finish(|s| s.set_so_rcvbuf(8 * 1024)).receiver.wscale, 0);
    // 64 KiB - 1 needs no scaling; 2 GiB would need 16, capped at 14.
    let small = finish(|s| {
        s.set_tcp_rmem([4_096, 16_384, 65_535]);
        s.set_rmem_max(65_535);
    });
    assert_eq!(small.receiver.wscale, 0);
    assert_eq!(
        ReceiverConfig::wscale_for(1 << 31),
        14,
        "TCP_MAX_WSCALE (RFC 7323)"
    );
}

#[test]
fn so_rcvbuf_before_connect_clamps_the_scale_to_the_locked_buffer_from_3_x_on() {
    // tcp_connect_init / tcp_openreq_init_rwin: with SOCK_RCVBUF_LOCK the
    // window_clamp is the buffer's window, and tcp_select_initial_window
    // sizes the scale for it: 8192 needs none, 65536 (SO_RCVBUF 64 KiB) one.
    let clamped = |asked| {
        let mut s = HostSettings::default();
        s.set_rcvbuf_lock_clamps_wscale(true);
        s.set_so_rcvbuf(asked);
        s.finish().unwrap().receiver.wscale
    };
    assert_eq!(clamped(8 * 1024), 0);
    assert_eq!(clamped(64 * 1024), 1);
    // Every era but 2.6.32 clamps; 2.6.32 offers scale 7 for tcp_rmem[2].
    for k in Kernel::ALL {
        let mut s = HostSettings::for_kernel(k);
        s.set_so_rcvbuf(8 * 1024);
        let wscale = s.finish().unwrap().receiver.wscale;
        assert_eq!(wscale, if k == Kernel::V2_6_32 { 7 } else { 0 }, "{k}");
    }
    // Without SO_RCVBUF nothing is clamped: today's 32 MiB tcp_rmem[2] needs 10.
    let today = HostSettings::for_kernel(Kernel::Today).finish().unwrap();
    assert_eq!(today.receiver.wscale, 10);
}

#[test]
fn the_rx_truesize_must_exceed_the_mss() {
    let mut s = HostSettings::for_kernel(Kernel::Today);
    assert_eq!(
        s.finish().unwrap().receiver.rx_truesize,
        RxTruesize::PerPacket(2_304)
    );
    s.set_rx_truesize(RxTruesize::PerPacket(1_448));
    let e = s.finish().unwrap_err();
    assert_eq!(e.key, "rx_truesize");
    assert_eq!(
        e.message,
        "1448 B is outside the allowed range 1449 B to 1048576 B"
    );
    // A jumbo frame takes a 16 KB buffer: 9014 bytes on the wire.
    let mut jumbo = HostSettings::default();
    jumbo.set_mss(8_948);
    assert_eq!(
        jumbo.finish().unwrap().receiver.rx_truesize,
        RxTruesize::PerPacket(16_640)
    );
}

#[test]
fn the_syn_window_is_what_the_buffer_backs_rounded_down_to_advmss() {
    // Half of 131072 is 65536, at most 65535 unscaled: 44 x 1460.
    assert_eq!(finish(|_| {}).receiver.syn_window, 64_240);
    // SO_RCVBUF 8 KiB: 16384 B, half of it 8192: 5 x 1460.
    assert_eq!(
        finish(|s| s.set_so_rcvbuf(8 * 1024)).receiver.syn_window,
        7_300
    );
    // MSS 536: advmss 548, 119 of them fit in 65535.
    assert_eq!(finish(|s| s.set_mss(536)).receiver.syn_window, 119 * 548);
    // Less than one advmss is offered as it is.
    let tiny = finish(|s| s.set_tcp_rmem([2_048, 2_048, 2_048]));
    assert_eq!(tiny.receiver.syn_window, 1_024);
}

#[test]
fn tcp_adv_win_scale_selects_the_old_share_of_the_buffer() {
    // 2: three quarters of 131072 = 98304, rounded down to 67 x 1460 = 97820,
    // then at most 65535 (tcp_select_initial_window rounds before it caps).
    let h = finish(|s| s.set_tcp_adv_win_scale(2).unwrap());
    assert_eq!(h.receiver.window_share, WindowShare::AdvWinScale(2));
    assert_eq!(h.receiver.syn_window, 65_535);
    // -2: a quarter, 32768: 22 x 1460.
    let h = finish(|s| s.set_tcp_adv_win_scale(-2).unwrap());
    assert_eq!(h.receiver.syn_window, 22 * 1_460);
    for bad in [0, 32, -32] {
        let e = HostSettings::default()
            .set_tcp_adv_win_scale(bad)
            .unwrap_err();
        assert_eq!(e.key, "sysctl.\"net.ipv4.tcp_adv_win_scale\"");
        assert_eq!(
            e.message,
            format!("{bad} is outside the allowed range -31 to 31 (not 0)")
        );
    }
}

#[test]
fn route_initrwnd_only_lowers_the_syn_window() {
    assert_eq!(
        finish(|s| s.set_route_initrwnd(10)).receiver.syn_window,
        14_600
    );
    assert_eq!(
        finish(|s| s.set_route_initrwnd(50)).receiver.syn_window,
        64_240,
        "73000 would be more than the buffer backs"
    );
}

#[test]
fn a_syn_window_limit_lowers_it_but_the_buffer_still_decides_first() {
    assert_eq!(
        finish(|s| s.set_syn_window_limit(30_000))
            .receiver
            .syn_window,
        30_000,
        "not rounded to advmss"
    );
    let h = finish(|s| {
        s.set_so_rcvbuf(8 * 1024);
        s.set_syn_window_limit(30_000);
    });
    assert_eq!(h.receiver.syn_window, 7_300);
}

#[test]
fn tcp_nodelay_turns_either_nagle_variant_off_in_any_order() {
    let h = finish(|s| {
        s.set_tcp_nodelay(true);
        s.set_nagle(Nagle::Classic);
    });
    assert_eq!(h.sender.nagle, Nagle::Off);
    let h = finish(|s| {
        s.set_nagle(Nagle::Classic);
        s.set_tcp_nodelay(true);
    });
    assert_eq!(h.sender.nagle, Nagle::Off);
    assert_eq!(
        finish(|s| s.set_nagle(Nagle::Classic)).sender.nagle,
        Nagle::Classic
    );
    assert_eq!(finish(|_| {}).sender.nagle, Nagle::Minshall);
}

#[test]
fn quickack_comes_from_the_socket_option_or_the_route() {
    assert!(!finish(|_| {}).receiver.quickack);
    assert!(finish(|s| s.set_tcp_quickack(true)).receiver.quickack);
    assert!(finish(|s| s.set_route_quickack(true)).receiver.quickack);
    let h = finish(|s| {
        s.set_route_quickack(true);
        s.set_tcp_quickack(false);
    });
    assert!(
        h.receiver.quickack,
        "clearing the option leaves the route's"
    );
}

#[test]
fn the_other_knobs_land_where_the_socket_reads_them() {
    let h = finish(|s| {
        s.set_default_qdisc(Qdisc::Fq);
        s.set_tcp_congestion_control(Algorithm::by_name("bbr").unwrap());
        s.set_tcp_sack(false);
        s.set_tcp_window_scaling(false);
        s.set_tcp_slow_start_after_idle(false);
        s.set_tcp_retries2(3);
        s.set_tcp_syn_retries(2);
        s.set_tcp_synack_retries(1);
        s.set_tcp_cork(true);
        s.set_route_initcwnd(100);
        s.set_tcp_no_metrics_save(true);
        s.set_tcp_no_ssthresh_metrics_save(false);
        s.set_delayed_ack(DelayedAck::Fixed(SimDuration::from_millis(200)));
    });
    assert!(h.sender.fq);
    assert_eq!(h.sender.congestion_control.name(), "bbr");
    assert!(!h.sender.sack && !h.receiver.window_scaling);
    assert!(!h.sender.slow_start_after_idle);
    assert_eq!((h.sender.retries2, h.sender.initcwnd), (3, 100));
    assert_eq!((h.sender.syn_retries, h.sender.synack_retries), (2, 1));
    assert!(h.sender.cork);
    assert!(!h.metrics.save && h.metrics.save_ssthresh);
    assert_eq!(
        h.receiver.delayed_ack,
        DelayedAck::Fixed(SimDuration::from_millis(200))
    );
    assert!(!finish(|s| s.set_default_qdisc(Qdisc::FqCodel)).sender.fq);
    assert_eq!(Qdisc::by_name("fq_codel"), Some(Qdisc::FqCodel));
    assert_eq!(Qdisc::by_name("cake"), None);
}

#[test]
fn finish_names_the_key_relative_to_the_host() {
    let mut s = HostSettings::default();
    s.set_mss(70_000);
    let e = s.finish().unwrap_err().within("client");
    assert_eq!(e.key, "client.mss");
    assert_eq!(
        e.message,
        "70000 B is outside the allowed range 64 B to 65000 B"
    );
    let mut s = HostSettings::default();
    s.set_route_initcwnd(0);
    assert_eq!(s.finish().unwrap_err().key, "route.initcwnd");
    // A derived value out of range is put on the knob that set it.
    let mut s = HostSettings::default();
    s.set_tcp_rmem([1_000, 1_000, 1_000]);
    let e = s.finish().unwrap_err();
    assert_eq!(e.key, "sysctl.\"net.ipv4.tcp_rmem\"");
    assert_eq!(
        e.message,
        "the receive buffer it gives: 1000 B is outside the allowed range 2048 B to 2147483648 B"
    );
    // (SO_RCVBUF itself is raised to the kernel's minimum, as Linux does:
    // a small one is never out of range.)
    s.set_so_rcvbuf(1_000);
    assert!(s.finish().is_ok());
}

/// What `widgets/src/builders/slow_start.rs` did before the setters (issue
/// 15): the model's hosts, set field by field.
fn slow_start_by_fields(mss: u32, initcwnd: u32, rcvbuf: u64, rwnd: u32) -> Scenario {
    let model = HostConfig::default();
    let mut s = Scenario {
        client: model.clone(),
        server: model,
        ..Scenario::default()
    };
    s.server.sender.mss = mss;
    s.client.sender.mss = mss;
    s.server.sender.initcwnd = initcwnd;
    s.client.receiver.rcvbuf = rcvbuf;
    s.client.receiver.rcvbuf_max = s.client.receiver.rcvbuf_max.max(rcvbuf);
    s.client.receiver.tcp_rmem_max = s.client.receiver.rcvbuf_max;
    s.client.receiver.syn_window = rwnd.min(initial_window(&s.client.receiver, mss));
    s.client.receiver.syn_window_limit = Some(rwnd);
    s
}

/// The SYN window `tcp_select_initial_window` gives an active opener.
fn initial_window(r: &ReceiverConfig, mss: u32) -> u32 {
    let first = tcp_select_initial_window(r, &Behaviour::model(), mss as u64 + 12);
    first.rcv_wnd.min(65_535) as u32
}

/// The same hosts from the setters, as the builder can write them. Both are
/// the model's hosts (`Sysctls::default()`, `Behaviour::model()`), the ones
/// the field-by-field builder wrote, so these tests check the setters'
/// arithmetic against it.
fn slow_start_by_settings(mss: u32, initcwnd: u32, rcvbuf: u64, rwnd: u32) -> Scenario {
    let mut server = HostSettings::new(Sysctls::default());
    server.set_mss(mss);
    server.set_route_initcwnd(initcwnd);
    let mut client = HostSettings::new(Sysctls::default());
    client.set_mss(mss);
    client.set_tcp_rmem([PAGE_SIZE, rcvbuf, TCP_RMEM_MAX.max(rcvbuf)]);
    client.set_syn_window_limit(rwnd);
    Scenario {
        server: server.finish().unwrap(),
        client: client.finish().unwrap(),
        ..Scenario::default()
    }
}

#[test]
fn the_slow_start_widget_gets_the_same_hosts_from_the_setters() {
    // The sliders' ranges (MSS 536-8948, rcvbuf from 4 KiB, rwnd 1024-65535),
    // with receive buffers below 8 MiB (see the tests below).
    for mss in [536, 1_448, 8_948] {
        for rcvbuf in [4_096, 16_384, 131_072, 1 << 20, (8 << 20) - 1] {
            for rwnd in [1_024, 30_000, 64_240, 65_535] {
                for initcwnd in [1, 10, 100] {
                    let by_settings = slow_start_by_settings(mss, initcwnd, rcvbuf, rwnd);
                    let mut by_fields = slow_start_by_fields(mss, initcwnd, rcvbuf, rwnd);
                    // The server's SYN-ACK window: see the next test.
                    by_fields.server.receiver.syn_window = server_syn_window(mss);
                    assert_eq!(
                        by_settings, by_fields,
                        "mss {mss} rcvbuf {rcvbuf} rwnd {rwnd} initcwnd {initcwnd}"
                    );
                }
            }
        }
    }
}

/// What a Linux server with default buffers offers in its SYN-ACK.
fn server_syn_window(mss: u32) -> u32 {
    initial_window(&ReceiverConfig::default(), mss)
}

#[test]
fn the_server_offers_the_syn_window_its_mss_gives_where_the_builder_keeps_64240() {
    // The builder changes the server's MSS but keeps the SYN window Linux
    // offers at MSS 1448; finish() rounds to the server's own advmss.
    assert_eq!(
        server_syn_window(1_448),
        64_240,
        "the same at the default MSS"
    );
    assert_eq!(server_syn_window(536), 119 * 548);
    assert_eq!(server_syn_window(8_948), 7 * 8_960);
    let by_fields = slow_start_by_fields(536, 10, 131_072, 64_240);
    assert_eq!(by_fields.server.receiver.syn_window, 64_240);
    let by_settings = slow_start_by_settings(536, 10, 131_072, 64_240);
    assert_eq!(by_settings.server.receiver.syn_window, 65_212);
}

#[test]
fn from_8_mib_the_setters_offer_the_window_scale_the_buffer_needs() {
    // The builder keeps wscale 7 however large tcp_rmem[2] gets; Linux (and
    // finish()) size it for tcp_rmem[2]: 32 MiB needs 10. Nothing else differs.
    let by_settings = slow_start_by_settings(1_448, 10, 32 << 20, 64_240);
    let mut by_fields = slow_start_by_fields(1_448, 10, 32 << 20, 64_240);
    assert_eq!(by_fields.client.receiver.wscale, 7);
    assert_eq!(by_settings.client.receiver.wscale, 10);
    by_fields.client.receiver.wscale = 10;
    assert_eq!(by_settings, by_fields);
}

#[test]
fn tcp_notsent_lowat_is_the_socket_option_if_set_else_the_sysctl() {
    // tcp_notsent_lowat(tp): tp->notsent_lowat ?: sysctl_tcp_notsent_lowat.
    assert_eq!(finish(|_| {}).sender.notsent_lowat, u32::MAX);
    let h = finish(|s| s.set_tcp_notsent_lowat(131_072));
    assert_eq!(h.sender.notsent_lowat, 131_072);
    let h = finish(|s| {
        s.set_tcp_notsent_lowat(131_072);
        s.set_tcp_notsent_lowat_option(16_384);
    });
    assert_eq!(h.sender.notsent_lowat, 16_384);
    let h = finish(|s| s.set_tcp_notsent_lowat_option(0));
    assert_eq!(h.sender.notsent_lowat, u32::MAX, "0 unsets the option");
}

#[test]
fn tcp_notsent_lowat_is_refused_where_it_cannot_work() {
    // Not in 2.6.32 (c9bee3b7fdec, 3.12): named by the key that set it.
    let mut s = HostSettings::for_kernel(Kernel::V2_6_32);
    s.set_tcp_notsent_lowat_option(16_384);
    let e = s.finish().unwrap_err();
    assert_eq!(e.key, "sockopt.TCP_NOTSENT_LOWAT");
    assert!(e.message.contains("3.12"), "{e}");
    let mut s = HostSettings::for_kernel(Kernel::V2_6_32);
    s.set_tcp_notsent_lowat(16_384);
    assert_eq!(
        s.finish().unwrap_err().key,
        "sysctl.\"net.ipv4.tcp_notsent_lowat\""
    );
    // A sysctl of 0 would leave every write() blocked.
    let mut s = HostSettings::default();
    s.set_tcp_notsent_lowat(0);
    assert!(
        s.finish()
            .unwrap_err()
            .message
            .contains("block every write")
    );
}

#[test]
fn todays_kernel_ignores_tcp_adv_win_scale_as_6_6_does() {
    let share = |k: Kernel| {
        let mut h = HostSettings::for_kernel(k);
        h.set_tcp_adv_win_scale(2).unwrap();
        h.finish().unwrap().receiver.window_share
    };
    assert_eq!(share(Kernel::Today), WindowShare::ScalingRatio);
    assert_eq!(share(Kernel::V5_5), WindowShare::AdvWinScale(2));
}
