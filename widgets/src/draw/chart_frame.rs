//! Scaffolding shared by the four charts of one run (window, time-sequence,
//! throughput, RTT): the frame (axes with units, legend, time cursor), and
//! the drawing of a series' bins (`series::bins`) merged into columns of
//! about one CSS pixel, which keeps a frame's cost proportional to the
//! canvas, not to the run.
//!
//! Charts put time on x in nanoseconds (the unit of `cursor_ns`) and let
//! the label formatter print ms or s; y carries the series' own unit.

use crate::palette::Palette;
use crate::series::bins::{BINS, Column};
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::element::{DashedPathElement, MultiLineText};
use plotters::prelude::*;
use plotters::style::FontError;
use plotters_backend::DrawingErrorKind;

pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The chart type every run chart draws on: time (ns) against a value.
pub type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Sizes, fonts and line styles for one frame at one scale.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub pal: Palette,
    /// Device pixels per CSS pixel, times the presenter factor.
    pub scale: f64,
    /// Narrow canvas (under 480 CSS px): fewer tick labels.
    pub narrow: bool,
    /// Width of the whole canvas in device pixels.
    pub width_px: u32,
}

impl Frame {
    pub fn new<DB: DrawingBackend>(
        root: &DrawingArea<DB, Shift>,
        pal: &Palette,
        scale: f64,
    ) -> Self {
        let scale = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        let width_px = root.dim_in_pixel().0;
        Frame {
            pal: *pal,
            scale,
            narrow: (width_px as f64 / scale) < 480.0,
            width_px,
        }
    }

    /// `v` CSS pixels in device pixels.
    pub fn px(&self, v: f64) -> i32 {
        (v * self.scale).round() as i32
    }

    /// A stroke `w` CSS pixels wide (at least one device pixel).
    pub fn line(&self, c: RGBColor, w: f64) -> ShapeStyle {
        c.stroke_width(self.px(w).max(1) as u32)
    }

    pub fn font(&self) -> TextStyle<'static> {
        // By variant, not by name: see [`legend`].
        (FontFamily::SansSerif, 12.0 * self.scale)
            .into_font()
            .color(&self.pal.fg)
    }

    /// The faint style of the part after the cursor.
    pub fn faint(&self, w: f64) -> ShapeStyle {
        self.line(self.pal.grid, w)
    }
}

/// The time axis' end (ns): the caller's `end_ns` (shared by linked charts)
/// or else the data's, with 2% to spare.
pub fn x_max(end_ns: f64, data_end_ns: f64) -> f64 {
    let end = if end_ns.is_finite() && end_ns > 0.0 {
        end_ns
    } else {
        data_end_ns
    };
    end.max(1e3) * 1.02
}

/// How the time axis is labelled: seconds for long runs, else milliseconds.
pub fn time_unit(x_max_ns: f64) -> (&'static str, f64) {
    if x_max_ns >= 10e9 {
        ("time (s)", 1e9)
    } else {
        ("time (ms)", 1e6)
    }
}

/// Decimals that tell ticks apart on an axis running to `max` (in the unit printed).
pub fn decimals(max: f64) -> usize {
    if max < 0.05 {
        3
    } else if max < 1.0 {
        2
    } else if max < 10.0 {
        1
    } else {
        0
    }
}

/// Formats `v` with the decimals an axis to `max` needs.
pub fn fmt_axis(v: f64, max: f64) -> String {
    format!("{v:.*}", decimals(max))
}

/// The y axis of a chart: its description (with unit), range and label format.
pub struct YAxis<'f> {
    pub desc: &'f str,
    pub max: f64,
    pub fmt: &'f dyn Fn(&f64) -> String,
}

/// Fills the background and builds a chart from 0 to `x_max_ns` with
/// labelled axes and a light grid.
pub fn chart<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    f: &Frame,
    x_max_ns: f64,
    y: YAxis<'_>,
) -> Result<Chart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&f.pal.bg)?;
    let x_max = if x_max_ns.is_finite() && x_max_ns > 0.0 {
        x_max_ns
    } else {
        1e6
    };
    let y_max = if y.max.is_finite() && y.max > 0.0 {
        y.max
    } else {
        1.0
    };
    let (x_desc, unit) = time_unit(x_max);
    let x_fmt = |v: &f64| fmt_axis(v / unit, x_max / unit);
    let mut chart = ChartBuilder::on(root)
        .margin(f.px(8.0))
        .margin_right(f.px(14.0))
        .x_label_area_size(f.px(36.0))
        .y_label_area_size(f.px(if f.narrow { 50.0 } else { 60.0 }))
        .build_cartesian_2d(0f64..x_max, 0f64..y_max)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y.desc)
        .axis_style(f.line(f.pal.muted, 1.0))
        .max_light_lines(0)
        .bold_line_style(f.line(f.pal.grid, 1.0))
        .label_style(f.font())
        .axis_desc_style(f.font())
        .x_labels(if f.narrow { 4 } else { 8 })
        .y_labels(if f.narrow { 4 } else { 6 })
        .x_label_formatter(&x_fmt)
        .y_label_formatter(y.fmt)
        .draw()?;
    Ok(chart)
}

/// Columns to decimate to: one per CSS pixel of the plotting area (a line
/// is `scale` device pixels wide anyway), never more than [`BINS`].
pub fn column_ns<'a, DB: DrawingBackend + 'a>(chart: &Chart<'a, DB>, f: &Frame) -> f64 {
    let width_px = chart.plotting_area().dim_in_pixel().0.max(1) as f64;
    let cols = (width_px / f.scale.max(1.0)).clamp(1.0, BINS as f64);
    chart.x_range().end / cols
}

/// How a series shows in the legend (and, by the same choice, on the chart).
#[derive(Clone, Copy, Debug)]
pub enum Key {
    Line(ShapeStyle),
    Dashed(ShapeStyle),
    Circle(ShapeStyle),
    Cross(ShapeStyle),
    Triangle(ShapeStyle),
    Bar(ShapeStyle),
}

/// Draws the legend in the upper left corner over a paper-coloured box: one
/// line per entry, its key in front of its label.
///
/// Laid out exactly as plotters' series labels (`configure_series_labels`,
/// which drew it before) lay it out, but from the entries given here: their
/// drawing asks plotters for a font by name, which costs the wasm Unicode's
/// lower-case tables (15 KB before gzip).
pub fn legend<'a, DB: DrawingBackend + 'a>(
    chart: &Chart<'a, DB>,
    f: &Frame,
    entries: &[(&str, Key)],
) -> DrawResult<DB> {
    let area = chart.plotting_area().strip_coord_spec();
    let font = f.font();
    let mut text = MultiLineText::<_, &str>::new((0, 0), &font);
    for (label, _) in entries {
        text.push_line(*label);
    }
    let font_error =
        |e: FontError| DrawingAreaErrorKind::BackendError(DrawingErrorKind::FontError(Box::new(e)));
    let (w, h) = text.estimate_dimension().map_err(font_error)?;
    let (margin, key_w) = (f.px(6.0).max(0), f.px(28.0).max(0));
    // plotters' `SeriesLabelPosition::UpperLeft`: 5 px from the corner.
    let (x, y) = (5, 5);
    let corners = [(x, y), (x + w + key_w + 2 * margin, y + h + 2 * margin)];
    text.relocate((x + key_w + margin, y + margin));
    let paper = ShapeStyle::from(f.pal.bg.mix(0.9)).filled();
    area.draw(&Rectangle::new(corners, paper))?;
    area.draw(&Rectangle::new(corners, f.line(f.pal.muted, 1.0)))?;
    area.draw(&text)?;
    let lines = text.compute_line_layout().map_err(font_error)?;
    for (((_, y0), (_, y1)), (_, key)) in lines.into_iter().zip(entries) {
        area.draw(&key_element::<DB>(*key, f, (x + margin, (y0 + y1) / 2)))?;
    }
    Ok(())
}

/// A legend entry's key, its left end at `(x, y)`.
pub fn key_element<DB: DrawingBackend>(
    key: Key,
    f: &Frame,
    (x, y): (i32, i32),
) -> DynElement<'static, DB, (i32, i32)> {
    let w = f.px(22.0);
    let r = f.px(4.0);
    let dash = f.px(5.0);
    match key {
        Key::Line(s) => PathElement::new(vec![(x, y), (x + w, y)], s).into_dyn(),
        Key::Dashed(s) => {
            DashedPathElement::new(vec![(x, y), (x + w, y)], dash, dash / 2, s).into_dyn()
        }
        Key::Circle(s) => Circle::new((x + w / 2, y), r, s).into_dyn(),
        Key::Cross(s) => Cross::new((x + w / 2, y), r, s).into_dyn(),
        Key::Triangle(s) => TriangleMarker::new((x + w / 2, y), r + 1, s).into_dyn(),
        Key::Bar(s) => Rectangle::new([(x, y - r), (x + w, y + r)], s).into_dyn(),
    }
}

/// The vertical time cursor.
pub fn cursor<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    f: &Frame,
    cursor_ns: f64,
) -> DrawResult<DB> {
    let x_max = chart.x_range().end;
    let y_max = chart.y_range().end;
    let x = if cursor_ns.is_finite() {
        cursor_ns.clamp(0.0, x_max)
    } else {
        x_max
    };
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(x, 0.0), (x, y_max)],
        f.line(f.pal.accent, 1.5),
    )))?;
    Ok(())
}

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

/// Items with a low and high value (a segment's first and last byte) as
/// zig-zag polylines through each column's min–max span, one polyline per
/// run of adjacent columns: the whole band of a busy sender is one element.
pub fn band_paths(cols: &[Column], clip: f64) -> Vec<Vec<(f64, f64)>> {
    let mut paths = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    let mut prev: Option<usize> = None;
    for c in cols.iter().filter(|c| c.bin.has_values()) {
        if prev.is_some_and(|p| c.index > p + 1) && !cur.is_empty() {
            paths.push(std::mem::take(&mut cur));
        }
        let x = c.bin.t;
        cur.push((x, c.bin.lo.min(clip)));
        cur.push((x, c.bin.hi.min(clip)));
        prev = Some(c.index);
    }
    if !cur.is_empty() {
        paths.push(cur);
    }
    paths
}

/// Draws polylines in one style.
pub fn draw_paths<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    paths: Vec<Vec<(f64, f64)>>,
    style: ShapeStyle,
) -> DrawResult<DB> {
    chart.draw_series(paths.into_iter().map(|p| PathElement::new(p, style)))?;
    Ok(())
}

/// Draws polylines dashed (for series that change rarely: a dashed line
/// costs one element per dash).
pub fn draw_dashed<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    f: &Frame,
    paths: Vec<Vec<(f64, f64)>>,
    style: ShapeStyle,
) -> DrawResult<DB> {
    let (dash, gap) = (f.px(6.0), f.px(3.0));
    chart.draw_series(
        paths
            .into_iter()
            .map(|p| DashedPathElement::new(p, dash, gap, style)),
    )?;
    Ok(())
}

/// One marker per column (at its lowest value), for rare events.
pub fn draw_markers<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    f: &Frame,
    cols: &[Column],
    key: Key,
    clip: f64,
) -> DrawResult<DB> {
    let r = f.px(3.5).max(2);
    let points = cols
        .iter()
        .filter(|c| c.bin.has_values() && c.bin.lo <= clip)
        .map(|c| (c.bin.t, c.bin.lo));
    chart.draw_series(points.map(|p| -> DynElement<'static, DB, (f64, f64)> {
        match key {
            Key::Cross(s) => Cross::new(p, r, s).into_dyn(),
            Key::Triangle(s) => TriangleMarker::new(p, r + 1, s).into_dyn(),
            Key::Circle(s) | Key::Line(s) | Key::Dashed(s) | Key::Bar(s) => {
                Circle::new(p, r, s).into_dyn()
            }
        }
    }))?;
    Ok(())
}

/// Point samples, one element per column: a circle where the column holds
/// one value, a stroke over its min–max span where it holds several.
pub fn draw_scatter<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    f: &Frame,
    cols: &[Column],
    style: ShapeStyle,
    clip: f64,
) -> DrawResult<DB> {
    let r = f.px(2.5).max(1);
    chart.draw_series(cols.iter().filter(|c| c.bin.has_values()).map(
        |c| -> DynElement<'static, DB, (f64, f64)> {
            let (x, lo, hi) = (c.bin.t, c.bin.lo.min(clip), c.bin.hi.min(clip));
            if c.bin.count == 1 || lo == hi {
                Circle::new((x, lo), r, style).into_dyn()
            } else {
                PathElement::new(vec![(x, lo), (x, hi)], style).into_dyn()
            }
        },
    ))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::series::bins::Binned;

    fn cols(b: &Binned) -> Vec<Column> {
        b.columns(1.0, f64::INFINITY, true)
    }

    #[test]
    fn a_step_line_breaks_where_the_value_is_undefined() {
        let b = Binned::build(
            4096.0,
            [
                (10.0, 1.0, 1.0),
                (20.0, f64::NAN, f64::NAN),
                (30.0, 4.0, 4.0),
            ],
        );
        let paths = step_paths(&cols(&b), 0.0, f64::NAN, 40.0, f64::INFINITY);
        assert_eq!(paths.len(), 2);
        assert_eq!(paths[1].last(), Some(&(40.0, 4.0)));
    }

    #[test]
    fn a_band_splits_at_empty_columns() {
        let b = Binned::build(4096.0, [(1.0, 0.0, 1.0), (2.0, 1.0, 2.0), (9.0, 2.0, 3.0)]);
        assert_eq!(band_paths(&cols(&b), f64::INFINITY).len(), 2);
    }
}
