//! A widget's state and the messages that change it: the values (and side
//! B's in compare mode), the preset, the runs, the clock, the chosen panels
//! and the overlays. Plain Rust: a transition never touches the page; it
//! returns the [`Effects`] the component then carries out (animation frames,
//! the URL, full screen), so the whole machine runs in native tests.
//!
//! ```text
//!                 Slice, not done (a progress bar after 100 ms)
//!                    ┌─────┐
//!                    ▼     │      Slice, every side done
//!   new, Set ──► simulating ──────────────────────────► paused
//!   SetVs, Preset                                      │    ▲
//!                                            PlayPause │    │ PlayPause, Step,
//!                                                      ▼    │ the end of the run
//!                                                     playing
//!                                             (Frame: the cursor moves)
//! ```
//!
//! A change of any control starts new runs, simulated a slice per animation
//! frame so the page never freezes; the views read the last finished runs
//! (dimmed) until the new ones are in.

use super::export::LinkStatus;
use super::keys::Action;
use super::predict::Phase;
use crate::kit::compare;
use crate::kit::detail::Work;
use crate::kit::model::Model;
use crate::kit::scenario;
use crate::kit::side::Side;
use crate::kit::transport::{self, Clock, Step};
use crate::kit::url_state::Saved;
use crate::kit::views::{self, DEFAULT_SLOTS, View};
use crate::params::{self, Initial, Note};
use sim_core::time::SimDuration;
use std::rc::Rc;
use widget_catalogue::WidgetSpec;

/// Wall time the runs may take per frame before the page gets the frame back.
const SLICE_MS: f64 = 10.0;
/// Show the progress bar once a run has taken this long.
const PROGRESS_AFTER_MS: f64 = 100.0;
/// How long a full playback lasts when the speed is chosen for the reader.
const TARGET_PLAY_NS: f64 = 12e9;
/// Type and lines in presenter mode, relative to normal.
const PRESENTER_SCALE: f64 = 1.8;
/// Notes shown at most; a new one pushes out the oldest.
const MAX_NOTES: usize = 4;

/// What changes a widget's state.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// Simulate the runs for one slice of wall time.
    Slice,
    /// A playback frame at this page time (ms).
    Frame(f64),
    PlayPause,
    Step(Step),
    Restart,
    Seek(f64),
    /// The cursor dragged to here: shown now, written to the link when the
    /// drag ends (with a [`Msg::Seek`]).
    Drag(f64),
    /// The pointer hovers over side `k`'s panel `slot` at this time (ns),
    /// this fraction of the way across; `None`: over none.
    Hover(Option<(usize, usize, f64, f64)>),
    Speed(f64),
    /// A parameter's value (side A's, and the shared ones).
    Set(usize, f64),
    /// The compared parameter's value on side B.
    SetVs(f64),
    Note(Note),
    Preset(String),
    Slot(usize, View),
    /// The cwnd chart's y axis: logarithmic (true) or linear.
    LogCwnd(bool),
    ToggleTable(usize),
    Presenter,
    Help(bool),
    /// A shortcut, already stopped from reaching mdBook (see `keys::key_action`).
    Key(Action),
    /// The page took the reader's prediction (see `predict`).
    Answered,
}

pub use super::effects::{Effects, Frames};

pub struct State {
    /// One value per parameter (side A's, and the shared ones).
    pub values: Vec<f64>,
    /// Compare mode: the parameter side B changes, and its value there.
    pub compare: Option<(usize, f64)>,
    pub preset: Option<&'static str>,
    pub notes: Vec<Note>,
    /// One side, or two in compare mode.
    pub sides: Vec<Side>,
    /// When the current runs started (page clock, ms).
    started_ms: f64,
    pub clock: Clock,
    speed_chosen: bool,
    /// Where the cursor goes once the first runs are in (from a link).
    pending_seek: Option<f64>,
    /// Whether the widget answers the reader (its first runs are in).
    pub interactive: bool,
    /// The two chart panels' views.
    pub slots: [View; 2],
    /// How the charts are drawn beyond their data (the cwnd chart's axis);
    /// both sides alike.
    pub look: views::Look,
    /// Which panels show their data table (rendered only when open).
    pub tables: [bool; 3],
    /// Which controls show before "More settings", one per parameter.
    pub shown: Vec<bool>,
    pub presenter: bool,
    pub help: bool,
    /// Where the pointer hovers: side, panel, the time under it (ns) and
    /// the fraction of the canvas's width it is at.
    pub hover: Option<(usize, usize, f64, f64)>,
    /// What "Copy link" did, once pressed.
    pub status: Option<LinkStatus>,
    /// The page clock (ms): `browser::now_ms` in the page.
    now_ms: fn() -> f64,
    /// Predict-first mode (see `predict`), and how far the cursor has
    /// been since the prediction.
    pub predict: Phase,
    pub furthest_ns: f64,
}

impl State {
    /// The state a widget starts in, before its first runs (see
    /// [`State::start_runs`]).
    pub fn new(initial: &Initial, start_ns: Option<f64>, now_ms: fn() -> f64) -> State {
        let sides = compare::side_count(initial.compare);
        State {
            values: initial.values.clone(),
            compare: initial.compare,
            preset: initial.preset,
            notes: initial.notes.clone(),
            sides: (0..sides).map(|_| Side::default()).collect(),
            started_ms: 0.0,
            clock: Clock::new(0.0, 0.01),
            speed_chosen: false,
            pending_seek: start_ns,
            interactive: false,
            slots: views::slots(&initial.views),
            look: views::Look {
                log_cwnd: initial.log_cwnd,
            },
            tables: [false; 3],
            shown: initial.shown.clone(),
            presenter: false,
            help: false,
            hover: None,
            status: None,
            now_ms,
            predict: Phase::Off,
            furthest_ns: 0.0,
        }
    }

    pub fn update(&mut self, spec: &'static WidgetSpec, msg: Msg) -> Effects {
        let slice = matches!(msg, Msg::Slice);
        let effects = self.transition(spec, msg);
        let effects = self.watch_cursor(effects);
        if !slice && effects.slice == Frames::Keep && !self.busy() && self.wants_replay() {
            // The cursor went where the runs stored no packets: replay them
            // there, a slice per frame (see `kit::detail`).
            return Effects {
                slice: Frames::Request,
                ..effects
            };
        }
        effects
    }

    fn transition(&mut self, spec: &'static WidgetSpec, msg: Msg) -> Effects {
        if !self.predict.allows(&msg) {
            return Effects::NONE;
        }
        match msg {
            Msg::Answered => self.answer(),
            Msg::Slice => self.simulate_slice(),
            Msg::Frame(ts) => self.frame(ts),
            Msg::PlayPause => self.play_pause(),
            Msg::Step(kind) => self.step(kind),
            Msg::Restart => {
                self.clock.seek(0.0);
                let frame = if self.clock.playing {
                    Frames::Request
                } else {
                    Frames::Keep
                };
                Effects {
                    frame,
                    ..Effects::SAVE
                }
            }
            Msg::Seek(t) => {
                self.clock.seek(t);
                Effects::SAVE
            }
            Msg::Drag(t) => {
                self.clock.seek(t);
                Effects::RENDER
            }
            Msg::Hover(h) => {
                let changed = self.hover != h;
                self.hover = h;
                if changed {
                    Effects::RENDER
                } else {
                    Effects::NONE
                }
            }
            Msg::Speed(s) => {
                self.clock.set_speed(s);
                self.speed_chosen = true;
                Effects::RENDER
            }
            Msg::Set(i, v) => self.set(spec, i, v),
            Msg::SetVs(v) => self.set_vs(spec, v),
            Msg::Note(n) => self.note(n),
            Msg::Preset(name) => self.set_preset(spec, &name),
            Msg::Slot(i, v) => {
                if let Some(s) = self.slots.get_mut(i) {
                    *s = v;
                }
                Effects::SAVE
            }
            Msg::LogCwnd(on) => {
                self.look.log_cwnd = on;
                Effects::SAVE
            }
            Msg::ToggleTable(i) => {
                if let Some(t) = self.tables.get_mut(i) {
                    *t = !*t;
                }
                Effects::RENDER
            }
            Msg::Presenter => {
                self.presenter = !self.presenter;
                Effects {
                    fullscreen: Some(self.presenter),
                    ..Effects::RENDER
                }
            }
            Msg::Help(on) => {
                self.help = on;
                Effects::RENDER
            }
            Msg::Key(action) => match self.key_msg(spec, action) {
                Some(msg) => self.transition(spec, msg),
                None => Effects::NONE,
            },
        }
    }

    /// Starts simulating every side for the current values. The clock stops;
    /// the views show the last runs until the new ones are in.
    pub fn start_runs(&mut self, spec: &WidgetSpec) -> Effects {
        for (k, side) in self.sides.iter_mut().enumerate() {
            let values = compare::side_values(&self.values, self.compare, k);
            side.start(&scenario::build(spec, &values));
        }
        self.started_ms = (self.now_ms)();
        self.clock.pause();
        Effects {
            frame: Frames::Cancel,
            slice: Frames::Request,
            ..Effects::RENDER
        }
    }

    /// Simulates for up to `SLICE_MS`, side after side; with the runs in,
    /// replays the packets the cursor needs.
    fn simulate_slice(&mut self) -> Effects {
        if !self.busy() {
            return self.replay_slice();
        }
        let now_ms = self.now_ms;
        let deadline = now_ms() + SLICE_MS;
        if self
            .sides
            .iter_mut()
            .all(|s| s.simulate_until(deadline, now_ms))
        {
            let interactive = self.runs_finished();
            // A link may have put the cursor past the stored packets.
            return Effects {
                slice: if self.wants_replay() {
                    Frames::Request
                } else {
                    Frames::Cancel
                },
                interactive,
                ..Effects::RENDER
            };
        }
        Effects {
            slice: Frames::Request,
            // Re-render only to show the progress bar.
            render: self.progress_shown(),
            ..Effects::NONE
        }
    }

    /// Whether a side's views lack the packets at the cursor (see `kit::detail`).
    pub fn wants_replay(&self) -> bool {
        let t = self.clock.t_ns;
        self.sides.iter().any(|s| s.detail.wants(t))
    }

    /// Replays for up to `SLICE_MS` what the cursor needs, side after side;
    /// draws again when a side's stretch is in.
    fn replay_slice(&mut self) -> Effects {
        let now_ms = self.now_ms;
        // While playing, the frame that moved the cursor has drawn every
        // view already: a shorter slice keeps the two under 50 ms together.
        let budget = if self.clock.playing {
            SLICE_MS / 2.0
        } else {
            SLICE_MS
        };
        let deadline = now_ms() + budget;
        let t = self.clock.t_ns;
        let mut pending = false;
        let mut ready = false;
        for side in &mut self.sides {
            match side.replay_until(t, deadline, now_ms) {
                Work::Idle => {}
                Work::Pending => pending = true,
                Work::Ready => ready = true,
            }
        }
        // With nothing to do the stream simply ends: the frame that sent
        // this slice has fired.
        Effects {
            render: ready,
            slice: if pending || (ready && self.wants_replay()) {
                Frames::Request
            } else {
                Frames::Keep
            },
            ..Effects::NONE
        }
    }

    /// Every side has finished: one clock over the longest run. Returns
    /// whether the widget has just become interactive.
    fn runs_finished(&mut self) -> bool {
        let end = self.end_ns();
        self.clock = Clock::new(end, self.clock.speed);
        if !self.speed_chosen {
            self.clock.speed = transport::auto_speed(end, TARGET_PLAY_NS);
        }
        if let Some(t) = self.pending_seek.take() {
            self.clock.seek(t);
            // A link's time past the run's end opens at the end, and says so
            // (as every other value a link gives and the widget cannot use).
            if t > end {
                let at = |ns: f64| sim_core::units::format_duration(SimDuration(ns as u64));
                self.notes.push(Note::from(format!(
                    "Ignored t = {} from the link: the run ends at {}, so the cursor is at its end.",
                    at(t),
                    at(end)
                )));
            }
        }
        let first = !self.interactive && self.sides.iter().all(|s| s.model.is_some());
        self.interactive |= first;
        first
    }

    fn frame(&mut self, ts: f64) -> Effects {
        if self.clock.frame(ts) {
            Effects {
                frame: Frames::Request,
                ..Effects::RENDER
            }
        } else {
            Effects {
                frame: Frames::Cancel,
                ..Effects::SAVE
            }
        }
    }

    fn play_pause(&mut self) -> Effects {
        if !self.interactive || self.busy() {
            return Effects::NONE;
        }
        if self.clock.playing {
            self.clock.pause();
            Effects {
                frame: Frames::Cancel,
                ..Effects::SAVE
            }
        } else {
            self.clock.play();
            Effects {
                frame: Frames::Request,
                ..Effects::RENDER
            }
        }
    }

    fn step(&mut self, kind: Step) -> Effects {
        if !self.interactive {
            return Effects::NONE;
        }
        self.clock.pause();
        if let Some(t) = self.next_step(kind) {
            self.clock.seek(t);
        }
        Effects {
            frame: Frames::Cancel,
            ..Effects::SAVE
        }
    }

    /// Where a step of `kind` lands: the nearest next instant on any side.
    fn next_step(&self, kind: Step) -> Option<f64> {
        self.models()
            .filter_map(|m| {
                let t = self.clock.t_ns;
                m.steps.next(kind, t, m.rtt.srtt_at(t))
            })
            .reduce(f64::min)
    }

    fn set(&mut self, spec: &WidgetSpec, i: usize, v: f64) -> Effects {
        let Some(p) = spec.params.get(i) else {
            return Effects::NONE;
        };
        let v = p.clamp(v);
        // A value given: what was said about an earlier one is stale. (A
        // slider reports a clamped value first, then its note.)
        let stale = self.forget_notes_about(i);
        if self.values[i] == v {
            return if stale {
                Effects::RENDER
            } else {
                Effects::NONE
            };
        }
        self.values[i] = v;
        self.preset = None;
        Effects {
            save_url: true,
            ..self.start_runs(spec)
        }
    }

    fn set_vs(&mut self, spec: &WidgetSpec, v: f64) -> Effects {
        let Some((i, _)) = self.compare else {
            return Effects::NONE;
        };
        let stale = self.forget_notes_about(i);
        let Some((i, vs)) = self.compare.as_mut() else {
            return Effects::NONE;
        };
        let v = spec.params[*i].clamp(v);
        if *vs == v {
            return if stale {
                Effects::RENDER
            } else {
                Effects::NONE
            };
        }
        *vs = v;
        Effects {
            save_url: true,
            ..self.start_runs(spec)
        }
    }

    fn set_preset(&mut self, spec: &'static WidgetSpec, name: &str) -> Effects {
        let Some(values) = params::preset_values(spec, name) else {
            return Effects::NONE;
        };
        // In compare mode a preset sets the shared values and side A's; side
        // B keeps its own value of the compared parameter.
        self.values = values;
        self.preset = spec.preset(name).map(|p| p.name);
        Effects {
            save_url: true,
            ..self.start_runs(spec)
        }
    }

    /// Drops the notes about parameter `i`; returns whether there were any.
    fn forget_notes_about(&mut self, i: usize) -> bool {
        let before = self.notes.len();
        self.notes.retain(|n| n.param != Some(i));
        self.notes.len() != before
    }

    /// Adds a note for the reader (once: a repeated one moves to the end). A
    /// note about a parameter replaces any earlier one about it.
    fn note(&mut self, n: Note) -> Effects {
        self.notes.retain(|x| x.text != n.text);
        if let Some(i) = n.param {
            self.forget_notes_about(i);
        }
        self.notes.push(n);
        if self.notes.len() > MAX_NOTES {
            self.notes.remove(0);
        }
        Effects::RENDER
    }

    /// What a shortcut does in the current state (`None`: nothing).
    fn key_msg(&self, spec: &WidgetSpec, action: Action) -> Option<Msg> {
        Some(match action {
            Action::PlayPause => Msg::PlayPause,
            Action::Step => Msg::Step(Step::Event),
            Action::StepAck => Msg::Step(Step::Ack),
            Action::Restart => Msg::Restart,
            Action::Presenter => Msg::Presenter,
            Action::Help => Msg::Help(!self.help),
            Action::Escape if self.help => Msg::Help(false),
            Action::Escape if self.presenter => Msg::Presenter,
            Action::Escape => return None,
            Action::Preset(i) => Msg::Preset(spec.presets.get(i)?.name.to_string()),
            Action::Scrub(d) => Msg::Seek(self.clock.t_ns + d as f64 * self.span_ns() / 50.0),
        })
    }

    /// Whether any side is still simulating.
    pub fn busy(&self) -> bool {
        self.sides.iter().any(Side::busy)
    }

    /// Whether to show the progress bar: runs have taken long enough.
    pub fn progress_shown(&self) -> bool {
        self.busy() && (self.now_ms)() - self.started_ms > PROGRESS_AFTER_MS
    }

    /// How far the runs have got, 0 to 1, over all sides.
    pub fn progress(&self) -> f64 {
        self.sides.iter().map(|s| s.progress).sum::<f64>() / self.sides.len() as f64
    }

    /// The finished runs, side by side.
    pub fn models(&self) -> impl Iterator<Item = &Rc<Model>> {
        self.sides.iter().filter_map(|s| s.model.as_ref())
    }

    /// The end of the longest finished run (ns): the time axis all charts share.
    pub fn end_ns(&self) -> f64 {
        self.models().map(|m| m.end_ns).fold(0.0, f64::max)
    }

    /// The views a side shows: the path view, then the two chart panels'.
    pub fn shown_views(&self) -> [View; 3] {
        [View::Path, self.slots[0], self.slots[1]]
    }

    /// Type and line widths relative to normal (device pixels aside).
    pub fn presenter_scale(&self) -> f64 {
        if self.presenter { PRESENTER_SCALE } else { 1.0 }
    }

    /// "A · Congestion control = bbr" for side `k` in compare mode, else "".
    pub fn side_label(&self, spec: &WidgetSpec, k: usize) -> String {
        compare::side_label(spec, &self.values, self.compare, k)
    }

    /// What a link keeps of the state.
    pub fn saved(&self) -> Saved<'_> {
        Saved {
            preset: self.preset,
            values: &self.values,
            compare: self.compare,
            views: (self.slots != DEFAULT_SLOTS).then(|| self.slots.map(View::name)),
            log_cwnd: self.look.log_cwnd,
            t_ns: self.clock.t_ns,
        }
    }
}
