//! The buffers at both ends, from the periodic samples: the server's send
//! buffer under its end, the client's receive buffer under its end.
//!
//! Each label shows its quantities in one unit and to one precision
//! ("85.2 / 85.0 KiB", see [`crate::units::bytes_alike`]), and says as much
//! as fits its half of the canvas: the longest wording that fits is drawn,
//! and on a phone the shortest, in smaller type if it must, so the two
//! labels never run into each other.
//!
//! Before the server's socket completes the handshake its send buffer holds
//! nothing the application wrote (the apps write once connected; what the
//! socket reports then is the SYN-ACK's own skb), so the bar is empty and
//! the label says the connection is opening.
//!
//! The send buffer may hold more than its size: Linux checks
//! `sk_stream_memory_free` (`sk_wmem_queued < sk_sndbuf`) only before it
//! allocates a new skb, and then fills that skb, so a write can end one skb
//! (up to 64 KiB with GSO) past `sk_sndbuf`. The label shows the two numbers
//! as they are and says why.

use super::{Drawn, OnPath, Painter};
use crate::series::path::Buffers;
use crate::units::bytes_alike;
use plotters::prelude::*;
use sim_core::units::Within;

/// A character of 11 px sans-serif is at most this many px wide on average
/// (digits and lower case; the ladder's labels use the same estimate).
const CHAR_EM: f64 = 0.56;
/// Type is never made smaller than this to fit, in CSS px.
const MIN_FONT_PX: f64 = 8.0;

impl<DB: DrawingBackend> Painter<'_, DB> {
    /// The server's send buffer under its end, the client's receive buffer under its end.
    #[inline(always)]
    pub(super) fn buffer_bars(&self, on: &OnPath) -> Drawn<DB> {
        let (root, g, pal) = (self.root, &self.g, self.pal);
        let s = g.s;
        let label_y = g.lanes_bottom + 4.0 * s;
        let (bar_y0, bar_y1) = (label_y + 15.0 * s, label_y + 25.0 * s);
        let halves = [(g.m, g.w / 2.0 - 6.0 * s), (g.w / 2.0 + 6.0 * s, g.w - g.m)];
        let label = |words: &[String], (x0, x1): (f64, f64)| {
            let (text, px) = fitted(words, (x1 - x0) / s);
            root.draw(&Text::new(
                text.to_string(),
                (x0 as i32, label_y as i32),
                (FontFamily::SansSerif, px * s).into_font().color(&pal.fg),
            ))
        };
        let Some(b) = on.buffers else {
            for (half, name) in halves.iter().zip(names(g.narrow)) {
                label(&[format!("{name}: no sample yet")], *half)?;
            }
            return Ok(());
        };
        let [send, recv] = labels(&b, on.established, g.narrow);
        // Before the handshake the send buffer holds nothing written.
        let (queued, notsent) = if on.established {
            (b.wmem_queued, b.notsent)
        } else {
            (0, 0)
        };
        for ((x0, x1), words, level, size, part) in [
            (halves[0], send, queued, b.sndbuf, notsent),
            (halves[1], recv, b.unread, b.rcvbuf, 0),
        ] {
            label(&words, (x0, x1))?;
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

/// The first of `words` (longest first) that fits `width_css` px in 11 px
/// type; else the last, in type small enough to fit (not below 8 px).
fn fitted(words: &[String], width_css: f64) -> (&str, f64) {
    let width = |t: &str, px: f64| t.chars().count() as f64 * CHAR_EM * px;
    let last = words.last().map_or("", String::as_str);
    match words.iter().find(|w| width(w, 11.0) <= width_css) {
        Some(w) => (w, 11.0),
        None => {
            let px = width_css / (last.chars().count().max(1) as f64 * CHAR_EM);
            (last, px.within(MIN_FONT_PX, 11.0))
        }
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

/// Each buffer's label in the wordings that may be drawn, longest first:
/// "send buffer 46.0 / 85.0 KiB, 12.0 KiB not sent" down to "send buffer
/// 46.0 / 85.0 KiB", and "receive buffer 0 / 128 KiB, window 64 KiB" down to
/// "receive buffer 0 / 128 KiB" (on a narrow canvas only the short names and
/// wordings).
pub(super) fn labels(b: &Buffers, established: bool, narrow: bool) -> [Vec<String>; 2] {
    let [send_name, recv_name] = names(narrow);
    let send = if !established {
        vec![
            format!("{send_name}: opening, nothing written yet"),
            format!("{send_name}: opening"),
        ]
    } else {
        let ([used, size, notsent], unit) = bytes_alike([b.wmem_queued, b.sndbuf, b.notsent]);
        let short = format!("{send_name} {used} / {size} {unit}");
        let mut words = Vec::new();
        let over = (b.wmem_queued > b.sndbuf).then_some(" (+1 skb, as Linux allows)");
        let unsent = (b.notsent > 0).then(|| format!(", {notsent} {unit} not sent"));
        if !narrow {
            if let (Some(o), Some(u)) = (over, &unsent) {
                words.push(format!("{short}{o}{u}"));
            }
            if let Some(o) = over {
                words.push(format!("{short}{o}"));
            }
            if let Some(u) = &unsent {
                words.push(format!("{short}{u}"));
            }
        }
        words.push(short);
        words
    };
    let ([unread, rcvbuf, window], unit) = bytes_alike([b.unread, b.rcvbuf, b.window]);
    let short = format!("{recv_name} {unread} / {rcvbuf} {unit}");
    let mut recv = Vec::new();
    if !narrow {
        recv.push(format!("{short}, window {window} {unit}"));
    }
    recv.push(short);
    [send, recv]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_too_long_for_its_half_gives_way_to_a_shorter_one_or_smaller_type() {
        let words = [
            "a long label of thirty chars..".to_string(),
            "short".to_string(),
        ];
        assert_eq!(fitted(&words, 1000.0), (words[0].as_str(), 11.0));
        assert_eq!(fitted(&words, 60.0), ("short", 11.0));
        let (text, px) = fitted(&words, 25.0);
        assert_eq!(text, "short");
        assert!((MIN_FONT_PX..11.0).contains(&px));
    }
}
