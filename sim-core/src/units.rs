//! Quantities with explicit units, as readers write them: `"7ms"`, `"1Gbit"`, `"512KiB"`.
//!
//! Scenario files, widget directives and URL parameters all go through these
//! parsers, so one spelling works everywhere and every error names the unit
//! that was expected.

use crate::decimal::parse_f64;
use crate::time::SimDuration;
use std::fmt;

/// Why a quantity could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitError(pub String);

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UnitError {}

/// Splits `"12.5ms"` into `(12.5, "ms")`; the number must be finite and not negative.
fn split_number(text: &str) -> Result<(f64, &str), UnitError> {
    let t = text.trim();
    let end = t
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == '_'))
        .map(|(i, _)| i)
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(end);
    let num: String = num.chars().filter(|c| *c != '_').collect();
    let value = parse_f64(&num)
        .ok_or_else(|| UnitError(format!("`{text}` does not start with a number")))?;
    if !value.is_finite() {
        return Err(UnitError(format!("`{text}` is not a finite number")));
    }
    Ok((value, unit.trim()))
}

fn to_u64(value: f64, text: &str) -> Result<u64, UnitError> {
    if value > u64::MAX as f64 / 2.0 {
        return Err(UnitError(format!("`{text}` is too large")));
    }
    Ok(value.round() as u64)
}

/// Parses a duration: `ns`, `us`, `ms`, `s` (a bare number is milliseconds).
pub fn parse_duration(text: &str) -> Result<SimDuration, UnitError> {
    let (value, unit) = split_number(text)?;
    let scale = match unit {
        "ns" => 1.0,
        "us" | "µs" => 1e3,
        "ms" | "" => 1e6,
        "s" => 1e9,
        other => {
            return Err(UnitError(format!(
                "`{text}`: unknown time unit `{other}` (use ns, us, ms or s)"
            )));
        }
    };
    Ok(SimDuration(to_u64(value * scale, text)?))
}

/// Parses a bit rate in bits per second: `bit`, `kbit`, `Mbit`, `Gbit` (as `tc` spells them;
/// `bps`-style suffixes are accepted too). A bare number is bits per second.
pub fn parse_rate(text: &str) -> Result<u64, UnitError> {
    let (value, unit) = split_number(text)?;
    let scale = match unit {
        "" | "bit" | "bps" => 1.0,
        "kbit" | "Kbit" | "kbps" | "Kbps" => 1e3,
        "mbit" | "Mbit" | "mbps" | "Mbps" => 1e6,
        "gbit" | "Gbit" | "gbps" | "Gbps" => 1e9,
        other => {
            return Err(UnitError(format!(
                "`{text}`: unknown rate unit `{other}` (use bit, kbit, Mbit or Gbit)"
            )));
        }
    };
    to_u64(value * scale, text)
}

/// Parses a size in bytes: `B`, `KB`/`MB`/`GB` (powers of 1000), `KiB`/`MiB`/`GiB`
/// (powers of 1024). A bare number is bytes.
pub fn parse_bytes(text: &str) -> Result<u64, UnitError> {
    let (value, unit) = split_number(text)?;
    let scale = match unit {
        "" | "B" => 1.0,
        "KB" | "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "KiB" | "K" | "k" => 1024.0,
        "MiB" | "M" => 1024.0 * 1024.0,
        "GiB" | "G" => 1024.0 * 1024.0 * 1024.0,
        other => {
            return Err(UnitError(format!(
                "`{text}`: unknown size unit `{other}` (use B, KB, KiB, MB, MiB, GB or GiB)"
            )));
        }
    };
    to_u64(value * scale, text)
}

/// Formats a byte count the way the book prints it (`512 KiB`, `1.5 MiB`, `1448 B`).
pub fn format_bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    if bytes < 10 * 1024 {
        format!("{bytes} B")
    } else if b < KIB * KIB {
        trim_float(b / KIB, "KiB")
    } else if b < KIB * KIB * KIB {
        trim_float(b / (KIB * KIB), "MiB")
    } else {
        trim_float(b / (KIB * KIB * KIB), "GiB")
    }
}

/// Formats bits per second with `tc`'s units (`100 Mbit/s`).
pub fn format_rate(bps: u64) -> String {
    let b = bps as f64;
    if b >= 1e9 {
        trim_float(b / 1e9, "Gbit/s")
    } else if b >= 1e6 {
        trim_float(b / 1e6, "Mbit/s")
    } else if b >= 1e3 {
        trim_float(b / 1e3, "kbit/s")
    } else {
        format!("{bps} bit/s")
    }
}

/// Formats a duration with a unit suited to its size (`0.3 ms`, `7 ms`, `1.25 s`).
pub fn format_duration(d: SimDuration) -> String {
    let ms = d.as_millis_f64();
    if ms >= 1000.0 {
        trim_float(ms / 1000.0, "s")
    } else if ms >= 1.0 {
        trim_float(ms, "ms")
    } else {
        trim_float(ms * 1000.0, "µs")
    }
}

/// Up to three significant decimals, trailing zeros dropped: `7 ms`, `0.3 ms`, `1.25 s`.
fn trim_float(value: f64, unit: &str) -> String {
    let digits = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    let s = crate::decimal_text::fixed(value, digits);
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        &s
    };
    format!("{s} {unit}")
}

/// `f64::clamp` without its check: `clamp` asserts `lo <= hi` with a message
/// that formats both bounds, and that one `{:?}` brings the standard float
/// formatter into the widgets' wasm (see `decimal_text`). Where `lo <= hi`
/// it gives what `clamp` gives, NaN included.
pub trait Within {
    fn within(self, lo: f64, hi: f64) -> f64;
}

impl Within for f64 {
    fn within(self, lo: f64, hi: f64) -> f64 {
        if self < lo {
            lo
        } else if self > hi {
            hi
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_with_their_units() {
        assert_eq!(parse_duration("7ms").unwrap(), SimDuration::from_millis(7));
        assert_eq!(
            parse_duration("0.3ms").unwrap(),
            SimDuration::from_micros(300)
        );
        assert_eq!(
            parse_duration("200us").unwrap(),
            SimDuration::from_micros(200)
        );
        assert_eq!(
            parse_duration("1.5s").unwrap(),
            SimDuration::from_millis(1500)
        );
        assert_eq!(parse_duration("40").unwrap(), SimDuration::from_millis(40));
    }

    #[test]
    fn rates_use_tc_spelling() {
        assert_eq!(parse_rate("1Gbit").unwrap(), 1_000_000_000);
        assert_eq!(parse_rate("100Mbit").unwrap(), 100_000_000);
        assert_eq!(parse_rate("1.5Mbit").unwrap(), 1_500_000);
        assert_eq!(parse_rate("64kbit").unwrap(), 64_000);
    }

    #[test]
    fn sizes_distinguish_decimal_and_binary_prefixes() {
        assert_eq!(parse_bytes("512KiB").unwrap(), 524_288);
        assert_eq!(parse_bytes("16KB").unwrap(), 16_000);
        assert_eq!(parse_bytes("64240").unwrap(), 64_240);
        assert_eq!(parse_bytes("4MiB").unwrap(), 4 * 1024 * 1024);
    }

    #[test]
    fn bad_quantities_name_the_problem() {
        assert!(parse_duration("fast").unwrap_err().0.contains("number"));
        assert!(
            parse_duration("7 parsecs")
                .unwrap_err()
                .0
                .contains("unknown time unit")
        );
        assert!(
            parse_rate("1Tbit")
                .unwrap_err()
                .0
                .contains("unknown rate unit")
        );
        assert!(parse_bytes("1e999").is_err());
        assert!(parse_bytes("-5").is_err());
        assert!(
            parse_bytes("99999999999999999999999999GiB")
                .unwrap_err()
                .0
                .contains("too large")
        );
    }

    #[test]
    fn quantities_format_for_readers() {
        assert_eq!(format_bytes(524_288), "512 KiB");
        assert_eq!(format_bytes(1448), "1448 B");
        assert_eq!(format_rate(1_000_000_000), "1 Gbit/s");
        assert_eq!(format_duration(SimDuration::from_micros(300)), "300 µs");
        assert_eq!(format_duration(SimDuration::from_millis(7)), "7 ms");
    }
}
