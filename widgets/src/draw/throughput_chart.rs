//! Throughput per interval (Mbit/s) as bars, with the bottleneck rate as a
//! dashed line when it is in range and the time cursor. Intervals complete
//! by the cursor are filled in colour, later ones faintly. About 50 bars:
//! the cost never depends on the run.

use super::chart_frame::{self as frame, DrawResult, Frame, Key, YAxis};
use crate::palette::{Palette, series};
use crate::series::throughput::ThroughputSeries;
use plotters::coord::Shift;
use plotters::prelude::*;

pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &ThroughputSeries,
    cursor_ns: f64,
    end_ns: f64,
    pal: &Palette,
    scale: f64,
) -> DrawResult<DB> {
    let f = Frame::new(root, pal, scale);
    let peak = data.max_mbps();
    let link = data.link_bps / 1e6;
    // The link rate is drawn when it does not flatten the bars.
    let show_link = link > 0.0 && link <= (peak * 1.5).max(f64::MIN_POSITIVE);
    let y_max = (if show_link { peak.max(link) } else { peak } * 1.25).max(0.01);
    let fmt = |v: &f64| frame::fmt_axis(*v, y_max);
    let mut chart = frame::chart(
        root,
        &f,
        frame::x_max(end_ns, data.end_ns),
        YAxis {
            desc: "throughput (Mbit/s)",
            max: y_max,
            fmt: &fmt,
        },
    )?;
    let iv = data.interval_ns as f64;
    let inset = iv * 0.08;
    let bar_style = series(0).filled();
    chart.draw_series(
        (0..data.bytes.len())
            .filter(|&i| data.bytes[i] > 0)
            .map(|i| {
                let (x0, x1) = (data.start_ns(i), data.start_ns(i + 1));
                let style = if x1 <= cursor_ns {
                    bar_style
                } else {
                    f.pal.grid.filled()
                };
                Rectangle::new([(x0 + inset, 0.0), (x1 - inset, data.mbps(i))], style)
            }),
    )?;
    let link_style = f.line(f.pal.fg, 1.5);
    if show_link {
        let x_end = chart.x_range().end;
        frame::draw_dashed(
            &mut chart,
            &f,
            vec![vec![(0.0, link), (x_end, link)]],
            link_style,
        )?;
    }
    let secs = iv / 1e9;
    let label = if secs >= 1.0 {
        format!("delivered per {secs} s")
    } else {
        format!("delivered per {} ms", iv / 1e6)
    };
    let mut entries = vec![(label.as_str(), Key::Bar(bar_style))];
    if show_link {
        entries.push(("bottleneck rate", Key::Dashed(link_style)));
    }
    frame::legend(&chart, &f, &entries)?;
    frame::cursor(&mut chart, &f, cursor_ns)?;
    root.present()
}
