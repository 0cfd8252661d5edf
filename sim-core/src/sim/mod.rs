//! The world: one or more connections (two sockets and their applications
//! each), a bottleneck link each way that all of them share, and the event
//! loop that moves segments between them.
//!
//! ```text
//!   client socket ──► link (client→server) ──► server socket
//!        ▲                                          │
//!        └──────── link (server→client) ◄───────────┘
//! ```
//!
//! Hosts take no time to process a segment; only links and timers advance time.
//!
//! `mod.rs` runs it ([`run`], or [`Simulation`] a slice at a time; [`run_within`]
//! and [`Simulation::within`] first refuse what would pass a [`Budget`]);
//! `cost.rs` estimates what a run will cost, `budget.rs` holds the limits;
//! `world.rs` holds the world and what one event does to it, `flow.rs` one
//! connection, `apps.rs` the applications' writes, `drops.rs` the drop list,
//! `closed.rs` what a closed connection meets and when closing ends the run.

mod apps;
pub mod budget;
mod closed;
pub mod cost;
mod drops;
mod flow;
mod world;

pub use budget::{Budget, Limit, OverBudget, RunError};
pub use cost::Cost;

use crate::config::{ConfigError, Scenario};
use crate::link::LinkStats;
use crate::segment::Side;
use crate::tcp::GiveUp;
use crate::tcp::metrics::TcpMetrics;
use crate::time::SimTime;
use crate::trace::Trace;
use crate::units::Within;
use world::World;

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The client read the whole response (every flow's) at this time.
    Completed { at: SimTime },
    /// The scenario's time limit passed first.
    TimeLimit { at: SimTime },
    /// The run passed its budget's backstop in events and `write()` calls
    /// ([`Budget::backstop_events`]): the estimate that let it run was wrong.
    EventLimit { at: SimTime },
    /// The run's trace passed its budget's backstop in memory
    /// ([`Budget::backstop_memory`]).
    MemoryLimit { at: SimTime },
    /// A host gave the connection up: `side` reached the limit `reason`
    /// names (`tcp_syn_retries`, `tcp_synack_retries`, `tcp_retries2`), or
    /// was reset by the peer's RST (`GiveUp::Reset`, when the scenario runs
    /// on after a give-up).
    Aborted {
        at: SimTime,
        side: Side,
        reason: GiveUp,
    },
}

impl Outcome {
    /// When the run ended.
    pub fn at(&self) -> SimTime {
        match *self {
            Outcome::Completed { at }
            | Outcome::TimeLimit { at }
            | Outcome::EventLimit { at }
            | Outcome::MemoryLimit { at }
            | Outcome::Aborted { at, .. } => at,
        }
    }

    /// Which host gave the connection up, and why, if one did.
    pub fn gave_up(&self) -> Option<(Side, GiveUp)> {
        match *self {
            Outcome::Aborted { side, reason, .. } => Some((side, reason)),
            _ => None,
        }
    }

    pub fn completed_at(&self) -> Option<SimTime> {
        match self {
            Outcome::Completed { at } => Some(*at),
            _ => None,
        }
    }
}

/// Everything a run produced.
pub struct RunResult {
    pub scenario: Scenario,
    pub trace: Trace,
    pub outcome: Outcome,
    pub events: u64,
    /// Server → client (the data direction in a download).
    pub downlink: LinkStats,
    pub uplink: LinkStats,
    /// The server's tcp_metrics cache for the client at the end.
    pub tcp_metrics: TcpMetrics,
}

/// Runs a scenario to completion (or to its time limit), with no estimate
/// first: held only to [`Budget::NATIVE`]'s backstop (its outcome then an
/// [`Outcome::EventLimit`] or [`Outcome::MemoryLimit`]). What reads
/// scenarios from outside uses [`run_within`].
pub fn run(scenario: &Scenario) -> Result<RunResult, ConfigError> {
    let mut sim = Simulation::new(scenario)?;
    while !sim.advance(u64::MAX) {}
    Ok(sim.finish())
}

/// Runs a scenario if its estimated cost fits `budget` (refused before
/// anything is simulated if not), and stops it with the same kind of error
/// if it passes the backstop all the same.
pub fn run_within(scenario: &Scenario, budget: &Budget) -> Result<RunResult, RunError> {
    let mut sim = Simulation::within(scenario, budget)?;
    while !sim.advance(u64::MAX) {}
    if let Some(e) = sim.over_budget() {
        return Err(e.into());
    }
    Ok(sim.finish())
}

/// A run in progress, advanced a slice at a time so that a browser can keep
/// drawing frames between slices (one `run` of a long scenario would freeze
/// the page). Slicing changes nothing: any sequence of `advance` calls gives
/// the same trace as [`run`].
#[derive(Clone)]
pub struct Simulation {
    w: World,
    scenario: Scenario,
    limit: SimTime,
    now: SimTime,
    events: u64,
    outcome: Option<Outcome>,
    progress: f64,
    budget: Budget,
    /// Where the run is stopped: `budget`'s backstops, or the budget itself
    /// for a run cut at it ([`Simulation::cut_at_budget`]).
    max_work: u64,
    max_memory: u64,
    /// Held to the budget itself: stopping there is the plan, not a wrong
    /// estimate.
    cut_at_budget: bool,
}
impl Simulation {
    /// A run of `scenario` with no estimate first, held to
    /// [`Budget::NATIVE`]'s backstop (see [`run`]).
    pub fn new(scenario: &Scenario) -> Result<Simulation, ConfigError> {
        Simulation::held_to(scenario, &Budget::NATIVE)
    }

    /// A run of `scenario` held to `budget`'s backstop, with no estimate
    /// first: it stops once it passes the backstop (what a run that a wrong
    /// estimate let through meets).
    pub fn held_to(scenario: &Scenario, budget: &Budget) -> Result<Simulation, ConfigError> {
        scenario.validate()?;
        Ok(Simulation::start(scenario, *budget))
    }

    /// A run of `scenario` if its estimated cost fits `budget`, held to
    /// the budget's backstop while it runs (see [`Simulation::over_budget`]).
    pub fn within(scenario: &Scenario, budget: &Budget) -> Result<Simulation, RunError> {
        scenario.validate()?;
        budget.check(scenario)?;
        Ok(Simulation::start(scenario, *budget))
    }

    /// A run of `scenario` that may cost more than `budget`: it runs until
    /// it reaches the budget itself and ends there (its outcome
    /// [`Outcome::EventLimit`] or [`Outcome::MemoryLimit`], everything up to
    /// then kept), with [`Simulation::cut_note`] saying where it was cut
    /// and why. What a widget does with settings whose whole run it cannot
    /// afford: it shows as much of the run as the page can hold, instead
    /// of nothing.
    pub fn cut_at_budget(scenario: &Scenario, budget: &Budget) -> Result<Simulation, ConfigError> {
        scenario.validate()?;
        let mut sim = Simulation::start(scenario, *budget);
        sim.max_work = budget.max_events;
        sim.max_memory = budget.max_memory_bytes;
        sim.w.trace.set_memory_limit(sim.max_memory);
        sim.cut_at_budget = true;
        Ok(sim)
    }

    fn start(scenario: &Scenario, budget: Budget) -> Simulation {
        let mut w = World::new(scenario);
        w.trace.set_memory_limit(budget.backstop_memory());
        Simulation {
            w,
            scenario: scenario.clone(),
            limit: SimTime::ZERO + scenario.time_limit,
            now: SimTime::ZERO,
            events: 0,
            outcome: None,
            progress: 0.0,
            budget,
            max_work: budget.backstop_events(),
            max_memory: budget.backstop_memory(),
            cut_at_budget: false,
        }
    }

    /// Why the run was stopped short, if it passed its budget's backstop.
    pub fn over_budget(&self) -> Option<OverBudget> {
        let (limit, reached) = match self.outcome? {
            Outcome::EventLimit { .. } => (Limit::Events, self.work()),
            Outcome::MemoryLimit { .. } => (Limit::Memory, self.w.trace.heap_bytes() as u64),
            _ => return None,
        };
        if self.cut_at_budget {
            return self.cut_note().map(|message| OverBudget {
                limit,
                also: None,
                keys: Vec::new(),
                message,
            });
        }
        Some(budget::stopped(
            &self.scenario,
            limit,
            reached,
            &self.budget,
        ))
    }

    /// Where and why a run held to its budget ([`Simulation::cut_at_budget`])
    /// was cut, if it was: "cut at t = 12.3 s of 600 s: …". What a widget
    /// shows; it names no keys (a widget's reader set controls, not keys).
    pub fn cut_note(&self) -> Option<String> {
        let limit = match self.outcome? {
            Outcome::EventLimit { .. } => Limit::Events,
            Outcome::MemoryLimit { .. } => Limit::Memory,
            _ => return None,
        };
        Some(budget::cut(&self.scenario, limit, self.now, &self.budget))
    }

    /// Events so far plus the applications' `write()` calls: what the
    /// budget counts.
    pub fn work(&self) -> u64 {
        self.events.saturating_add(self.w.writes)
    }

    /// Simulated time reached so far.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// The scenario it runs.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The trace so far.
    pub fn trace(&self) -> &Trace {
        &self.w.trace
    }

    /// Events the model has acted on so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// How the run ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// A rough share of the run done, 0 to 1, for a progress bar: the larger
    /// of the share of the time limit passed and of the response bytes read.
    /// Never goes down (a new connection per transfer restarts the socket's
    /// byte count, not the bar).
    pub fn progress(&self) -> f64 {
        if self.outcome.is_some() {
            1.0
        } else {
            self.progress
        }
    }

    fn measure_progress(&self) -> f64 {
        let by_time = self.now.0 as f64 / self.limit.0.max(1) as f64;
        let total = self.scenario.app.response_bytes()
            * self.scenario.app.repeat.max(1) as u64
            * self.scenario.flows as u64;
        let read: u64 = self.w.flows.iter().map(|f| f.client.app_received()).sum();
        let by_bytes = if total > 0 {
            read as f64 / total as f64
        } else {
            0.0
        };
        // A run cut at its budget ends when the budget is spent, maybe long
        // before its time limit or its last byte.
        let by_budget = if self.cut_at_budget {
            let work = self.work() as f64 / self.max_work.max(1) as f64;
            let memory = self.w.trace.heap_bytes() as f64 / self.max_memory.max(1) as f64;
            work.max(memory)
        } else {
            0.0
        };
        by_time
            .max(by_bytes)
            .max(by_budget)
            .within(0.0, 1.0)
            .max(self.progress)
    }

    /// Acts on up to `max_events` more events; true once the run has ended.
    pub fn advance(&mut self, max_events: u64) -> bool {
        if self.outcome.is_some() {
            return true;
        }
        let stop = self.events.saturating_add(max_events);
        let outcome = loop {
            if self.events >= stop {
                self.progress = self.measure_progress();
                return false;
            }
            let Some((t, event)) = self.w.queue.pop() else {
                // Nothing left to happen (cannot occur while a timer is armed).
                break Outcome::TimeLimit { at: self.now };
            };
            if t > self.limit {
                break Outcome::TimeLimit { at: self.limit };
            }
            debug_assert!(t >= self.now, "simulated time went backwards");
            self.now = t;
            if self.w.is_stale(t, &event) {
                continue; // queue bookkeeping, not an event of the model
            }
            self.events += 1;
            if self.events.saturating_add(self.w.writes) > self.max_work {
                break Outcome::EventLimit { at: t };
            }
            // Every event: one sample tick can push a record per flow (64
            // flows every 50 µs grew the trace fivefold between looks taken
            // every 4096 events), and the look is a few capacity reads.
            if self.w.trace.heap_bytes() as u64 > self.max_memory {
                break Outcome::MemoryLimit { at: t };
            }
            if let Some(outcome) = self.w.handle(t, event, self.scenario.sample_interval) {
                break outcome;
            }
        };
        // A last reading however the run ended, so reports see the final totals.
        self.w.sample(outcome.at());
        self.outcome = Some(outcome);
        true
    }

    /// A copy of the run as it stands that records into `trace` from here
    /// on: the same world, queue and random state, so it goes on exactly as
    /// this one does. A view keeps such copies of a long run (with a trace
    /// that stores nothing) and later replays a stretch of it from the
    /// nearest one, with a trace that keeps the packets of that stretch
    /// (`Trace::with_packet_window`), instead of storing a whole 30 s run's
    /// packets. This run's trace is not copied.
    pub fn fork(&mut self, trace: Trace) -> Simulation {
        let kept = std::mem::replace(&mut self.w.trace, trace);
        let fork = self.clone();
        self.w.trace = kept;
        fork
    }

    /// The run as it stands, cut short at the time reached (its outcome
    /// a time limit there): a replayed stretch, read by the same code as a
    /// whole run. Nothing is sampled at the cut.
    pub fn cut(self) -> RunResult {
        let outcome = self.outcome.unwrap_or(Outcome::TimeLimit { at: self.now });
        RunResult {
            scenario: self.scenario,
            trace: self.w.trace,
            outcome,
            events: self.events,
            downlink: self.w.downlink.stats().clone(),
            uplink: self.w.uplink.stats().clone(),
            tcp_metrics: self.w.metrics,
        }
    }

    /// A copy of the run so far, as if it ended at `end` (a time limit
    /// there, `now` if that is later): what a view draws of a long run
    /// while the rest simulates. Copies the trace.
    pub fn peek(&self, end: SimTime) -> RunResult {
        RunResult {
            scenario: self.scenario.clone(),
            trace: self.w.trace.clone(),
            outcome: Outcome::TimeLimit {
                at: end.max(self.now),
            },
            events: self.events,
            downlink: self.w.downlink.stats().clone(),
            uplink: self.w.uplink.stats().clone(),
            tcp_metrics: self.w.metrics.clone(),
        }
    }

    /// The finished run (simulating whatever is left first).
    pub fn finish(mut self) -> RunResult {
        while !self.advance(u64::MAX) {}
        self.cut()
    }
}
