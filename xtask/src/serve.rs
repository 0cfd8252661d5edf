//! `cargo xtask serve`: build, then `mdbook serve` (which rebuilds the book when
//! `src/` or `theme/` change) while we rebuild the widget bundle when the Rust
//! sources of the widgets or the simulator change. The new bundle lands in
//! `src/generated/`, which in turn makes mdBook rebuild and reload the page.

use crate::build;
use crate::sh::{self, Result};
use crate::tools::{self, Need};
use std::path::Path;
use std::time::{Duration, SystemTime};

const WATCHED: &[&str] = &[
    "sim-core/src",
    "widgets/src",
    "widgets/catalogue/src",
    "widgets/Cargo.toml",
    "widgets/embed",
    "theme/widgets.css",
];

pub fn run() -> Result {
    tools::ensure(Need::Build)?;
    build::all()?;
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
    loop {
        std::thread::sleep(Duration::from_millis(800));
        if let Some(status) = server.try_wait().map_err(|e| e.to_string())? {
            return Err(format!("mdbook serve exited ({status})"));
        }
        let now = newest_change();
        if now > last {
            last = now;
            println!("xtask: widget sources changed, rebuilding the bundle");
            if let Err(e) = build::widgets().and_then(|()| crate::embed::build()) {
                eprintln!("xtask: widget build failed, serving the previous bundle: {e}");
            }
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
