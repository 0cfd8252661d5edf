//! The sender's windows over time: cwnd, ssthresh and the data outstanding,
//! in segments, as step functions.
//!
//! cwnd and ssthresh come from the server's `CwndChanged` records, starting
//! at the route's initcwnd. ssthresh is `None` while it still has Linux's
//! initial "infinite" value (`TCP_INFINITE_SSTHRESH`), so the chart leaves
//! it out instead of plotting two billion segments.
//!
//! "Outstanding" is `snd_nxt − snd_una`, rebuilt from the trace: the highest
//! data byte the server has sent, minus the highest cumulative ACK that has
//! reached it. It is not Linux's `packets_in_flight`: segments the receiver
//! has SACKed, or that the sender has marked lost, still count. With several
//! flows, flow 0 is shown.
//!
//! A BBR sender's modes (`CcMode` records: Startup, Drain, ProbeBW,
//! ProbeRTT) are kept with the time each began, for the band under the chart.
//!
//! Past the packets a long run's trace stored, outstanding data comes from
//! the periodic samples instead: the socket's own counters give the same
//! difference (`tcpi_bytes_sent − tcpi_bytes_retrans` new data sent, less
//! `tcpi_bytes_acked`), at the samples' resolution.

use super::bins::Binned;
use super::run_end_ns;
use super::table::{Table, ms, table_stride};
use sim_core::cc::TCP_INFINITE_SSTHRESH;
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;

/// The state after one change of any of the three.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowPoint {
    pub t_ns: f64,
    /// Congestion window (segments).
    pub cwnd: u32,
    /// Slow-start threshold (segments); `None` while still infinite.
    pub ssthresh: Option<u32>,
    /// `snd_nxt − snd_una` (bytes).
    pub outstanding_bytes: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct WindowSeries {
    /// Every change, in time order; the first is the initial window at 0.
    pub points: Vec<WindowPoint>,
    /// Sender MSS (bytes), the unit of "segments".
    pub mss: u32,
    /// End of the run (ns).
    pub end_ns: f64,
    /// Largest value of any of the three series (segments).
    pub max_segments: f64,
    /// Where a long run's packet records end (ns), if they do: outstanding
    /// data comes from the samples after that (cwnd and ssthresh are not
    /// packet records and go on as they are).
    pub outstanding_until_ns: Option<f64>,
    /// What the chart says in place (see `series::annotations`).
    pub notes: Vec<super::annotations::Annotation>,
    /// BBR's mode changes (time, `bbr_mode` name as `tcp_bbr.c`'s states,
    /// e.g. "probe_bw"); empty for algorithms without modes.
    pub modes: Vec<(f64, &'static str)>,
    /// The algorithm's own state: BBR's BDP estimate and ProbeBW phases,
    /// CUBIC's epochs (see `series::cc_state`).
    pub cc: super::cc_state::CcState,
    pub(crate) cwnd: Binned,
    pub(crate) ssthresh: Binned,
    pub(crate) outstanding: Binned,
}

impl WindowSeries {
    pub fn from_run(run: &RunResult) -> Self {
        let mss = run.scenario.server.sender.mss.max(1);
        let records_end = super::packet_records_end_ns(run);
        let mut modes = Vec::new();
        let points = changes(run, records_end, &mut modes);
        let end_ns = run_end_ns(run).max(points.last().map_or(0.0, |p| p.t_ns));
        let seg = |b: u64| b as f64 / mss as f64;
        let max_segments = points
            .iter()
            .map(|p| {
                (p.cwnd as f64)
                    .max(p.ssthresh.map_or(0.0, |s| s as f64))
                    .max(seg(p.outstanding_bytes))
            })
            .fold(1.0, f64::max);
        let cc = super::cc_state::CcState::from_run(run, end_ns, &points);
        let max_segments = max_segments.max(cc.max_bdp);
        let binned = |v: &dyn Fn(&WindowPoint) -> f64| {
            Binned::build(end_ns, points.iter().map(|p| (p.t_ns, v(p), v(p))))
        };
        WindowSeries {
            cwnd: binned(&|p| p.cwnd as f64),
            ssthresh: binned(&|p| p.ssthresh.map_or(f64::NAN, |s| s as f64)),
            outstanding: binned(&|p| seg(p.outstanding_bytes)),
            outstanding_until_ns: records_end.map(|t| t as f64),
            notes: super::annotations::cwnd_notes(run),
            modes,
            cc,
            points,
            mss,
            end_ns,
            max_segments,
        }
    }

    /// The state in effect at `t_ns`.
    pub fn at(&self, t_ns: f64) -> &WindowPoint {
        let i = self.points.partition_point(|p| p.t_ns <= t_ns);
        &self.points[i.saturating_sub(1)]
    }

    /// BBR's mode at `t_ns` ("" before the first, or without modes).
    pub fn mode_at(&self, t_ns: f64) -> &'static str {
        let i = self.modes.partition_point(|m| m.0 <= t_ns);
        i.checked_sub(1).map_or("", |i| self.modes[i].1)
    }

    /// Outstanding data of `p` in segments.
    pub fn outstanding_segments(&self, p: &WindowPoint) -> f64 {
        p.outstanding_bytes as f64 / self.mss as f64
    }

    pub fn table(&self) -> Table {
        let (stride, note) = table_stride(self.points.len());
        let until = self.outstanding_until_ns.map_or(String::new(), |u| {
            format!(
                "; outstanding after {} ms, where the trace stopped storing packets, \
                 is read from the periodic samples",
                ms(u)
            )
        });
        Table {
            caption: format!(
                "Server's cwnd, ssthresh (blank while still infinite) and outstanding data \
                 (snd_nxt − snd_una, SACKed segments included) at each change, flow 0{until}{note}"
            ),
            headers: [
                "time (ms)",
                "cwnd (segments)",
                "ssthresh (segments)",
                "outstanding (segments)",
                "outstanding (bytes)",
            ]
            .into_iter()
            .chain((!self.modes.is_empty()).then_some("BBR mode"))
            .map(String::from)
            .collect(),
            rows: self
                .points
                .iter()
                .step_by(stride)
                .map(|p| {
                    let out = self.outstanding_segments(p);
                    let (segs, bytes) = if out.is_nan() {
                        (String::new(), String::new())
                    } else {
                        (crate::units::fixed(out, 2), p.outstanding_bytes.to_string())
                    };
                    let mut row = vec![
                        ms(p.t_ns),
                        p.cwnd.to_string(),
                        p.ssthresh.map_or(String::new(), |s| s.to_string()),
                        segs,
                        bytes,
                    ];
                    if !self.modes.is_empty() {
                        row.push(self.mode_at(p.t_ns).into());
                    }
                    row
                })
                .collect(),
        }
    }
}

/// Every change of cwnd, ssthresh or outstanding data of the server, from
/// the initial window at 0; changes at one instant make one point. After
/// `records_end` (ns), outstanding data is read from the samples. BBR's
/// mode changes go to `modes`, read in the same pass.
fn changes(
    run: &RunResult,
    records_end: Option<u64>,
    modes: &mut Vec<(f64, &'static str)>,
) -> Vec<WindowPoint> {
    let sender = &run.scenario.server.sender;
    let mut cur = WindowPoint {
        t_ns: 0.0,
        cwnd: sender.initcwnd,
        ssthresh: None,
        outstanding_bytes: 0,
    };
    let mut points = vec![cur];
    let (mut snd_una, mut snd_nxt) = (0u64, 0u64);
    for r in run.trace.flow_records(0) {
        match r.event {
            TraceEvent::CwndChanged {
                side: Side::Server,
                new,
                ssthresh,
                ..
            } => {
                cur.cwnd = new;
                cur.ssthresh = (ssthresh < TCP_INFINITE_SSTHRESH).then_some(ssthresh);
            }
            TraceEvent::SegmentSent { seg, .. } if seg.from == Side::Server && seg.len > 0 => {
                if snd_nxt == 0 {
                    snd_una = snd_una.max(seg.seq);
                }
                snd_nxt = snd_nxt.max(seg.seq + seg.len as u64);
            }
            TraceEvent::SegmentReceived {
                to: Side::Server,
                seg,
            } if seg.flags.ack => snd_una = snd_una.max(seg.ack),
            TraceEvent::Sample { info, .. } if records_end.is_some_and(|e| r.time.0 > e) => {
                cur.outstanding_bytes = info.outstanding_bytes();
            }
            TraceEvent::CcMode {
                side: Side::Server,
                mode,
            } => {
                modes.push((r.time.0 as f64, mode));
                continue;
            }
            _ => continue,
        }
        if records_end.is_none_or(|e| r.time.0 <= e) {
            cur.outstanding_bytes = snd_nxt.saturating_sub(snd_una);
        }
        let t = r.time.0 as f64;
        let last = points.last_mut().expect("starts with the initial window");
        if (last.cwnd, last.ssthresh, last.outstanding_bytes)
            == (cur.cwnd, cur.ssthresh, cur.outstanding_bytes)
        {
            continue;
        }
        cur.t_ns = t;
        if last.t_ns == t {
            *last = cur;
        } else {
            points.push(cur);
        }
    }
    points
}
