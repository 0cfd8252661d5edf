//! CUBIC's curve over the cwnd chart, one per epoch after a loss
//! (`series::cc_state::CubicEpoch`): W_max dashed, the cubic
//! `W(t) = W_max + C·(t − K)³` (`bictcp_update`'s target) as a pale line
//! from the epoch's start to the next loss, and K marked where the curve
//! reaches W_max before that loss. cwnd follows the curve about one RTT
//! behind: the kernel aims each update one min RTT ahead (`t += delay_min`).

use super::chart_frame::{self as frame, Chart, DrawResult, Frame, Key};
use crate::palette::{mix, series};
use crate::series::cc_state::CubicEpoch;
use plotters::prelude::*;

const W: f64 = 1.5;

/// The legend's entries for the curve, when there is one to draw.
pub fn keys(f: &Frame, epochs: &[CubicEpoch]) -> Vec<(&'static str, Key)> {
    if epochs.is_empty() {
        return Vec::new();
    }
    vec![
        ("W_max", Key::Dashed(f.line(series(1), W))),
        ("cubic W(t)", Key::Line(f.line(curve_colour(f), W))),
    ]
}

fn curve_colour(f: &Frame) -> RGBColor {
    mix(series(1), f.pal.bg, 0.45)
}

/// Draws every epoch; `y_axis` maps segments onto the chart's y (log or
/// not), values above `y_max` leave the chart.
pub fn draw<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    f: &Frame,
    epochs: &[CubicEpoch],
    cursor_ns: f64,
    y_max: f64,
    y_axis: &dyn Fn(f64) -> f64,
) -> DrawResult<DB> {
    let col = frame::column_ns(chart, f);
    let x_end = chart.x_range().end;
    for e in epochs {
        // Drawn to the cursor only: a curve says where the window is headed,
        // which the faint future of the lines already shows.
        let end = e.end_ns.min(x_end);
        let (a, b) = (e.start_ns, end.min(cursor_ns));
        if b <= a {
            continue;
        }
        if e.w_max as f64 <= y_max {
            let y = y_axis(e.w_max as f64);
            frame::draw_dashed(chart, f, vec![vec![(a, y), (b, y)]], f.line(series(1), W))?;
        }
        // Two columns a step: smooth at any zoom, O(width) in all.
        let steps = ((b - a) / (2.0 * col)).ceil().max(1.0) as usize;
        let (mut paths, mut cur) = (Vec::new(), Vec::new());
        for i in 0..=steps {
            let t = a + (b - a) * i as f64 / steps as f64;
            let w = e.w(t);
            if w > 0.0 && w <= y_max {
                cur.push((t, y_axis(w)));
            } else {
                paths.push(std::mem::take(&mut cur));
            }
        }
        paths.push(cur);
        paths.retain(|p| p.len() > 1);
        frame::draw_paths(chart, paths, f.line(curve_colour(f), W))?;
        let k_ns = e.start_ns + e.k_s * 1e9;
        if k_ns < end && k_ns <= cursor_ns && e.origin as f64 <= y_max {
            // K: a tick across W_max, named above and right of it, clear of
            // the cwnd line (drawn as the lines and the band's names are).
            let y = y_axis(e.origin as f64);
            let d = chart.y_range().end * 0.05;
            let tick = vec![vec![(k_ns, y - d), (k_ns, y + d)]];
            frame::draw_paths(chart, tick, f.line(series(1), W))?;
            let area = chart.plotting_area().strip_coord_spec();
            let (bx, by) = area.get_base_pixel();
            let (x, y) = chart.backend_coord(&(k_ns, y));
            let at = (x - bx + f.px(3.0), y - by - f.px(18.0));
            area.draw(&Text::new("K", at, f.font().color(&series(1))))?;
        }
    }
    Ok(())
}
