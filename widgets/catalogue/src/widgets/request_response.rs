//! Requests and replies on one connection, so that the sender's Nagle
//! (`tcp_nagle_check`) and the receiver's delayed ACK (`tcp_send_delayed_ack`)
//! can meet (seed 000, cases 1 to 3).
//!
//! The client writes each request as one `write()` or as a header and a
//! body (two writes, as curl does with `Expect:` or a front end does); the
//! server answers once the whole request is in. Both hosts run the same
//! stack: the Nagle, cork and delayed-ACK settings apply to the client's
//! requests and the server's replies alike (case 2's stall is in the reply).

use super::KERNEL;
use crate::spec::{Preset, WidgetSpec};
use crate::values::{Bytes, Choice, Count, Duration, Param, Rate, Switch, Values};
use sim_core::config::{DelayedAck, HostSettings, Kernel, Nagle, Pacing, PathConfig, Scenario};
use sim_core::time::SimDuration;

pub const WIDGET: WidgetSpec = WidgetSpec {
    name: "request-response",
    title: crate::prose!("Nagle meets delayed ACK"),
    params: &[
        RTT.spec,
        BANDWIDTH.spec,
        MSS.spec,
        FORM.spec,
        HEADER.spec,
        BODY.spec,
        REPLY.spec,
        EXCHANGES.spec,
        THINK.spec,
        NAGLE.spec,
        CORK.spec,
        DELAYED_ACK.spec,
        QUICKACK.spec,
        KERNEL.spec,
    ],
    presets: PRESETS,
    // The two halves of the deadlock: how the request is written and what
    // each side's stack does about small segments and ACKs.
    primary: &[
        FORM.spec.name,
        NAGLE.spec.name,
        DELAYED_ACK.spec.name,
        RTT.spec.name,
    ],
    values_of: crate::native_fn!(values_of),
    scenario,
};

const MS: f64 = 1e6;
const S: f64 = 1e9;
const KIB: f64 = 1024.0;
const MIB: f64 = 1024.0 * KIB;

pub const RTT: Param<Duration> = Param::new("rtt", "RTT", "round-trip propagation delay")
    .range(0.1 * MS, 300.0 * MS)
    .default(1.0 * MS)
    .log_scale();

pub const BANDWIDTH: Param<Rate> = Param::new("bandwidth", "Bandwidth", "bottleneck rate")
    .range(1e6, 10e9)
    .default(1e9)
    .log_scale();

pub const MSS: Param<Count> = Param::new("mss", "MSS", "payload bytes per segment")
    .range(536.0, 8948.0)
    .default(1448.0);

pub const FORM: Param<Form> = Param::new(
    "form",
    "Request written as",
    "header-body: two write() calls; one-write: one write() or writev",
)
.default(0.0);

pub const HEADER: Param<Bytes> = Param::new("header", "Header", "the request's first write")
    .range(1.0, 64.0 * KIB)
    .default(300.0)
    .log_scale();

// Linear, so that sizes show to the byte (99,900 against 100,000).
pub const BODY: Param<Bytes> = Param::new("body", "Body", "the rest of the request")
    .range(0.0, MIB)
    .default(1000.0);

pub const REPLY: Param<Bytes> = Param::new("reply", "Reply", "the server's answer")
    .range(1.0, MIB)
    .default(1000.0);

pub const EXCHANGES: Param<Count> = Param::new(
    "exchanges",
    "Exchanges",
    "requests on one connection",
)
.range(1.0, 50.0)
.default(10.0);

pub const THINK: Param<Duration> = Param::new(
    "think",
    "Think time",
    "from a reply to the next request",
)
.range(0.0, 10.0 * S);

pub const NAGLE: Param<NagleChoice> = Param::new(
    "nagle",
    "Nagle",
    "linux: Minshall (tcp_minshall_check); classic: RFC 896 (BSD, macOS, Windows); off: TCP_NODELAY; both hosts",
)
.default(0.0)
.knob("TCP_NODELAY");

pub const CORK: Param<Switch> = Param::new(
    "cork",
    "TCP_CORK",
    "TCP_CORK around each message's writes; both hosts",
)
.knob("TCP_CORK");

pub const DELAYED_ACK: Param<DelayedAckChoice> = Param::new(
    "delayed_ack",
    "Delayed ACK",
    "linux: quick ACKs, then ato (40 ms minimum); 200ms: fixed, as Windows; off; both hosts",
)
.default(0.0);

pub const QUICKACK: Param<Switch> = Param::new(
    "quickack",
    "quickack",
    "ip route … quickack 1, or TCP_QUICKACK after every read; both hosts",
)
.knob("quickack");

/// How the client's application hands a request to its socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    HeaderBody,
    OneWrite,
}

impl Choice for Form {
    const NAMES: &'static [&'static str] = &["header-body", "one-write"];
    fn from_index(index: usize) -> Option<Self> {
        [Form::HeaderBody, Form::OneWrite].get(index).copied()
    }
    fn index(self) -> usize {
        self as usize
    }
}

/// `Nagle` by the names the widget shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NagleChoice(pub Nagle);

impl Choice for NagleChoice {
    const NAMES: &'static [&'static str] = &["linux", "classic", "off"];
    fn from_index(index: usize) -> Option<Self> {
        [Nagle::Minshall, Nagle::Classic, Nagle::Off]
            .get(index)
            .map(|&n| NagleChoice(n))
    }
    fn index(self) -> usize {
        match self.0 {
            Nagle::Minshall => 0,
            Nagle::Classic => 1,
            Nagle::Off => 2,
        }
    }
}

/// Windows' delayed-ACK timer (and the BSDs' upper bound): 200 ms.
pub const FIXED_DELACK: SimDuration = SimDuration::from_millis(200);

/// The receiver's ACK policy by the names the widget shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayedAckChoice {
    Linux,
    Fixed200ms,
    Off,
}

impl Choice for DelayedAckChoice {
    const NAMES: &'static [&'static str] = &["linux", "200ms", "off"];
    fn from_index(index: usize) -> Option<Self> {
        use DelayedAckChoice::*;
        [Linux, Fixed200ms, Off].get(index).copied()
    }
    fn index(self) -> usize {
        self as usize
    }
}

impl DelayedAckChoice {
    fn policy(self) -> DelayedAck {
        match self {
            DelayedAckChoice::Linux => DelayedAck::Linux,
            DelayedAckChoice::Fixed200ms => DelayedAck::Fixed(FIXED_DELACK),
            DelayedAckChoice::Off => DelayedAck::Off,
        }
    }

    /// The option for a file's policy; a timer other than 200 ms is a file
    /// the widget cannot show, which the build refuses.
    fn of(policy: &DelayedAck) -> DelayedAckChoice {
        match policy {
            DelayedAck::Linux => DelayedAckChoice::Linux,
            DelayedAck::Off => DelayedAckChoice::Off,
            DelayedAck::Fixed(d) if *d == FIXED_DELACK => DelayedAckChoice::Fixed200ms,
            DelayedAck::Fixed(_) => panic!("the widget offers a 200 ms delayed-ACK timer only"),
        }
    }
}

const PRESETS: &[Preset] = &[
    Preset {
        name: "seed-300k-header-body",
        title: crate::prose!("Case 1: 300 KB posted as header + body"),
        scenario: crate::native!("seed-000-300k-header-body.toml"),
        notes: crate::prose!("Seed 000 measured over 300 ms per SET. Read the exchange times."),
    },
    Preset {
        name: "seed-99900-classic",
        title: crate::prose!("Case 2: 99,900 B, classic stacks"),
        scenario: crate::native!("seed-000-99900-classic.toml"),
        notes: crate::prose!("68 full segments: the last pair is ACKed at once, so the tail goes."),
    },
    Preset {
        name: "seed-100000-classic",
        title: crate::prose!("Case 2: 100,000 B, classic stacks"),
        scenario: crate::native!("seed-000-100000-classic.toml"),
        notes: crate::prose!("69 full segments: the odd one waits for the timer, and so does the 88-byte tail."),
    },
    Preset {
        name: "seed-99900-linux",
        title: crate::prose!("Case 2: 99,900 B, Linux"),
        scenario: crate::native!("seed-000-99900-linux.toml"),
        notes: crate::prose!("The same loop between Linux hosts."),
    },
    Preset {
        name: "seed-100000-linux",
        title: crate::prose!("Case 2: 100,000 B, Linux"),
        scenario: crate::native!("seed-000-100000-linux.toml"),
        notes: crate::prose!("Minshall: the 88-byte tail leaves at once."),
    },
    Preset {
        name: "seed-1600-one-write",
        title: crate::prose!("Case 3: 1,600 B in one write, Linux"),
        scenario: crate::native!("seed-000-1600-one-write.toml"),
        notes: crate::prose!("Linux sends the short tail at once."),
    },
    Preset {
        name: "seed-1600-one-write-classic",
        title: crate::prose!("Case 3: 1,600 B in one write, classic Nagle"),
        scenario: crate::native!("seed-000-1600-one-write-classic.toml"),
        notes: crate::prose!("The tail waits for the ACK of the full segment."),
    },
    Preset {
        name: "seed-post-header-body",
        title: crate::prose!("Case 3: a POST as header + body, 7 ms"),
        scenario: crate::native!("seed-000-post-header-body.toml"),
        notes: crate::prose!("The body waits behind the header after the first exchange."),
    },
];

/// Ten requests on one connection over a symmetric path, both hosts the
/// chosen kernel's with the same Nagle, cork and delayed-ACK settings.
fn scenario(v: &Values) -> Scenario {
    let kernel = v.choice(KERNEL);
    let host = || {
        let mut h = HostSettings::for_kernel_choice(kernel);
        h.set_mss(v.count(MSS));
        match v.choice(NAGLE).0 {
            Nagle::Off => h.set_tcp_nodelay(true),
            nagle => h.set_nagle(nagle),
        }
        h.set_tcp_cork(v.choice(CORK).on());
        h.set_delayed_ack(v.choice(DELAYED_ACK).policy());
        h.set_route_quickack(v.choice(QUICKACK).on());
        h.derive()
    };
    let mut s = Scenario {
        path: PathConfig::symmetric(v.rate(BANDWIDTH), v.duration(RTT)),
        client: host(),
        server: host(),
        ..Scenario::default()
    };
    let (header, body) = (v.bytes(HEADER), v.bytes(BODY));
    s.app.request = match v.choice(FORM) {
        Form::HeaderBody if body > 0 => vec![header, body],
        _ => vec![header + body],
    };
    s.app.response = vec![v.bytes(REPLY)];
    s.app.repeat = v.count(EXCHANGES);
    s.app.pacing = Pacing::After(v.duration(THINK));
    s
}

/// What each parameter reads from a scenario (a preset's file).
fn values_of(s: &Scenario) -> Values {
    let mut v = Values::unread(WIDGET.params);
    v.set(RTT, s.path.delay_forward + s.path.delay_reverse);
    v.set(BANDWIDTH, s.path.rate_bps);
    v.set(MSS, s.client.sender.mss);
    // A one-write request keeps the default header (or all of it, if
    // smaller) and calls the rest its body.
    let (form, header, body) = match s.app.request[..] {
        [h, b] => (Form::HeaderBody, h, b),
        _ => {
            let total = s.app.request_bytes();
            let h = total.min(HEADER.spec.default as u64).max(1);
            (Form::OneWrite, h, total.saturating_sub(h))
        }
    };
    v.set(FORM, form);
    v.set(HEADER, header);
    v.set(BODY, body);
    v.set(REPLY, s.app.response_bytes());
    v.set(EXCHANGES, s.app.repeat);
    let (Pacing::Every(think) | Pacing::After(think)) = s.app.pacing;
    v.set(THINK, think);
    v.set(NAGLE, NagleChoice(s.client.sender.nagle));
    v.set(CORK, Switch::from(s.client.sender.cork));
    v.set(DELAYED_ACK, DelayedAckChoice::of(&s.client.receiver.delayed_ack));
    v.set(QUICKACK, Switch::from(s.client.receiver.quickack));
    v.set(KERNEL, s.server.kernel.unwrap_or(Kernel::Today));
    v
}

#[cfg(test)]
mod tests;
