//! The time-sequence graph of the server's data (Stevens, tcptrace): every
//! data segment as a vertical stroke from its first to its last byte at the
//! time it was sent, and, from the ACKs reaching the server, the cumulative
//! ACK line, the receive-window line above it (ACK + advertised window),
//! SACK blocks and zero-window moments.
//!
//! ```text
//!  seq │            rwnd ┌──────
//!      │        ┌────────┘   ╷ ╷   data
//!      │        │       ╷ ╷ ╷╵ ╵
//!      │        │ ╷ ╷ ╷ ╵ ╵ ╵ ┌──  ACK
//!      │ ╷ ╷    ╵ ╵ ╵ ┌───────┘
//!      └──────────────────────── time
//! ```
//!
//! Sequence numbers are relative, as the simulator keeps them: the SYN is 0
//! and the first data byte 1. A segment the bottleneck queue dropped
//! (`SegmentSent` with no arrival) is still drawn where it was sent, and
//! marked. With several flows, flow 0 is shown.

use super::bins::Binned;
use super::run_end_ns;
use super::table::{TABLE_ROWS, Table, ms, table_stride};
use sim_core::segment::{SackBlocks, Side};
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;

/// One data segment the server sent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DataSegment {
    pub t_ns: f64,
    /// First byte.
    pub seq: u64,
    /// One past the last byte.
    pub end: u64,
    pub retransmit: bool,
    /// The bottleneck queue dropped it.
    pub dropped: bool,
}

/// One ACK as it reached the server.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AckPoint {
    pub t_ns: f64,
    /// Cumulative ACK: the next byte the client expects.
    pub ack: u64,
    /// Advertised receive window (bytes, scaled).
    pub wnd: u64,
    pub sack: SackBlocks,
}

impl AckPoint {
    /// The receive-window line: the highest byte the server may send.
    pub fn window_edge(&self) -> u64 {
        self.ack + self.wnd
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TsgSeries {
    /// Every data segment the server sent, in send order.
    pub segments: Vec<DataSegment>,
    /// Every ACK that reached the server, in arrival order.
    pub acks: Vec<AckPoint>,
    /// End of the run (ns).
    pub end_ns: f64,
    /// Highest sequence number of data or ACKs (bytes).
    pub max_seq: u64,
    /// The first round trips, bracketed (see `series::annotations`).
    pub notes: Vec<super::annotations::Annotation>,
    pub(crate) data: Binned,
    pub(crate) retransmits: Binned,
    pub(crate) drops: Binned,
    pub(crate) ack_line: Binned,
    pub(crate) window_line: Binned,
    pub(crate) sacks: Binned,
    pub(crate) zero_windows: Binned,
}

impl TsgSeries {
    pub fn from_run(run: &RunResult) -> Self {
        let mut segments = Vec::new();
        let mut acks = Vec::new();
        for r in run.trace.flow_records(0) {
            let t_ns = r.time.0 as f64;
            match r.event {
                TraceEvent::SegmentSent {
                    seg,
                    retransmit,
                    arrives,
                    ..
                } if seg.from == Side::Server && seg.len > 0 => segments.push(DataSegment {
                    t_ns,
                    seq: seg.seq,
                    end: seg.seq + seg.len as u64,
                    retransmit,
                    dropped: arrives.is_none(),
                }),
                TraceEvent::SegmentReceived {
                    to: Side::Server,
                    seg,
                } if seg.flags.ack => acks.push(AckPoint {
                    t_ns,
                    ack: seg.ack,
                    wnd: seg.wnd,
                    sack: seg.sack,
                }),
                _ => {}
            }
        }
        let last_t = segments
            .last()
            .map_or(0.0, |s: &DataSegment| s.t_ns)
            .max(acks.last().map_or(0.0, |a: &AckPoint| a.t_ns));
        let end_ns = run_end_ns(run).max(last_t);
        let max_seq = segments
            .iter()
            .map(|s| s.end)
            .chain(acks.iter().map(|a| a.ack))
            .max()
            .unwrap_or(0);
        let span = |s: &DataSegment| (s.t_ns, s.seq as f64, s.end as f64);
        let data = Binned::build(end_ns, segments.iter().filter(|s| !s.retransmit).map(span));
        let retransmits = Binned::build(end_ns, segments.iter().filter(|s| s.retransmit).map(span));
        let drops = Binned::build(end_ns, segments.iter().filter(|s| s.dropped).map(span));
        let point = |t: f64, v: u64| (t, v as f64, v as f64);
        let ack_line = Binned::build(end_ns, acks.iter().map(|a| point(a.t_ns, a.ack)));
        let window_line =
            Binned::build(end_ns, acks.iter().map(|a| point(a.t_ns, a.window_edge())));
        let sacks = Binned::build(
            end_ns,
            acks.iter().filter(|a| !a.sack.is_empty()).map(|a| {
                let b = a.sack.as_slice();
                let lo = b.iter().map(|x| x.0).min().unwrap_or(a.ack);
                let hi = b.iter().map(|x| x.1).max().unwrap_or(a.ack);
                (a.t_ns, lo as f64, hi as f64)
            }),
        );
        let zero_windows = Binned::build(
            end_ns,
            acks.iter()
                .filter(|a| a.wnd == 0)
                .map(|a| point(a.t_ns, a.ack)),
        );
        TsgSeries {
            segments,
            acks,
            end_ns,
            max_seq,
            notes: super::annotations::tsg_notes(run),
            data,
            retransmits,
            drops,
            ack_line,
            window_line,
            sacks,
            zero_windows,
        }
    }

    /// ACKs that advertised a zero window.
    pub fn zero_windows(&self) -> impl Iterator<Item = &AckPoint> + '_ {
        self.acks.iter().filter(|a| a.wnd == 0)
    }

    pub fn retransmissions(&self) -> usize {
        self.segments.iter().filter(|s| s.retransmit).count()
    }

    pub fn drops(&self) -> usize {
        self.segments.iter().filter(|s| s.dropped).count()
    }

    /// Data segments and ACKs merged in time order. The rare rows worth
    /// finding (retransmissions, drops, zero windows) are all kept while
    /// they fit in half the table; the rest is decimated evenly.
    /// Every data segment and ACK as a row (time, notable, cells), in time
    /// order; notable rows are retransmissions, drops and zero windows.
    fn rows(&self) -> Vec<(f64, bool, Vec<String>)> {
        let mut rows: Vec<(f64, bool, Vec<String>)> =
            Vec::with_capacity(self.segments.len() + self.acks.len());
        for s in &self.segments {
            let note = match (s.retransmit, s.dropped) {
                (true, true) => "retransmission, dropped",
                (true, false) => "retransmission",
                (false, true) => "dropped",
                (false, false) => "",
            };
            rows.push((
                s.t_ns,
                !note.is_empty(),
                vec![
                    ms(s.t_ns),
                    "data".into(),
                    s.seq.to_string(),
                    s.end.to_string(),
                    String::new(),
                    note.into(),
                ],
            ));
        }
        for a in &self.acks {
            let mut notes: Vec<String> = a
                .sack
                .as_slice()
                .iter()
                .map(|(lo, hi)| format!("SACK {lo}-{hi}"))
                .collect();
            if a.wnd == 0 {
                notes.insert(0, "zero window".into());
            }
            rows.push((
                a.t_ns,
                a.wnd == 0,
                vec![
                    ms(a.t_ns),
                    "ack".into(),
                    a.ack.to_string(),
                    String::new(),
                    a.wnd.to_string(),
                    notes.join("; "),
                ],
            ));
        }
        // Stable: at equal times data (pushed first) stays before ACKs.
        rows.sort_by(|a, b| a.0.total_cmp(&b.0));
        rows
    }

    pub fn table(&self) -> Table {
        let (rows, note) = decimate(self.rows());
        Table {
            caption: format!(
                "Time-sequence graph of the server's data, flow 0: data segments sent and \
                 ACKs reaching the server{note}"
            ),
            headers: vec![
                "time (ms)".into(),
                "event".into(),
                "seq or ack (bytes)".into(),
                "end (bytes)".into(),
                "receive window (bytes)".into(),
                "note".into(),
            ],
            rows,
        }
    }
}

/// Decimates `rows` to at most [`TABLE_ROWS`], keeping every notable row
/// when they are at most half of that; returns the rows' cells and the
/// caption's note saying what was left out.
fn decimate(rows: Vec<(f64, bool, Vec<String>)>) -> (Vec<Vec<String>>, String) {
    let total = rows.len();
    let notable = rows.iter().filter(|r| r.1).count();
    let keep_notable = notable <= TABLE_ROWS / 2;
    let (stride, note) = if keep_notable {
        let others = total - notable;
        let stride = others.div_ceil(TABLE_ROWS - notable).max(1);
        let note = if stride > 1 {
            format!(
                " (all {notable} retransmissions, drops and zero windows; \
                 one in {stride} of the other {others} rows)"
            )
        } else {
            String::new()
        };
        (stride, note)
    } else {
        table_stride(total)
    };
    // Count only the rows that decimation may drop.
    let mut counted = 0usize;
    let rows = rows
        .into_iter()
        .filter(|(_, notable, _)| {
            if keep_notable && *notable {
                return true;
            }
            counted += 1;
            (counted - 1).is_multiple_of(stride)
        })
        .map(|(_, _, cells)| cells)
        .collect();
    (rows, note)
}
