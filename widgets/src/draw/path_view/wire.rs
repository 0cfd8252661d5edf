//! The packets on the wire: one by one while they fit a lane (data as bars
//! as long as their serialisation, ACKs as dots), else as a density band.

use super::{Drawn, Painter};
use crate::palette::{Palette, series};
use crate::series::path::{Direction, Packet, PathSeries};
use plotters::prelude::*;
use sim_core::units::Within;

impl<DB: DrawingBackend> Painter<'_, DB> {
    /// The data lane, server to client; returns the retransmissions on it.
    #[inline(always)]
    pub(super) fn data_lane(&self) -> Drawn<DB, usize> {
        let (root, g, pal, s) = (self.root, &self.g, self.pal, self.g.s);
        let dir = &self.path.downlink;
        let Some(packets) = self.one_by_one(dir) else {
            self.density_band(dir, Lane::Data)?;
            return Ok(dir.retransmits_in(dir.on_wire(self.t_ns)));
        };
        let mut retransmits = 0;
        for p in packets {
            let x = g.x0 + self.along(p);
            if p.is_data() {
                let seg_w = self.length(p);
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
                root.draw(&self.dot(p, x, g.data_y))?;
            }
        }
        Ok(retransmits)
    }

    /// The ACK lane, client to server (data the client sends shows muted).
    #[inline(always)]
    pub(super) fn ack_lane(&self) -> Drawn<DB> {
        let (root, g, pal) = (self.root, &self.g, self.pal);
        let dir = &self.path.uplink;
        let Some(packets) = self.one_by_one(dir) else {
            return self.density_band(dir, Lane::Acks);
        };
        for p in packets {
            let x = g.x1 - self.along(p);
            if p.is_data() {
                let seg_w = self.length(p);
                root.draw(&Rectangle::new(
                    [
                        (x as i32, (g.ack_y - g.seg_h / 3.0) as i32),
                        ((x + seg_w) as i32, (g.ack_y + g.seg_h / 3.0) as i32),
                    ],
                    pal.muted.filled(),
                ))?;
            } else {
                root.draw(&self.dot(p, x, g.ack_y))?;
            }
        }
        Ok(())
    }

    /// The packets of `dir` on the wire, if they fit its lane one by one
    /// (3 CSS px each).
    fn one_by_one<'d>(&self, dir: &'d Direction) -> Option<&'d [Packet]> {
        let wire = dir.on_wire(self.t_ns);
        let room = (self.g.lane / (3.0 * self.g.s)).floor() as usize;
        (wire.len() <= room).then(|| &dir.packets()[wire])
    }

    /// How far along its lane `p` is, in px from where it left.
    fn along(&self, p: &Packet) -> f64 {
        progress(p.departs, p.arrives, self.t_ns) * self.g.lane
    }

    /// `p`'s length on screen (see [`wire_width`]).
    fn length(&self, p: &Packet) -> f64 {
        wire_width(
            self.path,
            p.wire,
            p.arrives - p.departs,
            self.g.lane,
            self.g.s,
        )
    }

    /// A packet without data: a dot, accented for a SYN, an ACK in the
    /// colour of the flight it acknowledges.
    fn dot(&self, p: &Packet, x: f64, y: f64) -> Circle<(i32, i32), u32> {
        let colour = if p.syn {
            self.pal.accent
        } else if p.flight > 0 {
            packet_colour(self.pal, p.flight, true)
        } else {
            self.pal.fg
        };
        Circle::new(
            (x as i32, y as i32),
            (3.0 * self.g.s).max(2.0) as u32,
            colour.filled(),
        )
    }

    /// One lane's packets as a band: a column per `g.col` px holds the packets
    /// whose position falls in it, shaded by their number; runs of columns that
    /// look the same are drawn as one rectangle. Positions come from each
    /// packet's departure time over the lane's nominal transit time (propagation
    /// plus one full packet's serialisation), exact to within one packet's
    /// serialisation, and every packet on the wire is in exactly one column.
    fn density_band(&self, dir: &Direction, lane: Lane) -> Drawn<DB> {
        let (root, g, pal, path, t_ns) = (self.root, &self.g, self.pal, self.path, self.t_ns);
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
            let (xa, xb) = (x_of(a), x_of(b).within(g.x0, g.x1));
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
}

#[derive(Clone, Copy, PartialEq)]
enum Lane {
    Data,
    Acks,
}

/// Shade levels of a density band.
const SHADES: f64 = 5.0;

/// How far along its lane a packet is at `t_ns`, 0 (leaving) to 1 (arriving).
fn progress(departs: u64, arrives: u64, t_ns: f64) -> f64 {
    ((t_ns - departs as f64) / (arrives - departs).max(1) as f64).within(0.0, 1.0)
}

/// A packet is as long as it is on the wire (its serialisation time), at
/// least 1 px and at most 6 CSS px, less a gap so back-to-back packets stay
/// countable.
fn wire_width(path: &PathSeries, wire: u32, transit_ns: u64, lane: f64, s: f64) -> f64 {
    let ser_ns = wire as f64 * 8.0 / path.rate_bps.max(1.0) * 1e9;
    (lane * ser_ns / transit_ns.max(1) as f64 - s).within(1.0, 6.0 * s)
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
