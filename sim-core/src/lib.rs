//! # sim-core: a deterministic TCP simulator that follows Linux
//!
//! A discrete-event model of a TCP connection over a bottleneck link, written
//! so that every packet it sends can be checked against what Linux would do:
//! congestion control split as in `struct tcp_congestion_ops`, windows and
//! timers named after their kernel counterparts, time as integer nanoseconds.
//!
//! It has no web or OS dependencies, reads no clock and draws no OS
//! randomness, so the same scenario gives the same trace natively and in
//! WebAssembly. Everything a reader sees is derived from one [`trace::Trace`].
//!
//! ```
//! use sim_core::{config::Scenario, sim, analysis};
//! let run = sim::run(&Scenario::default()).unwrap();
//! let summary = analysis::summarize(&run);
//! assert_eq!(summary.flights[0].bytes, 10 * 1448); // initcwnd 10, MSS 1448
//! ```

pub mod analysis;
pub mod app;
pub mod benchmarks;
pub mod cc;
pub mod config;
pub mod decimal;
pub mod decimal_text;
pub mod event_queue;
pub mod link;
pub mod report;
pub mod rng;
#[cfg(feature = "scenario-file")]
pub mod scenario_file;
pub mod segment;
pub mod sim;
pub mod tcp;
pub mod time;
pub mod timer_wheel;
pub mod trace;
pub mod units;
pub mod writer;
