//! Simulator speed on the book's heavy cases: `cargo bench -p sim-core`.
//!
//! Throughput is reported in simulator events per second (criterion's
//! "elements"), alongside the wall time per run; each case also prints the
//! memory its trace holds at the end. An event is one the model
//! acts on (a segment arriving, a timer expiring, an application step, a
//! sample); queue entries that only turn out to be superseded timers are not
//! counted. (c) and (d) raise the socket
//! buffers to the path's 26 MB BDP, as the LFN case does, so that congestion
//! control rather than a buffer decides the rate. Figures depend on the
//! machine: quote them with the machine named.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sim_core::benchmarks;
use sim_core::scenario_file;
use sim_core::sim;
use std::hint::black_box;

fn scenario(text: &str) -> sim_core::config::Scenario {
    scenario_file::parse(text)
        .expect("benchmark scenario is valid")
        .1
}

/// (c) storing no per-packet records: what the model itself costs, apart
/// from recording ~730,000 packet records (47 MB in 64-byte slots) of trace.
fn without_packet_records(mut s: sim_core::config::Scenario) -> sim_core::config::Scenario {
    s.trace_packet_budget = 0;
    s
}

fn cases() -> Vec<(&'static str, sim_core::config::Scenario)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let seed_004 = std::fs::read_to_string(root.join("seed-004-512k-7ms.toml")).unwrap();
    let sndbuf = std::fs::read_to_string(root.join("seed-000-so-sndbuf-16k.toml")).unwrap();
    vec![
        ("a_512k_slow_start_7ms", scenario(&seed_004)),
        ("b_22mb_so_sndbuf_16k_100mbit_20ms", scenario(&sndbuf)),
        // Built in code so the browser benchmark runs the very same case
        // (`cargo xtask bench`); `sim_core::benchmarks` tests it against the file form.
        (
            "c_30s_cubic_1gbit_210ms_loss_1e-4",
            benchmarks::by_name("c").unwrap(),
        ),
        (
            "c_30s_cubic_without_packet_records",
            without_packet_records(benchmarks::by_name("c").unwrap()),
        ),
        (
            "d_30s_bbr_1gbit_210ms_loss_1e-4",
            benchmarks::by_name("d").unwrap(),
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("scenarios");
    group.sample_size(10);
    for (name, s) in cases() {
        let run = sim::run(&s).unwrap();
        let events = run.events;
        println!(
            "{name}: {events} events, {} records, trace {:.1} MB",
            run.trace.len(),
            run.trace.heap_bytes() as f64 / 1e6
        );
        group.throughput(Throughput::Elements(events));
        group.bench_function(name, |b| {
            b.iter(|| black_box(sim::run(black_box(&s)).unwrap().events))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
