//! Throughput per interval (Mbit/s) as bars, with the bottleneck rate as a
//! dashed line when it is in range and the time cursor. Intervals complete
//! by the cursor are filled in colour, later ones faintly. About 50 bars:
//! the cost never depends on the run. With several flows the bars are flow
//! 0's, each other flow is a thin line and all flows together a thick one,
//! drawn up to the cursor.

use super::chart_frame::{self as frame, Frame, Key, YAxis, shared_or};
use crate::palette::{Palette, series};
use crate::series::throughput::ThroughputSeries;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The link rate is drawn when it does not flatten the bars.
fn shows_link(data: &ThroughputSeries) -> bool {
    let link = data.link_bps / 1e6;
    link > 0.0 && link <= (data.max_mbps() * 1.5).max(f64::MIN_POSITIVE)
}

/// The top of the y axis for `data` alone; compare mode gives both runs
/// the higher of their two.
pub fn y_top(data: &ThroughputSeries) -> f64 {
    let peak = data.max_mbps();
    let top = if shows_link(data) {
        peak.max(data.link_bps / 1e6)
    } else {
        peak
    };
    (top * 1.25).max(0.01)
}

/// Draws the bars, the bottleneck rate and the cursor, on a time axis to
/// `end_ns` and a y axis to `y_top` (NaN: the data's own).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &ThroughputSeries,
    cursor_ns: f64,
    end_ns: f64,
    y_top: f64,
    pal: &Palette,
    scale: f64,
) -> super::Drawn<DB, super::time_axis::TimeAxis> {
    let f = Frame::new(root, pal, scale);
    let show_link = shows_link(data);
    let y_max = shared_or(y_top, || self::y_top(data));
    let fmt = |v: &f64| frame::fmt_axis(*v, y_max);
    let iv = data.interval_ns as f64;
    let bar_style = series(0).filled();
    let link_style = f.line(f.pal.fg, 1.5);
    let secs = iv / 1e9;
    let what = if data.flows.is_empty() {
        "delivered"
    } else {
        "flow 0"
    };
    let label = if secs >= 1.0 {
        format!("{what} per {} s", crate::units::shortest(secs))
    } else {
        format!("{what} per {} ms", crate::units::shortest(iv / 1e6))
    };
    let mut entries = vec![(label.as_str(), Key::Bar(bar_style))];
    if show_link {
        entries.push(("bottleneck rate", Key::Dashed(link_style)));
    }
    let flow_style = f.line(series(1), 1.0);
    let sum_style = f.line(series(2), 2.5);
    if !data.flows.is_empty() {
        entries.push(("other flows", Key::Line(flow_style)));
        entries.push(("all flows", Key::Line(sum_style)));
    }
    let mut chart = frame::chart(
        root,
        &f,
        frame::x_max(end_ns, data.end_ns),
        YAxis {
            desc: "throughput (Mbit/s)",
            max: y_max,
            fmt: &fmt,
        },
        &entries,
    )?;
    let inset = iv * 0.08;
    chart.draw_series(
        (0..data.bytes.len())
            .filter(|&i| data.bytes[i] > 0)
            .map(|i| {
                let (x0, x1) = (data.start_ns(i), data.start_ns(i + 1));
                let style = if x1 <= cursor_ns {
                    bar_style
                } else {
                    f.pal.grid.filled()
                };
                Rectangle::new([(x0 + inset, 0.0), (x1 - inset, data.mbps(i))], style)
            }),
    )?;
    if show_link {
        let x_end = chart.x_range().end;
        frame::draw_dashed(
            &mut chart,
            &f,
            vec![vec![
                (0.0, data.link_bps / 1e6),
                (x_end, data.link_bps / 1e6),
            ]],
            link_style,
        )?;
    }
    // Each interval's rate at its middle, for the intervals the cursor has passed.
    let done = (0..data.bytes.len())
        .take_while(|&i| data.start_ns(i + 1) <= cursor_ns)
        .count();
    let line = |bytes: &dyn Fn(usize) -> u64| -> Vec<(f64, f64)> {
        (0..done)
            .map(|i| (data.start_ns(i) + iv / 2.0, data.rate(bytes(i)).min(y_max)))
            .collect()
    };
    for flow in data.flows.iter().skip(1) {
        frame::draw_paths(&mut chart, vec![line(&|i| flow[i])], flow_style)?;
    }
    if !data.flows.is_empty() {
        frame::draw_paths(&mut chart, vec![line(&|i| data.sum(i))], sum_style)?;
    }
    frame::cursor(&mut chart, &f, cursor_ns)?;
    frame::finish(root, &chart)
}
