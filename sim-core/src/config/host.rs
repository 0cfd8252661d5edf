//! One host's TCP as the socket uses it: how it sends ([`SenderConfig`]) and
//! how it receives ([`ReceiverConfig`]). These are *derived* values (the
//! doubled `SO_RCVBUF`, the window scale, the SYN window); the knobs an
//! administrator or application sets, and the kernel's rules that turn them
//! into these, are in [`super::HostSettings`].

use super::{
    ConfigError, DEFAULT_MSS, DEFAULT_SYN_WINDOW, DEFAULT_WSCALE, TCP_INIT_CWND, TCP_RETRIES2,
    TCP_RMEM_DEFAULT, TCP_RMEM_MAX, TCP_WMEM_DEFAULT, TCP_WMEM_MAX, check,
};
use crate::cc::Algorithm;
use crate::tcp::receive_window::WindowShare;
use crate::time::SimDuration;

/// A receiver's acknowledgement policy (see `tcp::ack_policy`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DelayedAck {
    /// Linux: quick-ACK mode at start and while the window grows, then one ACK
    /// per two full segments or after the adaptive `ato` timer (40 ms at first).
    Linux,
    /// One ACK per two full segments, or after a fixed timer (Windows: 200 ms).
    /// No quick-ACK mode.
    Fixed(SimDuration),
    /// Every segment is acknowledged at once.
    Off,
}

/// When a sender may send a segment shorter than the MSS while data is unacknowledged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nagle {
    /// `TCP_NODELAY`: always.
    Off,
    /// Linux (`tcp_nagle_check` with `tcp_minshall_check`): unless an earlier
    /// sub-MSS segment is still unacknowledged.
    Minshall,
    /// RFC 896 as BSD, macOS and Windows implement it: only when nothing at all
    /// is unacknowledged.
    Classic,
}

/// Receive-side settings of an endpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct ReceiverConfig {
    /// Window advertised in the SYN (unscaled, at most 65535).
    pub syn_window: u32,
    /// Initial receive buffer (`tcp_rmem[1]`), or the doubled `SO_RCVBUF` when locked.
    pub rcvbuf: u64,
    /// Autotuning ceiling (`tcp_rmem[2]`).
    pub rcvbuf_max: u64,
    /// `net.ipv4.tcp_moderate_rcvbuf` and no `SO_RCVBUF` lock.
    pub autotune: bool,
    /// How much of the buffer is offered as window (scaling_ratio or tcp_adv_win_scale).
    pub window_share: WindowShare,
    /// Window scale this host offers in its SYN (`tcp_select_initial_window`).
    pub wscale: u8,
    /// `net.ipv4.tcp_window_scaling`. Scaling is used only if both SYNs carry
    /// the option; otherwise no window exceeds 65535 bytes.
    pub window_scaling: bool,
    pub delayed_ack: DelayedAck,
    /// Route attribute `quickack 1` (or `TCP_QUICKACK` kept set): no delayed ACKs.
    pub quickack: bool,
    /// How fast the application reads, in bytes per second; `None`: at once.
    pub read_rate: Option<u64>,
}

impl ReceiverConfig {
    /// `tcp_select_initial_window`: the window scale is chosen once, for the
    /// largest buffer the socket could ever get (`max(tcp_rmem[2],
    /// net.core.rmem_max)`): ilog2(space) − 15, between 0 and 14.
    pub fn wscale_for(space: u64) -> u8 {
        (space.max(1 << 15).ilog2() - 15).min(14) as u8
    }

    /// `tcp_select_initial_window`: the window a SYN offers is what the receive
    /// buffer backs, at most 65535 (SYN windows are never scaled), rounded down
    /// to whole segments of advmss (MSS + 12 bytes of timestamps).
    pub fn initial_window(&self, mss: u32) -> u32 {
        let advmss = (mss + 12) as u64;
        let space = self.window_share.win_from_space(self.rcvbuf).min(65_535);
        let w = if space > advmss {
            space / advmss * advmss
        } else {
            space
        };
        w.max(1) as u32
    }
}

impl Default for ReceiverConfig {
    fn default() -> Self {
        ReceiverConfig {
            syn_window: DEFAULT_SYN_WINDOW,
            rcvbuf: TCP_RMEM_DEFAULT,
            rcvbuf_max: TCP_RMEM_MAX,
            autotune: true,
            window_share: WindowShare::ScalingRatio,
            wscale: DEFAULT_WSCALE,
            window_scaling: true,
            delayed_ack: DelayedAck::Linux,
            quickack: false,
            read_rate: None,
        }
    }
}

/// Send-side settings of an endpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct SenderConfig {
    /// Payload bytes per full segment.
    pub mss: u32,
    /// Initial congestion window in segments (route attribute `initcwnd`).
    pub initcwnd: u32,
    pub congestion_control: Algorithm,
    pub nagle: Nagle,
    /// `net.ipv4.tcp_slow_start_after_idle`: shrink cwnd after an idle period
    /// longer than the RTO (`tcp_cwnd_restart`).
    pub slow_start_after_idle: bool,
    /// `net.ipv4.tcp_retries2`: unanswered zero-window probes before giving up.
    pub retries2: u32,
    /// `sk_sndbuf`: `tcp_wmem[1]` at first, or the doubled `SO_SNDBUF`.
    pub sndbuf: u64,
    /// `tcp_wmem[2]`: the autotuning ceiling.
    pub sndbuf_max: u64,
    /// Send-buffer autotuning (off once `SO_SNDBUF` is set).
    pub sndbuf_autotune: bool,
    /// `TCP_CORK`: the application corks the socket while it writes a message
    /// and uncorks it after the last write, so partial segments wait for the rest.
    pub cork: bool,
    /// `net.ipv4.tcp_sack`: offer SACK in the SYN (used when both ends offer it).
    pub sack: bool,
    /// `net.core.default_qdisc = fq`: the qdisc paces every flow at its
    /// `sk_pacing_rate`. BBR paces without it (TCP's internal pacing).
    pub fq: bool,
    /// `tcp_notsent_lowat(tp)`: `TCP_NOTSENT_LOWAT` if set, else
    /// `net.ipv4.tcp_notsent_lowat` (UINT_MAX: no limit).
    pub notsent_lowat: u32,
}

impl Default for SenderConfig {
    fn default() -> Self {
        SenderConfig {
            mss: DEFAULT_MSS,
            initcwnd: TCP_INIT_CWND,
            congestion_control: Algorithm::default(),
            nagle: Nagle::Minshall,
            slow_start_after_idle: true,
            retries2: TCP_RETRIES2,
            sndbuf: TCP_WMEM_DEFAULT,
            sndbuf_max: TCP_WMEM_MAX,
            sndbuf_autotune: true,
            cork: false,
            sack: true,
            fq: false,
            notsent_lowat: u32::MAX,
        }
    }
}

/// One host's TCP settings: how it sends and how it receives. Each host sends
/// and receives (the client's request, the server's response), as in Linux.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostConfig {
    pub sender: SenderConfig,
    pub receiver: ReceiverConfig,
    /// What this host remembers about its peer between connections (tcp_metrics).
    pub metrics: crate::tcp::metrics::MetricsConfig,
    /// Where this host's kernel behaves differently from others (its era's
    /// switches, see [`super::Kernel`]).
    pub behaviour: super::Behaviour,
}

impl HostConfig {
    /// Checks one host's settings; `host` is `client` or `server`.
    pub fn validate(&self, host: &str) -> Result<(), ConfigError> {
        self.check().map_err(|e| e.within(host))
    }

    /// Checks one host's settings against the ranges the model supports. The
    /// key is relative to the host's section of a scenario file (`mss`,
    /// `route.initcwnd`, ...); [`HostConfig::validate`] prefixes the host.
    pub fn check(&self) -> Result<(), ConfigError> {
        check("mss", self.sender.mss, 64, 65_000, " B")?;
        check("route.initcwnd", self.sender.initcwnd, 1, 1_000, "")?;
        check(
            "sysctl.\"net.ipv4.tcp_retries2\"",
            self.sender.retries2,
            1,
            255,
            "",
        )?;
        check("syn_window", self.receiver.syn_window, 1, 65_535, " B")?;
        check("rcvbuf", self.receiver.rcvbuf, 2_048, 1 << 31, " B")?;
        check(
            "rcvbuf_max",
            self.receiver.rcvbuf_max,
            self.receiver.rcvbuf,
            1 << 31,
            " B",
        )?;
        check("wscale", self.receiver.wscale, 0, 14, "")?;
        Ok(())
    }
}
