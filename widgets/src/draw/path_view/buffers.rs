//! The buffers at both ends, from the periodic samples: the server's send
//! buffer under its end, the client's receive buffer under its end.

use super::{Drawn, OnPath, Painter};
use crate::series::path::Buffers;
use plotters::prelude::*;
use sim_core::units::format_bytes;

impl<DB: DrawingBackend> Painter<'_, DB> {
    /// The server's send buffer under its end, the client's receive buffer under its end.
    #[inline(always)]
    pub(super) fn buffer_bars(&self, on: &OnPath) -> Drawn<DB> {
        let (root, g, pal) = (self.root, &self.g, self.pal);
        let s = g.s;
        let small = (FontFamily::SansSerif, 11.0 * s).into_font().color(&pal.fg);
        let label_y = g.lanes_bottom + 4.0 * s;
        let (bar_y0, bar_y1) = (label_y + 15.0 * s, label_y + 25.0 * s);
        let halves = [(g.m, g.w / 2.0 - 6.0 * s), (g.w / 2.0 + 6.0 * s, g.w - g.m)];
        let Some(b) = on.buffers else {
            for ((x0, _), name) in halves.iter().zip(names(g.narrow)) {
                root.draw(&Text::new(
                    format!("{name}: no sample yet"),
                    (*x0 as i32, label_y as i32),
                    small.clone(),
                ))?;
            }
            return Ok(());
        };
        let [send, recv] = labels(&b, g.narrow);
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
}

/// The two buffers' names, short on a narrow canvas.
fn names(narrow: bool) -> [&'static str; 2] {
    if narrow {
        ["send buf", "recv buf"]
    } else {
        ["send buffer", "receive buffer"]
    }
}

/// "send buffer 46 KiB / 85 KiB, 12 KiB not sent" and "receive buffer 0 B /
/// 128 KiB, window 64 KiB" (the details after the comma only when wide).
fn labels(b: &Buffers, narrow: bool) -> [String; 2] {
    let [send_name, recv_name] = names(narrow);
    let mut send = format!(
        "{send_name} {} / {}",
        format_bytes(b.wmem_queued),
        format_bytes(b.sndbuf)
    );
    if !narrow && b.notsent > 0 {
        send.push_str(&format!(", {} not sent", format_bytes(b.notsent)));
    }
    let mut recv = format!(
        "{recv_name} {} / {}",
        format_bytes(b.unread),
        format_bytes(b.rcvbuf)
    );
    if !narrow {
        recv.push_str(&format!(", window {}", format_bytes(b.window)));
    }
    [send, recv]
}
