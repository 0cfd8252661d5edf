//! The time-sequence graph (tcptrace's view of a transfer), with the time
//! cursor. Data is drawn as the min–max band of sequence numbers sent in
//! each pixel column; each series also differs by width, dash or marker:
//!
//! | series          | colour        | shape                   |
//! |-----------------|---------------|-------------------------|
//! | data            | blue          | thin strokes            |
//! | retransmission  | orange        | thick strokes + circle  |
//! | dropped         | vermillion    | cross                   |
//! | ACK             | bluish green  | solid step line         |
//! | receive window  | reddish purple| dashed step line        |
//! | SACK blocks     | sky blue      | wide strokes            |
//! | zero window     | ink           | triangle                |

use super::chart_frame::{self as frame, Chart, DrawResult, Frame, Key, YAxis, shared_or};
use crate::palette::{Palette, series};
use crate::series::bins::Binned;
use crate::series::tsg::TsgSeries;
use plotters::coord::Shift;
use plotters::prelude::*;
use sim_core::units::Within;

/// Unit for sequence numbers on an axis to `max` bytes: (name, bytes).
pub fn seq_unit(max: f64) -> (&'static str, f64) {
    if max < 10e3 {
        ("B", 1.0)
    } else if max < 10e6 {
        ("kB", 1e3)
    } else {
        ("MB", 1e6)
    }
}

/// The top of the y axis for `data` alone; compare mode gives both runs
/// the higher of their two.
pub fn y_top(data: &TsgSeries) -> f64 {
    (data.max_seq as f64 * 1.08).max(1.0)
}

/// Draws the graph up to `cursor_ns` in colour and the rest faintly, on a
/// time axis to `end_ns`. Costs O(canvas width).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &TsgSeries,
    cursor_ns: f64,
    end_ns: f64,
    y_top: f64,
    pal: &Palette,
    scale: f64,
) -> super::Drawn<DB, super::time_axis::TimeAxis> {
    let f = Frame::new(root, pal, scale);
    let y_max = shared_or(y_top, || self::y_top(data));
    let (unit, div) = seq_unit(y_max);
    let desc = format!("sequence number ({unit}, relative)");
    let fmt = |v: &f64| frame::fmt_axis(v / div, y_max / div);
    let styles = Styles::new(&f);
    let mut chart = frame::chart(
        root,
        &f,
        frame::x_max(end_ns, data.end_ns),
        YAxis {
            desc: &desc,
            max: y_max,
            fmt: &fmt,
        },
        &entries(data, &styles),
    )?;
    let x_end = data.end_ns.min(chart.x_range().end);
    let span = Span {
        col: frame::column_ns(&chart, &f),
        cursor_ns,
        x_cursor: cursor_ns.within(0.0, x_end),
        x_end,
        y_max,
    };
    for past in [false, true] {
        draw_part(&mut chart, &f, data, &styles, &span, past)?;
    }
    frame::cursor(&mut chart, &f, cursor_ns)?;
    super::annotations::draw(root, &chart, &f, &data.notes, &|v| v, cursor_ns)?;
    frame::finish(root, &chart)
}

/// Where a frame draws: the width of a column, the cursor (as given and
/// clamped to the data), the end of the data and the top of the chart.
struct Span {
    col: f64,
    cursor_ns: f64,
    x_cursor: f64,
    x_end: f64,
    y_max: f64,
}

/// Draws the part up to the cursor (`past`, in colour) or after it (faint).
/// Inlined, as the ladder's parts are (see `draw::ladder`).
#[inline(always)]
fn draw_part<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    f: &Frame,
    data: &TsgSeries,
    styles: &Styles,
    span: &Span,
    past: bool,
) -> DrawResult<DB> {
    let Span {
        col,
        cursor_ns,
        x_cursor,
        x_end,
        y_max,
    } = *span;
    let cols = |b: &Binned| b.columns(col, cursor_ns, past);
    let pick = |s: ShapeStyle, w: f64| if past { s } else { f.faint(w) };
    // Step lines: the future part starts from the value held at the cursor.
    for (line, style, w, dashed) in [
        (&data.window_line, styles.window, 1.5, true),
        (&data.ack_line, styles.ack, 1.5, false),
    ] {
        let (x0, held) = if past {
            (0.0, f64::NAN)
        } else {
            (x_cursor, line.last_before(cursor_ns))
        };
        let x1 = if past { x_cursor } else { x_end };
        let paths = frame::step_paths(&cols(line), x0, held, x1, y_max);
        if dashed {
            frame::draw_dashed(chart, f, paths, pick(style, w))?;
        } else {
            frame::draw_paths(chart, paths, pick(style, w))?;
        }
    }
    for (band, style, w) in [
        (&data.sacks, styles.sack, 3.0),
        (&data.data, styles.data, 1.5),
        (&data.retransmits, styles.retransmit, 2.5),
    ] {
        frame::draw_paths(chart, frame::band_paths(&cols(band), y_max), pick(style, w))?;
    }
    let marker = |k: Key| if past { k } else { faint_key(k, f) };
    for (events, key) in [
        (&data.retransmits, styles.retransmit_key()),
        (&data.drops, Key::Cross(styles.drop)),
        (&data.zero_windows, Key::Triangle(styles.zero)),
    ] {
        frame::draw_markers(chart, f, &cols(events), marker(key), y_max)?;
    }
    Ok(())
}

/// The legend's entries: data and the lines always, the rarer series when
/// the run has any.
fn entries(data: &TsgSeries, styles: &Styles) -> Vec<(&'static str, Key)> {
    let present = |b: &Binned| !b.is_empty();
    let mut entries = vec![("data sent", Key::Line(styles.data))];
    if present(&data.retransmits) {
        entries.push(("retransmission", styles.retransmit_key()));
    }
    if present(&data.drops) {
        entries.push(("dropped", Key::Cross(styles.drop)));
    }
    entries.push(("ACK", Key::Line(styles.ack)));
    entries.push(("receive window", Key::Dashed(styles.window)));
    if present(&data.sacks) {
        entries.push(("SACK blocks", Key::Line(styles.sack)));
    }
    if present(&data.zero_windows) {
        entries.push(("zero window", Key::Triangle(styles.zero)));
    }
    entries
}

struct Styles {
    data: ShapeStyle,
    retransmit: ShapeStyle,
    retransmit_marker: ShapeStyle,
    drop: ShapeStyle,
    ack: ShapeStyle,
    window: ShapeStyle,
    sack: ShapeStyle,
    zero: ShapeStyle,
}

impl Styles {
    fn new(f: &Frame) -> Self {
        Styles {
            data: f.line(series(0), 1.5),
            retransmit: f.line(series(1), 2.5),
            retransmit_marker: f.line(series(1), 1.5),
            drop: f.line(series(5), 2.0),
            ack: f.line(series(2), 1.5),
            window: f.line(series(3), 1.5),
            sack: f.line(series(4), 3.0),
            zero: f.pal.fg.filled(),
        }
    }

    fn retransmit_key(&self) -> Key {
        Key::Circle(self.retransmit_marker)
    }
}

fn faint_key(k: Key, f: &Frame) -> Key {
    let faint = f.faint(1.5);
    match k {
        Key::Cross(_) => Key::Cross(faint),
        Key::Triangle(_) => Key::Triangle(f.pal.grid.filled()),
        _ => Key::Circle(faint),
    }
}
