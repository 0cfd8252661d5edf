//! The ladder diagram (message sequence chart): the two hosts as vertical
//! lines, time flowing down, every segment an arrow from its sender at the
//! time it left to its receiver at the time it arrived.
//!
//! ```text
//!  time (ms)   server                 client
//!      0 ──────│    ┌─────────── SYN ──│
//!              │ ◀──┘                  │
//!      3.5 ────│── SYN-ACK ───────┐    │
//!              │                  └──▶ │
//!      7 ──────│    ┌──── seq 1:148 ───│
//!   Nagle     ┃│ ◀──┘                  │┃ delayed ACK
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

mod arrows;

use super::{Drawn, LEFT_HOST, RIGHT_HOST};
use crate::palette::{Palette, SERIES};
use crate::series::ladder::{CountdownKind, Ladder, Timer};
use arrows::Placed;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use sim_core::segment::Side;
use sim_core::units::Within;

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
    /// Where that span is drawn: the rows (device pixels) of its top and
    /// bottom, which the pointer reads to seek.
    pub rows_px: (f64, f64),
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
        cursor_ns.within(first, end)
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

/// A round tick step (1, 2 or 5 × 10^k) near `raw`.
fn nice_step(raw: f64) -> f64 {
    // powi: an integer power, so the wasm needs no libm pow.
    let e = 10f64.powi(raw.log10().floor() as i32);
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
    let l = Layout::new(ladder, cursor_ns, root.dim_in_pixel(), scale);
    let cursor = if cursor_ns.is_nan() { l.t1 } else { cursor_ns };
    let p = Painter {
        root,
        l,
        pal,
        ladder,
        cursor,
    };
    p.time_axis()?;
    p.hosts()?;
    let countdowns = p.countdown_bars()?;
    let (placed, drops) = p.arrows()?;
    let labels = p.labels(&placed)?;
    p.running_countdowns()?;
    root.present()?;
    Ok(LadderDrawn {
        arrows: placed.len(),
        labels,
        drops,
        countdowns,
        window_ns: (p.l.t0, p.l.t1),
        rows_px: (p.l.top, p.l.bottom),
    })
}

/// What every part of the diagram draws with: the canvas, where things go,
/// the colours, the ladder and the cursor (ns).
///
/// Its parts are `#[inline(always)]`: each is called once per frame, and
/// inlined into `draw` the bundle keeps one body per backend (canvas, SVG)
/// instead of a dozen small ones, about 1 KB of gzipped wasm across the views.
struct Painter<'a, DB: DrawingBackend> {
    root: &'a DrawingArea<DB, Shift>,
    l: Layout,
    pal: &'a Palette,
    ladder: &'a Ladder,
    cursor: f64,
}

/// Where things go on the canvas, in device pixels: a header row for the
/// host names, a time axis on the left, the hosts at 22% and 78% of the
/// rest (the server, which sends the data, on the left as in the path view:
/// see [`LEFT_HOST`]), countdowns outside them.
struct Layout {
    /// Device pixels per CSS pixel (× presenter factor).
    s: f64,
    /// The time span shown, top to bottom.
    t0: f64,
    t1: f64,
    top: f64,
    bottom: f64,
    axis_w: f64,
    right: f64,
    /// The hosts' lines: [`LEFT_HOST`]'s and [`RIGHT_HOST`]'s.
    x_left: f64,
    x_right: f64,
    font_px: f64,
    line_h: f64,
}

impl Layout {
    fn new(ladder: &Ladder, cursor_ns: f64, (w, h): (u32, u32), scale: f64) -> Self {
        let s = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        let (w, h) = (w as f64, h as f64);
        let (t0, t1) = window_ns(ladder, cursor_ns);
        let top = 34.0 * s;
        let axis_w = 54.0 * s;
        let right = w - 8.0 * s;
        let plot_w = (right - axis_w).max(1.0);
        let font_px = 11.0 * s;
        Layout {
            s,
            t0,
            t1,
            top,
            bottom: (h - 10.0 * s).max(top + 1.0),
            axis_w,
            right,
            x_left: axis_w + plot_w * 0.22,
            x_right: axis_w + plot_w * 0.78,
            font_px,
            line_h: font_px * 1.25,
        }
    }

    /// A line `v` CSS pixels wide, in whole device pixels (at least one).
    fn width(&self, v: f64) -> u32 {
        (v * self.s).round().max(1.0) as u32
    }

    fn x_of(&self, side: Side) -> f64 {
        if side == LEFT_HOST {
            self.x_left
        } else {
            self.x_right
        }
    }

    /// Away from the other host: -1 (leftwards) for the left host, +1 for
    /// the right one. Countdowns go outside a host's line, labels inside.
    fn outward(&self, side: Side) -> f64 {
        if side == LEFT_HOST { -1.0 } else { 1.0 }
    }

    fn y_of(&self, t: f64) -> f64 {
        self.top + (t - self.t0) / (self.t1 - self.t0) * (self.bottom - self.top)
    }

    fn font(&self, colour: &RGBColor) -> TextStyle<'static> {
        (FontFamily::SansSerif, self.font_px)
            .into_font()
            .color(colour)
    }
}

fn at(x: f64, y: f64) -> (i32, i32) {
    (x.round() as i32, y.round() as i32)
}

impl<DB: DrawingBackend> Painter<'_, DB> {
    /// The time axis on the left, with a light grid line at each tick.
    #[inline(always)]
    fn time_axis(&self) -> Drawn<DB> {
        let (root, l, pal) = (self.root, &self.l, self.pal);
        let (s, t0, t1) = (l.s, l.t0, l.t1);
        let muted = l.font(&pal.muted);
        let seconds = t1 >= 10e9;
        let unit = if seconds { 1e9 } else { 1e6 };
        let target_ticks = ((l.bottom - l.top) / (42.0 * s)).within(2.0, 12.0);
        let step = nice_step((t1 - t0) / unit / target_ticks);
        let decimals = (-step.log10().floor()).within(0.0, 6.0) as usize;
        let first_tick = (t0 / unit / step).ceil() as i64;
        let last_tick = (t1 / unit / step).floor() as i64;
        for k in first_tick..=last_tick {
            // `+ 0.0` turns -0 into 0.
            let tick = k as f64 * step + 0.0;
            let y = l.y_of(tick * unit);
            root.draw(&PathElement::new(
                vec![at(l.axis_w, y), at(l.right, y)],
                pal.grid.stroke_width(l.width(1.0)),
            ))?;
            root.draw(&Text::new(
                crate::units::fixed(tick, decimals),
                at(l.axis_w - 6.0 * s, y),
                muted.pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
        }
        root.draw(&Text::new(
            if seconds { "time (s)" } else { "time (ms)" },
            at(4.0 * s, 8.0 * s),
            muted.pos(Pos::new(HPos::Left, VPos::Top)),
        ))?;
        Ok(())
    }

    /// The two hosts: a name in the header row over a vertical line.
    #[inline(always)]
    fn hosts(&self) -> Drawn<DB> {
        let (root, l, pal) = (self.root, &self.l, self.pal);
        let s = l.s;
        let host_font = (FontFamily::SansSerif, 13.0 * s).into_font().color(&pal.fg);
        for side in [LEFT_HOST, RIGHT_HOST] {
            let x = l.x_of(side);
            root.draw(&Text::new(
                side.name(),
                at(x, 8.0 * s),
                host_font.pos(Pos::new(HPos::Center, VPos::Top)),
            ))?;
            root.draw(&PathElement::new(
                vec![at(x, l.top - 6.0 * s), at(x, l.bottom)],
                pal.muted.stroke_width(l.width(2.0)),
            ))?;
        }
        Ok(())
    }

    /// Countdown bars, outside each host's line: the delayed-ACK timer next to
    /// it, a hold further out. The elapsed part is filled; a running timer's
    /// remaining part up to its deadline is an outline. Returns the bars drawn.
    #[inline(always)]
    fn countdown_bars(&self) -> Drawn<DB, usize> {
        let (root, ladder, l, cursor) = (self.root, self.ladder, &self.l, self.cursor);
        let s = l.s;
        let until = cursor.min(l.t1);
        let bar_x = |timer: &Timer| {
            let (near, far) = if timer.kind == CountdownKind::DelayedAck {
                (3.0 * s, 9.0 * s)
            } else {
                (11.0 * s, 17.0 * s)
            };
            let (x, out) = (l.x_of(timer.side), l.outward(timer.side));
            let (a, b) = (x + out * near, x + out * far);
            (a.min(b), a.max(b))
        };
        let mut drawn = 0;
        for timer in ladder.timers_between(l.t0, until) {
            let colour = if timer.kind == CountdownKind::DelayedAck {
                DELACK
            } else {
                HOLD
            };
            let (xa, xb) = bar_x(timer);
            let ya = l.y_of((timer.start_ns as f64).max(l.t0));
            let yb = l.y_of((timer.end_ns as f64).min(until));
            if yb > ya {
                drawn += 1;
                root.draw(&Rectangle::new(
                    [at(xa, ya), at(xb, yb.max(ya + 1.0))],
                    colour.filled(),
                ))?;
            }
            if let Some(deadline) = timer.deadline_ns
                && timer.runs_at(cursor)
            {
                let yd = l.y_of((deadline as f64).min(l.t1));
                root.draw(&Rectangle::new(
                    [at(xa, yb), at(xb, yd)],
                    colour.stroke_width(l.width(1.0)),
                ))?;
            }
        }
        Ok(drawn)
    }

    /// Labels just above each arrow near its sender, skipped when the previous
    /// label from that host is less than a line away. Returns the labels written.
    #[inline(always)]
    fn labels(&self, placed: &[Placed]) -> Drawn<DB, usize> {
        let (root, l, pal) = (self.root, &self.l, self.pal);
        let (s, font_px) = (l.s, l.font_px);
        let font = l.font(&pal.fg);
        let mut written = 0;
        let mut last_label: [Option<f64>; 2] = [None; 2];
        let inset = 7.0 * s;
        for p in placed {
            // Inside the hosts, towards the receiver.
            let (x, anchor) = if l.outward(p.from) < 0.0 {
                (p.origin.0 + inset, HPos::Left)
            } else {
                (p.origin.0 - inset, HPos::Right)
            };
            let y = p.origin.1 + p.slope * (x - p.origin.0) - 2.0 * s;
            // Only where the arrow is drawn, below the host names (the first
            // arrow's label may rise into the header row) and above the bottom.
            if y - font_px * 1.1 < 22.0 * s
                || y > l.bottom
                || p.start.1 > y + 2.0 * s + 1.0
                || p.tip.1 < p.start.1
            {
                continue;
            }
            let slot = p.from as usize;
            if last_label[slot].is_some_and(|prev| (prev - y).abs() < l.line_h) {
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
            written += 1;
        }
        Ok(written)
    }

    /// The countdowns running at the cursor, written next to their bars, and
    /// the cursor line, when the cursor is in the window.
    #[inline(always)]
    fn running_countdowns(&self) -> Drawn<DB> {
        let (root, ladder, l, pal, cursor) =
            (self.root, self.ladder, &self.l, self.pal, self.cursor);
        if !(l.t0..=l.t1).contains(&cursor) {
            return Ok(());
        }
        let s = l.s;
        let font = l.font(&pal.fg);
        let yc = l.y_of(cursor);
        let mut stacked = [0usize; 2];
        for c in ladder.timers_at(cursor) {
            let slot = c.timer.side as usize;
            let base = yc + stacked[slot] as f64 * l.line_h * 2.2;
            stacked[slot] += 1;
            // Outside the host, beyond its countdown bars.
            let out = l.outward(c.timer.side);
            let x = l.x_of(c.timer.side) + out * 20.0 * s;
            let anchor = if out < 0.0 { HPos::Right } else { HPos::Left };
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
            vec![at(l.axis_w, yc), at(l.right, yc)],
            pal.accent.stroke_width(l.width(1.5)),
        ))?;
        Ok(())
    }
}
