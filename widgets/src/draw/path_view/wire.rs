//! The packets on the wire: one by one while they fit a lane (data as bars
//! as long as their serialisation, ACKs as dots), else as a density band.

use super::Geometry;
use crate::palette::{Palette, series};
use crate::series::path::{Direction, PathSeries};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The data lane, server to client; returns the retransmissions on it.
pub(super) fn data_lane<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    path: &PathSeries,
    t_ns: f64,
    g: &Geometry,
    pal: &Palette,
) -> Result<usize, DrawingAreaErrorKind<DB::ErrorType>> {
    let s = g.s;
    let downlink = path.downlink.on_wire(t_ns);
    let room = (g.lane / (3.0 * s)).floor() as usize;
    if downlink.len() > room {
        density_band(root, path, &path.downlink, t_ns, g, pal, Lane::Data)?;
        return Ok(path.downlink.retransmits_in(downlink));
    }
    let mut retransmits = 0;
    for p in &path.downlink.packets()[downlink] {
        let frac = progress(p.departs, p.arrives, t_ns);
        let x = g.x0 + frac * g.lane;
        if p.is_data() {
            let seg_w = wire_width(path, p.wire, p.arrives - p.departs, g.lane, s);
            root.draw(&Rectangle::new(
                [
                    ((x - seg_w) as i32, (g.data_y - g.seg_h / 2.0) as i32),
                    (x as i32, (g.data_y + g.seg_h / 2.0) as i32),
                ],
                packet_colour(pal, p.flight, true).filled(),
            ))?;
            if p.retransmit {
                retransmits += 1;
                root.draw(&retransmit_mark(
                    x - seg_w / 2.0,
                    g.data_y - g.seg_h / 2.0,
                    s,
                    pal,
                ))?;
            }
        } else {
            let colour = if p.syn { pal.accent } else { pal.fg };
            root.draw(&Circle::new(
                (x as i32, g.data_y as i32),
                (3.0 * s).max(2.0) as u32,
                colour.filled(),
            ))?;
        }
    }
    Ok(retransmits)
}

/// The ACK lane, client to server (data the client sends shows muted).
pub(super) fn ack_lane<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    path: &PathSeries,
    t_ns: f64,
    g: &Geometry,
    pal: &Palette,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let s = g.s;
    let uplink = path.uplink.on_wire(t_ns);
    let room = (g.lane / (3.0 * s)).floor() as usize;
    if uplink.len() > room {
        return density_band(root, path, &path.uplink, t_ns, g, pal, Lane::Acks);
    }
    for p in &path.uplink.packets()[uplink] {
        let frac = progress(p.departs, p.arrives, t_ns);
        let x = g.x1 - frac * g.lane;
        if p.is_data() {
            let seg_w = wire_width(path, p.wire, p.arrives - p.departs, g.lane, s);
            root.draw(&Rectangle::new(
                [
                    (x as i32, (g.ack_y - g.seg_h / 3.0) as i32),
                    ((x + seg_w) as i32, (g.ack_y + g.seg_h / 3.0) as i32),
                ],
                pal.muted.filled(),
            ))?;
        } else {
            let colour = if p.syn { pal.accent } else { pal.fg };
            root.draw(&Circle::new(
                (x as i32, g.ack_y as i32),
                (3.0 * s).max(2.0) as u32,
                colour.filled(),
            ))?;
        }
    }
    Ok(())
}

/// How far along its lane a packet is at `t_ns`, 0 (leaving) to 1 (arriving).
fn progress(departs: u64, arrives: u64, t_ns: f64) -> f64 {
    ((t_ns - departs as f64) / (arrives - departs).max(1) as f64).clamp(0.0, 1.0)
}

/// A packet is as long as it is on the wire (its serialisation time), at
/// least 1 px and at most 6 CSS px, less a gap so back-to-back packets stay
/// countable.
fn wire_width(path: &PathSeries, wire: u32, transit_ns: u64, lane: f64, s: f64) -> f64 {
    let ser_ns = wire as f64 * 8.0 / path.rate_bps.max(1.0) * 1e9;
    (lane * ser_ns / transit_ns.max(1) as f64 - s).clamp(1.0, 6.0 * s)
}

/// A packet's colour: data by its slow-start flight, anything else in ink.
pub(super) fn packet_colour(pal: &Palette, flight: u32, data: bool) -> RGBColor {
    if data {
        series(flight.saturating_sub(1) as usize)
    } else {
        pal.fg
    }
}

/// A small ▼ above a retransmitted segment.
fn retransmit_mark(x: f64, top: f64, s: f64, pal: &Palette) -> Polygon<(i32, i32)> {
    let d = 3.5 * s;
    Polygon::new(
        vec![
            ((x - d) as i32, (top - 2.0 * s - 2.0 * d) as i32),
            ((x + d) as i32, (top - 2.0 * s - 2.0 * d) as i32),
            (x as i32, (top - 2.0 * s) as i32),
        ],
        pal.fg.filled(),
    )
}

#[derive(Clone, Copy, PartialEq)]
enum Lane {
    Data,
    Acks,
}

/// Shade levels of a density band.
const SHADES: f64 = 5.0;

/// One lane's packets as a band: a column per `g.col` px holds the packets
/// whose position falls in it, shaded by their number; runs of columns that
/// look the same are drawn as one rectangle. Positions come from each
/// packet's departure time over the lane's nominal transit time (propagation
/// plus one full packet's serialisation), exact to within one packet's
/// serialisation, and every packet on the wire is in exactly one column.
fn density_band<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    path: &PathSeries,
    dir: &Direction,
    t_ns: f64,
    g: &Geometry,
    pal: &Palette,
    lane: Lane,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let wire = dir.on_wire(t_ns);
    let columns = (g.lane / g.col).ceil().max(1.0) as usize;
    let ser_ns = dir.max_wire as f64 * 8.0 / path.rate_bps.max(1.0) * 1e9;
    let transit = dir.delay_ns as f64 + ser_ns;
    let step = transit / columns as f64;
    // Column k (from the sending end) holds departures in (t − (k+1)·step, t − k·step].
    let bound = |k: usize| {
        if k >= columns {
            wire.start
        } else {
            dir.departed_by(t_ns - k as f64 * step)
                .clamp(wire.start, wire.end)
        }
    };
    let counts: Vec<(usize, usize)> = (0..columns)
        .scan(bound(0), |hi, k| {
            let lo = bound(k + 1);
            let r = (lo, *hi);
            *hi = lo;
            Some(r)
        })
        .collect();
    let full = match lane {
        // A column is solid when it is as full as a busy link makes it.
        Lane::Data => (step / 1e9 * path.rate_bps / 8.0 / dir.max_wire.max(1) as f64).max(1.0),
        Lane::Acks => counts.iter().map(|(a, b)| b - a).max().unwrap_or(1).max(1) as f64,
    };
    let (y, half) = match lane {
        Lane::Data => (g.data_y, g.seg_h / 2.0),
        Lane::Acks => (g.ack_y, g.seg_h / 4.0),
    };
    let x_of = |k: usize| match lane {
        Lane::Data => g.x0 + k as f64 * g.col,
        Lane::Acks => g.x1 - k as f64 * g.col,
    };
    let runs = shade_runs(&counts, full, dir, pal, lane);
    for &(a, b, colour, level, _) in &runs {
        let (xa, xb) = (x_of(a), x_of(b).clamp(g.x0, g.x1));
        root.draw(&Rectangle::new(
            [
                (xa.min(xb) as i32, (y - half) as i32),
                (xa.max(xb) as i32, (y + half) as i32),
            ],
            colour.mix(level as f64 / SHADES).filled(),
        ))?;
    }
    if lane == Lane::Data {
        // Retransmissions keep their ▼ in the band, one per run of columns.
        for &(a, b, _, _, resent) in &runs {
            if resent > 0 {
                let x = (x_of(a) + x_of(b)) / 2.0;
                root.draw(&retransmit_mark(x, y - half, g.s, pal))?;
            }
        }
    }
    Ok(())
}

/// Columns that look alike, merged: (first column, past the last, colour,
/// shade level, retransmissions in them).
type ShadeRun = (usize, usize, RGBColor, u32, usize);

/// The columns' packets (index ranges into `dir`'s packets, `full` of them
/// making a solid column) as runs of equal colour and shade; empty columns
/// are left out.
fn shade_runs(
    counts: &[(usize, usize)],
    full: f64,
    dir: &Direction,
    pal: &Palette,
    lane: Lane,
) -> Vec<ShadeRun> {
    let mut runs: Vec<ShadeRun> = Vec::new();
    for (k, &(lo, hi)) in counts.iter().enumerate() {
        let n = hi - lo;
        if n == 0 {
            continue;
        }
        let colour = match lane {
            Lane::Data => {
                let p = &dir.packets()[hi - 1];
                packet_colour(pal, p.flight, p.is_data())
            }
            Lane::Acks => pal.fg,
        };
        let level = ((n as f64 / full).min(1.0) * SHADES).ceil().max(1.0) as u32;
        let resent = dir.retransmits_in(lo..hi);
        match runs.last_mut() {
            Some(r) if r.1 == k && r.2 == colour && r.3 == level => {
                r.1 = k + 1;
                r.4 += resent;
            }
            _ => runs.push((k, k + 1, colour, level, resent)),
        }
    }
    runs
}
