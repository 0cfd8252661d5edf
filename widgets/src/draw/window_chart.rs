//! cwnd, ssthresh and outstanding data (segments) over time, with the time
//! cursor: the sender's view of how much it may send and how much it has out.
//!
//! Styles: cwnd thick solid, ssthresh dashed, outstanding thin solid; each
//! in its own Okabe–Ito colour, so the lines differ without colour too.

use super::Drawn;
use super::annotations;
use super::bbr_estimates;
use super::chart_frame::{self as frame, Chart, DrawResult, Frame, Key, YAxis, shared_or};
use super::cubic_curve;
use super::log_scale;
use super::time_axis::TimeAxis;
use crate::palette::{Palette, series};
use crate::series::window::WindowSeries;
use plotters::coord::Shift;
use plotters::prelude::*;
use sim_core::units::Within;

const CWND_W: f64 = 2.5;
const SSTHRESH_W: f64 = 2.0;
const OUTSTANDING_W: f64 = 1.0;

/// The top of the y axis for `data` alone; compare mode gives both runs
/// the higher of their two.
pub fn y_top(data: &WindowSeries) -> f64 {
    (data.max_segments * 1.2).max(4.0)
}

/// Draws the three step lines up to `cursor_ns` in colour and the rest
/// faintly, on a time axis to `end_ns`. Costs O(canvas width).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &WindowSeries,
    cursor_ns: f64,
    end_ns: f64,
    y_top: f64,
    pal: &Palette,
    scale: f64,
) -> DrawResult<DB> {
    draw_scaled(root, data, cursor_ns, end_ns, y_top, pal, scale, false).map(|_| ())
}

/// [`draw`] on a linear or a log₂ y axis (`log`), with the run's notes;
/// returns where it put time.
#[allow(clippy::too_many_arguments)]
pub fn draw_scaled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &WindowSeries,
    cursor_ns: f64,
    end_ns: f64,
    y_top: f64,
    pal: &Palette,
    scale: f64,
    log: bool,
) -> Drawn<DB, TimeAxis> {
    let f = Frame::new(root, pal, scale);
    let y_max = shared_or(y_top, || self::y_top(data));
    let fmt = |v: &f64| frame::fmt_axis(*v, y_max);
    let outstanding = if f.narrow {
        "outstanding"
    } else {
        "outstanding (snd_nxt − snd_una)"
    };
    let cc = &data.cc;
    let mut entries = vec![
        ("cwnd", Key::Line(f.line(series(0), CWND_W))),
        ("ssthresh", Key::Dashed(f.line(series(5), SSTHRESH_W))),
        (outstanding, Key::Line(f.line(series(2), OUTSTANDING_W))),
    ];
    entries.extend(bbr_estimates::keys(&f, !cc.bdp.is_empty(), &cc.phases));
    entries.extend(cubic_curve::keys(&f, &cc.epochs));
    let mut chart = frame::chart_scaled(
        root,
        &f,
        frame::x_max(end_ns, data.end_ns),
        YAxis {
            desc: if log {
                "window (segments, log scale)"
            } else {
                "window (segments)"
            },
            max: y_max,
            fmt: &fmt,
        },
        &entries,
        log,
    )?;
    let y_axis = |v: f64| if log { log_scale::axis(v) } else { v };
    let col = frame::column_ns(&chart, &f);
    let x_end = data.end_ns.min(chart.x_range().end);
    // Outstanding last: in slow start it runs along cwnd, thin on the thick line.
    // BBR's BDP estimate first, under the window lines it explains.
    let colours = [
        (
            &cc.bdp,
            bbr_estimates::BDP_COLOUR,
            bbr_estimates::BDP_W,
            false,
        ),
        (&data.cwnd, series(0), CWND_W, false),
        (&data.ssthresh, series(5), SSTHRESH_W, true),
        (&data.outstanding, series(2), OUTSTANDING_W, false),
    ];
    // Each line's faint future goes under every line's coloured past.
    let past_lines =
        frame::step_lines(&mut chart, &f, &colours, col, cursor_ns, x_end, y_max, log)?;
    cubic_curve::draw(&mut chart, &f, &cc.epochs, cursor_ns, y_max, &y_axis)?;
    for line in past_lines {
        frame::draw_line(&mut chart, &f, line)?;
    }
    mode_band(&chart, &f, data, cursor_ns, x_end)?;
    frame::cursor(&mut chart, &f, cursor_ns)?;
    annotations::draw(root, &chart, &f, &data.notes, &y_axis, cursor_ns)?;
    frame::finish(root, &chart)
}

/// BBR's modes as a band along the bottom of the plot, one colour each,
/// named where there is room (`tcp_bbr.c`'s `bbr_mode`: Startup, Drain,
/// ProbeBW, ProbeRTT); faint after the cursor, as the lines are. Drawn
/// before the cursor, which covers the future in predict mode. ProbeBW's
/// gain phases are shaded over it (`bbr_estimates::gain_phases`).
fn mode_band<'a, DB: DrawingBackend + 'a>(
    chart: &Chart<'a, DB>,
    f: &Frame,
    data: &WindowSeries,
    cursor_ns: f64,
    x_end: f64,
) -> DrawResult<DB> {
    let modes = &data.modes;
    const NAMES: [(&str, &str); 4] = [
        ("startup", "Startup"),
        ("drain", "Drain"),
        ("probe_bw", "ProbeBW"),
        ("probe_rtt", "ProbeRTT"),
    ];
    let area = chart.plotting_area().strip_coord_spec();
    let base_x = area.get_base_pixel().0;
    let h = area.dim_in_pixel().1 as i32;
    let band = f.px(12.0);
    let x = |t: f64| chart.backend_coord(&(t.within(0.0, x_end), 0.0)).0 - base_x;
    let mut labels = Vec::new();
    for (i, &(t0, mode)) in modes.iter().enumerate() {
        let t1 = modes.get(i + 1).map_or(x_end, |m| m.0);
        let k = NAMES.iter().position(|n| n.0 == mode).unwrap_or(0);
        // At least a pixel wide: Drain may last a few round trips.
        let (x0, x1) = (x(t0), x(t1).max(x(t0) + 1));
        let xc = if cursor_ns >= t1 {
            x1
        } else {
            x(cursor_ns.max(t0)).clamp(x0, x1)
        };
        for (a, b, colour) in [(x0, xc, series(k + 3)), (xc, x1, f.pal.grid)] {
            if b > a {
                area.draw(&Rectangle::new([(a, h - band), (b, h)], colour.filled()))?;
            }
        }
        let label = NAMES[k].1;
        // Named in its coloured (past) part only: on the faint rest a
        // label would not read in dark themes.
        if xc - x0 > f.px(8.0 * label.len() as f64) {
            labels.push((label, x0 + f.px(2.0)));
        }
    }
    bbr_estimates::gain_phases(
        &area,
        f,
        &x,
        (h - band, h),
        &data.cc.phases,
        cursor_ns,
        x_end,
    )?;
    // The names last, over the gain phases' shading.
    for (label, x0) in labels {
        area.draw(&Text::new(label, (x0, h - band), f.font().color(&BLACK)))?;
    }
    Ok(())
}
