//! One run a widget shows: simulated a slice at a time, then reduced to a
//! [`Model`] the views read. A widget has one side, or two in compare mode
//! (see `compare`). Plain Rust: the page clock comes in as a function.

use super::model::Model;
use sim_core::config::Scenario;
use sim_core::sim::Simulation;
use std::rc::Rc;

/// Events simulated between clock checks.
const EVENTS_PER_CHECK: u64 = 2_000;

pub enum Run {
    Simulating(Box<Simulation>),
    Done,
    Failed(String),
}

pub struct Side {
    pub run: Run,
    /// The last finished run, shown (dimmed) while the next one simulates.
    pub model: Option<Rc<Model>>,
    pub progress: f64,
}

impl Default for Side {
    fn default() -> Self {
        Side {
            run: Run::Done,
            model: None,
            progress: 0.0,
        }
    }
}

impl Side {
    /// Starts simulating `scenario`; the old model stays until the new one is in.
    pub fn start(&mut self, scenario: &Scenario) {
        self.run = match Simulation::new(scenario) {
            Ok(sim) => Run::Simulating(Box::new(sim)),
            Err(e) => Run::Failed(e.to_string()),
        };
        self.progress = 0.0;
    }

    pub fn busy(&self) -> bool {
        matches!(self.run, Run::Simulating(_))
    }

    /// Simulates until `now_ms()` (the page clock) passes `deadline_ms`; true
    /// once the run is finished and its model built.
    pub fn simulate_until(&mut self, deadline_ms: f64, now_ms: fn() -> f64) -> bool {
        let Run::Simulating(sim) = &mut self.run else {
            return true;
        };
        while !sim.advance(EVENTS_PER_CHECK) {
            if now_ms() > deadline_ms {
                self.progress = sim.progress();
                return false;
            }
        }
        if let Run::Simulating(sim) = std::mem::replace(&mut self.run, Run::Done) {
            self.model = Some(Rc::new(Model::from_run(&sim.finish())));
        }
        self.progress = 1.0;
        true
    }

    pub fn error(&self) -> Option<&str> {
        match &self.run {
            Run::Failed(e) if !e.is_empty() => Some(e),
            _ => None,
        }
    }
}
