//! Helpers the drawing tests share.

use plotters::prelude::*;

/// Draws with `f` on a `w`×`h` SVG and returns the SVG.
#[allow(dead_code)]
pub fn svg<T>(
    w: u32,
    h: u32,
    f: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> T,
) -> String {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (w, h)).into_drawing_area();
        f(&root);
    }
    out
}

/// A scenario file of the repository's `scenarios/`, parsed.
#[allow(dead_code)]
pub fn scenario(file: &str) -> sim_core::config::Scenario {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    sim_core::scenario_file::parse(&text).unwrap().1
}

/// A scenario file of `scenarios/`, run.
#[allow(dead_code)]
pub fn run_file(file: &str) -> sim_core::sim::RunResult {
    sim_core::sim::run(&scenario(file)).unwrap()
}
