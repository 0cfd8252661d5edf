//! CUBIC's curve over the cwnd chart, one per epoch after a loss
//! (`series::cc_state::CubicEpoch`): W_max dashed, the cubic
//! `W(t) = W_max + C·(t − K)³` (`bictcp_update`'s target) as a pale line
//! from the epoch's start to the next loss, and K marked where the curve
//! reaches W_max before that loss. cwnd follows the curve about one RTT
//! behind: the kernel aims each update one min RTT ahead (`t += delay_min`).
//! In colour up to the cursor, faint after it, as the other lines.

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
        let end = e.end_ns.min(x_end);
        // Past (to the cursor) in colour, the rest faint.
        for (a, b, past) in [
            (e.start_ns, end.min(cursor_ns), true),
            (e.start_ns.max(cursor_ns), end, false),
        ] {
            if b <= a {
                continue;
            }
            let (dashed, pale) = if past {
                (f.line(series(1), W), f.line(curve_colour(f), W))
            } else {
                (f.faint(1.0), f.faint(1.0))
            };
            if e.w_max as f64 <= y_max {
                let y = y_axis(e.w_max as f64);
                frame::draw_dashed(chart, f, vec![vec![(a, y), (b, y)]], dashed)?;
            }
            // Two columns a step: smooth at any zoom, O(width) in all.
            let steps = ((b - a) / (2.0 * col)).ceil().max(1.0) as usize;
            let mut paths = vec![Vec::new()];
            for i in 0..=steps {
                let t = a + (b - a) * i as f64 / steps as f64;
                let w = e.w(t);
                if w > 0.0 && w <= y_max {
                    paths.last_mut().expect("one").push((t, y_axis(w)));
                } else if !paths.last().expect("one").is_empty() {
                    paths.push(Vec::new());
                }
            }
            frame::draw_paths(chart, paths, pale)?;
        }
        let k_ns = e.start_ns + e.k_s * 1e9;
        if k_ns < end && k_ns <= cursor_ns && e.origin as f64 <= y_max {
            let p = (k_ns, y_axis(e.origin as f64));
            let style = f.line(series(1), W);
            chart.draw_series([Circle::new(p, f.px(3.0), style)])?;
            // Above and right of the mark, clear of the cwnd line under it.
            let colour = series(1);
            let label = Text::new("K", (f.px(4.0), -f.px(16.0)), f.font().color(&colour));
            chart.draw_series([EmptyElement::at(p) + label])?;
        }
    }
    Ok(())
}
