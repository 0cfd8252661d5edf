//! What each view draws, extracted once per run from the simulator's trace.
//!
//! A run is simulated once per change of a control; every animation frame then
//! only reads these series at the time cursor. Each module turns a
//! `sim_core::sim::RunResult` into the data of one view (and its data table),
//! so the views can never disagree with each other or with the trace.

pub mod annotations;
pub mod bins;
pub mod buffers;
pub mod cc_state;
pub mod connections;
pub mod ladder;
pub mod path;
pub mod rtt;
pub mod table;
pub mod throughput;
pub mod tsg;
pub mod window;

use sim_core::sim::{Outcome, RunResult};

/// End of a run (ns): when it completed or was stopped.
pub fn run_end_ns(run: &RunResult) -> f64 {
    match run.outcome {
        Outcome::Completed { at }
        | Outcome::TimeLimit { at }
        | Outcome::EventLimit { at }
        | Outcome::MemoryLimit { at }
        | Outcome::Aborted { at, .. } => at.0 as f64,
    }
}

/// Where a long run's packet records end (ns), if the trace's packet budget
/// ran out before the run did: the views that count packets stop there, or
/// go on from the periodic samples.
pub fn packet_records_end_ns(run: &RunResult) -> Option<u64> {
    (run.trace.skipped() > 0).then(|| {
        run.trace
            .flow_records(0)
            .filter(|r| r.is_packet_level())
            .last()
            .map_or(0, |r| r.time.0)
    })
}
