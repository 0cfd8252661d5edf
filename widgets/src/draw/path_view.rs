//! The path between the hosts at one instant: data segments flying from the
//! server to the client (coloured by slow-start flight), ACKs flying back,
//! the bottleneck queue, drops, and the buffers at both ends.
//!
//! ```text
//!  ┌────────┐ [▮▮▮]▮ ▮ ▮ ▮ ▮ ─── 10 segments in flight ──► ┌────────┐
//!  │ server │ queue                                       │ client │
//!  │        │ ◄── · ·  ·   · ──────────── ← 10 ACKs ───── │        │
//!  └────────┘                                             └────────┘
//!  send buffer 46 KiB / 85 KiB        receive buffer 0 B / 128 KiB
//!  [██████████░░░░░░░░░]              [░░░░░░░░░░░░░░░░░░░░░░░░░░]
//! ```
//!
//! A lane with more packets on it than fit one per 3 CSS px is drawn as a
//! density band instead: one column per 2 CSS px, shaded by how many packets
//! it holds, with runs of equal columns merged. A frame then draws O(pixels)
//! shapes whatever the number in flight (17,000 on a 1 Gbit/s, 210 ms path),
//! and counts them in O(log packets) (see [`crate::series::path`]).

use crate::palette::{Palette, SERIES, series};
use crate::series::path::{Direction, PathSeries};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use sim_core::units::format_bytes;

pub use crate::series::path::OnPath;

/// Drops are vermillion and always drawn as a ✕ with a count beside it.
const DROP: RGBColor = SERIES[5];

/// Below this width in CSS px the view drops its secondary labels.
const NARROW_CSS_PX: f64 = 480.0;

/// Draws `path` at `t_ns` and returns what is on it then. `scale` multiplies
/// fonts, line widths and spacing (device-pixel ratio × presenter factor).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    path: &PathSeries,
    t_ns: f64,
    pal: &Palette,
    scale: f64,
) -> Result<OnPath, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&pal.bg)?;
    let on = path.at(t_ns);
    let (w, h) = root.dim_in_pixel();
    let g = Geometry::new(w as f64, h as f64, scale.max(0.1));
    let s = g.s;
    let font = ("sans-serif", 13.0 * s).into_font().color(&pal.fg);
    let small = ("sans-serif", 11.0 * s).into_font().color(&pal.fg);
    let muted = ("sans-serif", 11.0 * s).into_font().color(&pal.muted);
    let right = |f: &TextStyle<'static>| f.pos(Pos::new(HPos::Right, VPos::Top));

    // Hosts and lanes.
    for (x, name, role) in [
        (g.m, "server", "sender"),
        (g.client_x, "client", "receiver"),
    ] {
        root.draw(&Rectangle::new(
            [
                (x as i32, g.m as i32),
                ((x + g.host_w) as i32, g.lanes_bottom as i32),
            ],
            pal.muted.stroke_width(g.line(1.5)),
        ))?;
        root.draw(&Text::new(
            name,
            ((x + 6.0 * s) as i32, (g.m + 5.0 * s) as i32),
            font.clone(),
        ))?;
        if !g.narrow {
            root.draw(&Text::new(
                role,
                ((x + 6.0 * s) as i32, (g.m + 21.0 * s) as i32),
                muted.clone(),
            ))?;
        }
    }
    for y in [g.data_y, g.ack_y] {
        root.draw(&PathElement::new(
            vec![(g.x0 as i32, y as i32), (g.x1 as i32, y as i32)],
            pal.grid.stroke_width(g.line(1.0)),
        ))?;
    }

    // The bottleneck queue at the server's end of the data lane; its head
    // (the packet serialised next) on the right, by the link.
    let (qy0, qy1) = (
        g.data_y - g.seg_h / 2.0 - 2.0 * s,
        g.data_y + g.seg_h / 2.0 + 2.0 * s,
    );
    let queue = path.downlink.queued(t_ns);
    let slot = 3.0 * s;
    if queue.len() as f64 * slot <= g.qw - 2.0 * s {
        for (i, p) in path.downlink.packets()[queue.clone()].iter().enumerate() {
            let x = g.qx1 - 1.0 * s - (i + 1) as f64 * slot;
            root.draw(&Rectangle::new(
                [
                    (x as i32, (qy0 + 2.0 * s) as i32),
                    ((x + slot - s.max(1.0)) as i32, (qy1 - 2.0 * s) as i32),
                ],
                packet_colour(pal, p.flight, p.is_data()).filled(),
            ))?;
        }
    } else {
        let frac = (on.downlink.queued_bytes as f64 / path.queue_capacity.max(1) as f64).min(1.0);
        let fill_w = (frac * g.qw).max(2.0 * s);
        root.draw(&Rectangle::new(
            [
                ((g.qx1 - fill_w) as i32, qy0 as i32),
                (g.qx1 as i32, qy1 as i32),
            ],
            pal.accent.filled(),
        ))?;
    }
    root.draw(&Rectangle::new(
        [(g.qx0 as i32, qy0 as i32), (g.qx1 as i32, qy1 as i32)],
        pal.muted.stroke_width(g.line(1.0)),
    ))?;
    root.draw(&Text::new(
        format!("{} queued", grouped(on.downlink.queued)),
        (g.qx0 as i32, (qy1 + 3.0 * s) as i32),
        small.clone(),
    ))?;
    if on.uplink.queued > 0 && !g.narrow {
        root.draw(&Text::new(
            format!("{} queued", grouped(on.uplink.queued)),
            (g.x1 as i32, (g.ack_y - 18.0 * s) as i32),
            right(&muted),
        ))?;
    }

    // Packets on the wire.
    let downlink = path.downlink.on_wire(t_ns);
    let uplink = path.uplink.on_wire(t_ns);
    let room = (g.lane / (3.0 * s)).floor() as usize;
    let mut retransmits = 0;
    if downlink.len() <= room {
        for p in &path.downlink.packets()[downlink.clone()] {
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
    } else {
        retransmits = path.downlink.retransmits_in(downlink.clone());
        density_band(root, path, &path.downlink, t_ns, &g, pal, Lane::Data)?;
    }
    if uplink.len() <= room {
        for p in &path.uplink.packets()[uplink.clone()] {
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
    } else {
        density_band(root, path, &path.uplink, t_ns, &g, pal, Lane::Acks)?;
    }

    // Counts, so nothing depends on colour or on counting dots.
    let data_label = match (g.narrow, on.downlink.data) {
        (true, n) => format!("{} in flight →", grouped(n)),
        (false, 1) => "data → 1 segment in flight".to_string(),
        (false, n) => format!("data → {} segments in flight", grouped(n)),
    };
    root.draw(&Text::new(
        data_label,
        (g.x0 as i32, (g.data_y - g.seg_h / 2.0 - 19.0 * s) as i32),
        small.clone(),
    ))?;
    let acks = on.uplink.acks;
    let ack_label = match (g.narrow, acks) {
        (true, n) => format!("← {} ACKs", grouped(n)),
        (false, 1) => "← 1 ACK in flight".to_string(),
        (false, n) => format!("← {} ACKs in flight", grouped(n)),
    };
    root.draw(&Text::new(
        ack_label,
        (g.x1 as i32, (g.ack_y + 7.0 * s) as i32),
        right(&small),
    ))?;
    if retransmits > 0 {
        let label = if g.narrow {
            format!("▼ {} resent", grouped(retransmits))
        } else {
            format!("▼ {} retransmitted", grouped(retransmits))
        };
        root.draw(&Text::new(
            label,
            (g.x1 as i32, (g.data_y + g.seg_h / 2.0 + 3.0 * s) as i32),
            right(&small),
        ))?;
    }

    // Drops, for a moment after they happen, where they happen: at the
    // entrance of the link (its queue), as a ✕ and a count.
    let shown_ns = path.max_transit_ns as f64 / 2.0;
    for (dir, x, y, label_y, anchor) in [
        (&path.downlink, g.qx0, g.data_y, qy1 + 16.0 * s, HPos::Left),
        (&path.uplink, g.x1, g.ack_y, g.ack_y - 32.0 * s, HPos::Right),
    ] {
        let recent = dir.drops_between(t_ns - shown_ns, t_ns).len();
        if recent == 0 {
            continue;
        }
        let d = 6.0 * s;
        for (a, b) in [((-d, -d), (d, d)), ((-d, d), (d, -d))] {
            root.draw(&PathElement::new(
                vec![
                    ((x + a.0) as i32, (y + a.1) as i32),
                    ((x + b.0) as i32, (y + b.1) as i32),
                ],
                DROP.stroke_width(g.line(2.5)),
            ))?;
        }
        root.draw(&Text::new(
            format!("✕ {} dropped", grouped(recent)),
            (x as i32, label_y as i32),
            small.pos(Pos::new(anchor, VPos::Top)),
        ))?;
    }

    if !on.recorded
        && let Some(end) = path.packets_until_ns
    {
        root.draw(&Text::new(
            format!(
                "packet records end at {:.2} s (trace budget)",
                end as f64 / 1e9
            ),
            (
                ((g.x0 + g.x1) / 2.0) as i32,
                ((g.data_y + g.ack_y) / 2.0 - 6.0 * s) as i32,
            ),
            muted.pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
    }

    buffer_bars(root, &on, &g, pal)?;
    root.present()?;
    Ok(on)
}

/// Where everything goes, in device pixels.
struct Geometry {
    s: f64,
    narrow: bool,
    /// Margin.
    m: f64,
    host_w: f64,
    client_x: f64,
    lanes_bottom: f64,
    data_y: f64,
    ack_y: f64,
    seg_h: f64,
    /// The queue box.
    qx0: f64,
    qx1: f64,
    qw: f64,
    /// The lanes.
    x0: f64,
    x1: f64,
    lane: f64,
    /// Density-band column width.
    col: f64,
    w: f64,
}

impl Geometry {
    fn new(w: f64, h: f64, s: f64) -> Self {
        let narrow = w / s < NARROW_CSS_PX;
        let m = 6.0 * s;
        let host_w = (w * 0.12).clamp(52.0 * s, 100.0 * s);
        let lanes_bottom = h - m - 32.0 * s;
        let span = lanes_bottom - m;
        let qw = if narrow { 30.0 * s } else { 48.0 * s };
        let qx0 = m + host_w + 4.0 * s;
        let x0 = qx0 + qw + 3.0 * s;
        let client_x = w - m - host_w;
        let x1 = client_x - 4.0 * s;
        Geometry {
            s,
            narrow,
            m,
            host_w,
            client_x,
            lanes_bottom,
            data_y: m + span * 0.40,
            ack_y: m + span * 0.80,
            seg_h: if narrow { 10.0 * s } else { 12.0 * s },
            qx0,
            qx1: qx0 + qw,
            qw,
            x0,
            x1,
            lane: (x1 - x0).max(1.0),
            col: (2.0 * s).round().max(1.0),
            w,
        }
    }

    /// A line `css_px` wide, at least one device pixel.
    fn line(&self, css_px: f64) -> u32 {
        (css_px * self.s).round().max(1.0) as u32
    }
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

fn packet_colour(pal: &Palette, flight: u32, data: bool) -> RGBColor {
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
    // (first column, past the last, colour, shade level, retransmissions)
    let mut runs: Vec<(usize, usize, RGBColor, u32, usize)> = Vec::new();
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

/// The server's send buffer under its end, the client's receive buffer under its end.
fn buffer_bars<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    on: &OnPath,
    g: &Geometry,
    pal: &Palette,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let s = g.s;
    let small = ("sans-serif", 11.0 * s).into_font().color(&pal.fg);
    let label_y = g.lanes_bottom + 4.0 * s;
    let (bar_y0, bar_y1) = (label_y + 15.0 * s, label_y + 25.0 * s);
    let halves = [(g.m, g.w / 2.0 - 6.0 * s), (g.w / 2.0 + 6.0 * s, g.w - g.m)];
    let (send_name, recv_name) = if g.narrow {
        ("send buf", "recv buf")
    } else {
        ("send buffer", "receive buffer")
    };
    let Some(b) = on.buffers else {
        for ((x0, _), name) in halves.iter().zip([send_name, recv_name]) {
            root.draw(&Text::new(
                format!("{name}: no sample yet"),
                (*x0 as i32, label_y as i32),
                small.clone(),
            ))?;
        }
        return Ok(());
    };
    let mut send = format!(
        "{send_name} {} / {}",
        format_bytes(b.wmem_queued),
        format_bytes(b.sndbuf)
    );
    if !g.narrow && b.notsent > 0 {
        send.push_str(&format!(", {} not sent", format_bytes(b.notsent)));
    }
    let mut recv = format!(
        "{recv_name} {} / {}",
        format_bytes(b.unread),
        format_bytes(b.rcvbuf)
    );
    if !g.narrow {
        recv.push_str(&format!(", window {}", format_bytes(b.window)));
    }
    for ((x0, x1), label, level, size, part) in [
        (halves[0], send, b.wmem_queued, b.sndbuf, b.notsent),
        (halves[1], recv, b.unread, b.rcvbuf, 0),
    ] {
        root.draw(&Text::new(
            label,
            (x0 as i32, label_y as i32),
            small.clone(),
        ))?;
        let bw = x1 - x0;
        let frac = |v: u64| (v as f64 / size.max(1) as f64).min(1.0);
        let fill = frac(level) * bw;
        // The send buffer's not-yet-sent tail is lighter, behind a divider.
        let tail = (frac(part) * bw).min(fill);
        let xa = x0 + fill - tail;
        if xa - x0 >= 1.0 {
            root.draw(&Rectangle::new(
                [(x0 as i32, bar_y0 as i32), (xa as i32, bar_y1 as i32)],
                pal.accent.filled(),
            ))?;
        }
        if tail >= 1.0 {
            root.draw(&Rectangle::new(
                [
                    (xa as i32, bar_y0 as i32),
                    ((x0 + fill) as i32, bar_y1 as i32),
                ],
                pal.accent.mix(0.4).filled(),
            ))?;
            root.draw(&PathElement::new(
                vec![(xa as i32, bar_y0 as i32), (xa as i32, bar_y1 as i32)],
                pal.fg.stroke_width(g.line(1.0)),
            ))?;
        }
        root.draw(&Rectangle::new(
            [(x0 as i32, bar_y0 as i32), (x1 as i32, bar_y1 as i32)],
            pal.muted.stroke_width(g.line(1.0)),
        ))?;
    }
    Ok(())
}

/// 17400 → "17,400".
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn counts_are_grouped_in_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(17_400), "17,400");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }
}
