//! The serde structs of a scenario file, as written: each key's doc comment
//! is its description in the JSON Schema (`tcpsim schema`), so wording here
//! is part of the committed `scenarios/scenario.schema.json`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    /// Each flow's congestion control, as a socket's TCP_CONGESTION option
    /// sets it: flow i runs entry i modulo the list's length, e.g.
    /// ["cubic", "bbr"] (default: every flow runs the server's
    /// net.ipv4.tcp_congestion_control).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flow_congestion_control: Option<Vec<String>>,
    /// When a host gives its connection up (tcp_retries2, tcp_syn_retries...):
    /// "end" (the default) ends the run there; "continue" runs on until both
    /// ends are closed or the time limit, so that the peer's next segment
    /// meets no socket and draws a RST, which resets the peer's connection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_give_up: Option<String>,
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
    /// Probability that a packet is lost on the way, e.g. 0.0001, in the
    /// directions `loss_direction` names (random, seeded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss: Option<f64>,
    /// Random loss only before this time, e.g. "2s" (a lossy episode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss_until: Option<String>,
    /// Which way random loss drops packets: "data" (the default: everything the
    /// server sends, as `tc netem loss` on its egress), "acks" (everything the
    /// client sends) or "both" (each way independently).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss_direction: Option<String>,
    /// Where a lost packet (random or listed) disappears: "before" the
    /// bottleneck (the default: netem on the sender's egress; it never takes
    /// queue space or link time) or "after" it (a lossy hop behind the queue:
    /// it is queued and serialised, then lost).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss_position: Option<String>,
    /// Segments to drop whatever the seed: `[[path.drop]]` tables, each naming
    /// one `segment`, `seq` range or `ack`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drop: Vec<DropSection>,
    /// Spans of time in which every packet one way is lost: `[[path.outage]]`
    /// tables, each with `from`, `until` and `direction`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outage: Vec<OutageSection>,
    /// Random loss only on the first this many connections, e.g. 1: the first
    /// connection is lossy and the later ones (`new_connection`) are clean.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loss_connections: Option<u32>,
    /// Path MTU in bytes (route attribute `mtu`); payload per segment is MTU − 52
    /// (IPv4 20, TCP 20, timestamps 12). Default 1500.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mtu: Option<u32>,
}

/// One `[[path.drop]]` entry: drop exactly this segment (or these bytes, or
/// this ACK) of one flow, in one direction, whatever the seed. Give one of
/// `segment`, `seq` or `ack`.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DropSection {
    /// Which flow, counting from 0 (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flow: Option<u32>,
    /// Which of the flow's connections, counting from 1 (default 1; with
    /// `new_connection` each exchange opens one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connection: Option<u32>,
    /// "data" (server → client) or "acks" (client → server). Default "data",
    /// or "acks" for an `ack` entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<String>,
    /// The n-th segment of new data sent that way, counting from 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment: Option<u32>,
    /// Every segment carrying a byte of this range of relative sequence numbers
    /// (the first data byte is 1): "14481-15928" (first-last), or as the trace
    /// prints a segment, "14481:15929" (end excluded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<String>,
    /// The n-th segment without payload, SYN or FIN sent that way, counting
    /// from 1 (on the client, 1 is the handshake's final ACK).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ack: Option<u32>,
    /// For data: "first" (the default: only the first transmission; the
    /// retransmission gets through) or "all" (every transmission: a black hole).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transmission: Option<String>,
}

/// One `[[path.outage]]` entry: every packet sent `direction` between `from`
/// and `until` is lost (where `loss_position` says), as if a middlebox
/// dropped the flow or a link went down, whatever the seed.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutageSection {
    /// "data" (server → client), "acks" (client → server) or "both" (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<String>,
    /// When it starts, from the start of the run, e.g. "400ms": packets sent
    /// from then on are lost.
    pub from: String,
    /// When it ends, e.g. "1800s": packets sent from then on get through.
    pub until: String,
}

/// One host's settings, by the names Linux gives them.
#[derive(Clone, Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HostSection {
    /// The Linux the host runs: "today" (6.18) or a seed article's kernel,
    /// "5.5", "4.18", "3.10" or "2.6.32". Its sysctl defaults and behaviour
    /// come first; the tables below change them. Unset: the simulator's
    /// model, which becomes "today" once every behaviour is implemented.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
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
    /// Single behaviour switches over the era's, where Linux changed between
    /// kernels, e.g. tlp = "off" or send_skbs = "per-mss".
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub behaviour: BTreeMap<String, Value>,
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
    /// Receive offload (GRO): "off" (every segment is its own skb) or a
    /// window such as "20us", within which back-to-back in-order segments
    /// make one skb that TCP acknowledges as one. Default: "20us" on today's
    /// kernel, "off" on the seed articles' kernels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gro: Option<String>,
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
        /// How long the client's application, reading at once, takes to wake
        /// up after data arrives (e.g. "30us", up to "100ms"); it then reads
        /// all that has arrived. Default: none, it reads each segment as it comes.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_read_wakeup: Option<String>,
        /// The same for the server's application.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server_read_wakeup: Option<String>,
        /// When the client's application stops reading (e.g. "2s" after the
        /// start): a garbage collection, a thread busy elsewhere. Default: never.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_read_stop: Option<String>,
        /// When it reads again (needs `client_read_stop`). Default: never.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        client_read_resume: Option<String>,
        /// The same for the server's application.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server_read_stop: Option<String>,
        /// The same for the server's application.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        server_read_resume: Option<String>,
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
        /// `ip tcp_metrics flush all` on the server just before this connection
        /// opens, counting from 1 (needs `new_connection`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tcp_metrics_flush_before: Option<u32>,
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
