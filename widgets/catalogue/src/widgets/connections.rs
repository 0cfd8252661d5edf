//! Several connections to the same client, one after another, with the
//! server's tcp_metrics cache between them (seed 000, case 11): a lossy
//! first connection closes with a small ssthresh; with
//! `net.ipv4.tcp_no_ssthresh_metrics_save` = 0 (older kernels always
//! behaved so) the later, clean connections start from it and leave slow
//! start early.

use super::KERNEL;
use crate::spec::{Preset, WidgetSpec};
use crate::values::{Bytes, Choice, Count, Duration, Param, Rate, Ratio, Switch, Values};
use sim_core::cc;
use sim_core::config::{HostSettings, Kernel, LossDirection, Pacing, PathConfig, Qdisc, Scenario};
use sim_core::time::SimDuration;

pub const WIDGET: WidgetSpec = WidgetSpec {
    name: "connections",
    title: crate::prose!("Connections to one client and the tcp_metrics cache"),
    params: &[
        NO_SSTHRESH_METRICS_SAVE.spec,
        NO_METRICS_SAVE.spec,
        LOSS.spec,
        LOSS_DIRECTION.spec,
        LOSS_ON.spec,
        EPISODE.spec,
        CONNECTIONS.spec,
        SIZE.spec,
        GAP.spec,
        FLUSH_BEFORE.spec,
        RTT.spec,
        BANDWIDTH.spec,
        CC.spec,
        KERNEL.spec,
    ],
    presets: PRESETS,
    // The cache's sysctl against the loss that fills it and the RTT that
    // makes a small ssthresh costly.
    primary: &[
        NO_SSTHRESH_METRICS_SAVE.spec.name,
        LOSS.spec.name,
        RTT.spec.name,
        CONNECTIONS.spec.name,
    ],
    values_of: crate::native_fn!(values_of),
    scenario,
};

const MS: f64 = 1e6;
const S: f64 = 1e9;
const KIB: f64 = 1024.0;
const MIB: f64 = 1024.0 * KIB;

pub const NO_SSTHRESH_METRICS_SAVE: Param<Switch> = Param::new(
    "no_ssthresh_metrics_save",
    "tcp_no_ssthresh_metrics_save",
    "net.ipv4.tcp_no_ssthresh_metrics_save on the server; on (the default since 5.6): no ssthresh cached or used. Older kernels lack it and always cache",
)
.default(1.0)
.knob("net.ipv4.tcp_no_ssthresh_metrics_save");

pub const NO_METRICS_SAVE: Param<Switch> = Param::new(
    "no_metrics_save",
    "tcp_no_metrics_save",
    "net.ipv4.tcp_no_metrics_save on the server; on: nothing is cached when a connection closes",
)
.default(0.0)
.knob("net.ipv4.tcp_no_metrics_save");

pub const LOSS: Param<Ratio> = Param::new(
    "loss",
    "Loss on the first connection",
    "probability that a packet is lost",
)
.range(1e-5, 0.1)
.default(0.01)
.log_scale();

pub const LOSS_DIRECTION: Param<Direction> = Param::new(
    "loss_direction",
    "Lost packets",
    "data: the server's packets; acks: the client's; both",
)
.default(0.0);

pub const LOSS_ON: Param<LossOn> = Param::new(
    "loss_on",
    "Loss during",
    "first: the first connection; episode: the run's first seconds",
)
.default(0.0);

pub const EPISODE: Param<Duration> = Param::new(
    "episode",
    "Episode length",
    "how long the loss episode lasts",
)
.range(0.1 * S, 60.0 * S)
.default(1.0 * S)
.log_scale();

pub const CONNECTIONS: Param<Count> = Param::new(
    "connections",
    "Connections",
    "how many connections the client opens, one after another",
)
.range(1.0, 10.0)
.default(4.0);

pub const SIZE: Param<Bytes> = Param::new(
    "size",
    "Transfer size",
    "bytes the server sends on each connection",
)
.range(16.0 * KIB, 64.0 * MIB)
.default(2.0 * MIB)
.log_scale();

pub const GAP: Param<Duration> = Param::new(
    "gap",
    "Gap between connections",
    "from one connection's end to the next one's SYN",
)
.range(10.0 * MS, 7200.0 * S)
.default(1.0 * S)
.log_scale();

pub const FLUSH_BEFORE: Param<Count> = Param::new(
    "flush_before",
    "Flush before connection",
    "ip tcp_metrics flush all on the server just before this connection; 0: never",
)
.range(0.0, 10.0)
.default(0.0)
.knob("ip tcp_metrics flush");

pub const RTT: Param<Duration> = Param::new("rtt", "RTT", "round-trip propagation delay")
    .range(1.0 * MS, 400.0 * MS)
    .default(100.0 * MS)
    .log_scale();

pub const BANDWIDTH: Param<Rate> = Param::new("bandwidth", "Bandwidth", "bottleneck rate")
    .range(1e6, 10e9)
    .default(100e6)
    .log_scale();

pub const CC: Param<cc::Kind> = Param::new(
    "cc",
    "Congestion control",
    "net.ipv4.tcp_congestion_control; BBR runs with the fq qdisc",
)
.default(cc::Kind::Cubic as usize as f64)
.knob("net.ipv4.tcp_congestion_control");

/// Which packets the loss takes: sim-core's `LossDirection`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direction(pub LossDirection);

impl Choice for Direction {
    const NAMES: &'static [&'static str] = &["data", "acks", "both"];
    fn from_index(index: usize) -> Option<Self> {
        [LossDirection::Data, LossDirection::Acks, LossDirection::Both]
            .get(index)
            .map(|d| Direction(*d))
    }
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// When the path loses packets: through the first connection, or for an
/// episode from the start of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossOn {
    First,
    Episode,
}

impl Choice for LossOn {
    const NAMES: &'static [&'static str] = &["first", "episode"];
    fn from_index(index: usize) -> Option<Self> {
        [LossOn::First, LossOn::Episode].get(index).copied()
    }
    fn index(self) -> usize {
        self as usize
    }
}

const PRESETS: &[Preset] = &[
    Preset {
        name: "lossy-first-saved",
        title: crate::prose!("A lossy connection, then three clean ones; ssthresh cached"),
        scenario: crate::native!("seed-000-tcp-metrics-lossy-first-saved.toml"),
        notes: crate::prose!("Open the tcp_metrics panel after the first close: a small ssthresh, which each later connection takes at open."),
    },
    Preset {
        name: "lossy-first-today",
        title: crate::prose!("The same on today's default: ssthresh not cached"),
        scenario: crate::native!("seed-000-tcp-metrics-lossy-first-today.toml"),
        notes: crate::prose!("The cache keeps rtt, rttvar and cwnd; the later connections slow-start from scratch."),
    },
    Preset {
        name: "flush",
        title: crate::prose!("ssthresh cached, flushed before the third connection"),
        scenario: crate::native!("seed-000-tcp-metrics-flush.toml"),
        notes: crate::prose!("The second connection crawls; after the flush the third and fourth are fast."),
    },
    Preset {
        name: "no-metrics-save",
        title: crate::prose!("ssthresh caching on, but tcp_no_metrics_save = 1"),
        scenario: crate::native!("seed-000-tcp-metrics-no-metrics-save.toml"),
        notes: crate::prose!("Nothing is cached, not even the RTT that sets the first RTO."),
    },
    Preset {
        name: "aged",
        title: crate::prose!("ssthresh cached, connections two hours apart"),
        scenario: crate::native!("seed-000-tcp-metrics-aged.toml"),
        notes: crate::prose!("Each open finds the entry over an hour old (TCP_METRICS_TIMEOUT) and resets it."),
    },
];

/// `connections` request-response exchanges, each on a new connection,
/// `gap` after the previous one ended; loss on the first connection (or an
/// episode) only.
fn scenario(v: &Values) -> Scenario {
    let kernel = v.choice(KERNEL);
    let cc = v.choice(CC);
    let mut server = HostSettings::for_kernel_choice(kernel);
    server.set_tcp_congestion_control(cc.algorithm());
    if cc == cc::Kind::Bbr {
        server.set_default_qdisc(Qdisc::Fq);
    }
    server.set_tcp_no_metrics_save(v.choice(NO_METRICS_SAVE).on());
    // The sysctl arrived in 5.6: older eras keep their own (always saving).
    if kernel == Kernel::Today {
        server.set_tcp_no_ssthresh_metrics_save(v.choice(NO_SSTHRESH_METRICS_SAVE).on());
    }
    let client = HostSettings::for_kernel_choice(kernel);
    let connections = v.count(CONNECTIONS);
    let mut path = PathConfig {
        loss: v.ratio(LOSS),
        loss_direction: v.choice(LOSS_DIRECTION).0,
        ..PathConfig::symmetric(v.rate(BANDWIDTH), v.duration(RTT))
    };
    match v.choice(LOSS_ON) {
        LossOn::First => path.loss_connections = Some(1),
        LossOn::Episode => path.loss_until = Some(v.duration(EPISODE)),
    }
    let mut s = Scenario {
        path,
        client: client.derive(),
        server: server.derive(),
        // Ten minutes for the transfers, as other widgets allow one, plus
        // the gaps between them.
        time_limit: SimDuration(600 * S as u64 + (connections as u64 - 1) * v.duration(GAP).0),
        seed: 3,
        ..Scenario::default()
    };
    s.app.request = vec![100];
    s.app.response = vec![v.bytes(SIZE)];
    s.app.repeat = connections;
    s.app.pacing = Pacing::After(v.duration(GAP));
    s.app.new_connection = true;
    let flush = v.count(FLUSH_BEFORE);
    s.app.tcp_metrics_flush_before = (1..=connections).contains(&flush).then_some(flush);
    s
}

/// What each parameter reads from a scenario (a preset's file).
fn values_of(s: &Scenario) -> Values {
    let mut v = Values::unread(WIDGET.params);
    let kernel = s.server.kernel.unwrap_or(Kernel::Today);
    v.set(
        NO_SSTHRESH_METRICS_SAVE,
        Switch::from(!s.server.metrics.save_ssthresh),
    );
    v.set(NO_METRICS_SAVE, Switch::from(!s.server.metrics.save));
    v.set(LOSS, s.path.loss);
    v.set(LOSS_DIRECTION, Direction(s.path.loss_direction));
    let episode = s.path.loss_until;
    v.set(
        LOSS_ON,
        if episode.is_some() {
            LossOn::Episode
        } else {
            LossOn::First
        },
    );
    v.set(
        EPISODE,
        episode.unwrap_or(SimDuration(EPISODE.spec.default as u64)),
    );
    v.set(CONNECTIONS, s.app.repeat);
    v.set(SIZE, s.app.response_bytes());
    let (Pacing::Every(gap) | Pacing::After(gap)) = s.app.pacing;
    v.set(GAP, gap);
    v.set(FLUSH_BEFORE, s.app.tcp_metrics_flush_before.unwrap_or(0));
    v.set(RTT, s.path.delay_forward + s.path.delay_reverse);
    v.set(BANDWIDTH, s.path.rate_bps);
    v.set(CC, s.server.sender.congestion_control.kind());
    v.set(KERNEL, kernel);
    v
}
