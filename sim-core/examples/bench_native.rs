//! The simulator natively on the browser bench's scenarios (c) and (d)
//! (`sim_core::benchmarks`), for `cargo xtask bench`: it prints one JSON
//! line per scenario (median wall time of `RUNS`, events, trace hash), so
//! that the wasm figures can be read as a ratio to the native ones measured
//! on the same machine at the same time. `cargo bench -p sim-core` is the
//! fuller, statistical measure of the same cases.

use std::time::Instant;

const RUNS: usize = 5;

// Wall time measures the benchmark from outside; the simulation itself
// never reads a clock (the determinism ban in sim-core/clippy.toml).
#[allow(clippy::disallowed_methods)]
fn main() {
    for name in ["c", "d"] {
        let scenario = sim_core::benchmarks::by_name(name).expect("a benchmark scenario");
        let mut times = Vec::with_capacity(RUNS);
        let mut events = 0;
        let mut hash = 0;
        // One run to warm up (page faults of the first allocation), then RUNS.
        for i in 0..=RUNS {
            let t0 = Instant::now();
            let run = sim_core::sim::run(&scenario).expect("the benchmark runs");
            let ms = t0.elapsed().as_secs_f64() * 1e3;
            events = run.events;
            hash = run.trace.hash();
            if i > 0 {
                times.push(ms);
            }
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{{\"scenario\":\"{name}\",\"median_ms\":{:.1},\"events\":{events},\"trace_hash\":\"{hash:016x}\"}}",
            times[RUNS / 2]
        );
    }
}
