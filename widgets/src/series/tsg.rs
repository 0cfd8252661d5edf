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
//!
//! Past the packets a long run's trace stored, the lines go on from the
//! periodic samples (the socket's counters, as `ss` reads them): the highest
//! byte sent (`tcpi_bytes_sent − tcpi_bytes_retrans` new bytes), the ACK
//! line (`tcpi_bytes_acked`) and the window line above it
//! (`tcpi_snd_wnd`), each as fine as the samples (RTT/20 or so). The
//! retransmissions of each sample interval are drawn at the ACK line, where
//! Linux retransmits from (the head of the queue): the samples do not say
//! which bytes they were.

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
    /// Where the packet records end and the samples take over (ns).
    pub sampled_from_ns: Option<f64>,
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
        let records_end = super::packet_records_end_ns(run);
        let sampled = sampled_after(run, records_end);
        let last_t = segments
            .last()
            .map_or(0.0, |s: &DataSegment| s.t_ns)
            .max(acks.last().map_or(0.0, |a: &AckPoint| a.t_ns));
        let end_ns = run_end_ns(run).max(last_t);
        let max_seq = segments
            .iter()
            .map(|s| s.end)
            .chain(acks.iter().map(|a| a.ack))
            .chain(sampled.iter().map(|p| p.nxt))
            .max()
            .unwrap_or(0);
        let span = |s: &DataSegment| (s.t_ns, s.seq as f64, s.end as f64);
        let sampled_span = |w: &[Sampled]| (w[1].t_ns, w[0].nxt as f64, w[1].nxt as f64);
        let data = Binned::build(
            end_ns,
            (segments.iter().filter(|s| !s.retransmit).map(span)).chain(
                sampled
                    .windows(2)
                    .filter(|w| w[1].nxt > w[0].nxt)
                    .map(sampled_span),
            ),
        );
        let resent = |w: &[Sampled]| {
            let bytes = w[1].retrans.saturating_sub(w[0].retrans);
            (bytes > 0).then(|| (w[1].t_ns, w[0].ack as f64, (w[0].ack + bytes) as f64))
        };
        let retransmits = Binned::build(
            end_ns,
            (segments.iter().filter(|s| s.retransmit).map(span))
                .chain(sampled.windows(2).filter_map(resent)),
        );
        let drops = Binned::build(end_ns, segments.iter().filter(|s| s.dropped).map(span));
        let point = |t: f64, v: u64| (t, v as f64, v as f64);
        let ack_line = Binned::build(
            end_ns,
            (acks.iter().map(|a| point(a.t_ns, a.ack)))
                .chain(sampled.iter().skip(1).map(|p| point(p.t_ns, p.ack))),
        );
        let window_line = Binned::build(
            end_ns,
            (acks.iter().map(|a| point(a.t_ns, a.window_edge())))
                .chain(sampled.iter().skip(1).map(|p| point(p.t_ns, p.ack + p.wnd))),
        );
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
            sampled_from_ns: records_end.map(|t| t as f64),
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
        let mut data: Vec<(f64, bool, Vec<String>)> = Vec::with_capacity(self.segments.len());
        for s in &self.segments {
            let note = match (s.retransmit, s.dropped) {
                (true, true) => "retransmission, dropped",
                (true, false) => "retransmission",
                (false, true) => "dropped",
                (false, false) => "",
            };
            data.push((
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
        let mut acks: Vec<(f64, bool, Vec<String>)> = Vec::with_capacity(self.acks.len());
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
            acks.push((
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
        // Both are in time order: merged, at equal times data first.
        let mut rows = Vec::with_capacity(data.len() + acks.len());
        let (mut data, mut acks) = (data.into_iter().peekable(), acks.into_iter().peekable());
        loop {
            let take_data = match (data.peek(), acks.peek()) {
                (Some(d), Some(a)) => d.0 <= a.0,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            rows.extend(if take_data { data.next() } else { acks.next() });
        }
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

/// One sample's reading of the server's sequence space, relative as the
/// trace's (the first data byte is 1).
#[derive(Clone, Copy, Debug)]
struct Sampled {
    t_ns: f64,
    /// One past the highest data byte sent (`snd_nxt`).
    nxt: u64,
    /// The cumulative ACK (`snd_una`) and the peer's window.
    ack: u64,
    wnd: u64,
    /// Bytes retransmitted so far.
    retrans: u64,
}

/// Flow 0's samples from the last one at or before `records_end` on (none
/// if the records cover the run): the first is where the lines join, before
/// the last packet record; the rest come after it, so that the lines stay
/// in time order.
fn sampled_after(run: &RunResult, records_end: Option<u64>) -> Vec<Sampled> {
    let Some(end) = records_end else {
        return Vec::new();
    };
    let all: Vec<Sampled> = run
        .trace
        .flow_summary(0)
        .filter_map(|r| match r.event {
            // Relative sequence numbers: the SYN is 0, the first data byte 1.
            TraceEvent::Sample { info, .. } => Some(Sampled {
                t_ns: r.time.0 as f64,
                nxt: info.new_bytes_sent() + 1,
                ack: info.bytes_acked + 1,
                wnd: info.snd_wnd,
                retrans: info.counters.bytes_retrans,
            }),
            _ => None,
        })
        .collect();
    let first = all
        .partition_point(|p| p.t_ns <= end as f64)
        .saturating_sub(1);
    all[first.min(all.len())..].to_vec()
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

#[cfg(test)]
mod tests {
    use super::{TsgSeries, sampled_after};
    use sim_core::sim::RunResult;

    fn long_fat(budget: usize) -> RunResult {
        let spec = widget_catalogue::widget("long-fat").unwrap();
        let values = crate::params::preset_values(spec, "seed-003-cubic").unwrap();
        let mut s = crate::kit::scenario::build(spec, &values);
        s.time_limit = sim_core::time::SimDuration(6_000_000_000);
        s.trace_packet_budget = budget;
        sim_core::sim::run(&s).unwrap()
    }

    /// Past the stored packets the graph goes on from the samples (it used
    /// to draw a flat line there, which read as a stall). At each sample the
    /// highest byte sent and the cumulative ACK are exactly those a run that
    /// stored every packet rebuilds from its packets, and the lines carry
    /// them to the end of the run.
    #[test]
    fn past_the_stored_packets_the_lines_go_on_from_the_samples() {
        let run = long_fat(5_000);
        let (full, cut) = (
            TsgSeries::from_run(&long_fat(usize::MAX)),
            TsgSeries::from_run(&run),
        );
        let from = cut.sampled_from_ns.expect("5,000 records end early");
        assert!(full.sampled_from_ns.is_none());
        let samples = sampled_after(&run, Some(from as u64));
        assert!(samples.len() > 300);
        for p in &samples[1..] {
            let nxt = full
                .segments
                .iter()
                .take_while(|s| s.t_ns <= p.t_ns)
                .map(|s| s.end)
                .max();
            let ack = full.acks.iter().take_while(|a| a.t_ns <= p.t_ns).last();
            assert_eq!(Some(p.nxt), nxt, "snd_nxt at {} ns", p.t_ns);
            assert_eq!(Some(p.ack), ack.map(|a| a.ack), "snd_una at {} ns", p.t_ns);
            assert_eq!(Some(p.wnd), ack.map(|a| a.wnd), "snd_wnd at {} ns", p.t_ns);
        }
        assert_eq!(cut.max_seq, full.max_seq, "the last byte sent");
        let col = cut.end_ns / 200.0;
        for line in [&cut.data, &cut.ack_line, &cut.window_line] {
            let after = line
                .columns(col, cut.end_ns, true)
                .iter()
                .filter(|c| c.index as f64 * col > from + col)
                .count();
            assert!(after > 100, "{after} columns drawn after the records end");
        }
    }
}
