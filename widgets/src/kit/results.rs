//! STAND-IN until the predict-mode branch lands its full version: the
//! figures a run reports, by name, for the teaching kit's goals.

use sim_core::analysis::summarize;
use sim_core::sim::RunResult;

pub const METRICS: &[(&str, &str, &str)] = &[
    ("completion_ms", "ms", "from the client's SYN to the client reading the last byte"),
    ("rtts", "RTT", "completion in round-trip times"),
    ("round_trips", "round trips", "flights of data"),
    ("first_flight_bytes", "bytes", "bytes in the first flight"),
    ("first_flight_segments", "segments", "segments in the first flight"),
    ("retransmits", "segments", "retransmitted segments"),
    ("goodput_mbps", "Mbit/s", "bytes the client read per second"),
    ("max_cwnd", "segments", "largest congestion window"),
    ("last_transfer_ms", "ms", "the last transfer's time"),
];

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    values: Vec<(&'static str, f64)>,
}

impl Results {
    pub fn of_run(run: &RunResult) -> Results {
        let s = summarize(run);
        let rtt = run.scenario.path.rtt().0 as f64 / 1e6;
        let mut v = Vec::new();
        if let Some(c) = s.completion {
            v.push(("completion_ms", c.0 as f64 / 1e6));
            v.push(("rtts", c.0 as f64 / 1e6 / rtt));
        }
        v.push(("round_trips", s.round_trips() as f64));
        if let Some(f) = s.flights.first() {
            v.push(("first_flight_bytes", f.bytes as f64));
            v.push(("first_flight_segments", f.segments as f64));
        }
        v.push(("retransmits", s.retransmissions as f64));
        if let Some(t) = s.transfers.last() {
            v.push(("last_transfer_ms", t.duration().0 as f64 / 1e6));
        }
        Results { values: v }
    }

    pub fn get(&self, name: &str) -> Option<f64> {
        self.values.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}
