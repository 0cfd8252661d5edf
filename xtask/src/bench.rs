//! `cargo xtask bench`: benchmarks that need the built site and a browser.
//!
//! Today: the simulator compiled to WebAssembly, timed in headless Chromium on
//! benchmark scenarios (c) and (d), the same cases `cargo bench -p sim-core`
//! times natively (`sim_core::benchmarks`). Figures are printed and written to
//! `target/bench/browser.json`; they depend on the machine, so quote them with
//! it named, or as a ratio to the native figures.

use crate::build;
use crate::sh::{self, Result};
use crate::tools::{self, CHROMIUM, Need};

pub fn run() -> Result {
    tools::ensure(Need::Everything)?;
    build::all()?;
    let out = sh::root().join("target/bench/browser.json");
    let mut node = sh::cmd("node");
    node.arg("tests/bench/simulator.mjs")
        .env("BOOK_DIR", sh::root().join("book"))
        .env("CHROMIUM", CHROMIUM)
        .env("BENCH_OUT", &out);
    sh::run(node)?;
    println!("\nxtask: figures written to {}", out.display());
    Ok(())
}
