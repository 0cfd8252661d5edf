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

use super::switch_values::{
    Frto, InitialRwnd, NotsentLowat, OfoGrowth, SendSkbs, Tlp, TsoSize, TxSkbHead,
};
use super::{PAGE_SIZE, Sysctls, TCP_SYN_RETRIES};
use crate::cc::hystart::HyStartRules;
use crate::tcp::receive_window::Drs;
use crate::timer_wheel::{Hz, TimerWheel};

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

    /// An era by the name a scenario file, `tcpsim run --kernel` or a widget
    /// gives it; an unknown name gets a message listing the known ones.
    pub fn parse(name: &str) -> Result<Kernel, String> {
        Kernel::from_name(name.trim()).ok_or_else(|| {
            format!(
                "`{name}` is not a kernel the simulator knows (known: {})",
                Kernel::NAMES.join(", ")
            )
        })
    }

    /// The era of a host whose settings name none: a scenario file's host
    /// without `kernel`, `HostSettings::default()`, a widget at `kernel=today`.
    /// Today's longterm kernel, so the book teaches what a reader's machine
    /// does; the seeds' scenario files name their own eras.
    ///
    /// (Until every behaviour switch was implemented this was `None`, the
    /// simulator's model before it knew eras: `Sysctls::default()` with
    /// [`Behaviour::model`], which tests that pin the model's arithmetic
    /// still build with `HostSettings::new(Sysctls::default())`.)
    pub const UNNAMED: Option<Kernel> = Some(Kernel::Today);

    /// The sysctls a host of this kernel boots with. Only the kernel's own
    /// defaults: what a distribution's sysctl files change (systemd sets
    /// `default_qdisc = fq_codel`) is for the scenario to say.
    pub fn sysctls(self) -> Sysctls {
        // tcp_rmem[2] and the SO_*BUF caps, as `tcp_init` and `sock_init`
        // compute them on a host with enough memory.
        let (tcp_rmem, core_max) = match self {
            Kernel::V2_6_32 => ([PAGE_SIZE, 87_380, 4_194_304], 124_928),
            Kernel::V3_10 | Kernel::V4_18 => ([PAGE_SIZE, 87_380, 6_291_456], 212_992),
            Kernel::V5_5 => ([PAGE_SIZE, 131_072, 6_291_456], 212_992),
            Kernel::Today => ([PAGE_SIZE, 131_072, 33_554_432], 4_194_304),
        };
        // Only what differs between eras; the rest is every era's default.
        Sysctls {
            tcp_rmem,
            rmem_max: core_max,
            wmem_max: core_max,
            // 65e6d90168f3 "tcp: Add tcp_no_ssthresh_metrics_save sysctl"
            // (5.6, default 1). Before it every kernel saved ssthresh.
            tcp_no_ssthresh_metrics_save: self == Kernel::Today,
            // "tcp: Increase timeout for SYN segments" (3.7) raised
            // TCP_SYN_RETRIES from 5 to 6 (connect() fails after 127 s, not
            // 63 s); CentOS 6's 2.6.32 still has 5.
            tcp_syn_retries: if self == Kernel::V2_6_32 {
                5
            } else {
                TCP_SYN_RETRIES
            },
            // dfa2f0483360 "tcp: get rid of sysctl_tcp_adv_win_scale" (6.6):
            // today's window share is `scaling_ratio`; before it, 2 until 3.4
            // and 1 after.
            tcp_adv_win_scale: match self {
                Kernel::V2_6_32 => Some(2),
                Kernel::Today => None,
                _ => Some(1),
            },
            ..Sysctls::default()
        }
    }

    /// The receive-offload window a host of this era gets unless its
    /// scenario sets `gro` ([`super::ReceiverConfig::gro_window`]).
    ///
    /// GRO is on in every era's kernel (2.6.29 made it a default feature), so
    /// this is a choice about the hosts, not the code. Today's host gathers
    /// back-to-back segments ([`super::GRO_WINDOW_DEFAULT`]): that is what a
    /// current machine's receiver does, and it stands in for a real reader's
    /// batching, which makes a 6.18 receiver double slow start exactly even
    /// with GRO off (`testbed/rule3.sh`); the model's reader takes each
    /// segment as it comes, and with one skb per segment a flight's odd last
    /// segment waits for the delayed-ACK timer (`tests/gro.rs`). The historic eras
    /// replay the source articles' captures, and the model reproduces their
    /// timings (seed 004's 5 ms second push, its 44 ms at 2.8 ms) only with
    /// one skb per segment, although seed 004's capture shows the client
    /// acknowledging whole flights; that disagreement is the model's, and the
    /// slow-start chapter says so.
    pub fn gro_window(self) -> crate::time::SimDuration {
        if self == Kernel::Today {
            super::GRO_WINDOW_DEFAULT
        } else {
            crate::time::SimDuration::ZERO
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
            tx_skb_head: match self {
                Kernel::V2_6_32 | Kernel::V3_10 => TxSkbHead::Linear2k,
                Kernel::V4_18 => TxSkbHead::FirstLinear2k,
                Kernel::V5_5 => TxSkbHead::Kmalloc1k,
                Kernel::Today => TxSkbHead::SmallHead,
            },
            tso_size: match self {
                Kernel::Today => TsoSize::MinRttGrow,
                _ => TsoSize::PacingRate,
            },
            // 6.18's `tcp_check_space` has no SOCK_QUEUE_SHRUNK test and
            // `tcp_event_new_data_sent` calls it; 5.4's has and does not.
            check_space_on_send: !old,
            // c9bee3b7fdec "tcp: TCP_NOTSENT_LOWAT socket option" (3.12, in
            // CentOS 7's 3.10); the poll side halved between 4.18 and 5.4.
            notsent_lowat: match self {
                Kernel::V2_6_32 => NotsentLowat::Absent,
                Kernel::V3_10 | Kernel::V4_18 => NotsentLowat::Unsent,
                Kernel::V5_5 | Kernel::Today => NotsentLowat::HalfUnsent,
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
            // tcp_fixup_rcvbuf's 3.x form; a337531b942b (4.20) removed it with
            // the 20-MSS cap.
            rcvbuf_fixup: matches!(self, Kernel::V3_10 | Kernel::V4_18),
            // 4e4f1fc22681 "tcp: properly increase rcv_ssthresh for ofo
            // packets" (2013; in el7's 3.10, not in el6's 2.6.32); the June
            // 2020 fix "tcp: grow window for OOO packets only for SACK flows"
            // came after Fedora 31's 5.5.15 and RHEL 8.1.
            ofo_grows_window: match self {
                Kernel::V2_6_32 => OfoGrowth::Never,
                Kernel::V3_10 | Kernel::V4_18 | Kernel::V5_5 => OfoGrowth::AllFlows,
                Kernel::Today => OfoGrowth::SackFlows,
            },
            // ccce324dabfe "tcp: make the first N SYN RTO backoffs linear"
            // (6.5): `tcp_syn_linear_timeouts`, default 4.
            syn_linear_timeouts: if old { 0 } else { 4 },
            // `tcp_oow_rate_limited` and `tcp_invalid_ratelimit` ("tcp: mitigate
            // ACK loops", 4.0) are in CentOS 7's 3.10 as a backport; CentOS
            // 6's 2.6.32 answers every out-of-window segment.
            oow_rate_limit: self >= Kernel::V3_10,
            // "tcp: undo init congestion window on false SYNACK timeout"
            // (5.4, in 5.4.59, not in 4.18.0-147): `tcp_try_undo_spurious_syn`.
            spurious_syn_undo: self >= Kernel::V5_5,
            // 4a41f453bedf "tcp: change pingpong threshold to 3" (5.1),
            // reverted by 4d8f24eeedc5 (5.19, July 2022; also in the 5.4,
            // 5.10 and 5.15 stable series; Fedora 31's 5.5 never had it).
            pingpong_thresh: if self == Kernel::V5_5 { 3 } else { 1 },
            // CentOS 6's 2.6.32 keeps the metrics in the route cache and
            // seeds the estimator from them (`tcp_init_metrics` reading
            // `RTAX_RTT` and `RTAX_RTTVAR`).
            cached_rtt_seeds_estimator: self == Kernel::V2_6_32,
            // 500462a9de65 "timers: Switch to a non-cascading wheel" (4.8);
            // timer slack came in 2.6.34, after vanilla 2.6.32.
            timer_wheel: match self {
                Kernel::V2_6_32 => TimerWheel::Cascading,
                Kernel::V3_10 => TimerWheel::CascadingSlack,
                _ => TimerWheel::RoundsUp,
            },
            // CONFIG_HZ=1000 on RHEL/CentOS and Fedora, the seeds' hosts;
            // Debian and Ubuntu build with 250.
            hz: Hz::DEFAULT,
            // "tcp: add TCP_BPF_DELACK_MAX and TCP_BPF_RTO_MIN options"
            // (5.10): `icsk_delack_max`, TCP_DELACK_MAX unless BPF lowers it.
            delack_max_cap: !old,
            // tcp_cubic.c: the 3.x margin (delay_min >> 4 in eighths of a ms),
            // 4.x's (>> 3), and 5.7's µs clock with pacing-aware ACK trains.
            hystart: match self {
                Kernel::V2_6_32 | Kernel::V3_10 => HyStartRules::Ms16,
                Kernel::V4_18 | Kernel::V5_5 => HyStartRules::Ms8,
                Kernel::Today => HyStartRules::Us,
            },
            // 6.16's receive-side series ("tcp: fix sk_rcvbuf overshoot",
            // `tcp_rcvbuf_grow`; `tcp_rcvbuf_low_rtt` in 6.18).
            drs: if old { Drs::Classic } else { Drs::RcvbufGrow },
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
    /// With [`SendSkbs::Gso`]: how the write queue's skbs are allocated, which
    /// decides what each costs beyond its payload (`skb->truesize`).
    pub tx_skb_head: TxSkbHead,
    /// With [`SendSkbs::Gso`]: how `tcp_write_xmit` sizes the TSO packets it
    /// cuts the write queue's skbs into (each cut allocates another skb).
    pub tso_size: TsoSize,
    /// `tcp_check_space` runs after every ACK and every transmission of new
    /// data (`tcp_event_new_data_sent`), not only after an ACK that freed an
    /// skb (`SOCK_QUEUE_SHRUNK`, kernels up to 5.x). It wakes a writer blocked
    /// on the send buffer and grows an autotuned buffer (`tcp_new_space`).
    /// With [`SendSkbs::Gso`] only.
    pub check_space_on_send: bool,
    /// `TCP_NOTSENT_LOWAT` and `net.ipv4.tcp_notsent_lowat`
    /// (`tcp_stream_memory_free`): whether the kernel has them, and when a
    /// blocked writer wakes.
    pub notsent_lowat: NotsentLowat,
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
    /// (kernels before 4.4) FACK does, by count: a hole more than
    /// `tcp_reordering` (3) segments below the highest SACK is lost
    /// (`tcp_fack` = 1, those kernels' default; see `tcp::fack`).
    pub rack: bool,
    /// `SO_RCVBUF` set before `connect()`/`listen()` clamps the window, and the
    /// scale the SYN offers, to the small locked buffer.
    pub rcvbuf_lock_clamps_wscale: bool,
    /// Out-of-order data raises `rcv_ssthresh` as in-order data does
    /// (`tcp_data_queue_ofo` → `tcp_grow_window`), so a window can still grow
    /// while a hole waits to be repaired.
    pub ofo_grows_window: OfoGrowth,
    /// On ESTABLISHED, `tcp_fixup_rcvbuf` raises a buffer `SO_RCVBUF` did not
    /// lock to room for twice the 20-segment initial window at full truesize,
    /// four times that with `tcp_moderate_rcvbuf` (375040 bytes at MSS 1448,
    /// over `tcp_rmem[1]` = 87380), so the window can grow past 43 KB before
    /// autotuning has measured anything. 3.x to 4.19 (2.6.32's version sizes
    /// for 10 segments without the factors and stays under 87380).
    pub rcvbuf_fixup: bool,
    /// `tcp_syn_linear_timeouts` (a sysctl since 6.5, default 4; absent
    /// before, as if 0): this many SYN retransmissions go out at a constant
    /// RTO before it starts doubling (`tcp_retransmit_timer`), and
    /// `connect()` gives up after that many more (`tcp_write_timeout`).
    pub syn_linear_timeouts: u32,
    /// Answers to out-of-window segments that carry no data (a SYN, a
    /// zero-window probe) are limited to one per `tcp_invalid_ratelimit`
    /// (500 ms) per socket (`tcp_oow_rate_limited`, `tcp_send_challenge_ack`).
    pub oow_rate_limit: bool,
    /// A handshake whose retransmitted SYN-ACK proves spurious (the ACK echoes
    /// the first SYN-ACK's timestamp) keeps the initial cwnd
    /// (`tcp_try_undo_spurious_syn`); without it, two or more SYN or SYN-ACK
    /// retransmissions start the connection at cwnd 1 (`tcp_init_transfer`).
    pub spurious_syn_undo: bool,
    /// `tcp_init_metrics` takes the destination's cached RTT and variance as
    /// the connection's srtt and rttvar where they exceed the handshake's
    /// sample, so they set the RTO until the estimator has moved them;
    /// since 1b7fdd2ab585 "tcp: do not use cached RTT for RTT estimation"
    /// (3.12; in CentOS 7's 3.10.0 since 3.10.0-240) the cached RTT only
    /// sets the first RTO (`RttEstimator::seed_rto`).
    pub cached_rtt_seeds_estimator: bool,
    /// `TCP_PINGPONG_THRESH`: how many quick replies (data sent within ato
    /// of data received, `inet_csk_inc_pingpong_cnt`) make the connection
    /// interactive, so that it stops quick-ACKing (`tcp_in_quickack_mode`).
    pub pingpong_thresh: u32,
    /// The timer wheel: whether a jiffies timer (the delayed ACK's) runs on
    /// its expiry tick or rounds up past it (`crate::timer_wheel`).
    pub timer_wheel: TimerWheel,
    /// `CONFIG_HZ`: the tick the delayed-ACK timer is armed and run in.
    pub hz: Hz,
    /// `icsk_delack_max` (5.10+): the delayed ACK waits at most
    /// `TCP_DELACK_MAX` (200 ms), not HZ/2, outside ping-pong too.
    pub delack_max_cap: bool,
    /// CUBIC's HyStart: which kernel's clock, ACK-train threshold and delay
    /// margin (`crate::cc::hystart`).
    pub hystart: HyStartRules,
    /// Receive-buffer autotuning (`tcp_rcv_space_adjust`): before 6.16 or
    /// `tcp_rcvbuf_grow`'s.
    pub drs: Drs,
}

impl Behaviour {
    /// What the simulator modelled before it knew eras, kept until each switch
    /// is implemented: per-MSS send-buffer charging, the 64 KB initial window,
    /// no ACK on reading a pushed segment, no tail-loss probe, RACK, SYNs
    /// backed off from the first retransmission; and today's rate limit on
    /// out-of-window answers and undo of a spurious SYN-ACK timeout. Not any
    /// real kernel; `HostSettings::default()` uses it until today's kernel
    /// becomes the default. Out-of-order data grows the window as today's
    /// kernel grows it (issue 17: the model used not to grow it at all).
    pub const fn model() -> Behaviour {
        Behaviour {
            send_skbs: SendSkbs::PerMss,
            // Today's, which matter only once `send_skbs` is `Gso`.
            tx_skb_head: TxSkbHead::SmallHead,
            tso_size: TsoSize::MinRttGrow,
            check_space_on_send: true,
            // The model had no TCP_NOTSENT_LOWAT; unset (UINT_MAX) it changes nothing.
            notsent_lowat: NotsentLowat::HalfUnsent,
            initial_rwnd: InitialRwnd::Bytes(65_535),
            ack_pushed_full_segment: false,
            tlp: Tlp::Off,
            frto: Frto::Off,
            rack: true,
            rcvbuf_lock_clamps_wscale: false,
            ofo_grows_window: OfoGrowth::SackFlows,
            rcvbuf_fixup: false,
            syn_linear_timeouts: 0,
            oow_rate_limit: true,
            spurious_syn_undo: true,
            pingpong_thresh: 1,
            cached_rtt_seeds_estimator: false,
            // The model ran timers on their expiry tick.
            timer_wheel: TimerWheel::Cascading,
            hz: Hz::DEFAULT,
            delack_max_cap: false,
            hystart: HyStartRules::Us,
            // What the model autotuned with before eras.
            drs: Drs::Classic,
        }
    }
}

impl Default for Behaviour {
    fn default() -> Self {
        Behaviour::model()
    }
}

#[cfg(test)]
mod tests;
