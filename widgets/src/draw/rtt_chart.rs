//! The server's RTT samples (hollow circles, or a stroke over a pixel
//! column's range when many fall in it) and srtt (a thick step line), with
//! the time cursor. Where a long run's packet records end, a dashed line
//! says so: the samples stop there, srtt goes on from the periodic readings.

use super::chart_frame::{self as frame, Frame, Key, YAxis, shared_or};
use crate::palette::{Palette, series};
use crate::series::rtt::RttSeries;
use plotters::coord::Shift;
use plotters::prelude::*;

const SRTT_W: f64 = 2.5;
const SAMPLE_W: f64 = 1.5;
const MIN_RTT_W: f64 = 1.5;

/// The top of the y axis for `data` alone; compare mode gives both runs
/// the higher of their two.
pub fn y_top(data: &RttSeries) -> f64 {
    (data.max_ns * 1.15).max(1e6)
}

/// Draws samples and srtt up to `cursor_ns` in colour and the rest
/// faintly, on a time axis to `end_ns`. Costs O(canvas width).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &RttSeries,
    cursor_ns: f64,
    end_ns: f64,
    y_top: f64,
    pal: &Palette,
    scale: f64,
) -> super::Drawn<DB, super::time_axis::TimeAxis> {
    let f = Frame::new(root, pal, scale);
    let y_max = shared_or(y_top, || self::y_top(data));
    let fmt = |v: &f64| frame::fmt_axis(v / 1e6, y_max / 1e6);
    let sample_style = f.line(series(1), SAMPLE_W);
    let srtt_style = f.line(series(0), SRTT_W);
    // BBR's min_rtt filter (10 s window, `bbr_update_min_rtt`): dashed, as
    // the estimate it is; with max_bw it makes the BDP on the cwnd chart.
    let min_rtt_style = f.line(series(2), MIN_RTT_W);
    // Short names on a phone, where the long ones ran off the canvas.
    let (sample, srtt, min_rtt) = match f.narrow {
        true => ("sample", "srtt", "min_rtt"),
        false => ("RTT sample", "srtt (smoothed)", "BBR min_rtt"),
    };
    let mut entries = vec![
        (sample, Key::Circle(sample_style)),
        (srtt, Key::Line(srtt_style)),
    ];
    if !data.min_rtt.is_empty() {
        entries.push((min_rtt, Key::Dashed(min_rtt_style)));
    }
    let mut chart = frame::chart(
        root,
        &f,
        frame::x_max(end_ns, data.end_ns),
        YAxis {
            desc: "RTT (ms)",
            max: y_max,
            fmt: &fmt,
        },
        &entries,
    )?;
    let col = frame::column_ns(&chart, &f);
    let x_end = data.end_ns.min(chart.x_range().end);
    for past in [false, true] {
        let samples = data.sample_bins.columns(col, cursor_ns, past);
        let style = if past {
            sample_style
        } else {
            f.faint(SAMPLE_W)
        };
        frame::draw_scatter(&mut chart, &f, &samples, style, y_max)?;
    }
    // srtt is defined from the first sample on: no value is held before it.
    let [past, future] = frame::step_split(&data.srtt, col, cursor_ns, x_end, y_max);
    frame::draw_paths(&mut chart, future, f.faint(SRTT_W))?;
    frame::draw_paths(&mut chart, past, srtt_style)?;
    let [past, future] = frame::step_split(&data.min_rtt, col, cursor_ns, x_end, y_max);
    frame::draw_dashed(&mut chart, &f, future, f.faint(MIN_RTT_W))?;
    frame::draw_dashed(&mut chart, &f, past, min_rtt_style)?;
    if let Some(until) = data.samples_until_ns.filter(|&t| t < x_end) {
        samples_end(&mut chart, &f, until)?;
    }
    frame::cursor(&mut chart, &f, cursor_ns)?;
    frame::finish(root, &chart)
}

/// The line where the individual samples end, labelled at its foot: on its
/// right while there is room, else on its left.
fn samples_end<'a, DB: DrawingBackend + 'a>(
    chart: &mut frame::Chart<'a, DB>,
    f: &Frame,
    t_ns: f64,
) -> frame::DrawResult<DB> {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let y_max = chart.y_range().end;
    frame::draw_dashed(
        chart,
        f,
        vec![vec![(t_ns, 0.0), (t_ns, y_max)]],
        f.line(f.pal.grid, 1.0),
    )?;
    let label = match f.narrow {
        true => "samples end",
        false => "RTT samples stored until here; srtt after it from periodic readings",
    };
    let area = chart.plotting_area().strip_coord_spec();
    let base_x = area.get_base_pixel().0;
    let (w, h) = area.dim_in_pixel();
    let x = chart.backend_coord(&(t_ns, y_max)).0 - base_x;
    let (x, anchor) = match x > w as i32 / 2 {
        true => (x - f.px(3.0), HPos::Right),
        false => (x + f.px(3.0), HPos::Left),
    };
    // At the foot of the plot: the y axis starts at 0 and no RTT is below
    // the path's own, so the data leaves the bottom empty.
    area.draw(&Text::new(
        label,
        (x, h as i32 - f.px(3.0)),
        f.font().pos(Pos::new(anchor, VPos::Bottom)),
    ))?;
    Ok(())
}
