//! One run a widget shows: simulated a slice at a time, then reduced to a
//! [`Model`] the views read. A widget has one side, or two in compare mode
//! (see `compare`). Plain Rust: the page clock comes in as a function.

use super::detail::{Detail, Snapshots, Work};
use super::model::{Model, ModelBuild};
use super::scenario;
use sim_core::config::Scenario;
use sim_core::sim::{Budget, RunResult, Simulation};
use sim_core::time::SimTime;
use std::rc::Rc;

/// What a widget's run may cost in a browser tab (see `Budget::BROWSER`):
/// checked before it simulates, and held to while it does.
pub const BUDGET: Budget = Budget::BROWSER;

/// Events simulated between clock checks.
const EVENTS_PER_CHECK: u64 = 2_000;

/// The share of the progress bar the simulation fills; reducing the run to
/// its model fills the rest.
const SIMULATION_SHARE: f64 = 0.9;

/// Events a run simulates before what it has so far is drawn (20 to 40 ms
/// in a browser): a reader who moves a slider sees the new run begin
/// within about 300 ms, even when all of it (30 s at 110 Mbit/s) takes a
/// second or two to simulate. Counted in events, not wall time, so that a
/// scenario is previewed, or not, the same way every time (its memory use
/// too: a page that mounts it again and again allocates alike).
const PREVIEW_AFTER_EVENTS: u64 = 40_000;

/// A run that has done this share of its work by then is nearly in: it is
/// not previewed.
const PREVIEW_BELOW_PROGRESS: f64 = 0.5;

pub enum Run {
    /// Simulating, with the copies it leaves for replays (`detail`) and its
    /// preview.
    Simulating(Box<Simulating>),
    /// Simulated; its model is being built, a part per slice.
    Reducing(Box<(RunResult, ModelBuild, Snapshots)>),
    Done,
    Failed(String),
}

pub struct Simulating {
    sim: Simulation,
    snapshots: Snapshots,
    preview: Preview,
}

/// The run so far drawn while the rest simulates: taken once, after
/// [`PREVIEW_AFTER_EVENTS`], and reduced in parts within slices like a
/// finished run.
enum Preview {
    NotYet,
    Building(Box<(RunResult, ModelBuild)>),
    Shown,
}

pub struct Side {
    pub run: Run,
    /// The last finished run, shown (dimmed) while the next one simulates,
    /// or the beginning of the next one once it is drawn (see [`Preview`]).
    pub model: Option<Rc<Model>>,
    /// The packets around the cursor where `model`'s trace stored none.
    pub detail: Detail,
    /// `model` is the beginning of the run still simulating (its preview):
    /// it is drawn, but has no result to read out yet.
    pub previewing: bool,
    pub progress: f64,
    /// Why the last run was stopped short, if it passed its budget's
    /// backstop (an estimate that let it in was wrong): it is drawn as far
    /// as it went, with this said.
    stopped: Option<String>,
}

impl Default for Side {
    fn default() -> Self {
        Side {
            run: Run::Done,
            model: None,
            detail: Detail::default(),
            previewing: false,
            progress: 0.0,
            stopped: None,
        }
    }
}

impl Side {
    /// Starts simulating `scenario`; the old model stays until the new one is
    /// in. The run is held to [`BUDGET`] itself (`Simulation::cut_at_budget`):
    /// settings whose whole run would cost more are simulated up to the
    /// budget and cut there, and the reader sees the run up to the cut with
    /// a note saying where and why, instead of no run at all or a page out
    /// of memory. Only a setting out of range fails (`error`), keeping the
    /// run it showed.
    pub fn start(&mut self, scenario: &Scenario) {
        self.run = match Simulation::cut_at_budget(scenario, &BUDGET) {
            Ok(mut sim) => {
                let snapshots = Snapshots::new(&mut sim, scenario);
                Run::Simulating(Box::new(Simulating {
                    sim,
                    snapshots,
                    preview: Preview::NotYet,
                }))
            }
            Err(e) => Run::Failed(e.to_string()),
        };
        self.progress = 0.0;
        self.stopped = None;
    }

    pub fn busy(&self) -> bool {
        matches!(self.run, Run::Simulating(_) | Run::Reducing(_))
    }

    /// Simulates, then builds the model, until `now_ms()` (the page clock)
    /// passes `deadline_ms`; true once the run is finished and its model built.
    pub fn simulate_until(&mut self, deadline_ms: f64, now_ms: fn() -> f64) -> bool {
        if let Run::Simulating(simulating) = &mut self.run {
            let s = &mut **simulating;
            // A preview is reduced first in the slice, a part at a time
            // until the slice is spent (at least one part).
            let mut built = false;
            while let Preview::Building(b) = &mut s.preview {
                built = b.1.step(&b.0);
                if built || now_ms() > deadline_ms {
                    break;
                }
            }
            if built && let Preview::Building(b) = std::mem::replace(&mut s.preview, Preview::Shown)
            {
                let (run, build) = *b;
                self.model = Some(Rc::new(build.finish(&run)));
                self.previewing = true;
                // The last run's replayed packets are not this one's.
                self.detail = Detail::default();
            }
            while !s.sim.advance(EVENTS_PER_CHECK) {
                s.snapshots.observe(&mut s.sim);
                if matches!(s.preview, Preview::NotYet)
                    && s.sim.events() >= PREVIEW_AFTER_EVENTS
                    && s.sim.progress() < PREVIEW_BELOW_PROGRESS
                {
                    let end = SimTime(scenario::expected_ns(s.sim.scenario()));
                    s.preview =
                        Preview::Building(Box::new((s.sim.peek(end), ModelBuild::default())));
                }
                if now_ms() > deadline_ms {
                    self.progress = SIMULATION_SHARE * s.sim.progress();
                    return false;
                }
            }
            if let Run::Simulating(done) = std::mem::replace(&mut self.run, Run::Done) {
                let Simulating { sim, snapshots, .. } = *done;
                self.stopped = sim.cut_note();
                self.run =
                    Run::Reducing(Box::new((sim.finish(), ModelBuild::default(), snapshots)));
            }
            self.progress = SIMULATION_SHARE;
            if now_ms() > deadline_ms {
                return false;
            }
        }
        let Run::Reducing(reducing) = &mut self.run else {
            return true;
        };
        let (run, build, _) = &mut **reducing;
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
            let (run, build, snapshots) = *done;
            let model = build.finish(&run);
            self.detail = Detail::new(snapshots, &run.scenario, &model.path, run.outcome.at().0);
            self.model = Some(Rc::new(model));
            self.previewing = false;
        }
        self.progress = 1.0;
        true
    }

    /// Replays the packets around `t_ns` if the model lacks them there, until
    /// `now_ms()` passes `deadline_ms` (see `detail`).
    pub fn replay_until(&mut self, t_ns: f64, deadline_ms: f64, now_ms: fn() -> f64) -> Work {
        if self.busy() {
            return Work::Idle;
        }
        self.detail.work(t_ns, deadline_ms, now_ms)
    }

    /// Why this side shows no new run (its scenario over the budget, or a
    /// setting out of range), or only part of one (stopped at the backstop).
    pub fn error(&self) -> Option<&str> {
        match &self.run {
            Run::Failed(e) if !e.is_empty() => Some(e),
            _ => self.stopped.as_deref(),
        }
    }
}
