//! One bulk flow over a long fat network for up to 30 s: the congestion
//! control module against loss, RTT and the bottleneck's queue (seed 003).
//! The buffers' autotuning ceilings default to what seed 003's author raised
//! them to; lowering them shows a buffer, not congestion control, setting
//! the rate.

use super::KERNEL;
use crate::spec::{Preset, WidgetSpec};
use crate::values::{Bytes, Duration, Param, Rate, Ratio, Values};
use sim_core::cc;
use sim_core::config::{HostSettings, Kernel, PathConfig, Qdisc, Scenario};

pub const WIDGET: WidgetSpec = WidgetSpec {
    name: "long-fat",
    title: "One flow over a long fat network",
    params: &[
        CC.spec,
        RTT.spec,
        BANDWIDTH.spec,
        LOSS.spec,
        QUEUE.spec,
        WMEM.spec,
        RMEM.spec,
        DURATION.spec,
        KERNEL.spec,
    ],
    presets: PRESETS,
    // The algorithm against the path: its round trip, its rate and the
    // random loss that CUBIC reads as congestion and BBR does not.
    primary: &[CC.spec.name, RTT.spec.name, BANDWIDTH.spec.name, LOSS.spec.name],
    values_of,
    scenario,
};

const MS: f64 = 1e6;
const S: f64 = 1e9;
const KIB: f64 = 1024.0;
const MIB: f64 = 1024.0 * KIB;

pub const CC: Param<cc::Kind> = Param::new(
    "cc",
    "Congestion control",
    "net.ipv4.tcp_congestion_control; BBR runs with the fq qdisc",
)
// CUBIC, as distributions ship `net.ipv4.tcp_congestion_control`.
.default(cc::Kind::Cubic as usize as f64)
.knob("net.ipv4.tcp_congestion_control");

pub const RTT: Param<Duration> = Param::new("rtt", "RTT", "round-trip propagation delay")
    .range(1.0 * MS, 400.0 * MS)
    .default(210.0 * MS)
    .log_scale();

pub const BANDWIDTH: Param<Rate> = Param::new("bandwidth", "Bandwidth", "bottleneck rate")
    .range(1e6, 1e9)
    .default(110e6)
    .log_scale();

pub const LOSS: Param<Ratio> = Param::new(
    "loss",
    "Random loss",
    "probability that any one data packet is lost (server → client, before the bottleneck, as netem on the sender)",
)
.range(1e-6, 0.05)
.default(3e-5)
.log_scale();

pub const QUEUE: Param<Bytes> = Param::new(
    "queue",
    "Bottleneck queue",
    "drop-tail queue in bytes at the bottleneck",
)
.range(16.0 * KIB, 256.0 * MIB)
// Seed 003's queue: two BDPs of 110 Mbit/s × 210 ms (2 × 2,887,500 B).
.default(5_775_000.0)
.log_scale();

pub const WMEM: Param<Bytes> = Param::new(
    "wmem",
    "Send buffer ceiling",
    "net.ipv4.tcp_wmem[2] on the sender: how far autotuning may grow its send buffer",
)
.range(64.0 * KIB, 256.0 * MIB)
// Seed 003's: 25 MiB.
.default(26_214_400.0)
.log_scale()
.knob("net.ipv4.tcp_wmem");

pub const RMEM: Param<Bytes> = Param::new(
    "rmem",
    "Receive buffer ceiling",
    "net.ipv4.tcp_rmem[2] on the receiver: how far autotuning may grow its receive buffer (and the window scale it offers)",
)
.range(64.0 * KIB, 256.0 * MIB)
// Seed 003's: 34,952,000 B (about 33 MiB).
.default(34_952_000.0)
.log_scale()
.knob("net.ipv4.tcp_rmem");

pub const DURATION: Param<Duration> =
    Param::new("duration", "Duration", "how long the flow sends")
        .range(1.0 * S, 30.0 * S)
        .default(30.0 * S)
        .log_scale();

const PRESETS: &[Preset] = &[
    Preset {
        name: "seed-003-cubic",
        title: "CUBIC on the article's path: 110 Mbit/s × 210 ms, 3e-5 loss",
        scenario: "seed-003-lfn-cubic.toml",
        notes: crate::prose!("One CUBIC flow for 30 s at 210 ms. Open the cwnd chart: each random loss cuts the window to 70 %, and at 210 ms it takes seconds to grow back. Read the iperf3 panel: the rate swings, as the source's 52 to 105 Mbit/s did."),
    },
    Preset {
        name: "seed-003-bbr",
        title: "BBR on the article's path: 110 Mbit/s × 210 ms, 3e-5 loss",
        scenario: "seed-003-lfn-bbr.toml",
        notes: crate::prose!("The same path with BBR and fq. BBR does not treat a random loss as congestion: its rate follows the bandwidth it measures. Point at Startup, Drain and the 8-phase ProbeBW cycle in the cwnd chart, and at the steady iperf3 lines."),
    },
];

/// A 100-byte request, then more than the time allows (as `iperf3 -t`).
fn scenario(v: &Values) -> Scenario {
    let mut s = Scenario {
        path: PathConfig {
            loss: v.ratio(LOSS),
            queue_bytes: v.bytes(QUEUE),
            ..PathConfig::symmetric(v.rate(BANDWIDTH), v.duration(RTT))
        },
        time_limit: v.duration(DURATION),
        ..Scenario::default()
    };
    s.app.request = vec![100];
    s.app.response = vec![2_000_000_000];
    let cc = v.choice(CC);
    let kernel = v.choice(KERNEL);
    let mut server = HostSettings::for_kernel_choice(kernel);
    server.set_tcp_congestion_control(cc.algorithm());
    if cc == cc::Kind::Bbr {
        // BBR as its authors deploy it, paced by the fq qdisc (seed 003 too).
        server.set_default_qdisc(Qdisc::Fq);
    }
    let mut client = HostSettings::for_kernel_choice(kernel);
    sim_core::benchmarks::raise_ceilings(&mut server, &mut client, v.bytes(WMEM), v.bytes(RMEM));
    s.server = server.derive();
    s.client = client.derive();
    s
}

/// What each parameter reads from a scenario (a preset's file).
fn values_of(s: &Scenario) -> Values {
    let mut v = Values::unread(WIDGET.params);
    v.set(CC, s.server.sender.congestion_control.kind());
    v.set(RTT, s.path.delay_forward + s.path.delay_reverse);
    v.set(BANDWIDTH, s.path.rate_bps);
    v.set(LOSS, s.path.loss);
    v.set(QUEUE, s.path.queue_bytes);
    v.set(WMEM, s.server.sender.sndbuf_max);
    v.set(RMEM, s.client.receiver.rcvbuf_max);
    v.set(DURATION, s.time_limit);
    v.set(KERNEL, s.server.kernel.unwrap_or(Kernel::Today));
    v
}
