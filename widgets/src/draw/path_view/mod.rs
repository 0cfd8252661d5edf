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

mod buffers;
mod counts;
mod wire;

use super::{Drawn, LEFT_HOST, RIGHT_HOST};
use crate::palette::{Palette, SERIES};
use crate::series::path::PathSeries;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use sim_core::units::Within;

use counts::grouped;

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
    let p = Painter {
        root,
        g: Geometry::new(w as f64, h as f64, scale.max(0.1)),
        pal,
        path,
        t_ns,
    };
    p.hosts_and_lanes()?;
    if on.recorded {
        p.queue(&on)?;
        let retransmits = p.data_lane()?;
        p.ack_lane()?;
        p.counts(&on, retransmits)?;
        p.drops()?;
    } else {
        // Past the packets this run stored: counts would read as an empty
        // path. The widget is replaying them (`kit::detail`) meanwhile.
        p.replay_note()?;
    }
    p.buffer_bars(&on)?;
    root.present()?;
    Ok(on)
}

/// Where the lanes run on a `w`×`h` canvas at `scale` (device pixels, left
/// and right end): a packet crosses them in the one-way delay, which is
/// what dragging the picture means (`kit::widget::pointer`).
pub fn lane_px(w: f64, h: f64, scale: f64) -> (f64, f64) {
    let g = Geometry::new(w, h, scale.max(0.1));
    (g.x0, g.x1)
}

/// What every part of the picture draws with: the canvas, where things go,
/// the colours, and the run at the instant drawn.
///
/// Its parts are `#[inline(always)]`, as the ladder's are (see
/// `draw::ladder`): each is called once per frame.
struct Painter<'a, DB: DrawingBackend> {
    root: &'a DrawingArea<DB, Shift>,
    g: Geometry,
    pal: &'a Palette,
    path: &'a PathSeries,
    t_ns: f64,
}

impl<DB: DrawingBackend> Painter<'_, DB> {
    /// The two hosts as boxes, named, and the two lanes between them.
    #[inline(always)]
    fn hosts_and_lanes(&self) -> Drawn<DB> {
        let (root, g, pal) = (self.root, &self.g, self.pal);
        let s = g.s;
        let font = g.font(13.0, &pal.fg);
        let muted = g.font(11.0, &pal.muted);
        // The data sender on the left (see `draw::LEFT_HOST`): the data lane
        // runs left to right, the ACK lane back.
        for (x, name, role) in [
            (g.m, LEFT_HOST.name(), "sender"),
            (g.client_x, RIGHT_HOST.name(), "receiver"),
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
        Ok(())
    }

    /// The bottleneck queue at the server's end of the data lane; its head (the
    /// packet serialised next) on the right, by the link. Packet by packet while
    /// they fit, else as a fill level.
    #[inline(always)]
    fn queue(&self, on: &OnPath) -> Drawn<DB> {
        let (root, g, pal, path) = (self.root, &self.g, self.pal, self.path);
        let s = g.s;
        let small = g.font(11.0, &pal.fg);
        let (qy0, qy1) = g.queue_y();
        let queue = path.downlink.queued(self.t_ns);
        let slot = 3.0 * s;
        if queue.len() as f64 * slot <= g.qw - 2.0 * s {
            for (i, p) in path.downlink.packets()[queue.clone()].iter().enumerate() {
                let x = g.qx1 - 1.0 * s - (i + 1) as f64 * slot;
                root.draw(&Rectangle::new(
                    [
                        (x as i32, (qy0 + 2.0 * s) as i32),
                        ((x + slot - s.max(1.0)) as i32, (qy1 - 2.0 * s) as i32),
                    ],
                    wire::packet_colour(pal, p.flight, p.is_data()).filled(),
                ))?;
            }
        } else {
            let frac =
                (on.downlink.queued_bytes as f64 / path.queue_capacity.max(1) as f64).min(1.0);
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
                right(&g.font(11.0, &pal.muted)),
            ))?;
        }
        Ok(())
    }

    /// Drops, for a moment after they happen, where they happen: at the
    /// entrance of the link (its queue), as a ✕ and a count.
    #[inline(always)]
    fn drops(&self) -> Drawn<DB> {
        let (root, g, pal, path, t_ns) = (self.root, &self.g, self.pal, self.path, self.t_ns);
        let s = g.s;
        let small = g.font(11.0, &pal.fg);
        let (_, qy1) = g.queue_y();
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
        Ok(())
    }

    /// In place of the packets, past those the run stored: that they are
    /// being replayed.
    #[inline(always)]
    fn replay_note(&self) -> Drawn<DB> {
        let (g, s) = (&self.g, self.g.s);
        let text = if g.narrow {
            "replaying packets…".to_string()
        } else {
            format!(
                "replaying the packets at {} s…",
                crate::units::fixed(self.t_ns / 1e9, 2)
            )
        };
        self.root.draw(&Text::new(
            text,
            (
                ((g.x0 + g.x1) / 2.0) as i32,
                ((g.data_y + g.ack_y) / 2.0 - 6.0 * s) as i32,
            ),
            g.font(11.0, &self.pal.muted)
                .pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
        Ok(())
    }
}

/// `f` anchored at its top right.
fn right(f: &TextStyle<'static>) -> TextStyle<'static> {
    f.pos(Pos::new(HPos::Right, VPos::Top))
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
        let host_w = (w * 0.12).within(52.0 * s, 100.0 * s);
        let lanes_bottom = h - m - 32.0 * s;
        let span = lanes_bottom - m;
        let qw = if narrow { 30.0 * s } else { 48.0 * s };
        let qx0 = m + host_w + 4.0 * s;
        let x0 = qx0 + qw + 3.0 * s;
        let client_x = w - m - host_w;
        let x1 = client_x - 4.0 * s;
        let seg_h = if narrow { 10.0 * s } else { 12.0 * s };
        let data_y = m + span * 0.40;
        // The ACK lane's label goes under it (20 CSS px): in a short canvas at
        // a large scale (presenter mode) the lane moves up to keep it clear
        // of the buffer labels.
        let ack_y = (m + span * 0.80)
            .min(lanes_bottom - 21.0 * s)
            .max(data_y + seg_h);
        Geometry {
            s,
            narrow,
            m,
            host_w,
            client_x,
            lanes_bottom,
            data_y,
            ack_y,
            seg_h,
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

    /// Type `css_px` high in `colour`.
    fn font(&self, css_px: f64, colour: &RGBColor) -> TextStyle<'static> {
        (FontFamily::SansSerif, css_px * self.s)
            .into_font()
            .color(colour)
    }

    /// The queue box's top and bottom.
    fn queue_y(&self) -> (f64, f64) {
        (
            self.data_y - self.seg_h / 2.0 - 2.0 * self.s,
            self.data_y + self.seg_h / 2.0 + 2.0 * self.s,
        )
    }
}
