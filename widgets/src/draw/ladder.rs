//! The ladder diagram (message sequence chart): the two hosts as vertical
//! lines, time flowing down, every segment an arrow from its sender at the
//! time it left to its receiver at the time it arrived.
//!
//! ```text
//!  time (ms)   client                 server
//!      0 ──────│── SYN ───────────┐    │
//!              │                  └──▶ │
//!      3.5 ────│    ┌────── SYN-ACK ───│
//!              │ ◀──┘                  │
//!      7 ──────│── seq 1:301 ─────┐    │
//!   Nagle     ┃│                  └──▶ │┃ delayed ACK
//!   1000 B    ┃│                       │┃ 23.4 ms
//!   held ═════┃│═══════ cursor ════════│┃═════════════
//! ```
//!
//! Line styles say what a segment is even without colour: data solid and
//! thick, pure ACKs short-dashed and thin, SYN/FIN solid and medium,
//! retransmissions long-dashed and thick (and labelled `retx`); a dropped
//! segment's arrow stops half way at a ✕. Segments sent after the cursor are
//! not drawn and the one in flight is drawn up to where it is, so playing the
//! animation grows the ladder.
//!
//! **Visible time span.** An exchange of at most [`FULL_VIEW_SEGMENTS`]
//! segments is shown whole, on a fixed axis. A longer one shows a window
//! ending just after the cursor and starting where the
//! [`WINDOW_SEGMENTS`]th most recent segment was sent, but never shorter
//! than one round trip of the path (so a segment and its answer both fit).
//! Arrows closer than a device pixel to one already drawn (same host, same
//! kind) would only thicken it and are skipped, and at most [`MAX_ARROWS`]
//! are drawn, the most recent first. A frame costs a binary search plus the
//! segments near the window, however long the run.

use crate::palette::{Palette, SERIES};
use crate::series::ladder::{CountdownKind, Ladder, Timer, Transmission};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use sim_core::segment::Side;

/// Exchanges with at most this many segments are drawn whole.
pub const FULL_VIEW_SEGMENTS: usize = 60;
/// A longer exchange shows (at least) this many of the latest segments.
pub const WINDOW_SEGMENTS: usize = 40;
/// Arrows drawn at most in one frame.
pub const MAX_ARROWS: usize = 150;

// Okabe–Ito colours by role.
const DATA: RGBColor = SERIES[0]; // blue
const DELACK: RGBColor = SERIES[1]; // orange
const ACK: RGBColor = SERIES[2]; // bluish green
const CONTROL: RGBColor = SERIES[3]; // reddish purple
const HOLD: RGBColor = SERIES[4]; // sky blue
const RETX: RGBColor = SERIES[5]; // vermillion

/// What a frame drew, for tests and the widget's text.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LadderDrawn {
    /// Arrows drawn (whole, clipped by the window, or still in flight).
    pub arrows: usize,
    /// Arrow labels written.
    pub labels: usize,
    /// ✕ marks for dropped segments.
    pub drops: usize,
    /// Countdown bars (delayed-ACK timers, Nagle and cork holds) drawn.
    pub countdowns: usize,
    /// The time span shown, top to bottom.
    pub window_ns: (f64, f64),
}

/// The time span drawn with the cursor at `cursor_ns` (see the module docs).
pub fn window_ns(ladder: &Ladder, cursor_ns: f64) -> (f64, f64) {
    let first = ladder.segments.first().map_or(0.0, |s| s.sent_ns as f64);
    let end = (ladder.end_ns as f64).max(first + 1e3);
    if ladder.segments.len() <= FULL_VIEW_SEGMENTS {
        let span = end - first;
        return (first - span * 0.02, end + span * 0.04);
    }
    let cursor = if cursor_ns.is_finite() {
        cursor_ns.clamp(first, end)
    } else {
        end
    };
    let k = ladder.sent_by(cursor);
    let from = if k > WINDOW_SEGMENTS {
        ladder.segments[k - WINDOW_SEGMENTS].sent_ns as f64
    } else {
        first
    };
    let rtt = (ladder.one_way_ns[0] + ladder.one_way_ns[1]) as f64;
    let span = (cursor - from).max(rtt).max(1e3);
    let t0 = (cursor - span).max(first);
    (t0 - span * 0.02, t0 + span * 1.05)
}

/// How an arrow is drawn.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Data,
    Ack,
    Control,
    Retransmit,
}

impl Style {
    fn of(s: &Transmission) -> Self {
        if s.retransmit {
            Style::Retransmit
        } else if s.flags.syn || s.flags.fin {
            Style::Control
        } else if s.len > 0 {
            Style::Data
        } else {
            Style::Ack
        }
    }
    fn colour(self) -> RGBColor {
        match self {
            Style::Data => DATA,
            Style::Ack => ACK,
            Style::Control => CONTROL,
            Style::Retransmit => RETX,
        }
    }
    /// Line width and dash (on, off), in CSS pixels; no dash is a solid line.
    fn stroke(self) -> (f64, Option<(f64, f64)>) {
        match self {
            Style::Data => (2.0, None),
            Style::Ack => (1.2, Some((4.0, 3.0))),
            Style::Control => (1.6, None),
            Style::Retransmit => (2.4, Some((10.0, 4.0))),
        }
    }
}

/// An arrow as placed on screen, in device pixels.
struct Placed {
    from: Side,
    start: (f64, f64),
    tip: (f64, f64),
    /// The unclipped sender end, for placing the label.
    origin: (f64, f64),
    slope: f64,
    label: String,
}

/// Where an arrow was drawn: its start's y and its tip.
type Drawn = (f64, (f64, f64));

fn pt(p: (f64, f64)) -> (i32, i32) {
    (p.0.round() as i32, p.1.round() as i32)
}

fn lerp(a: (f64, f64), b: (f64, f64), u: f64) -> (f64, f64) {
    (a.0 + (b.0 - a.0) * u, a.1 + (b.1 - a.1) * u)
}

/// A round tick step (1, 2 or 5 × 10^k) near `raw`.
fn nice_step(raw: f64) -> f64 {
    let e = 10f64.powf(raw.log10().floor());
    let f = raw / e;
    let m = if f <= 1.0 {
        1.0
    } else if f <= 2.0 {
        2.0
    } else if f <= 5.0 {
        5.0
    } else {
        10.0
    };
    m * e
}

/// Draws the ladder at `cursor_ns`. `scale` multiplies fonts and line widths
/// (device-pixel ratio × presenter factor).
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    ladder: &Ladder,
    cursor_ns: f64,
    pal: &Palette,
    scale: f64,
) -> Result<LadderDrawn, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&pal.bg)?;
    let s = if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    };
    let width = |v: f64| (v * s).round().max(1.0) as u32;
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (w as f64, h as f64);
    let (t0, t1) = window_ns(ladder, cursor_ns);
    let mut out = LadderDrawn {
        window_ns: (t0, t1),
        ..LadderDrawn::default()
    };
    let cursor = if cursor_ns.is_nan() { t1 } else { cursor_ns };

    // Geometry: a header row for the host names, a time axis on the left,
    // the hosts at 22% and 78% of the rest, countdowns outside them.
    let top = 34.0 * s;
    let bottom = (h - 10.0 * s).max(top + 1.0);
    let axis_w = 54.0 * s;
    let right = w - 8.0 * s;
    let plot_w = (right - axis_w).max(1.0);
    let x_client = axis_w + plot_w * 0.22;
    let x_server = axis_w + plot_w * 0.78;
    let x_of = |side: Side| match side {
        Side::Client => x_client,
        Side::Server => x_server,
    };
    let y_of = |t: f64| top + (t - t0) / (t1 - t0) * (bottom - top);
    let font_px = 11.0 * s;
    let line_h = font_px * 1.25;
    let font = ("sans-serif", font_px).into_font().color(&pal.fg);
    let muted = ("sans-serif", font_px).into_font().color(&pal.muted);
    let at = |x: f64, y: f64| (x.round() as i32, y.round() as i32);

    // Time axis and grid.
    let seconds = t1 >= 10e9;
    let unit = if seconds { 1e9 } else { 1e6 };
    let target_ticks = ((bottom - top) / (42.0 * s)).clamp(2.0, 12.0);
    let step = nice_step((t1 - t0) / unit / target_ticks);
    let decimals = (-step.log10().floor()).clamp(0.0, 6.0) as usize;
    let first_tick = (t0 / unit / step).ceil() as i64;
    let last_tick = (t1 / unit / step).floor() as i64;
    for k in first_tick..=last_tick {
        // `+ 0.0` turns -0 into 0.
        let tick = k as f64 * step + 0.0;
        let y = y_of(tick * unit);
        root.draw(&PathElement::new(
            vec![at(axis_w, y), at(right, y)],
            pal.grid.stroke_width(width(1.0)),
        ))?;
        root.draw(&Text::new(
            format!("{tick:.decimals$}"),
            at(axis_w - 6.0 * s, y),
            muted.pos(Pos::new(HPos::Right, VPos::Center)),
        ))?;
    }
    root.draw(&Text::new(
        if seconds { "time (s)" } else { "time (ms)" },
        at(4.0 * s, 8.0 * s),
        muted.pos(Pos::new(HPos::Left, VPos::Top)),
    ))?;

    // Hosts.
    let host_font = ("sans-serif", 13.0 * s).into_font().color(&pal.fg);
    for side in [Side::Client, Side::Server] {
        let x = x_of(side);
        root.draw(&Text::new(
            side.name(),
            at(x, 8.0 * s),
            host_font.pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
        root.draw(&PathElement::new(
            vec![at(x, top - 6.0 * s), at(x, bottom)],
            pal.muted.stroke_width(width(2.0)),
        ))?;
    }

    // Countdown bars, outside each host's line: the delayed-ACK timer next
    // to it, a hold further out. The elapsed part is filled; a running
    // timer's remaining part up to its deadline is an outline.
    let until = cursor.min(t1);
    let bar_x = |timer: &Timer| {
        let (near, far) = if timer.kind == CountdownKind::DelayedAck {
            (3.0 * s, 9.0 * s)
        } else {
            (11.0 * s, 17.0 * s)
        };
        let x = x_of(timer.side);
        match timer.side {
            Side::Client => (x - far, x - near),
            Side::Server => (x + near, x + far),
        }
    };
    for timer in ladder.timers_between(t0, until) {
        let colour = if timer.kind == CountdownKind::DelayedAck {
            DELACK
        } else {
            HOLD
        };
        let (xa, xb) = bar_x(timer);
        let ya = y_of((timer.start_ns as f64).max(t0));
        let yb = y_of((timer.end_ns as f64).min(until));
        if yb > ya {
            out.countdowns += 1;
            root.draw(&Rectangle::new(
                [at(xa, ya), at(xb, yb.max(ya + 1.0))],
                colour.filled(),
            ))?;
        }
        if let Some(deadline) = timer.deadline_ns
            && timer.runs_at(cursor)
        {
            let yd = y_of((deadline as f64).min(t1));
            root.draw(&Rectangle::new(
                [at(xa, yb), at(xb, yd)],
                colour.stroke_width(width(1.0)),
            ))?;
        }
    }

    // Arrows: segments sent up to the cursor that reach into the window,
    // newest first.
    let hi = ladder.sent_by(until);
    let lo = ladder.sent_before(t0 - ladder.max_transit_ns as f64 - 1.0);
    let mut placed: Vec<Placed> = Vec::new();
    // Last arrow drawn per (sender, style): start y and tip, for skipping
    // arrows that would land on the same pixels.
    let mut last: [[Option<Drawn>; 4]; 2] = [[None; 4]; 2];
    let mut last_head: [Option<(f64, f64)>; 2] = [None; 2];
    for seg in ladder.segments[lo..hi].iter().rev() {
        if placed.len() >= MAX_ARROWS {
            break;
        }
        let sent = seg.sent_ns as f64;
        let side = seg.from as usize;
        let (end_t, end_x) = match seg.arrives_ns {
            Some(a) => (a as f64, x_of(seg.to())),
            None => (
                sent + ladder.one_way_ns[side] as f64 / 2.0,
                (x_client + x_server) / 2.0,
            ),
        };
        if end_t < t0 {
            continue;
        }
        let origin = (x_of(seg.from), y_of(sent));
        let full_end = (end_x, y_of(end_t));
        let progress = if end_t > sent {
            ((cursor - sent) / (end_t - sent)).clamp(0.0, 1.0)
        } else {
            1.0
        };
        let mut tip = lerp(origin, full_end, progress);
        let mut start = origin;
        if tip.1 < top {
            continue;
        }
        let mut clipped_tip = false;
        if tip.1 > bottom {
            let u = (bottom - start.1) / (tip.1 - start.1);
            tip = lerp(start, tip, u);
            clipped_tip = true;
        }
        if start.1 < top {
            let u = (top - start.1) / (tip.1 - start.1).max(1e-9);
            start = lerp(start, tip, u);
        }
        let style = Style::of(seg);
        let key = &mut last[side][style as usize];
        if let Some((ys, t)) = *key
            && (ys - start.1).abs() < 1.0
            && (t.0 - tip.0).abs() < 1.0
            && (t.1 - tip.1).abs() < 1.0
        {
            continue;
        }
        *key = Some((start.1, tip));

        let colour = style.colour();
        let (lw, dash) = style.stroke();
        let line = colour.stroke_width(width(lw));
        match dash {
            None => root.draw(&PathElement::new(vec![pt(start), pt(tip)], line))?,
            Some((on, off)) => root.draw(&DashedPathElement::new(
                vec![pt(start), pt(tip)],
                on * s,
                off * s,
                line,
            ))?,
        }
        let (dx, dy) = (full_end.0 - origin.0, full_end.1 - origin.1);
        let len = dx.hypot(dy).max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        if seg.dropped() && progress >= 1.0 {
            let d = 5.0 * s;
            let (cx, cy) = tip;
            for (a, b) in [((-d, -d), (d, d)), ((-d, d), (d, -d))] {
                root.draw(&PathElement::new(
                    vec![at(cx + a.0, cy + a.1), at(cx + b.0, cy + b.1)],
                    RETX.stroke_width(width(2.0)),
                ))?;
            }
            out.drops += 1;
        } else if !seg.dropped()
            && !clipped_tip
            && progress > 0.0
            && last_head[side].is_none_or(|(x, y): (f64, f64)| {
                (x - tip.0).abs() > 6.0 * s || (y - tip.1).abs() > 6.0 * s
            })
        {
            // Arrowhead at the tip, pointing along the arrow (one per spot:
            // a burst's heads would pile into a bar).
            last_head[side] = Some(tip);
            let (hl, hw) = (8.0 * s, 3.5 * s);
            let base = (tip.0 - ux * hl, tip.1 - uy * hl);
            root.draw(&Polygon::new(
                vec![
                    pt(tip),
                    pt((base.0 - uy * hw, base.1 + ux * hw)),
                    pt((base.0 + uy * hw, base.1 - ux * hw)),
                ],
                colour.filled(),
            ))?;
        }
        placed.push(Placed {
            from: seg.from,
            start,
            tip,
            origin,
            slope: if dx.abs() > 1e-9 { dy / dx } else { 0.0 },
            label: seg.label(),
        });
    }
    out.arrows = placed.len();

    // Labels just above each arrow near its sender, skipped when the
    // previous label from that host is less than a line away.
    let mut last_label: [Option<f64>; 2] = [None; 2];
    let inset = 7.0 * s;
    for p in &placed {
        let (x, anchor) = match p.from {
            Side::Client => (p.origin.0 + inset, HPos::Left),
            Side::Server => (p.origin.0 - inset, HPos::Right),
        };
        let y = p.origin.1 + p.slope * (x - p.origin.0) - 2.0 * s;
        // Only where the arrow is drawn, below the host names (the first
        // arrow's label may rise into the header row) and above the bottom.
        if y - font_px * 1.1 < 22.0 * s
            || y > bottom
            || p.start.1 > y + 2.0 * s + 1.0
            || p.tip.1 < p.start.1
        {
            continue;
        }
        let slot = p.from as usize;
        if last_label[slot].is_some_and(|prev| (prev - y).abs() < line_h) {
            continue;
        }
        last_label[slot] = Some(y);
        let text_w = p.label.chars().count() as f64 * font_px * 0.56 + 4.0 * s;
        let (xa, xb) = match anchor {
            HPos::Left => (x - 2.0 * s, x + text_w),
            _ => (x - text_w, x + 2.0 * s),
        };
        // A translucent backing keeps the text legible over crossing arrows
        // without cutting them.
        root.draw(&Rectangle::new(
            [at(xa, y - font_px * 1.1), at(xb, y)],
            pal.bg.mix(0.75).filled(),
        ))?;
        root.draw(&Text::new(
            p.label.clone(),
            at(x, y),
            font.pos(Pos::new(anchor, VPos::Bottom)),
        ))?;
        out.labels += 1;
    }

    // The countdowns running at the cursor, written next to their bars.
    if (t0..=t1).contains(&cursor) {
        let yc = y_of(cursor);
        let mut stacked = [0usize; 2];
        for c in ladder.timers_at(cursor) {
            let slot = c.timer.side as usize;
            let base = yc + stacked[slot] as f64 * line_h * 2.2;
            stacked[slot] += 1;
            let (x, anchor) = match c.timer.side {
                Side::Client => (x_client - 20.0 * s, HPos::Right),
                Side::Server => (x_server + 20.0 * s, HPos::Left),
            };
            root.draw(&Text::new(
                c.title(),
                at(x, base - 1.0 * s),
                font.pos(Pos::new(anchor, VPos::Bottom)),
            ))?;
            root.draw(&Text::new(
                c.detail(),
                at(x, base + 1.0 * s),
                font.pos(Pos::new(anchor, VPos::Top)),
            ))?;
        }
        root.draw(&PathElement::new(
            vec![at(axis_w, yc), at(right, yc)],
            pal.accent.stroke_width(width(1.5)),
        ))?;
    }
    root.present()?;
    Ok(out)
}
