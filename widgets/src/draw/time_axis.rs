//! Where time runs on a drawn canvas, in its device pixels, as the drawing
//! placed it: what the pointer reads to turn a pixel under the reader's
//! finger into a time (`kit::widget::pointer`). Returned by the drawing
//! itself, so the two can never disagree about margins or label widths.

/// A linear map between a span of pixels and a span of time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeAxis {
    /// Pixels (device) where `from_ns` and `to_ns` are drawn.
    pub from_px: f64,
    pub to_px: f64,
    pub from_ns: f64,
    pub to_ns: f64,
    /// Time runs down the canvas (the ladder), not across.
    pub vertical: bool,
    /// Only distances mean time (the path view: a packet crosses the wire
    /// in the one-way delay), so a drag moves the cursor by the time
    /// dragged, from where it was, and a tap does not seek.
    pub relative: bool,
}

impl TimeAxis {
    /// The time drawn at pixel `px` (along the axis), unclamped.
    pub fn time_at(&self, px: f64) -> f64 {
        self.from_ns + (px - self.from_px) * self.ns_per_px()
    }

    /// Time per pixel along the axis.
    pub fn ns_per_px(&self) -> f64 {
        let span = self.to_px - self.from_px;
        if span.abs() < 1e-9 {
            0.0
        } else {
            (self.to_ns - self.from_ns) / span
        }
    }

    /// The pixel (along the axis) where `t_ns` is drawn.
    pub fn px_at(&self, t_ns: f64) -> f64 {
        let per = self.ns_per_px();
        if per == 0.0 {
            self.from_px
        } else {
            self.from_px + (t_ns - self.from_ns) / per
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_and_times_map_both_ways() {
        let a = TimeAxis {
            from_px: 60.0,
            to_px: 460.0,
            from_ns: 0.0,
            to_ns: 40e6,
            vertical: false,
            relative: false,
        };
        assert_eq!(a.time_at(260.0), 20e6);
        assert_eq!(a.px_at(10e6), 160.0);
        assert_eq!(a.time_at(a.px_at(33e6)), 33e6);
    }
}
