//! cwnd (segments) over time, with the time cursor.

use crate::palette::{Palette, series};
use crate::run_view::RunView;
use plotters::coord::Shift;
use plotters::prelude::*;

pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Draws the whole cwnd curve up to `cursor_ns`, and the cursor. `scale` is the
/// device-pixel ratio: fonts and lines grow with it so HiDPI screens stay sharp.
pub fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, run: &RunView, cursor_ns: f64, pal: &Palette, scale: f64) -> DrawResult<DB> {
    root.fill(&pal.bg)?;
    let px = |v: f64| (v * scale).round() as i32;
    let x_max = (run.end_ns / 1e6).max(0.001) * 1.02;
    let y_max = run.cwnd.iter().map(|(_, c)| *c).max().unwrap_or(10).max(4) as f64 * 1.15;
    let font = ("sans-serif", 12.0 * scale).into_font().color(&pal.fg);
    let mut chart = ChartBuilder::on(root)
        .margin(px(8.0))
        .x_label_area_size(px(34.0))
        .y_label_area_size(px(44.0))
        .build_cartesian_2d(0f64..x_max, 0f64..y_max)?;
    chart
        .configure_mesh()
        .x_desc("time (ms)")
        .y_desc("cwnd (segments)")
        .axis_style(pal.muted)
        .light_line_style(pal.grid)
        .bold_line_style(pal.grid)
        .label_style(font.clone())
        .axis_desc_style(font)
        .x_labels(6)
        .y_labels(5)
        .draw()?;
    // cwnd is a step function: hold each value until the next change.
    let mut points = Vec::with_capacity(run.cwnd.len() * 2);
    let cursor_ms = cursor_ns / 1e6;
    let mut last = None;
    for &(t, c) in &run.cwnd {
        let t_ms = t / 1e6;
        if t_ms > cursor_ms {
            break;
        }
        if let Some(prev) = last {
            points.push((t_ms, prev as f64));
        }
        points.push((t_ms, c as f64));
        last = Some(c);
    }
    if let Some(c) = last {
        points.push((cursor_ms.min(x_max), c as f64));
    }
    chart.draw_series(LineSeries::new(points, series(0).stroke_width(px(2.0).max(1) as u32)))?;
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(cursor_ms, 0.0), (cursor_ms, y_max)],
        pal.accent.stroke_width(px(1.0).max(1) as u32),
    )))?;
    root.present()
}
