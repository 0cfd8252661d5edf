//! How much a run may cost, and the refusal of one that would cost more:
//! what `tcpsim run` and the widgets check (with [`super::cost::Cost`]'s
//! estimate) before they simulate anything, and what every run is held to
//! while it runs, so that a wrong estimate stops a run instead of freezing
//! the machine or the page.
//!
//! ```text
//!  scenario ─► Cost::of ─► over the budget? ─► refused: the keys, the estimate, the limit
//!                                 │ no
//!                                 ▼
//!                          simulate ─► past BACKSTOP × the budget? ─► stopped, the same message
//! ```

use super::cost::{Cost, Part};
use crate::config::{ConfigError, Scenario};
use crate::time::{SimDuration, SimTime};
use crate::units::{format_bytes, format_duration, format_rate};

/// How far a run may go past its budget before it is stopped: the estimate
/// is an upper bound, so a run it let through ends well before; one that
/// does not had a wrong estimate, and stops at twice the budget (at most
/// about a minute natively, see [`Budget::NATIVE`]).
pub const BACKSTOP: u64 = 2;

/// The most a run may cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Bytes the run's trace and what is in flight may take.
    pub max_memory_bytes: u64,
    /// Events the simulator may act on, counting each application
    /// `write()` call as one (1-byte writes need no event of their own, and
    /// a million of them take about as long as 150,000 events).
    pub max_events: u64,
}

impl Budget {
    /// `tcpsim run`'s limits, for a 2-core 24 GB machine: 1 GiB (a run
    /// never needs a good part of the machine), and 100 million events.
    ///
    /// The events: `tcpsim` (the `tools` profile) simulated 8.9 million
    /// events in 1.8 s (4.9 million a second) on 4 flows of 2 GiB at 10
    /// Gbit/s, 1 ms (`/usr/bin/time target/tools/tcpsim run big.toml`, the
    /// machine's other core busy), and ten 30 s BBR flows on seed 003's path
    /// 5.5 million in 1.8 s (3 million a second, with 10 flows' samples and
    /// bandwidth filters): 100 million is 20 to 35 s, and the backstop
    /// ([`BACKSTOP`] × the budget) a minute at most. 1-byte `write()` calls
    /// ran at 28 million a second (16 MiB of them in 0.6 s), so counting
    /// each as an event errs on the safe side.
    pub const NATIVE: Budget = Budget {
        max_memory_bytes: 1 << 30,
        max_events: 100_000_000,
    };

    /// A widget's limits in a browser tab: 256 MiB, what a phone's tab can
    /// spare (the trace and what is in flight; the page's views and the
    /// copies kept for replays come on top, and are far smaller), and 20
    /// million events, the simulator's old ceiling for widgets: 4 to 7 s
    /// natively (see [`Budget::NATIVE`]), longer in WebAssembly, simulated
    /// in slices so the page never freezes. Every widget preset, and every
    /// control at its extremes, fits (`widgets/tests/budget.rs`); settings
    /// that do not are simulated up to the budget and cut there
    /// ([`super::Simulation::cut_at_budget`]).
    pub const BROWSER: Budget = Budget {
        max_memory_bytes: 256 << 20,
        max_events: 20_000_000,
    };

    /// Where a run is stopped while it runs (see [`BACKSTOP`]).
    pub fn backstop_events(&self) -> u64 {
        self.max_events.saturating_mul(BACKSTOP)
    }

    /// Where a run's trace is stopped from growing (see [`BACKSTOP`]).
    pub fn backstop_memory(&self) -> u64 {
        self.max_memory_bytes.saturating_mul(BACKSTOP)
    }

    /// The cost of `s` (a validated scenario) if it fits, or why not.
    pub fn check(&self, s: &Scenario) -> Result<Cost, OverBudget> {
        let cost = Cost::of(s);
        match self.verdict(&cost) {
            None => Ok(cost),
            Some((limit, also)) => Err(refusal(s, &cost, limit, also, self)),
        }
    }

    /// The keys that drive the part of `s`'s cost over the budget (the
    /// part passed by more, as [`Budget::check`] names it), if any part is:
    /// `check` without its message, for a caller that adjusts the scenario
    /// rather than tell a reader (a widget coarsens its sampling). Keeps
    /// the messages' code out of the widgets' wasm.
    pub fn over(&self, s: &Scenario) -> Option<Vec<String>> {
        let cost = Cost::of(s);
        let (limit, _) = self.verdict(&cost)?;
        Some(match limit {
            Limit::Memory => cost.memory.keys,
            Limit::Events => cost.events.keys,
        })
    }

    /// Which limit `cost` passes (the one passed by more first), and the
    /// other if it passes that too.
    fn verdict(&self, cost: &Cost) -> Option<(Limit, Option<Limit>)> {
        let memory = cost.memory.amount > self.max_memory_bytes;
        let events = cost.events.amount > self.max_events;
        // Both over: the message is about the one passed by more.
        let ratio = |amount: u64, max: u64| amount as f64 / max.max(1) as f64;
        let memory_first = ratio(cost.memory.amount, self.max_memory_bytes)
            >= ratio(cost.events.amount, self.max_events);
        match (memory, events) {
            (false, false) => None,
            (true, false) => Some((Limit::Memory, None)),
            (false, true) => Some((Limit::Events, None)),
            (true, true) if memory_first => Some((Limit::Memory, Some(Limit::Events))),
            (true, true) => Some((Limit::Events, Some(Limit::Memory))),
        }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::NATIVE
    }
}

/// Which limit a run would pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Memory,
    Events,
}

/// A run refused before it ran, or stopped at the backstop: the limit, the
/// scenario keys that drive the cost, and a message naming both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverBudget {
    pub limit: Limit,
    /// The other limit, if the run would pass it too.
    pub also: Option<Limit>,
    /// Scenario-file keys (`sample_interval`, `app.response`), most telling first.
    pub keys: Vec<String>,
    pub message: String,
}

impl std::fmt::Display for OverBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OverBudget {}

/// Why a checked run did not run (or not to its end).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// A setting out of range.
    Config(ConfigError),
    /// Over the budget.
    OverBudget(OverBudget),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Config(e) => e.fmt(f),
            RunError::OverBudget(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for RunError {}

impl From<ConfigError> for RunError {
    fn from(e: ConfigError) -> Self {
        RunError::Config(e)
    }
}

impl From<OverBudget> for RunError {
    fn from(e: OverBudget) -> Self {
        RunError::OverBudget(e)
    }
}

/// The refusal of `s`, whose `cost` passes `limit` (and `also`).
fn refusal(
    s: &Scenario,
    cost: &Cost,
    limit: Limit,
    also: Option<Limit>,
    budget: &Budget,
) -> OverBudget {
    let (part, what, over) = match limit {
        Limit::Memory => (
            &cost.memory,
            memory_detail(cost),
            format!(
                "over the {} memory limit",
                format_bytes(budget.max_memory_bytes)
            ),
        ),
        Limit::Events => (
            &cost.events,
            format!(
                "take about {} events and write() calls",
                approx(cost.events.amount)
            ),
            format!("over the limit of {} events", approx(budget.max_events)),
        ),
    };
    let too = match also {
        Some(Limit::Memory) => format!(
            " (and need {}, over the {} memory limit too)",
            format_bytes(cost.memory.amount),
            format_bytes(budget.max_memory_bytes)
        ),
        Some(Limit::Events) => format!(
            " (and take about {} events, over the limit of {} too)",
            approx(cost.events.amount),
            approx(budget.max_events)
        ),
        None => String::new(),
    };
    OverBudget {
        limit,
        also,
        keys: part.keys.clone(),
        message: format!(
            "{} would {what}, {over}{too}; {}",
            settings(s, &part.keys),
            advice(&part.keys)
        ),
    }
}

/// The run was stopped at the backstop: the estimate missed it.
pub(super) fn stopped(s: &Scenario, limit: Limit, reached: u64, budget: &Budget) -> OverBudget {
    let cost = Cost::of(s);
    let (part, reached, over, estimate) = match limit {
        Limit::Memory => (
            &cost.memory,
            format!("{} of trace", format_bytes(reached)),
            format!(
                "past {BACKSTOP} × the {} memory limit",
                format_bytes(budget.max_memory_bytes)
            ),
            format_bytes(cost.memory.amount),
        ),
        Limit::Events => (
            &cost.events,
            format!("{} events and write() calls", approx(reached)),
            format!(
                "past {BACKSTOP} × the limit of {} events",
                approx(budget.max_events)
            ),
            approx(cost.events.amount),
        ),
    };
    OverBudget {
        limit,
        also: None,
        keys: part.keys.clone(),
        message: format!(
            "stopped after {reached}, {over} (estimated {estimate} for {}); {}",
            settings(s, &part.keys),
            advice(&part.keys)
        ),
    }
}

/// The run was cut where it reached the budget itself, as planned
/// ([`super::Simulation::cut_at_budget`]): "cut at t = 12.3 s of 600 s: …".
/// Names no keys: a widget's reader set its controls, not the scenario's
/// keys.
pub(super) fn cut(s: &Scenario, limit: Limit, at: SimTime, budget: &Budget) -> String {
    let cost = Cost::of(s);
    let what = match limit {
        Limit::Memory => format!(
            "its records reached the {} a run may keep (the whole run would need about {})",
            format_bytes(budget.max_memory_bytes),
            format_bytes(cost.memory.amount)
        ),
        Limit::Events => format!(
            "it reached the {} events a run may take (the whole run would take about {})",
            approx(budget.max_events),
            approx(cost.events.amount)
        ),
    };
    format!(
        "cut at t = {} of {}: {what}; everything up to the cut is drawn",
        format_duration(SimDuration(at.0)),
        format_duration(s.time_limit)
    )
}

/// What takes the memory.
fn memory_detail(cost: &Cost) -> String {
    let total = format_bytes(cost.memory.amount);
    if cost.sample_bytes >= cost.record_bytes && cost.sample_bytes >= cost.flight_bytes.amount {
        format!(
            "keep about {} samples ({total} of memory)",
            approx(cost.samples.amount)
        )
    } else if cost.flight_bytes.amount >= cost.record_bytes {
        format!(
            "hold about {} in flight ({total} of memory in all)",
            format_bytes(cost.flight_bytes.amount)
        )
    } else {
        format!(
            "keep about {} of trace records ({total} of memory in all)",
            format_bytes(cost.record_bytes)
        )
    }
}

/// "`sample_interval` = 50 µs, `time_limit` = 86400 s and `flows` = 64".
fn settings(s: &Scenario, keys: &[String]) -> String {
    let parts: Vec<String> = keys
        .iter()
        .map(|k| match value_of(s, k) {
            Some(v) => format!("`{k}` = {v}"),
            None => format!("`{k}`"),
        })
        .collect();
    join(&parts, "and")
}

/// The value of a scenario-file key, as the file would give it.
fn value_of(s: &Scenario, key: &str) -> Option<String> {
    let d = |d: SimDuration| format_duration(d);
    Some(match key {
        "sample_interval" => d(s.sample_interval),
        "time_limit" => d(s.time_limit),
        "flows" => s.flows.to_string(),
        "app.response" => format_bytes(s.app.response_bytes()),
        "app.request" => format_bytes(s.app.request_bytes()),
        "app.repeat" => s.app.repeat.to_string(),
        "app.server_write_buffer" => format_bytes(s.app.server_writes?.size),
        "app.client_write_buffer" => format_bytes(s.app.client_writes?.size),
        "path.rate" => format_rate(s.path.rate_bps),
        "path.rtt" => d(s.path.rtt()),
        "path.queue" => format_bytes(s.path.queue_bytes),
        _ => return None,
    })
}

/// What to change: "raise `sample_interval`, shorten `time_limit` or lower `flows`".
fn advice(keys: &[String]) -> String {
    let parts: Vec<String> = keys
        .iter()
        .map(|k| {
            let verb = match k.as_str() {
                "sample_interval" | "app.server_write_buffer" | "app.client_write_buffer" => {
                    "raise"
                }
                "time_limit" => "shorten",
                _ => "lower",
            };
            format!("{verb} `{k}`")
        })
        .collect();
    join(&parts, "or")
}

fn join(parts: &[String], last: &str) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., end] => format!("{} {last} {end}", init.join(", ")),
    }
}

/// A count to two significant digits: `20000`, `2.0e9`, `1.1e11`. Integers
/// only (no float formatting reaches the widgets' wasm).
pub fn approx(n: u64) -> String {
    if n < 100_000 {
        return n.to_string();
    }
    let mut exp = 0u32;
    let mut m = n;
    while m >= 100 {
        // Round half up at the last step only: two digits kept.
        if m < 1000 {
            m = (m + 5) / 10;
        } else {
            m /= 10;
        }
        exp += 1;
    }
    if m >= 100 {
        m /= 10;
        exp += 1;
    }
    format!("{}.{}e{}", m / 10, m % 10, exp + 1)
}

/// The estimate's figures on one line, for `tcpsim run --max-events` users
/// and tests: `events 3.4e10 (app.response, …), memory 12 MiB (…)`.
pub fn describe(cost: &Cost) -> String {
    let part = |p: &Part| p.keys.join(", ");
    format!(
        "events {} ({}), memory {} ({})",
        approx(cost.events.amount),
        part(&cost.events),
        format_bytes(cost.memory.amount),
        part(&cost.memory)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_keep_two_digits() {
        assert_eq!(approx(0), "0");
        assert_eq!(approx(99_999), "99999");
        assert_eq!(approx(100_000), "1.0e5");
        assert_eq!(approx(2_000_000_000), "2.0e9");
        assert_eq!(approx(110_592_000_000), "1.1e11");
        assert_eq!(approx(1_999_999), "2.0e6");
        assert_eq!(approx(u64::MAX), "1.8e19");
    }

    #[test]
    fn keys_join_as_a_sentence() {
        let k = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            advice(&k(&["sample_interval", "time_limit", "flows"])),
            "raise `sample_interval`, shorten `time_limit` or lower `flows`"
        );
        assert_eq!(advice(&k(&["app.response"])), "lower `app.response`");
    }
}
