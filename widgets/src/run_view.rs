//! One simulator run, reduced to what the views draw: packet transits, the
//! cwnd steps and the summary readouts. Built once per parameter change; every
//! frame then only reads it at the current time cursor.

use sim_core::analysis::{self, Flight, Summary, Transit};
use sim_core::config::{PathConfig, Scenario};
use sim_core::segment::Side;
use sim_core::sim::{self, Outcome};
use sim_core::time::SimDuration;

/// The slow-start widget's inputs, in base units (ns, bit/s, bytes, segments).
#[derive(Clone, Debug, PartialEq)]
pub struct SlowStartParams {
    pub rtt_ns: f64,
    pub bandwidth_bps: f64,
    pub mss: f64,
    pub initcwnd: f64,
    pub size: f64,
    pub rwnd: f64,
    pub rcvbuf: f64,
}

impl SlowStartParams {
    /// Reads the values of a widget's sliders, in `spec.params` order.
    pub fn from_values(spec: &widget_spec::WidgetSpec, values: &[f64]) -> Self {
        let v = |name: &str| {
            let i = spec.params.iter().position(|p| p.name == name);
            i.and_then(|i| values.get(i).copied())
                .unwrap_or_else(|| spec.param(name).map_or(0.0, |p| p.default))
        };
        SlowStartParams {
            rtt_ns: v("rtt"),
            bandwidth_bps: v("bandwidth"),
            mss: v("mss"),
            initcwnd: v("initcwnd"),
            size: v("size"),
            rwnd: v("rwnd"),
            rcvbuf: v("rcvbuf"),
        }
    }

    pub fn scenario(&self) -> Scenario {
        let mut s = Scenario {
            path: PathConfig::symmetric(self.bandwidth_bps as u64, SimDuration(self.rtt_ns as u64)),
            ..Scenario::default()
        };
        s.server.sender.mss = self.mss as u32;
        s.client.sender.mss = self.mss as u32;
        s.server.sender.initcwnd = self.initcwnd as u32;
        s.app.response = vec![self.size as u64];
        s.client.receiver.rcvbuf = self.rcvbuf as u64;
        s.client.receiver.rcvbuf_max = s.client.receiver.rcvbuf_max.max(self.rcvbuf as u64);
        // The slider sets the SYN window a client offers, but as in Linux its
        // buffer may allow less (`tcp_select_initial_window`).
        s.client.receiver.syn_window =
            (self.rwnd as u32).min(s.client.receiver.initial_window(self.mss as u32));
        s
    }
}

/// The hash of the whole trace of a run (see `sim_core::trace::Trace::hash`):
/// equal natively and in the browser, or the simulator is not deterministic.
pub fn trace_hash(p: &SlowStartParams) -> Option<u64> {
    sim::run(&p.scenario()).ok().map(|run| run.trace.hash())
}

pub struct RunView {
    pub transits: Vec<Transit>,
    /// (time ns, cwnd segments), starting at zero.
    pub cwnd: Vec<(f64, u32)>,
    pub summary: Summary,
    /// Simulated time the animation runs to (ns).
    pub end_ns: f64,
    /// Bottleneck rate, bit/s: how long a packet occupies the wire.
    pub rate_bps: f64,
    pub error: Option<String>,
}

impl RunView {
    pub fn simulate(p: &SlowStartParams) -> RunView {
        let scenario = p.scenario();
        match sim::run(&scenario) {
            Ok(run) => {
                let summary = analysis::summarize(&run);
                let end = match run.outcome {
                    Outcome::Completed { at }
                    | Outcome::TimeLimit { at }
                    | Outcome::EventLimit { at }
                    | Outcome::Aborted { at } => at,
                };
                RunView {
                    transits: analysis::transits(&run.trace),
                    cwnd: analysis::cwnd_series(
                        &run.trace,
                        Side::Server,
                        scenario.server.sender.initcwnd,
                    )
                    .into_iter()
                    .map(|(t, c)| (t.0 as f64, c))
                    .collect(),
                    summary,
                    end_ns: end.0 as f64,
                    rate_bps: scenario.path.rate_bps as f64,
                    error: None,
                }
            }
            Err(e) => RunView {
                transits: Vec::new(),
                cwnd: vec![(0.0, p.initcwnd as u32)],
                summary: Summary {
                    completion: None,
                    flights: Vec::new(),
                    data_segments: 0,
                    retransmissions: 0,
                    drops: 0,
                    final_cwnd: None,
                    timed_out: true,
                    transfers: Vec::new(),
                },
                end_ns: 0.0,
                rate_bps: p.bandwidth_bps,
                error: Some(e.to_string()),
            },
        }
    }

    /// cwnd in effect at time `t_ns`.
    pub fn cwnd_at(&self, t_ns: f64) -> u32 {
        let i = self.cwnd.partition_point(|(t, _)| *t <= t_ns);
        self.cwnd[i.saturating_sub(1)].1
    }

    /// Flights whose first segment has been sent by `t_ns`.
    pub fn flights_by(&self, t_ns: f64) -> Vec<&Flight> {
        self.summary
            .flights
            .iter()
            .filter(|f| f.start.0 as f64 <= t_ns)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed() -> SlowStartParams {
        SlowStartParams {
            // Seed 004's defaults with a receive buffer large enough never to limit.
            rcvbuf: 16.0 * 1024.0 * 1024.0,
            ..SlowStartParams::from_values(widget_spec::widget("slow-start").unwrap(), &[])
        }
    }

    #[test]
    fn the_view_holds_the_same_flights_as_the_simulator() {
        let v = RunView::simulate(&seed());
        let bytes: Vec<u64> = v.summary.flights.iter().map(|f| f.bytes).collect();
        assert_eq!(
            bytes,
            vec![14_480, 28_960, 57_920, 115_840, 231_680, 75_408]
        );
        assert!(v.error.is_none());
    }

    #[test]
    fn cwnd_at_reads_the_step_in_effect() {
        let v = RunView::simulate(&seed());
        assert_eq!(v.cwnd_at(0.0), 10);
        assert_eq!(v.cwnd_at(v.end_ns), v.cwnd.last().unwrap().1);
    }
}
