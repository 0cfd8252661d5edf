//! Project automation, run as `cargo xtask <command>` (the mdBook /
//! Comprehensive Rust convention; the alias lives in `.cargo/config.toml`).
//!
//! - `serve`  installs what is missing, builds the widgets and the book, serves
//!   it at http://127.0.0.1:3000 and rebuilds on change.
//! - `test`   installs what is missing and runs every test: Rust unit and
//!   integration tests, the preprocessor against a real `mdbook`, and browser
//!   tests on the built book.
//! - `build`  writes the static site to `book/` and prints what the slow-start
//!   page transfers.
//! - `bench`  builds the site, then in headless Chromium times the simulator
//!   (wasm), the widgets' frame rate while playing, time to interactive, and
//!   the JS and wasm bytes each page loads.
//! - `install-tools` installs the pinned tools only.

mod bench;
mod build;
mod serve;
mod sh;
mod test;
mod tools;

use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <serve|test|build|bench|install-tools>

  serve           install what is missing, build, serve at http://127.0.0.1:3000, rebuild on change
  test            install what is missing, run every test (Rust, preprocessor, browser)
  build           build the static site into book/ and report its JS+wasm size
  bench           build, then measure in headless Chromium: simulator speed (wasm),
                  frame rate while playing, time to interactive, JS+wasm bytes
  install-tools   install the pinned tools only";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("serve") => serve::run(),
        Some("test") => test::run(),
        Some("build") => build::run().map(|_| ()),
        Some("bench") => bench::run(),
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
