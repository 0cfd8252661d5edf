//! One parameter of a widget: what it measures, its range and default, and
//! how a reader writes its value (`7ms`, `1Gbit`, `512KiB`, `3e-5`, `bbr`).
//! Values are `f64` in base units (ns, bit/s, bytes, segments); a widget's
//! scenario reads them typed, through [`crate::values::Values`].

use sim_core::decimal::parse_f64;
use sim_core::decimal_text::{fixed, shortest, shortest_exp};
use sim_core::time::SimDuration;
use sim_core::units::Within;
use sim_core::units::{
    format_bytes, format_duration, format_rate, parse_bytes, parse_duration, parse_rate,
};

/// What a parameter measures, which fixes how its text is parsed and shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Nanoseconds; written `7ms`, `0.3ms`, `200us`.
    Duration,
    /// Bits per second; written `1Gbit`, `100Mbit`.
    Rate,
    /// Bytes; written `512KiB`, `64240`.
    Bytes,
    /// A plain whole number (segments, bytes of MSS).
    Count,
    /// A probability; written `3e-5`, `0.00003` or `0.003%`.
    Ratio,
    /// A multiple of a quantity the widget derives from other values (a
    /// queue in BDPs: rate × RTT); written `2` or `2BDP`, shown `2 BDP`.
    Multiple(&'static str),
    /// One of named options, stored as its index (a select, or a toggle when
    /// the options are `off` and `on`).
    Choice(&'static [&'static str]),
}

#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    pub name: &'static str,
    pub label: &'static str,
    /// Extra words for the slider's accessible description.
    pub help: &'static str,
    pub kind: Kind,
    /// Range and default in base units (ns, bit/s, bytes, count).
    pub min: f64,
    pub max: f64,
    pub default: f64,
    /// Slide on a log scale (sizes, rates, RTT span decades).
    pub log: bool,
    /// The Linux knob the parameter sets, by its name in sim-core's knobs
    /// table (`net.ipv4.tcp_rmem`, `initcwnd`), which `help` names too.
    pub knob: Option<&'static str>,
}

// Specs are static tables: two are the same when they name the same thing.
// (UI components need `PartialEq` on their props to skip needless re-renders.)
impl PartialEq for ParamSpec {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// A parameter value that cannot be used, naming the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    pub key: String,
    pub message: String,
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}`: {}", self.key, self.message)
    }
}

impl std::error::Error for ParamError {}

impl ParamSpec {
    /// The same parameter in every field (`==` compares names only).
    pub fn same_as(&self, other: &ParamSpec) -> bool {
        self.name == other.name
            && self.kind == other.kind
            && (self.min, self.max, self.default, self.log)
                == (other.min, other.max, other.default, other.log)
    }

    /// Reads a value written with units, in base units, without range checks.
    pub fn parse_unchecked(&self, text: &str) -> Result<f64, ParamError> {
        let err = |m: String| ParamError {
            key: self.name.to_string(),
            message: m,
        };
        match self.kind {
            Kind::Duration => parse_duration(text)
                .map(|d| d.0 as f64)
                .map_err(|e| err(e.0)),
            Kind::Rate => parse_rate(text).map(|r| r as f64).map_err(|e| err(e.0)),
            Kind::Bytes => parse_bytes(text).map(|b| b as f64).map_err(|e| err(e.0)),
            Kind::Count => {
                let t = text.trim();
                t.parse::<u64>()
                    .map(|v| v as f64)
                    .map_err(|_| err(format!("`{t}` is not a whole number")))
            }
            Kind::Ratio => {
                let t = text.trim();
                let (number, scale) = match t.strip_suffix('%') {
                    Some(n) => (n.trim(), 0.01),
                    None => (t, 1.0),
                };
                match parse_f64(number) {
                    Some(v) if v.is_finite() => Ok(v * scale),
                    _ => Err(err(format!(
                        "`{t}` is not a probability (write 3e-5, 0.00003 or 0.003%)"
                    ))),
                }
            }
            Kind::Multiple(unit) => {
                let t = text.trim();
                let number = t.strip_suffix(unit).unwrap_or(t).trim();
                match parse_f64(number) {
                    Some(v) if v.is_finite() => Ok(v),
                    _ => Err(err(format!(
                        "`{t}` is not a number of {unit}s (write 2 or 0.5)"
                    ))),
                }
            }
            Kind::Choice(options) => {
                let t = text.trim();
                options
                    .iter()
                    .position(|o| *o == t)
                    .map(|i| i as f64)
                    .ok_or_else(|| err(format!("`{t}` is not one of {}", options.join(", "))))
            }
        }
    }

    /// Reads a value and checks it is within range.
    pub fn parse(&self, text: &str) -> Result<f64, ParamError> {
        let v = self.parse_unchecked(text)?;
        if v < self.min || v > self.max {
            return Err(ParamError {
                key: self.name.to_string(),
                message: format!(
                    "{} is out of range ({} to {})",
                    self.format(v),
                    self.format(self.min),
                    self.format(self.max)
                ),
            });
        }
        Ok(v)
    }

    /// Clamps to the allowed range; `None` from a non-finite value.
    pub fn clamp(&self, v: f64) -> f64 {
        if v.is_nan() {
            self.default
        } else {
            v.within(self.min, self.max)
        }
    }

    /// Shows a value in base units the way a reader writes it.
    pub fn format(&self, v: f64) -> String {
        match self.kind {
            Kind::Duration => format_duration(SimDuration(v.max(0.0) as u64)),
            Kind::Rate => format_rate(v.max(0.0) as u64),
            // Linear byte values (windows) are read to the byte; log ones are sizes.
            Kind::Bytes if !self.log => format!("{} B", v.max(0.0).round() as u64),
            Kind::Bytes => format_bytes(v.max(0.0) as u64),
            Kind::Count => format!("{}", v.round() as i64),
            Kind::Ratio if v >= 1e-3 => format!("{} %", shortest(sig3(v * 100.0))),
            Kind::Ratio => shortest_exp(sig3(v)),
            Kind::Multiple(unit) => format!("{} {unit}", shortest(sig3(v))),
            Kind::Choice(options) => options
                .get(v.max(0.0).round() as usize)
                .unwrap_or(&"?")
                .to_string(),
        }
    }

    /// The value written so that [`ParamSpec::parse_unchecked`] reads back
    /// exactly the same number (for links): the largest unit that holds it
    /// as a whole number, else base units.
    pub fn exact_text(&self, v: f64) -> String {
        match self.kind {
            // Rust prints the shortest text that parses back to the same f64.
            Kind::Ratio | Kind::Multiple(_) => return shortest(v),
            Kind::Choice(_) => return self.format(v),
            _ => {}
        }
        let n = v.max(0.0).round() as u64;
        let units: &[(u64, &str)] = match self.kind {
            Kind::Duration => &[
                (1_000_000_000, "s"),
                (1_000_000, "ms"),
                (1_000, "us"),
                (1, "ns"),
            ],
            Kind::Rate => &[
                (1_000_000_000, "Gbit"),
                (1_000_000, "Mbit"),
                (1_000, "kbit"),
                (1, "bit"),
            ],
            Kind::Bytes => &[
                (1 << 30, "GiB"),
                (1 << 20, "MiB"),
                (1 << 10, "KiB"),
                (1, ""),
            ],
            Kind::Count | Kind::Ratio | Kind::Multiple(_) | Kind::Choice(_) => &[(1, "")],
        };
        let (div, unit) = units
            .iter()
            .find(|(d, _)| n >= *d && n.is_multiple_of(*d))
            .copied()
            .unwrap_or((1, units[units.len() - 1].1));
        format!("{}{}", n / div, unit)
    }

    /// The value for the slider's text box: in the unit and to the
    /// precision [`ParamSpec::format`] shows it in ("33.3 MiB" → `33.3MiB`),
    /// with more decimals where those would not read back as exactly this
    /// value (`33.3328247MiB` for 34,952,000 B), so the box and the value
    /// beside it never differ in unit and an untouched box never changes
    /// the value.
    pub fn typed_text(&self, v: f64) -> String {
        let shown = self.format(v);
        let Some((number, unit)) = shown.split_once(' ') else {
            return self.exact_text(v);
        };
        // The unit as the parser reads it: rates without "/s". A loop of
        // `strip_suffix` is `trim_end_matches("/s")` without core's substring
        // searcher (2 KB of wasm).
        let mut unit = unit;
        while let Some(u) = unit.strip_suffix("/s") {
            unit = u;
        }
        let scale = match (self.kind, unit) {
            (Kind::Duration, "s") => 1e9,
            (Kind::Duration, "ms") => 1e6,
            (Kind::Duration, "µs") => 1e3,
            (Kind::Rate, "Gbit") => 1e9,
            (Kind::Rate, "Mbit") => 1e6,
            (Kind::Rate, "kbit") => 1e3,
            (Kind::Rate, "bit") => 1.0,
            (Kind::Bytes, "GiB") => (1u64 << 30) as f64,
            (Kind::Bytes, "MiB") => (1u64 << 20) as f64,
            (Kind::Bytes, "KiB") => 1024.0,
            (Kind::Bytes, "B") => 1.0,
            (Kind::Ratio, "%") => 0.01,
            (Kind::Multiple(_), _) => 1.0,
            _ => return self.exact_text(v),
        };
        let reads_back = |text: &str| {
            self.parse_unchecked(text).is_ok_and(|r| match self.kind {
                // A percentage is a decimal times 0.01, which binary floating
                // point rounds: equal to the last bit is too much to ask.
                Kind::Ratio | Kind::Multiple(_) => (r - v).abs() <= v.abs() * 1e-12,
                _ => r == v,
            })
        };
        let shown_text = format!("{number}{unit}");
        if reads_back(&shown_text) {
            return shown_text;
        }
        (0..=12)
            .map(|d| {
                let n = fixed(v / scale, d);
                let n = if n.contains('.') {
                    n.trim_end_matches('0').trim_end_matches('.')
                } else {
                    &n
                };
                format!("{n}{unit}")
            })
            .find(|t| reads_back(t))
            .unwrap_or_else(|| self.exact_text(v))
    }

    /// Slider position in [0, 1] for a value (log or linear).
    pub fn to_position(&self, v: f64) -> f64 {
        let v = self.clamp(v);
        if self.log {
            (v.ln() - self.min.ln()) / (self.max.ln() - self.min.ln())
        } else {
            (v - self.min) / (self.max - self.min)
        }
    }

    /// Value for a slider position in [0, 1], rounded to what the kind can hold.
    pub fn from_position(&self, pos: f64) -> f64 {
        let pos = if pos.is_nan() {
            0.0
        } else {
            pos.within(0.0, 1.0)
        };
        let v = if self.log {
            (self.min.ln() + pos * (self.max.ln() - self.min.ln())).exp()
        } else {
            self.min + pos * (self.max - self.min)
        };
        self.clamp(self.round(v))
    }

    /// Rounds to a value a reader would type: whole units, 3 significant digits on log scales.
    pub fn round(&self, v: f64) -> f64 {
        if !self.log || v <= 0.0 {
            return v.round();
        }
        if matches!(self.kind, Kind::Ratio | Kind::Multiple(_)) {
            return sig3(v);
        }
        // powi: an integer power, so the wasm needs no libm pow.
        let mag = 10f64.powi(v.log10().floor() as i32 - 2);
        ((v / mag).round() * mag).round()
    }
}

/// `v` to three significant digits (for probabilities, which are not whole).
fn sig3(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return v;
    }
    let digits = 2 - v.log10().floor() as i32;
    let p = 10f64.powi(digits.abs());
    if digits >= 0 {
        (v * p).round() / p
    } else {
        (v / p).round() * p
    }
}

#[cfg(test)]
mod tests {
    use crate::{WIDGETS, widget};

    const MS: f64 = 1e6;

    #[test]
    fn exact_text_reads_back_to_the_same_value() {
        for p in WIDGETS.iter().flat_map(|w| w.params) {
            for pos in 0..=100 {
                let v = p.from_position(pos as f64 / 100.0);
                let text = p.exact_text(v);
                assert_eq!(p.parse_unchecked(&text).unwrap(), v, "{} {text}", p.name);
            }
        }
        let spec = widget("slow-start").unwrap();
        assert_eq!(spec.param("rtt").unwrap().exact_text(7e6), "7ms");
        assert_eq!(spec.param("size").unwrap().exact_text(524_288.0), "512KiB");
        assert_eq!(spec.param("bandwidth").unwrap().exact_text(1e9), "1Gbit");
    }

    #[test]
    fn the_text_box_shows_the_unit_the_value_beside_it_shows() {
        for p in WIDGETS.iter().flat_map(|w| w.params) {
            for pos in 0..=100 {
                let v = p.from_position(pos as f64 / 100.0);
                let text = p.typed_text(v);
                let back = p.parse_unchecked(&text).unwrap();
                assert!((back - v).abs() <= v.abs() * 1e-12, "{} {text}", p.name);
                let unit = p
                    .format(v)
                    .split_once(' ')
                    .map(|(_, u)| u.trim_end_matches("/s").to_string());
                if let Some(unit) = unit {
                    assert!(
                        text.ends_with(&unit),
                        "{}: {text} beside {}",
                        p.name,
                        p.format(v)
                    );
                }
            }
        }
        let rmem = widget("long-fat").unwrap().param("rmem").unwrap();
        assert_eq!(rmem.format(34_952_000.0), "33.3 MiB");
        assert_eq!(rmem.typed_text(34_952_000.0), "33.332825MiB");
        let size = widget("slow-start").unwrap().param("size").unwrap();
        assert_eq!(size.typed_text(1024.0), "1024B");
        assert_eq!(size.typed_text(524_288.0), "512KiB");
        let rtt = widget("slow-start").unwrap().param("rtt").unwrap();
        assert_eq!(rtt.typed_text(7e6), "7ms");
    }

    #[test]
    fn every_default_lies_within_its_range() {
        for w in WIDGETS {
            for p in w.params {
                assert!(
                    p.min <= p.default && p.default <= p.max,
                    "{}.{}",
                    w.name,
                    p.name
                );
            }
        }
    }

    #[test]
    fn probabilities_and_choices_read_as_written() {
        let w = widget("long-fat").unwrap();
        let loss = w.param("loss").unwrap();
        assert_eq!(loss.parse("3e-5").unwrap(), 3e-5);
        assert_eq!(loss.parse("0.003%").unwrap(), 3e-5);
        assert_eq!(loss.format(3e-5), "3e-5");
        assert_eq!(loss.format(0.01), "1 %");
        assert!(loss.parse("NaN").is_err());
        assert!(
            loss.parse("1")
                .unwrap_err()
                .message
                .contains("out of range")
        );
        let cc = w.param("cc").unwrap();
        assert_eq!(cc.parse("bbr").unwrap(), 2.0);
        assert_eq!(cc.exact_text(0.0), "reno");
        assert!(
            cc.parse("vegas")
                .unwrap_err()
                .message
                .contains("reno, cubic, bbr")
        );
    }

    #[test]
    fn log_sliders_round_trip_through_positions() {
        let w = widget("slow-start").unwrap();
        let rtt = w.param("rtt").unwrap();
        assert_eq!(rtt.from_position(0.0), 0.1 * MS);
        assert_eq!(rtt.from_position(1.0), 300.0 * MS);
        let p = rtt.to_position(7.0 * MS);
        assert!((rtt.from_position(p) - 7.0 * MS).abs() < 0.01 * MS);
    }

    #[test]
    fn hostile_positions_and_values_clamp_to_safe_ones() {
        let p = widget("slow-start").unwrap().param("initcwnd").unwrap();
        assert_eq!(p.from_position(f64::NAN), 1.0);
        assert_eq!(p.from_position(7.0), 100.0);
        assert_eq!(p.clamp(f64::INFINITY), 100.0);
        assert_eq!(p.clamp(f64::NAN), 10.0);
    }
}
