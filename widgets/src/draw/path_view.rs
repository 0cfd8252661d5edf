//! The path between the hosts at one instant: data segments flying from the
//! server to the client (coloured by slow-start flight), ACKs flying back,
//! packets waiting in the bottleneck queue, and drops.
//!
//! ```text
//!  ┌────────┐ ▮▮▮ data ▮ ▮ ▮ ▮ ▮ ──────────────► ┌────────┐
//!  │ server │                                   │ client │
//!  └────────┘ ◄──────────── · ·  ACKs ·   ·     └────────┘
//! ```

use crate::palette::{Palette, series};
use crate::run_view::RunView;
use plotters::coord::Shift;
use plotters::prelude::*;
use sim_core::segment::Side;

/// Red-orange from the Okabe–Ito set, for drops.
const DROP: RGBColor = RGBColor(213, 94, 0);

/// The longest time any packet spends between being sent and arriving, so a
/// frame only looks at packets sent within that window before the cursor.
pub fn max_transit_ns(run: &RunView) -> f64 {
    run.transits
        .iter()
        .map(|t| t.arrives.map_or(0, |a| a.0 - t.sent.0) as f64)
        .fold(0.0, f64::max)
}

/// What is on the path at `t_ns`: counts the readouts and tests use.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct OnPath {
    pub data: usize,
    pub acks: usize,
    pub queued: usize,
}

pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    run: &RunView,
    t_ns: f64,
    max_transit: f64,
    pal: &Palette,
    scale: f64,
) -> Result<OnPath, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&pal.bg)?;
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (w as f64, h as f64);
    let px = |v: f64| (v * scale).round() as i32;
    let font = ("sans-serif", 13.0 * scale).into_font().color(&pal.fg);
    let small = ("sans-serif", 11.0 * scale).into_font().color(&pal.muted);

    let margin = 6.0 * scale;
    let host_w = (w * 0.14).clamp(56.0 * scale, 110.0 * scale);
    let data_y = h * 0.36;
    let ack_y = h * 0.70;
    let lane_x0 = margin + host_w + 8.0 * scale;
    let lane_x1 = w - margin - host_w - 8.0 * scale;
    let lane = (lane_x1 - lane_x0).max(1.0);

    // Hosts and lanes.
    for (x, name, role) in [
        (margin, "server", "sender"),
        (w - margin - host_w, "client", "receiver"),
    ] {
        root.draw(&Rectangle::new(
            [
                (x as i32, px(20.0)),
                ((x + host_w) as i32, (h - 20.0 * scale) as i32),
            ],
            pal.muted.stroke_width(px(1.5).max(1) as u32),
        ))?;
        root.draw(&Text::new(
            name,
            ((x + 8.0 * scale) as i32, (h * 0.42) as i32),
            font.clone(),
        ))?;
        root.draw(&Text::new(
            role,
            ((x + 8.0 * scale) as i32, (h * 0.42 + 16.0 * scale) as i32),
            small.clone(),
        ))?;
    }
    for y in [data_y, ack_y] {
        root.draw(&PathElement::new(
            vec![(lane_x0 as i32, y as i32), (lane_x1 as i32, y as i32)],
            pal.grid.stroke_width(px(1.0).max(1) as u32),
        ))?;
    }
    root.draw(&Text::new(
        "data →",
        (lane_x0 as i32, (data_y - 26.0 * scale) as i32),
        small.clone(),
    ))?;
    root.draw(&Text::new(
        "← ACKs",
        (
            (lane_x1 - 48.0 * scale) as i32,
            (ack_y + 12.0 * scale) as i32,
        ),
        small.clone(),
    ))?;

    // Packets sent within one maximum transit time before `t` may be in the air.
    let from = run
        .transits
        .partition_point(|tr| (tr.sent.0 as f64) < t_ns - max_transit - 1.0);
    let to = run
        .transits
        .partition_point(|tr| (tr.sent.0 as f64) <= t_ns);
    let mut on = OnPath::default();
    let seg_h = px(16.0).max(4);
    // A packet is drawn as long as it is on the wire (its serialisation time),
    // at most 6 px, with a gap, so back-to-back packets stay countable.
    let wire_px = |tr: &sim_core::analysis::Transit, transit_ns: f64| {
        let ser_ns =
            (tr.len + sim_core::segment::HEADER_BYTES) as f64 * 8.0 / run.rate_bps.max(1.0) * 1e9;
        let w = lane * ser_ns / transit_ns.max(1.0) - px(1.0) as f64;
        (w.round() as i32).clamp(1, px(6.0))
    };
    for tr in &run.transits[from..to] {
        let data = tr.from == Side::Server;
        let lane_y = if data { data_y } else { ack_y };
        let Some(arrives) = tr.arrives else {
            // Dropped at the queue: mark it there for a moment.
            if t_ns - (tr.sent.0 as f64) < max_transit / 2.0 {
                let x = if data { lane_x0 } else { lane_x1 } as i32;
                let y = lane_y as i32;
                let d = px(6.0);
                root.draw(&PathElement::new(
                    vec![(x - d, y - d), (x + d, y + d)],
                    DROP.stroke_width(px(2.0).max(1) as u32),
                ))?;
                root.draw(&PathElement::new(
                    vec![(x - d, y + d), (x + d, y - d)],
                    DROP.stroke_width(px(2.0).max(1) as u32),
                ))?;
            }
            continue;
        };
        let (departs, arrives) = (tr.departs.0 as f64, arrives.0 as f64);
        if t_ns >= arrives {
            continue;
        }
        if t_ns < departs {
            on.queued += 1;
            continue;
        }
        let frac = ((t_ns - departs) / (arrives - departs).max(1.0)).clamp(0.0, 1.0);
        let x = if data {
            lane_x0 + frac * lane
        } else {
            lane_x1 - frac * lane
        } as i32;
        let y = lane_y as i32;
        if data && tr.len > 0 {
            on.data += 1;
            let colour = if tr.retransmit {
                DROP
            } else {
                series(tr.flight.saturating_sub(1) as usize)
            };
            let seg_w = wire_px(tr, arrives - departs);
            root.draw(&Rectangle::new(
                [(x - seg_w, y - seg_h / 2), (x, y + seg_h / 2)],
                colour.filled(),
            ))?;
        } else {
            if !data {
                on.acks += 1;
            }
            let colour = if tr.syn { pal.accent } else { pal.fg };
            root.draw(&Circle::new((x, y), px(3.0).max(2) as u32, colour.filled()))?;
        }
    }
    if on.queued > 0 {
        root.draw(&Text::new(
            format!("{} queued", on.queued),
            (lane_x0 as i32, (data_y + 14.0 * scale) as i32),
            small.clone(),
        ))?;
    }
    root.present()?;
    Ok(on)
}
