//! A host's TCP settings as a Linux administrator and application set them,
//! by Linux's names, and the rules by which the kernel turns them into what
//! the socket uses.
//!
//! The setters only record what was set ([`Sysctls`], socket options, route
//! attributes, the stack's behaviour); [`HostSettings::finish`] derives
//! everything else at once, so the order of the calls never matters, as in a
//! scenario file where sysctls, socket options and routes are separate tables:
//!
//! - `SO_RCVBUF` / `SO_SNDBUF`: capped at `net.core.rmem_max` / `wmem_max`
//!   (their final values), doubled, at least `SOCK_MIN_RCVBUF` /
//!   `SOCK_MIN_SNDBUF`, and locked against autotuning (man 7 socket).
//! - the window scale: for `max(tcp_rmem[2], net.core.rmem_max)`, or for the
//!   locked buffer when `SO_RCVBUF` is set and the era clamps to it
//!   (`tcp_select_initial_window`).
//! - the SYN window: what the receive buffer backs, rounded down to advmss,
//!   capped as the era caps it (20 segments, 65535); route `initrwnd` may
//!   only lower what the buffer backs.
//!
//! Defaults come from a [`Sysctls`] table (`HostSettings::new`): the place
//! where a kernel era's defaults plug in. A rule that changed between kernels
//! belongs in `finish()`'s helpers below, each naming the kernel function it
//! follows.

use super::{
    Behaviour, ConfigError, DEFAULT_MSS, DelayedAck, Frto, HostConfig, InitialRwnd, Kernel, Nagle,
    NotsentLowat, OfoGrowth, Qdisc, ReceiverConfig, RxTruesize, SendSkbs, SenderConfig, Sysctls,
    TCP_INIT_CWND, Tlp, TsoSize, TxSkbHead, WindowShare,
};
use crate::cc::Algorithm;
use crate::cc::hystart::HyStartRules;
use crate::tcp::metrics::MetricsConfig;
use crate::tcp::receive_window::Drs;
use crate::tcp::receive_window::tcp_select_initial_window;
use crate::time::SimDuration;
use crate::timer_wheel::{Hz, TimerWheel};

/// Setters that only record what was set: each line `fn name(arg: T) =>
/// field = value;` is `pub fn name(&mut self, arg: T) { self.field = value; }`.
/// The kernel's rules run later, in `finish()`.
macro_rules! record {
    ($($(#[$doc:meta])* fn $name:ident($arg:ident: $ty:ty) => $($field:ident).+ = $value:expr;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(&mut self, $arg: $ty) {
                self.$($field).+ = $value;
            }
        )*
    };
}

/// What was set on one host: sysctls, socket options, route attributes and,
/// for cases that describe another stack, its Nagle variant and delayed-ACK
/// policy. Build one, call the setters in any order, then
/// [`finish`](HostSettings::finish).
///
/// The slow-start widget's client (a receive buffer and a SYN window from
/// two sliders; the buffer may allow less than the slider asks):
///
/// ```
/// use sim_core::config::{HostSettings, PAGE_SIZE, TCP_RMEM_MAX};
/// let (mss, rcvbuf, rwnd) = (1448, 16_384, 64_240);
/// let mut client = HostSettings::default();
/// client.set_mss(mss);
/// client.set_tcp_rmem([PAGE_SIZE, rcvbuf, TCP_RMEM_MAX.max(rcvbuf)]);
/// client.set_syn_window_limit(rwnd);
/// let client = client.finish().map_err(|e| e.within("client"))?;
/// // Half of 16 KiB backs the window: 8192 B, rounded down to 5 x 1460.
/// assert_eq!(client.receiver.syn_window, 7_300);
/// assert_eq!(client.receiver.rcvbuf, 16_384);
/// # Ok::<(), sim_core::config::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct HostSettings {
    sysctl: Sysctls,
    /// `SO_RCVBUF` as asked, before the kernel caps and doubles it.
    so_rcvbuf: Option<u64>,
    /// `SO_SNDBUF` as asked.
    so_sndbuf: Option<u64>,
    /// `TCP_NOTSENT_LOWAT` as set (0: unset, the sysctl applies).
    tcp_notsent_lowat: u32,
    tcp_cork: bool,
    tcp_nodelay: bool,
    tcp_quickack: bool,
    route_initcwnd: Option<u32>,
    route_initrwnd: Option<u32>,
    route_quickack: bool,
    /// The stack's Nagle variant when `TCP_NODELAY` is not set.
    nagle: Nagle,
    delayed_ack: DelayedAck,
    mss: u32,
    syn_window_limit: Option<u32>,
    /// What the host's network driver charges per received segment.
    /// `None`: a driver's buffer per frame for this host's MSS
    /// ([`RxTruesize::per_frame_for`]).
    rx_truesize: Option<RxTruesize>,
    /// Receive offload: see [`ReceiverConfig::gro_window`].
    gro_window: SimDuration,
    /// The kernel's behaviour switches (its era's, then any changed).
    behaviour: Behaviour,
    /// The era the defaults and switches came from (`None`: none named).
    kernel: Option<Kernel>,
}

impl Default for HostSettings {
    /// A host whose settings name no kernel, as booted: no socket option, no
    /// route attribute; the era is [`Kernel::UNNAMED`] (the model, until the
    /// flip).
    fn default() -> Self {
        HostSettings::for_era(Kernel::UNNAMED)
    }
}

impl HostSettings {
    /// A Linux host whose sysctls start at `defaults` (today's kernel:
    /// `Sysctls::default()`), with no socket option and no route attribute.
    pub fn new(defaults: Sysctls) -> Self {
        HostSettings {
            sysctl: defaults,
            so_rcvbuf: None,
            so_sndbuf: None,
            tcp_notsent_lowat: 0,
            tcp_cork: false,
            tcp_nodelay: false,
            tcp_quickack: false,
            route_initcwnd: None,
            route_initrwnd: None,
            route_quickack: false,
            nagle: Nagle::Minshall,
            delayed_ack: DelayedAck::Linux,
            mss: DEFAULT_MSS,
            syn_window_limit: None,
            rx_truesize: Some(RxTruesize::Ideal),
            gro_window: super::GRO_WINDOW_DEFAULT,
            behaviour: Behaviour::model(),
            kernel: None,
        }
    }

    /// A host running `kernel`: its era's sysctl defaults and behaviour, and
    /// a network driver that receives each frame into a buffer of its own
    /// ([`RxTruesize::per_frame_for`] its MSS: [`super::RX_TRUESIZE_DEFAULT`] at
    /// MTU 1500).
    pub fn for_kernel(kernel: Kernel) -> Self {
        HostSettings {
            behaviour: kernel.behaviour(),
            kernel: Some(kernel),
            rx_truesize: None,
            gro_window: kernel.gro_window(),
            ..HostSettings::new(kernel.sysctls())
        }
    }

    /// A host running `kernel`, or with `None` the model: `Sysctls::default()`
    /// and [`Behaviour::model`].
    pub fn for_era(kernel: Option<Kernel>) -> Self {
        match kernel {
            Some(k) => HostSettings::for_kernel(k),
            None => HostSettings::new(Sysctls::default()),
        }
    }

    /// A host for an era chosen where "none" cannot be said: a widget's
    /// `kernel` select, whose default is `today`. There `today` is the host
    /// that names no kernel ([`HostSettings::default`]), so a widget at its
    /// defaults keeps its output until the flip ([`Kernel::UNNAMED`]); after
    /// it, this is [`HostSettings::for_kernel`].
    pub fn for_kernel_choice(kernel: Kernel) -> Self {
        if kernel == Kernel::Today {
            HostSettings::default()
        } else {
            HostSettings::for_kernel(kernel)
        }
    }

    record! {
        // sysctl -w ...

        /// `net.ipv4.tcp_rmem = "min default max"` (man 7 tcp): `default` is the
        /// initial receive buffer, `max` the autotuning ceiling, and `max` also
        /// sizes the window scale.
        fn set_tcp_rmem(sizes: [u64; 3]) => sysctl.tcp_rmem = sizes;

        /// `net.ipv4.tcp_wmem = "min default max"`: the initial send buffer and
        /// its autotuning ceiling.
        fn set_tcp_wmem(sizes: [u64; 3]) => sysctl.tcp_wmem = sizes;

        /// `net.core.rmem_max` (man 7 socket): the cap on `SO_RCVBUF` requests.
        fn set_rmem_max(bytes: u64) => sysctl.rmem_max = bytes;

        /// `net.core.wmem_max`: the cap on `SO_SNDBUF` requests.
        fn set_wmem_max(bytes: u64) => sysctl.wmem_max = bytes;

        /// `net.ipv4.tcp_moderate_rcvbuf`: receive-buffer autotuning
        /// (`tcp_rcv_space_adjust`), unless `SO_RCVBUF` locks the buffer.
        fn set_tcp_moderate_rcvbuf(on: bool) => sysctl.tcp_moderate_rcvbuf = on;

        /// `net.ipv4.tcp_window_scaling`: offer window scaling (RFC 7323) in the SYN.
        fn set_tcp_window_scaling(on: bool) => sysctl.tcp_window_scaling = on;

        /// `net.ipv4.tcp_sack`: offer SACK (RFC 2018) in the SYN.
        fn set_tcp_sack(on: bool) => sysctl.tcp_sack = on;

        /// `net.core.default_qdisc`: with fq, every flow is paced at its `sk_pacing_rate`.
        fn set_default_qdisc(qdisc: Qdisc) => sysctl.default_qdisc = qdisc;

        /// `net.ipv4.tcp_congestion_control`.
        fn set_tcp_congestion_control(cc: Algorithm) => sysctl.tcp_congestion_control = cc;

        /// `net.ipv4.tcp_no_metrics_save`: 1 and `tcp_update_metrics` saves
        /// nothing about the peer when a connection closes.
        fn set_tcp_no_metrics_save(on: bool) => sysctl.tcp_no_metrics_save = on;

        /// `net.ipv4.tcp_no_ssthresh_metrics_save`: 1 and it saves no ssthresh.
        fn set_tcp_no_ssthresh_metrics_save(on: bool) => sysctl.tcp_no_ssthresh_metrics_save = on;

        /// `net.ipv4.tcp_retries2`: unanswered probes before the connection is
        /// dropped (`tcp_write_timeout`). `finish()` checks 1 to 255.
        fn set_tcp_retries2(retries: u32) => sysctl.tcp_retries2 = retries;

        /// `net.ipv4.tcp_syn_retries`: SYN retransmissions before `connect()`
        /// fails with ETIMEDOUT. `finish()` checks 1 to 127, the sysctl's range.
        fn set_tcp_syn_retries(retries: u32) => sysctl.tcp_syn_retries = retries;

        /// `net.ipv4.tcp_synack_retries`: SYN-ACK retransmissions before the
        /// listener silently forgets the request. `finish()` checks 0 to 255.
        fn set_tcp_synack_retries(retries: u32) => sysctl.tcp_synack_retries = retries;

        /// `net.ipv4.tcp_slow_start_after_idle`: shrink cwnd after an idle
        /// period longer than the RTO (`tcp_cwnd_restart`).
        fn set_tcp_slow_start_after_idle(on: bool) => sysctl.tcp_slow_start_after_idle = on;

        /// `net.ipv4.tcp_notsent_lowat` (3.12+; default UINT_MAX): the unsent
        /// bytes above which `write()` takes no new skb, for sockets without
        /// `TCP_NOTSENT_LOWAT`. `finish()` refuses 0, which would block every write.
        fn set_tcp_notsent_lowat(bytes: u32) => sysctl.tcp_notsent_lowat = bytes;

        // setsockopt(...)

        /// `setsockopt(SOL_SOCKET, SO_RCVBUF, asked)`: see [`sk_rcvbuf_for`] for
        /// what the socket gets.
        fn set_so_rcvbuf(asked: u64) => so_rcvbuf = Some(asked);

        /// `setsockopt(SOL_SOCKET, SO_SNDBUF, asked)`: see [`sk_sndbuf_for`].
        fn set_so_sndbuf(asked: u64) => so_sndbuf = Some(asked);

        /// `setsockopt(IPPROTO_TCP, TCP_NOTSENT_LOWAT, bytes)` (3.12+): as the
        /// sysctl, for this socket; 0 leaves the sysctl in charge (`tcp_notsent_lowat`).
        fn set_tcp_notsent_lowat_option(bytes: u32) => tcp_notsent_lowat = bytes;

        /// `TCP_CORK` (man 7 tcp): the application corks the socket while it
        /// writes a message and uncorks it after the last write.
        fn set_tcp_cork(on: bool) => tcp_cork = on;

        /// `TCP_NODELAY` (man 7 tcp): no Nagle, whatever the stack's variant.
        fn set_tcp_nodelay(on: bool) => tcp_nodelay = on;

        /// `TCP_QUICKACK` (man 7 tcp): no delayed ACKs. Linux clears it again when
        /// the connection turns interactive; applications re-set it after each
        /// read. The simulator keeps it set, as such an application would.
        fn set_tcp_quickack(on: bool) => tcp_quickack = on;

        // ip route change ... initcwnd N initrwnd N quickack 1

        /// Route attribute `initcwnd`: the initial congestion window in segments
        /// (default `TCP_INIT_CWND`, `tcp_init_cwnd`).
        fn set_route_initcwnd(segments: u32) => route_initcwnd = Some(segments);

        /// Route attribute `initrwnd`: the initial receive window in segments of
        /// advmss; see [`HostSettings::finish`] for how it meets the buffer.
        fn set_route_initrwnd(segments: u32) => route_initrwnd = Some(segments);

        /// Route attribute `quickack 1`: no delayed ACKs on this route.
        fn set_route_quickack(on: bool) => route_quickack = on;

        // The stack and the path

        /// Which Nagle variant the stack implements when `TCP_NODELAY` is not
        /// set: Linux's `Minshall` (the default) or BSD's `Classic`.
        fn set_nagle(nagle: Nagle) => nagle = nagle;

        /// The stack's delayed-ACK policy (Linux's by default).
        fn set_delayed_ack(policy: DelayedAck) => delayed_ack = policy;

        /// Payload bytes per full segment: path MTU − 52 (IPv4 20, TCP 20,
        /// timestamps 12). advmss, which the SYN window is counted in, is MSS + 12.
        fn set_mss(mss: u32) => mss = mss;

        /// Not a Linux knob: the window a SYN should offer, as a reader picks it
        /// on a slider. The buffer still decides first, as in
        /// `tcp_select_initial_window`, so the SYN offers at most this.
        fn set_syn_window_limit(bytes: u32) => syn_window_limit = Some(bytes);

        // Single behaviour switches, over the era's (see `Behaviour`)

        /// How `tcp_sendmsg` builds skbs and charges the send buffer.
        fn set_send_skbs(v: SendSkbs) => behaviour.send_skbs = v;

        /// The cap on the first windows advertised after the handshake.
        fn set_initial_rwnd(v: InitialRwnd) => behaviour.initial_rwnd = v;

        /// ACK a full-sized PSH segment as soon as it is read (6.6+).
        fn set_ack_pushed_full_segment(on: bool) => behaviour.ack_pushed_full_segment = on;

        /// The tail-loss probe's variant.
        fn set_tlp(v: Tlp) => behaviour.tlp = v;

        /// F-RTO's variant.
        fn set_frto(v: Frto) => behaviour.frto = v;

        /// RACK loss detection.
        fn set_rack(on: bool) => behaviour.rack = on;

        /// A locked small `SO_RCVBUF` clamps the scale the SYN offers.
        fn set_rcvbuf_lock_clamps_wscale(on: bool) => behaviour.rcvbuf_lock_clamps_wscale = on;

        /// Which connections grow their window on out-of-order data.
        fn set_ofo_grows_window(v: OfoGrowth) => behaviour.ofo_grows_window = v;

        /// `tcp_fixup_rcvbuf` (3.x–4.19) raises an unlocked buffer on ESTABLISHED.
        fn set_rcvbuf_fixup(on: bool) => behaviour.rcvbuf_fixup = on;

        // The host's network driver

        /// What each received segment costs the receive buffer (`skb->truesize`):
        /// [`RxTruesize::PerPacket`] with the bytes a driver charges per frame
        /// (2304 for a 2 KB buffer per frame, the usual case at MTU 1500; 4352
        /// for a 4 KB page per frame; less with GRO, which shares one skb
        /// among several segments). Kernels 6.6+ measure their window share
        /// from it (`scaling_ratio` = payload / truesize), and every kernel
        /// counts it against `sk_rcvbuf`. `finish()` checks that it exceeds the MSS.
        fn set_rx_truesize(v: RxTruesize) => rx_truesize = Some(v);
        /// Receive offload: segments arriving within `w` of each other make one skb.
        fn set_gro_window(w: SimDuration) => gro_window = w;
        /// SYN retransmissions at a constant RTO before backoff (6.5+: 4).
        fn set_syn_linear_timeouts(n: u32) => behaviour.syn_linear_timeouts = n;
        /// Quick replies that make a connection interactive (5.1 to 5.18: 3).
        fn set_pingpong_thresh(n: u32) => behaviour.pingpong_thresh = n;
        /// The timer wheel (4.8+ rounds a timer's expiry up).
        fn set_timer_wheel(v: TimerWheel) => behaviour.timer_wheel = v;
        /// `CONFIG_HZ`.
        fn set_hz(v: Hz) => behaviour.hz = v;
        /// The delayed ACK waits at most `TCP_DELACK_MAX` (5.10+).
        fn set_delack_max_cap(on: bool) => behaviour.delack_max_cap = on;
        /// CUBIC's HyStart rules.
        fn set_hystart(v: HyStartRules) => behaviour.hystart = v;
        /// Receive-buffer autotuning's sizing.
        fn set_drs(v: Drs) => behaviour.drs = v;

        /// One answer per 500 ms to out-of-window segments without data (4.0+).
        fn set_oow_rate_limit(on: bool) => behaviour.oow_rate_limit = on;

        /// The cached RTT and variance become srtt and rttvar (before 3.12).
        fn set_cached_rtt_seeds_estimator(on: bool) => behaviour.cached_rtt_seeds_estimator = on;

        /// Undo a spurious SYN-ACK timeout's cwnd of 1 (5.4+).
        fn set_spurious_syn_undo(on: bool) => behaviour.spurious_syn_undo = on;
        /// What a write-queue skb costs beyond its payload (with `SendSkbs::Gso`).
        fn set_tx_skb_head(v: TxSkbHead) => behaviour.tx_skb_head = v;

        /// How `tcp_write_xmit` sizes TSO packets (with `SendSkbs::Gso`).
        fn set_tso_size(v: TsoSize) => behaviour.tso_size = v;

        /// `tcp_check_space` after every ACK and transmission (with `SendSkbs::Gso`).
        fn set_check_space_on_send(on: bool) => behaviour.check_space_on_send = on;

        /// Whether the kernel has `TCP_NOTSENT_LOWAT`, and its wake-up rule.
        fn set_notsent_lowat(v: NotsentLowat) => behaviour.notsent_lowat = v;
    }

    // sysctl -w, with the sysctl's range checked

    /// `net.ipv4.tcp_adv_win_scale` (kernels before 6.6, `tcp_win_from_space`;
    /// today's kernel keeps the sysctl but ignores it for `scaling_ratio`).
    /// The sysctl's range is -31 to 31; the simulator does not take 0.
    pub fn set_tcp_adv_win_scale(&mut self, scale: i64) -> Result<(), ConfigError> {
        match scale {
            x @ -31..=31 if x != 0 => {
                self.sysctl.tcp_adv_win_scale = Some(x as i8);
                Ok(())
            }
            x => Err(ConfigError {
                key: "sysctl.\"net.ipv4.tcp_adv_win_scale\"".into(),
                message: format!("{x} is outside the allowed range -31 to 31 (not 0)"),
            }),
        }
    }

    /// What the kernel derives from the settings, checked against the ranges
    /// the model supports. An error's key is relative to the host's section
    /// of a scenario file (`mss`, `route.initcwnd`); [`ConfigError::within`]
    /// adds the host.
    pub fn finish(&self) -> Result<HostConfig, ConfigError> {
        self.check_notsent_lowat()?;
        let host = self.derive();
        host.check().map_err(|e| self.blame(e))?;
        Ok(host)
    }

    /// An error about a value the kernel derives (the receive buffer, its
    /// ceiling, the window scale, the SYN window), put on the knob the reader
    /// set it with: `SO_RCVBUF` if the socket asked for a buffer, else
    /// `tcp_rmem`. A reader who wrote `tcp_rmem = "1 1 1"` was told about
    /// `client.rcvbuf`, a key no scenario file has.
    fn blame(&self, e: ConfigError) -> ConfigError {
        let what = match e.key.as_str() {
            "rcvbuf" => "the receive buffer",
            "rcvbuf_max" => "the receive buffer's ceiling",
            "wscale" => "the window scale",
            "syn_window" => "the SYN's window",
            _ => return e,
        };
        let key = if self.so_rcvbuf.is_some() {
            "sockopt.SO_RCVBUF"
        } else {
            "sysctl.\"net.ipv4.tcp_rmem\""
        };
        ConfigError {
            key: key.into(),
            message: format!("{what} it gives: {}", e.message),
        }
    }

    /// `TCP_NOTSENT_LOWAT` and its sysctl exist from 3.12 on; a sysctl of 0
    /// would leave every `write()` blocked for good.
    fn check_notsent_lowat(&self) -> Result<(), ConfigError> {
        let sysctl_key = "sysctl.\"net.ipv4.tcp_notsent_lowat\"";
        let absent = self.behaviour.notsent_lowat == NotsentLowat::Absent;
        let not_in_kernel = |key: &str| ConfigError {
            key: key.into(),
            message: "this kernel has no TCP_NOTSENT_LOWAT (added in 3.12)".into(),
        };
        if absent && self.tcp_notsent_lowat != 0 {
            return Err(not_in_kernel("sockopt.TCP_NOTSENT_LOWAT"));
        }
        if absent && self.sysctl.tcp_notsent_lowat != u32::MAX {
            return Err(not_in_kernel(sysctl_key));
        }
        if self.sysctl.tcp_notsent_lowat == 0 {
            return Err(ConfigError {
                key: sysctl_key.into(),
                message: "0 would block every write; the range is 1 to 4294967295".into(),
            });
        }
        Ok(())
    }

    /// [`finish`](HostSettings::finish) without the range checks, for callers
    /// that leave them to `Scenario::validate` (the widgets: their scenario
    /// is validated when it starts simulating, and a bad one gets a message).
    pub fn derive(&self) -> HostConfig {
        HostConfig {
            sender: self.sender(),
            receiver: self.receiver(),
            metrics: MetricsConfig {
                save: !self.sysctl.tcp_no_metrics_save,
                save_ssthresh: !self.sysctl.tcp_no_ssthresh_metrics_save,
                seeds_estimator: self.behaviour.cached_rtt_seeds_estimator,
            },
            behaviour: self.behaviour.clone(),
            kernel: self.kernel,
        }
    }

    fn sender(&self) -> SenderConfig {
        let s = &self.sysctl;
        // SO_SNDBUF sets SOCK_SNDBUF_LOCK: tcp_sndbuf_expand leaves the buffer alone.
        let locked = self.so_sndbuf.map(|asked| sk_sndbuf_for(asked, s.wmem_max));
        let (sndbuf, sndbuf_max, sndbuf_autotune) = initial_buffer(locked, s.tcp_wmem, true);
        SenderConfig {
            mss: self.mss,
            initcwnd: self.route_initcwnd.unwrap_or(TCP_INIT_CWND),
            congestion_control: s.tcp_congestion_control.clone(),
            nagle: if self.tcp_nodelay {
                Nagle::Off
            } else {
                self.nagle
            },
            slow_start_after_idle: s.tcp_slow_start_after_idle,
            retries2: s.tcp_retries2,
            syn_retries: s.tcp_syn_retries,
            synack_retries: s.tcp_synack_retries,
            sndbuf,
            sndbuf_max,
            sndbuf_autotune,
            cork: self.tcp_cork,
            sack: s.tcp_sack,
            fq: s.default_qdisc.paces(),
            notsent_lowat: self.notsent_lowat(),
            so_sndbuf: self.so_sndbuf,
            wmem_max: s.wmem_max,
        }
    }

    /// `tcp_notsent_lowat(tp)`: the socket option if set, else the sysctl;
    /// no limit on kernels without either.
    fn notsent_lowat(&self) -> u32 {
        if self.behaviour.notsent_lowat == NotsentLowat::Absent {
            return u32::MAX;
        }
        match self.tcp_notsent_lowat {
            0 => self.sysctl.tcp_notsent_lowat,
            v => v,
        }
    }

    fn receiver(&self) -> ReceiverConfig {
        let s = &self.sysctl;
        // SO_RCVBUF sets SOCK_RCVBUF_LOCK: tcp_rcv_space_adjust no longer
        // grows the buffer.
        let locked = self.so_rcvbuf.map(|asked| sk_rcvbuf_for(asked, s.rmem_max));
        let (rcvbuf, rcvbuf_max, autotune) =
            initial_buffer(locked, s.tcp_rmem, s.tcp_moderate_rcvbuf);
        // 6.6 (dfa2f0483360) stopped reading tcp_adv_win_scale: today's
        // kernel measures scaling_ratio whatever the sysctl says.
        let window_share = match (self.kernel, s.tcp_adv_win_scale) {
            (Some(Kernel::Today), _) | (_, None) => WindowShare::ScalingRatio,
            (_, Some(n)) => WindowShare::AdvWinScale(n),
        };
        let mut receiver = ReceiverConfig {
            syn_window: 0, // from the buffer, below
            rcvbuf,
            rcvbuf_max,
            autotune,
            locked: locked.is_some(),
            tcp_rmem_max: s.tcp_rmem[2],
            rx_truesize: self
                .rx_truesize
                .unwrap_or(RxTruesize::per_frame_for(self.mss)),
            route_initrwnd: self.route_initrwnd,
            syn_window_limit: self.syn_window_limit,
            window_share,
            wscale: self.rcv_wscale(window_share.win_from_space(rcvbuf), locked.is_some()),
            window_scaling: s.tcp_window_scaling,
            delayed_ack: self.delayed_ack.clone(),
            quickack: self.tcp_quickack || self.route_quickack,
            read_rate: None,
            read_pause: None,
            read_wakeup: SimDuration::ZERO,
            so_rcvbuf: self.so_rcvbuf,
            rmem_max: s.rmem_max,
            gro_window: self.gro_window,
        };
        // What an active open's SYN offers (advmss = MSS + timestamps).
        let first = tcp_select_initial_window(&receiver, &self.behaviour, self.mss as u64 + 12);
        receiver.syn_window = first.rcv_wnd.min(65_535) as u32;
        receiver
    }

    /// The window scale the SYN offers (`tcp_select_initial_window`): for the
    /// largest buffer the socket could get, `max(tcp_rmem[2],
    /// net.core.rmem_max)`, unless `SO_RCVBUF` locked a smaller one before
    /// `connect()`/`listen()` and the kernel clamps the window to it (3.x and
    /// later: then an 8 KiB `SO_RCVBUF` offers scale 0).
    fn rcv_wscale(&self, full_space: u64, locked: bool) -> u8 {
        let s = &self.sysctl;
        let mut space = s.tcp_rmem[2].max(s.rmem_max).max(full_space);
        if locked && self.behaviour.rcvbuf_lock_clamps_wscale {
            space = space.min(full_space);
        }
        ReceiverConfig::wscale_for(space)
    }
}

/// A socket's first buffer, its ceiling and whether it autotunes: the buffer
/// `SO_*BUF` locked it at, which then never grows; or `tcp_*mem[1]`, which
/// autotuning may grow up to `tcp_*mem[2]`.
fn initial_buffer(locked: Option<u64>, tcp_mem: [u64; 3], autotune: bool) -> (u64, u64, bool) {
    match locked {
        Some(buf) => (buf, buf, false),
        None => (tcp_mem[1], tcp_mem[2], autotune),
    }
}

/// `SOCK_MIN_RCVBUF` (include/net/sock.h): 2048 + sizeof(struct sk_buff), the
/// least `SO_RCVBUF` leaves a socket.
pub const SOCK_MIN_RCVBUF: u64 = 2_304;
/// `SOCK_MIN_SNDBUF` (include/net/sock.h): twice `TCP_SKB_MIN_TRUESIZE`, the
/// least `SO_SNDBUF` leaves a socket.
pub const SOCK_MIN_SNDBUF: u64 = 4_608;

/// `sk_rcvbuf` after `setsockopt(SO_RCVBUF, asked)` (`sock_setsockopt` →
/// `__sock_set_rcvbuf`, net/core/sock.c; man 7 socket): capped at
/// `net.core.rmem_max`, doubled "to allow space for bookkeeping overhead",
/// and at least `SOCK_MIN_RCVBUF`.
pub fn sk_rcvbuf_for(asked: u64, rmem_max: u64) -> u64 {
    (asked.min(rmem_max) * 2).max(SOCK_MIN_RCVBUF)
}

/// `sk_sndbuf` after `setsockopt(SO_SNDBUF, asked)` (`sock_setsockopt`,
/// net/core/sock.c; man 7 socket): capped at `net.core.wmem_max`, doubled,
/// and at least `SOCK_MIN_SNDBUF`.
pub fn sk_sndbuf_for(asked: u64, wmem_max: u64) -> u64 {
    (asked.min(wmem_max) * 2).max(SOCK_MIN_SNDBUF)
}

#[cfg(test)]
mod tests;
