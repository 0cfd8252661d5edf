//! Installs the pinned tools the book needs, skipping what is already there at
//! the right version. Everything comes from package registries (crates.io,
//! npm, Debian); nothing downloads a prebuilt binary.

use crate::sh::{self, Result};
use std::fs;

pub const MDBOOK: &str = "0.5.4";
pub const MDBOOK_KATEX: &str = "0.10.0";
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// What a command needs.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd)]
pub enum Need {
    /// Everything to build and serve the book.
    Build,
    /// That, plus the browser and the test runner's packages.
    Everything,
}

pub fn ensure(need: Need) -> Result {
    let started = std::time::Instant::now();
    toolchain()?;
    cargo_tool("mdbook", "mdbook", MDBOOK, &["--version"])?;
    cargo_tool("mdbook-katex", "mdbook-katex", MDBOOK_KATEX, &["--version"])?;
    cargo_tool(
        "wasm-bindgen-cli",
        "wasm-bindgen",
        &wasm_bindgen_version()?,
        &["--version"],
    )?;
    npm_ci("xtask/npm")?;
    if need == Need::Everything {
        chromium()?;
        npm_ci("tests")?;
    }
    println!(
        "xtask: tools ready ({:.0} s)",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The compiler `rust-toolchain.toml` pins, with its clippy, rustfmt and
/// wasm target. rustup installs the toolchain itself when `cargo xtask`
/// first runs here; `rustup toolchain install` (no name: the file's) adds
/// a component or target the file lists and an older install lacks, and
/// returns at once when all are there.
fn toolchain() -> Result {
    let mut c = sh::cmd("rustup");
    c.args(["toolchain", "install"]);
    sh::run(c)
}

/// The wasm-bindgen version Cargo.lock pins: the CLI must match it exactly.
pub fn wasm_bindgen_version() -> Result<String> {
    let lock = fs::read_to_string(sh::root().join("Cargo.lock"))
        .map_err(|e| format!("reading Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\""
            && let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = \""))
        {
            return Ok(v.trim_end_matches('"').to_string());
        }
    }
    Err("Cargo.lock has no wasm-bindgen package".into())
}

/// `cargo install --locked CRATE --version V` unless `BIN --version` already prints V.
fn cargo_tool(krate: &str, bin: &str, version: &str, version_args: &[&str]) -> Result {
    if let Some(out) = sh::output(bin, version_args) {
        if out
            .split_whitespace()
            .any(|w| w.trim_start_matches('v') == version)
        {
            return Ok(());
        }
        println!("xtask: {bin} is `{out}`, want {version}: reinstalling");
    } else {
        println!(
            "xtask: {bin} {version} is missing: installing from crates.io (several minutes on 2 cores, once)"
        );
    }
    let mut c = sh::cmd("cargo");
    c.args(["install", "--locked", krate, "--version", version])
        // Only the binary we run: wasm-bindgen-cli's test runner and
        // wasm2es6js would add a web server and a minute of compiling.
        .args(["--bin", bin])
        // One target folder for every tool: the crates they share (serde,
        // clap, tokio, syn, …) compile once, not once per tool.
        .arg("--target-dir")
        .arg(sh::root().join("target/tool-build"));
    // The tools' speed hardly matters to the book's build; their compile
    // time is most of a fresh machine's set-up. Unoptimised, the three
    // compile in 138 s instead of 255 s at level 1 (idle 2-core machine,
    // crates already downloaded), and run about as fast on this book: `mdbook build` 3.6 s against 3.0 s
    // with the preprocessor's runs kept, wasm-bindgen 0.75 s against
    // 0.24 s, with byte-identical output.
    for (key, value) in INSTALL_PROFILE {
        c.env(key, value);
    }
    sh::run(c)
}

/// Cargo's `release` profile for `cargo install`, as environment variables
/// (they override the tools' own manifests).
const INSTALL_PROFILE: &[(&str, &str)] = &[
    ("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0"),
    ("CARGO_PROFILE_RELEASE_LTO", "false"),
    ("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16"),
    ("CARGO_PROFILE_RELEASE_DEBUG", "0"),
    ("CARGO_PROFILE_RELEASE_STRIP", "true"),
];

/// `npm ci` in `dir` (from the repository root) when its lockfile changed
/// since the last install.
pub fn npm_ci(dir: &str) -> Result {
    let root = sh::root().join(dir);
    let lock = root.join("package-lock.json");
    let stamp = root.join("node_modules/.package-lock.json");
    let fresh = match (fs::metadata(&lock), fs::metadata(&stamp)) {
        (Ok(l), Ok(s)) => s.modified().ok() >= l.modified().ok(),
        _ => false,
    };
    if fresh {
        return Ok(());
    }
    if sh::which("npm").is_none() {
        return Err(
            "npm is not installed: install Node.js (Debian: `apt-get install nodejs npm`)".into(),
        );
    }
    let mut c = sh::cmd("npm");
    c.args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(&root);
    sh::run(c)
}

/// Debian's chromium for the browser tests.
fn chromium() -> Result {
    if std::path::Path::new(CHROMIUM).exists() {
        return Ok(());
    }
    apt_install(&["chromium"], "Debian's chromium for the browser tests")
}

/// Installs Debian packages with apt when we are root; otherwise fails with
/// the exact command to run.
pub fn apt_install(packages: &[&str], why: &str) -> Result {
    let is_root = sh::output("id", &["-u"]).as_deref() == Some("0");
    if !is_root {
        return Err(format!(
            "{why} is missing; run:\n    sudo apt-get update && sudo apt-get install -y {}",
            packages.join(" ")
        ));
    }
    println!("xtask: installing {why} with apt");
    let mut update = sh::cmd("apt-get");
    update.args(["update", "-qq"]);
    sh::run(update)?;
    let mut install = sh::cmd("apt-get");
    install
        .args(["install", "-y", "-qq", "--no-install-recommends"])
        .args(packages)
        .env("DEBIAN_FRONTEND", "noninteractive");
    sh::run(install)
}
