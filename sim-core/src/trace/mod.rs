//! The one record of a run. Every output — flights, completion time, the cwnd
//! chart, the packet animation — is derived from this list, so they can never
//! disagree with each other.

use crate::segment::{Segment, Side};
use crate::tcp::info::{RecvInfo, SendInfo, TcpInfo};
use crate::time::SimTime;
use std::ops::Range;

mod fields;
mod hash;
mod packed;

pub use fields::{FieldVisitor, Kind, Value};
use hash::{Fnv, hash_record};
pub use packed::Records;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceRecord {
    pub time: SimTime,
    /// Which connection (0 unless the scenario runs several flows).
    pub flow: u16,
    pub event: TraceEvent,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceEvent {
    /// A segment left a host. `departs`/`arrives` say when the bottleneck starts
    /// serialising it and when it reaches the peer. `arrives` is `None` when the
    /// path dropped it (`departs` too, unless it was lost after the bottleneck).
    SegmentSent {
        seg: Segment,
        /// Slow-start flight this data segment belongs to (1 = first flight); 0 for
        /// segments without data.
        flight: u32,
        retransmit: bool,
        departs: Option<SimTime>,
        arrives: Option<SimTime>,
    },
    /// The path dropped the segment: the bottleneck queue was full
    /// (drop-tail), or it was lost (random loss or the drop list).
    SegmentDropped { seg: Segment },
    /// A segment reached its destination host.
    SegmentReceived { to: Side, seg: Segment },
    /// The data sender's congestion window changed (segments, as `ss -i` prints it).
    CwndChanged {
        side: Side,
        old: u32,
        new: u32,
        ssthresh: u32,
    },
    /// An RTT measurement on an ACK, and the estimator after it (RFC 6298).
    RttSample {
        side: Side,
        sample_ns: u64,
        srtt_ns: u64,
        rttvar_ns: u64,
        rto_ns: u64,
    },
    /// `side` has `bytes` (less than one MSS) ready to send and may send
    /// them, but `reason` (`"nagle"` or `"cork"`) holds them back. Recorded
    /// when the hold begins; it ends with `side`'s next data segment.
    SendHeld {
        side: Side,
        reason: &'static str,
        bytes: u64,
    },
    /// `side` found a loss (RACK with SACK, three duplicate ACKs without) and
    /// enters fast recovery; `seq` is the first segment it resends.
    FastRetransmit { side: Side, seq: u64 },
    /// `side`'s tail-loss probe timer fired and it sends a probe: new data at
    /// `seq`, or its last segment (from `seq`) again (`tcp_send_loss_probe`).
    LossProbe { side: Side, seq: u64 },
    /// The retransmission timer fired; `rto_ns` is the timeout that expired.
    RtoFired { side: Side, rto_ns: u64 },
    /// The delayed-ACK timer was armed to fire at `deadline`.
    DelayedAckArmed { side: Side, deadline: SimTime },
    /// The persist timer fired: `side` probes the peer's zero window (`probes` so far on this connection).
    ZeroWindowProbe { side: Side, probes: u32 },
    /// `side` gave the connection up after `retries` unanswered retransmissions or probes.
    Aborted { side: Side, retries: u32 },
    /// `side` took in an acceptable RST and reset its connection
    /// (`tcp_reset`): its application's next call fails with ECONNRESET.
    Reset { side: Side },
    /// The congestion-control algorithm changed mode (BBR: startup, drain,
    /// probe_bw, probe_rtt).
    CcMode { side: Side, mode: &'static str },
    /// `sk_pacing_rate` changed (by more than 1/64 since the last record).
    PacingRate { side: Side, bytes_per_sec: u64 },
    /// A periodic reading of one flow (every `sample_interval`, and at the
    /// end of the run), as iperf3 and `ss` read `TCP_INFO`: totals so far and
    /// the data sender's (the server's) state now.
    Sample {
        /// Bytes the client application has read.
        delivered: u64,
        /// The server socket's `TCP_INFO`.
        info: TcpInfo,
        /// The client's receive buffer.
        client: RecvInfo,
        /// The other way, client → server, the data's way in an upload
        /// (seed case 5): the client's send buffer and the server's window,
        /// and the server's receive buffer.
        client_send: SendInfo,
        server_recv: RecvInfo,
    },
    /// Handshake complete on this side.
    Established { side: Side },
    /// The client has read the whole response of transfer `index`, which
    /// started (connection up or request written) at `started`.
    TransferComplete {
        index: u32,
        bytes: u64,
        started: SimTime,
    },
}

/// An append-only list of records in time order, with a budget for the
/// per-packet records that dominate long runs.
///
/// Memory stays bounded: once `packet_budget` packet records (sent, received,
/// dropped, delayed-ACK timers) are stored, further ones are only counted.
/// Everything else (cwnd changes, timeouts, transfers) is always kept, and the
/// hash covers every record, stored or not, so determinism checks still see
/// the whole run. Packet records are stored in a compact fixed form (see
/// `packed`) and unpacked as they are read.
#[derive(Clone, Debug)]
pub struct Trace {
    records: packed::Packed,
    /// Flow stamped on records pushed now.
    flow: u16,
    packet_budget: usize,
    packets_kept: usize,
    skipped: u64,
    /// Packet records outside it are neither stored nor counted as skipped
    /// (see [`Trace::with_packet_window`]).
    packet_window: Range<SimTime>,
    fnv: Fnv,
}

/// Packet records a trace keeps by default: 64 MB at most (64 bytes each),
/// enough for every widget case (a 64 MiB transfer is ~46,000 segments).
pub const DEFAULT_PACKET_BUDGET: usize = 1_000_000;

/// Bytes one stored packet record takes at most (its compact slot and a
/// SACK entry), for the cost estimates (`sim::cost`).
pub(crate) const PACKET_RECORD_BYTES: u64 = packed::RECORD_BYTES;

impl Default for Trace {
    fn default() -> Self {
        Trace::with_packet_budget(DEFAULT_PACKET_BUDGET)
    }
}

impl Trace {
    pub fn with_packet_budget(packet_budget: usize) -> Self {
        Trace::with_packet_window(packet_budget, SimTime::ZERO..SimTime(u64::MAX))
    }

    /// A trace that stores packet records only at times in `window` (and at
    /// most `packet_budget` of them), and every other record always: what a
    /// view needs to show the packets around one instant of a run too long
    /// to keep them all (see `Simulation::fork`).
    pub fn with_packet_window(packet_budget: usize, window: Range<SimTime>) -> Self {
        Trace {
            records: packed::Packed::default(),
            flow: 0,
            packet_budget,
            packets_kept: 0,
            skipped: 0,
            packet_window: window,
            fnv: Fnv::default(),
        }
    }

    #[inline]
    pub fn push(&mut self, time: SimTime, event: TraceEvent) {
        debug_assert!(
            self.records.last_time().is_none_or(|t| t <= time),
            "trace must stay in time order"
        );
        // Hash and count before building the record, so a packet record past
        // the budget is never copied anywhere.
        hash_record(&mut self.fnv, time, self.flow, &event);
        if event.is_packet_level() {
            if !self.packet_window.contains(&time) {
                return;
            }
            if self.packets_kept >= self.packet_budget {
                self.skipped += 1;
                return;
            }
            self.packets_kept += 1;
        }
        self.records.push(time, self.flow, &event);
    }

    /// Every stored record, in the order pushed (time order).
    pub fn records(&self) -> Records<'_> {
        self.records.iter()
    }

    /// Records from now on belong to `flow`.
    pub fn set_flow(&mut self, flow: u16) {
        self.flow = flow;
    }

    /// The records of one flow, in time order.
    pub fn flow_records(&self, flow: u16) -> impl Iterator<Item = TraceRecord> + '_ {
        self.records.iter().filter(move |r| r.flow == flow)
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.len() == 0
    }

    /// Every stored record that is not packet-level (cwnd changes, timers,
    /// samples, transfers), in order: what totals and reports read, without
    /// unpacking a packet. None of these ever falls to the budget.
    pub fn summary_records(&self) -> &[TraceRecord] {
        self.records.summary()
    }

    /// [`Trace::summary_records`] of one flow.
    pub fn flow_summary(&self, flow: u16) -> impl Iterator<Item = &TraceRecord> + '_ {
        self.summary_records()
            .iter()
            .filter(move |r| r.flow == flow)
    }

    /// Time of the last stored record.
    pub fn end_time(&self) -> Option<SimTime> {
        self.records.last_time()
    }

    /// Heap bytes the stored records take.
    pub fn heap_bytes(&self) -> usize {
        self.records.heap_bytes()
    }

    /// Holds the trace's growth to about `bytes` (see `packed::make_room`):
    /// a run held to a memory budget ([`crate::sim::Budget`]) then ends
    /// within about a megabyte of it, not at a vector's next doubling.
    pub fn set_memory_limit(&mut self, bytes: u64) {
        self.records
            .set_memory_limit(usize::try_from(bytes).unwrap_or(usize::MAX));
    }

    /// Packet records counted but not stored because the budget ran out.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// A 64-bit FNV-1a hash of every record pushed, for determinism checks: the
    /// same scenario must give the same hash natively and in wasm.
    pub fn hash(&self) -> u64 {
        self.fnv.get()
    }

    /// The same hash over the records as stored and read back. Equal to
    /// [`Trace::hash`] when no packet record was skipped, which checks the
    /// packing (natively in the tests, and in the browser by the benchmark).
    pub fn readback_hash(&self) -> u64 {
        let mut h = Fnv::default();
        for r in self.records() {
            hash_record(&mut h, r.time, r.flow, &r.event);
        }
        h.get()
    }
}

impl TraceRecord {
    /// Records there is one of per packet (or per ACK), which long runs must not keep without bound.
    pub fn is_packet_level(&self) -> bool {
        self.event.is_packet_level()
    }
}

impl TraceEvent {
    /// See [`TraceRecord::is_packet_level`].
    pub fn is_packet_level(&self) -> bool {
        matches!(
            self,
            TraceEvent::SegmentSent { .. }
                | TraceEvent::SegmentReceived { .. }
                | TraceEvent::SegmentDropped { .. }
                | TraceEvent::DelayedAckArmed { .. }
                | TraceEvent::RttSample { .. }
                | TraceEvent::SendHeld { .. }
        )
    }
}
