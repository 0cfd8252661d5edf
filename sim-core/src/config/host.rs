//! One host's TCP as the socket uses it: how it sends ([`SenderConfig`]) and
//! how it receives ([`ReceiverConfig`]). These are *derived* values (the
//! doubled `SO_RCVBUF`, the window scale, the SYN window); the knobs an
//! administrator or application sets, and the kernel's rules that turn them
//! into these, are in [`super::HostSettings`].

use super::{
    ConfigError, DEFAULT_MSS, DEFAULT_SYN_WINDOW, DEFAULT_WSCALE, TCP_INIT_CWND, TCP_RETRIES2,
    TCP_RMEM_DEFAULT, TCP_RMEM_MAX, TCP_SYN_RETRIES, TCP_SYNACK_RETRIES, TCP_WMEM_DEFAULT,
    TCP_WMEM_MAX, check,
};
use super::{MSS_MAX, MSS_MIN};
use crate::cc::Algorithm;
use crate::tcp::receive_window::{RxTruesize, WindowShare};
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
    /// Window this host's SYN offers when it connects (unscaled, at most
    /// 65535), as [`HostSettings::finish`](super::HostSettings::finish) derived
    /// it for reports. The socket chooses its own window from the fields
    /// below (`tcp_select_initial_window`): a listener's SYN-ACK counts in
    /// 1448-byte segments, not 1460, so it may offer a little more.
    pub syn_window: u32,
    /// Initial receive buffer (`tcp_rmem[1]`), or the doubled `SO_RCVBUF` when locked.
    pub rcvbuf: u64,
    /// Autotuning ceiling (`tcp_rmem[2]`).
    pub rcvbuf_max: u64,
    /// `net.ipv4.tcp_moderate_rcvbuf` and no `SO_RCVBUF` lock.
    pub autotune: bool,
    /// `SO_RCVBUF` set the buffer (`SOCK_RCVBUF_LOCK`).
    pub locked: bool,
    /// `net.ipv4.tcp_rmem[2]`, which window growth reads even when
    /// `SO_RCVBUF` locked the buffer (`__tcp_grow_window`).
    pub tcp_rmem_max: u64,
    /// What each received segment costs the buffer (`skb->truesize`).
    pub rx_truesize: RxTruesize,
    /// Route attribute `initrwnd`, in segments of the peer's MSS.
    pub route_initrwnd: Option<u32>,
    /// Not a Linux knob: the most the first window may offer, as a reader
    /// picks it on a slider.
    pub syn_window_limit: Option<u32>,
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
    /// When the application stops reading, and resumes (seed 001's case 6).
    pub read_pause: Option<crate::tcp::reader::ReadPause>,
    /// How long an application that reads at once takes to wake up after
    /// data arrives (zero, the default: it has read before the next segment
    /// comes). A real one reads what has arrived by then in one go, and the
    /// ACK that read sends (`tcp_cleanup_rbuf`) covers all of it.
    pub read_wakeup: SimDuration,
    /// `SO_RCVBUF` as the application asked, before the cap and the doubling
    /// that made `rcvbuf` (`sk_rcvbuf_for`); kept for reports and widgets,
    /// which show what was asked next to what the socket got.
    pub so_rcvbuf: Option<u64>,
    /// `net.core.rmem_max`: the cap that request met.
    pub rmem_max: u64,
    /// Receive offload (GRO): in-order segments arriving within this long of
    /// each other become one skb, whose per-packet work (`rcv_mss`, quick
    /// ACKs, window growth, the ACK decision) runs once. The default is
    /// [`super::GRO_WINDOW_DEFAULT`], GRO being on in every Linux; zero: every
    /// segment is its own skb (GRO off, or a packetdrill script's tun device).
    pub gro_window: SimDuration,
}

impl ReceiverConfig {
    /// `tcp_select_initial_window`: the window scale is chosen once, for the
    /// largest buffer the socket could ever get (`max(tcp_rmem[2],
    /// net.core.rmem_max)`, or the locked `SO_RCVBUF` where the era clamps to
    /// it): ilog2(space) − 15, between 0 and 14.
    pub fn wscale_for(space: u64) -> u8 {
        (space.max(1 << 15).ilog2() - 15).min(14) as u8
    }
}

impl Default for ReceiverConfig {
    fn default() -> Self {
        ReceiverConfig {
            syn_window: DEFAULT_SYN_WINDOW,
            rcvbuf: TCP_RMEM_DEFAULT,
            rcvbuf_max: TCP_RMEM_MAX,
            autotune: true,
            locked: false,
            tcp_rmem_max: TCP_RMEM_MAX,
            rx_truesize: RxTruesize::Ideal,
            gro_window: super::GRO_WINDOW_DEFAULT,
            route_initrwnd: None,
            syn_window_limit: None,
            window_share: WindowShare::ScalingRatio,
            wscale: DEFAULT_WSCALE,
            window_scaling: true,
            delayed_ack: DelayedAck::Linux,
            quickack: false,
            read_rate: None,
            read_pause: None,
            read_wakeup: SimDuration::ZERO,
            so_rcvbuf: None,
            rmem_max: super::RMEM_MAX_DEFAULT,
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
    /// `net.ipv4.tcp_retries2`: how long retransmissions may go unanswered
    /// (`tcp_model_timeout`), and how many zero-window probes, before giving up.
    pub retries2: u32,
    /// `net.ipv4.tcp_syn_retries`: SYN retransmissions before `connect()` fails.
    pub syn_retries: u32,
    /// `net.ipv4.tcp_synack_retries`: SYN-ACK retransmissions before the
    /// listener drops the request.
    pub synack_retries: u32,
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
    /// `SO_SNDBUF` as the application asked, before the cap and the doubling
    /// that made `sndbuf` (`sk_sndbuf_for`); kept for reports and widgets.
    pub so_sndbuf: Option<u64>,
    /// `net.core.wmem_max`: the cap that request met.
    pub wmem_max: u64,
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
            syn_retries: TCP_SYN_RETRIES,
            synack_retries: TCP_SYNACK_RETRIES,
            sndbuf: TCP_WMEM_DEFAULT,
            sndbuf_max: TCP_WMEM_MAX,
            sndbuf_autotune: true,
            cork: false,
            sack: true,
            fq: false,
            notsent_lowat: u32::MAX,
            so_sndbuf: None,
            wmem_max: super::WMEM_MAX_DEFAULT,
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
    /// The era the host was built for (`HostSettings::for_kernel`); `None`:
    /// its settings named none (see [`super::Kernel::UNNAMED`]).
    pub kernel: Option<super::Kernel>,
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
        check("mss", self.sender.mss, MSS_MIN, MSS_MAX, " B")?;
        check("route.initcwnd", self.sender.initcwnd, 1, 1_000, "")?;
        check(
            "sysctl.\"net.ipv4.tcp_retries2\"",
            self.sender.retries2,
            1,
            255,
            "",
        )?;
        check(
            "sysctl.\"net.ipv4.tcp_syn_retries\"",
            self.sender.syn_retries,
            1,
            127,
            "",
        )?;
        check(
            "sysctl.\"net.ipv4.tcp_synack_retries\"",
            self.sender.synack_retries,
            0,
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
        if let RxTruesize::PerPacket(t) = self.receiver.rx_truesize {
            // A segment always costs more than its payload (and the kernel's
            // scaling_ratio must stay below 256).
            check(
                "rx_truesize",
                t as u64,
                self.sender.mss as u64 + 1,
                1 << 20,
                " B",
            )?;
        }
        Ok(())
    }
}
