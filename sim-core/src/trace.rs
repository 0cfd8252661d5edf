//! The one record of a run. Every output — flights, completion time, the cwnd
//! chart, the packet animation — is derived from this list, so they can never
//! disagree with each other.

use crate::segment::{Segment, Side};
use crate::tcp::info::{RecvInfo, TcpInfo};
use crate::time::SimTime;

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
    /// serialising it and when it reaches the peer; `None` when the queue dropped it.
    SegmentSent {
        seg: Segment,
        /// Slow-start flight this data segment belongs to (1 = first flight); 0 for
        /// segments without data.
        flight: u32,
        retransmit: bool,
        departs: Option<SimTime>,
        arrives: Option<SimTime>,
    },
    /// The bottleneck queue was full and dropped the segment (drop-tail).
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
    /// The retransmission timer fired; `rto_ns` is the timeout that expired.
    RtoFired { side: Side, rto_ns: u64 },
    /// The delayed-ACK timer was armed to fire at `deadline`.
    DelayedAckArmed { side: Side, deadline: SimTime },
    /// The persist timer fired: `side` probes the peer's zero window (`probes` so far on this connection).
    ZeroWindowProbe { side: Side, probes: u32 },
    /// `side` gave the connection up after `retries` unanswered retransmissions or probes.
    Aborted { side: Side, retries: u32 },
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
/// the whole run.
#[derive(Clone, Debug)]
pub struct Trace {
    records: Vec<TraceRecord>,
    /// Flow stamped on records pushed now.
    flow: u16,
    packet_budget: usize,
    packets_kept: usize,
    skipped: u64,
    fnv: Fnv,
}

/// Packet records a trace keeps by default: about 100 MB natively at most,
/// enough for every widget case (a 64 MiB transfer is ~46,000 segments).
pub const DEFAULT_PACKET_BUDGET: usize = 1_000_000;

impl Default for Trace {
    fn default() -> Self {
        Trace::with_packet_budget(DEFAULT_PACKET_BUDGET)
    }
}

impl Trace {
    pub fn with_packet_budget(packet_budget: usize) -> Self {
        Trace {
            records: Vec::new(),
            flow: 0,
            packet_budget,
            packets_kept: 0,
            skipped: 0,
            fnv: Fnv::default(),
        }
    }

    pub fn push(&mut self, time: SimTime, event: TraceEvent) {
        debug_assert!(
            self.records.last().is_none_or(|r| r.time <= time),
            "trace must stay in time order"
        );
        let record = TraceRecord {
            time,
            flow: self.flow,
            event,
        };
        hash_record(&mut self.fnv, &record);
        if record.is_packet_level() {
            if self.packets_kept >= self.packet_budget {
                self.skipped += 1;
                return;
            }
            self.packets_kept += 1;
        }
        self.records.push(record);
    }

    pub fn records(&self) -> &[TraceRecord] {
        &self.records
    }

    /// Records from now on belong to `flow`.
    pub fn set_flow(&mut self, flow: u16) {
        self.flow = flow;
    }

    /// The records of one flow, in time order.
    pub fn flow_records(&self, flow: u16) -> impl Iterator<Item = &TraceRecord> + '_ {
        self.records.iter().filter(move |r| r.flow == flow)
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Packet records counted but not stored because the budget ran out.
    pub fn skipped(&self) -> u64 {
        self.skipped
    }

    /// A 64-bit FNV-1a hash of every record pushed, for determinism checks: the
    /// same scenario must give the same hash natively and in wasm.
    pub fn hash(&self) -> u64 {
        self.fnv.0
    }
}

impl TraceRecord {
    /// Records there is one of per packet (or per ACK), which long runs must not keep without bound.
    pub fn is_packet_level(&self) -> bool {
        matches!(
            self.event,
            TraceEvent::SegmentSent { .. }
                | TraceEvent::SegmentReceived { .. }
                | TraceEvent::SegmentDropped { .. }
                | TraceEvent::DelayedAckArmed { .. }
                | TraceEvent::RttSample { .. }
                | TraceEvent::SendHeld { .. }
        )
    }
}

fn hash_record(h: &mut Fnv, r: &TraceRecord) {
    h.write(r.time.0);
    if r.flow != 0 {
        h.write(0xF10 + r.flow as u64);
    }
    match r.event {
        TraceEvent::SegmentSent {
            seg,
            flight,
            retransmit,
            departs,
            arrives,
        } => {
            h.write(1);
            hash_segment(h, &seg);
            h.write(flight as u64);
            h.write(retransmit as u64);
            h.write(departs.map_or(u64::MAX, |t| t.0));
            h.write(arrives.map_or(u64::MAX, |t| t.0));
        }
        TraceEvent::SegmentDropped { seg } => {
            h.write(2);
            hash_segment(h, &seg);
        }
        TraceEvent::SegmentReceived { to, seg } => {
            h.write(3);
            h.write(to as u64);
            hash_segment(h, &seg);
        }
        TraceEvent::CwndChanged {
            side,
            old,
            new,
            ssthresh,
        } => {
            h.write(4);
            h.write(side as u64);
            h.write(old as u64);
            h.write(new as u64);
            h.write(ssthresh as u64);
        }
        TraceEvent::RtoFired { side, rto_ns } => {
            h.write(5);
            h.write(side as u64);
            h.write(rto_ns);
        }
        TraceEvent::DelayedAckArmed { side, deadline } => {
            h.write(6);
            h.write(side as u64);
            h.write(deadline.0);
        }
        TraceEvent::Established { side } => {
            h.write(7);
            h.write(side as u64);
        }
        TraceEvent::CcMode { side, mode } => {
            h.write(13);
            h.write(side as u64);
            for b in mode.bytes() {
                h.write(b as u64);
            }
        }
        TraceEvent::Sample {
            delivered,
            info,
            client,
        } => {
            h.write(15);
            let c = info.counters;
            for v in [
                delivered,
                info.total_retrans,
                info.cwnd as u64,
                info.ssthresh.map_or(u64::MAX, |s| s as u64),
                info.in_flight as u64,
                info.srtt_ns,
                info.rttvar_ns,
                info.rto_ns,
                info.pacing_rate,
                info.bytes_acked,
                c.segs_out,
                c.data_segs_out,
                c.bytes_sent,
                c.bytes_retrans,
                c.segs_in,
                info.snd_wnd,
                info.sndbuf,
                info.wmem_queued,
                info.notsent_bytes,
                client.rcvbuf,
                client.unread,
            ] {
                h.write(v);
            }
        }
        TraceEvent::PacingRate {
            side,
            bytes_per_sec,
        } => {
            h.write(14);
            h.write(side as u64);
            h.write(bytes_per_sec);
        }
        TraceEvent::Aborted { side, retries } => {
            h.write(10);
            h.write(side as u64);
            h.write(retries as u64);
        }
        TraceEvent::RttSample {
            side,
            sample_ns,
            srtt_ns,
            rttvar_ns,
            rto_ns,
        } => {
            h.write(12);
            h.write(side as u64);
            h.write(sample_ns);
            h.write(srtt_ns);
            h.write(rttvar_ns);
            h.write(rto_ns);
        }
        TraceEvent::SendHeld {
            side,
            reason,
            bytes,
        } => {
            h.write(16);
            h.write(side as u64);
            h.write(reason.len() as u64);
            h.write(bytes);
        }
        TraceEvent::FastRetransmit { side, seq } => {
            h.write(11);
            h.write(side as u64);
            h.write(seq);
        }
        TraceEvent::ZeroWindowProbe { side, probes } => {
            h.write(9);
            h.write(side as u64);
            h.write(probes as u64);
        }
        TraceEvent::TransferComplete {
            index,
            bytes,
            started,
        } => {
            h.write(8);
            h.write(index as u64);
            h.write(bytes);
            h.write(started.0);
        }
    }
}

fn hash_segment(h: &mut Fnv, s: &Segment) {
    h.write(s.id);
    h.write(s.from as u64);
    h.write(s.seq);
    h.write(s.len as u64);
    h.write(s.ack);
    h.write(s.wnd);
    h.write(s.flags.syn as u64 | (s.flags.ack as u64) << 1 | (s.flags.fin as u64) << 2);
    h.write(s.ts_val);
    h.write(s.ts_ecr);
    for &(start, end) in s.sack.as_slice() {
        h.write(start);
        h.write(end);
    }
}

/// A word-at-a-time FNV-1a variant: one xor, multiply and rotate per 64-bit
/// value instead of per byte (byte-wise FNV was a quarter of a long run's
/// time). Tiny, dependency-free and identical on every platform; it only has
/// to tell runs apart, not resist an adversary.
#[derive(Clone, Debug)]
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, v: u64) {
        self.0 = (self.0 ^ v)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}
