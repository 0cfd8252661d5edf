//! The path between client and server: one bottleneck each way, with a
//! propagation delay, a drop-tail queue, seeded random loss (in one direction
//! or both, before or after the bottleneck), a list of segments to drop and
//! outages (every packet one way lost for a while).
//!
//! ```text
//!  server ──► [netem loss: before] ──► [queue] ──► serialiser ──► [loss: after] ──► client
//!             the data direction (`LossDirection::Data`); the ACK direction mirrors it
//! ```

use super::{ConfigError, DEFAULT_QUEUE_BYTES};
use crate::segment::Side;
use crate::time::SimDuration;

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
    /// Probability that a packet is lost on the way (seeded), in the
    /// directions `loss_direction` names.
    pub loss: f64,
    /// Random loss happens only before this time (a lossy episode); `None`: always.
    pub loss_until: Option<SimDuration>,
    /// Which way random loss drops packets (default: the data direction).
    pub loss_direction: LossDirection,
    /// Where on the path a packet is lost, random or listed (default: before
    /// the bottleneck, as `tc netem loss` on the sender's egress).
    pub loss_position: LossPosition,
    /// Segments to drop whatever the seed ("drop exactly these").
    pub drops: Vec<DropRule>,
    /// Random loss only on each flow's first this many connections (with a
    /// connection per exchange); `None`: on all of them.
    pub loss_connections: Option<u32>,
    /// Spans of time in which the path loses every packet one way (or both).
    pub outages: Vec<Outage>,
}

/// A span of time in which the path loses every packet it is offered in
/// `direction`, at the path's `loss_position`: a middlebox dropping one
/// flow, a link down, `iptables -j DROP` added at `from` and removed at
/// `until`. Random loss is drawn as usual meanwhile, so the seed's pattern
/// around the outage is the one the path has without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outage {
    pub direction: LossDirection,
    /// From the start of the run; packets offered at `from` are lost.
    pub from: SimDuration,
    /// Packets offered at `until` or later get through.
    pub until: SimDuration,
}

impl Outage {
    /// Checks the span; `key` is its place (`path.outage[0]`).
    fn validate(&self, key: &str) -> Result<(), ConfigError> {
        if self.until <= self.from {
            return Err(ConfigError {
                key: format!("{key}.until"),
                message: format!(
                    "{} ns is not after `from` ({} ns): an outage must end after it starts",
                    self.until.0, self.from.0
                ),
            });
        }
        Ok(())
    }
}

/// A direction of the path, named after what it carries in the book's cases:
/// the server sends the response (data), the client mostly ACKs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Server → client: everything the server sends (its egress), which is
    /// the response's data, but also its SYN-ACK and its ACKs of requests.
    Data,
    /// Client → server: everything the client sends, which is mostly ACKs,
    /// but also its SYN and its requests.
    Acks,
}

impl Direction {
    /// The direction a segment sent by `side` travels.
    pub fn of(side: Side) -> Direction {
        match side {
            Side::Server => Direction::Data,
            Side::Client => Direction::Acks,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Direction::Data => "data",
            Direction::Acks => "acks",
        }
    }
}

/// Which directions random loss hits. Real paths and `tc netem loss` on one
/// host's egress lose packets one way; dropping both needs netem on both
/// hosts (or both directions of a router).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LossDirection {
    /// Server → client only ([`Direction::Data`]): netem on the data sender.
    #[default]
    Data,
    /// Client → server only ([`Direction::Acks`]): netem on the data receiver.
    Acks,
    /// Both directions, each with the same probability, independently.
    Both,
}

impl LossDirection {
    pub fn includes(self, d: Direction) -> bool {
        match self {
            LossDirection::Data => d == Direction::Data,
            LossDirection::Acks => d == Direction::Acks,
            LossDirection::Both => true,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            LossDirection::Data => "data",
            LossDirection::Acks => "acks",
            LossDirection::Both => "both",
        }
    }
}

/// Where a lost packet disappears: this decides whether it costs the
/// bottleneck anything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LossPosition {
    /// Before the queue: the packet never occupies the queue or the link, as
    /// with `tc qdisc add dev eth0 root netem loss X%` on the sender
    /// (`netem_enqueue` decides loss before queueing anything). The link can
    /// still be filled with packets that arrive.
    #[default]
    Before,
    /// After the serialiser: the packet waits in the queue and takes its link
    /// time, then is lost, as on a lossy hop behind the bottleneck (a radio
    /// last hop, netem after a shaper, or on the receiver's ingress).
    After,
}

impl LossPosition {
    pub fn name(self) -> &'static str {
        match self {
            LossPosition::Before => "before",
            LossPosition::After => "after",
        }
    }
}

/// One entry of a drop list: which segment of which flow to drop, whatever
/// the seed. It is lost at the path's `loss_position`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DropRule {
    /// Which flow (0-based, as `flows` numbers them).
    pub flow: u16,
    /// Which connection of that flow, 1 = the first (a scenario with
    /// `new_connection` opens one per exchange).
    pub connection: u32,
    pub direction: Direction,
    pub target: DropTarget,
    /// For data: only the first transmission, or every one of those bytes.
    pub transmission: Transmission,
}

/// What a drop rule matches, counted in its direction on its connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropTarget {
    /// The n-th segment of new data (1 = the first), in the order sent.
    Segment(u32),
    /// Any segment carrying a byte in `first..=last`, in relative sequence
    /// numbers (the first data byte is 1, as `tcpdump` shows it).
    Bytes { first: u64, last: u64 },
    /// The n-th segment without payload, SYN or FIN (a pure ACK, a window
    /// update or a zero-window probe); 1 = the first, which on the client is
    /// the handshake's final ACK.
    Ack(u32),
}

/// Which transmissions of the matched data a rule drops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Transmission {
    /// Only the first: the retransmission gets through (what packetdrill
    /// means by "segment 4 is lost").
    #[default]
    First,
    /// Every transmission of the bytes: a black hole, repaired only if the
    /// connection gives up.
    All,
}

impl DropRule {
    /// Drops the first transmission of `target`, sent the `direction` way on
    /// flow 0's first connection.
    pub fn new(direction: Direction, target: DropTarget) -> Self {
        DropRule {
            flow: 0,
            connection: 1,
            direction,
            target,
            transmission: Transmission::First,
        }
    }

    /// Drops the first transmission of the n-th data segment the server sends.
    pub fn data_segment(n: u32) -> Self {
        DropRule::new(Direction::Data, DropTarget::Segment(n))
    }

    /// Drops the client's n-th pure ACK (1 = the handshake's final ACK).
    pub fn client_ack(n: u32) -> Self {
        DropRule::new(Direction::Acks, DropTarget::Ack(n))
    }

    /// The same rule for every transmission of its bytes.
    pub fn every_transmission(self) -> Self {
        DropRule {
            transmission: Transmission::All,
            ..self
        }
    }

    /// Checks the rule against a scenario of `flows` flows with
    /// `connections` connections each; `key` is its place (`path.drop[0]`).
    fn validate(&self, key: &str, flows: u32, connections: u32) -> Result<(), ConfigError> {
        let bad = |field: &str, message: String| {
            Err(ConfigError {
                key: format!("{key}.{field}"),
                message,
            })
        };
        if self.flow as u32 >= flows {
            let last = flows.saturating_sub(1);
            return bad(
                "flow",
                format!("{} is outside the allowed range 0 to {last}", self.flow),
            );
        }
        if !(1..=connections).contains(&self.connection) {
            return bad(
                "connection",
                format!(
                    "{} is outside the allowed range 1 to {connections} (the connections the scenario opens)",
                    self.connection
                ),
            );
        }
        match self.target {
            DropTarget::Segment(0) => bad("segment", "0: segments count from 1".into()),
            DropTarget::Ack(0) => bad("ack", "0: ACKs count from 1".into()),
            DropTarget::Bytes { first, last } if first == 0 || last < first => bad(
                "seq",
                format!("{first}-{last}: give first-last with 1 <= first <= last"),
            ),
            DropTarget::Ack(_) if self.transmission == Transmission::All => bad(
                "transmission",
                "applies to data (`segment`, `seq`); pure ACKs are never retransmitted".into(),
            ),
            _ => Ok(()),
        }
    }
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
            loss_direction: LossDirection::default(),
            loss_position: LossPosition::default(),
            drops: Vec::new(),
            loss_connections: None,
            outages: Vec::new(),
        }
    }

    pub fn rtt(&self) -> SimDuration {
        self.delay_forward + self.delay_reverse
    }

    /// Random loss probability in direction `d`.
    pub fn loss_in(&self, d: Direction) -> f64 {
        if self.loss_direction.includes(d) {
            self.loss
        } else {
            0.0
        }
    }

    /// The outages in direction `d`, as `[from, until)` spans of the run.
    pub fn outages_in(&self, d: Direction) -> Vec<(SimDuration, SimDuration)> {
        (self.outages.iter())
            .filter(|o| o.direction.includes(d))
            .map(|o| (o.from, o.until))
            .collect()
    }

    /// Checks each outage's span, and that there are not too many.
    pub fn validate_outages(&self) -> Result<(), ConfigError> {
        if self.outages.len() > MAX_OUTAGES {
            return Err(ConfigError {
                key: "path.outage".into(),
                message: format!("{} entries; at most {MAX_OUTAGES}", self.outages.len()),
            });
        }
        for (i, o) in self.outages.iter().enumerate() {
            o.validate(&format!("path.outage[{i}]"))?;
        }
        Ok(())
    }

    /// Checks the drop list against a scenario of `flows` flows with
    /// `connections` connections each.
    pub fn validate_drops(&self, flows: u32, connections: u32) -> Result<(), ConfigError> {
        check_len(self.drops.len())?;
        for (i, rule) in self.drops.iter().enumerate() {
            rule.validate(&format!("path.drop[{i}]"), flows, connections)?;
        }
        Ok(())
    }
}

/// Outages a scenario may list: each packet is checked against them all.
pub const MAX_OUTAGES: usize = 100;

/// Drop rules a scenario may list: far more than a lesson needs, few enough
/// that matching each segment against them stays cheap.
pub const MAX_DROP_RULES: usize = 1000;

fn check_len(n: usize) -> Result<(), ConfigError> {
    if n > MAX_DROP_RULES {
        return Err(ConfigError {
            key: "path.drop".into(),
            message: format!("{n} entries; at most {MAX_DROP_RULES}"),
        });
    }
    Ok(())
}
