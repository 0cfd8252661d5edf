//! The buffers along the data's way (`series::buffers`) as step lines over
//! time, against the path's BDP drawn as a dashed level: where the sender's
//! queued bytes sit at its buffer's size, or the advertised window sits
//! under the BDP, that buffer is what limits the transfer.
//!
//! Styles: `sk_sndbuf` thick, `sk_wmem_queued` thin, the advertised window
//! dashed, the reader's unread bytes thin; each its own Okabe–Ito colour.

use super::chart_frame::{self as frame, Frame, Key, YAxis, shared_or};
use crate::palette::{Palette, series};
use crate::series::buffers::BufferSeries;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const SNDBUF_W: f64 = 2.5;
const THIN_W: f64 = 1.5;
const WINDOW_W: f64 = 2.0;

/// The top of the y axis for `data` alone; compare mode gives both runs
/// the higher of their two. The BDP is on the chart unless it is so far
/// above every buffer (case 5: 5 MB against 16 KB) that the buffers would
/// be flat lines at the bottom; it is then named at the top instead.
pub fn y_top(data: &BufferSeries) -> f64 {
    let bdp = match data.bdp_bytes <= 4.0 * data.max_bytes {
        true => data.bdp_bytes,
        false => 0.0,
    };
    (data.max_bytes.max(bdp) * 1.15).max(4096.0)
}

/// Bytes shown in KB up to a few MB, in MB above: (divisor, unit, axis).
fn unit(y_max: f64) -> (f64, &'static str, &'static str) {
    if y_max >= 4e6 {
        (1e6, "MB", "bytes (MB)")
    } else {
        (1e3, "KB", "bytes (KB)")
    }
}

/// Draws the four lines up to `cursor_ns` in colour and the rest faintly,
/// on a time axis to `end_ns`. Costs O(canvas width).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &BufferSeries,
    cursor_ns: f64,
    end_ns: f64,
    y_top: f64,
    pal: &Palette,
    scale: f64,
) -> super::Drawn<DB, super::time_axis::TimeAxis> {
    let f = Frame::new(root, pal, scale);
    let y_max = shared_or(y_top, || self::y_top(data));
    let (per, _, desc) = unit(y_max);
    let fmt = |v: &f64| frame::fmt_axis(v / per, y_max / per);
    let style = |i: usize, w: f64| f.line(series(i), w);
    let (sndbuf, wmem, window, unread, bdp) = if f.narrow {
        ("sndbuf", "queued", "window", "unread", "BDP")
    } else {
        (
            "sk_sndbuf",
            "sk_wmem_queued",
            "peer's window",
            "receiver unread",
            "BDP (rate × RTT)",
        )
    };
    let entries = [
        (sndbuf, Key::Line(style(0, SNDBUF_W))),
        (wmem, Key::Line(style(2, THIN_W))),
        (window, Key::Dashed(style(5, WINDOW_W))),
        (unread, Key::Line(style(3, THIN_W))),
        (bdp, Key::Dashed(f.line(f.pal.fg, 1.0))),
    ];
    let mut chart = frame::chart(
        root,
        &f,
        frame::x_max(end_ns, data.end_ns),
        YAxis {
            desc,
            max: y_max,
            fmt: &fmt,
        },
        &entries,
    )?;
    let col = frame::column_ns(&chart, &f);
    let x_end = data.end_ns.min(chart.x_range().end);
    // The BDP first, under the lines it is read against.
    let x_axis_end = chart.x_range().end;
    if data.bdp_bytes <= y_max {
        let level = vec![vec![(0.0, data.bdp_bytes), (x_axis_end, data.bdp_bytes)]];
        frame::draw_dashed(&mut chart, &f, level, f.line(f.pal.fg, 1.0))?;
    } else {
        let (per, unit_name, _) = unit(data.bdp_bytes);
        let v = data.bdp_bytes / per;
        let text = format!(
            "{bdp} {} {unit_name}, above the chart ↑",
            frame::fmt_axis(v, v)
        );
        let at = chart.backend_coord(&(x_axis_end, y_max));
        root.draw(&Text::new(
            text,
            (at.0 - f.px(4.0), at.1 + f.px(2.0)),
            f.font().pos(Pos::new(HPos::Right, VPos::Top)),
        ))?;
    }
    let lines = [
        (&data.sndbuf, series(0), SNDBUF_W, false),
        (&data.wmem_queued, series(2), THIN_W, false),
        (&data.window, series(5), WINDOW_W, true),
        (&data.unread, series(3), THIN_W, false),
    ];
    let pasts = frame::step_lines(&mut chart, &f, &lines, col, cursor_ns, x_end, y_max, false)?;
    for line in pasts {
        frame::draw_line(&mut chart, &f, line)?;
    }
    frame::cursor(&mut chart, &f, cursor_ns)?;
    frame::finish(root, &chart)
}
