//! Packet detail for runs too long to keep every packet: the time cursor can
//! go anywhere in a 30 s, 1 Gbit/s run and the path view and the ladder
//! still show the packets there.
//!
//! A run's trace stores its first packets only (`scenario::build` sets the
//! budget); the charts go on from the periodic samples. While the run
//! simulates, [`Snapshots`] keeps copies of the whole simulation every few
//! seconds (copies without a trace: `Simulation::fork`). When the cursor is
//! past the stored packets, [`Detail`] replays the stretch around it from
//! the nearest copy before it, with a trace that stores only that stretch's
//! packets, a slice at a time, and the views read that stretch while the
//! cursor stays in it. The simulator is deterministic, so the replay is the
//! run itself, not an approximation of it.
//!
//! ```text
//!   run      ────────────────────────────────────────────────────► end
//!   stored   ─────────┤ (the trace's packet budget)
//!   copies   ●      ●        ●        ●        ●        ●
//!   replay                   ●════[ from ── shows ── cursor ── until ]
//!                                   └ lookback ┘
//! ```
//!
//! `from` is the cursor less the longest a packet can take to cross the
//! path (the lookback): every packet on the path at the cursor was sent
//! after it. While playing, the next stretch is replayed once the cursor is
//! half-way through the current one.
//!
//! Memory stays bounded: at most [`MAX_SNAPSHOTS`] copies (each holds what
//! is in flight and queued, a few MB on a 1 Gbit/s × 210 ms path) and one
//! stretch of at most [`STRETCH_BUDGET`] packet records.

use crate::series::{ladder::Ladder, packet_records_end_ns, path::PathSeries};
use sim_core::config::Scenario;
use sim_core::sim::{RunResult, Simulation};
use sim_core::time::SimTime;
use sim_core::trace::Trace;
use std::rc::Rc;

/// Copies of one run kept at most.
pub const MAX_SNAPSHOTS: usize = 10;

/// Packet records one replayed stretch stores at most (64 bytes each).
pub const STRETCH_BUDGET: usize = 400_000;

/// Packet records per data segment on a bulk path, with room to spare: its
/// sending and arrival, its ACK's (one per two segments) and the RTT
/// samples. Measured 4.1 to 4.25 on the long-fat presets' first seconds, at
/// 110 Mbit/s and at 1 Gbit/s.
const RECORDS_PER_SEGMENT: u64 = 5;

/// Events simulated between clock checks.
const EVENTS_PER_CHECK: u64 = 2_000;

/// How far around the cursor a stretch reaches, for one scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reach {
    /// The longest a packet takes from being sent to arriving: a full
    /// queue's serialisation, then the longer one-way delay (ns).
    pub lookback_ns: u64,
    /// How long a stretch is: as much of the path's full-rate packets as
    /// [`STRETCH_BUDGET`] holds, within two and four lookbacks.
    pub stretch_ns: u64,
}

impl Reach {
    pub fn of(s: &Scenario) -> Reach {
        let rate = s.path.rate_bps.max(1) as f64;
        let wire_ns = |bytes: u64| (bytes as f64 * 8e9 / rate).ceil() as u64;
        // Two full-size frames on top of the queue: the one serialising
        // and the one arriving at a full queue.
        let lookback_ns = wire_ns(s.path.queue_bytes.saturating_add(2 * 1_600))
            .saturating_add(s.path.delay_forward.0.max(s.path.delay_reverse.0));
        // As long as the budget holds at full rate, but no longer than four
        // lookbacks (or 2 s): a replay costs its stretch, and a reader
        // scrubbing waits for it.
        let segments = STRETCH_BUDGET as u64 / RECORDS_PER_SEGMENT;
        let stretch_ns = segments
            .saturating_mul(wire_ns(1_514))
            .min(lookback_ns.saturating_mul(4).max(2_000_000_000))
            .max(lookback_ns.saturating_mul(2));
        Reach {
            lookback_ns,
            stretch_ns,
        }
    }
}

/// Copies of a run taken while it simulates (see the module's comment).
pub struct Snapshots {
    every_ns: u64,
    next_ns: u64,
    /// In time order; the first is the run at time zero.
    kept: Vec<Simulation>,
}

impl Snapshots {
    /// Starts with a copy of `sim` before its first event.
    pub fn new(sim: &mut Simulation, scenario: &Scenario) -> Snapshots {
        let reach = Reach::of(scenario);
        // A replay costs at most a copy's interval plus a stretch: the
        // interval is a stretch, or longer when the run is long.
        let expected = scenario.time_limit.0;
        let every_ns = reach.stretch_ns.max(expected / MAX_SNAPSHOTS as u64).max(1);
        Snapshots {
            every_ns,
            next_ns: every_ns,
            kept: vec![sim.fork(Trace::with_packet_budget(0))],
        }
    }

    /// Takes a copy of `sim` if it has passed the next copy's time; called
    /// between slices of the run.
    pub fn observe(&mut self, sim: &mut Simulation) {
        let now = sim.now().0;
        if now < self.next_ns {
            return;
        }
        // While the trace still stores every packet, no replay starts before
        // its end: the copy at zero and the two latest are enough (the older
        // of those is at least a stretch before where the packets end).
        if sim.trace().skipped() == 0 && self.kept.len() >= 3 {
            self.kept.remove(1);
        }
        if self.kept.len() >= MAX_SNAPSHOTS {
            // Longer than expected: keep every other copy, twice as far apart.
            let mut i = 0;
            self.kept.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.every_ns = self.every_ns.saturating_mul(2);
        }
        self.kept.push(sim.fork(Trace::with_packet_budget(0)));
        while self.next_ns <= now {
            self.next_ns = self.next_ns.saturating_add(self.every_ns);
        }
    }

    /// The times of the copies kept (ns), for tests.
    pub fn times_ns(&self) -> Vec<u64> {
        self.kept.iter().map(|s| s.now().0).collect()
    }
}

/// One replayed stretch: the path and the ladder around a time.
pub struct Stretch {
    /// Where its packet records start and end (ns).
    pub from_ns: u64,
    pub until_ns: u64,
    /// The times it shows whole: from a lookback after `from_ns` (at zero
    /// from zero) to `until_ns`.
    pub shows_from_ns: u64,
    /// Where it was asked to end.
    asked_until_ns: u64,
    pub path: PathSeries,
    pub ladder: Ladder,
}

impl Stretch {
    /// Whether a replay for `t_ns` would have been this one's.
    fn asked(&self, t_ns: f64) -> bool {
        self.from_ns as f64 <= t_ns && t_ns <= self.asked_until_ns as f64
    }

    pub fn covers(&self, t_ns: f64) -> bool {
        self.shows_from_ns as f64 <= t_ns && t_ns <= self.until_ns as f64
    }
}

/// A replay under way, for the window `from_ns..until_ns`.
struct Replay {
    phase: Phase,
    from_ns: u64,
    until_ns: u64,
    shows_from_ns: u64,
    /// Where the next stretch starts (a lookback before this one's end),
    /// and a copy of the replay taken there once it passes it.
    next_from_ns: u64,
    handoff: Option<Simulation>,
}

/// Where a replay is: simulating, then reading its stretch's path, then
/// its ladder, each in slices of its own (each read takes tens of
/// milliseconds on a 1 Gbit/s stretch).
enum Phase {
    Simulating(Box<Simulation>),
    Reading(Box<(RunResult, Option<PathSeries>)>),
    /// Only while the simulation moves into its run.
    Moving,
}

impl Replay {
    fn will_cover(&self, t_ns: f64) -> bool {
        self.shows_from_ns as f64 <= t_ns && t_ns <= self.until_ns as f64
    }
}

/// What a slice of replay work did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// Nothing to do at this time: the stored packets or the current
    /// stretch cover it.
    Idle,
    /// A replay is under way.
    Pending,
    /// A new stretch is ready: draw again.
    Ready,
}

/// The packet detail of one finished run (see the module's comment).
#[derive(Default)]
pub struct Detail {
    reach: Option<Reach>,
    snapshots: Vec<Simulation>,
    /// Where the run's own packet records end (`None`: they cover it all).
    records_end_ns: Option<u64>,
    end_ns: u64,
    /// When the run's server completed the handshake: a stretch starts long
    /// after, so its own trace does not say.
    established_ns: Option<u64>,
    /// The last two stretches replayed, the newer first: playing on, the
    /// next one is replayed while the cursor is still in the current one.
    stretches: Vec<Rc<Stretch>>,
    replay: Option<Replay>,
    /// A copy of the last replay where the next stretch starts: playing on,
    /// the next replay starts there instead of at a copy seconds before.
    handoff: Option<Simulation>,
}

impl Detail {
    /// For a run that ended at `end_ns`, whose path (as its own trace
    /// stored it) is `run`, with the copies taken while it simulated.
    pub fn new(snapshots: Snapshots, scenario: &Scenario, run: &PathSeries, end_ns: u64) -> Detail {
        let records_end_ns = run.packets_until_ns;
        Detail {
            reach: Some(Reach::of(scenario)),
            // A run that kept every packet never replays.
            snapshots: if records_end_ns.is_some() {
                snapshots.kept
            } else {
                Vec::new()
            },
            records_end_ns,
            end_ns,
            established_ns: run.established_ns,
            stretches: Vec::new(),
            replay: None,
            handoff: None,
        }
    }

    /// The stretch the views read at `t_ns`, if one covers it.
    pub fn at(&self, t_ns: f64) -> Option<&Rc<Stretch>> {
        self.stretches.iter().find(|s| s.covers(t_ns))
    }

    /// Where a replay should be centred for the cursor at `t_ns`, if one is
    /// needed: at the cursor when nothing covers it, at the current
    /// stretch's end once the cursor is half-way through it.
    fn target(&self, t_ns: f64) -> Option<f64> {
        let end = self.records_end_ns?;
        if t_ns <= end as f64 || self.snapshots.is_empty() {
            return None;
        }
        match self.at(t_ns) {
            Some(s) => {
                let mid = (s.shows_from_ns + s.until_ns) as f64 / 2.0;
                let next = s.until_ns as f64;
                (t_ns > mid && s.until_ns < self.end_ns && self.at(next + 1.0).is_none())
                    .then_some(next)
            }
            // The last replay's budget ran out before the cursor: another
            // would too.
            None if self
                .stretches
                .first()
                .is_some_and(|s| s.until_ns <= s.shows_from_ns && s.asked(t_ns)) =>
            {
                None
            }
            None => Some(t_ns),
        }
    }

    /// Whether the cursor at `t_ns` wants replay work (see [`Detail::work`]).
    pub fn wants(&self, t_ns: f64) -> bool {
        self.target(t_ns).is_some()
    }

    /// Replays toward the stretch the cursor at `t_ns` needs until
    /// `now_ms()` passes `deadline_ms`.
    pub fn work(&mut self, t_ns: f64, deadline_ms: f64, now_ms: fn() -> f64) -> Work {
        let Some(target) = self.target(t_ns) else {
            return Work::Idle;
        };
        if self.replay.as_ref().is_none_or(|r| !r.will_cover(target)) {
            self.replay = self.start(target);
        }
        let Some(replay) = &mut self.replay else {
            return Work::Idle;
        };
        loop {
            match &mut replay.phase {
                Phase::Simulating(sim) => {
                    let done =
                        sim.now() >= SimTime(replay.until_ns) || sim.advance(EVENTS_PER_CHECK);
                    if !done && replay.handoff.is_none() && sim.now().0 >= replay.next_from_ns {
                        replay.handoff = Some(sim.fork(Trace::with_packet_budget(0)));
                    }
                    if done
                        && let Phase::Simulating(sim) =
                            std::mem::replace(&mut replay.phase, Phase::Moving)
                    {
                        replay.phase = Phase::Reading(Box::new((sim.cut(), None)));
                    }
                }
                Phase::Moving => return Work::Idle,
                Phase::Reading(reading) => match &reading.1 {
                    None => reading.1 = Some(PathSeries::from_run(&reading.0)),
                    Some(_) => break,
                },
            }
            if now_ms() > deadline_ms {
                return Work::Pending;
            }
        }
        let Some(mut replay) = self.replay.take() else {
            return Work::Idle;
        };
        self.handoff = replay.handoff.take();
        let Phase::Reading(reading) = replay.phase else {
            return Work::Idle;
        };
        let (run, path) = *reading;
        let until_ns =
            packet_records_end_ns(&run).map_or(replay.until_ns, |e| e.min(replay.until_ns));
        let stretch = Stretch {
            from_ns: replay.from_ns,
            until_ns,
            shows_from_ns: replay.shows_from_ns.min(until_ns),
            asked_until_ns: replay.until_ns,
            path: PathSeries {
                established_ns: self.established_ns,
                ..path.unwrap_or_default()
            },
            ladder: Ladder::from_run(&run),
        };
        self.stretches.insert(0, Rc::new(stretch));
        self.stretches.truncate(2);
        Work::Ready
    }

    /// A replay whose stretch shows `target`, from the latest copy before
    /// its start.
    fn start(&mut self, target: f64) -> Option<Replay> {
        let reach = self.reach?;
        let target = target.max(0.0) as u64;
        let from_ns = target.saturating_sub(reach.lookback_ns);
        let until_ns = from_ns
            .saturating_add(reach.stretch_ns)
            .max(target)
            .min(self.end_ns);
        let i = self
            .snapshots
            .partition_point(|s| s.now().0 <= from_ns)
            .max(1);
        let latest = self.snapshots.get(i - 1)?.now();
        let copy = match &mut self.handoff {
            Some(h) if h.now() > latest && h.now().0 <= from_ns => h,
            _ => self.snapshots.get_mut(i - 1)?,
        };
        let window = SimTime(from_ns)..SimTime(until_ns.saturating_add(1));
        Some(Replay {
            phase: Phase::Simulating(Box::new(
                copy.fork(Trace::with_packet_window(STRETCH_BUDGET, window)),
            )),
            // A quarter lookback early: the copy is taken at the first
            // check past it, a few thousand events later.
            next_from_ns: until_ns.saturating_sub(reach.lookback_ns + reach.lookback_ns / 4),
            handoff: None,
            from_ns,
            until_ns,
            shows_from_ns: if from_ns == 0 {
                0
            } else {
                from_ns + reach.lookback_ns
            },
        })
    }
}
