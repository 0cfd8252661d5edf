//! One finished run, reduced once to everything the views and panels show.
//! Every frame afterwards only reads it at the time cursor.

use super::transport::StepIndex;
use crate::series::{
    buffers::BufferSeries, connections::ConnectionsSeries, ladder::Ladder, path::PathSeries,
    rtt::RttSeries, throughput::ThroughputSeries, tsg::TsgSeries, window::WindowSeries,
};
use sim_core::analysis::{self, Summary};
use sim_core::report;
use sim_core::sim::RunResult;
use sim_core::tcp::info::{RecvInfo, SendInfo, TcpInfo};
use sim_core::trace::{TraceEvent, TraceRecord};

pub struct Model {
    pub end_ns: f64,
    pub summary: Summary,
    pub path: PathSeries,
    pub ladder: Ladder,
    pub window: WindowSeries,
    pub tsg: TsgSeries,
    pub throughput: ThroughputSeries,
    pub rtt: RttSeries,
    pub buffers: BufferSeries,
    pub connections: ConnectionsSeries,
    pub steps: StepIndex,
    /// Both sockets at each sample, for `ss` at the cursor.
    samples: Vec<(f64, SsReading)>,
    /// The iperf3-style report, its header and one line per interval.
    pub iperf_lines: Vec<String>,
    pub iperf_interval_ns: f64,
    /// What happened to the server's tcp_metrics cache (time, line), as
    /// `ip tcp_metrics show` would print it at each close, and what each
    /// open took from it.
    pub tcp_metrics: Vec<(f64, String)>,
    /// The cache's entry after each close.
    pub cache: Vec<Option<sim_core::tcp::metrics::Entry>>,
    pub settings: Vec<(String, String)>,
    /// Every flow's `Sample` records, for the samples CSV, written only
    /// when a reader asks for it.
    sample_records: Vec<TraceRecord>,
    run_scenario: sim_core::config::Scenario,
}

impl Model {
    pub fn from_run(run: &RunResult) -> Model {
        let mut build = ModelBuild::default();
        while !build.step(run) {}
        build.finish(run)
    }

    /// Every flow's `Sample` records (the results' all-flows figures).
    pub fn sample_records(&self) -> &[TraceRecord] {
        &self.sample_records
    }

    /// `ss -tmi` on each host as of the last sample at or before `t_ns`:
    /// the server's line, then what the samples know of the client's
    /// socket; before the server's socket is connected (or sampled), a line
    /// saying so.
    pub fn ss_at(&self, t_ns: f64) -> String {
        let established = self.path.established_ns;
        let i = self.samples.partition_point(|(t, _)| *t <= t_ns);
        match established {
            Some(e) if e as f64 <= t_ns && i > 0 => {
                let (at, r) = &self.samples[i - 1];
                let server =
                    report::ss_line_of(&self.run_scenario, &r.info, &r.server_recv, *at as u64);
                let client = report::ss_client_line(&r.client_recv, &r.client_send);
                format!("server: {server}client: {client}")
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

    /// Time-series CSV of every sample (`tcpsim --format samples`).
    pub fn samples_csv(&self) -> String {
        report::csv_samples_of(&self.sample_records)
    }

    /// cwnd (segments) at `t_ns`.
    pub fn cwnd_at(&self, t_ns: f64) -> u32 {
        self.window.at(t_ns).cwnd
    }
}

/// A [`Model`] reduced from its run a part at a time, so that a page can
/// spread the work over frames: on a long run each series takes tens of
/// milliseconds in wasm, together far more than one frame.
#[derive(Default)]
pub struct ModelBuild {
    stage: usize,
    path: Option<PathSeries>,
    ladder: Option<Ladder>,
    window: Option<WindowSeries>,
    tsg: Option<TsgSeries>,
    throughput: Option<ThroughputSeries>,
    rtt: Option<RttSeries>,
    buffers: Option<BufferSeries>,
    connections: Option<ConnectionsSeries>,
    steps: Option<StepIndex>,
    summary: Option<Summary>,
    samples: Option<Samples>,
    /// The iperf report's lines and interval.
    iperf: Option<(Vec<String>, f64)>,
}

impl ModelBuild {
    /// The parts [`step`](Self::step) builds one at a time.
    pub const STAGES: usize = 12;

    /// Builds the next part; true once all are built.
    pub fn step(&mut self, run: &RunResult) -> bool {
        match self.stage {
            0 => self.path = Some(PathSeries::from_run(run)),
            1 => self.ladder = Some(Ladder::from_run(run)),
            2 => self.window = Some(WindowSeries::from_run(run)),
            3 => self.tsg = Some(TsgSeries::from_run(run)),
            4 => self.throughput = Some(ThroughputSeries::from_run(run)),
            5 => self.rtt = Some(RttSeries::from_run(run)),
            6 => self.steps = Some(StepIndex::from_run(run, end_ns(run))),
            7 => self.summary = Some(analysis::summarize(run)),
            8 => self.samples = Some(samples_of(run)),
            9 => self.iperf = Some(iperf_of(run)),
            10 => self.buffers = Some(BufferSeries::from_run(run)),
            11 => self.connections = Some(ConnectionsSeries::from_run(run)),
            _ => return true,
        }
        self.stage += 1;
        self.stage == Self::STAGES
    }

    /// How many parts are built.
    pub fn stage(&self) -> usize {
        self.stage
    }

    /// The model from its parts, building whatever [`step`](Self::step)
    /// has not.
    pub fn finish(mut self, run: &RunResult) -> Model {
        while !self.step(run) {}
        let built = "every part is built by now";
        let (samples, sample_records) = self.samples.expect(built);
        let (iperf_lines, iperf_interval_ns) = self.iperf.expect(built);
        let mut summary = self.summary.expect(built);
        correct_retransmissions(&mut summary, run, samples.last().map(|(_, r)| &r.info));
        Model {
            end_ns: end_ns(run),
            summary,
            path: self.path.expect(built),
            ladder: self.ladder.expect(built),
            window: self.window.expect(built),
            tsg: self.tsg.expect(built),
            throughput: self.throughput.expect(built),
            rtt: self.rtt.expect(built),
            buffers: self.buffers.expect(built),
            connections: self.connections.expect(built),
            steps: self.steps.expect(built),
            samples,
            iperf_lines,
            iperf_interval_ns,
            tcp_metrics: (run.tcp_metrics.log.iter())
                .map(|(t, line)| (t.0 as f64, line.clone()))
                .collect(),
            cache: run.tcp_metrics.after_close.clone(),
            settings: report::settings(&run.scenario),
            sample_records,
            run_scenario: run.scenario.clone(),
        }
    }
}

/// The run's summary as a widget reads it: `analysis::summarize`, with the
/// retransmissions counted right past the packets the trace stored (see
/// [`correct_retransmissions`]). What `Results::of_run` needs, without the
/// rest of a [`Model`].
pub fn summary_of(run: &RunResult) -> Summary {
    let mut summary = analysis::summarize(run);
    let last = (run.trace.summary_records().iter().rev())
        .filter(|r| r.flow == 0)
        .find_map(|r| match r.event {
            TraceEvent::Sample { info, .. } => Some(info),
            _ => None,
        });
    correct_retransmissions(&mut summary, run, last.as_ref());
    summary
}

/// When the packet records stopped early, the trace misses later
/// retransmissions: count from the socket's own total (`last`, flow 0's
/// last sample) instead.
fn correct_retransmissions(summary: &mut Summary, run: &RunResult, last: Option<&TcpInfo>) {
    if run.trace.skipped() > 0 {
        let total = last.map_or(0, |i| i.total_retrans);
        summary.retransmissions = summary.retransmissions.max(total);
    }
}

/// One sample of both sockets, as `ss` at the cursor reads it.
struct SsReading {
    info: TcpInfo,
    server_recv: RecvInfo,
    client_recv: RecvInfo,
    client_send: SendInfo,
}

/// Flow 0's samples, for `ss` at the cursor, and every flow's sample
/// records, for the CSV.
type Samples = (Vec<(f64, SsReading)>, Vec<TraceRecord>);

fn samples_of(run: &RunResult) -> Samples {
    let records: Vec<TraceRecord> = run
        .trace
        .summary_records()
        .iter()
        .filter(|r| matches!(r.event, TraceEvent::Sample { .. }))
        .cloned()
        .collect();
    let flow0 = records
        .iter()
        .filter(|r| r.flow == 0)
        .filter_map(|r| match r.event {
            TraceEvent::Sample {
                info,
                client,
                client_send,
                server_recv,
                ..
            } => Some((
                r.time.0 as f64,
                SsReading {
                    info,
                    server_recv,
                    client_recv: client,
                    client_send,
                },
            )),
            _ => None,
        })
        .collect();
    (flow0, records)
}

/// The iperf3-style report in about ten lines on whole samples, and its
/// interval.
fn iperf_of(run: &RunResult) -> (Vec<String>, f64) {
    let sample = run.scenario.sample_interval.0.max(1);
    let interval = ((end_ns(run) as u64 / 10).div_ceil(sample)).max(1) * sample;
    let iperf = report::iperf(run, sim_core::time::SimDuration(interval));
    (iperf.lines().map(str::to_string).collect(), interval as f64)
}

fn end_ns(run: &RunResult) -> f64 {
    run.outcome.at().0 as f64
}
