//! Scenario files: TOML whose keys are Linux's own names.
//!
//! ```toml
//! format = 1
//! name = "seed-004-7ms"
//!
//! [path]
//! rate = "1Gbit"
//! rtt = "7ms"
//!
//! [server.route]
//! initcwnd = 10                                  # ip route ... initcwnd 10
//!
//! [client]
//! kernel = "5.5"                                 # the era: its defaults, then the keys below
//!
//! [client.sysctl]
//! "net.ipv4.tcp_rmem" = "4096 131072 6291456"    # sysctl -w net.ipv4.tcp_rmem=...
//!
//! [client.sockopt]
//! SO_RCVBUF = "64KiB"                            # setsockopt(SOL_SOCKET, SO_RCVBUF)
//!
//! [app]
//! type = "request-response"
//! request = "147B"
//! response = "512KiB"
//! ```
//!
//! Quantities carry their units (`"7ms"`, `"100Mbit"`, `"16KiB"`). Every key
//! is checked: an unknown key, a malformed value or one out of range is an
//! error that names the key and what is allowed. The appendix "Scenario file
//! reference" documents the format; `scenarios/scenario.schema.json` is its
//! JSON Schema (`tcpsim schema`).
//!
//! The reader only parses: `sections.rs` holds the file's shape (serde
//! structs), `path.rs`, `host.rs` and `app.rs` turn each section into the
//! simulator's settings, calling [`crate::config::HostSettings`]' setters for
//! a host's Linux knobs (which ones exist is the knobs table's,
//! [`crate::config::knobs`]), `behaviour.rs` reads single behaviour switches,
//! `values.rs` reads sysctl-style values, `schema.rs` gives the JSON Schema.

mod app;
mod behaviour;
mod host;
mod path;
mod schema;
mod sections;
mod values;

pub use behaviour::SWITCHES;
pub use schema::json_schema;
pub use sections::{
    AppSection, DropSection, HostSection, OutageSection, PathSection, RouteSection, ScenarioFile,
    StackSection, Value, Writes,
};

use crate::config::{AfterGiveUp, ConfigError, Kernel, Scenario};
use crate::units::parse_duration;

/// The format version this code reads.
pub const FORMAT: u32 = 1;

pub use crate::config::{RMEM_MAX_DEFAULT, WMEM_MAX_DEFAULT};

/// Why a scenario file cannot be used. `key` is the dotted path of the bad key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub key: Option<String>,
    pub message: String,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.key {
            Some(k) => write!(f, "key `{k}`: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for FileError {}

impl From<ConfigError> for FileError {
    fn from(e: ConfigError) -> Self {
        FileError {
            key: Some(e.key),
            message: e.message,
        }
    }
}

fn err(key: impl Into<String>, message: impl Into<String>) -> FileError {
    FileError {
        key: Some(key.into()),
        message: message.into(),
    }
}

/// Parses and checks a scenario file's text.
pub fn parse(text: &str) -> Result<(ScenarioFile, Scenario), FileError> {
    let file = read(text)?;
    let scenario = file.to_scenario()?;
    Ok((file, scenario))
}

/// Reads a scenario file's text as written, checking only its shape: what
/// [`ScenarioFile::to_scenario`] then checks and builds, after any change
/// (`tcpsim run --kernel`).
pub fn read(text: &str) -> Result<ScenarioFile, FileError> {
    toml::from_str(text).map_err(|e| FileError {
        key: None,
        message: e.to_string().trim_end().to_string(),
    })
}

impl ScenarioFile {
    /// Both hosts run `kernel`, whatever the file says (`tcpsim run
    /// --kernel`): its defaults come first, then the file's own settings.
    pub fn set_kernel(&mut self, kernel: Kernel) {
        for host in [&mut self.client, &mut self.server] {
            host.kernel = Some(kernel.name().to_string());
        }
    }

    /// Builds the simulator's scenario, checking every value.
    pub fn to_scenario(&self) -> Result<Scenario, FileError> {
        if self.format != FORMAT {
            return Err(err(
                "format",
                format!(
                    "{} is not a known format (this tcpsim reads format {FORMAT})",
                    self.format
                ),
            ));
        }
        let mut s = Scenario {
            path: self.path.to_config()?,
            ..Scenario::default()
        };
        if let Some(seed) = self.seed {
            s.seed = seed;
        }
        if let Some(t) = &self.time_limit {
            s.time_limit = parse_duration(t).map_err(|e| err("time_limit", e.0))?;
        }
        if let Some(n) = self.flows {
            s.flows = n;
        }
        if let Some(t) = &self.sample_interval {
            s.sample_interval = parse_duration(t).map_err(|e| err("sample_interval", e.0))?;
        }
        for name in self.flow_congestion_control.iter().flatten() {
            let kind = crate::cc::Kind::from_name(name).ok_or_else(|| {
                err(
                    "flow_congestion_control",
                    format!("\"{name}\" is not an algorithm the simulator has (reno, cubic, bbr)"),
                )
            })?;
            s.flow_congestion_control.push(kind);
        }
        if let Some(a) = &self.after_give_up {
            s.after_give_up = match a.as_str() {
                "end" => AfterGiveUp::End,
                "continue" => AfterGiveUp::Continue,
                _ => {
                    return Err(err(
                        "after_give_up",
                        format!("`{a}` is not one of \"end\", \"continue\""),
                    ));
                }
            };
        }
        let mss = self.path.mss()?;
        s.client = self.client.to_config("client", mss)?;
        s.server = self.server.to_config("server", mss)?;
        s.app = self.app.to_config(&mut s.client, &mut s.server)?;
        s.validate()?;
        Ok(s)
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_kernel;
