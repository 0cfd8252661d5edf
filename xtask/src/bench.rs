//! `cargo xtask bench`: benchmarks that need the built site and a browser,
//! run in headless Chromium on a local static server.
//!
//! - `sim-core/examples/bench_native.rs`: the simulator natively on (c) and
//!   (d), as `cargo bench` builds it, the yardstick for the wasm figures.
//! - `tests/bench/simulator.mjs`: the simulator compiled to WebAssembly, timed
//!   on benchmark scenarios (c) and (d), the same cases `cargo bench -p
//!   sim-core` times natively (`sim_core::benchmarks`).
//! - `tests/bench/widgets.mjs`: the widgets as a reader meets them: frames per
//!   second while one animates (slow start at 7 ms, and a 1 Gbit/s × 210 ms
//!   path), next to an idle page's; time to interactive of each page with
//!   widgets; the JS and wasm bytes (raw and gzip) each such page loads and the
//!   whole book's widget files. Each figure is printed with its target and
//!   PASS/MISS; a miss is reported, a console error or a widget that never
//!   becomes interactive fails the bench.
//! - `tests/bench/responsiveness.mjs`: the longest main-thread task while a
//!   slider is dragged on the heaviest preset, and the time from a slider
//!   change to the first frame of the new run on every preset.
//! - `tests/bench/summary.mjs`: the speed issue's table (#36), every figure
//!   with its target and PASS/MISS, the simulator's also as a ratio to native.
//!
//! Figures are printed and written to `target/bench/browser.json` (a section
//! per measurement); they depend on the machine and on what else it is
//! running, so quote them with it named, or as a ratio to the native figures.

use crate::build;
use crate::sh::{self, Result};
use crate::tools::{self, CHROMIUM, Need};

const SCRIPTS: &[&str] = &[
    "tests/bench/simulator.mjs",
    "tests/bench/widgets.mjs",
    "tests/bench/responsiveness.mjs",
];

pub fn run() -> Result {
    tools::ensure(Need::Everything)?;
    build::all()?;
    let out = sh::root().join("target/bench/browser.json");
    // Each step merges its sections into the file: start from none, so no
    // figure survives from an earlier run (the native step writes it anew).
    if out.exists() {
        std::fs::remove_file(&out).map_err(|e| format!("removing {}: {e}", out.display()))?;
    }
    native(&out)?;
    for script in SCRIPTS {
        let mut node = sh::cmd("node");
        node.arg(script)
            .env("BOOK_DIR", sh::root().join("book"))
            .env("CHROMIUM", CHROMIUM)
            .env("BENCH_OUT", &out);
        sh::run(node)?;
    }
    // The table, every figure with its target, from the file.
    let mut node = sh::cmd("node");
    node.arg("tests/bench/summary.mjs").env("BENCH_OUT", &out);
    sh::run(node)?;
    println!("\nxtask: figures written to {}", out.display());
    Ok(())
}

/// The simulator natively on scenarios (c) and (d), built as `cargo bench`
/// builds it, written to `out` as the section "native": the wasm figures
/// are read as a ratio to these, measured minutes apart on one machine.
fn native(out: &std::path::Path) -> Result {
    let mut c = sh::cmd("cargo");
    c.args([
        "run",
        "--quiet",
        "--locked",
        "--profile",
        "bench",
        "--package",
        "sim-core",
    ])
    .args(["--example", "bench_native"]);
    println!("$ {c:?}");
    let o = c.output().map_err(|e| format!("cargo run: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "the native bench failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    let lines: Vec<&str> = std::str::from_utf8(&o.stdout)
        .map_err(|e| e.to_string())?
        .lines()
        .collect();
    println!("\nsimulator natively (median of 5 runs):");
    for l in &lines {
        println!("  {l}");
    }
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let json = format!("{{\n  \"native\": [{}]\n}}\n", lines.join(", "));
    std::fs::write(out, json).map_err(|e| format!("writing {}: {e}", out.display()))
}
