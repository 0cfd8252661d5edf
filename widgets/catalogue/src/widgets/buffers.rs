//! One bulk transfer where the reader sees which buffer limits it: the
//! sender's `SO_SNDBUF` (doubled, capped by `net.core.wmem_max`, autotuning
//! off) or `tcp_wmem[2]`; the receiver's `SO_RCVBUF`, `rmem_max`,
//! `tcp_rmem[2]`, window scaling and how fast its application reads; against
//! the bandwidth-delay product of the path (seeds 000 and 001, cases 4 to 7).
//!
//! The data flows server → client (a query's result) or client → server (an
//! upload, case 5); the sender's and receiver's settings follow the data.

use super::KERNEL;
use crate::spec::{Preset, WidgetSpec};
use crate::values::{Bytes, Choice, Count, Duration, Param, Rate, Switch, Values};
use sim_core::config::{
    AfterGiveUp, HostConfig, HostSettings, Kernel, LossDirection, Outage, PAGE_SIZE, PathConfig,
    Scenario,
};
use sim_core::tcp::reader::ReadPause;
use sim_core::time::{SimDuration, SimTime};

pub const WIDGET: WidgetSpec = WidgetSpec {
    name: "buffers",
    title: crate::prose!("Which buffer limits a bulk transfer"),
    params: &[
        RTT.spec,
        BANDWIDTH.spec,
        SIZE.spec,
        SNDBUF_MODE.spec,
        SO_SNDBUF.spec,
        WMEM_MAX.spec,
        TCP_WMEM.spec,
        RCVBUF_MODE.spec,
        SO_RCVBUF.spec,
        RMEM_MAX.spec,
        TCP_RMEM.spec,
        WINDOW_SCALING.spec,
        READING.spec,
        READ_RATE.spec,
        READ_STOP.spec,
        READ_RESUME.spec,
        RETRIES2.spec,
        ANSWERS_LOST.spec,
        LOST_FROM.spec,
        LOST_UNTIL.spec,
        DIRECTION.spec,
        REQUEST.spec,
        QUEUE.spec,
        TIME_LIMIT.spec,
        KERNEL.spec,
    ],
    presets: PRESETS,
    // The path's product against the two buffers that can fall short of it.
    primary: &[
        RTT.spec.name,
        BANDWIDTH.spec.name,
        SNDBUF_MODE.spec.name,
        SO_SNDBUF.spec.name,
    ],
    values_of: crate::native_fn!(values_of),
    scenario,
};

const MS: f64 = 1e6;
const S: f64 = 1e9;
const KIB: f64 = 1024.0;
const MIB: f64 = 1024.0 * KIB;

pub const RTT: Param<Duration> = Param::new("rtt", "RTT", "round-trip propagation delay")
    .range(0.1 * MS, 400.0 * MS)
    .default(20.0 * MS)
    .log_scale();

pub const BANDWIDTH: Param<Rate> = Param::new("bandwidth", "Bandwidth", "bottleneck rate")
    .range(1e6, 10e9)
    .default(100e6)
    .log_scale();

pub const SIZE: Param<Bytes> = Param::new("size", "Transfer size", "bytes sent")
    .range(16.0 * KIB, 64.0 * MIB)
    .default(22e6)
    .log_scale();

/// Whether the application set the buffer (`setsockopt`) or left it to the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufMode {
    /// Not set: `tcp_*mem[1]`, autotuned up to `tcp_*mem[2]`.
    Auto,
    /// `setsockopt(SO_*BUF)`: capped, doubled, locked.
    Set,
}

impl Choice for BufMode {
    const NAMES: &'static [&'static str] = &["auto", "set"];
    fn from_index(index: usize) -> Option<Self> {
        [BufMode::Auto, BufMode::Set].get(index).copied()
    }
    fn index(self) -> usize {
        self as usize
    }
}

pub const SNDBUF_MODE: Param<BufMode> = Param::new(
    "sndbuf",
    "Sender's SO_SNDBUF",
    "auto: autotuned up to tcp_wmem[2]; set: setsockopt(SO_SNDBUF), autotuning off",
)
.default(1.0);

pub const SO_SNDBUF: Param<Bytes> = Param::new(
    "so_sndbuf",
    "SO_SNDBUF asked",
    "capped at net.core.wmem_max, then doubled",
)
.range(4.0 * KIB, 64.0 * MIB)
.default(16e3)
.log_scale();

pub const WMEM_MAX: Param<Bytes> = Param::new(
    "wmem_max",
    "net.core.wmem_max",
    "net.core.wmem_max on the sender: the cap on SO_SNDBUF requests",
)
.range(4.0 * KIB, 256.0 * MIB)
.default(4.0 * MIB)
.log_scale()
.knob("net.core.wmem_max");

pub const TCP_WMEM: Param<Bytes> = Param::new(
    "tcp_wmem",
    "tcp_wmem[2]",
    "tcp_wmem[2]: how far autotuning may grow the sender's buffer",
)
.range(64.0 * KIB, 256.0 * MIB)
.default(4.0 * MIB)
.log_scale()
.knob("net.ipv4.tcp_wmem");

pub const RCVBUF_MODE: Param<BufMode> = Param::new(
    "rcvbuf",
    "Receiver's SO_RCVBUF",
    "auto: autotuned up to tcp_rmem[2]; set: setsockopt(SO_RCVBUF), autotuning off",
)
.default(0.0);

pub const SO_RCVBUF: Param<Bytes> = Param::new(
    "so_rcvbuf",
    "SO_RCVBUF asked",
    "capped at net.core.rmem_max, then doubled",
)
.range(4.0 * KIB, 64.0 * MIB)
.default(8.0 * KIB)
.log_scale();

pub const RMEM_MAX: Param<Bytes> = Param::new(
    "rmem_max",
    "net.core.rmem_max",
    "net.core.rmem_max on the receiver: the cap on SO_RCVBUF requests",
)
.range(4.0 * KIB, 256.0 * MIB)
.default(4.0 * MIB)
.log_scale()
.knob("net.core.rmem_max");

pub const TCP_RMEM: Param<Bytes> = Param::new(
    "tcp_rmem",
    "tcp_rmem[2]",
    "tcp_rmem[2]: how far autotuning may grow the receiver's buffer (and the window scale it offers)",
)
.range(64.0 * KIB, 256.0 * MIB)
.default(32.0 * MIB)
.log_scale()
.knob("net.ipv4.tcp_rmem");

pub const WINDOW_SCALING: Param<Switch> = Param::new(
    "window_scaling",
    "Window scaling",
    "net.ipv4.tcp_window_scaling on the server; off caps every window at 65535 B",
)
.default(1.0)
.knob("net.ipv4.tcp_window_scaling");

/// How the receiving application reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Every byte the moment it arrives.
    AtOnce,
    /// At `read_rate`.
    Limited,
    /// Never: the buffer fills and the window closes.
    Stopped,
    /// At once, but not from `read_stop` to `read_resume`.
    Pauses,
}

impl Choice for Reading {
    const NAMES: &'static [&'static str] = &["at-once", "limited", "stopped", "pauses"];
    fn from_index(index: usize) -> Option<Self> {
        use Reading::*;
        [AtOnce, Limited, Stopped, Pauses].get(index).copied()
    }
    fn index(self) -> usize {
        self as usize
    }
}

pub const READING: Param<Reading> = Param::new(
    "reading",
    "Receiver's application",
    "limited: at the read rate; stopped: never reads; pauses: from one time to another",
)
.default(0.0);

pub const READ_STOP: Param<Duration> = Param::new(
    "read_stop",
    "Stops reading at",
    "when it pauses: time from the start of the run",
)
.range(1.0 * MS, 1800.0 * S)
.default(1.0 * S)
.log_scale();

pub const READ_RESUME: Param<Duration> = Param::new(
    "read_resume",
    "Reads again at",
    "when it pauses: time from the start of the run (after the stop)",
)
.range(1.0 * MS, 3600.0 * S)
.default(7.0 * S)
.log_scale();

pub const READ_RATE: Param<Rate> = Param::new(
    "read_rate",
    "Read rate",
    "how fast the receiving application reads, when limited",
)
.range(8e3, 10e9)
.default(1e6)
.log_scale();

pub const RETRIES2: Param<Count> = Param::new(
    "retries2",
    "tcp_retries2",
    "net.ipv4.tcp_retries2 on the sender: unanswered zero-window probes before it gives up",
)
.range(1.0, 255.0)
.default(15.0)
.knob("net.ipv4.tcp_retries2");

pub const ANSWERS_LOST: Param<Switch> = Param::new(
    "answers_lost",
    "Receiver's answers lost",
    "on: everything the receiver sends is lost from one time to another (a middlebox dropping the flow), and the run goes on after the sender gives up",
)
.default(0.0);

pub const LOST_FROM: Param<Duration> = Param::new(
    "lost_from",
    "Answers lost from",
    "when they are lost: time from the start of the run",
)
.range(1.0 * MS, 1800.0 * S)
.default(400.0 * MS)
.log_scale();

pub const LOST_UNTIL: Param<Duration> = Param::new(
    "lost_until",
    "Answers lost until",
    "when they are lost: time from the start of the run (after the start)",
)
.range(1.0 * MS, 3600.0 * S)
.default(1800.0 * S)
.log_scale();

/// Which way the data flows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// The server sends (a query's result, a download).
    Download,
    /// The client sends (case 5's INSERT), the server replies.
    Upload,
}

impl Choice for Direction {
    const NAMES: &'static [&'static str] = &["download", "upload"];
    fn from_index(index: usize) -> Option<Self> {
        [Direction::Download, Direction::Upload].get(index).copied()
    }
    fn index(self) -> usize {
        self as usize
    }
}

pub const DIRECTION: Param<Direction> = Param::new(
    "direction",
    "Direction",
    "download: the server sends; upload: the client does",
)
.default(0.0);

pub const REQUEST: Param<Bytes> = Param::new(
    "request",
    "Message the other way",
    "download: the request (0: none); upload: the reply (at least 1 byte: the upload ends when the client reads it)",
)
.range(0.0, 16.0 * KIB)
.default(200.0);

pub const QUEUE: Param<Bytes> = Param::new(
    "queue",
    "Bottleneck queue",
    "drop-tail queue in bytes at the bottleneck",
)
.range(16.0 * KIB, 256.0 * MIB)
// One BDP of 100 Mbit/s × 20 ms, as case 4's files set it.
.default(250e3)
.log_scale();

pub const TIME_LIMIT: Param<Duration> =
    Param::new("time_limit", "Run for at most", "the simulation stops here")
        .range(1.0 * S, 3600.0 * S)
        .default(600.0 * S)
        .log_scale();

const PRESETS: &[Preset] = &[
    Preset {
        name: "sndbuf-16k",
        title: crate::prose!("Case 4: 22 MB, SO_SNDBUF 16 KB (2.6.32)"),
        scenario: crate::native!("seed-000-so-sndbuf-16k.toml"),
        notes: crate::prose!("16 KB asked, 32 KB held, no autotuning: one buffer per RTT. Source: about 25 s."),
    },
    Preset {
        name: "sndbuf-16k-today",
        title: crate::prose!("Case 4 on today's kernel"),
        scenario: crate::native!("seed-000-so-sndbuf-16k-today.toml"),
        notes: crate::prose!("6.18 checks the buffer per 64 KB skb and queues past it: faster, still slow."),
    },
    Preset {
        name: "sndbuf-auto",
        title: crate::prose!("Case 4 without SO_SNDBUF (autotuning)"),
        scenario: crate::native!("seed-000-sndbuf-autotune.toml"),
        notes: crate::prose!("Autotuned past the BDP. Source (scp, HTTP): about 2 s."),
    },
    Preset {
        name: "sndbuf-256k-capped",
        title: crate::prose!("Case 4: SO_SNDBUF 256 KB, wmem_max 128 KB"),
        scenario: crate::native!("seed-000-so-sndbuf-256k-capped.toml"),
        notes: crate::prose!("Capped at 131071, then doubled. Source: about 4 s."),
    },
    Preset {
        name: "sndbuf-256k",
        title: crate::prose!("Case 4: SO_SNDBUF 256 KB, wmem_max raised"),
        scenario: crate::native!("seed-000-so-sndbuf-256k.toml"),
        notes: crate::prose!("512 KB held, over the BDP. Source: about 2 s."),
    },
    Preset {
        name: "rcvbuf-8k-40ms",
        title: crate::prose!("Case 5: 376 KiB upload, SO_RCVBUF 8 KB, 40 ms"),
        scenario: crate::native!("seed-001-so-rcvbuf-8k-40ms.toml"),
        notes: crate::prose!("A few segments per 40 ms. Source: 5.5 s, with a slow reader."),
    },
    Preset {
        name: "rcvbuf-8k-40ms-today",
        title: crate::prose!("Case 5 on today's kernel"),
        scenario: crate::native!("seed-001-so-rcvbuf-8k-40ms-today.toml"),
        notes: crate::prose!("scaling_ratio offers more of the same 16 KB: a little faster, still slow."),
    },
    Preset {
        name: "rcvbuf-8k-0.1ms",
        title: crate::prose!("Case 5 at 0.1 ms"),
        scenario: crate::native!("seed-001-so-rcvbuf-8k-0.1ms.toml"),
        notes: crate::prose!("The same window, 400 times sooner. Source: about 0.01 s."),
    },
    Preset {
        name: "stops-reading",
        title: crate::prose!("Case 6: the receiver never reads"),
        scenario: crate::native!("seed-001-receiver-stops-reading.toml"),
        notes: crate::prose!("Zero window; probes back off to 120 s; answered, they keep it open."),
    },
    Preset {
        name: "pauses",
        title: crate::prose!("Case 6: the receiver stops reading for 6 s"),
        scenario: crate::native!("seed-001-receiver-pauses.toml"),
        notes: crate::prose!("The read at 6 s sends the window update itself. Source: a 6 s stall."),
    },
    Preset {
        name: "pauses-today",
        title: crate::prose!("Case 6's 6 s pause on today's kernel"),
        scenario: crate::native!("seed-001-receiver-pauses-today.toml"),
        notes: crate::prose!("The same stall: persist and the window update work as on 3.10."),
    },
    Preset {
        name: "gone-rst",
        title: crate::prose!("Case 6: probes unanswered, gave up, RST"),
        scenario: crate::native!("seed-001-receiver-gone-rst.toml"),
        notes: crate::prose!("15 unanswered probes, a silent close at 942 s; the window update at 1800 s draws a RST."),
    },
    Preset {
        name: "no-window-scaling",
        title: crate::prose!("Case 7: no window scaling, 35 ms"),
        scenario: crate::native!("seed-000-no-window-scaling.toml"),
        notes: crate::prose!("65535 B per 35 ms: about 1.8 MB/s on 1 Gbit/s."),
    },
    Preset {
        name: "no-window-scaling-today",
        title: crate::prose!("Case 7 on today's kernel"),
        scenario: crate::native!("seed-000-no-window-scaling-today.toml"),
        notes: crate::prose!("The same 64 KB ceiling: no kernel can scale a window its peer never offered."),
    },
];

mod mapping;
use mapping::{scenario, values_of};

#[cfg(test)]
mod tests;
