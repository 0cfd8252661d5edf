//! The Linux knobs the book touches, in one table: every sysctl, socket
//! option, route attribute and `ip tcp_metrics` command a chapter, a seed
//! case or a scenario file names, with its default in each kernel era, the
//! kernel function that reads it, the `ss` field that shows its effect,
//! whether and how the simulator models it, and the chapters that use it.
//!
//! ```text
//!                ┌─► scenario files: the keys `[HOST.sysctl]`, `[HOST.sockopt]`
//!   knobs table ─┤    and `[HOST.route]` accept, and the setter each value goes to
//!                ├─► the widgets' parameter help (`ParamSpec::knob`)
//!                └─► the book's "Linux knobs reference" appendix
//! ```
//!
//! The defaults are a freshly booted host's, read in each era's source (the
//! eras are [`Kernel`]'s); where a sysctl is modelled, a test checks them
//! against [`Kernel::sysctls`], so the table and the simulator cannot
//! disagree. Adding a key to the scenario reader means giving its entry here
//! a [`Model::Key`].

mod others;
mod sysctls;
#[cfg(test)]
mod tests;

pub use others::{COMMANDS, ROUTE_ATTRIBUTES, SOCKET_OPTIONS};
pub use sysctls::SYSCTLS;

use super::{HostSettings, Kernel, Qdisc, Sysctls};

/// What kind of knob: how an administrator or application sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// `sysctl -w net.ipv4.tcp_rmem="..."`.
    Sysctl,
    /// `setsockopt(fd, level, NAME, ...)` (or `getsockopt`).
    SocketOption,
    /// `ip route change ... NAME VALUE`.
    RouteAttribute,
    /// An `ip` command.
    Command,
}

impl Family {
    pub const ALL: [Family; 4] = [
        Family::Sysctl,
        Family::SocketOption,
        Family::RouteAttribute,
        Family::Command,
    ];

    /// The family's heading in the appendix.
    pub fn title(self) -> &'static str {
        match self {
            Family::Sysctl => "Sysctls",
            Family::SocketOption => "Socket options",
            Family::RouteAttribute => "Route attributes",
            Family::Command => "`ip tcp_metrics` commands",
        }
    }

    /// The table of a host's section in scenario files that holds this
    /// family's keys (`[client.sysctl]`), if there is one.
    pub fn scenario_table(self) -> Option<&'static str> {
        match self {
            Family::Sysctl => Some("sysctl"),
            Family::SocketOption => Some("sockopt"),
            Family::RouteAttribute => Some("route"),
            Family::Command => None,
        }
    }

    /// The family's knobs, in the table's order.
    pub fn knobs(self) -> &'static [Knob] {
        match self {
            Family::Sysctl => SYSCTLS,
            Family::SocketOption => SOCKET_OPTIONS,
            Family::RouteAttribute => ROUTE_ATTRIBUTES,
            Family::Command => COMMANDS,
        }
    }
}

/// A book chapter, by its title in `src/SUMMARY.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chapter {
    Nagle,
    Buffers,
    SlowStart,
    Metrics,
    LongFat,
}

impl Chapter {
    pub const ALL: [Chapter; 5] = [
        Chapter::Nagle,
        Chapter::Buffers,
        Chapter::SlowStart,
        Chapter::Metrics,
        Chapter::LongFat,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Chapter::Nagle => "Nagle and delayed ACK",
            Chapter::Buffers => "Buffers and the bandwidth-delay product",
            Chapter::SlowStart => "Slow start and initcwnd",
            Chapter::Metrics => "tcp_metrics: what Linux remembers",
            Chapter::LongFat => "Long fat networks: CUBIC vs BBR",
        }
    }

    /// The chapter's page under `src/`, once written (`None`: a draft).
    pub fn file(self) -> Option<&'static str> {
        match self {
            Chapter::SlowStart => Some("slow-start.md"),
            Chapter::Nagle => Some("nagle-delayed-ack.md"),
            Chapter::Buffers => Some("buffers-bdp.md"),
            Chapter::Metrics => Some("tcp-metrics.md"),
            Chapter::LongFat => Some("long-fat-networks.md"),
        }
    }
}

/// How a scenario file's value reaches [`HostSettings`]: what the value is
/// (the reader parses it) and the setter that takes it. A setter returning
/// `Err` explains why the value is refused; the reader adds the key.
#[derive(Clone, Copy)]
pub enum Setter {
    /// `0` or `1`.
    Flag(fn(&mut HostSettings, bool)),
    /// A size: bytes, or text with a unit (`"64KiB"`).
    Bytes(fn(&mut HostSettings, u64)),
    /// `"min default max"`, three sizes in order.
    Sizes(fn(&mut HostSettings, [u64; 3])),
    /// A whole number of segments, not negative.
    Count(fn(&mut HostSettings, u32)),
    /// A size that fits the kernel's `u32` (`TCP_NOTSENT_LOWAT`).
    Bytes32(fn(&mut HostSettings, u32)),
    /// A whole number the setter checks.
    Int(fn(&mut HostSettings, i64) -> Result<(), String>),
    /// A name the setter checks (a qdisc, a congestion control).
    Name(fn(&mut HostSettings, &str) -> Result<(), String>),
}

impl std::fmt::Debug for Setter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Setter::Flag(_) => "Flag",
            Setter::Bytes(_) => "Bytes",
            Setter::Sizes(_) => "Sizes",
            Setter::Count(_) => "Count",
            Setter::Bytes32(_) => "Bytes32",
            Setter::Int(_) => "Int",
            Setter::Name(_) => "Name",
        })
    }
}

/// Whether and how the simulator models a knob.
#[derive(Clone, Copy, Debug)]
pub enum Model {
    /// A key of the host's table in scenario files ([`Family::scenario_table`]).
    Key(Setter),
    /// Modelled, but not as a key of its own: where to find it.
    Elsewhere(&'static str),
    /// Not modelled.
    No,
}

/// A default the era's kernel did not have: the knob did not exist.
pub const ABSENT: &str = "—";

/// The same default in every era.
const fn every_era(value: &'static str) -> [&'static str; 5] {
    [value; 5]
}

/// One knob.
#[derive(Clone, Copy, Debug)]
pub struct Knob {
    /// As Linux spells it: `net.ipv4.tcp_rmem`, `SO_RCVBUF`, `initcwnd`,
    /// `ip tcp_metrics show`. Unique across the table.
    pub name: &'static str,
    pub family: Family,
    /// What it does, in a sentence or two.
    pub what: &'static str,
    /// Its value on a freshly booted host of each era, in [`Kernel::ALL`]'s
    /// order (oldest first), as `sysctl` prints it; [`ABSENT`] where the
    /// kernel did not have it. Text after the value in parentheses explains.
    pub defaults: [&'static str; 5],
    /// The kernel function(s) that read it (6.18's names).
    pub read_by: &'static str,
    /// Where `ss -tmi` (or another tool) shows its effect; [`ABSENT`]: nowhere.
    pub ss: &'static str,
    pub model: Model,
    pub chapters: &'static [Chapter],
}

impl Knob {
    /// Its default on a host of `kernel`.
    pub fn default_in(&self, kernel: Kernel) -> &'static str {
        self.defaults[kernel as usize]
    }

    /// The scenario file key that sets it, with `HOST` for `client` or
    /// `server`: `HOST.sysctl."net.ipv4.tcp_rmem"`, `HOST.sockopt.SO_RCVBUF`,
    /// `HOST.route.initcwnd`. `None` unless [`Model::Key`].
    pub fn scenario_key(&self) -> Option<String> {
        let Model::Key(_) = self.model else {
            return None;
        };
        let table = self.family.scenario_table()?;
        Some(match self.family {
            Family::Sysctl => format!("HOST.{table}.\"{}\"", self.name),
            _ => format!("HOST.{table}.{}", self.name),
        })
    }

    /// The id of its entry in the appendix: the name, lower case, with
    /// anything but letters, digits and `_` made `-` (`net-ipv4-tcp_rmem`).
    pub fn anchor(&self) -> String {
        self.name
            .chars()
            .map(|c| match c {
                'a'..='z' | '0'..='9' | '_' => c,
                'A'..='Z' => c.to_ascii_lowercase(),
                _ => '-',
            })
            .collect()
    }

    /// The setter a scenario file's value goes to, if it is a key.
    pub fn setter(&self) -> Option<Setter> {
        match self.model {
            Model::Key(setter) => Some(setter),
            _ => None,
        }
    }
}

/// Every knob: sysctls, socket options, route attributes, commands.
pub fn all() -> impl Iterator<Item = &'static Knob> {
    Family::ALL.into_iter().flat_map(Family::knobs)
}

/// The knob of this name, in any family.
pub fn named(name: &str) -> Option<&'static Knob> {
    all().find(|k| k.name == name)
}

/// The names a scenario file's host table accepts for `family`, sorted.
pub fn scenario_keys(family: Family) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = family
        .knobs()
        .iter()
        .filter(|k| k.setter().is_some())
        .map(|k| k.name)
        .collect();
    names.sort_unstable();
    names
}

impl Sysctls {
    /// A modelled sysctl's value as `sysctl NAME` prints it (the three sizes
    /// of `tcp_rmem` separated by single spaces); `None` for a sysctl the
    /// simulator does not hold. `tcp_adv_win_scale` unset (6.6+) prints 1,
    /// the value the sysctl keeps though nothing reads it.
    pub fn text(&self, name: &str) -> Option<String> {
        let flag = |on: bool| u8::from(on).to_string();
        let sizes = |s: [u64; 3]| format!("{} {} {}", s[0], s[1], s[2]);
        Some(match name {
            "net.ipv4.tcp_rmem" => sizes(self.tcp_rmem),
            "net.ipv4.tcp_wmem" => sizes(self.tcp_wmem),
            "net.core.rmem_max" => self.rmem_max.to_string(),
            "net.core.wmem_max" => self.wmem_max.to_string(),
            "net.ipv4.tcp_moderate_rcvbuf" => flag(self.tcp_moderate_rcvbuf),
            "net.ipv4.tcp_window_scaling" => flag(self.tcp_window_scaling),
            "net.ipv4.tcp_sack" => flag(self.tcp_sack),
            "net.core.default_qdisc" => match self.default_qdisc {
                Qdisc::PfifoFast => "pfifo_fast",
                Qdisc::Pfifo => "pfifo",
                Qdisc::FqCodel => "fq_codel",
                Qdisc::Fq => "fq",
            }
            .to_string(),
            "net.ipv4.tcp_congestion_control" => {
                self.tcp_congestion_control.kind().name().to_string()
            }
            "net.ipv4.tcp_no_metrics_save" => flag(self.tcp_no_metrics_save),
            "net.ipv4.tcp_no_ssthresh_metrics_save" => flag(self.tcp_no_ssthresh_metrics_save),
            "net.ipv4.tcp_retries2" => self.tcp_retries2.to_string(),
            "net.ipv4.tcp_syn_retries" => self.tcp_syn_retries.to_string(),
            "net.ipv4.tcp_notsent_lowat" => self.tcp_notsent_lowat.to_string(),
            "net.ipv4.tcp_synack_retries" => self.tcp_synack_retries.to_string(),
            "net.ipv4.tcp_adv_win_scale" => self.tcp_adv_win_scale.unwrap_or(1).to_string(),
            "net.ipv4.tcp_slow_start_after_idle" => flag(self.tcp_slow_start_after_idle),
            _ => return None,
        })
    }
}
