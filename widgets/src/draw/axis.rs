//! A chart axis over `f64` that never formats its own labels.
//!
//! Every chart passes its own label formatter (ms or s on x, the series'
//! unit on y, printed through `units::fixed`). plotters' `f64` axis also
//! carries a default formatter (`{:?}` and `float_to_string`), compiled in
//! even though it is never called, and with it the standard library's float
//! formatting. This axis maps and places ticks exactly as plotters' does and
//! declares no default formatter.

use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use std::ops::Range;

pub struct Axis(RangedCoordf64);

impl From<Range<f64>> for Axis {
    fn from(r: Range<f64>) -> Axis {
        Axis(r.into())
    }
}

impl Ranged for Axis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.0.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        self.0.key_points(hint)
    }

    fn range(&self) -> Range<f64> {
        self.0.range()
    }
}

impl ValueFormatter<f64> for Axis {
    /// Never shown: each chart sets `x_label_formatter` and `y_label_formatter`.
    fn format(_value: &f64) -> String {
        String::new()
    }
}
