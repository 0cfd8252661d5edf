//! Kernel eras: which Linux a host runs.
//!
//! The book teaches what today's Linux does and what the seed articles'
//! kernels did. A host's era decides two things:
//!
//! - the defaults of every sysctl it reads ([`Kernel::sysctls`]): what a
//!   freshly booted machine of that kernel has, before any `sysctl -w`;
//! - how its TCP behaves where the code changed ([`Behaviour`]): each
//!   difference is one named switch, documented with the kernel function and
//!   the commit that introduced it, so a scenario can take an era and then
//!   mix in single switches.
//!
//! ```text
//!   Kernel ──► Sysctls (defaults) ──┐
//!          └─► Behaviour (switches) ┴─► HostSettings ─(setters, finish)─► HostConfig
//! ```
//!
//! The eras are the kernels the seed articles ran (found from their captures
//! and `uname -r` lines) and the current longterm kernel. The versions were read
//! in each kernel's own source: 6.18.26, 5.4.59 (for 5.5, whose TCP differs
//! from 5.4 in nothing modelled here), 4.18.0-147.el8, 3.10.0-1160.el7 and
//! 2.6.32-642.el6. Distribution kernels carry backports, so an era names the
//! distribution kernel where the seed's host ran one.

use super::{PAGE_SIZE, Qdisc, Sysctls, TCP_RETRIES2, TCP_WMEM_DEFAULT, TCP_WMEM_MAX};
use crate::cc::Algorithm;

/// A Linux kernel a host can run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kernel {
    /// CentOS 6.8's 2.6.32-642 (seeds 000 case 4, 002, 003 before the upgrade).
    V2_6_32,
    /// CentOS 7's 3.10.0 (seeds 000 and 001).
    V3_10,
    /// CentOS 8.1's 4.18.0-147 (seed 004's server).
    V4_18,
    /// Fedora 31's 5.5 (seed 004's client; the nearest era for seed 003's
    /// unnamed BBR kernel).
    V5_5,
    /// The current longterm kernel, [`Kernel::TODAY_VERSION`].
    #[default]
    Today,
}

impl Kernel {
    /// Every era, oldest first.
    pub const ALL: [Kernel; 5] = [
        Kernel::V2_6_32,
        Kernel::V3_10,
        Kernel::V4_18,
        Kernel::V5_5,
        Kernel::Today,
    ];

    /// The names scenario files, the command line and the widgets use.
    pub const NAMES: [&'static str; 5] = ["2.6.32", "3.10", "4.18", "5.5", "today"];

    /// What `today` means: the longterm kernel current when this was written
    /// (6.18, longterm since December 2025).
    pub const TODAY_VERSION: &'static str = "6.18";

    pub fn name(self) -> &'static str {
        Kernel::NAMES[self as usize]
    }

    /// The kernel version, with `today` resolved.
    pub fn version(self) -> &'static str {
        match self {
            Kernel::Today => Kernel::TODAY_VERSION,
            k => k.name(),
        }
    }

    pub fn from_name(name: &str) -> Option<Kernel> {
        Kernel::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Kernel::ALL[i])
    }

    /// The sysctls a host of this kernel boots with. Only the kernel's own
    /// defaults: what a distribution's sysctl files change (systemd sets
    /// `default_qdisc = fq_codel`) is for the scenario to say.
    pub fn sysctls(self) -> Sysctls {
        let today = Sysctls::default();
        // tcp_rmem[2] and the SO_*BUF caps, as `tcp_init` and `sock_init`
        // compute them on a host with enough memory.
        let (tcp_rmem, core_max) = match self {
            Kernel::V2_6_32 => ([PAGE_SIZE, 87_380, 4_194_304], 124_928),
            Kernel::V3_10 | Kernel::V4_18 => ([PAGE_SIZE, 87_380, 6_291_456], 212_992),
            Kernel::V5_5 => ([PAGE_SIZE, 131_072, 6_291_456], 212_992),
            Kernel::Today => ([PAGE_SIZE, 131_072, 33_554_432], 4_194_304),
        };
        Sysctls {
            tcp_rmem,
            tcp_wmem: [PAGE_SIZE, TCP_WMEM_DEFAULT, TCP_WMEM_MAX],
            rmem_max: core_max,
            wmem_max: core_max,
            tcp_moderate_rcvbuf: true,
            tcp_window_scaling: true,
            tcp_sack: true,
            // The kernel's own default (`CONFIG_DEFAULT_NET_SCH`) in every era.
            default_qdisc: Qdisc::PfifoFast,
            tcp_congestion_control: Algorithm::default(),
            tcp_no_metrics_save: false,
            // 65e6d90168f3 "tcp: Add tcp_no_ssthresh_metrics_save sysctl"
            // (5.6, default 1). Before it every kernel saved ssthresh.
            tcp_no_ssthresh_metrics_save: self == Kernel::Today,
            tcp_retries2: TCP_RETRIES2,
            // dfa2f0483360 "tcp: get rid of sysctl_tcp_adv_win_scale" (6.6):
            // today's window share is `scaling_ratio`; before it, 2 until 3.4
            // and 1 after.
            tcp_adv_win_scale: match self {
                Kernel::V2_6_32 => Some(2),
                Kernel::Today => None,
                _ => Some(1),
            },
            ..today
        }
    }

    /// How this kernel's TCP behaves where the code changed.
    pub fn behaviour(self) -> Behaviour {
        let old = self < Kernel::Today;
        Behaviour {
            // 0a6b2a1dc2a2 "tcp: switch to GSO being always on" (4.17); before
            // it, kernels built GSO skbs on any device with scatter-gather,
            // which every host in the seeds had. CentOS 6's 2.6.32 kept queued
            // skbs near one MSS each.
            send_skbs: if self == Kernel::V2_6_32 {
                SendSkbs::PerMss
            } else {
                SendSkbs::Gso
            },
            // a337531b942b (4.20) removed the 20-MSS cap; 378979e94e95 (6.10)
            // the 64 KB one.
            initial_rwnd: match self {
                Kernel::V2_6_32 => InitialRwnd::Segments(10),
                Kernel::V3_10 | Kernel::V4_18 => InitialRwnd::Segments(20),
                Kernel::V5_5 => InitialRwnd::Bytes(65_535),
                Kernel::Today => InitialRwnd::Unlimited,
            },
            // 4720852ed9af "tcp: fix delayed ACKs for MSS boundary condition"
            // (6.6, October 2023, backported to stable kernels after that).
            ack_pushed_full_segment: !old,
            // 6ba8a3b19e76 "tcp: Tail loss probe (TLP)" (3.10); the timeout
            // changed in 4.14 (bb4d991a28cc) and again in 6.6 (2 ms, not 2 jiffies).
            tlp: match self {
                Kernel::V2_6_32 => Tlp::Off,
                Kernel::V3_10 => Tlp::V3_10,
                Kernel::V4_18 | Kernel::V5_5 => Tlp::TwoJiffies,
                Kernel::Today => Tlp::TwoMs,
            },
            // e33099f96d99 "tcp: implement RFC5682 F-RTO" (3.10) replaced the
            // RFC 4138 variant.
            frto: if self == Kernel::V2_6_32 {
                Frto::Rfc4138
            } else {
                Frto::Rfc5682
            },
            // RACK loss detection (`tcp_recovery` = 1) from 4.4.
            rack: self >= Kernel::V4_18,
            // `tcp_openreq_init_rwin` / `tcp_connect_init` clamp the window
            // (and so the scale offered) to a user-locked small SO_RCVBUF on
            // 3.x and later.
            rcvbuf_lock_clamps_wscale: self >= Kernel::V3_10,
        }
    }
}

impl std::fmt::Display for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a host's TCP behaves differently from one kernel to the next: one
/// switch per difference. [`Kernel::behaviour`] sets them for an era; a
/// scenario may change single ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Behaviour {
    /// How `tcp_sendmsg` cuts the application's data into skbs, and so how it
    /// charges `sk_sndbuf` (see [`SendSkbs`]).
    pub send_skbs: SendSkbs,
    /// The cap on the first windows a receiver advertises after the handshake
    /// (`tcp_select_initial_window`, `tcp_default_init_rwnd`).
    pub initial_rwnd: InitialRwnd,
    /// A full-sized segment carrying PSH marks the connection `ICSK_ACK_PUSHED`
    /// (`tcp_measure_rcv_mss`), so `tcp_cleanup_rbuf` ACKs it as soon as the
    /// application has read it instead of waiting for the delayed-ACK timer.
    pub ack_pushed_full_segment: bool,
    /// Tail-loss probe (`tcp_schedule_loss_probe`) and its timeout.
    pub tlp: Tlp,
    /// F-RTO's variant (`tcp_frto`): how a sender tells a spurious timeout.
    pub frto: Frto,
    /// RACK marks segments lost by time (`tcp_rack_mark_lost`); without it
    /// (kernels before 4.4) the third duplicate ACK or SACKed segment does.
    pub rack: bool,
    /// `SO_RCVBUF` set before `connect()`/`listen()` clamps the window, and the
    /// scale the SYN offers, to the small locked buffer.
    pub rcvbuf_lock_clamps_wscale: bool,
}

impl Behaviour {
    /// What the simulator modelled before it knew eras, kept until each switch
    /// is implemented: per-MSS send-buffer charging, the 64 KB initial window,
    /// no ACK on reading a pushed segment, no tail-loss probe, RACK. Not any
    /// real kernel; `HostSettings::default()` uses it until today's kernel
    /// becomes the default.
    pub const fn model() -> Behaviour {
        Behaviour {
            send_skbs: SendSkbs::PerMss,
            initial_rwnd: InitialRwnd::Bytes(65_535),
            ack_pushed_full_segment: false,
            tlp: Tlp::Off,
            frto: Frto::Off,
            rack: true,
            rcvbuf_lock_clamps_wscale: false,
        }
    }
}

impl Default for Behaviour {
    fn default() -> Self {
        Behaviour::model()
    }
}

/// How the application's data becomes skbs on the write queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendSkbs {
    /// One skb per MSS, each charged its truesize against `sk_sndbuf` before
    /// it is queued (a device without scatter-gather; CentOS 6's kernel kept
    /// its queued skbs this small).
    PerMss,
    /// Multi-segment skbs up to the GSO size goal (`tcp_xmit_size_goal`, about
    /// 64 KB); `sk_stream_memory_free` is checked only when a new skb is
    /// needed, so `sk_wmem_queued` can run past `sk_sndbuf`.
    Gso,
}

/// The cap on the receive window advertised right after the handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitialRwnd {
    /// At most this many segments of advmss (`tcp_default_init_rwnd`: 10 on
    /// 2.6.32, 20 from 3.0 to 4.19).
    Segments(u32),
    /// At most this many bytes (65535, until 6.10).
    Bytes(u32),
    /// The whole initial space the buffer backs.
    Unlimited,
}

/// The tail-loss probe's variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tlp {
    Off,
    /// 3.10's first version: PTO = max(2·SRTT, 10 ms), or 1.5·SRTT + 200 ms
    /// (`TCP_DELACK_MAX`) with one segment outstanding.
    V3_10,
    /// 4.14 to 6.5: PTO = 2·SRTT + 2 jiffies, or + `TCP_RTO_MIN` with one
    /// segment outstanding; never later than the RTO. As before 5.8
    /// (76be93fc0702), which the eras using it predate: a probe of new data
    /// opens no episode, only one retransmitted probe per episode.
    TwoJiffies,
    /// 6.6 and later: as [`Tlp::TwoJiffies`] with 2 ms (`TCP_TIMEOUT_MIN_US`),
    /// one probe of either kind per episode, and a D-SACK of the probe itself
    /// (`FLAG_DSACK_TLP`) to end it.
    TwoMs,
}

/// How a sender detects a spurious retransmission timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frto {
    /// No F-RTO: every timeout is taken as real.
    Off,
    /// RFC 4138 (2.6.32): a spurious timeout halves cwnd instead of undoing it.
    Rfc4138,
    /// RFC 5682 (3.10 and later, `tcp_frto = 2`): new data after the timeout;
    /// ACKs that advance without the retransmissions prove it spurious, and
    /// the reduction is undone.
    Rfc5682,
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
