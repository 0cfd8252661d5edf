//! Bytes delivered to the client per interval, as Mbit/s.
//!
//! "Delivered" counts each byte once, when it first reaches the client's
//! TCP (from data `SegmentReceived { to: Client }`): duplicates and the
//! already-received part of a retransmission add nothing, and bytes arriving
//! above a hole count when they arrive, not when the hole fills. This is
//! what the receiver's link delivered, before the application reads it (the
//! periodic `Sample.delivered` counts reads, but only every
//! `sample_interval`, too coarse for a 60 ms transfer). The intervals
//! therefore sum to the distinct bytes received.
//!
//! The interval is a round 1, 2 or 5 × 10^k ns giving about 50 intervals
//! over the run. With several flows, flow 0 is the bars, and each flow's
//! bytes read per interval (from the periodic samples) are kept for the
//! chart's per-flow lines and their sum. Runs long enough to
//! exhaust the trace's packet budget are counted from packets while there
//! are packet records, then from the periodic samples' `delivered` (bytes the
//! application read, which it does as they arrive): `sampled_from_ns` says
//! where, and the caption says so.

use super::run_end_ns;
use super::table::{Table, ms};
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;

/// Intervals the run is cut into, about.
pub const TARGET_INTERVALS: f64 = 50.0;

#[derive(Clone, Debug, PartialEq)]
pub struct ThroughputSeries {
    /// Length of each interval (ns); interval `i` is `[i·interval, (i+1)·interval)`.
    pub interval_ns: u64,
    /// New bytes delivered in each interval.
    pub bytes: Vec<u64>,
    /// Bottleneck rate (bit/s), the ceiling the chart marks.
    pub link_bps: f64,
    /// End of the run (ns).
    pub end_ns: f64,
    /// Where the packet records end (the trace's budget ran out) and the
    /// intervals are counted from samples instead.
    pub sampled_from_ns: Option<f64>,
    /// With several flows, each flow's bytes read per interval, flow 0
    /// first (empty with one flow).
    pub flows: Vec<Vec<u64>>,
}

/// Each flow's bytes read per interval, from the periodic samples: a
/// sample's increase counts in the interval that holds the moment just
/// before it (samples fall on interval edges). Empty for one flow.
fn per_flow(run: &RunResult, interval_ns: u64, n: usize) -> Vec<Vec<u64>> {
    let k = run.scenario.flows as usize;
    if k < 2 {
        return Vec::new();
    }
    let mut out = vec![vec![0u64; n]; k];
    let mut last = vec![0u64; k];
    for r in run.trace.summary_records() {
        if let TraceEvent::Sample { delivered, .. } = r.event
            && let Some(prev) = last.get_mut(r.flow as usize)
        {
            let i = ((r.time.0.saturating_sub(1) / interval_ns) as usize).min(n - 1);
            out[r.flow as usize][i] += delivered.saturating_sub(*prev);
            *prev = delivered;
        }
    }
    out
}

/// The round interval (1, 2 or 5 × 10^k ns) cutting `end_ns` into the
/// number of intervals nearest [`TARGET_INTERVALS`].
pub fn nice_interval(end_ns: f64) -> u64 {
    let end = end_ns.max(1.0);
    let mut best = 1u64;
    let mut best_err = f64::INFINITY;
    let mut decade = 1u64;
    for _ in 0..19 {
        for m in [1, 2, 5] {
            let Some(iv) = decade.checked_mul(m) else {
                continue;
            };
            let count = (end / iv as f64).ceil();
            let err = (count - TARGET_INTERVALS).abs();
            if err < best_err {
                (best, best_err) = (iv, err);
            }
        }
        decade = decade.saturating_mul(10);
    }
    best
}

/// Byte ranges received so far, merged: `(start, end)`, disjoint, by start.
/// A sorted `Vec` (there are as many as holes, a handful), not a `BTreeMap`
/// of its own: that cost the wasm kilobytes.
#[derive(Default)]
struct Coverage(Vec<(u64, u64)>);

impl Coverage {
    /// Adds `[lo, hi)` and returns how many of its bytes were new.
    fn insert(&mut self, lo: u64, hi: u64) -> u64 {
        // The ranges touching [lo, hi]: from the first ending at or after
        // `lo` to the last starting at or before `hi`.
        let a = self.0.partition_point(|&(_, e)| e < lo);
        let b = self.0.partition_point(|&(s, _)| s <= hi).max(a);
        let (mut start, mut end, mut overlap) = (lo, hi, 0);
        for &(s, e) in &self.0[a..b] {
            overlap += e.min(hi).saturating_sub(s.max(lo));
            start = start.min(s);
            end = end.max(e);
        }
        self.0.splice(a..b, [(start, end)]);
        (hi - lo) - overlap
    }
}

/// (time, bytes) read by the client application between consecutive samples
/// after `cutoff_ns`, each at its later sample's time.
fn sampled_after(run: &RunResult, cutoff_ns: u64) -> Vec<(u64, u64)> {
    let mut last = None;
    let mut out = Vec::new();
    for r in run.trace.flow_summary(0) {
        let TraceEvent::Sample { delivered, .. } = r.event else {
            continue;
        };
        if r.time.0 <= cutoff_ns {
            last = Some(delivered);
        } else if let Some(prev) = last.replace(delivered) {
            out.push((r.time.0, delivered.saturating_sub(prev)));
        }
    }
    out
}

impl ThroughputSeries {
    pub fn from_run(run: &RunResult) -> Self {
        let end_ns = run_end_ns(run);
        let mut arrivals = Vec::new();
        let mut coverage = Coverage::default();
        for r in run.trace.flow_records(0) {
            if let TraceEvent::SegmentReceived {
                to: Side::Client,
                seg,
            } = r.event
                && seg.len > 0
            {
                let new = coverage.insert(seg.seq, seg.seq + seg.len as u64);
                if new > 0 {
                    arrivals.push((r.time.0, new));
                }
            }
        }
        let sampled_from_ns = super::packet_records_end_ns(run).map(|packets_end| {
            // Hand over at the last sample inside the packet records, so no
            // byte counts twice (short of bytes above a hole at that instant).
            let handover = run
                .trace
                .flow_summary(0)
                .filter(|r| matches!(r.event, TraceEvent::Sample { .. }) && r.time.0 <= packets_end)
                .last()
                .map_or(0, |r| r.time.0);
            arrivals.retain(|a| a.0 <= handover);
            arrivals.extend(sampled_after(run, handover));
            handover as f64
        });
        let end_ns = end_ns.max(arrivals.last().map_or(0.0, |a| a.0 as f64));
        let interval_ns = nice_interval(end_ns);
        let n = ((end_ns / interval_ns as f64).ceil() as usize).max(1);
        let mut bytes = vec![0u64; n];
        for (t, b) in arrivals {
            bytes[((t / interval_ns) as usize).min(n - 1)] += b;
        }
        ThroughputSeries {
            interval_ns,
            bytes,
            link_bps: run.scenario.path.rate_bps as f64,
            end_ns,
            sampled_from_ns,
            flows: per_flow(run, interval_ns, n),
        }
    }

    /// `bytes` in an interval as Mbit/s.
    pub fn rate(&self, bytes: u64) -> f64 {
        bytes as f64 * 8.0 / (self.interval_ns as f64 / 1e9) / 1e6
    }

    /// Every flow's bytes in interval `i` (0 with one flow).
    pub fn sum(&self, i: usize) -> u64 {
        self.flows.iter().map(|f| f[i]).sum()
    }

    /// Interval `i`'s rate in Mbit/s.
    pub fn mbps(&self, i: usize) -> f64 {
        self.rate(self.bytes[i])
    }

    /// Start of interval `i` (ns).
    pub fn start_ns(&self, i: usize) -> f64 {
        i as f64 * self.interval_ns as f64
    }

    pub fn total_bytes(&self) -> u64 {
        self.bytes.iter().sum()
    }

    /// Highest interval rate (Mbit/s).
    pub fn max_mbps(&self) -> f64 {
        (0..self.bytes.len())
            .map(|i| self.mbps(i).max(self.rate(self.sum(i))))
            .fold(0.0, f64::max)
    }

    pub fn table(&self) -> Table {
        let truncated = match self.sampled_from_ns {
            Some(t) => format!(
                "; after {} ms, where the trace stopped storing packets, bytes the application read between samples",
                ms(t)
            ),
            None => String::new(),
        };
        Table {
            caption: format!(
                "Bytes first reaching the client per {} ms interval, flow 0{truncated}",
                crate::units::shortest(self.interval_ns as f64 / 1e6)
            ),
            headers: [
                "start (ms)",
                "end (ms)",
                "delivered (bytes)",
                "throughput (Mbit/s)",
            ]
            .into_iter()
            .chain((!self.flows.is_empty()).then_some("all flows read (bytes)"))
            .map(String::from)
            .collect(),
            rows: (0..self.bytes.len())
                .map(|i| {
                    let mut row = vec![
                        ms(self.start_ns(i)),
                        ms(self.start_ns(i + 1)),
                        self.bytes[i].to_string(),
                        crate::units::fixed(self.mbps(i), 3),
                    ];
                    if !self.flows.is_empty() {
                        row.push(self.sum(i).to_string());
                    }
                    row
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_are_round_and_about_fifty() {
        // 63 ms: 1 ms intervals (63) beat 2 ms (32).
        assert_eq!(nice_interval(63e6), 1_000_000);
        // 30 s: 500 ms gives 60, 1 s gives 30.
        assert_eq!(nice_interval(30e9), 500_000_000);
        assert_eq!(nice_interval(100e6), 2_000_000);
    }

    #[test]
    fn coverage_counts_each_byte_once() {
        let mut c = Coverage::default();
        assert_eq!(c.insert(1, 101), 100);
        assert_eq!(c.insert(201, 301), 100);
        assert_eq!(c.insert(51, 251), 100, "fills the hole 101..201");
        assert_eq!(c.insert(1, 301), 0);
        assert_eq!(c.0.len(), 1);
    }
}
