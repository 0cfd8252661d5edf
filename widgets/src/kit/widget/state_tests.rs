//! The widget's state machine driven natively, message by message: the runs
//! simulated in slices, the clock, values and presets, compare mode and the
//! shortcuts, each checked by the state it leaves and the effects it asks of
//! the page.

use super::keys::Action;
use super::state::{Effects, Frames, Msg, State};
use crate::kit::transport::{self, Step};
use crate::kit::views::View;
use crate::params::{Note, initial};
use std::cell::Cell;
use widget_catalogue::WidgetSpec;

fn slow_start() -> &'static WidgetSpec {
    widget_catalogue::widget("slow-start").unwrap()
}

fn param(spec: &WidgetSpec, name: &str) -> usize {
    spec.params.iter().position(|p| p.name == name).unwrap()
}

/// A page clock that stands still: every run finishes in its first slice.
fn still() -> f64 {
    0.0
}

/// A widget of `spec` as a page's `key=value` pairs start it, its first
/// runs started.
fn started(spec: &'static WidgetSpec, pairs: &[(&str, &str)], now_ms: fn() -> f64) -> State {
    let pairs: Vec<_> = pairs.iter().map(|&(k, v)| (k.into(), v.into())).collect();
    let mut s = State::new(&initial(spec, &pairs), None, now_ms);
    let _ = s.start_runs(spec);
    s
}

/// The same, with its first runs finished.
fn ready(spec: &'static WidgetSpec, p: &[(&str, &str)]) -> State {
    let mut s = started(spec, p, still);
    let effects = s.update(spec, Msg::Slice);
    assert!(effects.interactive, "{effects:?}");
    s
}

/// Changes a value and lets the new runs finish.
fn rerun(s: &mut State, spec: &'static WidgetSpec) {
    let i = param(spec, "initcwnd");
    let _ = s.update(spec, Msg::Set(i, s.values[i] + 1.0));
    let _ = s.update(spec, Msg::Slice);
}

#[test]
fn a_new_widget_simulates_then_answers_the_reader() {
    let spec = slow_start();
    let mut s = State::new(&initial(spec, &[]), None, still);
    let effects = s.start_runs(spec);
    assert_eq!(
        (effects.slice, effects.frame),
        (Frames::Request, Frames::Cancel)
    );
    assert!(s.busy());
    assert_eq!(s.update(spec, Msg::PlayPause), Effects::NONE, "not yet");
    assert_eq!(s.update(spec, Msg::Step(Step::Ack)), Effects::NONE);
    let effects = s.update(spec, Msg::Slice);
    assert_eq!(
        effects,
        Effects {
            slice: Frames::Cancel,
            interactive: true,
            ..Effects::RENDER
        }
    );
    assert!(!s.busy() && s.interactive);
    let end = s.models().next().unwrap().end_ns;
    assert_eq!((s.clock.t_ns, s.clock.end_ns, s.end_ns()), (0.0, end, end));
    assert_eq!(s.clock.speed, transport::auto_speed(end, 12e9));
    assert_eq!(
        s.update(spec, Msg::Slice),
        Effects::NONE,
        "nothing to simulate"
    );
}

#[test]
fn a_long_run_is_simulated_in_slices_with_a_progress_bar_after_100_ms() {
    thread_local!(static NOW: Cell<f64> = const { Cell::new(0.0) });
    // Every look at the clock finds 50 ms more gone: one batch of events per
    // slice.
    fn ticking() -> f64 {
        NOW.with(|n| {
            n.set(n.get() + 50.0);
            n.get()
        })
    }
    let spec = widget_catalogue::widget("long-fat").unwrap();
    let mut s = started(spec, &[], ticking);
    let effects = s.update(spec, Msg::Slice);
    assert_eq!(
        effects,
        Effects {
            slice: Frames::Request,
            render: true,
            ..Effects::NONE
        }
    );
    assert!(s.busy() && !s.interactive);
    assert!(s.progress() > 0.0 && s.progress() < 1.0, "{}", s.progress());
}

#[test]
fn playback_runs_to_the_end_of_the_run_and_stops_there() {
    let spec = slow_start();
    let mut s = ready(spec, &[]);
    let effects = s.update(spec, Msg::PlayPause);
    assert_eq!(effects.frame, Frames::Request);
    assert!(s.clock.playing && !effects.save_url);
    assert_eq!(s.update(spec, Msg::Frame(0.0)).frame, Frames::Request);
    let effects = s.update(spec, Msg::Frame(50.0));
    assert_eq!(effects.frame, Frames::Request);
    assert!(s.clock.t_ns > 0.0);
    // Frames 100 ms apart (the most one counts) until the end.
    let mut ts = 50.0;
    let last = loop {
        ts += 100.0;
        let effects = s.update(spec, Msg::Frame(ts));
        if effects.frame != Frames::Request {
            break effects;
        }
    };
    assert_eq!(
        last,
        Effects {
            frame: Frames::Cancel,
            ..Effects::SAVE
        }
    );
    assert_eq!(s.clock.t_ns, s.clock.end_ns);
    assert!(!s.clock.playing);
    // Play at the end starts over.
    let _ = s.update(spec, Msg::PlayPause);
    assert_eq!(s.clock.t_ns, 0.0);
    let effects = s.update(spec, Msg::PlayPause);
    assert_eq!(
        effects,
        Effects {
            frame: Frames::Cancel,
            ..Effects::SAVE
        }
    );
}

#[test]
fn a_step_pauses_and_lands_on_the_next_ack() {
    let spec = slow_start();
    let mut s = ready(spec, &[]);
    let _ = s.update(spec, Msg::PlayPause);
    let effects = s.update(spec, Msg::Step(Step::Ack));
    assert_eq!(
        effects,
        Effects {
            frame: Frames::Cancel,
            ..Effects::SAVE
        }
    );
    let first_ack = s.models().next().unwrap().steps.next(Step::Ack, 0.0, 0);
    assert_eq!(Some(s.clock.t_ns), first_ack);
    assert!(!s.clock.playing);
}

#[test]
fn a_changed_value_starts_new_runs_and_leaves_the_preset() {
    let spec = slow_start();
    let mut s = ready(spec, &[("preset", "initcwnd-100")]);
    let i = param(spec, "initcwnd");
    assert_eq!(
        s.update(spec, Msg::Set(i, 100.0)),
        Effects::NONE,
        "unchanged"
    );
    assert_eq!(
        s.update(spec, Msg::Set(99, 1.0)),
        Effects::NONE,
        "no such parameter"
    );
    assert_eq!(s.preset, Some("initcwnd-100"));
    let effects = s.update(spec, Msg::Set(i, -5.0));
    assert_eq!(
        effects,
        Effects {
            slice: Frames::Request,
            frame: Frames::Cancel,
            ..Effects::SAVE
        }
    );
    assert_eq!(s.values[i], spec.params[i].min, "clamped to the slider");
    assert_eq!(s.preset, None);
    assert!(s.busy());
    assert!(s.models().next().is_some(), "the last run stays on show");
}

#[test]
fn a_speed_the_reader_chose_outlives_new_runs() {
    let spec = slow_start();
    let mut s = ready(spec, &[]);
    let _ = s.update(spec, Msg::Speed(0.11));
    assert_eq!(s.clock.speed, 0.1, "snapped to the list");
    rerun(&mut s, spec);
    assert_eq!(s.clock.speed, 0.1);
}

#[test]
fn a_link_cursor_is_applied_once_the_first_runs_are_in() {
    let spec = slow_start();
    let mut s = State::new(&initial(spec, &[]), Some(5e6), still);
    let _ = s.start_runs(spec);
    assert_eq!(s.clock.t_ns, 0.0);
    let _ = s.update(spec, Msg::Slice);
    assert_eq!(s.clock.t_ns, 5e6);
    assert_eq!(s.saved().t_ns, 5e6);
    // Later runs start from zero.
    rerun(&mut s, spec);
    assert_eq!(s.clock.t_ns, 0.0);
}

#[test]
fn a_link_cursor_past_the_runs_end_opens_at_the_end_with_a_note() {
    let spec = slow_start();
    let mut s = State::new(&initial(spec, &[]), Some(9e18), still);
    let _ = s.start_runs(spec);
    assert!(s.notes.is_empty());
    let _ = s.update(spec, Msg::Slice);
    let end = s.end_ns();
    assert_eq!(s.clock.t_ns, end);
    let texts: Vec<&str> = s.notes.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(
        texts[0].starts_with("Ignored t = 9000000000 s from the link: the run ends at "),
        "{}",
        texts[0]
    );
    assert!(
        texts[0].ends_with(", so the cursor is at its end."),
        "{}",
        texts[0]
    );
}

#[test]
fn compare_mode_runs_both_sides_and_a_preset_keeps_side_b() {
    let spec = slow_start();
    let mut s = ready(spec, &[("compare", "initcwnd"), ("vs", "100")]);
    let i = param(spec, "initcwnd");
    assert_eq!(s.sides.len(), 2);
    assert_eq!(s.models().count(), 2);
    assert_eq!(s.side_label(spec, 1), "B · initcwnd = 100");
    assert!(
        s.cwnd_readout().starts_with("A cwnd "),
        "{}",
        s.cwnd_readout()
    );
    assert!(s.cwnd_readout().contains(" · B cwnd "));
    let _ = s.update(spec, Msg::Preset(spec.presets[0].name.into()));
    assert_eq!(s.compare, Some((i, 100.0)));
    assert_eq!(s.preset, Some(spec.presets[0].name));
    assert!(s.sides.iter().all(|side| side.busy()));
    assert_eq!(
        s.update(spec, Msg::SetVs(100.0)),
        Effects::NONE,
        "unchanged"
    );
    let effects = s.update(spec, Msg::SetVs(30.0));
    assert!(effects.save_url && effects.slice == Frames::Request);
    assert_eq!(s.compare, Some((i, 30.0)));
    assert_eq!(s.saved().compare, Some((i, 30.0)));
}

#[test]
fn outside_compare_mode_side_b_has_nothing_to_set() {
    let spec = slow_start();
    let mut s = ready(spec, &[]);
    assert_eq!(s.update(spec, Msg::SetVs(30.0)), Effects::NONE);
    assert_eq!(s.side_label(spec, 0), "");
    assert!(s.cwnd_readout().starts_with("cwnd "));
}

#[test]
fn an_unknown_preset_changes_nothing() {
    let spec = slow_start();
    let mut s = ready(spec, &[]);
    let before = s.values.clone();
    assert_eq!(s.update(spec, Msg::Preset("nope".into())), Effects::NONE);
    assert_eq!(s.values, before);
    assert!(!s.busy());
}

#[test]
fn escape_closes_help_then_leaves_presenter_mode_then_does_nothing() {
    let spec = slow_start();
    let mut s = ready(spec, &[]);
    let _ = s.update(spec, Msg::Key(Action::Presenter));
    let _ = s.update(spec, Msg::Key(Action::Help));
    assert!(s.presenter && s.help);
    assert_eq!(s.update(spec, Msg::Key(Action::Escape)), Effects::RENDER);
    assert!(!s.help && s.presenter);
    let effects = s.update(spec, Msg::Key(Action::Escape));
    assert_eq!(effects.fullscreen, Some(false));
    assert!(!s.presenter);
    assert_eq!(s.update(spec, Msg::Key(Action::Escape)), Effects::NONE);
}

#[test]
fn number_keys_pick_presets_and_arrows_move_the_cursor_a_fiftieth() {
    let spec = slow_start();
    let mut s = ready(spec, &[]);
    assert_eq!(s.update(spec, Msg::Key(Action::Preset(99))), Effects::NONE);
    let _ = s.update(spec, Msg::Key(Action::Preset(1)));
    assert_eq!(s.preset, Some(spec.presets[1].name));
    let _ = s.update(spec, Msg::Slice);
    let _ = s.update(spec, Msg::Key(Action::Scrub(1)));
    assert_eq!(s.clock.t_ns, s.clock.end_ns / 50.0);
    let _ = s.update(spec, Msg::Key(Action::Scrub(-1)));
    let _ = s.update(spec, Msg::Key(Action::Scrub(-1)));
    assert_eq!(s.clock.t_ns, 0.0, "never before the start");
}

#[test]
fn notes_keep_the_last_four_without_repeats() {
    let spec = slow_start();
    let mut s = State::new(&initial(spec, &[]), None, still);
    for n in ["a", "b", "c", "a", "d", "e"] {
        let _ = s.update(spec, Msg::Note(n.into()));
    }
    let texts: Vec<&str> = s.notes.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(texts, ["c", "a", "d", "e"]);
}

#[test]
fn a_note_about_a_value_goes_once_a_valid_value_is_entered() {
    let spec = slow_start();
    let mut s = ready(spec, &[("rtt", "<b>"), ("size", "1B")]);
    let (rtt, size) = (param(spec, "rtt"), param(spec, "size"));
    assert_eq!(s.notes.len(), 2, "{:?}", s.notes);
    // A typed value clamped: the slider sends the value, then its note.
    let _ = s.update(spec, Msg::Set(size, 1.0));
    let _ = s.update(
        spec,
        Msg::Note(Note::about(size, "Transfer size 1B is outside".into())),
    );
    let about = |s: &State, i| s.notes.iter().filter(|n| n.param == Some(i)).count();
    assert_eq!(
        (about(&s, rtt), about(&s, size)),
        (1, 1),
        "one note per value"
    );
    // A valid size: its note goes, RTT's stays.
    let effects = s.update(spec, Msg::Set(size, 2048.0));
    assert!(effects.render);
    assert_eq!((about(&s, rtt), about(&s, size)), (1, 0), "{:?}", s.notes);
    // The same value again still clears a note about it.
    let _ = s.update(
        spec,
        Msg::Note(Note::about(rtt, "RTT: not a number".into())),
    );
    let effects = s.update(spec, Msg::Set(rtt, s.values[rtt]));
    assert_eq!(effects, Effects::RENDER);
    assert_eq!(about(&s, rtt), 0, "{:?}", s.notes);
}

#[test]
fn the_link_keeps_the_panels_only_when_not_the_defaults() {
    let spec = slow_start();
    let mut s = State::new(&initial(spec, &[]), None, still);
    assert_eq!(s.saved().views, None);
    assert_eq!(s.update(spec, Msg::Slot(0, View::Rtt)), Effects::SAVE);
    assert_eq!(s.saved().views, Some(["rtt", "tsg"]));
    assert_eq!(s.shown_views(), [View::Path, View::Rtt, View::Tsg]);
    let _ = s.update(spec, Msg::ToggleTable(2));
    assert_eq!(s.tables, [false, false, true]);
}

/// The cursor moved past the packets a long run stored (the 30 s long-fat
/// run keeps its first seconds' packets): the widget asks for slices, and
/// replays the stretch there in them (`kit::detail`); once the stretch is
/// in, it draws again and asks for no more.
#[test]
fn past_the_stored_packets_a_seek_replays_the_stretch_in_slices() {
    let spec = widget_catalogue::widget("long-fat").unwrap();
    let mut s = ready(spec, &[("preset", "seed-003-cubic")]);
    let end = s.sides[0].model.as_ref().unwrap().path.packets_until_ns;
    let end = end.expect("30 s outgrow the packet budget") as f64;
    assert!(
        !s.wants_replay(),
        "at 0 the stored packets cover the cursor"
    );
    let t = (end + s.end_ns()) / 2.0;
    let effects = s.update(spec, Msg::Seek(t));
    assert_eq!(effects.slice, Frames::Request);
    assert!(s.wants_replay() && s.sides[0].detail.at(t).is_none());
    // The still clock never passes a slice's deadline: one slice replays all.
    let effects = s.update(spec, Msg::Slice);
    assert!(effects.render, "{effects:?}");
    assert_eq!(effects.slice, Frames::Keep);
    let stretch = s.sides[0].detail.at(t).expect("replayed");
    assert!(stretch.path.at(t).downlink.data > 0);
    assert!(!s.wants_replay());
    assert_eq!(s.update(spec, Msg::Slice), Effects::NONE);
}

#[test]
fn the_log_scale_switch_is_kept_in_the_link_and_read_back_from_it() {
    let spec = slow_start();
    let mut s = ready(spec, &[]);
    assert!(!s.look.log_cwnd);
    assert_eq!(s.update(spec, Msg::LogCwnd(true)), Effects::SAVE);
    assert!(s.saved().log_cwnd);
    let s = ready(spec, &[("cwnd-scale", "log")]);
    assert!(s.look.log_cwnd);
    let s = ready(spec, &[("cwnd-scale", "<b>")]);
    assert!(!s.look.log_cwnd);
    assert_eq!(s.notes.len(), 1, "{:?}", s.notes);
}

#[test]
fn a_drag_moves_the_cursor_at_once_and_the_link_when_it_ends() {
    let spec = slow_start();
    let mut s = ready(spec, &[]);
    let end = s.clock.end_ns;
    assert_eq!(s.update(spec, Msg::Drag(end / 2.0)), Effects::RENDER);
    assert_eq!(s.clock.t_ns, end / 2.0);
    // Past the end of the run: held at the end.
    let _ = s.update(spec, Msg::Drag(end * 2.0));
    assert_eq!(s.clock.t_ns, end);
    assert_eq!(s.update(spec, Msg::Seek(end / 4.0)), Effects::SAVE);
    // Hovering shows a readout, and only a change re-renders.
    let h = Some((0, 1, end / 3.0, 0.5));
    assert_eq!(s.update(spec, Msg::Hover(h)), Effects::RENDER);
    assert_eq!(s.update(spec, Msg::Hover(h)), Effects::NONE);
}
