//! Predict-first mode (`data-predict="round_trips"` on the placeholder): the
//! reader commits a guess before the widget shows the result, as in Nicky
//! Case's explorables.
//!
//! ```text
//!   Waiting ──(page sets data-answered)──► Answered ──(cursor at the run's end)──► Revealed
//!   results hidden, controls and          transport on: the run
//!   transport off                         draws as it plays
//! ```
//!
//! While hidden the widget shows no figure of the result (headline,
//! readouts, "Details", exports), draws nothing after the time cursor and
//! puts the charts on a time axis grown from how far the cursor has been,
//! not from the run's end (the cwnd chart's y axis likewise from the cwnd
//! seen, not the largest); the controls stay off so that the guess is
//! about the setting the page shows. Only the page's own answer unlocks
//! (a link's cursor does not count as played).

use super::state::{Effects, Msg, State};
use crate::kit::model::Model;
use crate::kit::views::{self, View};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// An ordinary widget: nothing hidden.
    #[default]
    Off,
    /// Waiting for the reader's prediction.
    Waiting,
    /// Predicted: play the run to see the result.
    Answered,
    /// Played to the end: everything shown.
    Revealed,
}

impl Phase {
    /// Whether the result is hidden.
    pub fn hidden(self) -> bool {
        matches!(self, Phase::Waiting | Phase::Answered)
    }

    /// Whether the transport is locked (before the prediction).
    pub fn locked(self) -> bool {
        self == Phase::Waiting
    }

    /// Whether `msg` may change the state now: no control while hidden, no
    /// cursor move before the prediction (shortcuts come here as the
    /// messages they stand for).
    pub fn allows(self, msg: &Msg) -> bool {
        match msg {
            Msg::Set(..) | Msg::SetVs(_) | Msg::Preset(_) => !self.hidden(),
            Msg::PlayPause | Msg::Step(_) | Msg::Restart | Msg::Seek(_) | Msg::Drag(_) => {
                !self.locked()
            }
            _ => true,
        }
    }

    /// The phase after the cursor moved to `t_ns` in a run ending at `end_ns`.
    pub fn after_cursor(self, t_ns: f64, end_ns: f64) -> Phase {
        if self == Phase::Answered && end_ns > 0.0 && t_ns >= end_ns {
            Phase::Revealed
        } else {
            self
        }
    }
}

impl State {
    /// The page took the prediction: the transport unlocks.
    pub(super) fn answer(&mut self) -> Effects {
        if !self.predict.locked() {
            return Effects::NONE;
        }
        self.predict = Phase::Answered;
        Effects::RENDER
    }

    /// After any transition: how far the cursor has been, and the reveal
    /// once it reaches the end of the run.
    pub(super) fn watch_cursor(&mut self, effects: Effects) -> Effects {
        if self.predict != Phase::Answered || !self.interactive || self.busy() {
            return effects;
        }
        let t = self.clock.t_ns;
        self.furthest_ns = self.furthest_ns.max(t);
        self.predict = self.predict.after_cursor(t, self.clock.end_ns);
        Effects {
            render: effects.render || !self.predict.hidden(),
            ..effects
        }
    }

    /// The time the charts and the scrubber span: the run's, or while the
    /// result is hidden one that does not tell it (see [`blind_span`]).
    pub fn span_ns(&self) -> f64 {
        if !self.predict.hidden() {
            return self.clock.end_ns;
        }
        let rtt = self
            .models()
            .next()
            .map_or(0, |m| m.path.downlink.delay_ns + m.path.uplink.delay_ns);
        blind_span(self.furthest_ns, rtt as f64)
    }

    /// The top of `view`'s y axis for `m`: its own, but while the result is
    /// hidden the cwnd chart's grows from the cwnd the cursor has seen (its
    /// own is the largest cwnd, with a fifth to spare).
    pub fn y_top(&self, view: View, m: &Model) -> f64 {
        if !(self.predict.hidden() && view == View::Window) {
            return views::y_top(view, m);
        }
        let seen = m.cwnd_at(self.furthest_ns).max(m.cwnd_at(self.clock.t_ns));
        round_up(2.0 * seen as f64)
    }
}

/// The time axis while the result is hidden: a round 1–2–5 span past the
/// furthest the cursor has been (with a quarter to spare), and at least
/// four round trips, so it grows in a few steps as the run plays and never
/// tells where the run ends.
pub fn blind_span(furthest_ns: f64, rtt_ns: f64) -> f64 {
    round_up((furthest_ns * 1.25).max(4.0 * rtt_ns).max(1e3))
}

/// The smallest of 1, 2, 5, 10, 20, 50… at least `want` (exact in binary
/// all the way).
fn round_up(want: f64) -> f64 {
    let (mut v, mut k) = (1.0, 0);
    while v < want {
        v *= if k % 3 == 1 { 2.5 } else { 2.0 };
        k += 1;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::widget::keys::Action;

    /// A slow-start widget in predict mode, its run in.
    fn waiting() -> (State, &'static widget_catalogue::WidgetSpec) {
        let spec = widget_catalogue::widget("slow-start").unwrap();
        let pairs = [("preset".to_string(), "seed-7ms".to_string())];
        let mut s = State::new(&crate::params::initial(spec, &pairs), None, || 0.0);
        s.predict = Phase::Waiting;
        let _ = s.start_runs(spec);
        assert!(s.update(spec, Msg::Slice).interactive);
        (s, spec)
    }

    #[test]
    fn a_predict_widget_waits_for_the_answer_then_for_the_end() {
        let (mut s, spec) = waiting();
        let end = s.clock.end_ns;
        assert!(end > 0.0);
        // Nothing moves the cursor or the setting before the prediction,
        // shortcuts included.
        for m in [
            Msg::PlayPause,
            Msg::Seek(end),
            Msg::Step(crate::kit::transport::Step::Event),
            Msg::Key(Action::PlayPause),
            Msg::Key(Action::Scrub(50)),
            Msg::Key(Action::Preset(1)),
            Msg::Set(0, 1.0),
        ] {
            assert_eq!(s.update(spec, m.clone()), Effects::NONE, "{m:?}");
        }
        assert!(!s.clock.playing && s.clock.t_ns == 0.0);
        // The axes tell neither where the run ends nor its largest cwnd.
        assert_eq!(s.span_ns(), blind_span(0.0, 7e6));
        let m = s.models().next().unwrap().clone();
        assert_eq!(s.y_top(View::Window, &m), 20.0, "twice initcwnd 10");
        assert!(s.update(spec, Msg::Answered).render);
        assert_eq!(s.predict, Phase::Answered);
        assert_eq!(s.update(spec, Msg::Set(0, 1.0)), Effects::NONE);
        // Played part way: still hidden, the axis grown past the cursor.
        let _ = s.update(spec, Msg::Seek(end / 2.0));
        assert_eq!(s.predict, Phase::Answered);
        assert_eq!(s.furthest_ns, end / 2.0);
        assert!(s.span_ns() >= end / 2.0 * 1.25);
        // Back to the start: the furthest point stays.
        let _ = s.update(spec, Msg::Restart);
        assert_eq!(s.furthest_ns, end / 2.0);
        // Playing to the end reveals.
        let _ = s.update(spec, Msg::PlayPause);
        let _ = s.update(spec, Msg::Frame(0.0));
        let mut ms = 0.0;
        while s.clock.playing {
            ms += 100.0;
            let _ = s.update(spec, Msg::Frame(ms));
        }
        assert_eq!(s.predict, Phase::Revealed);
        assert_eq!(s.span_ns(), end);
        assert_eq!(s.y_top(View::Window, &m), views::y_top(View::Window, &m));
        // Then it is an ordinary widget.
        let i = spec
            .params
            .iter()
            .position(|p| p.name == "initcwnd")
            .unwrap();
        assert!(s.update(spec, Msg::Set(i, 20.0)).render);
        assert!(s.busy());
    }

    #[test]
    fn the_span_grows_in_round_steps_from_the_cursor_alone() {
        assert_eq!(blind_span(0.0, 7e6), 50e6);
        assert_eq!(blind_span(30e6, 7e6), 50e6);
        assert_eq!(blind_span(41e6, 7e6), 100e6);
        assert_eq!(blind_span(100e6, 7e6), 200e6);
        assert_eq!(blind_span(0.0, 0.0), 1e3);
        assert_eq!(round_up(20.0), 20.0);
        assert_eq!(round_up(21.0), 50.0);
        assert_eq!(round_up(0.0), 1.0);
    }

    #[test]
    fn only_the_prediction_unlocks_and_only_the_end_reveals() {
        let w = Phase::Waiting;
        assert!(w.hidden() && w.locked());
        assert!(!w.allows(&Msg::PlayPause) && !w.allows(&Msg::Seek(1.0)));
        assert!(!w.allows(&Msg::Set(0, 1.0)) && w.allows(&Msg::Frame(0.0)));
        assert_eq!(w.after_cursor(10.0, 10.0), w);
        let a = Phase::Answered;
        assert!(a.hidden() && a.allows(&Msg::PlayPause) && !a.allows(&Msg::Preset("x".into())));
        assert_eq!(a.after_cursor(9.0, 10.0), a);
        assert_eq!(a.after_cursor(10.0, 10.0), Phase::Revealed);
        assert_eq!(a.after_cursor(0.0, 0.0), a, "no run yet");
        let r = Phase::Revealed;
        assert!(!r.hidden() && r.allows(&Msg::Set(0, 1.0)));
        assert!(Phase::Off.allows(&Msg::Preset("x".into())));
    }
}
