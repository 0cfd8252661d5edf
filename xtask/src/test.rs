//! `cargo xtask test`: every test, in the order a failure is cheapest to find.
//!
//! 1. Gates: `cargo fmt --check`; clippy on every target of the workspace
//!    and on the wasm build of the widgets, warnings denied, which enforces
//!    `sim-core/clippy.toml`'s determinism bans (no wall clock, no
//!    randomly ordered maps); rustdoc with warnings denied (broken links).
//! 2. `cargo test --workspace`: sim-core's packet-level, property and unit
//!    tests, the widget spec, the widgets' native tests, and the preprocessor,
//!    including a real `mdbook build` that must reject bad directives.
//! 3. Build the site exactly as `cargo xtask build` does, which fails when
//!    the widget bundle is over its ceiling or links a banned function.
//! 4. Check the built output (`cargo xtask check-output`): no loads from
//!    other hosts, pages under 1 MB, every widget's embed files. Cheaper than
//!    a browser and names every offending file.
//! 5. Browser tests (`node --test tests/`) with playwright-core driving
//!    Debian's Chromium against the built book on a local static server.
//! 6. The widgets inside real wiki engines (`cargo xtask check-wikis`): small
//!    MkDocs-Material and VitePress sites from pinned packages, about a
//!    minute with their installs.
//!
//! No test asserts a wall-clock time tighter than "the page froze" (a
//! task of a second or more): a shared machine may be busy. Speed targets
//! are `cargo xtask bench`'s, which reports them.
//!
//! Each step's time is printed at the end, so a slow step shows.

use crate::build;
use crate::check_output;
use crate::sh::{self, Result};
use crate::tools::{self, CHROMIUM, Need};
use std::time::Instant;

pub fn run() -> Result {
    let mut steps = Steps::default();
    steps.time("install what is missing", || {
        tools::ensure(Need::Everything)
    })?;
    steps.time("gates: fmt, clippy, rustdoc", gates)?;
    steps.time("cargo test --workspace", || {
        let mut cargo = sh::cmd("cargo");
        cargo.args(["test", "--workspace", "--locked"]);
        sh::run(cargo)
    })?;
    steps.time("site build", || build::all().map(|_| ()))?;
    steps.time("check-output", || {
        check_output::run(&sh::root().join("book"))
    })?;
    steps.time("browser tests", browser_tests)?;
    steps.time("wiki engines", || {
        crate::wikis::check(&sh::root().join("book"))
    })?;
    steps.print();
    println!("\nxtask: all tests passed");
    Ok(())
}

/// The cheap checks that need no test to run: formatting, lints (native and
/// wasm), documentation links.
pub fn gates() -> Result {
    let mut fmt = sh::cmd("cargo");
    fmt.args(["fmt", "--all", "--check"]);
    sh::run(fmt)?;
    let mut clippy = sh::cmd("cargo");
    clippy.args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--locked",
        "--",
        "-D",
        "warnings",
    ]);
    sh::run(clippy)?;
    // The widgets as the browser gets them: code behind
    // `cfg(target_arch = "wasm32")` is linted only here.
    let mut wasm = sh::cmd("cargo");
    wasm.args([
        "clippy",
        "--locked",
        "--target",
        "wasm32-unknown-unknown",
        "--package",
        "tcp-widgets",
        "--package",
        "widget-catalogue",
        "--package",
        "sim-core",
        "--no-default-features",
        "--lib",
        "--",
        "-D",
        "warnings",
    ]);
    sh::run(wasm)?;
    // Private items too: this is an application, read by its developers.
    // (A public item's link to a private one is then fine.)
    let mut doc = sh::cmd("cargo");
    doc.args([
        "doc",
        "--workspace",
        "--no-deps",
        "--document-private-items",
        "--locked",
    ])
    .env(
        "RUSTDOCFLAGS",
        "-D warnings -A rustdoc::private_intra_doc_links",
    );
    sh::run(doc)
}

fn browser_tests() -> Result {
    let mut node = sh::cmd("node");
    node.args(["--test", "--test-concurrency=2", "tests/"])
        .env("BOOK_DIR", sh::root().join("book"))
        .env("CHROMIUM", CHROMIUM);
    sh::run(node)
}

/// Each step's wall-clock time, for the summary (never asserted).
#[derive(Default)]
struct Steps(Vec<(&'static str, f64)>);

impl Steps {
    fn time(&mut self, name: &'static str, step: impl FnOnce() -> Result) -> Result {
        let started = Instant::now();
        let result = step();
        self.0.push((name, started.elapsed().as_secs_f64()));
        if result.is_err() {
            self.print();
        }
        result
    }

    fn print(&self) {
        println!("\nxtask test: time per step");
        for (name, secs) in &self.0 {
            println!("  {name:<28} {secs:>7.0} s");
        }
        let total: f64 = self.0.iter().map(|(_, s)| s).sum();
        println!("  {:<28} {total:>7.0} s", "total");
    }
}
