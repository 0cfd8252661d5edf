//! What a run simulates: the path, the two endpoints' settings and the
//! application. Defaults are Linux 6.x defaults; every value a reader can set
//! is checked by [`Scenario::validate`] so that bad input gets a message, not a
//! panic.

use crate::cc::Algorithm;
pub use crate::tcp::receive_window::WindowShare;
use crate::time::SimDuration;

/// `TCP_INIT_CWND` (include/net/tcp.h, RFC 6928).
pub const TCP_INIT_CWND: u32 = 10;
/// The usual payload per segment: 1500-byte MTU - 40 bytes of IP/TCP - 12 of timestamps.
pub const DEFAULT_MSS: u32 = 1448;
/// What a Linux client advertises in its SYN with default buffers: 65535 rounded
/// down to a multiple of the 1460-byte MSS (44 x 1460), see `tcp_select_initial_window`.
pub const DEFAULT_SYN_WINDOW: u32 = 64_240;
/// `net.ipv4.tcp_wmem` = 4096 16384 4194304.
pub const TCP_WMEM_DEFAULT: u64 = 16_384;
pub const TCP_WMEM_MAX: u64 = 4_194_304;
/// `net.ipv4.tcp_rmem` = 4096 131072 6291456 in current kernels.
pub const TCP_RMEM_DEFAULT: u64 = 131_072;
pub const TCP_RMEM_MAX: u64 = 6_291_456;
/// `net.core.rmem_max` default: the cap on `SO_RCVBUF` requests.
pub const RMEM_MAX_DEFAULT: u64 = 212_992;
/// `net.core.wmem_max` default: the cap on `SO_SNDBUF` requests.
pub const WMEM_MAX_DEFAULT: u64 = 212_992;
/// `TCP_DELACK_MIN` (include/net/tcp.h): HZ/25 = 40 ms.
pub const TCP_DELACK_MIN: SimDuration = SimDuration::from_millis(40);
/// `TCP_TIMEOUT_INIT`: 1 s before any RTT sample (RFC 6298 2.1).
pub const TCP_TIMEOUT_INIT: SimDuration = SimDuration::from_secs(1);
/// `TCP_RTO_MIN`: 200 ms.
pub const TCP_RTO_MIN: SimDuration = SimDuration::from_millis(200);
/// `net.ipv4.tcp_retries2` default.
pub const TCP_RETRIES2: u32 = 15;
/// `TCP_RTO_MAX`: 120 s.
pub const TCP_RTO_MAX: SimDuration = SimDuration::from_secs(120);
/// Linux's default `txqueuelen` is 1000 packets; at 1500 bytes that is this many bytes.
pub const DEFAULT_QUEUE_BYTES: u64 = 1000 * 1500;
/// Window scale both ends offer with default buffers (tcp_rmem[2] = 6 MB needs 7).
pub const DEFAULT_WSCALE: u8 = 7;

/// The path between client and server: one bottleneck each way.
#[derive(Clone, Debug, PartialEq)]
pub struct PathConfig {
    pub rate_bps: u64,
    /// Propagation delay client → server.
    pub delay_forward: SimDuration,
    /// Propagation delay server → client.
    pub delay_reverse: SimDuration,
    /// Drop-tail queue capacity in bytes, each direction.
    pub queue_bytes: u64,
    /// Probability that a packet is lost on the way, each direction (seeded).
    pub loss: f64,
    /// Random loss happens only before this time (a lossy episode); `None`: always.
    pub loss_until: Option<SimDuration>,
}

impl PathConfig {
    /// A symmetric path with the given round-trip propagation delay.
    pub fn symmetric(rate_bps: u64, rtt: SimDuration) -> Self {
        let half = SimDuration(rtt.0 / 2);
        PathConfig {
            rate_bps,
            delay_forward: half,
            delay_reverse: SimDuration(rtt.0 - half.0),
            queue_bytes: DEFAULT_QUEUE_BYTES,
            loss: 0.0,
            loss_until: None,
        }
    }

    pub fn rtt(&self) -> SimDuration {
        self.delay_forward + self.delay_reverse
    }
}

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
        }
    }
}

/// Request and response: the client writes the request, the server answers
/// once the whole request has arrived (with no request, the server pushes the
/// response as soon as the connection is up). Each is a list of `write()`
/// calls made back to back (an HTTP header, then its body), because where one
/// write ends decides what Nagle may hold back. The exchange happens `repeat`
/// times on the same connection, paced by [`Pacing`].
#[derive(Clone, Debug, PartialEq)]
pub struct RequestResponse {
    pub request: Vec<u64>,
    pub response: Vec<u64>,
    pub repeat: u32,
    pub pacing: Pacing,
    /// Open a new connection for each exchange (and close the last one), rather
    /// than reusing one.
    pub new_connection: bool,
    /// How each side's application hands its writes to the socket: whole
    /// (`None`), or through an RPC framework's fixed-size buffer.
    pub client_writes: Option<ChunkedWrites>,
    pub server_writes: Option<ChunkedWrites>,
}

/// An RPC framework's transfer buffer (seed 002's `transbuf`): every write of
/// the application reaches the socket as `write()` calls of at most `size`
/// bytes, each made `cost` after the previous one returned. See [`crate::writer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkedWrites {
    pub size: u64,
    /// The framework's work per chunk (copying, encoding, the system call).
    pub cost: SimDuration,
}

/// When the next exchange of a repeated transfer starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pacing {
    /// This long after the previous one started (a timer-driven push: write, sleep, write).
    Every(SimDuration),
    /// This long after the previous one completed (a request loop with think time).
    After(SimDuration),
}

impl RequestResponse {
    pub fn request_bytes(&self) -> u64 {
        self.request.iter().sum()
    }
    pub fn response_bytes(&self) -> u64 {
        self.response.iter().sum()
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
}

#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub path: PathConfig,
    /// Opens the connection and sends the request; receives the response.
    pub client: HostConfig,
    /// Accepts the connection and sends the response.
    pub server: HostConfig,
    pub app: RequestResponse,
    /// Stop the run here even if the transfer has not finished.
    pub time_limit: SimDuration,
    /// Per-packet trace records to keep (the rest are counted and hashed only).
    pub trace_packet_budget: usize,
    /// Seed for the path's random loss.
    pub seed: u64,
    /// Identical connections running the same application side by side,
    /// sharing the path (as `iperf3 -P`); flow 0 is the one single-flow
    /// readings describe.
    pub flows: u32,
    /// How often each flow's progress is sampled into the trace (bytes
    /// delivered, retransmissions, cwnd, RTT, pacing), for iperf-style
    /// reports that must cover runs too long to keep every packet.
    pub sample_interval: SimDuration,
}

impl Default for Scenario {
    /// Seed 004's setup: 512 KiB over ~7 ms RTT at 1 Gbit/s, Linux defaults.
    fn default() -> Self {
        Scenario {
            path: PathConfig::symmetric(1_000_000_000, SimDuration::from_millis(7)),
            client: HostConfig::default(),
            server: HostConfig::default(),
            app: RequestResponse {
                request: vec![147],
                response: vec![512 * 1024],
                repeat: 1,
                pacing: Pacing::Every(SimDuration::ZERO),
                new_connection: false,
                client_writes: None,
                server_writes: None,
            },
            time_limit: SimDuration::from_secs(600),
            trace_packet_budget: crate::trace::DEFAULT_PACKET_BUDGET,
            seed: 1,
            flows: 1,
            sample_interval: SimDuration::from_millis(100),
        }
    }
}

impl HostConfig {
    /// Checks one host's settings; `host` is `client` or `server`.
    pub fn validate(&self, host: &str) -> Result<(), ConfigError> {
        let key = |k: &str| format!("{host}.{k}");
        check(&key("mss"), self.sender.mss, 64, 65_000, " B")?;
        check(&key("route.initcwnd"), self.sender.initcwnd, 1, 1_000, "")?;
        check(
            &key("sysctl.\"net.ipv4.tcp_retries2\""),
            self.sender.retries2,
            1,
            255,
            "",
        )?;
        check(
            &key("syn_window"),
            self.receiver.syn_window,
            1,
            65_535,
            " B",
        )?;
        check(&key("rcvbuf"), self.receiver.rcvbuf, 2_048, 1 << 31, " B")?;
        check(
            &key("rcvbuf_max"),
            self.receiver.rcvbuf_max,
            self.receiver.rcvbuf,
            1 << 31,
            " B",
        )?;
        check(&key("wscale"), self.receiver.wscale, 0, 14, "")?;
        Ok(())
    }
}

/// A setting outside what the simulator accepts, naming the key (as scenario
/// files spell it) and the allowed range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub key: String,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

impl std::error::Error for ConfigError {}

fn check<T: PartialOrd + std::fmt::Display>(
    key: &str,
    v: T,
    lo: T,
    hi: T,
    unit: &str,
) -> Result<(), ConfigError> {
    if v < lo || v > hi {
        return Err(ConfigError {
            key: key.to_string(),
            message: format!("{v}{unit} is outside the allowed range {lo}{unit} to {hi}{unit}"),
        });
    }
    Ok(())
}

impl Scenario {
    /// Checks every value against the range the model supports.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(
            "path.rate",
            self.path.rate_bps,
            1_000,
            100_000_000_000,
            " bit/s",
        )?;
        check(
            "path.rtt",
            self.path.delay_forward.0.max(self.path.delay_reverse.0),
            0,
            10_000_000_000,
            " ns",
        )?;
        if !(0.0..=0.5).contains(&self.path.loss) {
            return Err(ConfigError {
                key: "path.loss".into(),
                message: format!("{} is outside the allowed range 0 to 0.5", self.path.loss),
            });
        }
        check("path.queue", self.path.queue_bytes, 0, 1 << 32, " B")?;
        for (host, h) in [("client", &self.client), ("server", &self.server)] {
            h.validate(host)?;
        }
        check("app.request", self.app.request_bytes(), 0, 1 << 30, " B")?;
        check("app.response", self.app.response_bytes(), 1, 1 << 34, " B")?;
        check("app.request", self.app.request.len(), 0, 1000, " writes")?;
        check("app.response", self.app.response.len(), 1, 1000, " writes")?;
        check("app.repeat", self.app.repeat, 1, 10_000, "")?;
        let (Pacing::Every(d) | Pacing::After(d)) = self.app.pacing;
        check("app.gap", d.0, 0, 3_600_000_000_000, " ns")?;
        for (host, w) in [
            ("client", self.app.client_writes),
            ("server", self.app.server_writes),
        ] {
            if let Some(w) = w {
                check(
                    &format!("app.{host}_write_buffer"),
                    w.size,
                    1,
                    1 << 30,
                    " B",
                )?;
                check(
                    &format!("app.{host}_write_cost"),
                    w.cost.0,
                    0,
                    1_000_000_000,
                    " ns",
                )?;
            }
        }
        check("time_limit", self.time_limit.0, 1, 3_600_000_000_000, " ns")?;
        check("flows", self.flows, 1, 64, "")?;
        check(
            "sample_interval",
            self.sample_interval.0,
            // 50 µs: twenty samples per round trip on a 1 ms path (the
            // widgets' buffer bars); finer would only fill memory.
            50_000,
            3_600_000_000_000,
            " ns",
        )?;
        Ok(())
    }
}
