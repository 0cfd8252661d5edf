//! Playback of a finished run: a time cursor moved by wall-clock frames at a
//! chosen speed, or stepped to the next event, the next ACK or one round trip
//! on. The run itself never changes here; only where we look at it.

use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;
use sim_core::units::Within;

/// Playback speeds, simulated time per wall-clock time: fast-forward down to
/// 1/1000 slow motion (a 10 Gbit/s segment lasts 1.2 µs; at 1/1000 it crosses
/// a frame or two).
pub const SPEEDS: &[(f64, &str)] = &[
    (10.0, "10× fast"),
    (3.0, "3× fast"),
    (1.0, "real time"),
    (0.5, "1/2"),
    (0.2, "1/5"),
    (0.1, "1/10"),
    (0.05, "1/20"),
    (0.02, "1/50"),
    (0.01, "1/100"),
    (0.005, "1/200"),
    (0.002, "1/500"),
    (0.001, "1/1000"),
];

/// The slowest listed speed that still plays a run of `end_ns` within
/// `wall_ns` of wall time (the fastest if none does).
pub fn auto_speed(end_ns: f64, wall_ns: f64) -> f64 {
    SPEEDS
        .iter()
        .rev()
        .map(|(s, _)| *s)
        .find(|s| end_ns / s <= wall_ns)
        .unwrap_or(SPEEDS[0].0)
}

/// The listed speed nearest to `s` (a URL or a select can only pick these).
pub fn nearest_speed(s: f64) -> f64 {
    SPEEDS
        .iter()
        .map(|(x, _)| *x)
        .min_by(|a, b| {
            let d = |x: f64| (x.ln() - s.max(1e-9).ln()).abs();
            d(*a).total_cmp(&d(*b))
        })
        .unwrap_or(1.0)
}

/// What the step buttons step to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Anything recorded: a segment sent or received, a timer, a cwnd change.
    Event,
    /// The next ACK reaching the data sender (the server).
    Ack,
    /// One smoothed RTT on (the path's propagation RTT before any sample).
    RoundTrip,
}

/// The instants the step buttons can land on, from one run.
#[derive(Clone, Debug, Default)]
pub struct StepIndex {
    events: Vec<f64>,
    acks: Vec<f64>,
    base_rtt_ns: f64,
    end_ns: f64,
}

impl StepIndex {
    pub fn from_run(run: &RunResult, end_ns: f64) -> Self {
        let mut ix = StepIndex {
            base_rtt_ns: (run.scenario.path.delay_forward.0 + run.scenario.path.delay_reverse.0)
                as f64,
            end_ns,
            ..StepIndex::default()
        };
        for r in run.trace.records() {
            let t = r.time.0 as f64;
            if ix.events.last() != Some(&t) {
                ix.events.push(t);
            }
            match r.event {
                TraceEvent::SegmentReceived {
                    to: Side::Server,
                    seg,
                } if seg.flags.ack && seg.len == 0 => ix.acks.push(t),
                _ => {}
            }
        }
        ix
    }

    /// Where a step of `kind` from `t_ns` lands (never past the end; `None`
    /// when nothing of that kind is left). A round trip is `srtt_ns`, the
    /// sender's srtt at `t_ns` (`RttSeries::srtt_at`, which goes on past a
    /// long run's packet records), or the path's own before the first
    /// sample (0).
    pub fn next(&self, kind: Step, t_ns: f64, srtt_ns: u64) -> Option<f64> {
        let after = |v: &[f64]| v.get(v.partition_point(|&x| x <= t_ns)).copied();
        match kind {
            Step::Event => after(&self.events),
            Step::Ack => after(&self.acks),
            Step::RoundTrip => {
                if t_ns >= self.end_ns {
                    return None;
                }
                let rtt = match srtt_ns {
                    0 => self.base_rtt_ns,
                    srtt => srtt as f64,
                };
                Some((t_ns + rtt.max(1.0)).min(self.end_ns))
            }
        }
    }
}

/// The time cursor and whether it is moving.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    pub t_ns: f64,
    pub end_ns: f64,
    pub playing: bool,
    pub speed: f64,
    last_frame_ms: Option<f64>,
}

impl Clock {
    pub fn new(end_ns: f64, speed: f64) -> Self {
        Clock {
            t_ns: 0.0,
            end_ns,
            playing: false,
            speed,
            last_frame_ms: None,
        }
    }

    pub fn play(&mut self) {
        if self.t_ns >= self.end_ns {
            self.t_ns = 0.0;
        }
        self.playing = true;
        self.last_frame_ms = None;
    }

    pub fn pause(&mut self) {
        self.playing = false;
        self.last_frame_ms = None;
    }

    /// Moves the cursor to `t_ns` (clamped to the run), keeping play state.
    pub fn seek(&mut self, t_ns: f64) {
        self.t_ns = if t_ns.is_finite() {
            t_ns.within(0.0, self.end_ns)
        } else {
            0.0
        };
        self.last_frame_ms = None;
    }

    pub fn set_speed(&mut self, s: f64) {
        self.speed = nearest_speed(s);
        self.last_frame_ms = None;
    }

    /// An animation frame at wall time `now_ms`; returns whether to keep
    /// requesting frames. A gap of more than 100 ms (a background tab) counts
    /// as 100 ms, so the cursor never jumps.
    pub fn frame(&mut self, now_ms: f64) -> bool {
        if !self.playing {
            return false;
        }
        if let Some(last) = self.last_frame_ms {
            let dt_ms = (now_ms - last).within(0.0, 100.0);
            self.t_ns += dt_ms * 1e6 * self.speed;
        }
        self.last_frame_ms = Some(now_ms);
        if self.t_ns >= self.end_ns {
            self.t_ns = self.end_ns;
            self.playing = false;
        }
        self.playing
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seed_004() -> RunResult {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../scenarios/seed-004-512k-7ms.toml"
        ))
        .unwrap();
        let s = sim_core::scenario_file::parse(&text).unwrap().1;
        sim_core::sim::run(&s).unwrap()
    }

    #[test]
    fn steps_land_on_the_next_ack_and_one_rtt_on() {
        let run = seed_004();
        let end = run.outcome.at().0 as f64;
        let ix = StepIndex::from_run(&run, end);
        // The handshake's last ACK carries the request, so the first pure ACK
        // is the client's for the first flight: the request reaches the server
        // at 10.5 ms (one and a half round trips), the flight's ACK one round
        // trip later, plus serialisations of a few µs at 1 Gbit/s.
        let first_ack = ix.next(Step::Ack, 0.0, 0).unwrap();
        assert!((17.5e6..17.53e6).contains(&first_ack), "{first_ack}");
        let second = ix.next(Step::Ack, first_ack, 0).unwrap();
        assert!(second > first_ack);
        // Before any RTT sample, a round trip is the path's 7 ms.
        assert_eq!(ix.next(Step::RoundTrip, 0.0, 0), Some(7e6));
        // After one, the srtt of the moment, as the caller reads it.
        assert_eq!(ix.next(Step::RoundTrip, 20e6, 7_300_000), Some(27.3e6));
        // Event steps visit every distinct record time in order.
        let mut t = 0.0;
        let mut n = 0;
        while let Some(next) = ix.next(Step::Event, t, 0) {
            assert!(next > t);
            t = next;
            n += 1;
        }
        assert_eq!(t, end);
        let distinct: std::collections::BTreeSet<u64> =
            run.trace.records().map(|r| r.time.0).collect();
        assert_eq!(n, distinct.len() - 1, "every record time but zero");
        assert_eq!(ix.next(Step::RoundTrip, end, 0), None);
    }

    #[test]
    fn the_clock_moves_at_its_speed_and_stops_at_the_end() {
        let mut c = Clock::new(10e6, 0.01);
        c.play();
        assert!(c.frame(1000.0));
        assert!(c.frame(1016.0));
        assert!(
            (c.t_ns - 160_000.0).abs() < 1e-6,
            "16 ms of wall time at 1/100"
        );
        // A background tab resuming after 5 s moves only 100 ms of wall time.
        c.frame(6016.0);
        assert!((c.t_ns - 1_160_000.0).abs() < 1e-6);
        c.set_speed(1.0);
        c.frame(7000.0);
        assert!(!c.frame(7100.0), "the end stops playback");
        assert_eq!(c.t_ns, 10e6);
        c.seek(f64::NAN);
        assert_eq!(c.t_ns, 0.0);
        c.seek(1e30);
        assert_eq!(c.t_ns, 10e6);
    }

    #[test]
    fn speeds_snap_to_the_list() {
        assert_eq!(nearest_speed(0.0011), 0.001);
        assert_eq!(nearest_speed(1e9), 10.0);
        assert_eq!(nearest_speed(-3.0), 0.001);
        assert_eq!(auto_speed(7e6, 12e9), 0.001);
        assert_eq!(auto_speed(30e9, 12e9), 3.0);
    }
}
