use super::*;
use crate::config::Qdisc;

#[test]
fn an_unknown_era_is_refused_with_the_known_ones() {
    assert_eq!(Kernel::parse(" 4.18 "), Ok(Kernel::V4_18));
    assert_eq!(
        Kernel::parse("6.18").unwrap_err(),
        "`6.18` is not a kernel the simulator knows (known: 2.6.32, 3.10, 4.18, 5.5, today)"
    );
}

#[test]
fn every_switch_value_reads_back_from_its_name() {
    for v in SendSkbs::ALL {
        assert_eq!(SendSkbs::from_name(v.name()), Some(*v));
    }
    for v in Tlp::ALL {
        assert_eq!(Tlp::from_name(v.name()), Some(*v));
    }
    for v in Frto::ALL {
        assert_eq!(Frto::from_name(v.name()), Some(*v));
    }
    for v in [
        InitialRwnd::Segments(10),
        InitialRwnd::Bytes(65_535),
        InitialRwnd::Unlimited,
    ] {
        assert_eq!(InitialRwnd::parse(&v.text()), Ok(v));
    }
    assert!(InitialRwnd::parse("20").is_err());
    assert!(InitialRwnd::parse("0 segments").is_err());
}

#[test]
fn a_host_that_names_no_kernel_runs_today() {
    use crate::config::HostSettings;
    assert_eq!(Kernel::UNNAMED, Some(Kernel::Today));
    let host = HostSettings::default().derive();
    assert_eq!(host, HostSettings::for_kernel(Kernel::Today).derive());
    assert_eq!(
        (host.behaviour, host.kernel),
        (Kernel::Today.behaviour(), Some(Kernel::Today))
    );
    // A widget's `today` is that host; its other eras are their own.
    assert_eq!(
        HostSettings::for_kernel_choice(Kernel::Today),
        HostSettings::default()
    );
    let old = HostSettings::for_kernel_choice(Kernel::V3_10).derive();
    assert_eq!(old.kernel, Some(Kernel::V3_10));
    assert_eq!(old.behaviour, Kernel::V3_10.behaviour());
}

#[test]
fn names_read_back() {
    for k in Kernel::ALL {
        assert_eq!(Kernel::from_name(k.name()), Some(k));
    }
    assert_eq!(Kernel::from_name("6.18"), None);
    assert_eq!(Kernel::Today.version(), "6.18");
    assert_eq!(Kernel::V4_18.version(), "4.18");
}

/// As `sysctl` prints them on a freshly booted 6.18 host.
#[test]
fn todays_defaults_are_6_18s() {
    let s = Kernel::Today.sysctls();
    assert_eq!(s.tcp_rmem, [4096, 131_072, 33_554_432]);
    assert_eq!(s.tcp_wmem, [4096, 16_384, 4_194_304]);
    assert_eq!((s.rmem_max, s.wmem_max), (4_194_304, 4_194_304));
    assert!(s.tcp_no_ssthresh_metrics_save);
    assert_eq!(s.tcp_adv_win_scale, None);
    assert_eq!(s.default_qdisc, Qdisc::PfifoFast);
}

#[test]
fn the_seeds_kernels_differ_where_the_history_says() {
    assert_eq!(Kernel::V4_18.sysctls().tcp_rmem[1], 87_380);
    assert_eq!(Kernel::V5_5.sysctls().tcp_rmem[1], 131_072);
    assert_eq!(Kernel::V2_6_32.sysctls().tcp_adv_win_scale, Some(2));
    assert!(!Kernel::V5_5.sysctls().tcp_no_ssthresh_metrics_save);
    assert_eq!(Kernel::V2_6_32.behaviour().tlp, Tlp::Off);
    assert_eq!(Kernel::V4_18.behaviour().tlp, Tlp::TwoJiffies);
    assert!(!Kernel::V5_5.behaviour().ack_pushed_full_segment);
    assert!(Kernel::Today.behaviour().ack_pushed_full_segment);
    assert_eq!(
        Kernel::V5_5.behaviour().initial_rwnd,
        InitialRwnd::Bytes(65_535)
    );
    assert_eq!(Kernel::V2_6_32.sysctls().tcp_syn_retries, 5);
    assert_eq!(Kernel::V3_10.sysctls().tcp_syn_retries, 6);
    assert_eq!(Kernel::Today.sysctls().tcp_synack_retries, 5);
    assert_eq!(Kernel::Today.behaviour().syn_linear_timeouts, 4);
    assert_eq!(Kernel::V5_5.behaviour().syn_linear_timeouts, 0);
    assert!(!Kernel::V2_6_32.behaviour().oow_rate_limit);
    assert!(Kernel::V3_10.behaviour().oow_rate_limit);
    assert!(!Kernel::V4_18.behaviour().spurious_syn_undo);
    assert!(Kernel::V5_5.behaviour().spurious_syn_undo);
}

/// Read in each era's tcp.c, tcp_output.c, tcp_input.c and sock.h.
#[test]
fn the_send_side_follows_each_kernels_source() {
    assert_eq!(Kernel::V2_6_32.behaviour().send_skbs, SendSkbs::PerMss);
    let heads = [
        (Kernel::V3_10, TxSkbHead::Linear2k),
        (Kernel::V4_18, TxSkbHead::FirstLinear2k),
        (Kernel::V5_5, TxSkbHead::Kmalloc1k),
        (Kernel::Today, TxSkbHead::SmallHead),
    ];
    for (k, head) in heads {
        let b = k.behaviour();
        assert_eq!(b.send_skbs, SendSkbs::Gso, "{k}");
        assert_eq!(b.tx_skb_head, head, "{k}");
        assert_eq!(b.check_space_on_send, k == Kernel::Today, "{k}");
        assert_eq!(k.sysctls().tcp_notsent_lowat, u32::MAX, "{k}");
    }
    assert_eq!(Kernel::V5_5.behaviour().tso_size, TsoSize::PacingRate);
    assert_eq!(Kernel::Today.behaviour().tso_size, TsoSize::MinRttGrow);
    let lowat = |k: Kernel| k.behaviour().notsent_lowat;
    assert_eq!(lowat(Kernel::V2_6_32), NotsentLowat::Absent);
    assert_eq!(lowat(Kernel::V3_10), NotsentLowat::Unsent);
    assert_eq!(lowat(Kernel::V4_18), NotsentLowat::Unsent);
    assert_eq!(lowat(Kernel::V5_5), NotsentLowat::HalfUnsent);
    assert_eq!(lowat(Kernel::Today), NotsentLowat::HalfUnsent);
}
