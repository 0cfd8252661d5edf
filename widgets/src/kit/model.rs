//! One finished run, reduced once to everything the views and panels show.
//! Every frame afterwards only reads it at the time cursor.

use super::transport::StepIndex;
use crate::series::{
    ladder::Ladder, path::PathSeries, rtt::RttSeries, throughput::ThroughputSeries, tsg::TsgSeries,
    window::WindowSeries,
};
use sim_core::analysis::{self, Summary};
use sim_core::report;
use sim_core::sim::RunResult;
use sim_core::tcp::info::TcpInfo;
use sim_core::trace::TraceEvent;

pub struct Model {
    pub end_ns: f64,
    pub summary: Summary,
    pub path: PathSeries,
    pub ladder: Ladder,
    pub window: WindowSeries,
    pub tsg: TsgSeries,
    pub throughput: ThroughputSeries,
    pub rtt: RttSeries,
    pub steps: StepIndex,
    /// The server socket's `TCP_INFO` at each sample, for `ss` at the cursor.
    samples: Vec<(f64, TcpInfo)>,
    /// The iperf3-style report, its header and one line per interval.
    pub iperf_lines: Vec<String>,
    pub iperf_interval_ns: f64,
    pub tcp_metrics: String,
    pub settings: Vec<(String, String)>,
    /// Time-series CSV of every sample (`tcpsim --format samples`).
    pub samples_csv: String,
    run_scenario: sim_core::config::Scenario,
}

impl Model {
    pub fn from_run(run: &RunResult) -> Model {
        let end_ns = run.outcome.at().0 as f64;
        let samples: Vec<(f64, TcpInfo)> = run
            .trace
            .flow_summary(0)
            .filter_map(|r| match r.event {
                TraceEvent::Sample { info, .. } => Some((r.time.0 as f64, info)),
                _ => None,
            })
            .collect();
        // About ten report lines per run, on whole samples.
        let sample = run.scenario.sample_interval.0.max(1);
        let interval = (((end_ns as u64) / 10).div_ceil(sample)).max(1) * sample;
        let iperf = report::iperf(run, sim_core::time::SimDuration(interval));
        let mut summary = analysis::summarize(run);
        if run.trace.skipped() > 0 {
            // Packet records stopped early: count from the socket's own total.
            let total = samples.last().map_or(0, |(_, i)| i.total_retrans);
            summary.retransmissions = summary.retransmissions.max(total);
        }
        Model {
            end_ns,
            summary,
            path: PathSeries::from_run(run),
            ladder: Ladder::from_run(run),
            window: WindowSeries::from_run(run),
            tsg: TsgSeries::from_run(run),
            throughput: ThroughputSeries::from_run(run),
            rtt: RttSeries::from_run(run),
            steps: StepIndex::from_run(run, end_ns),
            samples,
            iperf_lines: iperf.lines().map(str::to_string).collect(),
            iperf_interval_ns: interval as f64,
            tcp_metrics: report::tcp_metrics_show(run),
            settings: report::settings(&run.scenario),
            samples_csv: report::csv_samples(run),
            run_scenario: run.scenario.clone(),
        }
    }

    /// The `ss -tin` line as of the last sample at or before `t_ns`; before
    /// the server's socket is connected (or sampled), a line saying so.
    pub fn ss_at(&self, t_ns: f64) -> String {
        let established = self.path.established_ns;
        let i = self.samples.partition_point(|(t, _)| *t <= t_ns);
        match established {
            Some(e) if e as f64 <= t_ns && i > 0 => {
                report::ss_line_of(&self.run_scenario, &self.samples[i - 1].1)
            }
            _ => report::ss_no_connection(established.map(sim_core::time::SimTime)),
        }
    }

    /// The iperf lines whose interval has ended by `t_ns` (header included;
    /// the summary after the dashes only once the run is over).
    pub fn iperf_until(&self, t_ns: f64) -> Vec<&str> {
        let done = if t_ns >= self.end_ns {
            self.iperf_lines.len()
        } else {
            1 + (t_ns / self.iperf_interval_ns).floor() as usize
        };
        self.iperf_lines
            .iter()
            .take(done.min(self.iperf_lines.len()))
            .map(String::as_str)
            .collect()
    }

    /// cwnd (segments) at `t_ns`.
    pub fn cwnd_at(&self, t_ns: f64) -> u32 {
        self.window.at(t_ns).cwnd
    }
}
