//! A run's figures by name, for the book's exercises and quizzes: the page
//! reads them off the widget's placeholder (`data-results`, as JSON) and
//! the build-time preprocessor computes them natively, so a condition such
//! as `round_trips <= 4` means the same on both.
//!
//! ```text
//!   {"completion_ms":49.704,"rtts":7.1,"round_trips":6,...}   missing figures left out
//! ```
//!
//! Every figure comes from the simulator's [`Summary`] (and the bytes the
//! client read, as the headline counts them), none is computed twice.

use sim_core::analysis::Summary;

/// Each figure's name, unit and meaning, in [`Results::values`]' order.
pub const METRICS: &[(&str, &str, &str)] = &[
    (
        "completion_ms",
        "ms",
        "from the client's SYN to the client reading the last byte",
    ),
    (
        "rtts",
        "RTT",
        "completion time in path round-trip propagation delays",
    ),
    ("round_trips", "round trips", "flights of data the server sent"),
    ("first_flight_bytes", "B", "bytes in the first flight"),
    ("first_flight_segments", "", "segments in the first flight"),
    ("retransmits", "", "segments the server sent again"),
    (
        "goodput_mbps",
        "Mbit/s",
        "bytes the client read over the completion time (or the run)",
    ),
    ("max_cwnd", "segments", "the server's largest congestion window"),
    (
        "last_transfer_ms",
        "ms",
        "duration of the connection's last transfer",
    ),
];

/// One run's figures (see [`METRICS`]); `None` where the run has none
/// (no completion, no flight).
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub completion_ms: Option<f64>,
    pub rtts: Option<f64>,
    pub round_trips: usize,
    pub first_flight_bytes: Option<u64>,
    pub first_flight_segments: Option<u32>,
    pub retransmits: u64,
    pub goodput_mbps: f64,
    pub max_cwnd: u32,
    pub last_transfer_ms: Option<f64>,
}

impl Results {
    /// The figures of a run from its summary, the path's round-trip
    /// propagation delay, the run's end and the bytes the client read.
    pub fn of(summary: &Summary, rtt_ns: f64, end_ns: f64, bytes_read: u64) -> Results {
        let done = summary.completion.map(|t| t.0 as f64);
        let first = summary.flights.first();
        Results {
            completion_ms: done.map(|d| d / 1e6),
            rtts: done.filter(|_| rtt_ns > 0.0).map(|d| d / rtt_ns),
            round_trips: summary.round_trips(),
            first_flight_bytes: first.map(|f| f.bytes),
            first_flight_segments: first.map(|f| f.segments),
            retransmits: summary.retransmissions,
            goodput_mbps: super::headline::goodput_bps(bytes_read, done.unwrap_or(end_ns)) / 1e6,
            max_cwnd: summary.max_cwnd,
            last_transfer_ms: (summary.transfers.last()).map(|t| t.duration().0 as f64 / 1e6),
        }
    }

    /// The figures of a widget's run, as its headline reads them.
    pub fn of_model(m: &super::model::Model) -> Results {
        let rtt = m.path.downlink.delay_ns + m.path.uplink.delay_ns;
        Results::of(
            &m.summary,
            rtt as f64,
            m.end_ns,
            m.throughput.total_bytes(),
        )
    }

    /// The figures of a finished run (natively: the preprocessor, tests),
    /// reduced as a widget reduces it.
    pub fn of_run(run: &sim_core::sim::RunResult) -> Results {
        Results::of_model(&super::model::Model::from_run(run))
    }

    /// The figures in [`METRICS`]' order.
    pub fn values(&self) -> [Option<f64>; 9] {
        [
            self.completion_ms,
            self.rtts,
            Some(self.round_trips as f64),
            self.first_flight_bytes.map(|b| b as f64),
            self.first_flight_segments.map(f64::from),
            Some(self.retransmits as f64),
            Some(self.goodput_mbps),
            Some(f64::from(self.max_cwnd)),
            self.last_transfer_ms,
        ]
    }

    /// The figure called `name` (see [`METRICS`]).
    pub fn get(&self, name: &str) -> Option<f64> {
        let i = METRICS.iter().position(|m| m.0 == name)?;
        self.values()[i]
    }

    /// `{"completion_ms":49.704,...}`: every figure there is, as a JSON
    /// number (written by hand: the wasm has no serde).
    pub fn to_json(&self) -> String {
        let fields: Vec<String> = (METRICS.iter().zip(self.values()))
            .filter_map(|((name, ..), v)| {
                let v = v.filter(|v| v.is_finite())?;
                Some(format!("\"{name}\":{v}"))
            })
            .collect();
        format!("{{{}}}", fields.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::analysis;

    fn seed_004() -> sim_core::sim::RunResult {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../scenarios/seed-004-512k-7ms.toml"
        ))
        .unwrap();
        let scenario = sim_core::scenario_file::parse(&text).unwrap().1;
        sim_core::sim::run(&scenario).unwrap()
    }

    #[test]
    fn the_figures_are_the_simulators_own() {
        let run = seed_004();
        let s = analysis::summarize(&run);
        let r = Results::of_run(&run);
        let done = s.completion.expect("seed 004 completes").0 as f64;
        assert_eq!(r.completion_ms, Some(done / 1e6));
        assert_eq!(r.rtts, Some(done / run.scenario.path.rtt().0 as f64));
        assert_eq!(r.round_trips, s.flights.len());
        assert_eq!(r.round_trips, 6, "512 KiB from initcwnd 10");
        assert_eq!(r.first_flight_segments, Some(s.flights[0].segments));
        assert_eq!(r.first_flight_segments, Some(10));
        assert_eq!(r.first_flight_bytes, Some(s.flights[0].bytes));
        assert_eq!(r.retransmits, s.retransmissions);
        // The largest cwnd is at least the last, and the trace's own maximum.
        let trace_max = analysis::cwnd_series(&run.trace, sim_core::segment::Side::Server, 10)
            .into_iter()
            .map(|(_, c)| c)
            .max()
            .unwrap();
        assert_eq!(r.max_cwnd, trace_max);
        assert!(r.max_cwnd >= s.final_cwnd.unwrap());
        let last = s.transfers.last().unwrap();
        assert_eq!(r.last_transfer_ms, Some(last.duration().0 as f64 / 1e6));
        // 512 KiB read over the completion time.
        let want = last.bytes as f64 * 8.0 / (done / 1e9) / 1e6;
        assert!((r.goodput_mbps - want).abs() < 1e-9 * want, "{r:?}");
    }

    #[test]
    fn figures_read_by_name_and_as_json() {
        let r = Results::of_run(&seed_004());
        assert_eq!(r.get("round_trips"), Some(6.0));
        assert_eq!(r.get("max_cwnd"), Some(r.max_cwnd as f64));
        assert_eq!(r.get("nonsense"), None);
        let json = r.to_json();
        assert!(json.starts_with("{\"completion_ms\":"), "{json}");
        assert!(json.contains(",\"round_trips\":6,"), "{json}");
        assert!(json.contains(",\"first_flight_segments\":10,"), "{json}");
        assert_eq!(json.matches(':').count(), METRICS.len(), "{json}");
        // A run that did not complete leaves out what it has not.
        let none = Results {
            completion_ms: None,
            rtts: None,
            last_transfer_ms: None,
            ..r
        };
        let json = none.to_json();
        assert!(!json.contains("completion_ms") && !json.contains("rtts"));
        assert!(json.starts_with("{\"round_trips\":6,"), "{json}");
    }
}
