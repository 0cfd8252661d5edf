//! Step lines: a series held from one value to the next, cut at the time
//! cursor into a coloured past and a faint future, as every chart draws
//! its windows, buffers and estimates (`chart_frame` re-exports these).

use super::chart_frame::{Chart, DrawResult, Frame, draw_dashed, draw_paths};
use super::log_scale;
use crate::series::bins::Column;
use plotters::prelude::*;
use sim_core::units::Within;

/// A step function (each value held until the next) as polylines through
/// `cols`, starting from `held` at `x_start` and held to `x_end`. NaN values
/// break the line; values above `clip` leave through the top of the chart.
pub fn step_paths(
    cols: &[Column],
    x_start: f64,
    held: f64,
    x_end: f64,
    clip: f64,
) -> Vec<Vec<(f64, f64)>> {
    let mut paths = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    let ok = |v: f64| v.is_finite() && v <= clip;
    let push = |cur: &mut Vec<(f64, f64)>, p: (f64, f64)| {
        if cur.last() != Some(&p) {
            cur.push(p);
        }
    };
    let mut held = held;
    if ok(held) {
        push(&mut cur, (x_start, held));
    }
    for c in cols {
        let b = &c.bin;
        let x = b.t;
        if ok(held) {
            push(&mut cur, (x, held));
        } else if held.is_finite() && b.has_values() {
            // Coming back into view from above the chart.
            push(&mut cur, (x, clip));
        }
        if b.has_values() {
            push(&mut cur, (x, b.lo.min(clip)));
            push(&mut cur, (x, b.hi.min(clip)));
        }
        if ok(b.last) {
            push(&mut cur, (x, b.last));
        } else if cur.len() > 1 {
            paths.push(std::mem::take(&mut cur));
        } else {
            cur.clear();
        }
        held = b.last;
    }
    if ok(held) {
        let x = x_end.max(cur.last().map_or(x_end, |p| p.0));
        push(&mut cur, (x, held));
    }
    if cur.len() > 1 {
        paths.push(cur);
    }
    paths
}

/// A binned step line split at the cursor: its past (to `cursor_ns`, from
/// the first value) and its faint future (from the cursor, starting at the
/// value held there, to `x_end`), as [`step_paths`] draws them.
pub fn step_split(
    binned: &crate::series::bins::Binned,
    col_ns: f64,
    cursor_ns: f64,
    x_end: f64,
    clip: f64,
) -> [Vec<Vec<(f64, f64)>>; 2] {
    let x_cursor = cursor_ns.within(0.0, x_end);
    let held = binned.last_before(cursor_ns);
    let cols = |past| binned.columns(col_ns, cursor_ns, past);
    [
        step_paths(&cols(true), 0.0, f64::NAN, x_cursor, clip),
        step_paths(&cols(false), x_cursor, held, x_end, clip),
    ]
}

/// Step lines `(series, colour, width, dashed)` split at the cursor: draws
/// every line's faint future (under every line's coloured past) and
/// returns the pasts, for the caller to draw over whatever else it puts in
/// between. On a log₂ axis (`log`) the values are mapped onto it.
#[allow(clippy::too_many_arguments)]
pub fn step_lines<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    f: &Frame,
    lines: &[(&crate::series::bins::Binned, RGBColor, f64, bool)],
    col_ns: f64,
    cursor_ns: f64,
    x_end: f64,
    clip: f64,
    log: bool,
) -> Result<Vec<Line>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut pasts = Vec::new();
    for &(binned, colour, w, dashed) in lines {
        let [past, future] = step_split(binned, col_ns, cursor_ns, x_end, clip);
        let on_axis = |mut paths: Vec<Vec<(f64, f64)>>| {
            if log {
                paths
                    .iter_mut()
                    .flatten()
                    .for_each(|p| p.1 = log_scale::axis(p.1));
            }
            paths
        };
        draw_line(chart, f, (on_axis(future), f.faint(w), dashed))?;
        pasts.push((on_axis(past), f.line(colour, w), dashed));
    }
    Ok(pasts)
}

/// Polylines with their style, dashed or not.
pub type Line = (Vec<Vec<(f64, f64)>>, ShapeStyle, bool);

/// Draws one [`Line`].
pub fn draw_line<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    f: &Frame,
    (paths, style, dashed): Line,
) -> DrawResult<DB> {
    if dashed {
        draw_dashed(chart, f, paths, style)
    } else {
        draw_paths(chart, paths, style)
    }
}
