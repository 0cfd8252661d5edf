//! The server's round-trip time: every RTT sample and the smoothed estimate
//! (srtt) after it, from its `RttSample` records (RFC 6298). With several
//! flows, flow 0 is shown.
//!
//! `RttSample` records are packet records: a long run's trace stops storing
//! them when its packet budget runs out. From there srtt goes on from the
//! periodic samples (the socket's `TCP_INFO`, as `ss` reads it), so that the
//! line covers the whole run; the individual samples end where the packets
//! do, and the chart says so.

use super::bins::Binned;
use super::run_end_ns;
use super::table::{Table, ms, table_stride};
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;

/// One measurement and the estimator after it (ns).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RttPoint {
    pub t_ns: f64,
    pub sample_ns: u64,
    pub srtt_ns: u64,
    pub rttvar_ns: u64,
    pub rto_ns: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RttSeries {
    /// Every sample, in time order.
    pub samples: Vec<RttPoint>,
    /// End of the run (ns).
    pub end_ns: f64,
    /// Largest sample or srtt (ns).
    pub max_ns: f64,
    pub(crate) sample_bins: Binned,
    pub(crate) srtt: Binned,
    /// BBR's min_rtt estimate (ns), from the samples; empty for others.
    pub min_rtt: Binned,
    /// Where the packet records, and so the individual RTT samples, end
    /// (ns), if they end before the run.
    pub samples_until_ns: Option<f64>,
    /// srtt, rttvar and RTO after that, from the periodic samples; the
    /// sample field is 0 (there is none).
    pub sampled: Vec<RttPoint>,
}

impl RttSeries {
    pub fn from_run(run: &RunResult) -> Self {
        let samples: Vec<RttPoint> = run
            .trace
            .flow_records(0)
            .filter_map(|r| match r.event {
                TraceEvent::RttSample {
                    side: Side::Server,
                    sample_ns,
                    srtt_ns,
                    rttvar_ns,
                    rto_ns,
                } => Some(RttPoint {
                    t_ns: r.time.0 as f64,
                    sample_ns,
                    srtt_ns,
                    rttvar_ns,
                    rto_ns,
                }),
                _ => None,
            })
            .collect();
        let samples_until_ns = super::packet_records_end_ns(run).map(|t| t as f64);
        let sampled: Vec<RttPoint> = match samples_until_ns {
            None => Vec::new(),
            Some(until) => run
                .trace
                .flow_summary(0)
                .filter(|r| r.time.0 as f64 > until)
                .filter_map(|r| match r.event {
                    TraceEvent::Sample { info, .. } if info.srtt_ns > 0 => Some(RttPoint {
                        t_ns: r.time.0 as f64,
                        sample_ns: 0,
                        srtt_ns: info.srtt_ns,
                        rttvar_ns: info.rttvar_ns,
                        rto_ns: info.rto_ns,
                    }),
                    _ => None,
                })
                .collect(),
        };
        let last = sampled.last().or(samples.last());
        let end_ns = run_end_ns(run).max(last.map_or(0.0, |s| s.t_ns));
        let max_ns = (samples.iter().chain(&sampled))
            .map(|s| s.sample_ns.max(s.srtt_ns) as f64)
            .fold(0.0, f64::max);
        let bins = |points: &mut dyn Iterator<Item = &RttPoint>, v: fn(&RttPoint) -> u64| {
            Binned::build(end_ns, points.map(|s| (s.t_ns, v(s) as f64, v(s) as f64)))
        };
        RttSeries {
            sample_bins: bins(&mut samples.iter(), |s| s.sample_ns),
            srtt: bins(&mut samples.iter().chain(&sampled), |s| s.srtt_ns),
            min_rtt: super::cc_state::bbr_min_rtt(run, end_ns),
            samples,
            end_ns,
            max_ns,
            samples_until_ns,
            sampled,
        }
    }

    /// srtt at `t_ns` (0 before the first sample), from the samples or,
    /// past them, the periodic readings.
    pub fn srtt_at(&self, t_ns: f64) -> u64 {
        let at = |v: &[RttPoint]| {
            let i = v.partition_point(|p| p.t_ns <= t_ns);
            i.checked_sub(1).map(|i| v[i].srtt_ns)
        };
        at(&self.sampled).or_else(|| at(&self.samples)).unwrap_or(0)
    }

    pub fn table(&self) -> Table {
        let all = self.samples.len() + self.sampled.len();
        let (stride, note) = table_stride(all);
        let until = self.samples_until_ns.map_or(String::new(), |u| {
            format!(
                "; after {} ms, where the trace stopped storing packets, the estimator is read \
                 from the periodic samples (the RTT sample column is blank there)",
                ms(u)
            )
        });
        Table {
            caption: format!(
                "The server's RTT samples and estimator after each, flow 0{until}{note}"
            ),
            headers: vec![
                "time (ms)".into(),
                "RTT sample (ms)".into(),
                "srtt (ms)".into(),
                "rttvar (ms)".into(),
                "RTO (ms)".into(),
            ],
            // Decimated, but always with the last row: the value the run
            // ends with, as `ss` reads it at the end.
            rows: (self.samples.iter().chain(&self.sampled))
                .enumerate()
                .filter(|&(i, _)| i % stride == 0 || i + 1 == all)
                .map(|(_, s)| {
                    vec![
                        ms(s.t_ns),
                        match s.sample_ns {
                            0 => String::new(),
                            v => ms(v as f64),
                        },
                        ms(s.srtt_ns as f64),
                        ms(s.rttvar_ns as f64),
                        ms(s.rto_ns as f64),
                    ]
                })
                .collect(),
        }
    }
}
