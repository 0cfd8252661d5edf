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
}

#[derive(Clone, Copy, Debug)]
pub struct WidgetSpec {
    pub name: &'static str,
    pub title: &'static str,
    pub params: &'static [ParamSpec],
    pub presets: &'static [Preset],
}

const MS: f64 = 1e6;

include!(concat!(env!("OUT_DIR"), "/presets.rs"));

/// Every widget the book can embed.
pub const WIDGETS: &[WidgetSpec] = &[WidgetSpec {
    name: "slow-start",
    title: "Slow start on a new connection",
    params: &[
        ParamSpec {
            name: "rtt",
            label: "RTT",
            help: "round-trip propagation delay",
            kind: Kind::Duration,
            min: 0.1 * MS,
            max: 300.0 * MS,
            default: 7.0 * MS,
            log: true,
        },
        ParamSpec {
            name: "bandwidth",
            label: "Bandwidth",
            help: "bottleneck rate",
            kind: Kind::Rate,
            min: 1e6,
            max: 10e9,
            default: 1e9,
            log: true,
        },
        ParamSpec {
            name: "mss",
            label: "MSS",
            help: "payload bytes per segment",
            kind: Kind::Count,
            min: 536.0,
            max: 8948.0,
            default: 1448.0,
            log: false,
        },
        ParamSpec {
            name: "initcwnd",
            label: "initcwnd",
            help: "initial congestion window in segments",
            kind: Kind::Count,
            min: 1.0,
            max: 100.0,
            default: 10.0,
            log: false,
        },
        ParamSpec {
            name: "size",
            label: "Transfer size",
            help: "bytes the server sends",
            kind: Kind::Bytes,
            min: 1024.0,
            max: 64.0 * 1024.0 * 1024.0,
            default: 512.0 * 1024.0,
            log: true,
        },
        ParamSpec {
            name: "rwnd",
            label: "Receiver's SYN window",
            help: "window the client advertises in its SYN",
            kind: Kind::Bytes,
            min: 1024.0,
            max: 65535.0,
            default: 64240.0,
            log: false,
        },
        ParamSpec {
            name: "rcvbuf",
            label: "Receive buffer",
            help: "client's initial receive buffer, tcp_rmem[1]; autotuning grows it",
            kind: Kind::Bytes,
            min: 4096.0,
            max: 32.0 * 1024.0 * 1024.0,
            default: 131072.0,
            log: true,
        },
    ],
    // Read from the scenario files at build time (build.rs).
    presets: SLOW_START_PRESETS,
}];

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
pub const COMMON_KEYS: &[&str] = &["preset"];

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

    /// Checks one `key=value` pair of a directive or URL.
    pub fn check(&self, key: &str, value: &str) -> Result<(), ParamError> {
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
        }
    }

    /// The value written so that [`ParamSpec::parse_unchecked`] reads back
    /// exactly the same number (for links): the largest unit that holds it
    /// as a whole number, else base units.
    pub fn exact_text(&self, v: f64) -> String {
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
            Kind::Count => &[(1, "")],
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
        let mag = 10f64.powf(v.log10().floor() - 2.0);
        ((v / mag).round() * mag).round()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_text_reads_back_to_the_same_value() {
        let spec = widget("slow-start").unwrap();
        for p in spec.params {
            for pos in 0..=100 {
                let v = p.from_position(pos as f64 / 100.0);
                let text = p.exact_text(v);
                assert_eq!(
                    p.parse_unchecked(&text).unwrap(),
                    v.round(),
                    "{} {text}",
                    p.name
                );
            }
        }
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
