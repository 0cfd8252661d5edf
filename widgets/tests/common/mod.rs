//! Helpers the drawing tests share.

use plotters::prelude::*;

/// Draws with `f` on a `w`×`h` SVG and returns the SVG.
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
