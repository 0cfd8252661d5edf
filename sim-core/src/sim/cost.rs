//! What a run will cost, read from its scenario before it runs: how long it
//! may last in simulated time, how many events and `write()` calls it may
//! take, and how much memory its trace and what is in flight may hold.
//!
//! An upper-ish bound, not a prediction: each figure is meant to be at or
//! above what the run does (the property test in `tests/budget.rs` holds it
//! to within [`ESTIMATE_SLACK`] of the actual work), so that
//! [`super::budget`] can refuse what would not fit before any of it is
//! simulated. Where a scenario can stall (random loss of 5 % or more, a
//! drop list, a reader that stops for good, a queue too short for the first
//! flight, a window smaller than a segment) the run is taken to last its
//! whole time limit; light loss, a queue that may overflow, a read pause and
//! an outage add the time they may cost.
//!
//! ```text
//!   horizon   = time limit, or twice the transfer's time with what may delay it
//!   segments  = min(bytes / MSS, what the link carries in the horizon) × loss
//!   events    = 3 per segment + write() calls + samples ticks + timers
//!   memory    = samples + packet records + other records (each vector's
//!               room to the next power of two) + what is in flight
//! ```
//!
//! Each figure remembers the scenario keys that drive it, as scenario files
//! name them (`sample_interval`, `app.response`), for the refusal's message.

use super::world::Event;
use crate::config::{ChunkedWrites, Nagle, Pacing, ReceiverConfig, Scenario, TCP_RTO_MIN};
use crate::tcp::scoreboard::TxSeg;
use crate::time::{SimDuration, SimTime};
use crate::trace::TraceRecord;
use crate::units::Within;
use std::mem::size_of;

/// How far the actual work and memory of a run may exceed the estimate (the
/// property test's bound): the estimate counts 3 events per data segment
/// where runs measure 1.5 to 2, but a run's timers, retransmissions and
/// records are only bounded roughly.
pub const ESTIMATE_SLACK: u64 = 2;

/// Events per segment: its arrival, the ACK's arrival (one per segment at
/// worst, half that with delayed ACKs), and a timer (delayed ACK, pacing).
const EVENTS_PER_SEGMENT: u64 = 3;

/// Bytes of headers on the wire per segment (IP, TCP, timestamps), for what
/// the link can carry.
const HEADER_BYTES: u64 = 52;

/// Bytes a vector of `n` items of `size` bytes holds: vectors grow by
/// doubling, so room for the next power of two.
fn vec_bytes(n: u64, size: u64) -> u64 {
    n.checked_next_power_of_two()
        .unwrap_or(u64::MAX)
        .saturating_mul(size)
}

/// Records other than samples and packets (cwnd changes, pacing-rate
/// changes, CC modes, transfers) per data segment: one in eight (measured
/// on the long seed scenarios: one in seven at most, a BBR flow with 0.1 %
/// loss; one in twenty on most), plus [`SUMMARY_PER_CONNECTION`].
const SEGMENTS_PER_SUMMARY: u64 = 8;

/// Records other than samples and packets per connection: slow start
/// changes cwnd on every ACK (seed 004: 290 records for 360 segments).
const SUMMARY_PER_CONNECTION: u64 = 1024;

/// Records other than samples and packets per exchange: its completion,
/// cwnd changes when it starts after an idle period.
const SUMMARY_PER_EXCHANGE: u64 = 8;

/// Packet records per data segment: sent and received, its ACK sent and
/// received, an RTT sample, a delayed-ACK timer.
const PACKET_RECORDS_PER_SEGMENT: u64 = 6;

/// The longest a delayed ACK waits (`TCP_DELACK_MAX`): what Nagle or a cork
/// may hold a message's tail back for.
const TCP_DELACK_MAX: SimDuration = SimDuration::from_millis(200);

/// Round trips per exchange for the handshake and slow start.
const ROUND_TRIPS_PER_EXCHANGE: u64 = 20;

/// Packets without data an exchange may put on the wire besides its
/// segments' own ACKs: a handshake (3), a close (4), the request's and the
/// response's ACKs, probes. At a slow rate each takes its header's time on
/// the link (64 bytes at 1 kbit/s: half a second).
const CONTROL_PACKETS_PER_EXCHANGE: u64 = 12;

/// Random loss from which a transfer may stall for good (timeouts backing
/// off to two minutes one after another): the run is taken to last its
/// time limit.
const HEAVY_LOSS: f64 = 0.05;

/// Time per connection to recover from the losses of a queue that
/// overflows, or of light random loss: a lost SYN's timeouts (1 s, then 2),
/// besides four round trips.
const RECOVERY_SLACK: SimDuration = SimDuration::from_secs(3);

/// One part of the cost and the scenario keys that drive it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub amount: u64,
    /// Scenario-file keys, most telling first.
    pub keys: Vec<String>,
}

/// What a run of a scenario will cost, at most (about).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cost {
    /// Simulated time the run may last: its time limit, or sooner when the
    /// transfer cannot stall (`keys` say which).
    pub horizon: Part,
    /// Segments sent, both ways, all flows.
    pub segments: Part,
    /// `write()` calls of the applications.
    pub writes: Part,
    /// Periodic readings: one per `sample_interval` per flow.
    pub samples: Part,
    /// Events the simulator acts on plus `write()` calls: the work.
    pub events: Part,
    /// Bytes the samples take in the trace.
    pub sample_bytes: u64,
    /// Bytes of the packet records kept (up to the trace's budget) and the
    /// other records (cwnd changes and the like).
    pub record_bytes: u64,
    /// Bytes of what is in flight at once: queued events, the senders'
    /// retransmission queues.
    pub flight_bytes: Part,
    /// All of it: the memory the run needs.
    pub memory: Part,
}

/// Bytes one sample takes: the whole record, and its place in the order.
pub const SAMPLE_BYTES: u64 = (size_of::<TraceRecord>() + size_of::<usize>()) as u64;

/// Bytes one segment in flight takes: its arrival queued (the event and its
/// key), its entry in the sender's retransmission queue and skb, its place
/// in the link's queue.
const FLIGHT_BYTES_PER_SEGMENT: u64 = (size_of::<(SimTime, u64, Event)>()
    + size_of::<TxSeg>()
    + crate::tcp::write_queue::SKB_BYTES
    + size_of::<(SimTime, u32)>()) as u64;

/// One direction's application data in one exchange.
struct Direction<'a> {
    writes: &'a [u64],
    chunked: Option<ChunkedWrites>,
    /// The sending host's MSS, or the least window if that is smaller.
    mss: u64,
    /// The receiving application's read rate, if it reads at one.
    read_rate: Option<u64>,
    /// It reads at once, but only some time after data wakes it.
    wakes_late: bool,
    /// The sender holds small segments back (Nagle, or a cork).
    holds_small: bool,
    bytes_key: &'static str,
    buffer_key: &'static str,
}

impl Direction<'_> {
    fn bytes(&self) -> u64 {
        self.writes.iter().sum()
    }

    /// `write()` calls per exchange.
    fn writes(&self) -> u64 {
        match self.chunked {
            Some(c) => self.writes.iter().map(|b| b.div_ceil(c.size.max(1))).sum(),
            None => self.writes.len() as u64,
        }
    }

    /// Segments over `exchanges` of `flows` in `h`: full ones, one more
    /// per message (its tail), and one per write of a chunk smaller than the
    /// MSS, or, where Nagle or a cork holds such segments back while one is
    /// unacknowledged, one per round trip (`rtt`) per flow at most.
    fn segments(&self, exchanges: u64, flows: u64, h: u64, rtt: u64) -> u64 {
        let full = exchanges.saturating_mul(self.bytes().div_ceil(self.mss.max(1)));
        let tails = exchanges.saturating_mul(self.writes.len() as u64);
        let small_writes = match self.chunked {
            Some(c) if c.size < self.mss => exchanges.saturating_mul(self.writes()),
            _ => 0,
        };
        let small = if self.holds_small {
            small_writes.min(flows.saturating_mul(h / rtt.max(1_000) + 1))
        } else {
            small_writes
        };
        full.saturating_add(tails).saturating_add(small)
    }

    /// Read ticks per exchange of a receiver that reads at a rate: one per
    /// MSS read, or per 100 µs of reading (`Reader::next_tick`); of one
    /// that wakes late, at most one per segment.
    fn read_ticks(&self) -> u64 {
        match self.read_rate {
            Some(r) if r > 0 => {
                let per_tick = self.mss.min(r / 10_000).max(1);
                self.bytes().div_ceil(per_tick)
            }
            None if self.wakes_late => self.bytes().div_ceil(self.mss.max(1)),
            _ => 0,
        }
    }
}

impl Cost {
    /// The cost of running `s` (a validated scenario).
    pub fn of(s: &Scenario) -> Cost {
        let app = &s.app;
        let flows = u64::from(s.flows.max(1));
        let repeat = u64::from(app.repeat.max(1));
        let exchanges = flows * repeat;
        let connections = flows * if app.new_connection { repeat } else { 1 };
        // A window smaller than the MSS makes smaller segments.
        let floor = window_floor(s);
        let down = Direction {
            writes: &app.response,
            chunked: app.server_writes,
            mss: u64::from(s.server.sender.mss).min(floor),
            read_rate: s.client.receiver.read_rate,
            wakes_late: s.client.receiver.read_wakeup > SimDuration::ZERO,
            holds_small: s.server.sender.nagle != Nagle::Off || s.server.sender.cork,
            bytes_key: "app.response",
            buffer_key: "app.server_write_buffer",
        };
        let up = Direction {
            writes: &app.request,
            chunked: app.client_writes,
            mss: u64::from(s.client.sender.mss).min(floor),
            read_rate: s.server.receiver.read_rate,
            wakes_late: s.server.receiver.read_wakeup > SimDuration::ZERO,
            holds_small: s.client.sender.nagle != Nagle::Off || s.client.sender.cork,
            bytes_key: "app.request",
            buffer_key: "app.client_write_buffer",
        };
        let horizon = horizon(s, &down, &up);
        let h = horizon.amount;

        // Segments: what the applications write, or what the link can carry
        // in the horizon (twice: a sender may overrun a queue that drops),
        // whichever is fewer; more with random loss; and the handshakes.
        let mss = down.mss.min(up.mss).max(1);
        let rtt = s.path.rtt().0;
        let (down_segments, up_segments) = (
            down.segments(exchanges, flows, h, rtt),
            up.segments(exchanges, flows, h, rtt),
        );
        let by_bytes = down_segments.saturating_add(up_segments);
        let loss = s.path.loss.within(0.0, 0.5);
        let by_bytes = (by_bytes as f64 / ((1.0 - loss) * (1.0 - loss))) as u64;
        // The link carries segments of the size the writes make (or full).
        let payload = {
            let bytes = exchanges.saturating_mul(down.bytes() + up.bytes());
            (bytes / by_bytes.max(1)).clamp(1, mss)
        };
        let carried = (s.path.rate_bps as f64 / 8e9 * h as f64) as u64 / (payload + HEADER_BYTES);
        // Data goes mostly one way: twice what one direction carries.
        let by_link = carried.saturating_mul(2);
        let handshakes = connections * 8;
        // The direction with more segments names the keys: its bytes, and
        // its write size if small writes make most of them.
        let more = if up_segments > down_segments {
            &up
        } else {
            &down
        };
        let mut segment_keys = vec![more.bytes_key.to_string()];
        let more_segments = down_segments.max(up_segments);
        if more.chunked.is_some()
            && more_segments > 2 * exchanges.saturating_mul(more.bytes() / more.mss.max(1))
        {
            segment_keys.insert(0, more.buffer_key.to_string());
        }
        if by_link < by_bytes {
            segment_keys = vec!["path.rate".into(), horizon.keys[0].clone()];
        } else if app.repeat > 1 {
            segment_keys.push("app.repeat".into());
        }
        if s.flows > 1 {
            segment_keys.push("flows".into());
        }
        // A run that may stall sends its segments again after each timeout:
        // as many rounds as the backoff from the minimum RTO allows in the
        // horizon (doubling to 120 s, then every 120 s).
        let by_bytes = if may_stall(s) {
            by_bytes.saturating_mul(retransmission_rounds(h))
        } else {
            by_bytes
        };
        let segments = Part {
            amount: by_bytes.min(by_link).saturating_add(handshakes),
            keys: segment_keys,
        };

        // write() calls; each of an RPC framework's chunks may also wait for
        // its copy (an event).
        let small = if down.writes() >= up.writes() {
            &down
        } else {
            &up
        };
        let writes = Part {
            amount: exchanges.saturating_mul(down.writes().saturating_add(up.writes())),
            keys: with_flows(
                [small.buffer_key, small.bytes_key, "app.repeat"]
                    .iter()
                    .filter(|k| small.chunked.is_some() || !k.ends_with("buffer"))
                    .filter(|k| app.repeat > 1 || **k != "app.repeat")
                    .map(|k| k.to_string())
                    .collect(),
                s.flows,
            ),
        };

        let interval = s.sample_interval.0.max(1);
        let ticks = h / interval + 2;
        let samples = Part {
            amount: ticks.saturating_mul(flows),
            keys: with_flows(
                vec!["sample_interval".into(), horizon.keys[0].clone()],
                s.flows,
            ),
        };

        // Timers beyond the per-segment ones: retransmission and probe
        // timers (backing off from the minimum RTO), application starts,
        // read ticks.
        let timers = flows * 2 * (h / TCP_RTO_MIN.0 + 8)
            + exchanges * (2 + down.read_ticks() + up.read_ticks());
        let copying = |w: Option<ChunkedWrites>| w.is_some_and(|w| w.cost.0 > 0);
        let chunk_events = if copying(app.server_writes) || copying(app.client_writes) {
            writes.amount
        } else {
            0
        };
        let events_amount = segments
            .amount
            .saturating_mul(EVENTS_PER_SEGMENT)
            .saturating_add(writes.amount)
            .saturating_add(chunk_events)
            .saturating_add(ticks)
            .saturating_add(timers);
        // The largest part names the keys.
        let by_segments = segments.amount.saturating_mul(EVENTS_PER_SEGMENT);
        let event_keys = if writes.amount.saturating_add(chunk_events) > by_segments
            && writes.amount.saturating_add(chunk_events) > ticks
        {
            writes.keys.clone()
        } else if ticks > by_segments {
            vec!["sample_interval".into(), horizon.keys[0].clone()]
        } else {
            segments.keys.clone()
        };
        let events = Part {
            amount: events_amount,
            keys: event_keys,
        };

        // Memory.
        // Samples and the other whole records share one vector.
        // A run that may stall is taken to fill the trace's packet budget.
        let packet_records = if may_stall(s) {
            s.trace_packet_budget as u64
        } else {
            segments.amount.saturating_mul(PACKET_RECORDS_PER_SEGMENT)
        }
        .min(s.trace_packet_budget as u64);
        let summary_records = (segments.amount / SEGMENTS_PER_SUMMARY)
            .saturating_add(connections.saturating_mul(SUMMARY_PER_CONNECTION))
            .saturating_add(exchanges.saturating_mul(SUMMARY_PER_EXCHANGE));
        let whole = vec_bytes(samples.amount.saturating_add(summary_records), SAMPLE_BYTES);
        let sample_bytes = samples.amount.saturating_mul(SAMPLE_BYTES);
        let record_bytes = vec_bytes(packet_records, crate::trace::PACKET_RECORD_BYTES)
            .saturating_add(whole.saturating_sub(sample_bytes));
        let flight_bytes = flight(s, flows, mss, &horizon);
        let total = sample_bytes
            .saturating_add(record_bytes)
            .saturating_add(flight_bytes.amount);
        let memory_keys = if sample_bytes >= record_bytes && sample_bytes >= flight_bytes.amount {
            samples.keys.clone()
        } else if flight_bytes.amount >= record_bytes {
            flight_bytes.keys.clone()
        } else {
            segments.keys.clone()
        };
        Cost {
            horizon,
            segments,
            writes,
            samples,
            events,
            sample_bytes,
            record_bytes,
            flight_bytes,
            memory: Part {
                amount: total,
                keys: memory_keys,
            },
        }
    }
}

/// Timeouts that fit in `h` ns: RTOs from `TCP_RTO_MIN` doubling to
/// `TCP_RTO_MAX` (120 s), then one every 120 s; at least one round.
fn retransmission_rounds(h: u64) -> u64 {
    let (mut rto, mut t, mut n) = (TCP_RTO_MIN.0, 0u64, 1u64);
    while t < h {
        t = t.saturating_add(rto);
        rto = rto.saturating_mul(2).min(120_000_000_000);
        n += 1;
    }
    n
}

fn with_flows(mut keys: Vec<String>, flows: u32) -> Vec<String> {
    if flows > 1 {
        keys.push("flows".into());
    }
    keys
}

/// Whether the receiving application may stop reading for good: at a
/// rate of 0, or in a pause that never ends.
fn may_stop_reading(r: &ReceiverConfig) -> bool {
    r.read_rate == Some(0) || r.read_pause.is_some_and(|p| p.until.is_none())
}

/// How long the receiving application pauses reading, if it does.
fn read_pause(r: &ReceiverConfig) -> u64 {
    r.read_pause
        .and_then(|p| p.until.map(|u| u.0.saturating_sub(p.from.0)))
        .unwrap_or(0)
}

/// The bytes a flow may have in flight at most: what the receiver's
/// buffer and the sender's may hold, whichever is less.
fn window_max(s: &Scenario) -> u64 {
    let rcv = s.client.receiver.rcvbuf_max.max(s.client.receiver.rcvbuf);
    let snd = s.server.sender.sndbuf_max.max(s.server.sender.sndbuf);
    rcv.min(snd)
}

/// The least window a flow runs with on a lossless path: its initial cwnd,
/// or a quarter of the first buffers (truesize takes the rest), or the
/// window in the SYN.
fn window_floor(s: &Scenario) -> u64 {
    let (c, sv) = (&s.client, &s.server);
    let cwnd = u64::from(sv.sender.initcwnd.min(c.sender.initcwnd).max(1))
        * u64::from(sv.sender.mss.min(c.sender.mss).max(1));
    let syn = u64::from(c.receiver.syn_window.min(sv.receiver.syn_window));
    let buffers = [
        c.receiver.rcvbuf,
        sv.receiver.rcvbuf,
        c.sender.sndbuf,
        sv.sender.sndbuf,
    ]
    .into_iter()
    .min()
    .unwrap_or(0)
        / 4;
    cwnd.min(syn.max(1)).min(buffers.max(1)).max(1)
}

/// Whether a transfer may stall, or crawl on timeouts: a queue that cannot
/// take every flow's first flight drops most of it, again and again, with
/// timeouts backing off; so may a drop list, heavy loss, and a reader that
/// stops for good. A window smaller than a segment leaves the sender waiting
/// on probes (a 4 KiB buffer under a 65,000-byte MSS was sampled to its time
/// limit).
fn may_stall(s: &Scenario) -> bool {
    let p = &s.path;
    let flows = u64::from(s.flows.max(1));
    let mss = u64::from(s.server.sender.mss.min(s.client.sender.mss).max(1));
    let burst = flows * u64::from(s.server.sender.initcwnd.max(1)) * (mss + HEADER_BYTES);
    p.loss >= HEAVY_LOSS
        || p.queue_bytes < burst
        || window_floor(s) < mss
        || !p.drops.is_empty()
        || may_stop_reading(&s.client.receiver)
        || may_stop_reading(&s.server.receiver)
}

/// How long the run may last.
fn horizon(s: &Scenario, down: &Direction, up: &Direction) -> Part {
    let limit = Part {
        amount: s.time_limit.0,
        keys: vec!["time_limit".into()],
    };
    let p = &s.path;
    let flows = u64::from(s.flows.max(1));
    let rate = p.rate_bps.max(1) as f64;
    let app = &s.app;
    let repeat = u64::from(app.repeat.max(1));
    let connections = if app.new_connection { repeat } else { 1 };
    let mss = u64::from(s.server.sender.mss.min(s.client.sender.mss).max(1));
    // A queue that cannot take every flow's first flight drops most of it,
    // again and again, with timeouts backing off: so may a drop list, heavy
    // loss, and a reader that stops for good. A window smaller than a
    // segment leaves the sender waiting on probes (a 4 KiB buffer under a
    // 65,000-byte MSS was sampled to its time limit).
    if may_stall(s) {
        return limit;
    }
    // What a flow may have in flight: its window, or its exchange's bytes;
    // what of it the path does not hold waits in the queue, and lengthens
    // the round trip.
    let exchange = down.bytes().max(up.bytes());
    let bdp = (rate / 8e9 * p.rtt().0 as f64) as u64;
    let in_flight = flows.saturating_mul(window_max(s).min(exchange));
    let queued = in_flight.saturating_sub(bdp).min(p.queue_bytes);
    let base_rtt = p.rtt().0 as f64;
    let queue_delay = queued as f64 * 8e9 / rate;
    let rtt = base_rtt + queue_delay;
    let per_flow = (down.bytes() + up.bytes()) as f64 * repeat as f64;
    // The link busy (a queue only builds then), and the round trips of a
    // window that is not yet the path's.
    // Every segment's header, and the packets that carry none, take the
    // link's time too; at a slow rate they dominate a short exchange.
    let headers = (per_flow / mss as f64 * 2.0 + (CONTROL_PACKETS_PER_EXCHANGE * repeat) as f64)
        * HEADER_BYTES as f64;
    let serialisation = (per_flow + headers) * flows as f64 * 8e9 / rate;
    let windowed = per_flow / window_floor(s) as f64 * base_rtt;
    let writer = |d: &Direction| match d.chunked {
        Some(c) => d.writes() as f64 * c.cost.0 as f64,
        None => 0.0,
    };
    let reader = |d: &Direction| match d.read_rate {
        Some(r) if r > 0 => d.bytes() as f64 * 1e9 / r as f64,
        _ => 0.0,
    };
    let (Pacing::Every(gap) | Pacing::After(gap)) = app.pacing;
    // Each message's tail may wait for a delayed ACK (Nagle, a cork).
    let messages = (down.writes.len() + up.writes.len() + 1) as f64;
    let per_exchange = writer(down)
        + writer(up)
        + reader(down)
        + reader(up)
        + gap.0 as f64
        + ROUND_TRIPS_PER_EXCHANGE as f64 * base_rtt
        + queue_delay
        + messages * TCP_DELACK_MAX.0 as f64;
    let lossless = serialisation + windowed + per_exchange * repeat as f64;
    // Losses: each segment sent again as often as it takes, and each lost
    // one waiting out a timeout at worst; a queue that may overflow loses
    // some too, and each connection may wait out a few timeouts (its SYN's
    // first: 1 s). Pauses: a reader's, and an outage's, with the timeouts
    // after it backing off to twice its length.
    let loss = p.loss.within(0.0, HEAVY_LOSS);
    let segments = per_flow / mss as f64;
    let timeouts = segments * loss * (TCP_RTO_MIN.0 as f64 + rtt);
    let overflow = in_flight > bdp.saturating_add(p.queue_bytes);
    let recovery = if loss > 0.0 || overflow {
        (connections * flows) as f64 * (RECOVERY_SLACK.0 as f64 + 4.0 * rtt)
    } else {
        0.0
    };
    let pauses = read_pause(&s.client.receiver).max(read_pause(&s.server.receiver)) as f64
        + 3.0 * p.outages.iter().map(|o| o.until.0).max().unwrap_or(0) as f64;
    let t = 2.0 * (lossless / ((1.0 - loss) * (1.0 - loss)) + timeouts + recovery + pauses);
    if t >= s.time_limit.0 as f64 {
        return limit;
    }
    let mut keys = vec![down.bytes_key.to_string(), "path.rate".into()];
    if app.repeat > 1 {
        keys.push("app.repeat".into());
    }
    Part {
        amount: t as u64,
        keys,
    }
}

/// What is in flight at once, at most: every flow's window, or what the
/// path holds (its bandwidth-delay product and its queue), whichever is less.
fn flight(s: &Scenario, flows: u64, mss: u64, horizon: &Part) -> Part {
    let p = &s.path;
    let bdp = (p.rate_bps as f64 / 8e9 * p.rtt().0 as f64) as u64;
    let path = bdp.saturating_add(p.queue_bytes);
    let windows = flows.saturating_mul(window_max(s));
    let bytes = path.min(windows);
    // Nothing is in flight longer than the run.
    let carried = (p.rate_bps as f64 / 8e9 * horizon.amount as f64) as u64;
    let segments = bytes.min(carried.max(mss)) / mss + 2 * flows;
    let keys = if windows < path {
        with_flows(vec![r#"client.sysctl."net.ipv4.tcp_rmem""#.into()], s.flows)
    } else {
        with_flows(
            vec!["path.queue".into(), "path.rate".into(), "path.rtt".into()],
            s.flows,
        )
    };
    Part {
        amount: segments.saturating_mul(FLIGHT_BYTES_PER_SEGMENT),
        keys,
    }
}
