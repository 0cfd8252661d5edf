//! The sysctls a host's TCP reads, as an administrator sets them with
//! `sysctl -w`: raw values by their names under `/proc/sys/net`, before the
//! kernel derives anything from them (that is [`super::HostSettings::finish`]).
//!
//! `Sysctls::default()` is today's Linux (6.x). Where defaults differ between
//! kernels (tcp_rmem, tcp_adv_win_scale, tcp_no_ssthresh_metrics_save), a
//! kernel era is another constructor of this table; nothing else reads the
//! defaults.

use super::{
    PAGE_SIZE, RMEM_MAX_DEFAULT, TCP_RETRIES2, TCP_RMEM_DEFAULT, TCP_RMEM_MAX, TCP_SYN_RETRIES,
    TCP_SYNACK_RETRIES, TCP_WMEM_DEFAULT, TCP_WMEM_MAX, WMEM_MAX_DEFAULT,
};
use crate::cc::Algorithm;

/// The sysctls the simulator models, with the values a host booted with.
#[derive(Clone, Debug, PartialEq)]
pub struct Sysctls {
    /// `net.ipv4.tcp_rmem`: min, default (the initial `sk_rcvbuf`), max (the
    /// autotuning ceiling). man 7 tcp.
    pub(super) tcp_rmem: [u64; 3],
    /// `net.ipv4.tcp_wmem`: min, default (the initial `sk_sndbuf`), max.
    pub(super) tcp_wmem: [u64; 3],
    /// `net.core.rmem_max`: the cap on `SO_RCVBUF` requests. man 7 socket.
    pub(super) rmem_max: u64,
    /// `net.core.wmem_max`: the cap on `SO_SNDBUF` requests.
    pub(super) wmem_max: u64,
    /// `net.ipv4.tcp_moderate_rcvbuf`: receive-buffer autotuning (`tcp_rcv_space_adjust`).
    pub(super) tcp_moderate_rcvbuf: bool,
    /// `net.ipv4.tcp_window_scaling`: offer RFC 7323 window scaling in the SYN.
    pub(super) tcp_window_scaling: bool,
    /// `net.ipv4.tcp_sack`: offer SACK in the SYN.
    pub(super) tcp_sack: bool,
    /// `net.core.default_qdisc`.
    pub(super) default_qdisc: Qdisc,
    /// `net.ipv4.tcp_congestion_control`.
    pub(super) tcp_congestion_control: Algorithm,
    /// `net.ipv4.tcp_no_metrics_save`: 1 stops `tcp_update_metrics` saving anything.
    pub(super) tcp_no_metrics_save: bool,
    /// `net.ipv4.tcp_no_ssthresh_metrics_save`: 1 (the default) stops it
    /// saving ssthresh.
    pub(super) tcp_no_ssthresh_metrics_save: bool,
    /// `net.ipv4.tcp_retries2`.
    pub(super) tcp_retries2: u32,
    /// `net.ipv4.tcp_syn_retries`: SYN retransmissions before `connect()`
    /// fails (`tcp_write_timeout`).
    pub(super) tcp_syn_retries: u32,
    /// `net.ipv4.tcp_synack_retries`: SYN-ACK retransmissions before the
    /// listener forgets the request (`reqsk_timer_handler`).
    pub(super) tcp_synack_retries: u32,
    /// `net.ipv4.tcp_adv_win_scale` as set; `None`: not set, so the window is
    /// the buffer's `scaling_ratio` share, as kernels 6.6+ compute it.
    pub(super) tcp_adv_win_scale: Option<i8>,
    /// `net.ipv4.tcp_slow_start_after_idle`.
    pub(super) tcp_slow_start_after_idle: bool,
    /// `net.ipv4.tcp_notsent_lowat`: the most unsent bytes a socket without
    /// `TCP_NOTSENT_LOWAT` takes more data on top of (`tcp_stream_memory_free`).
    pub(super) tcp_notsent_lowat: u32,
}

impl Default for Sysctls {
    /// The simulator's model host (6.x before 6.16 raised `tcp_rmem[2]` and
    /// the `SO_*BUF` caps); `Kernel::sysctls` starts every era from it.
    fn default() -> Self {
        Sysctls {
            tcp_rmem: [PAGE_SIZE, TCP_RMEM_DEFAULT, TCP_RMEM_MAX],
            tcp_wmem: [PAGE_SIZE, TCP_WMEM_DEFAULT, TCP_WMEM_MAX],
            rmem_max: RMEM_MAX_DEFAULT,
            wmem_max: WMEM_MAX_DEFAULT,
            tcp_moderate_rcvbuf: true,
            tcp_window_scaling: true,
            tcp_sack: true,
            // The kernel's own default (`CONFIG_DEFAULT_NET_SCH`) in every era;
            // systemd's sysctl file sets fq_codel, which is for a scenario to say.
            default_qdisc: Qdisc::PfifoFast,
            tcp_congestion_control: Algorithm::default(),
            tcp_no_metrics_save: false,
            tcp_no_ssthresh_metrics_save: true,
            tcp_retries2: TCP_RETRIES2,
            tcp_syn_retries: TCP_SYN_RETRIES,
            tcp_synack_retries: TCP_SYNACK_RETRIES,
            tcp_adv_win_scale: None,
            tcp_slow_start_after_idle: true,
            // `tcp_sk_init`: UINT_MAX, no limit.
            tcp_notsent_lowat: u32::MAX,
        }
    }
}

/// A queueing discipline `net.core.default_qdisc` can name. Only whether it
/// paces matters here: fq does, at each flow's `sk_pacing_rate`; the others
/// send what TCP hands them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qdisc {
    /// The kernel's built-in default.
    PfifoFast,
    Pfifo,
    /// What systemd sets on most distributions.
    FqCodel,
    /// Fair queueing with pacing (net/sched/sch_fq.c), as BBR's authors deploy it.
    Fq,
}

impl Qdisc {
    /// By the name `tc` and the sysctl use.
    pub fn by_name(name: &str) -> Option<Qdisc> {
        match name {
            "pfifo_fast" => Some(Qdisc::PfifoFast),
            "pfifo" => Some(Qdisc::Pfifo),
            "fq_codel" => Some(Qdisc::FqCodel),
            "fq" => Some(Qdisc::Fq),
            _ => None,
        }
    }

    /// Whether the qdisc holds each packet until the flow's pacing rate allows it.
    pub fn paces(self) -> bool {
        self == Qdisc::Fq
    }
}
