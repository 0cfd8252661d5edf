//! The time the pointer hovers over, marked in every view that has a time
//! axis, on both sides of a comparison: hover over a point of the cwnd
//! chart and the same instant lights up on the time-sequence graph, the
//! ladder and the other run's charts (linked highlighting). Drawn over a
//! finished view, at the pixel its drawing reported for that time.

use super::time_axis::TimeAxis;
use crate::palette::Palette;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// Marks `t_ns` on a view drawn on `area` whose time axis is `axis`: a
/// dashed line across it, in the accent colour. Nothing on a view whose
/// axis gives distances only (the path view) or where `t_ns` is off it.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    axis: &TimeAxis,
    t_ns: f64,
    pal: &Palette,
    scale: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    if axis.relative || !t_ns.is_finite() {
        return Ok(());
    }
    let (lo, hi) = (axis.from_px.min(axis.to_px), axis.from_px.max(axis.to_px));
    let at = axis.px_at(t_ns);
    if !(lo..=hi).contains(&at) {
        return Ok(());
    }
    let (w, h) = area.dim_in_pixel();
    let at = at.round() as i32;
    let ends = if axis.vertical {
        [(0, at), (w as i32, at)]
    } else {
        [(at, 0), (at, h as i32)]
    };
    let dash = (4.0 * scale).round().max(2.0) as u32;
    let style = pal
        .accent
        .stroke_width((1.5 * scale).round().max(1.0) as u32);
    area.draw(&DashedPathElement::new(ends, dash, dash, style))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg_of(axis: TimeAxis, t_ns: f64) -> String {
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (400, 200)).into_drawing_area();
            draw(&area, &axis, t_ns, &Palette::default(), 1.0).unwrap();
        }
        out
    }

    fn axis(vertical: bool, relative: bool) -> TimeAxis {
        TimeAxis {
            from_px: 40.0,
            to_px: 360.0,
            from_ns: 0.0,
            to_ns: 40e6,
            vertical,
            relative,
        }
    }

    /// Every dash of the line, as its two points.
    fn dashes(svg: &str) -> Vec<((i32, i32), (i32, i32))> {
        svg.split("points=\"")
            .skip(1)
            .map(|p| {
                let pts: Vec<(i32, i32)> = p
                    .split('"')
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .map(|xy| {
                        let (x, y) = xy.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect();
                (pts[0], pts[1])
            })
            .collect()
    }

    #[test]
    fn a_time_across_is_a_dashed_vertical_line_where_the_axis_puts_it() {
        let d = dashes(&svg_of(axis(false, false), 10e6));
        assert!(d.len() > 10, "{d:?}");
        // 10 ms of 40 over 320 px from 40: at x = 120, top to bottom.
        assert!(
            d.iter().all(|&((x0, _), (x1, _))| x0 == 120 && x1 == 120),
            "{d:?}"
        );
        assert_eq!(d.first().unwrap().0.1, 0);
        assert!(d.last().unwrap().1.1 >= 192);
    }

    #[test]
    fn a_time_down_the_ladder_is_a_horizontal_line() {
        let down = TimeAxis {
            from_px: 20.0,
            to_px: 180.0,
            ..axis(true, false)
        };
        // 30 ms of 40 over 160 px from 20: at y = 140, left to right.
        let d = dashes(&svg_of(down, 30e6));
        assert!(d.len() > 10, "{d:?}");
        assert!(
            d.iter().all(|&((_, y0), (_, y1))| y0 == 140 && y1 == 140),
            "{d:?}"
        );
    }

    #[test]
    fn nothing_off_the_axis_or_on_a_view_of_distances() {
        assert!(dashes(&svg_of(axis(false, false), 50e6)).is_empty());
        assert!(dashes(&svg_of(axis(false, true), 10e6)).is_empty());
        assert!(dashes(&svg_of(axis(false, false), f64::NAN)).is_empty());
    }
}
