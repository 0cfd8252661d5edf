//! Notes drawn in place on a chart (see `series::annotations` for which):
//! a dot (or, for a span, a bracket) where the note points, a short leader
//! line, and the label on a patch of the paper colour so that it reads over
//! the lines beneath.
//!
//! Labels are placed one after another, each at the first of a few spots
//! around its point that stays inside the plot and clear of the labels
//! already placed; a note with no such spot is left out rather than drawn
//! over another. Notes past the time cursor are drawn lighter: the chart
//! shows that part of the run faintly too.
//!
//! ```text
//!             ┌──────────────────────┐
//!             │ loss → fast recovery │   label, on paper
//!             └──────────┬───────────┘
//!                        │                leader
//!   ───────────────────● ╲___             the point, on the line
//! ```

use super::chart_frame::{Chart, DrawResult, Frame};
use crate::palette::{Palette, mix};
use crate::series::annotations::{Annotation, Kind};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use sim_core::units::Within;

/// A label's box, device pixels: left, top, right, bottom.
type Rect = (i32, i32, i32, i32);

/// Draws `notes` on `chart`, whose y coordinate is `y_axis(value)` (the
/// identity, or log₂ on a log axis), the cursor at `cursor_ns`.
pub fn draw<'a, DB: DrawingBackend + 'a>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart<'a, DB>,
    f: &Frame,
    notes: &[Annotation],
    y_axis: &dyn Fn(f64) -> f64,
    cursor_ns: f64,
) -> DrawResult<DB> {
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let plot: Rect = (xs.start, ys.start, xs.end, ys.end);
    let x_max = chart.x_range().end;
    let y_top = chart.y_range().end;
    let mut placed: Vec<Rect> = Vec::new();
    let font_px = 12.0 * f.scale;
    let pad = f.px(3.0);
    // The most telling notes choose their spots first.
    let mut order: Vec<&Annotation> = notes.iter().collect();
    crate::series::annotations::insertion_sort(&mut order, |a, b| a.kind < b.kind);
    for n in order {
        let future = n.t_ns > cursor_ns;
        if !(n.t_ns.is_finite() && n.t_ns <= x_max) || (future && f.pal.hide_future) {
            continue;
        }
        let y = y_axis(n.y).within(0.0, y_top);
        let ink = ink(&f.pal, future);
        let font = (FontFamily::SansSerif, font_px).into_font().color(&ink);
        let (ax, ay) = chart.backend_coord(&(n.t_ns, y));
        // A span wide enough to see is bracketed; a narrow one is a point
        // at its middle.
        let span = n
            .end_ns
            .map(|e| chart.backend_coord(&(e.min(x_max), y)).0)
            .filter(|&bx| bx - ax >= f.px(10.0));
        let (mid, lift) = match span {
            Some(bx) => ((ax + bx) / 2, f.px(6.0)),
            // A round trip too short to bracket says nothing as a point.
            None if n.kind == Kind::RoundTrip => continue,
            None => (ax, 0),
        };
        // The full label, else the short one (a narrow chart).
        let found = [n.label.as_str(), n.kind.short()]
            .into_iter()
            .find_map(|text| {
                let (tw, th) = super::backend::text_box(&font, text);
                let size = (tw + 2 * pad, th + 2 * pad);
                let rect = spot(f, (mid, ay - lift), size, plot, &placed)?;
                Some((text, rect))
            });
        let Some((text, rect)) = found else {
            continue;
        };
        placed.push(rect);
        let line = f.line(ink, 1.0);
        let anchor_y = ay - lift;
        if let Some(bx) = span {
            // ├────────┤ over the span, just above the line.
            let tick = f.px(4.0);
            root.draw(&PathElement::new(
                vec![(ax, anchor_y), (bx, anchor_y)],
                line,
            ))?;
            for x in [ax, bx] {
                root.draw(&PathElement::new(
                    vec![(x, anchor_y - tick), (x, anchor_y + tick)],
                    line,
                ))?;
            }
        } else {
            root.draw(&Circle::new((ax, ay), f.px(2.5).max(2), ink.filled()))?;
        }
        // The leader: from the point to the nearest edge of the label.
        let to = (
            mid.clamp(rect.0, rect.2),
            if rect.3 <= anchor_y { rect.3 } else { rect.1 },
        );
        root.draw(&PathElement::new(vec![(mid, anchor_y), to], line))?;
        root.draw(&Rectangle::new(
            [(rect.0, rect.1), (rect.2, rect.3)],
            f.pal.bg.mix(0.75).filled(),
        ))?;
        root.draw(&Text::new(
            text,
            ((rect.0 + rect.2) / 2, (rect.1 + rect.3) / 2),
            font.pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// The notes' colour: the ink softened, so the data stays the loudest
/// thing on the chart; softer still for notes past the cursor.
fn ink(pal: &Palette, ahead: bool) -> RGBColor {
    mix(pal.fg, pal.bg, if ahead { 0.5 } else { 0.25 })
}

/// Where a label of `(w, h)` pixels goes for a point at `(x, y)`: the first
/// spot inside `plot` and clear of the labels `placed`. Rows above the point
/// first (lines run below their peaks), then below; in each row, centred,
/// then to the right, then the left, then further right.
fn spot(
    f: &Frame,
    (x, y): (i32, i32),
    (w, h): (i32, i32),
    plot: Rect,
    placed: &[Rect],
) -> Option<Rect> {
    let gap = f.px(10.0);
    let columns = [
        x - w / 2,
        x + f.px(4.0),
        x - w - f.px(4.0),
        x + w / 2 + f.px(8.0),
    ];
    for row in [1, 2, 3, 4, -1, -2, -3, -4] {
        let top = if row > 0 {
            y - gap - h - (row - 1) * (h + gap / 2)
        } else {
            y + gap + (-row - 1) * (h + gap / 2)
        };
        for left in columns {
            let r = (left, top, left + w, top + h);
            if inside(r, plot) && !placed.iter().any(|p| overlaps(r, *p, f.px(2.0))) {
                return Some(r);
            }
        }
    }
    None
}

fn inside(r: Rect, plot: Rect) -> bool {
    r.0 >= plot.0 && r.1 >= plot.1 && r.2 <= plot.2 && r.3 <= plot.3
}

fn overlaps(a: Rect, b: Rect, margin: i32) -> bool {
    a.0 < b.2 + margin && b.0 < a.2 + margin && a.1 < b.3 + margin && b.1 < a.3 + margin
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_overlap_only_when_they_share_pixels_or_margin() {
        assert!(overlaps((0, 0, 10, 10), (5, 5, 15, 15), 0));
        assert!(!overlaps((0, 0, 10, 10), (12, 0, 20, 10), 0));
        assert!(overlaps((0, 0, 10, 10), (12, 0, 20, 10), 3));
        assert!(inside((1, 1, 9, 9), (0, 0, 10, 10)));
        assert!(!inside((1, 1, 11, 9), (0, 0, 10, 10)));
    }
}
