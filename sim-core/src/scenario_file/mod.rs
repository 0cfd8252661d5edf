//! Scenario files: TOML whose keys are Linux's own names.
//!
//! ```toml
//! format = 1
//! name = "seed-004-7ms"
//!
//! [path]
//! rate = "1Gbit"
//! rtt = "7ms"
//!
//! [server.route]
//! initcwnd = 10                                  # ip route ... initcwnd 10
//!
//! [client.sysctl]
//! "net.ipv4.tcp_rmem" = "4096 131072 6291456"    # sysctl -w net.ipv4.tcp_rmem=...
//!
//! [client.sockopt]
//! SO_RCVBUF = "64KiB"                            # setsockopt(SOL_SOCKET, SO_RCVBUF)
//!
//! [app]
//! type = "request-response"
//! request = "147B"
//! response = "512KiB"
//! ```
//!
//! Quantities carry their units (`"7ms"`, `"100Mbit"`, `"16KiB"`). Every key
//! is checked: an unknown key, a malformed value or one out of range is an
//! error that names the key and what is allowed. The appendix "Scenario file
//! reference" documents the format; `scenarios/scenario.schema.json` is its
//! JSON Schema (`tcpsim schema`).

use crate::cc::Algorithm;
use crate::config::{
    ChunkedWrites, ConfigError, DelayedAck, HostConfig, Nagle, Pacing, PathConfig, ReceiverConfig,
    RequestResponse, Scenario, WindowShare,
};
use crate::segment::HEADER_BYTES;
use crate::time::SimDuration;
use crate::units::{parse_bytes, parse_duration, parse_rate};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The format version this code reads.
pub const FORMAT: u32 = 1;

pub use crate::config::{RMEM_MAX_DEFAULT, WMEM_MAX_DEFAULT};

/// A scenario file as written.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Format version: 1.
    pub format: u32,
    /// Short identifier, e.g. the seed case it reproduces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Seed for the path's random loss (default 1): the same seed, the same run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Stop after this much simulated time, e.g. "600s" (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit: Option<String>,
    /// Identical connections side by side sharing the path, as `iperf3 -P N`
    /// (default 1, at most 64).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flows: Option<u32>,
    /// How often each flow is sampled for the iperf report and the time
    /// series, e.g. "100ms" (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample_interval: Option<String>,
    pub path: PathSection,
    #[serde(default)]
    pub client: HostSection,
    #[serde(default)]
    pub server: HostSection,
    pub app: AppSection,
}

/// The bottleneck between client and server (the same in each direction).
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathSection {
    /// Bottleneck rate, e.g. "1Gbit", "100Mbit" (tc's units).
    pub rate: String,
    /// Round-trip propagation delay, split evenly, e.g. "7ms". Or give both one-way delays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rtt: Option<String>,
    /// One-way delay client → server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_forward: Option<String>,
    /// One-way delay server → client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delay_reverse: Option<String>,
    /// Drop-tail queue size in bytes, e.g. "1.5MB" (default: 1000 packets of 1500 bytes,
    /// Linux's txqueuelen). Or give `queue_bdp`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<String>,
    /// Drop-tail queue as a multiple of the bandwidth-delay product.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_bdp: Option<f64>,
    /// Probability that a packet is lost on the way, each direction, e.g. 0.0001.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss: Option<f64>,
    /// Random loss only before this time, e.g. "2s" (a lossy episode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss_until: Option<String>,
    /// Path MTU in bytes (route attribute `mtu`); payload per segment is MTU − 52
    /// (IPv4 20, TCP 20, timestamps 12). Default 1500.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mtu: Option<u32>,
}

/// One host's settings, by the names Linux gives them.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HostSection {
    /// sysctl names, e.g. "net.ipv4.tcp_rmem" = "4096 131072 6291456".
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sysctl: BTreeMap<String, Value>,
    /// Socket options, e.g. SO_RCVBUF = "64KiB".
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sockopt: BTreeMap<String, Value>,
    /// Route attributes (`ip route change ... initcwnd N initrwnd N quickack 1`).
    #[serde(default)]
    pub route: RouteSection,
    /// Behaviour of a stack other than Linux, for cases that describe one.
    #[serde(default)]
    pub stack: StackSection,
}

/// Where a case describes another TCP stack (BSD, macOS, Windows), these name
/// the behaviour that differs from Linux.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackSection {
    /// "linux" (Minshall's variant, the default) or "classic" (RFC 896, as BSD,
    /// macOS and Windows implement it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nagle: Option<String>,
    /// "linux" (the default), "off", or a fixed delayed-ACK timer such as "200ms"
    /// (Windows) with one ACK per two full segments and no quick-ACK mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delayed_ack: Option<String>,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RouteSection {
    /// Initial congestion window in segments (default 10, `TCP_INIT_CWND`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initcwnd: Option<u32>,
    /// Initial receive window in segments; like kernels before 6.10 it can only lower
    /// the window the receive buffer allows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub initrwnd: Option<u32>,
    /// 1: acknowledge every segment at once (no delayed ACKs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quickack: Option<u32>,
}

/// A sysctl or socket-option value: a number, or text as `sysctl -w` takes it.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Value {
    Int(i64),
    Text(String),
}

/// What the applications do.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum AppSection {
    /// The client writes `request`; once all of it has arrived the server writes
    /// `response` (an HTTP request and its reply). Without a request the server
    /// pushes the response as soon as the connection is up. Each is a size or a
    /// list of sizes, one per `write()` call.
    RequestResponse {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request: Option<Writes>,
        response: Writes,
        /// How many times the exchange happens on the connection (default 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        repeat: Option<u32>,
        /// Time from the start of one exchange to the start of the next, e.g. "10s".
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gap: Option<String>,
        /// Or: time from the end of one exchange (client has read the response) to
        /// the start of the next, e.g. "0ms" for a request loop.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        think: Option<String>,
        /// true: every exchange opens a new connection (and closes the previous one).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        new_connection: Option<bool>,
        /// How fast the client's application reads, in bytes per second (e.g. "100KB");
        /// "0B": it stops reading. Default: it reads everything at once.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_read_rate: Option<String>,
        /// The same for the server's application.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server_read_rate: Option<String>,
        /// An RPC framework's transfer buffer on the client (seed 002's
        /// `transbuf`), e.g. "1KiB": each write reaches the socket as `write()`
        /// calls of at most this size. Default: whole.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_write_buffer: Option<String>,
        /// The framework's time per chunk before it is written, e.g. "30us"
        /// (needs `client_write_buffer`; default "0us").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_write_cost: Option<String>,
        /// The same for the server's application.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server_write_buffer: Option<String>,
        /// The same for the server's application.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server_write_cost: Option<String>,
    },
}

/// A size, or a list of sizes written one `write()` call after another
/// (e.g. `["300B", "1300B"]` for an HTTP header and its body).
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum Writes {
    One(String),
    Many(Vec<String>),
}

impl Writes {
    fn parse(&self, key: &str) -> Result<Vec<u64>, FileError> {
        let texts: Vec<&String> = match self {
            Writes::One(t) => vec![t],
            Writes::Many(v) => v.iter().collect(),
        };
        texts
            .into_iter()
            .map(|t| parse_bytes(t).map_err(|e| err(key, e.0)))
            .collect()
    }
}

/// Sysctls this version models, per host.
pub const KNOWN_SYSCTLS: &[&str] = &[
    "net.core.default_qdisc",
    "net.core.rmem_max",
    "net.core.wmem_max",
    "net.ipv4.tcp_adv_win_scale",
    "net.ipv4.tcp_congestion_control",
    "net.ipv4.tcp_moderate_rcvbuf",
    "net.ipv4.tcp_no_metrics_save",
    "net.ipv4.tcp_no_ssthresh_metrics_save",
    "net.ipv4.tcp_retries2",
    "net.ipv4.tcp_rmem",
    "net.ipv4.tcp_sack",
    "net.ipv4.tcp_slow_start_after_idle",
    "net.ipv4.tcp_window_scaling",
    "net.ipv4.tcp_wmem",
];

/// Socket options this version models.
pub const KNOWN_SOCKOPTS: &[&str] = &[
    "SO_RCVBUF",
    "SO_SNDBUF",
    "TCP_CORK",
    "TCP_NODELAY",
    "TCP_QUICKACK",
];

/// Why a scenario file cannot be used. `key` is the dotted path of the bad key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub key: Option<String>,
    pub message: String,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.key {
            Some(k) => write!(f, "key `{k}`: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for FileError {}

impl From<ConfigError> for FileError {
    fn from(e: ConfigError) -> Self {
        FileError {
            key: Some(e.key),
            message: e.message,
        }
    }
}

fn err(key: impl Into<String>, message: impl Into<String>) -> FileError {
    FileError {
        key: Some(key.into()),
        message: message.into(),
    }
}

/// Parses and checks a scenario file's text.
pub fn parse(text: &str) -> Result<(ScenarioFile, Scenario), FileError> {
    let file: ScenarioFile = toml::from_str(text).map_err(|e| FileError {
        key: None,
        message: e.to_string().trim_end().to_string(),
    })?;
    let scenario = file.to_scenario()?;
    Ok((file, scenario))
}

impl ScenarioFile {
    /// Builds the simulator's scenario, checking every value.
    pub fn to_scenario(&self) -> Result<Scenario, FileError> {
        if self.format != FORMAT {
            return Err(err(
                "format",
                format!(
                    "{} is not a known format (this tcpsim reads format {FORMAT})",
                    self.format
                ),
            ));
        }
        let mut s = Scenario {
            path: self.path.to_config()?,
            ..Scenario::default()
        };
        if let Some(seed) = self.seed {
            s.seed = seed;
        }
        if let Some(t) = &self.time_limit {
            s.time_limit = parse_duration(t).map_err(|e| err("time_limit", e.0))?;
        }
        if let Some(n) = self.flows {
            s.flows = n;
        }
        if let Some(t) = &self.sample_interval {
            s.sample_interval = parse_duration(t).map_err(|e| err("sample_interval", e.0))?;
        }
        let mss = match self.path.mtu {
            None => crate::config::DEFAULT_MSS,
            Some(mtu) if (576..=65_535).contains(&mtu) => mtu - HEADER_BYTES,
            Some(mtu) => {
                return Err(err(
                    "path.mtu",
                    format!("{mtu} is outside the allowed range 576 to 65535"),
                ));
            }
        };
        s.client = self.client.to_config("client", mss)?;
        s.server = self.server.to_config("server", mss)?;
        s.app = match &self.app {
            AppSection::RequestResponse {
                request,
                response,
                repeat,
                gap,
                think,
                new_connection,
                client_read_rate,
                server_read_rate,
                client_write_buffer,
                client_write_cost,
                server_write_buffer,
                server_write_cost,
            } => {
                let rates = [
                    (client_read_rate, "app.client_read_rate"),
                    (server_read_rate, "app.server_read_rate"),
                ];
                for (i, (rate, key)) in rates.into_iter().enumerate() {
                    if let Some(r) = rate {
                        let host = if i == 0 { &mut s.client } else { &mut s.server };
                        host.receiver.read_rate = Some(parse_bytes(r).map_err(|e| err(key, e.0))?);
                    }
                }
                RequestResponse {
                    request: match request {
                        Some(r) => r.parse("app.request")?,
                        None => Vec::new(),
                    },
                    response: response.parse("app.response")?,
                    repeat: repeat.unwrap_or(1),
                    new_connection: new_connection.unwrap_or(false),
                    client_writes: chunked_writes(
                        "client",
                        client_write_buffer.as_deref(),
                        client_write_cost.as_deref(),
                    )?,
                    server_writes: chunked_writes(
                        "server",
                        server_write_buffer.as_deref(),
                        server_write_cost.as_deref(),
                    )?,
                    pacing: match (gap, think) {
                        (Some(_), Some(_)) => {
                            return Err(err("app.think", "give `gap` or `think`, not both"));
                        }
                        (Some(g), None) => {
                            Pacing::Every(parse_duration(g).map_err(|e| err("app.gap", e.0))?)
                        }
                        (None, Some(t)) => {
                            Pacing::After(parse_duration(t).map_err(|e| err("app.think", e.0))?)
                        }
                        (None, None) => Pacing::Every(SimDuration::ZERO),
                    },
                }
            }
        };
        s.validate()?;
        Ok(s)
    }
}

/// `app.<host>_write_buffer` and `app.<host>_write_cost`: a cost needs a buffer.
fn chunked_writes(
    host: &str,
    buffer: Option<&str>,
    cost: Option<&str>,
) -> Result<Option<ChunkedWrites>, FileError> {
    let buffer_key = format!("app.{host}_write_buffer");
    let cost_key = format!("app.{host}_write_cost");
    match (buffer, cost) {
        (None, None) => Ok(None),
        (None, Some(_)) => Err(err(&cost_key, format!("needs `{host}_write_buffer` too"))),
        (Some(b), c) => Ok(Some(ChunkedWrites {
            size: parse_bytes(b).map_err(|e| err(&buffer_key, e.0))?,
            cost: match c {
                Some(c) => parse_duration(c).map_err(|e| err(&cost_key, e.0))?,
                None => SimDuration::ZERO,
            },
        })),
    }
}

impl PathSection {
    fn to_config(&self) -> Result<PathConfig, FileError> {
        let rate = parse_rate(&self.rate).map_err(|e| err("path.rate", e.0))?;
        let dur = |key: &str, v: &str| parse_duration(v).map_err(|e| err(key, e.0));
        let mut path = match (&self.rtt, &self.delay_forward, &self.delay_reverse) {
            (Some(rtt), None, None) => PathConfig::symmetric(rate, dur("path.rtt", rtt)?),
            (None, Some(f), Some(r)) => PathConfig {
                delay_forward: dur("path.delay_forward", f)?,
                delay_reverse: dur("path.delay_reverse", r)?,
                ..PathConfig::symmetric(rate, SimDuration::ZERO)
            },
            _ => {
                return Err(err(
                    "path.rtt",
                    "give either `rtt`, or both `delay_forward` and `delay_reverse`",
                ));
            }
        };
        if let Some(loss) = self.loss {
            if !(loss.is_finite() && (0.0..=0.5).contains(&loss)) {
                return Err(err(
                    "path.loss",
                    format!("{loss} is outside the allowed range 0 to 0.5"),
                ));
            }
            path.loss = loss;
        }
        if let Some(t) = &self.loss_until {
            path.loss_until = Some(parse_duration(t).map_err(|e| err("path.loss_until", e.0))?);
        }
        match (&self.queue, self.queue_bdp) {
            (Some(q), None) => {
                path.queue_bytes = parse_bytes(q).map_err(|e| err("path.queue", e.0))?
            }
            (None, Some(m)) => {
                if !(m.is_finite() && (0.0..=1000.0).contains(&m)) {
                    return Err(err(
                        "path.queue_bdp",
                        format!("{m} is outside the allowed range 0 to 1000"),
                    ));
                }
                let bdp = rate as f64 / 8.0 * path.rtt().as_secs_f64();
                path.queue_bytes = (bdp * m).round() as u64;
            }
            (None, None) => {}
            (Some(_), Some(_)) => {
                return Err(err("path.queue", "give `queue` or `queue_bdp`, not both"));
            }
        }
        Ok(path)
    }
}

fn int(key: &str, v: &Value) -> Result<i64, FileError> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Text(t) => t
            .trim()
            .parse()
            .map_err(|_| err(key, format!("`{t}` is not a whole number"))),
    }
}

/// `"min default max"`, as tcp_rmem and tcp_wmem take them, in order.
fn three_sizes(key: &str, v: &Value) -> Result<[u64; 3], FileError> {
    let Value::Text(t) = v else {
        return Err(err(key, "expected three sizes, \"min default max\""));
    };
    let parts: Vec<u64> = t
        .split_whitespace()
        .map(|p| parse_bytes(p).map_err(|e| err(key, e.0)))
        .collect::<Result<_, _>>()?;
    let [min, default, max] = parts[..] else {
        return Err(err(key, "expected three sizes, \"min default max\""));
    };
    if !(min <= default && default <= max) {
        return Err(err(key, "sizes must be in order: min <= default <= max"));
    }
    Ok([min, default, max])
}

/// A 0/1 switch, as sysctls and socket options take it.
fn flag(key: &str, v: &Value) -> Result<bool, FileError> {
    match int(key, v)? {
        0 => Ok(false),
        1 => Ok(true),
        x => Err(err(key, format!("{x} is outside the allowed range 0 to 1"))),
    }
}

fn bytes(key: &str, v: &Value) -> Result<u64, FileError> {
    match v {
        Value::Int(i) if *i >= 0 => Ok(*i as u64),
        Value::Int(i) => Err(err(key, format!("{i} is negative"))),
        Value::Text(t) => parse_bytes(t).map_err(|e| err(key, e.0)),
    }
}

impl HostSection {
    fn to_config(&self, host: &str, mss: u32) -> Result<HostConfig, FileError> {
        let mut h = HostConfig::default();
        h.sender.mss = mss;
        let mut rmem_max = RMEM_MAX_DEFAULT;
        let mut wmem_max = WMEM_MAX_DEFAULT;
        for (name, v) in &self.sysctl {
            let key = format!("{host}.sysctl.\"{name}\"");
            match name.as_str() {
                "net.ipv4.tcp_congestion_control" => {
                    let Value::Text(cc) = v else {
                        return Err(err(key, "expected a name such as \"reno\""));
                    };
                    h.sender.congestion_control =
                        Algorithm::by_name(cc).map_err(|e| err(&key, e.to_string()))?;
                }
                "net.ipv4.tcp_rmem" => {
                    let [_, default, max] = three_sizes(&key, v)?;
                    h.receiver.rcvbuf = default;
                    h.receiver.rcvbuf_max = max;
                }
                "net.ipv4.tcp_moderate_rcvbuf" => h.receiver.autotune = flag(&key, v)?,
                "net.ipv4.tcp_slow_start_after_idle" => {
                    h.sender.slow_start_after_idle = flag(&key, v)?
                }
                "net.ipv4.tcp_window_scaling" => h.receiver.window_scaling = flag(&key, v)?,
                "net.ipv4.tcp_sack" => h.sender.sack = flag(&key, v)?,
                // Only whether the qdisc paces matters here: fq does, the
                // others (pfifo_fast, fq_codel) send what TCP hands them.
                "net.core.default_qdisc" => {
                    h.sender.fq = match v {
                        Value::Text(q) if q == "fq" => true,
                        Value::Text(q)
                            if ["pfifo_fast", "fq_codel", "pfifo"].contains(&q.as_str()) =>
                        {
                            false
                        }
                        _ => {
                            return Err(err(
                                key,
                                "expected \"fq\", \"fq_codel\", \"pfifo_fast\" or \"pfifo\"",
                            ));
                        }
                    }
                }
                "net.ipv4.tcp_no_metrics_save" => h.metrics.save = !flag(&key, v)?,
                "net.ipv4.tcp_no_ssthresh_metrics_save" => {
                    h.metrics.save_ssthresh = !flag(&key, v)?
                }
                "net.ipv4.tcp_retries2" => {
                    h.sender.retries2 = u32::try_from(int(&key, v)?)
                        .map_err(|_| err(&key, "must not be negative"))?
                }
                // Kernels before 6.6; setting it selects the old accounting.
                "net.ipv4.tcp_adv_win_scale" => match int(&key, v)? {
                    x @ -31..=31 if x != 0 => {
                        h.receiver.window_share = WindowShare::AdvWinScale(x as i8)
                    }
                    x => {
                        return Err(err(
                            key,
                            format!("{x} is outside the allowed range -31 to 31 (not 0)"),
                        ));
                    }
                },
                "net.core.rmem_max" => rmem_max = bytes(&key, v)?,
                "net.core.wmem_max" => wmem_max = bytes(&key, v)?,
                "net.ipv4.tcp_wmem" => {
                    let [_, default, max] = three_sizes(&key, v)?;
                    h.sender.sndbuf = default;
                    h.sender.sndbuf_max = max;
                }
                other => {
                    return Err(err(
                        key,
                        format!(
                            "sysctl `{other}` is not modelled (known: {})",
                            KNOWN_SYSCTLS.join(", ")
                        ),
                    ));
                }
            }
        }
        // Chosen before any SO_RCVBUF, for what tcp_rmem[2] or rmem_max allow.
        h.receiver.wscale = ReceiverConfig::wscale_for(h.receiver.rcvbuf_max.max(rmem_max));
        for (name, v) in &self.sockopt {
            let key = format!("{host}.sockopt.{name}");
            match name.as_str() {
                // man 7 socket: the kernel doubles the value (for bookkeeping overhead),
                // capped at net.core.rmem_max, and stops autotuning (SOCK_RCVBUF_LOCK).
                "SO_RCVBUF" => {
                    let asked = bytes(&key, v)?;
                    let rcvbuf = asked.min(rmem_max) * 2;
                    h.receiver.rcvbuf = rcvbuf.max(2_304); // SOCK_MIN_RCVBUF
                    h.receiver.rcvbuf_max = h.receiver.rcvbuf;
                    h.receiver.autotune = false;
                }
                // man 7 socket: doubled, capped at net.core.wmem_max, and no
                // more autotuning (SOCK_SNDBUF_LOCK).
                "SO_SNDBUF" => {
                    let asked = bytes(&key, v)?;
                    h.sender.sndbuf = (asked.min(wmem_max) * 2).max(4_608); // SOCK_MIN_SNDBUF
                    h.sender.sndbuf_max = h.sender.sndbuf;
                    h.sender.sndbuf_autotune = false;
                }
                "TCP_CORK" => h.sender.cork = flag(&key, v)?,
                "TCP_NODELAY" => {
                    if flag(&key, v)? {
                        h.sender.nagle = Nagle::Off;
                    }
                }
                // Linux clears TCP_QUICKACK again when the connection turns
                // interactive; applications re-set it after each read. The
                // simulator keeps it set, as such an application would.
                "TCP_QUICKACK" => h.receiver.quickack |= flag(&key, v)?,
                other => {
                    return Err(err(
                        key,
                        format!(
                            "socket option `{other}` is not modelled (known: {})",
                            KNOWN_SOCKOPTS.join(", ")
                        ),
                    ));
                }
            }
        }
        let mut syn = h.receiver.initial_window(mss) as u64;
        if let Some(n) = self.route.initrwnd {
            syn = syn.min(n as u64 * (mss + 12) as u64);
        }
        h.receiver.syn_window = syn.max(1) as u32;
        if let Some(n) = self.route.initcwnd {
            h.sender.initcwnd = n;
        }
        match self.route.quickack {
            None | Some(0) => {}
            Some(1) => h.receiver.quickack = true,
            Some(x) => {
                return Err(err(
                    format!("{host}.route.quickack"),
                    format!("{x} is outside the allowed range 0 to 1"),
                ));
            }
        }
        if let Some(n) = &self.stack.nagle {
            // TCP_NODELAY still wins: it turns either variant off.
            let classic = match n.as_str() {
                "linux" => false,
                "classic" => true,
                other => {
                    return Err(err(
                        format!("{host}.stack.nagle"),
                        format!("`{other}`: use \"linux\" or \"classic\""),
                    ));
                }
            };
            if h.sender.nagle != Nagle::Off {
                h.sender.nagle = if classic {
                    Nagle::Classic
                } else {
                    Nagle::Minshall
                };
            }
        }
        if let Some(d) = &self.stack.delayed_ack {
            let key = format!("{host}.stack.delayed_ack");
            h.receiver.delayed_ack = match d.as_str() {
                "linux" => DelayedAck::Linux,
                "off" => DelayedAck::Off,
                t => {
                    let dur = parse_duration(t)
                        .map_err(|e| err(&key, format!("{} (or \"linux\", \"off\")", e.0)))?;
                    if dur < SimDuration::from_millis(1) || dur > SimDuration::from_millis(500) {
                        return Err(err(
                            key,
                            format!("{t} is outside the allowed range 1ms to 500ms"),
                        ));
                    }
                    DelayedAck::Fixed(dur)
                }
            };
        }
        h.validate(host)?;
        Ok(h)
    }
}

/// The JSON Schema of scenario files.
pub fn json_schema() -> schemars::Schema {
    schemars::schema_for!(ScenarioFile)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"
format = 1
[path]
rate = "1Gbit"
rtt = "7ms"
[app]
type = "request-response"
request = "147B"
response = "512KiB"
"#;

    #[test]
    fn the_window_scale_fits_the_largest_buffer_the_socket_could_get() {
        // tcp_rmem[2] = 6 MiB (default): ilog2(6291456) − 15 = 22 − 15 = 7.
        let (_, s) = parse(MINIMAL).unwrap();
        assert_eq!(s.client.receiver.wscale, 7);
        // Seed 003's 34,952,000: ilog2 = 25, so 10 (a 67 MB window is possible).
        let text = MINIMAL.replace(
            "[app]",
            "[client.sysctl]\n\"net.ipv4.tcp_rmem\" = \"4096 87380 34952000\"\n[app]",
        );
        let (_, s) = parse(&text).unwrap();
        assert_eq!(s.client.receiver.wscale, 10);
        // A small SO_RCVBUF does not lower it below what tcp_rmem[2] needs.
        let text = MINIMAL.replace("[app]", "[client.sockopt]\nSO_RCVBUF = \"8KiB\"\n[app]");
        let (_, s) = parse(&text).unwrap();
        assert_eq!(s.client.receiver.wscale, 7);
    }

    #[test]
    fn a_minimal_file_gives_linux_defaults() {
        let (_, s) = parse(MINIMAL).unwrap();
        assert_eq!(s.path.rtt(), SimDuration::from_millis(7));
        assert_eq!(s.server.sender.initcwnd, 10);
        assert_eq!(
            s.client.receiver.syn_window, 64_240,
            "44 x 1460, as Linux's SYN says"
        );
        assert_eq!(s.app.response, vec![524_288]);
        assert_eq!(
            s,
            Scenario::default(),
            "the defaults are seed 004's 7 ms case"
        );
    }

    #[test]
    fn so_rcvbuf_is_doubled_capped_and_locks_autotuning() {
        let text = format!("{MINIMAL}\n[client.sockopt]\nSO_RCVBUF = \"8KiB\"\n");
        let (_, s) = parse(&text).unwrap();
        assert_eq!(s.client.receiver.rcvbuf, 16_384);
        assert!(!s.client.receiver.autotune);
        let text = format!("{MINIMAL}\n[client.sockopt]\nSO_RCVBUF = \"1MiB\"\n");
        let (_, s) = parse(&text).unwrap();
        assert_eq!(
            s.client.receiver.rcvbuf,
            2 * RMEM_MAX_DEFAULT,
            "capped at rmem_max, then doubled"
        );
    }

    #[test]
    fn unknown_keys_are_named() {
        let e = parse(&MINIMAL.replace("rtt = ", "rttt = ")).unwrap_err();
        assert!(e.message.contains("rttt"), "{e}");
        let text = format!("{MINIMAL}\n[client.sysctl]\n\"net.ipv4.tcp_foo\" = 1\n");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("client.sysctl.\"net.ipv4.tcp_foo\""));
        assert!(
            e.message.contains("net.ipv4.tcp_rmem"),
            "lists the known ones: {e}"
        );
    }

    #[test]
    fn out_of_range_values_name_the_key_and_the_range() {
        let text = format!("{MINIMAL}\n[server.route]\ninitcwnd = 5000\n");
        let e = parse(&text).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("server.route.initcwnd"));
        assert!(e.message.contains("1 to 1000"), "{e}");
        let e = parse(&MINIMAL.replace("\"1Gbit\"", "\"1Tbit\"")).unwrap_err();
        assert_eq!(e.key.as_deref(), Some("path.rate"));
    }

    #[test]
    fn stack_behaviour_and_socket_options_map_to_the_model() {
        let text = format!(
            "{MINIMAL}\n[server.stack]\nnagle = \"classic\"\n[client.stack]\ndelayed_ack = \"200ms\"\n[client.route]\nquickack = 0\n"
        );
        let (_, s) = parse(&text).unwrap();
        assert_eq!(s.server.sender.nagle, Nagle::Classic);
        assert_eq!(
            s.client.receiver.delayed_ack,
            DelayedAck::Fixed(SimDuration::from_millis(200))
        );
        let text = format!(
            "{MINIMAL}\n[server.sockopt]\nTCP_NODELAY = 1\n[server.stack]\nnagle = \"classic\"\n"
        );
        let (_, s) = parse(&text).unwrap();
        assert_eq!(
            s.server.sender.nagle,
            Nagle::Off,
            "TCP_NODELAY turns Nagle off whatever the stack"
        );
        let e = parse(&format!(
            "{MINIMAL}\n[client.stack]\ndelayed_ack = \"2s\"\n"
        ))
        .unwrap_err();
        assert_eq!(e.key.as_deref(), Some("client.stack.delayed_ack"));
    }

    #[test]
    fn requests_can_be_several_writes() {
        let (_, s) =
            parse(&MINIMAL.replace("request = \"147B\"", "request = [\"200B\", \"1400B\"]"))
                .unwrap();
        assert_eq!(s.app.request, vec![200, 1400]);
    }

    #[test]
    fn a_queue_can_be_sized_in_bdps() {
        let text = MINIMAL
            .replace("rtt = \"7ms\"", "rtt = \"20ms\"\nqueue_bdp = 1.0")
            .replace("1Gbit", "100Mbit");
        let (_, s) = parse(&text).unwrap();
        assert_eq!(s.path.queue_bytes, 250_000, "0.02 s x 100 Mbit/s / 8");
    }

    #[test]
    fn congestion_control_is_chosen_by_kernel_name() {
        let text = format!(
            "{MINIMAL}\n[server.sysctl]\n\"net.ipv4.tcp_congestion_control\" = \"vegas\"\n"
        );
        let e = parse(&text).unwrap_err();
        assert!(
            e.message.contains("unknown congestion control `vegas`"),
            "{e}"
        );
    }
}
