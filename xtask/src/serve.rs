//! `cargo xtask serve`: the generated inputs (`build::inputs`), then
//! `mdbook serve`, which builds the book once, serves it, and rebuilds it
//! when `src/`, `theme/` or its `extra-watch-dirs` change (book.toml: the
//! preprocessor's and the catalogue's sources and `scenarios/`; the
//! preprocessor recompiles itself when mdBook runs it). Beside it we rebuild
//! what mdBook cannot: the presets' generated values and the widget bundle,
//! when the simulator, the widgets, the catalogue, a scenario, the embed
//! sources, the widget stylesheet or a manifest change. The new bundle lands
//! in `src/embed/`, which in turn makes mdBook rebuild and reload the page.
//!
//! The build is the same as `cargo xtask build`'s (same profile, flags and
//! environment), so after a `build`, `test` or `bench` nothing recompiles,
//! and the preprocessor finds the runs it simulated then
//! (`mdbook_widgets::teach::run_cache`).

use crate::build;
use crate::sh::{self, Result};
use crate::tools::{self, Need};
use std::path::Path;
use std::time::{Duration, SystemTime};

/// Inputs of the widget bundle that mdBook does not watch.
const WATCHED: &[&str] = &[
    "sim-core/src",
    "sim-core/Cargo.toml",
    "widgets/src",
    "widgets/Cargo.toml",
    "widgets/catalogue/src",
    "widgets/catalogue/Cargo.toml",
    "widgets/embed",
    "scenarios",
    "theme/widgets.css",
    "Cargo.toml",
    "Cargo.lock",
];

pub fn run() -> Result {
    tools::ensure(Need::Build)?;
    // The generated inputs only: `mdbook serve` builds the book itself
    // before it serves, and a second build here would double the wait.
    build::preprocessor_compiling_beside(build::inputs)?;
    let mut c = sh::cmd("mdbook");
    c.args([
        "serve",
        "--hostname",
        "127.0.0.1",
        "--port",
        "3000",
        "--dest-dir",
        "book",
    ]);
    println!("\nxtask: serving the book at http://127.0.0.1:3000 (Ctrl-C stops)");
    let mut server = c
        .spawn()
        .map_err(|e| format!("could not start mdbook serve: {e}"))?;
    let mut last = newest_change();
    // Once the first build is served, the bundle's ceiling, as a warning.
    let mut checked = false;
    loop {
        if !checked && std::net::TcpStream::connect(("127.0.0.1", 3000)).is_ok() {
            checked = true;
            if let Err(e) = crate::bundle::check(&sh::root().join("book")) {
                eprintln!("xtask: warning: {e}\n(`cargo xtask build` and `test` fail on this)");
            }
        }
        std::thread::sleep(Duration::from_millis(800));
        if let Some(status) = server.try_wait().map_err(|e| e.to_string())? {
            return Err(format!("mdbook serve exited ({status})"));
        }
        let now = newest_change();
        if now > last {
            println!("xtask: widget inputs changed, rebuilding the bundle");
            if let Err(e) = build::preset_values().and_then(|()| build::widgets()) {
                eprintln!("xtask: widget build failed, serving the previous bundle: {e}");
            }
            // What the rebuild wrote (the generated preset values) is not a
            // new change.
            last = newest_change();
        }
    }
}

/// The newest modification time under the watched paths.
fn newest_change() -> SystemTime {
    fn walk(p: &Path, newest: &mut SystemTime) {
        if let Ok(m) = p.metadata() {
            if let Ok(t) = m.modified() {
                *newest = (*newest).max(t);
            }
            if m.is_dir() {
                for e in std::fs::read_dir(p).into_iter().flatten().flatten() {
                    walk(&e.path(), newest);
                }
            }
        }
    }
    let mut newest = SystemTime::UNIX_EPOCH;
    for w in WATCHED {
        walk(&sh::root().join(w), &mut newest);
    }
    newest
}
