//! Every widget the book can embed: its parameters with units, ranges and
//! defaults, and its presets (generated from `scenarios/` by `build.rs`).

use crate::{Kind, ParamSpec, Preset, WidgetSpec};

const MS: f64 = 1e6;
const S: f64 = 1e9;

include!(concat!(env!("OUT_DIR"), "/presets.rs"));

/// Congestion control modules, by their Linux names.
pub const CONGESTION_CONTROLS: &[&str] = &["reno", "cubic", "bbr"];

/// Every widget the book can embed.
pub const WIDGETS: &[WidgetSpec] = &[SLOW_START, LONG_FAT];

const SLOW_START: WidgetSpec = WidgetSpec {
    name: "slow-start",
    title: "Slow start on a new connection",
    params: &[
        ParamSpec {
            name: "rtt",
            label: "RTT",
            help: "round-trip propagation delay",
            kind: Kind::Duration,
            min: 0.1 * MS,
            max: 300.0 * MS,
            default: 7.0 * MS,
            log: true,
        },
        ParamSpec {
            name: "bandwidth",
            label: "Bandwidth",
            help: "bottleneck rate",
            kind: Kind::Rate,
            min: 1e6,
            max: 10e9,
            default: 1e9,
            log: true,
        },
        ParamSpec {
            name: "mss",
            label: "MSS",
            help: "payload bytes per segment",
            kind: Kind::Count,
            min: 536.0,
            max: 8948.0,
            default: 1448.0,
            log: false,
        },
        ParamSpec {
            name: "initcwnd",
            label: "initcwnd",
            help: "initial congestion window in segments",
            kind: Kind::Count,
            min: 1.0,
            max: 100.0,
            default: 10.0,
            log: false,
        },
        ParamSpec {
            name: "size",
            label: "Transfer size",
            help: "bytes the server sends",
            kind: Kind::Bytes,
            min: 1024.0,
            max: 64.0 * 1024.0 * 1024.0,
            default: 512.0 * 1024.0,
            log: true,
        },
        ParamSpec {
            name: "rwnd",
            label: "Receiver's SYN window",
            help: "window the client advertises in its SYN",
            kind: Kind::Bytes,
            min: 1024.0,
            max: 65535.0,
            default: 64240.0,
            log: false,
        },
        ParamSpec {
            name: "rcvbuf",
            label: "Receive buffer",
            help: "client's initial receive buffer, tcp_rmem[1]; autotuning grows it",
            kind: Kind::Bytes,
            min: 4096.0,
            max: 32.0 * 1024.0 * 1024.0,
            default: 131072.0,
            log: true,
        },
    ],
    // Read from the scenario files at build time (build.rs).
    presets: SLOW_START_PRESETS,
};

/// One bulk flow over a long fat network for up to 30 s: the congestion
/// control module against loss, RTT and the bottleneck's queue (seed 003).
const LONG_FAT: WidgetSpec = WidgetSpec {
    name: "long-fat",
    title: "One flow over a long fat network",
    params: &[
        ParamSpec {
            name: "cc",
            label: "Congestion control",
            help: "net.ipv4.tcp_congestion_control; BBR runs with the fq qdisc",
            kind: Kind::Choice(CONGESTION_CONTROLS),
            min: 0.0,
            max: 2.0,
            default: 1.0,
            log: false,
        },
        ParamSpec {
            name: "rtt",
            label: "RTT",
            help: "round-trip propagation delay",
            kind: Kind::Duration,
            min: 1.0 * MS,
            max: 400.0 * MS,
            default: 210.0 * MS,
            log: true,
        },
        ParamSpec {
            name: "bandwidth",
            label: "Bandwidth",
            help: "bottleneck rate",
            kind: Kind::Rate,
            min: 1e6,
            max: 1e9,
            default: 110e6,
            log: true,
        },
        ParamSpec {
            name: "loss",
            label: "Random loss",
            help: "probability that any one packet is lost, each direction",
            kind: Kind::Ratio,
            min: 1e-6,
            max: 0.05,
            default: 3e-5,
            log: true,
        },
        ParamSpec {
            name: "queue",
            label: "Bottleneck queue",
            help: "drop-tail queue in bytes at the bottleneck",
            kind: Kind::Bytes,
            min: 16.0 * 1024.0,
            max: 256.0 * 1024.0 * 1024.0,
            // Seed 003's queue: two BDPs of 110 Mbit/s × 210 ms (2 × 2,887,500 B).
            default: 5_775_000.0,
            log: true,
        },
        ParamSpec {
            name: "wmem",
            label: "Send buffer ceiling",
            help: "net.ipv4.tcp_wmem[2] on the sender: how far autotuning may grow its send buffer",
            kind: Kind::Bytes,
            min: 64.0 * 1024.0,
            max: 256.0 * 1024.0 * 1024.0,
            // Seed 003's: 25 MiB.
            default: 26_214_400.0,
            log: true,
        },
        ParamSpec {
            name: "rmem",
            label: "Receive buffer ceiling",
            help: "net.ipv4.tcp_rmem[2] on the receiver: how far autotuning may grow its receive buffer (and the window scale it offers)",
            kind: Kind::Bytes,
            min: 64.0 * 1024.0,
            max: 256.0 * 1024.0 * 1024.0,
            // Seed 003's: 34,952,000 B (about 33 MiB).
            default: 34_952_000.0,
            log: true,
        },
        ParamSpec {
            name: "duration",
            label: "Duration",
            help: "how long the flow sends",
            kind: Kind::Duration,
            min: 1.0 * S,
            max: 30.0 * S,
            default: 30.0 * S,
            log: true,
        },
    ],
    presets: LONG_FAT_PRESETS,
};
