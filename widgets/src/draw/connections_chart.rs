//! The connections of a run, one row each, first at the top
//! (`series::connections`): on a shared axis of time since each opened, a
//! bar as long as the connection took, and over it the server's cwnd
//! (solid) and ssthresh (dashed), scaled alike in every row so that rows
//! compare. A label names each row's time and the ssthresh it opened with.
//!
//! The time cursor is the run's: a row the cursor has not reached is
//! faint (hidden in predict mode), the row it is in is coloured up to it.

use super::chart_frame::{self as frame, Frame, Key, YAxis};
use super::time_axis::TimeAxis;
use crate::palette::{Palette, series};
use crate::series::connections::{ConnectionsSeries, Row};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const CWND_W: f64 = 2.0;
const SSTHRESH_W: f64 = 1.5;
/// Of a row's height: the bar at its foot, the lines above it.
const BAR: f64 = 0.16;
const LINES: f64 = 0.5;

/// The end of the rows' time axis (time from each connection's open) for
/// `data` alone: the longest connection. Compare mode gives both runs the
/// longer of the two, so a row on one side reads against the other's.
pub fn x_top(data: &ConnectionsSeries) -> f64 {
    data.longest_ns * 1.02
}

/// Draws every row as of `cursor_ns` (run time), on a time axis to `x_top`
/// (NaN: this run's own). Costs O(changes).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &ConnectionsSeries,
    cursor_ns: f64,
    x_top: f64,
    pal: &Palette,
    scale: f64,
) -> super::Drawn<DB, TimeAxis> {
    let f = Frame::new(root, pal, scale);
    let n = data.rows.len().max(1) as f64;
    let no_labels = |_: &f64| String::new();
    let entries = [
        ("cwnd", Key::Line(f.line(series(0), CWND_W))),
        ("ssthresh", Key::Dashed(f.line(series(5), SSTHRESH_W))),
        ("time to last byte", Key::Bar(series(1).mix(0.35).filled())),
    ];
    let mut chart = frame::chart(
        root,
        &f,
        frame::shared_or(x_top, || self::x_top(data)),
        YAxis {
            desc: "connection, each from its open",
            max: n,
            fmt: &no_labels,
        },
        &entries,
    )?;
    let seg_max = data.max_segments * 1.05;
    for (k, row) in data.rows.iter().enumerate() {
        // Row k spans [n-k-1, n-k) on the y axis.
        let base = n - k as f64 - 1.0;
        let y_of = |segments: f64| base + BAR + 0.04 + LINES * (segments / seg_max).min(1.0);
        let until = cursor_ns - row.opened_ns;
        let end = row
            .finished_ns
            .map_or(until, |e| e - row.opened_ns)
            .min(until);
        if end < 0.0 && f.pal.hide_future {
            continue;
        }
        let done = row.duration_ns().is_some_and(|d| d <= until);
        // The bar: as far as the cursor has come, solid once finished.
        if end > 0.0 {
            let fill = if done {
                series(1).mix(0.35)
            } else {
                series(1).mix(0.15)
            };
            chart.draw_series(std::iter::once(Rectangle::new(
                [(0.0, base + 0.04), (end, base + BAR)],
                fill.filled(),
            )))?;
        }
        let future = !f.pal.hide_future;
        for (value, colour, w, dashed) in [
            (Value::Cwnd, series(0), CWND_W, false),
            (Value::Ssthresh, series(5), SSTHRESH_W, true),
        ] {
            let full = steps(row, value, row.duration_ns().unwrap_or(until.max(0.0)));
            let [past, rest] = split(&full, until);
            let map = |p: Vec<(f64, f64)>| p.into_iter().map(|(x, y)| (x, y_of(y))).collect();
            if future && !rest.is_empty() {
                line(&mut chart, &f, map(rest), f.faint(w), dashed)?;
            }
            if !past.is_empty() {
                line(&mut chart, &f, map(past), f.line(colour, w), dashed)?;
            }
        }
        label(root, &chart, &f, (k, row), base + 1.0, (until, done))?;
    }
    frame::finish(root, &chart).map(|axis| TimeAxis {
        relative: true,
        ..axis
    })
}

#[derive(Clone, Copy)]
enum Value {
    Cwnd,
    Ssthresh,
}

/// `row`'s value as a step line to `end_ns` (NaN where ssthresh is infinite).
fn steps(row: &Row, value: Value, end_ns: f64) -> Vec<(f64, f64)> {
    let v = |p: &crate::series::connections::RowPoint| match value {
        Value::Cwnd => p.cwnd as f64,
        Value::Ssthresh => p.ssthresh.map_or(f64::NAN, |s| s as f64),
    };
    let mut out: Vec<(f64, f64)> = Vec::new();
    for p in &row.points {
        if let Some(&(_, held)) = out.last() {
            out.push((p.dt_ns, held));
        }
        out.push((p.dt_ns, v(p)));
    }
    if let Some(&(_, held)) = out.last() {
        out.push((end_ns.max(0.0), held));
    }
    out
}

/// The part of `points` up to `t` (the last point cut at `t`) and the rest.
fn split(points: &[(f64, f64)], t: f64) -> [Vec<(f64, f64)>; 2] {
    let k = points.partition_point(|p| p.0 <= t);
    let mut past = points[..k].to_vec();
    let mut rest = points[k..].to_vec();
    if let (Some(&(_, held)), Some(_)) = (past.last(), rest.first()) {
        past.push((t, held));
        rest.insert(0, (t, held));
    }
    [past, rest]
}

/// Draws `points` broken at NaN values, solid or dashed.
fn line<'a, DB: DrawingBackend + 'a>(
    chart: &mut frame::Chart<'a, DB>,
    f: &Frame,
    points: Vec<(f64, f64)>,
    style: ShapeStyle,
    dashed: bool,
) -> frame::DrawResult<DB> {
    let paths: Vec<Vec<(f64, f64)>> = points
        .split(|p| !p.1.is_finite())
        .filter(|p| p.len() > 1)
        .map(<[_]>::to_vec)
        .collect();
    frame::draw_line(chart, f, (paths, style, dashed))
}

/// "#2 · 3061 ms · opened with ssthresh 13" at the top left of row `k`,
/// as far as the cursor (`until`, ns since the row opened) has come: the
/// time once it finished (`done`), the ssthresh once it opened.
fn label<'a, DB: DrawingBackend + 'a>(
    root: &DrawingArea<DB, Shift>,
    chart: &frame::Chart<'a, DB>,
    f: &Frame,
    (k, row): (usize, &Row),
    top: f64,
    (until, done): (f64, bool),
) -> frame::DrawResult<DB> {
    let x_max = chart.x_range().end;
    let (unit_desc, per) = frame::time_unit(x_max);
    let time = match (done, row.duration_ns()) {
        (true, Some(d)) => {
            // "time (ms)" → "ms": the axis' unit.
            let unit = unit_desc.trim_start_matches("time (").trim_end_matches(')');
            format!(" · {} {unit}", frame::fmt_axis(d / per, x_max / per))
        }
        _ => String::new(),
    };
    let cached = match (until >= 0.0, k, row.initial_ssthresh()) {
        (false, _, _) | (true, 0, None) => String::new(),
        (true, _, Some(s)) => format!(" · opened with ssthresh {s}"),
        (true, _, None) => " · no cached ssthresh".into(),
    };
    let (x, y) = chart.backend_coord(&(0.0, top));
    root.draw(&Text::new(
        format!("#{}{time}{cached}", k + 1),
        (x + f.px(4.0), y + f.px(2.0)),
        f.font().pos(Pos::new(HPos::Left, VPos::Top)),
    ))?;
    Ok(())
}
