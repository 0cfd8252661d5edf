//! What a run simulates: the path, the two endpoints' settings and the
//! application. Defaults are Linux 6.x defaults; every value a reader can set
//! is checked by [`Scenario::validate`] so that bad input gets a message, not a
//! panic.
//!
//! A host's settings come in two layers, as in Linux:
//!
//! ```text
//!  sysctl -w, setsockopt,     HostSettings          finish()         HostConfig
//!  ip route, the stack   ──►  (raw knobs, by   ──────────────────►  (what the socket
//!  (set_* by Linux name)       Linux name)     kernel's rules:       uses: sk_rcvbuf,
//!                                              SO_*BUF doubling,     wscale, SYN window)
//!                                              wscale, SYN window
//! ```
//!
//! - `path.rs`: [`PathConfig`], the bottleneck between the hosts.
//! - `sysctl.rs`: [`Sysctls`], the raw sysctl values and their defaults.
//! - `host_settings.rs`: [`HostSettings`], the setters and `finish()`.
//! - `host.rs`: [`HostConfig`], the derived settings the socket reads.
//! - `app.rs`: [`RequestResponse`], what the applications write.
//! - `kernel.rs`: [`Kernel`], the eras, their defaults and behaviour switches.
//! - `knobs/`: the Linux knobs the book touches, in one table.

mod app;
mod host;
mod host_settings;
mod kernel;
pub mod knobs;
mod path;
mod switch_values;
mod sysctl;

pub use crate::tcp::receive_window::{RX_TRUESIZE_DEFAULT, RxTruesize, WindowShare};
pub use app::{ChunkedWrites, Pacing, RequestResponse};
pub use host::{DelayedAck, HostConfig, Nagle, ReceiverConfig, SenderConfig};
pub use host_settings::{
    HostSettings, SOCK_MIN_RCVBUF, SOCK_MIN_SNDBUF, sk_rcvbuf_for, sk_sndbuf_for,
};
pub use kernel::{Behaviour, Kernel};
pub use path::{
    Direction, DropRule, DropTarget, LossDirection, LossPosition, MAX_DROP_RULES, MAX_OUTAGES,
    Outage, PathConfig, Transmission,
};
pub(crate) use switch_values::value_names;
pub use switch_values::{
    Frto, InitialRwnd, NotsentLowat, OfoGrowth, SendSkbs, Tlp, TsoSize, TxSkbHead,
};
pub use sysctl::{Qdisc, Sysctls};

use crate::time::SimDuration;

/// `TCP_INIT_CWND` (include/net/tcp.h, RFC 6928).
pub const TCP_INIT_CWND: u32 = 10;
/// The usual payload per segment: 1500-byte MTU - 40 bytes of IP/TCP - 12 of timestamps.
pub const DEFAULT_MSS: u32 = 1448;

/// The smallest MSS the model takes (a host's `mss`, or a `path.mtu` less
/// the headers).
pub const MSS_MIN: u32 = 64;
/// The largest MSS the model takes, likewise.
pub const MSS_MAX: u32 = 65_000;
/// The largest bottleneck queue the model takes (4 GiB).
pub const MAX_QUEUE_BYTES: u64 = 1 << 32;
/// What a Linux client advertises in its SYN with default buffers: half of
/// `tcp_rmem[1]` (65536) rounded down to whole 1460-byte segments (44 x 1460),
/// see `tcp_select_initial_window`. A listener counts 1448-byte segments and
/// offers 65160.
pub const DEFAULT_SYN_WINDOW: u32 = 64_240;
/// The first of `net.ipv4.tcp_wmem` and `tcp_rmem`: one page (`tcp_init`, net/ipv4/tcp.c).
pub const PAGE_SIZE: u64 = 4_096;
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
/// `TCP_SYN_RETRIES`, the `net.ipv4.tcp_syn_retries` default since 3.7
/// ("tcp: Increase timeout for SYN segments"; 5 before).
pub const TCP_SYN_RETRIES: u32 = 6;
/// `TCP_SYNACK_RETRIES`, the `net.ipv4.tcp_synack_retries` default.
pub const TCP_SYNACK_RETRIES: u32 = 5;
/// `TCP_RTO_MAX`: 120 s.
pub const TCP_RTO_MAX: SimDuration = SimDuration::from_secs(120);
/// Linux's default `txqueuelen` is 1000 packets; at 1500 bytes that is this many bytes.
pub const DEFAULT_QUEUE_BYTES: u64 = 1000 * 1500;
/// Window scale both ends offer with default buffers (`tcp_rmem[2]` = 6 MB needs 7).
pub const DEFAULT_WSCALE: u8 = 7;
/// How long a receiving host's GRO keeps gathering in-order segments into
/// one skb: Linux turns GRO on for every device (`NETIF_F_GRO` is in
/// `NETIF_F_SOFT_FEATURES`, set by `register_netdevice` since 2.6.29), and a
/// NAPI poll hands up what arrived since the last interrupt, which network
/// cards coalesce over some microseconds (`ethtool -c`: `rx-usecs`). 20 µs
/// gathers back-to-back segments at 1 Gbit/s (12 µs apart) and none at
/// 100 Mbit/s (120 µs apart).
pub const GRO_WINDOW_DEFAULT: SimDuration = SimDuration::from_micros(20);

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
    /// Per-flow congestion control, as a socket's `TCP_CONGESTION` option
    /// overrides `net.ipv4.tcp_congestion_control` (`do_tcp_setsockopt` →
    /// `tcp_set_congestion_control`): flow `i` runs entry `i % len`. Empty:
    /// every flow runs the server's default.
    pub flow_congestion_control: Vec<crate::cc::Kind>,
    /// Whether the run ends when a host gives its connection up, or goes
    /// on to show what the peer meets.
    pub after_give_up: AfterGiveUp,
}

/// What the run does once a host has given its connection up
/// (`tcp_write_err` → `tcp_done`). Linux closes that socket silently, no
/// RST, no FIN: the peer still holds its end, and the first segment it
/// sends later finds no socket and is answered with a RST.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AfterGiveUp {
    /// The run ends at the give-up, its outcome the limit reached: all a
    /// reader needs when the question is how long a host waits.
    #[default]
    End,
    /// The run goes on until both ends of a connection are closed (the
    /// survivor reset by the RST its next segment draws) or the time
    /// limit: seed 001's case 6, where the client's window update meets a
    /// server that gave up long before.
    Continue,
}

impl AfterGiveUp {
    pub fn name(self) -> &'static str {
        match self {
            AfterGiveUp::End => "end",
            AfterGiveUp::Continue => "continue",
        }
    }
}

impl Default for Scenario {
    /// Seed 004's setup: 512 KiB over ~7 ms RTT at 1 Gbit/s, between two
    /// of the simulator's model hosts (`HostConfig::default()`: the hosts
    /// before it knew kernel eras, which many tests set field by field). A
    /// scenario file or a widget builds today's hosts through `HostSettings`.
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
                tcp_metrics_flush_before: None,
            },
            time_limit: SimDuration::from_secs(600),
            trace_packet_budget: crate::trace::DEFAULT_PACKET_BUDGET,
            seed: 1,
            flows: 1,
            sample_interval: SimDuration::from_millis(100),
            flow_congestion_control: Vec::new(),
            after_give_up: AfterGiveUp::End,
        }
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

impl ConfigError {
    /// The same error with its key inside a section: a host's relative key
    /// `mss` becomes `client.mss`.
    pub fn within(self, section: &str) -> Self {
        ConfigError {
            key: format!("{section}.{}", self.key),
            message: self.message,
        }
    }
}

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
                message: format!(
                    "{} is outside the allowed range 0 to 0.5",
                    crate::decimal_text::shortest(self.path.loss)
                ),
            });
        }
        check(
            "path.queue",
            self.path.queue_bytes,
            0,
            MAX_QUEUE_BYTES,
            " B",
        )?;
        for (host, h) in [("client", &self.client), ("server", &self.server)] {
            h.validate(host)?;
        }
        check("app.request", self.app.request_bytes(), 0, 1 << 30, " B")?;
        check("app.response", self.app.response_bytes(), 1, 1 << 34, " B")?;
        check("app.request", self.app.request.len(), 0, 1000, " writes")?;
        check("app.response", self.app.response.len(), 1, 1000, " writes")?;
        check("app.repeat", self.app.repeat, 1, 10_000, "")?;
        let (Pacing::Every(d) | Pacing::After(d)) = self.app.pacing;
        // Up to two hours: past TCP_METRICS_TIMEOUT, so a cache can age out.
        check("app.gap", d.0, 0, 7_200_000_000_000, " ns")?;
        if let Some(k) = self.app.tcp_metrics_flush_before {
            check("app.tcp_metrics_flush_before", k, 1, self.app.repeat, "")?;
        }
        if let Some(n) = self.path.loss_connections {
            check("path.loss_connections", n, 1, self.app.repeat, "")?;
        }
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
        // A day: room for connections hours apart (tcp_metrics' ageing).
        check(
            "time_limit",
            self.time_limit.0,
            1,
            86_400_000_000_000,
            " ns",
        )?;
        check("flows", self.flows, 1, 64, "")?;
        check(
            "flow_congestion_control",
            self.flow_congestion_control.len(),
            0,
            64,
            " entries",
        )?;
        let connections = if self.app.new_connection {
            self.app.repeat
        } else {
            1
        };
        self.path.validate_drops(self.flows, connections)?;
        self.path.validate_outages()?;
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
