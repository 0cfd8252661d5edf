//! Numbers as the widget shows them: one unit per display. A clock, a
//! readout or a buffer label that shows several quantities of one kind
//! shows them in the same unit and to the same precision, the unit chosen
//! once from the largest of them, so "8999.802 ms / 30.00 s" or "85.2 KiB
//! / 85 KiB" cannot happen.

/// Every float the widgets print goes through these (not `{:.N}` or `{}`),
/// so the standard float formatter stays out of the wasm
/// (`sim_core::decimal_text`).
pub use sim_core::decimal_text::{fixed, shortest};

/// The time unit of a whole widget, chosen from the span of its runs: ms
/// below 10 s, s from there (a 30 s run reads "t = 9.000 s / 30.000 s").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeUnit {
    Ms,
    S,
}

impl TimeUnit {
    /// The unit for times up to `span_ns`.
    pub fn for_span(span_ns: f64) -> TimeUnit {
        if span_ns >= 10e9 {
            TimeUnit::S
        } else {
            TimeUnit::Ms
        }
    }

    /// `ns` in this unit with `decimals` decimals: "9.000 s", "49.70 ms".
    pub fn format(self, ns: f64, decimals: usize) -> String {
        match self {
            TimeUnit::Ms => format!("{} ms", fixed(ns / 1e6, decimals)),
            TimeUnit::S => format!("{} s", fixed(ns / 1e9, decimals)),
        }
    }
}

/// Byte counts shown together, in the unit `sim_core::units::format_bytes`
/// gives the largest of them and with its precision, e.g. `[87245, 87040]`
/// → (["85.2", "85.0"], "KiB"): both sides of "85.2 / 85.0 KiB" read alike.
pub fn bytes_alike<const N: usize>(values: [u64; N]) -> ([String; N], &'static str) {
    const KIB: f64 = 1024.0;
    let largest = values.iter().copied().max().unwrap_or(0);
    let (div, unit) = if largest < 10 * 1024 {
        (1.0, "B")
    } else if (largest as f64) < KIB * KIB {
        (KIB, "KiB")
    } else if (largest as f64) < KIB * KIB * KIB {
        (KIB * KIB, "MiB")
    } else {
        (KIB * KIB * KIB, "GiB")
    };
    let top = largest as f64 / div;
    let decimals = if div == 1.0 || top >= 100.0 {
        0
    } else if top >= 10.0 {
        1
    } else {
        2
    };
    (values.map(|v| fixed(v as f64 / div, decimals)), unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_ends_of_a_span_read_in_one_unit() {
        let u = TimeUnit::for_span(30e9);
        assert_eq!(
            format!("{} / {}", u.format(8_999_802_000.0, 3), u.format(30e9, 3)),
            "9.000 s / 30.000 s"
        );
        let u = TimeUnit::for_span(49.7e6);
        assert_eq!(u.format(0.35e6, 3), "0.350 ms");
    }

    #[test]
    fn bytes_shown_together_share_unit_and_precision() {
        assert_eq!(
            bytes_alike([87_245, 87_040]),
            (["85.2".to_string(), "85.0".to_string()], "KiB")
        );
        assert_eq!(bytes_alike([0, 131_072]).0, ["0", "128"]);
        assert_eq!(bytes_alike([1_394_606, 1_331_712]).1, "MiB");
        assert_eq!(
            bytes_alike([1448, 4096]),
            (["1448".into(), "4096".into()], "B")
        );
    }
}
