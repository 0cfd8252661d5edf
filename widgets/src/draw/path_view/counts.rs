//! The counts written over the lanes, so nothing depends on colour or on
//! counting dots: what is in flight each way, named as what it is. During
//! the handshake that is a SYN, a SYN-ACK and the request, not "1 ACK".

use super::{Drawn, OnPath, Painter, right};
use crate::series::path::LinkAt;
use plotters::prelude::*;

impl<DB: DrawingBackend> Painter<'_, DB> {
    /// Above the data lane what flies to the client, under the ACK lane what
    /// flies back, and the retransmissions among the data.
    #[inline(always)]
    pub(super) fn counts(&self, on: &OnPath, retransmits: usize) -> Drawn<DB> {
        let (root, g, pal) = (self.root, &self.g, self.pal);
        let s = g.s;
        let small = g.font(11.0, &pal.fg);
        root.draw(&Text::new(
            downlink_label(&on.downlink, g.narrow),
            (g.x0 as i32, (g.data_y - g.seg_h / 2.0 - 19.0 * s) as i32),
            small.clone(),
        ))?;
        root.draw(&Text::new(
            uplink_label(&on.uplink, g.narrow),
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
        Ok(())
    }
}

/// Server → client: "data → 10 segments in flight", or during the handshake
/// "SYN-ACK →" (narrow: "10 in flight →").
pub(super) fn downlink_label(on: &LinkAt, narrow: bool) -> String {
    let data = match (narrow, on.data, on.flights) {
        (true, n, _) => format!("{} in flight", grouped(n)),
        (false, n, Some((a, b))) if a == b => {
            format!(
                "flight {a} · {} in flight →",
                counted(n, "segment", "segments")
            )
        }
        (false, n, Some((a, b))) => {
            format!(
                "flights {a}–{b} · {} in flight →",
                counted(n, "segment", "segments")
            )
        }
        (false, n, None) => format!("data → {} in flight", counted(n, "segment", "segments")),
    };
    match (on.syns, on.data) {
        (0, _) => format!("{data}{}", if narrow { " →" } else { "" }),
        (_, 0) => "SYN-ACK →".to_string(),
        _ => format!("SYN-ACK · {data}{}", if narrow { " →" } else { "" }),
    }
}

/// Client → server: "← 10 ACKs in flight", or what the handshake sends
/// ("← SYN"), and the client's data, which is its request ("← request +
/// 1 ACK"). Narrow: without "in flight".
pub(super) fn uplink_label(on: &LinkAt, narrow: bool) -> String {
    let pure_acks = on.acks.saturating_sub(on.syns);
    let mut parts: Vec<String> = Vec::new();
    if on.syns > 0 {
        parts.push(if on.syns == 1 {
            "SYN".to_string()
        } else {
            counted(on.syns, "SYN", "SYNs")
        });
    }
    if on.data > 0 {
        // The client writes nothing but its request (`sim_core::app`).
        parts.push(if on.data == 1 {
            "request".to_string()
        } else {
            format!("request ({})", counted(on.data, "segment", "segments"))
        });
    }
    if pure_acks > 0 || parts.is_empty() {
        parts.push(counted(pure_acks, "ACK", "ACKs"));
    }
    let what = parts.join(" + ");
    // "in flight" after a count only: "← SYN" says it alone.
    if narrow || (on.syns + on.data > 0 && pure_acks == 0) {
        format!("← {what}")
    } else {
        format!("← {what} in flight")
    }
}

/// "1 segment", "2 segments", "17,400 segments".
pub(crate) fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{} {}", grouped(n), if n == 1 { one } else { many })
}

/// 17400 → "17,400".
pub(crate) fn grouped(n: usize) -> String {
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
    use super::*;

    fn link(data: usize, acks: usize, syns: usize) -> LinkAt {
        LinkAt {
            data,
            acks,
            syns,
            ..LinkAt::default()
        }
    }

    #[test]
    fn counts_are_grouped_in_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(17_400), "17,400");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }

    #[test]
    fn one_of_anything_is_singular_wide_and_narrow() {
        for narrow in [false, true] {
            let up = uplink_label(&link(0, 1, 0), narrow);
            assert!(up.starts_with("← 1 ACK") && !up.contains("ACKs"), "{up}");
            let down = downlink_label(&link(1, 0, 0), narrow);
            assert!(!down.contains("segments"), "{down}");
        }
        assert_eq!(uplink_label(&link(0, 2, 0), true), "← 2 ACKs");
        assert_eq!(uplink_label(&link(0, 10, 0), false), "← 10 ACKs in flight");
        assert_eq!(
            downlink_label(&link(1, 0, 0), false),
            "data → 1 segment in flight"
        );
    }

    #[test]
    fn countable_segments_are_named_by_their_flight() {
        let one = LinkAt {
            flights: Some((3, 3)),
            ..link(40, 0, 0)
        };
        assert_eq!(
            downlink_label(&one, false),
            "flight 3 · 40 segments in flight →"
        );
        let two = LinkAt {
            flights: Some((3, 4)),
            ..link(60, 0, 0)
        };
        assert_eq!(
            downlink_label(&two, false),
            "flights 3–4 · 60 segments in flight →"
        );
        // Narrow, the count alone.
        assert_eq!(downlink_label(&two, true), "60 in flight →");
    }

    #[test]
    fn handshake_segments_are_named_for_what_they_are() {
        for narrow in [false, true] {
            assert_eq!(uplink_label(&link(0, 1, 1), narrow), "← SYN");
            assert_eq!(downlink_label(&link(0, 1, 1), narrow), "SYN-ACK →");
            assert_eq!(uplink_label(&link(1, 0, 0), narrow), "← request");
        }
        assert_eq!(
            uplink_label(&link(1, 1, 0), false),
            "← request + 1 ACK in flight"
        );
    }
}
