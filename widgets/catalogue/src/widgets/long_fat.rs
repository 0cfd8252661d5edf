//! Bulk flows over a long fat network for up to 30 s: the congestion
//! control module against loss, RTT and the bottleneck's queue (seed 003).
//! The buffers' autotuning ceilings default to what seed 003's author raised
//! them to; lowering them shows a buffer, not congestion control, setting
//! the rate. Up to 16 flows share the path (as `iperf3 -P`), all running one
//! algorithm or CUBIC and BBR in turn (`cubic+bbr`).

use super::KERNEL;
use crate::spec::{Preset, WidgetSpec};
use crate::values::{Bdps, Bytes, Choice, Count, Duration, Param, Rate, Ratio, Values};
use sim_core::cc::Kind;
use sim_core::config::{HostSettings, Kernel, LossDirection, PathConfig, Qdisc, Scenario};

pub const WIDGET: WidgetSpec = WidgetSpec {
    name: "long-fat",
    title: crate::prose!("One flow over a long fat network"),
    params: &[
        CC.spec,
        RTT.spec,
        BANDWIDTH.spec,
        LOSS.spec,
        QUEUE.spec,
        QUEUE_IN.spec,
        QUEUE_BDP.spec,
        WMEM.spec,
        RMEM.spec,
        DURATION.spec,
        KERNEL.spec,
        FLOWS.spec,
        QDISC.spec,
        LOSS_IN.spec,
    ],
    presets: PRESETS,
    // The algorithm against the path: its round trip, its rate and the
    // random loss that CUBIC reads as congestion and BBR does not.
    primary: &[CC.spec.name, RTT.spec.name, BANDWIDTH.spec.name, LOSS.spec.name],
    values_of: crate::native_fn!(values_of),
    scenario,
};

const MS: f64 = 1e6;
const S: f64 = 1e9;
const KIB: f64 = 1024.0;
const MIB: f64 = 1024.0 * KIB;

/// The flows' algorithms: one for all, or CUBIC and BBR in turn (flow 0
/// CUBIC, flow 1 BBR, …), as two applications choosing their own with
/// `setsockopt(TCP_CONGESTION)` would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithms {
    One(Kind),
    CubicAndBbr,
}

impl Choice for Algorithms {
    /// sim-core's kernel names (`Kind::NAMES`), then the mix.
    const NAMES: &'static [&'static str] = &["reno", "cubic", "bbr", "cubic+bbr"];
    fn from_index(index: usize) -> Option<Self> {
        match Kind::ALL.get(index) {
            Some(&k) => Some(Algorithms::One(k)),
            None if index == Kind::ALL.len() => Some(Algorithms::CubicAndBbr),
            None => None,
        }
    }
    fn index(self) -> usize {
        match self {
            Algorithms::One(k) => k as usize,
            Algorithms::CubicAndBbr => Kind::ALL.len(),
        }
    }
}

impl Algorithms {
    /// The server's default and the per-flow list (empty: all the default).
    fn kinds(self) -> (Kind, Vec<Kind>) {
        match self {
            Algorithms::One(k) => (k, Vec::new()),
            Algorithms::CubicAndBbr => (Kind::Cubic, vec![Kind::Cubic, Kind::Bbr]),
        }
    }
}

pub const CC: Param<Algorithms> = Param::new(
    "cc",
    "Congestion control",
    "net.ipv4.tcp_congestion_control; cubic+bbr: flows alternate",
)
// CUBIC, as distributions ship `net.ipv4.tcp_congestion_control`.
.default(Kind::Cubic as usize as f64)
.knob("net.ipv4.tcp_congestion_control");

pub const FLOWS: Param<Count> = Param::new(
    "flows",
    "Flows",
    "parallel connections sharing the path, as iperf3 -P",
)
.range(1.0, 16.0)
.default(1.0);

/// The sender's qdisc: `pfifo_fast`, the kernel's built-in default, or `fq`,
/// which paces every flow at its `sk_pacing_rate` (BBR paces itself without
/// it, through TCP's internal pacing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SenderQdisc {
    PfifoFast,
    Fq,
}

impl Choice for SenderQdisc {
    const NAMES: &'static [&'static str] = &["pfifo_fast", "fq"];
    fn from_index(index: usize) -> Option<Self> {
        [SenderQdisc::PfifoFast, SenderQdisc::Fq].get(index).copied()
    }
    fn index(self) -> usize {
        self as usize
    }
}

pub const QDISC: Param<SenderQdisc> = Param::new(
    "qdisc",
    "Sender qdisc",
    "net.core.default_qdisc on the sender; fq paces every flow",
)
.knob("net.core.default_qdisc");

/// Which packets random loss hits (sim-core's `LossDirection`), or `none`:
/// no random loss at all, whatever the loss slider says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossIn {
    Some(LossDirection),
    None,
}

impl Choice for LossIn {
    const NAMES: &'static [&'static str] = &["data", "acks", "both", "none"];
    fn from_index(index: usize) -> Option<Self> {
        use LossDirection::*;
        match index {
            0..=2 => Some(LossIn::Some([Data, Acks, Both][index])),
            3 => Some(LossIn::None),
            _ => None,
        }
    }
    fn index(self) -> usize {
        match self {
            LossIn::Some(d) => d as usize,
            LossIn::None => 3,
        }
    }
}

pub const LOSS_IN: Param<LossIn> = Param::new(
    "loss_in",
    "Random loss hits",
    "data, ACKs, both, or none (no random loss)",
);

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
    "drop-tail queue in bytes at the bottleneck, when the queue is set in bytes",
)
.range(16.0 * KIB, 256.0 * MIB)
// Seed 003's queue: two BDPs of 110 Mbit/s × 210 ms (2 × 2,887,500 B).
.default(5_775_000.0)
.log_scale();

/// Which slider sets the bottleneck queue: `queue` in bytes, or `queue_bdp`
/// in bandwidth-delay products of the path (rate × RTT, as a scenario
/// file's `queue_bdp`), which keeps its depth relative to the path as the
/// rate and RTT sliders move. Bytes by default, so a link written before
/// the choice existed keeps its queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueIn {
    Bytes,
    Bdps,
}

impl Choice for QueueIn {
    const NAMES: &'static [&'static str] = &["bytes", "BDPs"];
    fn from_index(index: usize) -> Option<Self> {
        [QueueIn::Bytes, QueueIn::Bdps].get(index).copied()
    }
    fn index(self) -> usize {
        self as usize
    }
}

pub const QUEUE_IN: Param<QueueIn> = Param::new(
    "queue_in",
    "Queue set in",
    "bytes (the queue slider) or BDPs of the path (the queue in BDPs slider)",
);

pub const QUEUE_BDP: Param<Bdps> = Param::new(
    "queue_bdp",
    "Bottleneck queue in BDPs",
    "drop-tail queue at the bottleneck in bandwidth-delay products (rate × RTT), when the queue is set in BDPs",
)
.range(0.05, 16.0)
// Seed 003's queue: two BDPs.
.default(2.0)
.log_scale();

/// The path's BDP in bytes, as a scenario file's `queue_bdp` reads it.
fn bdp_bytes(path: &PathConfig) -> f64 {
    path.rate_bps as f64 / 8.0 * path.rtt().as_secs_f64()
}

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
        title: crate::prose!("CUBIC on the article's path: 110 Mbit/s × 210 ms, 3e-5 loss"),
        scenario: crate::native!("seed-003-lfn-cubic.toml"),
        notes: crate::prose!("One CUBIC flow for 30 s at 210 ms. Open the cwnd chart: each random loss cuts the window to 70 %, and at 210 ms it takes seconds to grow back. Read the iperf3 panel: the rate swings, as the source's 52 to 105 Mbit/s did."),
    },
    Preset {
        name: "seed-003-bbr",
        title: crate::prose!("BBR on the article's path: 110 Mbit/s × 210 ms, 3e-5 loss"),
        scenario: crate::native!("seed-003-lfn-bbr.toml"),
        notes: crate::prose!("The same path with BBR and fq. BBR does not treat a random loss as congestion: its rate follows the bandwidth it measures. Point at Startup, Drain and the 8-phase ProbeBW cycle in the cwnd chart, and at the steady iperf3 lines."),
    },
    Preset {
        name: "ten-flows",
        title: crate::prose!("Ten BBR flows on the 1 Gbit/s line"),
        scenario: crate::native!("seed-003-lfn-bbr-10-flows.toml"),
        notes: crate::prose!("As the source: ten sockets fill the line."),
    },
    Preset {
        name: "deep-queue-cubic",
        title: crate::prose!("Bufferbloat: CUBIC, 2-BDP queue, no random loss"),
        scenario: crate::native!("lfn-deep-queue-cubic.toml"),
        notes: crate::prose!("Read the RTT chart: far above 210 ms."),
    },
    Preset {
        name: "deep-queue-bbr",
        title: crate::prose!("The same queue with BBR"),
        scenario: crate::native!("lfn-deep-queue-bbr.toml"),
        notes: crate::prose!("After Drain the RTT sits near 210 ms."),
    },
    Preset {
        name: "shallow-queue-bbr",
        title: crate::prose!("BBR v1 in a 0.1-BDP queue"),
        scenario: crate::native!("lfn-shallow-queue-bbr.toml"),
        notes: crate::prose!("Two BDPs in flight overflow the queue; BBR v1 does not back off."),
    },
    Preset {
        name: "loss-0.1pct-cubic",
        title: crate::prose!("CUBIC with 0.1 % random loss"),
        scenario: crate::native!("lfn-loss-0.1pct-cubic.toml"),
        notes: crate::prose!("CUBIC never regains its window before the next loss."),
    },
    Preset {
        name: "loss-0.1pct-bbr",
        title: crate::prose!("BBR with 0.1 % random loss"),
        scenario: crate::native!("lfn-loss-0.1pct-bbr.toml"),
        notes: crate::prose!("Loss is not in BBR's model."),
    },
    Preset {
        name: "cubic-and-bbr",
        title: crate::prose!("A CUBIC and a BBR flow sharing the path"),
        scenario: crate::native!("lfn-cubic-and-bbr.toml"),
        notes: crate::prose!("Flow 0 CUBIC, flow 1 BBR: BBR takes most of the line."),
    },
];

/// A 100-byte request, then more than the time allows (as `iperf3 -t`),
/// on each flow.
fn scenario(v: &Values) -> Scenario {
    let (loss, loss_direction) = match v.choice(LOSS_IN) {
        LossIn::Some(d) => (v.ratio(LOSS), d),
        LossIn::None => (0.0, LossDirection::Data),
    };
    let (cc, flow_cc) = v.choice(CC).kinds();
    let mut path = PathConfig {
        loss,
        loss_direction,
        queue_bytes: v.bytes(QUEUE),
        ..PathConfig::symmetric(v.rate(BANDWIDTH), v.duration(RTT))
    };
    if v.choice(QUEUE_IN) == QueueIn::Bdps {
        path.queue_bytes = (bdp_bytes(&path) * v.bdps(QUEUE_BDP)).round() as u64;
    }
    let mut s = Scenario {
        path,
        time_limit: v.duration(DURATION),
        flows: v.count(FLOWS),
        flow_congestion_control: flow_cc,
        ..Scenario::default()
    };
    s.app.request = vec![100];
    s.app.response = vec![2_000_000_000];
    let kernel = v.choice(KERNEL);
    let mut server = HostSettings::for_kernel_choice(kernel);
    server.set_tcp_congestion_control(cc.algorithm());
    if v.choice(QDISC) == SenderQdisc::Fq {
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
    let kind = s.server.sender.congestion_control.kind();
    v.set(
        CC,
        match s.flow_congestion_control[..] {
            [Kind::Cubic, Kind::Bbr] => Algorithms::CubicAndBbr,
            _ => Algorithms::One(kind),
        },
    );
    v.set(RTT, s.path.delay_forward + s.path.delay_reverse);
    v.set(BANDWIDTH, s.path.rate_bps);
    if s.path.loss > 0.0 {
        v.set(LOSS, s.path.loss);
        v.set(LOSS_IN, LossIn::Some(s.path.loss_direction));
    } else {
        // No random loss: the slider keeps its default for when it returns.
        v.set(LOSS, LOSS.spec.default);
        v.set(LOSS_IN, LossIn::None);
    }
    v.set(QUEUE, s.path.queue_bytes);
    // A queue that is a round number of BDPs (3 significant digits, as the
    // slider rounds) within the slider's range, as the presets' files give
    // it (`queue_bdp`), is read in BDPs; any other in bytes.
    let bdps = QUEUE_BDP.spec.round(s.path.queue_bytes as f64 / bdp_bytes(&s.path));
    let in_bdps = (bdp_bytes(&s.path) * bdps).round() as u64 == s.path.queue_bytes
        && (QUEUE_BDP.spec.min..=QUEUE_BDP.spec.max).contains(&bdps);
    v.set(QUEUE_IN, if in_bdps { QueueIn::Bdps } else { QueueIn::Bytes });
    v.set(QUEUE_BDP, if in_bdps { bdps } else { QUEUE_BDP.spec.default });
    v.set(WMEM, s.server.sender.sndbuf_max);
    v.set(RMEM, s.client.receiver.rcvbuf_max);
    v.set(DURATION, s.time_limit);
    v.set(KERNEL, s.server.kernel.unwrap_or(Kernel::Today));
    v.set(FLOWS, s.flows);
    v.set(
        QDISC,
        if s.server.sender.fq {
            SenderQdisc::Fq
        } else {
            SenderQdisc::PfifoFast
        },
    );
    v
}
