//! The path view's data: every packet's trip over the bottleneck in both
//! directions, the drops, and the buffers at each end, read from one run.
//!
//! ```text
//!            downlink (data)  sent ─► [queue] ─► departs ─► serialise + delay ─► arrives
//!  server ═══════════════════════════════════════════════════════════════════════ client
//!            uplink (ACKs)  arrives ◄─ serialise + delay ◄─ departs ◄─ [queue] ◄─ sent
//! ```
//!
//! Only flow 0 is read (the first connection, the only one unless the
//! scenario runs several side by side; their packets share the queue but are
//! not counted here).
//!
//! Each direction's bottleneck is a FIFO with a fixed rate and delay
//! (`sim_core::link`), so in send order the times a packet is sent, starts
//! serialising (`departs`) and arrives never decrease. What is on the path at
//! `t` is therefore a contiguous run of packets found by binary search:
//! waiting in the queue are those with `sent ≤ t < departs`, on the wire those
//! with `departs ≤ t < arrives`. Prefix sums over that order give the data
//! segments, bytes and retransmissions in any run in O(1), so a frame costs
//! O(log packets) to count and O(pixels) to draw, however many are in flight.
//!
//! The buffers come from the periodic `Sample` records: a level holds from
//! one sample to the next, so the bars are only as fine as the scenario's
//! `sample_interval` (the widget samples at RTT/20).
//!
//! Long runs may outgrow the trace's packet budget; packet records then stop
//! (see [`PathSeries::packets_until_ns`]) while samples go on.

use super::table::Table;
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;
use std::ops::Range;

/// One packet the bottleneck accepted. Times in ns since the run began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// The sender handed it to the link (it joins the queue).
    pub sent: u64,
    /// The link starts serialising it (leaves the queue).
    pub departs: u64,
    /// Its last bit reaches the peer.
    pub arrives: u64,
    /// Payload bytes (0: an ACK, or a SYN or FIN without data).
    pub len: u32,
    /// Bytes on the wire, headers and options included.
    pub wire: u32,
    /// Slow-start flight of a data segment (1 = the initial window); for
    /// an ACK, the flight of the newest data it acknowledges, so that it
    /// can be drawn in that flight's colour; 0 for neither (a SYN, or an ACK
    /// of no data yet).
    pub flight: u32,
    pub retransmit: bool,
    pub syn: bool,
}

impl Packet {
    pub fn is_data(&self) -> bool {
        self.len > 0
    }
}

/// A packet the link dropped: its queue was full, or random loss took it.
/// Both happen when the packet is offered, at the link's entrance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dropped {
    pub at: u64,
    pub len: u32,
    pub flight: u32,
    pub retransmit: bool,
}

/// One direction of the bottleneck.
#[derive(Clone, Debug, Default)]
pub struct Direction {
    /// Accepted packets in send order; `sent`, `departs` and `arrives` are
    /// each non-decreasing (FIFO link).
    packets: Vec<Packet>,
    /// In time order.
    drops: Vec<Dropped>,
    /// `prefix[i]`: totals over `packets[..i]`.
    data_prefix: Vec<u32>,
    retransmit_prefix: Vec<u32>,
    syn_prefix: Vec<u32>,
    wire_prefix: Vec<u64>,
    /// One-way propagation delay, ns.
    pub delay_ns: u64,
    /// The largest packet seen on the wire, bytes.
    pub max_wire: u32,
}

impl Direction {
    fn new(delay_ns: u64) -> Self {
        Direction {
            data_prefix: vec![0],
            retransmit_prefix: vec![0],
            syn_prefix: vec![0],
            wire_prefix: vec![0],
            delay_ns,
            ..Direction::default()
        }
    }

    fn push(&mut self, p: Packet) {
        debug_assert!(
            self.packets.last().is_none_or(|q| q.sent <= p.sent
                && q.departs <= p.departs
                && q.arrives <= p.arrives),
            "a FIFO link keeps send order"
        );
        let i = self.packets.len();
        self.data_prefix
            .push(self.data_prefix[i] + p.is_data() as u32);
        self.retransmit_prefix
            .push(self.retransmit_prefix[i] + p.retransmit as u32);
        self.syn_prefix.push(self.syn_prefix[i] + p.syn as u32);
        self.wire_prefix.push(self.wire_prefix[i] + p.wire as u64);
        self.max_wire = self.max_wire.max(p.wire);
        self.packets.push(p);
    }

    pub fn packets(&self) -> &[Packet] {
        &self.packets
    }

    pub fn drops(&self) -> &[Dropped] {
        &self.drops
    }

    /// Packets that have started serialising by `t_ns` (`departs ≤ t`).
    pub fn departed_by(&self, t_ns: f64) -> usize {
        self.packets.partition_point(|p| p.departs as f64 <= t_ns)
    }

    /// Indices of the packets on the wire at `t_ns`: serialising or
    /// propagating (`departs ≤ t < arrives`).
    pub fn on_wire(&self, t_ns: f64) -> Range<usize> {
        let from = self.packets.partition_point(|p| p.arrives as f64 <= t_ns);
        from..self.departed_by(t_ns).max(from)
    }

    /// Indices of the packets waiting in the queue at `t_ns` (`sent ≤ t < departs`).
    pub fn queued(&self, t_ns: f64) -> Range<usize> {
        let from = self.departed_by(t_ns);
        from..self
            .packets
            .partition_point(|p| p.sent as f64 <= t_ns)
            .max(from)
    }

    /// Data segments among `packets[r]`.
    pub fn data_in(&self, r: Range<usize>) -> usize {
        (self.data_prefix[r.end] - self.data_prefix[r.start]) as usize
    }

    /// Retransmissions among `packets[r]`.
    pub fn retransmits_in(&self, r: Range<usize>) -> usize {
        (self.retransmit_prefix[r.end] - self.retransmit_prefix[r.start]) as usize
    }

    /// SYNs (a SYN or a SYN-ACK) among `packets[r]`.
    pub fn syns_in(&self, r: Range<usize>) -> usize {
        (self.syn_prefix[r.end] - self.syn_prefix[r.start]) as usize
    }

    /// Wire bytes of `packets[r]`.
    pub fn wire_bytes_in(&self, r: Range<usize>) -> u64 {
        self.wire_prefix[r.end] - self.wire_prefix[r.start]
    }

    /// Drops up to and including `t_ns`.
    pub fn drops_by(&self, t_ns: f64) -> usize {
        self.drops.partition_point(|d| d.at as f64 <= t_ns)
    }

    /// The drops in `(from_ns, to_ns]`.
    pub fn drops_between(&self, from_ns: f64, to_ns: f64) -> &[Dropped] {
        let a = self.drops.partition_point(|d| d.at as f64 <= from_ns);
        &self.drops[a..self.drops_by(to_ns).max(a)]
    }

    /// The first and last flight of the data among `packets[r]` (`data` of
    /// them), if there are few enough to look at each one: a label names
    /// flights while they are countable, not 17,000 segments into a run.
    fn flights_in(&self, r: Range<usize>, data: usize) -> Option<(u32, u32)> {
        if data == 0 || data > MAX_FLIGHT_SCAN {
            return None;
        }
        self.packets[r]
            .iter()
            .filter(|p| p.is_data() && p.flight > 0)
            .fold(None, |acc, p| match acc {
                None => Some((p.flight, p.flight)),
                Some((lo, hi)) => Some((lo.min(p.flight), hi.max(p.flight))),
            })
    }

    /// What this direction holds at `t_ns`.
    pub fn at(&self, t_ns: f64) -> LinkAt {
        let wire = self.on_wire(t_ns);
        let queue = self.queued(t_ns);
        let data = self.data_in(wire.clone());
        LinkAt {
            data,
            acks: wire.len() - data,
            flights: self.flights_in(wire.clone(), data),
            syns: self.syns_in(wire),
            queued: queue.len(),
            queued_bytes: self.wire_bytes_in(queue),
            dropped: self.drops_by(t_ns),
        }
    }
}

/// The flight of the newest data segment the cumulative ACK `ack` covers
/// (`ends`: each new data end and its flight, ends increasing); 0 if none.
fn acked_flight(ends: &[(u64, u32)], ack: u64) -> u32 {
    let i = ends.partition_point(|&(end, _)| end <= ack);
    i.checked_sub(1).map_or(0, |i| ends[i].1)
}

/// One `Sample` reading of the two buffers, bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Buffers {
    /// When it was read, ns.
    pub at_ns: u64,
    /// The server's send buffer: its size (`sk_sndbuf`), what its queued data
    /// is charged (`sk_wmem_queued`, overhead included), and the bytes written
    /// but not sent yet (`tcpi_notsent_bytes`).
    pub sndbuf: u64,
    pub wmem_queued: u64,
    pub notsent: u64,
    /// The client's receive buffer (`sk_rcvbuf`) and the bytes in it its
    /// application has not read.
    pub rcvbuf: u64,
    pub unread: u64,
    /// The window the client last advertised, as the server holds it
    /// (`tcpi_snd_wnd`): 0 when the receive buffer is full.
    pub window: u64,
}

/// One direction at one instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkAt {
    /// Data segments on the wire (serialising or propagating).
    pub data: usize,
    /// Segments without data on the wire: ACKs, and a SYN or FIN.
    pub acks: usize,
    /// The SYNs among them: the client's SYN, or the server's SYN-ACK.
    pub syns: usize,
    /// The first and last slow-start flight (round) of the data segments
    /// on the wire, while they are few enough to name.
    pub flights: Option<(u32, u32)>,
    /// Packets waiting in the bottleneck queue, and their wire bytes.
    pub queued: usize,
    pub queued_bytes: u64,
    /// Drops so far.
    pub dropped: usize,
}

/// What is on the path at one instant: the counts a frame draws and tests check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OnPath {
    /// Server → client: the data.
    pub downlink: LinkAt,
    /// Client → server: the ACKs.
    pub uplink: LinkAt,
    /// The latest sample at or before the instant (`None` before the first).
    pub buffers: Option<Buffers>,
    /// The server's socket has completed the handshake: before, nothing of
    /// its send buffer has been written, let alone sent.
    pub established: bool,
    /// False past the end of the packet records (the trace's budget ran out):
    /// the packet counts are then incomplete.
    pub recorded: bool,
}

/// Data segments on the wire a frame looks at one by one to name their
/// flights, at most.
const MAX_FLIGHT_SCAN: usize = 2_000;

/// Rows a table holds at most; longer runs keep every n-th sample.
pub const TABLE_ROWS: usize = 2000;

/// The path of one run, built once; frames read it with [`PathSeries::at`].
#[derive(Clone, Debug, Default)]
pub struct PathSeries {
    /// Server → client.
    pub downlink: Direction,
    /// Client → server.
    pub uplink: Direction,
    /// Bottleneck rate, bit/s (both directions).
    pub rate_bps: f64,
    /// Bytes each direction's queue may hold.
    pub queue_capacity: u64,
    /// The longest any accepted packet took from being sent to arriving.
    pub max_transit_ns: u64,
    /// When the trace stopped storing packet records, if its budget ran out.
    pub packets_until_ns: Option<u64>,
    /// Buffer readings in time order.
    pub buffers: Vec<Buffers>,
    /// When the server's socket completed the handshake (`None`: it never
    /// did in this run).
    pub established_ns: Option<u64>,
}

impl PathSeries {
    /// Reads flow 0 of `run`.
    pub fn from_run(run: &RunResult) -> Self {
        let path = &run.scenario.path;
        let mut s = PathSeries {
            // sim-core's `delay_forward` is client → server.
            downlink: Direction::new(path.delay_reverse.0),
            uplink: Direction::new(path.delay_forward.0),
            rate_bps: path.rate_bps as f64,
            queue_capacity: path.queue_bytes,
            ..PathSeries::default()
        };
        // The end of each new run of server data and its flight, in send
        // order (ends increase): what an ACK number acknowledges.
        let mut flight_ends: Vec<(u64, u32)> = Vec::new();
        for r in run.trace.flow_records(0) {
            match r.event {
                TraceEvent::SegmentSent {
                    seg,
                    flight,
                    retransmit,
                    departs,
                    arrives,
                } => {
                    let end = seg.seq + seg.len as u64;
                    let flight = match seg.from {
                        Side::Server if seg.len > 0 => {
                            if flight_ends.last().is_none_or(|&(e, _)| e < end) {
                                flight_ends.push((end, flight));
                            }
                            flight
                        }
                        Side::Client if seg.len == 0 && seg.flags.ack => {
                            acked_flight(&flight_ends, seg.ack)
                        }
                        _ => flight,
                    };
                    let dir = match seg.from {
                        Side::Server => &mut s.downlink,
                        Side::Client => &mut s.uplink,
                    };
                    match (departs, arrives) {
                        (Some(d), Some(a)) => {
                            s.max_transit_ns = s.max_transit_ns.max(a.0 - r.time.0);
                            dir.push(Packet {
                                sent: r.time.0,
                                departs: d.0,
                                arrives: a.0,
                                len: seg.len,
                                wire: seg.wire_bytes(),
                                flight,
                                retransmit,
                                syn: seg.flags.syn,
                            });
                        }
                        _ => dir.drops.push(Dropped {
                            at: r.time.0,
                            len: seg.len,
                            flight,
                            retransmit,
                        }),
                    }
                }
                TraceEvent::Sample { info, client, .. } => s.buffers.push(Buffers {
                    at_ns: r.time.0,
                    sndbuf: info.sndbuf,
                    wmem_queued: info.wmem_queued,
                    notsent: info.notsent_bytes,
                    rcvbuf: client.rcvbuf,
                    unread: client.unread,
                    window: info.snd_wnd,
                }),
                TraceEvent::Established { side: Side::Server } => {
                    // A reconnecting run opens again; the first opening is
                    // the handshake the view shows.
                    s.established_ns.get_or_insert(r.time.0);
                }
                _ => {}
            }
        }
        s.packets_until_ns = super::packet_records_end_ns(run);
        s
    }

    /// The buffer reading in force at `t_ns`: the latest at or before it.
    pub fn buffers_at(&self, t_ns: f64) -> Option<Buffers> {
        let i = self.buffers.partition_point(|b| b.at_ns as f64 <= t_ns);
        i.checked_sub(1).map(|i| self.buffers[i])
    }

    /// Everything on the path at `t_ns`.
    pub fn at(&self, t_ns: f64) -> OnPath {
        OnPath {
            downlink: self.downlink.at(t_ns),
            uplink: self.uplink.at(t_ns),
            buffers: self.buffers_at(t_ns),
            established: self.established_ns.is_some_and(|e| e as f64 <= t_ns),
            recorded: self.packets_until_ns.is_none_or(|end| t_ns <= end as f64),
        }
    }

    /// The buffer levels over time, with the packets in flight and queued
    /// at each reading, at most [`TABLE_ROWS`] rows.
    pub fn table(&self) -> Table {
        let n = self.buffers.len();
        let step = n.div_ceil(TABLE_ROWS).max(1);
        let mut caption = "The server's send buffer, the client's receive buffer and the \
                           data path at each sample"
            .to_string();
        if step > 1 {
            caption.push_str(&format!(
                " (one sample in {step} of {n}, to keep the table to {TABLE_ROWS} rows)"
            ));
        }
        let rows = self
            .buffers
            .iter()
            .step_by(step)
            .map(|b| {
                let on = self.at(b.at_ns as f64);
                vec![
                    crate::units::fixed(b.at_ns as f64 / 1e6, 3),
                    b.sndbuf.to_string(),
                    b.wmem_queued.to_string(),
                    b.notsent.to_string(),
                    b.rcvbuf.to_string(),
                    b.unread.to_string(),
                    b.window.to_string(),
                    on.downlink.data.to_string(),
                    on.downlink.queued.to_string(),
                ]
            })
            .collect();
        Table {
            caption,
            headers: [
                "time (ms)",
                "send buffer size (bytes)",
                "send buffer queued (bytes)",
                "not sent yet (bytes)",
                "receive buffer size (bytes)",
                "unread (bytes)",
                "advertised window (bytes)",
                "data segments in flight",
                "packets in the bottleneck queue",
            ]
            .map(String::from)
            .to_vec(),
            rows,
        }
    }
}
