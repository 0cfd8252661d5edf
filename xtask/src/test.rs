//! `cargo xtask test`: every test, in the order a failure is cheapest to find.
//!
//! 1. `cargo test --workspace`: sim-core's packet-level, property and unit
//!    tests, the widget spec, the widgets' native tests, and the preprocessor,
//!    including a real `mdbook build` that must reject bad directives.
//! 2. Build the site exactly as `cargo xtask build` does.
//! 3. Check the built output (`cargo xtask check-output`): no loads from
//!    other hosts, pages under 1 MB, every widget's embed files. Cheaper than
//!    a browser and names every offending file.
//! 4. Browser tests (`node --test tests/`) with playwright-core driving
//!    Debian's Chromium against the built book on a local static server.
//! 5. The widgets inside real wiki engines (`cargo xtask check-wikis`): small
//!    MkDocs-Material and VitePress sites from pinned packages, about a
//!    minute with their installs.

use crate::build;
use crate::check_output;
use crate::sh::{self, Result};
use crate::tools::{self, CHROMIUM, Need};

pub fn run() -> Result {
    tools::ensure(Need::Everything)?;
    let mut cargo = sh::cmd("cargo");
    cargo.args(["test", "--workspace", "--locked"]);
    sh::run(cargo)?;
    build::all()?;
    check_output::run(&sh::root().join("book"))?;
    let mut node = sh::cmd("node");
    node.args(["--test", "--test-concurrency=1", "tests/"])
        .env("BOOK_DIR", sh::root().join("book"))
        .env("CHROMIUM", CHROMIUM);
    sh::run(node)?;
    crate::wikis::check(&sh::root().join("book"))?;
    println!("\nxtask: all tests passed");
    Ok(())
}
