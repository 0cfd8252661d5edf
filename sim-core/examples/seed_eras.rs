//! Every seed scenario under the kernel era its file names and again under
//! `today`: the figure issue 16 asks for, per seed case, under both. A
//! benchmark-style program, not a test: it prints a Markdown table and
//! asserts nothing.
//!
//! ```text
//! cargo run --profile tools -p sim-core --example seed_eras
//! cargo run --profile tools -p sim-core --example seed_eras -- --only seed-004   # files whose name contains it
//! ```
//!
//! For each `scenarios/seed-*.toml`, in name order:
//! - "as written": the file run as `tcpsim run FILE` runs it. "file's kernels"
//!   is what its hosts' `kernel` keys name, read back from the built scenario;
//!   `default` is a host that names none (the model's unnamed host).
//! - "on today": both hosts set to `today` (`tcpsim run FILE --kernel today`),
//!   the file's own settings still applied on top of that era's defaults.
//! - The figure comes from what `tcpsim`'s JSON summary reports, through the
//!   same `analysis` functions: `completion_ms` when the run completes; for
//!   files that repeat a transfer (seed 000's request loops and tcp_metrics
//!   connections, seed 002's reads every 10 s, seed 004's pushes around an
//!   idle gap) the mean of `transfers[].duration_ms`, the per-transfer time
//!   the sources quote; for runs that do not complete, the goodput (the
//!   flows' `bitrate_mbps` summed: bytes the client application read over the
//!   run, so 0 for a client that never reads) and the `outcome` (time-limit,
//!   or the limit a host gave up on).
//! - "change" is today's figure against the file's when they are alike (both
//!   times, means over as many transfers, or goodputs with the same outcome);
//!   `-` otherwise; `0` when identical, `+0.0` a change under 0.05 %.
//!
//! Runs are deterministic (each file's own seed), so the table is the same
//! every time. All 62 runs take about 7 s on one core (the 30 s LFN runs of
//! seed 003 most of it), after a first build of about 2 minutes.

use sim_core::analysis::{flow_totals, summarize};
use sim_core::config::{Kernel, Scenario};
use sim_core::scenario_file;
use sim_core::sim::{self, Outcome, RunResult};
use std::path::PathBuf;

/// What a run came to, as the JSON summary shows it: a value and what it is
/// (`ms`, `ms (mean of 5)`, `Mbit/s (time-limit)`); only figures of the same
/// kind are compared.
struct Figure {
    value: f64,
    kind: String,
}

fn figure(r: &RunResult) -> Figure {
    let summary = summarize(r);
    let (value, kind) = match (summary.completion, summary.transfers.len()) {
        // Repeats: the completion time adds up the transfers and the gaps
        // between them, and the sources quote a transfer's time.
        (Some(_), n) if n > 1 => {
            let durations = summary.transfers.iter().map(|t| t.duration());
            let total: f64 = durations.map(|d| d.as_millis_f64()).sum();
            (total / n as f64, format!("ms (mean of {n})"))
        }
        (Some(t), _) => (t.as_millis_f64(), "ms".into()),
        (None, _) => {
            let outcome = match r.outcome {
                Outcome::Aborted { reason, .. } => {
                    format!("gave up, {}", reason.sysctl().unwrap_or(reason.name()))
                }
                Outcome::EventLimit { .. } => "event-limit".into(),
                Outcome::MemoryLimit { .. } => "memory-limit".into(),
                _ => "time-limit".into(),
            };
            let mbit = flow_totals(r).iter().map(|f| f.bitrate / 1e6).sum();
            (mbit, format!("Mbit/s ({outcome})"))
        }
    };
    Figure { value, kind }
}

impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:.1} {}", self.value, self.kind)
    }
}

/// Today's figure against the file's, in percent, when they are alike.
fn change(a: &Figure, b: &Figure) -> String {
    if a.kind != b.kind || (a.value == 0.0 && b.value != 0.0) {
        "-".into()
    } else if a.value == b.value {
        "0".into()
    } else {
        format!("{:+.1}", (b.value / a.value - 1.0) * 100.0)
    }
}

/// `default`, `both 3.10`, or `client 5.5 / server 4.18`.
fn kernels(s: &Scenario) -> String {
    let name = |k: Option<Kernel>| k.map_or("default", Kernel::name);
    match (s.client.kernel, s.server.kernel) {
        (None, None) => "default".into(),
        (c, k) if c == k => format!("both {}", name(c)),
        (c, k) => format!("client {} / server {}", name(c), name(k)),
    }
}

fn run(s: &Scenario) -> Figure {
    figure(&sim::run(s).expect("a seed scenario runs"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let only = match args.as_slice() {
        [] => String::new(),
        [flag, pattern] if flag == "--only" => pattern.clone(),
        _ => panic!("usage: seed_eras [--only PATTERN]"),
    };
    // The scenarios directory, wherever cargo was started from.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the scenarios directory")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("seed-") && name.ends_with(".toml") && name.contains(&only)
        })
        .collect();
    files.sort();

    println!("| file | file's kernels | figure as written | figure on today | change (%) |");
    println!("| --- | --- | ---: | ---: | ---: |");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a readable scenario file");
        let mut file = scenario_file::read(&text).expect("a well-formed scenario file");
        let written = file.to_scenario().expect("a valid scenario");
        let as_written = run(&written);
        // Both hosts on today, the file's settings applied on top, as
        // `tcpsim run --kernel today` does.
        file.set_kernel(Kernel::Today);
        let on_today = run(&file.to_scenario().expect("valid under today"));
        let stem = path.file_stem().unwrap().to_string_lossy();
        eprintln!("  {stem}: {as_written} / {on_today}");
        println!(
            "| {stem} | {} | {as_written} | {on_today} | {} |",
            kernels(&written),
            change(&as_written, &on_today)
        );
    }
}
