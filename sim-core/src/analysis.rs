//! Readings derived from a trace: flights, completion time, round trips and
//! the cwnd series. Nothing here looks at simulator state; it all comes from
//! the trace. With several flows these describe flow 0; [`flow_totals`]
//! covers them all.

use crate::segment::Side;
use crate::sim::{Outcome, RunResult};
use crate::time::SimTime;
use crate::trace::{Trace, TraceEvent};

/// One slow-start flight: the data the sender released in response to the
/// ACKs of the previous flight (flight 1 is the initial window).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flight {
    pub index: u32,
    pub segments: u32,
    pub bytes: u64,
    /// When the first segment of the flight was sent.
    pub start: SimTime,
}

/// Bytes per flight of first transmissions from `side`, in flight order.
/// A scenario with a new connection per exchange numbers each connection's
/// flights from 1 again: they follow the previous connection's, not merge
/// with them.
pub fn flights(trace: &Trace, side: Side) -> Vec<Flight> {
    let mut out: Vec<Flight> = Vec::new();
    // Flights of the connections before this one.
    let mut before = 0;
    for r in trace.flow_records(0) {
        if let TraceEvent::SegmentSent {
            seg,
            retransmit: false,
            ..
        } = r.event
            && seg.flags.syn
            && seg.from == Side::Client
        {
            before = out.len();
        }
        if let TraceEvent::SegmentSent {
            seg,
            flight,
            retransmit: false,
            ..
        } = r.event
            && seg.from == side
            && seg.len > 0
        {
            let idx = before + flight as usize;
            while out.len() < idx {
                out.push(Flight {
                    index: out.len() as u32 + 1,
                    segments: 0,
                    bytes: 0,
                    start: r.time,
                });
            }
            let f = &mut out[idx - 1];
            if f.segments == 0 {
                f.start = r.time;
            }
            f.segments += 1;
            f.bytes += seg.len as u64;
        }
    }
    out.retain(|f| f.segments > 0);
    out
}

/// One request/response exchange (or push) and how long it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransferTiming {
    pub index: u32,
    pub bytes: u64,
    /// When it started: the connection came up (first transfer) or its request
    /// (or pushed response) was written.
    pub started: SimTime,
    /// When the client had read the whole response.
    pub finished: SimTime,
}

impl TransferTiming {
    pub fn duration(&self) -> crate::time::SimDuration {
        self.finished.since(self.started)
    }
}

/// Every completed transfer, in order.
pub fn transfers(trace: &Trace) -> Vec<TransferTiming> {
    trace
        .flow_summary(0)
        .filter_map(|r| match r.event {
            TraceEvent::TransferComplete {
                index,
                bytes,
                started,
            } => Some(TransferTiming {
                index,
                bytes,
                started,
                finished: r.time,
            }),
            _ => None,
        })
        .collect()
}

/// A transfer at a glance.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// From the client's SYN to the client having read the last response byte.
    pub completion: Option<SimTime>,
    pub flights: Vec<Flight>,
    pub data_segments: u64,
    pub retransmissions: u64,
    pub drops: u64,
    pub final_cwnd: Option<u32>,
    /// The server's largest cwnd (segments) over the run, its initcwnd
    /// included: a figure the book's exercises ask about.
    pub max_cwnd: u32,
    pub timed_out: bool,
    pub transfers: Vec<TransferTiming>,
}

impl Summary {
    /// Round trips of data: one per flight.
    pub fn round_trips(&self) -> usize {
        self.flights.len()
    }
}

pub fn summarize(run: &RunResult) -> Summary {
    let mut data_segments = 0;
    let mut retransmissions = 0;
    let mut drops = 0;
    let mut final_cwnd = None;
    let mut max_cwnd = run.scenario.server.sender.initcwnd;
    for r in run.trace.flow_records(0) {
        match r.event {
            TraceEvent::SegmentSent {
                seg, retransmit, ..
            } if seg.from == Side::Server && seg.len > 0 => {
                data_segments += 1;
                retransmissions += retransmit as u64;
            }
            TraceEvent::SegmentDropped { .. } => drops += 1,
            TraceEvent::CwndChanged {
                side: Side::Server,
                new,
                ..
            } => {
                final_cwnd = Some(new);
                max_cwnd = max_cwnd.max(new);
            }
            _ => {}
        }
    }
    Summary {
        completion: run.outcome.completed_at(),
        flights: flights(&run.trace, Side::Server),
        data_segments,
        retransmissions,
        drops,
        final_cwnd,
        max_cwnd,
        timed_out: !matches!(run.outcome, Outcome::Completed { .. }),
        transfers: transfers(&run.trace),
    }
}

/// cwnd of `side` over time as (time, segments) steps, starting from `initcwnd` at zero.
pub fn cwnd_series(trace: &Trace, side: Side, initcwnd: u32) -> Vec<(SimTime, u32)> {
    let mut out = vec![(SimTime::ZERO, initcwnd)];
    for r in trace.flow_summary(0) {
        if let TraceEvent::CwndChanged { side: s, new, .. } = r.event
            && s == side
        {
            out.push((r.time, new));
        }
    }
    out
}

/// What one flow achieved over a run, from its periodic samples.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowTotals {
    pub flow: u16,
    /// Bytes its client application read.
    pub delivered: u64,
    pub retransmits: u64,
    /// `delivered` over the run's length, in bits per second.
    pub bitrate: f64,
}

/// Per-flow totals at the end of the run (its last sample).
pub fn flow_totals(run: &RunResult) -> Vec<FlowTotals> {
    let end = run.trace.end_time().map_or(0, |t| t.0);
    (0..run.scenario.flows as u16)
        .map(|flow| {
            let (delivered, retransmits) = run
                .trace
                .flow_summary(flow)
                .filter_map(|r| match r.event {
                    TraceEvent::Sample {
                        delivered, info, ..
                    } => Some((delivered, info.total_retrans)),
                    _ => None,
                })
                .last()
                .unwrap_or((0, 0));
            FlowTotals {
                flow,
                delivered,
                retransmits,
                bitrate: if end > 0 {
                    delivered as f64 * 8.0 / (end as f64 / 1e9)
                } else {
                    0.0
                },
            }
        })
        .collect()
}
