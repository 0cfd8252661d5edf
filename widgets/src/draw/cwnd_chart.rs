//! cwnd (segments) over time, with the time cursor.

use crate::palette::{Palette, series};
use crate::run_view::RunView;
use plotters::coord::Shift;
use plotters::prelude::*;

pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Draws the whole cwnd curve faintly and the part up to `cursor_ns` in
/// colour, with the cursor. `scale` is the device-pixel ratio: fonts and
/// lines grow with it so HiDPI screens stay sharp.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    run: &RunView,
    cursor_ns: f64,
    pal: &Palette,
    scale: f64,
) -> DrawResult<DB> {
    root.fill(&pal.bg)?;
    let px = |v: f64| (v * scale).round() as i32;
    let width_css = root.dim_in_pixel().0 as f64 / scale;
    let x_max = (run.end_ns / 1e6).max(0.001) * 1.02;
    let y_max = run.cwnd.iter().map(|(_, c)| *c).max().unwrap_or(10).max(4) as f64 * 1.15;
    let font = ("sans-serif", 12.0 * scale).into_font().color(&pal.fg);
    let x_fmt = |v: &f64| {
        if x_max < 5.0 {
            format!("{v:.1}")
        } else {
            format!("{v:.0}")
        }
    };
    let y_fmt = |v: &f64| format!("{v:.0}");
    let mut chart = ChartBuilder::on(root)
        .margin(px(8.0))
        .margin_right(px(14.0))
        .x_label_area_size(px(36.0))
        .y_label_area_size(px(56.0))
        .build_cartesian_2d(0f64..x_max, 0f64..y_max)?;
    chart
        .configure_mesh()
        .x_desc("time (ms)")
        .y_desc("cwnd (segments)")
        .axis_style(pal.muted)
        .max_light_lines(0)
        .bold_line_style(pal.grid)
        .label_style(font.clone())
        .axis_desc_style(font)
        .x_labels(if width_css < 480.0 { 4 } else { 8 })
        .y_labels(5)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .draw()?;
    let line = |c: RGBColor, w: f64| c.stroke_width(px(w).max(1) as u32);
    chart.draw_series(LineSeries::new(
        steps(run, f64::INFINITY),
        line(pal.grid, 2.0),
    ))?;
    chart.draw_series(LineSeries::new(steps(run, cursor_ns), line(series(0), 2.0)))?;
    let cursor_ms = (cursor_ns / 1e6).min(x_max);
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(cursor_ms, 0.0), (cursor_ms, y_max)],
        line(pal.accent, 1.0),
    )))?;
    root.present()
}

/// cwnd as a step function (each value held until the next change), in
/// (ms, segments), up to `until_ns`.
fn steps(run: &RunView, until_ns: f64) -> Vec<(f64, f64)> {
    let until = until_ns.min(run.end_ns);
    let mut points = Vec::with_capacity(run.cwnd.len() * 2 + 1);
    let mut last = None;
    for &(t, c) in &run.cwnd {
        if t > until {
            break;
        }
        if let Some(prev) = last {
            points.push((t / 1e6, prev as f64));
        }
        points.push((t / 1e6, c as f64));
        last = Some(c);
    }
    if let Some(c) = last {
        points.push((until / 1e6, c as f64));
    }
    points
}
