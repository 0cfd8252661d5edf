//! `cargo xtask test`: every test, in the order a failure is cheapest to find.
//!
//! 1. `cargo test --workspace`: sim-core's packet-level, property and unit
//!    tests, the widget spec, the widgets' native tests, and the preprocessor,
//!    including a real `mdbook build` that must reject bad directives.
//! 2. Build the site exactly as `cargo xtask build` does.
//! 3. Browser tests (`node --test tests/`) with playwright-core driving
//!    Debian's Chromium against the built book on a local static server.

use crate::build;
use crate::sh::{self, Result};
use crate::tools::{self, CHROMIUM, Need};

pub fn run() -> Result {
    tools::ensure(Need::Everything)?;
    let mut cargo = sh::cmd("cargo");
    cargo.args(["test", "--workspace", "--locked"]);
    sh::run(cargo)?;
    build::all()?;
    let mut node = sh::cmd("node");
    node.args(["--test", "--test-concurrency=1", "tests/"])
        .env("BOOK_DIR", sh::root().join("book"))
        .env("CHROMIUM", CHROMIUM);
    sh::run(node)?;
    println!("\nxtask: all tests passed");
    Ok(())
}
