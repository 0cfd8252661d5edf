//! `cargo xtask test`: every test, in the order a failure is cheapest to find.
//!
//! 1. Gates: `cargo fmt --check`; clippy on every target of the workspace
//!    and on the wasm build of the widgets, warnings denied, which enforces
//!    `sim-core/clippy.toml`'s determinism bans (no wall clock, no
//!    randomly ordered maps); rustdoc with warnings denied (broken links).
//! 2. `cargo test --workspace`: sim-core's packet-level, property and unit
//!    tests, the widget spec, the widgets' native tests, and the preprocessor,
//!    including a real `mdbook build` that must reject bad directives.
//! 3. From before the gates on, in a second process, the site, built
//!    exactly as `cargo xtask build` does (which fails when the widget
//!    bundle is over its ceiling or links a banned function). Its wasm and
//!    the preprocessor build in target folders of their own, so nothing
//!    waits for another's lock; on two cores each fills the others'
//!    single-threaded stretches (fat LTO of the wasm, wasm-opt, linking,
//!    test binaries run one by one).
//! 4. Check the built output (`cargo xtask check-output`): no loads from
//!    other hosts, pages under 1 MB, every widget's embed files. Cheaper than
//!    a browser and names every offending file.
//! 5. Browser tests (`node --test tests/`) with playwright-core driving
//!    Debian's Chromium against the built book on a local static server.
//! 6. Beside the browser tests, in a second process, the widgets inside
//!    real wiki engines (`cargo xtask check-wikis`): small
//!    MkDocs-Material and VitePress sites from pinned packages, about a
//!    minute with their installs.
//!
//! No test asserts a wall-clock time tighter than "the page froze" (a
//! task of a second or more): a shared machine may be busy. Speed targets
//! are `cargo xtask bench`'s, which reports them.
//!
//! Each step's time is printed at the end, so a slow step shows.

use crate::check_output;
use crate::sh::{self, Result};
use crate::tools::{self, CHROMIUM, Need};
use std::time::Instant;

pub fn run() -> Result {
    let mut steps = Steps::default();
    steps.time("install what is missing", || {
        tools::ensure(Need::Everything)
    })?;
    // The site builds from here on, in a second process, while the gates
    // and `cargo test` run.
    let mut site = Beside::start("the site build", &["build-site"], "site-build.log")?;
    if let Err(e) = steps.time("gates: fmt, clippy, rustdoc", gates) {
        site.stop();
        return Err(e);
    }
    let tests = steps.time("cargo test --workspace", || {
        let mut cargo = sh::cmd("cargo");
        cargo.args(["test", "--workspace", "--locked"]);
        sh::run(cargo)
    });
    let built = steps.time("site build (its rest, after the tests)", || site.wait());
    tests?;
    built?;
    steps.time("check-output", || {
        check_output::run(&sh::root().join("book"))
    })?;
    // The wiki engines' check (installs, two site builds, a browser) runs
    // beside the browser tests: much of each is waiting.
    let mut wikis = Beside::start("the wiki engines", &["check-wikis"], "wikis.log")?;
    let browser = steps.time("browser tests", browser_tests);
    if browser.is_err() {
        wikis.stop();
    }
    browser?;
    steps.time("wiki engines (their rest, after the browser tests)", || {
        wikis.wait()
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

/// A step of `cargo xtask test` run beside others: this binary's
/// subcommand `args`, by a copy of it (`cargo test --workspace` rebuilds
/// xtask in place), in a child process whose output goes to
/// `target/test-times/<log>`, printed when it ends (interleaved with the
/// other steps' output, it would be unreadable). The site build runs so
/// beside the gates and `cargo test` (its wasm and its preprocessor build in
/// target folders of their own, so neither waits for the tests' lock), the
/// wiki engines beside the browser tests.
struct Beside {
    what: &'static str,
    child: std::process::Child,
    log: std::path::PathBuf,
    started: Instant,
}

impl Beside {
    fn start(what: &'static str, args: &[&str], log: &str) -> Result<Beside> {
        let times = sh::root().join("target/test-times");
        std::fs::create_dir_all(&times).map_err(|e| format!("{}: {e}", times.display()))?;
        let log_path = times.join(log);
        let out =
            std::fs::File::create(&log_path).map_err(|e| format!("{}: {e}", log_path.display()))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let exe = std::env::current_exe().map_err(|e| format!("xtask's own path: {e}"))?;
        let copy = times.join(format!("xtask-{}", args[0]));
        std::fs::copy(&exe, &copy).map_err(|e| format!("copying {}: {e}", exe.display()))?;
        let mut c = sh::cmd(copy.to_str().expect("a UTF-8 path"));
        c.args(args)
            .env("BOOK_DIR", sh::root().join("book"))
            .stdout(out)
            .stderr(err);
        println!(
            "$ cargo xtask {} > {} (beside the next steps)",
            args.join(" "),
            log_path.display()
        );
        let child = c
            .spawn()
            .map_err(|e| format!("could not start {what}: {e}"))?;
        Ok(Beside {
            what,
            child,
            log: log_path,
            started: Instant::now(),
        })
    }

    /// After a failed step: the result would not be looked at.
    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn wait(&mut self) -> Result {
        let status = self.child.wait().map_err(|e| e.to_string())?;
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        println!(
            "\n--- {} ({:.0} s from its start) ---\n{text}--- end of {} ---",
            self.what,
            self.started.elapsed().as_secs_f64(),
            self.what
        );
        if status.success() {
            Ok(())
        } else {
            Err(format!(
                "{} failed ({status}): see above, or {}",
                self.what,
                self.log.display()
            ))
        }
    }
}

/// Two test files at a time: each has its own browser and server, and
/// much of a test is waiting (for a frame, a run, a page), so two overlap
/// well on two cores (three were no faster on CI's two cores, and slowed
/// a chapter's load past its wait). The default TAP report goes to the terminal; a second
/// reporter (`tests/support/file-times.mjs`) sums each file's time.
fn browser_tests() -> Result {
    let times = sh::root().join("target/test-times");
    std::fs::create_dir_all(&times).map_err(|e| format!("{}: {e}", times.display()))?;
    let report = times.join("browser.txt");
    let mut node = sh::cmd("node");
    node.args(["--test", "--test-concurrency=2"])
        .args(["--test-reporter=tap", "--test-reporter-destination=stdout"])
        .arg("--test-reporter=./tests/support/file-times.mjs")
        .arg(format!("--test-reporter-destination={}", report.display()))
        .arg("tests/")
        .env("BOOK_DIR", sh::root().join("book"))
        .env("CHROMIUM", CHROMIUM);
    let result = sh::run(node);
    if let Ok(text) = std::fs::read_to_string(&report) {
        println!("\n{text}");
    }
    result
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
