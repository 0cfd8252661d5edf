//! The contract between the book and the widgets.
//!
//! Every widget, its parameters (with units, ranges and defaults) and its
//! presets are declared here once. The mdBook preprocessor validates
//! `{{#widget NAME key=value ...}}` directives against this table at build
//! time, and the widgets build their sliders and clamp their input from it at
//! run time, so the two can never disagree about what a parameter means.

use sim_core::time::SimDuration;
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
}

#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub name: &'static str,
    pub title: &'static str,
    /// The scenario file in `scenarios/` this preset loads.
    pub scenario: &'static str,
    /// Every slider's value in base units, read from that file when the crate
    /// is built (see `build.rs`).
    pub values: &'static [(&'static str, f64)],
    /// What an instructor might say about the case, shown in presenter mode only.
    pub notes: &'static str,
}

#[derive(Clone, Copy, Debug)]
pub struct WidgetSpec {
    pub name: &'static str,
    pub title: &'static str,
    pub params: &'static [ParamSpec],
    pub presets: &'static [Preset],
}

mod catalogue;
pub mod reference;
pub use catalogue::WIDGETS;

/// The views a widget can show, by the names `views=` and the URL use.
pub const VIEW_NAMES: &[&str] = &["cwnd", "tsg", "ladder", "throughput", "rtt"];

// Specs are static tables: two are the same when they name the same thing.
// (UI components need `PartialEq` on their props to skip needless re-renders.)
impl PartialEq for ParamSpec {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl PartialEq for WidgetSpec {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

/// Parameters every widget accepts besides its own.
/// `compare=PARAM vs=VALUE` shows two runs side by side that differ only in
/// PARAM (the widget's value against VALUE); `views=tsg,rtt` picks the charts.
pub const COMMON_KEYS: &[&str] = &["preset", "compare", "vs", "views"];

pub fn widget(name: &str) -> Option<&'static WidgetSpec> {
    WIDGETS.iter().find(|w| w.name == name)
}

pub fn widget_names() -> Vec<&'static str> {
    WIDGETS.iter().map(|w| w.name).collect()
}

impl WidgetSpec {
    pub fn param(&self, name: &str) -> Option<&'static ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }

    pub fn preset(&self, name: &str) -> Option<&'static Preset> {
        self.presets.iter().find(|p| p.name == name)
    }

    pub fn param_names(&self) -> Vec<&'static str> {
        self.params.iter().map(|p| p.name).collect()
    }

    pub fn preset_names(&self) -> Vec<&'static str> {
        self.presets.iter().map(|p| p.name).collect()
    }

    /// Checks the pairs that depend on each other (after [`Self::check`] on
    /// each): `vs` needs `compare`, and is read as the compared parameter.
    pub fn check_together(&self, pairs: &[(String, String)]) -> Result<(), ParamError> {
        let get = |k: &str| pairs.iter().find(|(key, _)| key == k).map(|(_, v)| v);
        match (get("compare"), get("vs")) {
            (Some(c), Some(v)) => self.param(c).map_or(Ok(()), |p| {
                p.parse(v).map(|_| ()).map_err(|e| ParamError {
                    key: "vs".into(),
                    message: e.message,
                })
            }),
            (None, Some(_)) => Err(ParamError {
                key: "vs".into(),
                message: "needs compare=PARAM to say what it is compared with".into(),
            }),
            (Some(_), None) => Err(ParamError {
                key: "compare".into(),
                message: "needs vs=VALUE, the compared parameter's value in the second run".into(),
            }),
            (None, None) => Ok(()),
        }
    }

    /// The views `views=` names (one or two, comma-separated), or why not.
    pub fn parse_views(value: &str) -> Result<Vec<&'static str>, ParamError> {
        let err = |m: String| ParamError {
            key: "views".into(),
            message: m,
        };
        let mut out = Vec::new();
        for name in value.split(',').map(str::trim) {
            match VIEW_NAMES.iter().find(|v| **v == name) {
                Some(v) => out.push(*v),
                None => {
                    return Err(err(format!(
                        "unknown view `{}` (known: {})",
                        name.chars().take(40).collect::<String>(),
                        VIEW_NAMES.join(", ")
                    )));
                }
            }
        }
        if out.len() > 2 {
            return Err(err(
                "at most two views (the widget has two chart panels)".into()
            ));
        }
        Ok(out)
    }

    /// Checks one `key=value` pair of a directive or URL.
    pub fn check(&self, key: &str, value: &str) -> Result<(), ParamError> {
        match key {
            "compare" => {
                return match self.param(value) {
                    Some(_) => Ok(()),
                    None => Err(ParamError {
                        key: key.into(),
                        message: format!(
                            "compare names a parameter (known: {})",
                            self.param_names().join(", ")
                        ),
                    }),
                };
            }
            // Read against `compare` in `check_together`.
            "vs" => return Ok(()),
            "views" => return Self::parse_views(value).map(|_| ()),
            _ => {}
        }
        if key == "preset" {
            return match self.preset(value) {
                Some(_) => Ok(()),
                None => Err(ParamError {
                    key: key.to_string(),
                    message: format!(
                        "unknown preset `{value}` (known: {})",
                        self.preset_names().join(", ")
                    ),
                }),
            };
        }
        match self.param(key) {
            Some(p) => p.parse(value).map(|_| ()),
            None => Err(ParamError {
                key: key.to_string(),
                message: format!(
                    "unknown parameter for widget `{}` (known: preset, {})",
                    self.name,
                    self.param_names().join(", ")
                ),
            }),
        }
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
                match number.parse::<f64>() {
                    Ok(v) if v.is_finite() => Ok(v * scale),
                    _ => Err(err(format!(
                        "`{t}` is not a probability (write 3e-5, 0.00003 or 0.003%)"
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
            v.clamp(self.min, self.max)
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
            Kind::Ratio if v >= 1e-3 => format!("{} %", sig3(v * 100.0)),
            Kind::Ratio => format!("{:e}", sig3(v)),
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
            Kind::Ratio => return format!("{v}"),
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
            Kind::Count | Kind::Ratio | Kind::Choice(_) => &[(1, "")],
        };
        let (div, unit) = units
            .iter()
            .find(|(d, _)| n >= *d && n.is_multiple_of(*d))
            .copied()
            .unwrap_or((1, units[units.len() - 1].1));
        format!("{}{}", n / div, unit)
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
            pos.clamp(0.0, 1.0)
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
        if self.kind == Kind::Ratio {
            return sig3(v);
        }
        let mag = 10f64.powf(v.log10().floor() - 2.0);
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
    use super::*;

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
    fn every_preset_value_is_a_valid_parameter() {
        for w in WIDGETS {
            for p in w.presets {
                // The build script gives a value for every slider, each in range.
                assert_eq!(p.values.len(), w.params.len(), "{}/{}", w.name, p.name);
                for &(k, v) in p.values {
                    let param = w
                        .param(k)
                        .unwrap_or_else(|| panic!("{}/{}: no slider {k}", w.name, p.name));
                    assert!(
                        param.min <= v && v <= param.max,
                        "{}/{}: {k} = {} is outside {} to {}",
                        w.name,
                        p.name,
                        param.format(v),
                        param.format(param.min),
                        param.format(param.max)
                    );
                }
            }
        }
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
    fn compare_needs_vs_read_as_the_compared_parameter() {
        let w = widget("long-fat").unwrap();
        let pairs = |p: &[(&str, &str)]| -> Vec<(String, String)> {
            p.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        assert!(
            w.check_together(&pairs(&[("compare", "cc"), ("vs", "bbr")]))
                .is_ok()
        );
        assert_eq!(
            w.check_together(&pairs(&[("compare", "cc"), ("vs", "vegas")]))
                .unwrap_err()
                .key,
            "vs"
        );
        assert_eq!(
            w.check_together(&pairs(&[("vs", "bbr")])).unwrap_err().key,
            "vs"
        );
        assert_eq!(
            w.check_together(&pairs(&[("compare", "cc")]))
                .unwrap_err()
                .key,
            "compare"
        );
        assert!(w.check("compare", "colour").is_err());
        assert!(w.check("views", "tsg,rtt").is_ok());
        assert!(w.check("views", "tsg,<b>").is_err());
        assert!(w.check("views", "tsg,rtt,cwnd").is_err());
    }

    #[test]
    fn out_of_range_values_name_the_range() {
        let w = widget("slow-start").unwrap();
        let e = w.check("initcwnd", "1000").unwrap_err();
        assert_eq!(e.key, "initcwnd");
        assert!(e.message.contains("1 to 100"), "{}", e.message);
        let e = w.check("rtt", "1s").unwrap_err();
        assert!(e.message.contains("300 ms"), "{}", e.message);
    }

    #[test]
    fn unknown_keys_and_presets_list_the_known_ones() {
        let w = widget("slow-start").unwrap();
        assert!(
            w.check("colour", "red")
                .unwrap_err()
                .message
                .contains("rtt")
        );
        assert!(
            w.check("preset", "nope")
                .unwrap_err()
                .message
                .contains("seed-7ms")
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
