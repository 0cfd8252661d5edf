//! Scaffolding shared by the four charts of one run (window, time-sequence,
//! throughput, RTT): the frame (axes with units, legend, time cursor), and
//! the drawing of a series' bins (`series::bins`) merged into columns of
//! about one CSS pixel, which keeps a frame's cost proportional to the
//! canvas, not to the run.
//!
//! Charts put time on x in nanoseconds (the unit of `cursor_ns`) and let
//! the label formatter print ms or s; y carries the series' own unit.

use super::axis::Axis;
use super::log_scale;
use super::time_axis::TimeAxis;
use super::triangle::Triangle;
use crate::palette::Palette;
use crate::series::bins::{BINS, Column};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use sim_core::units::Within;

pub use super::step_lines::{Line, draw_line, step_lines, step_paths, step_split};

pub type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// The chart type every run chart draws on: time (ns) against a value.
pub type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<Axis, Axis>>;

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
    crate::units::fixed(v, decimals(max))
}

/// `shared`, the top of the y axis both compared runs use, or when there is
/// none (NaN, or not positive) the chart's own choice.
pub fn shared_or(shared: f64, own: impl FnOnce() -> f64) -> f64 {
    if shared.is_finite() && shared > 0.0 {
        shared
    } else {
        own()
    }
}

/// The y axis of a chart: its description (with unit), range and label format.
pub struct YAxis<'f> {
    pub desc: &'f str,
    pub max: f64,
    pub fmt: &'f dyn Fn(&f64) -> String,
}

/// Fills the background and builds a chart from 0 to `x_max_ns` with
/// labelled axes, a light grid and the legend `entries` in a strip above
/// the plot, where it hides no data.
pub fn chart<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    f: &Frame,
    x_max_ns: f64,
    y: YAxis<'_>,
    entries: &[(&str, Key)],
) -> Result<Chart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    chart_scaled(root, f, x_max_ns, y, entries, false)
}

/// [`chart`], with the y axis logarithmic when `log` is set (see
/// `draw::log_scale`): the chart's y coordinate is then log₂ of the value,
/// and `y.max` is still in the value's unit.
pub fn chart_scaled<'a, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    f: &Frame,
    x_max_ns: f64,
    y: YAxis<'_>,
    entries: &[(&str, Key)],
    log: bool,
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
    let rows = legend_rows(f, entries);
    let line_h = text_size(f, "Hg").1 + f.px(4.0);
    let log_ticks = log.then(|| log_scale::ticks(y_max, f.narrow));
    // The y labels' area holds the widest tick label and, beside it, the
    // axis description turned on its side: 5-digit labels ran into it.
    let widest = match &log_ticks {
        Some(ticks) => ticks.iter().map(|(_, l)| text_size(f, l).0).max(),
        None => [0.0, y_max * 0.5, y_max]
            .iter()
            .map(|v| text_size(f, &(y.fmt)(v)).0)
            .max(),
    }
    .unwrap_or(0);
    let y_area = widest + line_h + f.px(12.0);
    let y_top = if log { log_scale::top(y_max) } else { y_max };
    let mut chart = ChartBuilder::on(root)
        .margin(f.px(8.0))
        .margin_top(f.px(6.0) + rows.len() as i32 * line_h)
        .margin_right(f.px(14.0))
        .x_label_area_size(f.px(36.0))
        .y_label_area_size(y_area)
        .build_cartesian_2d(Axis::from(0f64..x_max), Axis::from(0f64..y_top))?;
    let y_labels = match (&log_ticks, f.narrow) {
        // The log axis' ticks are drawn below, at its own positions.
        (Some(_), _) => 0,
        (None, true) => 4,
        (None, false) => 6,
    };
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
        .y_labels(y_labels)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(y.fmt)
        .draw()?;
    if let Some(ticks) = log_ticks {
        draw_y_ticks(root, &mut chart, f, &ticks)?;
    }
    draw_legend(root, f, entries, &rows, line_h, y_area + f.px(8.0))?;
    Ok(chart)
}

/// Grid lines, tick marks and labels at `ticks` (y position, label), as the
/// mesh draws its own.
fn draw_y_ticks<'a, DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &mut Chart<'a, DB>,
    f: &Frame,
    ticks: &[(f64, String)],
) -> DrawResult<DB> {
    let x_max = chart.x_range().end;
    let font = f.font().pos(Pos::new(HPos::Right, VPos::Center));
    for (y, label) in ticks {
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(0.0, *y), (x_max, *y)],
            f.line(f.pal.grid, 1.0),
        )))?;
        let (x, py) = chart.backend_coord(&(0.0, *y));
        root.draw(&PathElement::new(
            vec![(x - f.px(5.0), py), (x, py)],
            f.line(f.pal.muted, 1.0),
        ))?;
        root.draw(&Text::new(label.clone(), (x - f.px(8.0), py), font.clone()))?;
    }
    Ok(())
}

/// Where the chart put time: the plot's left and right edges, in device
/// pixels, and the times drawn there.
pub fn time_axis<'a, DB: DrawingBackend + 'a>(chart: &Chart<'a, DB>) -> TimeAxis {
    let x_max = chart.x_range().end;
    let (x0, _) = chart.backend_coord(&(0.0, 0.0));
    let (x1, _) = chart.backend_coord(&(x_max, 0.0));
    TimeAxis {
        from_px: x0 as f64,
        to_px: x1 as f64,
        from_ns: 0.0,
        to_ns: x_max,
        vertical: false,
        relative: false,
    }
}

/// Ends a chart's frame: presents it and says where it put time.
pub fn finish<'a, DB: DrawingBackend + 'a>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart<'a, DB>,
) -> Result<TimeAxis, DrawingAreaErrorKind<DB::ErrorType>> {
    root.present()?;
    Ok(time_axis(chart))
}

/// Width and height of `text` in the chart font, in device pixels (0 where
/// the font cannot say).
fn text_size(f: &Frame, text: &str) -> (i32, i32) {
    super::backend::text_box(&f.font(), text)
}

/// A legend entry's width: key, gap, label, and the space before the next.
fn entry_width(f: &Frame, label: &str) -> i32 {
    f.px(22.0) + f.px(6.0) + text_size(f, label).0 + f.px(16.0)
}

/// The legend's entries in rows that fit the canvas (indices into `entries`).
fn legend_rows(f: &Frame, entries: &[(&str, Key)]) -> Vec<Vec<usize>> {
    let room = f.width_px as i32 - f.px(16.0);
    let mut rows: Vec<Vec<usize>> = Vec::new();
    let mut used = 0;
    for (i, (label, _)) in entries.iter().enumerate() {
        let w = entry_width(f, label);
        match rows.last_mut() {
            Some(row) if used + w <= room => row.push(i),
            _ => {
                rows.push(vec![i]);
                used = 0;
            }
        }
        used += w;
    }
    rows
}

/// Draws the legend's rows in the strip above the plot, from `left` (the
/// plot's left edge): each entry's key in front of its label. Laid out here
/// rather than by plotters' series labels, which ask for a font by name and
/// cost the wasm Unicode's lower-case tables (15 KB before gzip).
fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    f: &Frame,
    entries: &[(&str, Key)],
    rows: &[Vec<usize>],
    line_h: i32,
    left: i32,
) -> DrawResult<DB> {
    let font = f.font().pos(Pos::new(HPos::Left, VPos::Center));
    for (r, row) in rows.iter().enumerate() {
        let y = f.px(6.0) + r as i32 * line_h + line_h / 2;
        let mut x = if rows.len() == 1 { left } else { f.px(8.0) };
        for &i in row {
            let (label, key) = entries[i];
            root.draw(&key_element::<DB>(key, f, (x, y)))?;
            root.draw(&Text::new(label, (x + f.px(28.0), y), font.clone()))?;
            x += entry_width(f, label);
        }
    }
    Ok(())
}

/// Columns to decimate to: one per CSS pixel of the plotting area (a line
/// is `scale` device pixels wide anyway), never more than [`BINS`].
pub fn column_ns<'a, DB: DrawingBackend + 'a>(chart: &Chart<'a, DB>, f: &Frame) -> f64 {
    let width_px = chart.plotting_area().dim_in_pixel().0.max(1) as f64;
    let cols = (width_px / f.scale.max(1.0)).within(1.0, BINS as f64);
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
        Key::Triangle(s) => Triangle::new((x + w / 2, y), r + 1, s).into_dyn(),
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
        cursor_ns.within(0.0, x_max)
    } else {
        x_max
    };
    if f.pal.hide_future {
        // Paper over the faint rest of the run, to the canvas's right edge:
        // the axis may end before the run does (see `hide_future`).
        let area = chart.plotting_area().strip_coord_spec();
        let (w, h) = area.dim_in_pixel();
        let from = chart.backend_coord(&(x, 0.0)).0 - area.get_base_pixel().0;
        area.draw(&Rectangle::new(
            [(from, 0), (3 * w as i32, h as i32)],
            f.pal.bg.filled(),
        ))?;
    }
    chart.draw_series(std::iter::once(PathElement::new(
        vec![(x, 0.0), (x, y_max)],
        f.line(f.pal.accent, 1.5),
    )))?;
    Ok(())
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
            Key::Triangle(s) => Triangle::new(p, r + 1, s).into_dyn(),
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
