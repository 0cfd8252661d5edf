//! The server's round-trip time: every RTT sample and the smoothed estimate
//! (srtt) after it, from its `RttSample` records (RFC 6298). With several
//! flows, flow 0 is shown.

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
        let end_ns = run_end_ns(run).max(samples.last().map_or(0.0, |s| s.t_ns));
        let max_ns = samples
            .iter()
            .map(|s| s.sample_ns.max(s.srtt_ns) as f64)
            .fold(0.0, f64::max);
        let bins = |v: fn(&RttPoint) -> u64| {
            Binned::build(
                end_ns,
                samples.iter().map(|s| (s.t_ns, v(s) as f64, v(s) as f64)),
            )
        };
        RttSeries {
            sample_bins: bins(|s| s.sample_ns),
            srtt: bins(|s| s.srtt_ns),
            min_rtt: super::cc_state::bbr_min_rtt(run, end_ns),
            samples,
            end_ns,
            max_ns,
        }
    }

    pub fn table(&self) -> Table {
        let (stride, note) = table_stride(self.samples.len());
        Table {
            caption: format!("The server's RTT samples and estimator after each, flow 0{note}"),
            headers: vec![
                "time (ms)".into(),
                "RTT sample (ms)".into(),
                "srtt (ms)".into(),
                "rttvar (ms)".into(),
                "RTO (ms)".into(),
            ],
            rows: self
                .samples
                .iter()
                .step_by(stride)
                .map(|s| {
                    vec![
                        ms(s.t_ns),
                        ms(s.sample_ns as f64),
                        ms(s.srtt_ns as f64),
                        ms(s.rttvar_ns as f64),
                        ms(s.rto_ns as f64),
                    ]
                })
                .collect(),
        }
    }
}
