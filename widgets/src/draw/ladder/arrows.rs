//! The ladder's arrows: one per segment sent by the cursor, from its sender
//! at the time it left towards its receiver, drawn as far as the segment
//! has got; styled by what the segment is, and ended by an arrowhead, or a
//! ✕ where a dropped segment died.

use super::super::Drawn;
use super::{ACK, CONTROL, DATA, RETX};
use super::{MAX_ARROWS, Painter, at};
use crate::series::ladder::Transmission;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use sim_core::segment::Side;
use sim_core::units::Within;

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
pub(super) struct Placed {
    pub from: Side,
    pub start: (f64, f64),
    pub tip: (f64, f64),
    /// The unclipped sender end, for placing the label.
    pub origin: (f64, f64),
    pub slope: f64,
    pub label: String,
}

/// Where an arrow was drawn: its start's y and its tip.
type LastArrow = (f64, (f64, f64));

fn pt(p: (f64, f64)) -> (i32, i32) {
    (p.0.round() as i32, p.1.round() as i32)
}

fn lerp(a: (f64, f64), b: (f64, f64), u: f64) -> (f64, f64) {
    (a.0 + (b.0 - a.0) * u, a.1 + (b.1 - a.1) * u)
}

/// A segment's arrow at the cursor, in device pixels.
struct Geometry {
    /// The sender end, unclipped.
    origin: (f64, f64),
    /// Where the whole arrow ends: at the receiver, or half way for a drop.
    full_end: (f64, f64),
    /// How far the segment has got at the cursor, 0 to 1.
    progress: f64,
    /// The drawn part, clipped to the window.
    start: (f64, f64),
    tip: (f64, f64),
    /// The tip was cut at the bottom of the window.
    clipped_tip: bool,
}

impl<DB: DrawingBackend> Painter<'_, DB> {
    /// Where `seg`'s arrow goes at the cursor (`None`: nothing of it shows).
    #[inline(always)]
    fn geometry(&self, seg: &Transmission) -> Option<Geometry> {
        let (ladder, l, cursor) = (self.ladder, &self.l, self.cursor);
        let sent = seg.sent_ns as f64;
        let (end_t, end_x) = match seg.arrives_ns {
            Some(a) => (a as f64, l.x_of(seg.to())),
            None => (
                sent + ladder.one_way_ns[seg.from as usize] as f64 / 2.0,
                (l.x_left + l.x_right) / 2.0,
            ),
        };
        if end_t < l.t0 {
            return None;
        }
        let origin = (l.x_of(seg.from), l.y_of(sent));
        let full_end = (end_x, l.y_of(end_t));
        let progress = if end_t > sent {
            ((cursor - sent) / (end_t - sent)).within(0.0, 1.0)
        } else {
            1.0
        };
        let mut tip = lerp(origin, full_end, progress);
        let mut start = origin;
        if tip.1 < l.top {
            return None;
        }
        let mut clipped_tip = false;
        if tip.1 > l.bottom {
            let u = (l.bottom - start.1) / (tip.1 - start.1);
            tip = lerp(start, tip, u);
            clipped_tip = true;
        }
        if start.1 < l.top {
            let u = (l.top - start.1) / (tip.1 - start.1).max(1e-9);
            start = lerp(start, tip, u);
        }
        Some(Geometry {
            origin,
            full_end,
            progress,
            start,
            tip,
            clipped_tip,
        })
    }

    /// Arrows: segments sent up to the cursor that reach into the window,
    /// newest first. Returns them as placed (for their labels) and the ✕ drawn.
    #[inline(always)]
    pub(super) fn arrows(&self) -> Drawn<DB, (Vec<Placed>, usize)> {
        let (ladder, l, cursor) = (self.ladder, &self.l, self.cursor);
        let hi = ladder.sent_by(cursor.min(l.t1));
        let lo = ladder.sent_before(l.t0 - ladder.max_transit_ns as f64 - 1.0);
        let mut placed: Vec<Placed> = Vec::new();
        let mut drops = 0;
        // Last arrow drawn per (sender, style): start y and tip, for skipping
        // arrows that would land on the same pixels.
        let mut last: [[Option<LastArrow>; 4]; 2] = [[None; 4]; 2];
        let mut last_head: [Option<(f64, f64)>; 2] = [None; 2];
        for seg in ladder.segments[lo..hi].iter().rev() {
            if placed.len() >= MAX_ARROWS {
                break;
            }
            let Some(g) = self.geometry(seg) else {
                continue;
            };
            let side = seg.from as usize;
            let style = Style::of(seg);
            let key = &mut last[side][style as usize];
            if let Some((ys, t)) = *key
                && (ys - g.start.1).abs() < 1.0
                && (t.0 - g.tip.0).abs() < 1.0
                && (t.1 - g.tip.1).abs() < 1.0
            {
                continue;
            }
            *key = Some((g.start.1, g.tip));
            if self.arrow(seg, style, &g, &mut last_head[side])? {
                drops += 1;
            }
            let (dx, dy) = (g.full_end.0 - g.origin.0, g.full_end.1 - g.origin.1);
            placed.push(Placed {
                from: seg.from,
                start: g.start,
                tip: g.tip,
                origin: g.origin,
                slope: if dx.abs() > 1e-9 { dy / dx } else { 0.0 },
                label: seg.label(),
            });
        }
        Ok((placed, drops))
    }

    /// Draws one arrow in its style and ends it: a ✕ where a dropped segment
    /// died, else an arrowhead at the tip unless one from the same host is
    /// already within 6 px (`last_head`). Returns whether it drew a ✕.
    #[inline(always)]
    fn arrow(
        &self,
        seg: &Transmission,
        style: Style,
        g: &Geometry,
        last_head: &mut Option<(f64, f64)>,
    ) -> Drawn<DB, bool> {
        let (root, l) = (self.root, &self.l);
        let (s, start, tip) = (l.s, g.start, g.tip);
        let colour = style.colour();
        let (lw, dash) = style.stroke();
        let line = colour.stroke_width(l.width(lw));
        match dash {
            None => root.draw(&PathElement::new(vec![pt(start), pt(tip)], line))?,
            Some((on, off)) => root.draw(&DashedPathElement::new(
                vec![pt(start), pt(tip)],
                on * s,
                off * s,
                line,
            ))?,
        }
        let (dx, dy) = (g.full_end.0 - g.origin.0, g.full_end.1 - g.origin.1);
        let len = dx.hypot(dy).max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        if seg.dropped() && g.progress >= 1.0 {
            let d = 5.0 * s;
            let (cx, cy) = tip;
            for (a, b) in [((-d, -d), (d, d)), ((-d, d), (d, -d))] {
                root.draw(&PathElement::new(
                    vec![at(cx + a.0, cy + a.1), at(cx + b.0, cy + b.1)],
                    RETX.stroke_width(l.width(2.0)),
                ))?;
            }
            return Ok(true);
        }
        if !seg.dropped()
            && !g.clipped_tip
            && g.progress > 0.0
            && last_head.is_none_or(|(x, y): (f64, f64)| {
                (x - tip.0).abs() > 6.0 * s || (y - tip.1).abs() > 6.0 * s
            })
        {
            // Arrowhead at the tip, pointing along the arrow (one per spot:
            // a burst's heads would pile into a bar).
            *last_head = Some(tip);
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
        Ok(false)
    }
}
