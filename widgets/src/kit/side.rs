//! One run a widget shows: simulated a slice at a time, then reduced to a
//! [`Model`] the views read. A widget has one side, or two in compare mode
//! (see `compare`). Plain Rust: the page clock comes in as a function.

use super::model::{Model, ModelBuild};
use sim_core::config::Scenario;
use sim_core::sim::{RunResult, Simulation};
use std::rc::Rc;

/// Events simulated between clock checks.
const EVENTS_PER_CHECK: u64 = 2_000;

/// The share of the progress bar the simulation fills; reducing the run to
/// its model fills the rest.
const SIMULATION_SHARE: f64 = 0.9;

pub enum Run {
    Simulating(Box<Simulation>),
    /// Simulated; its model is being built, a part per slice.
    Reducing(Box<(RunResult, ModelBuild)>),
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
        matches!(self.run, Run::Simulating(_) | Run::Reducing(_))
    }

    /// Simulates, then builds the model, until `now_ms()` (the page clock)
    /// passes `deadline_ms`; true once the run is finished and its model built.
    pub fn simulate_until(&mut self, deadline_ms: f64, now_ms: fn() -> f64) -> bool {
        if let Run::Simulating(sim) = &mut self.run {
            while !sim.advance(EVENTS_PER_CHECK) {
                if now_ms() > deadline_ms {
                    self.progress = SIMULATION_SHARE * sim.progress();
                    return false;
                }
            }
            if let Run::Simulating(sim) = std::mem::replace(&mut self.run, Run::Done) {
                self.run = Run::Reducing(Box::new((sim.finish(), ModelBuild::default())));
            }
            self.progress = SIMULATION_SHARE;
            if now_ms() > deadline_ms {
                return false;
            }
        }
        let Run::Reducing(reducing) = &mut self.run else {
            return true;
        };
        let (run, build) = &mut **reducing;
        // The last part and the assembly go to separate slices when this
        // one is spent: the assembly's slice also draws the new model.
        loop {
            let done = build.step(run);
            if now_ms() > deadline_ms {
                let built = build.stage() as f64 / ModelBuild::STAGES as f64;
                self.progress = SIMULATION_SHARE + (1.0 - SIMULATION_SHARE) * built;
                return false;
            }
            if done {
                break;
            }
        }
        if let Run::Reducing(done) = std::mem::replace(&mut self.run, Run::Done) {
            let (run, build) = *done;
            self.model = Some(Rc::new(build.finish(&run)));
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
