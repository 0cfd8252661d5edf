//! The cwnd chart's logarithmic y axis. Slow start doubles cwnd every round
//! trip, so on a log₂ axis it is a straight line whose slope is one step per
//! RTT, and a flight of 10 segments is as visible as one of 10,000, which a
//! linear axis squeezes flat under the peak.
//!
//! The chart stays a linear plotters chart over log₂(value): plotters' own
//! log coordinates would be a second chart type, and a second copy of every
//! drawing helper in the wasm. Ticks are powers of two (1, 2, 4, …) when
//! few enough fit, else powers of ten (1, 10, 100, …), labelled by value.

/// The axis position of `v` (segments). Values under one segment (nothing
/// outstanding) sit on the bottom edge, which is one segment.
pub fn axis(v: f64) -> f64 {
    if v.is_nan() { v } else { v.max(1.0).log2() }
}

/// The top of the axis for a chart to `y_max` (at least two segments).
pub fn top(y_max: f64) -> f64 {
    axis(y_max.max(2.0))
}

/// Ticks (axis position, label) for an axis to `y_max`: powers of two when
/// at most `most` of them fit, else powers of ten.
pub fn ticks(y_max: f64, narrow: bool) -> Vec<(f64, String)> {
    let most = if narrow { 8 } else { 10 };
    let top = y_max.max(2.0);
    let twos = top.log2().floor() as u32;
    if twos < most {
        return (0..=twos)
            .map(|k| (k as f64, (1u64 << k).to_string()))
            .collect();
    }
    let mut out = Vec::new();
    let mut v = 1.0f64;
    while v <= top {
        out.push((v.log2(), crate::units::fixed(v, 0)));
        v *= 10.0;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_windows_tick_at_powers_of_two_large_ones_at_powers_of_ten() {
        let labels = |t: Vec<(f64, String)>| t.into_iter().map(|(_, l)| l).collect::<Vec<_>>();
        assert_eq!(
            labels(ticks(100.0, false)),
            ["1", "2", "4", "8", "16", "32", "64"]
        );
        assert_eq!(labels(ticks(5000.0, false)), ["1", "10", "100", "1000"]);
        assert_eq!(labels(ticks(1000.0, true)), ["1", "10", "100", "1000"]);
        assert_eq!(
            axis(0.0),
            0.0,
            "nothing outstanding sits on the bottom edge"
        );
        assert_eq!(axis(64.0), 6.0);
    }
}
