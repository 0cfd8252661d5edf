//! What each view draws, extracted once per run from the simulator's trace.
//!
//! A run is simulated once per change of a control; every animation frame then
//! only reads these series at the time cursor. Each module turns a
//! `sim_core::sim::RunResult` into the data of one view (and its data table),
//! so the views can never disagree with each other or with the trace.

pub mod ladder;
pub mod path;
pub mod rtt;
pub mod throughput;
pub mod tsg;
pub mod window;
