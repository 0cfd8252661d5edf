//! Project automation, run as `cargo xtask <command>` (the mdBook /
//! Comprehensive Rust convention; the alias lives in `.cargo/config.toml`).
//!
//! - `serve`  installs what is missing, builds the widgets and the book, serves
//!   it at http://127.0.0.1:3000 and rebuilds on change.
//! - `test`   installs what is missing and runs every test: Rust unit and
//!   integration tests, the preprocessor against a real `mdbook`, and browser
//!   tests on the built book.
//! - `build`  writes the static site to `book/`, prints what the slow-start
//!   page transfers, and fails when the widget bundle is over its ceiling
//!   or links a banned function (`bundle`).
//! - `check-output` checks the built site: nothing loaded from another host,
//!   every page under 1 MB, every widget's embed files present.
//! - `bench`  builds the site, then in headless Chromium times the simulator
//!   (wasm), the widgets' frame rate while playing, time to interactive, and
//!   the JS and wasm bytes each page loads.
//! - `install-tools` installs the pinned tools only.

mod banned;
mod bench;
mod build;
mod bundle;
mod check_output;
mod embed;
mod imports;
mod serve;
mod sh;
mod test;
mod tools;
mod wasm;
mod wikis;

use std::process::ExitCode;

const USAGE: &str =
    "usage: cargo xtask <serve|test|build|check-output [DIR]|bench|check-wikis|install-tools>

  serve           install what is missing, build, serve at http://127.0.0.1:3000, rebuild on change
  test            install what is missing, run every test (Rust, preprocessor, browser)
  build           build the static site into book/ and report its JS+wasm size; fails when
                  the widget bundle is over its ceiling or links a banned function
  build-site      the same without checking the tools first (what `test` runs)
  check-output    check the built site (book/, or DIR): no loads from other hosts,
                  pages under 1 MB, every widget's embed files present
  bench           build, then measure in headless Chromium: simulator speed (wasm),
                  frame rate while playing, time to interactive, JS+wasm bytes
  check-wikis     build small MkDocs-Material and VitePress sites (pinned) that embed
                  the widgets, run tests/wikis.test.mjs on them (BOOK_DIR: skip the build)
  install-tools   install the pinned tools only";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve::run(),
        Some("test") => test::run(),
        Some("build") => build::run().map(|_| ()),
        // `build` without the tool check: what `test` runs beside the tests,
        // once it has installed the tools itself.
        Some("build-site") => build::all().map(|_| ()),
        Some("check-output") => {
            let dir = args
                .get(1)
                .map_or_else(|| sh::root().join("book"), Into::into);
            check_output::run(&dir)
        }
        Some("bench") => bench::run(),
        Some("check-wikis") => wikis::run(),
        Some("install-tools") => tools::ensure(tools::Need::Everything),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("\nxtask: error: {e}");
            ExitCode::FAILURE
        }
    }
}
