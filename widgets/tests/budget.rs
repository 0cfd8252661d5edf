//! The widgets check a run's estimated cost against the browser's budget
//! before they simulate it (`kit::side::BUDGET`, `sim::Budget::BROWSER`):
//! none of the book's own settings (a preset, or any control at its minimum
//! or maximum with the others at their defaults) passes it, and a scenario
//! that would is simulated up to the budget and cut there, with a note.

use sim_core::config::{ChunkedWrites, Scenario};
use sim_core::time::SimDuration;
use tcp_widgets::kit::scenario;
use tcp_widgets::kit::side::{BUDGET, Side};
use widget_catalogue::{widget, widget_names};

/// None of the book's own settings is cut: each is estimated within the
/// budget, or (the estimate errs high: ten 1 Gbit/s flows are estimated at
/// 356 MiB and take 55) runs to its end within it.
#[test]
fn every_preset_and_every_control_at_its_extremes_runs_whole_within_the_browser_budget() {
    let mut cut = Vec::new();
    let mut n = 0;
    let mut run = 0;
    for name in widget_names() {
        let spec = widget(name).unwrap();
        let defaults: Vec<f64> = spec.params.iter().map(|p| p.default).collect();
        let mut cases: Vec<(String, Vec<f64>)> = spec
            .preset_names()
            .into_iter()
            .map(|p| {
                let values = tcp_widgets::params::preset_values(spec, p).unwrap();
                (format!("preset {p}"), values)
            })
            .collect();
        for (i, p) in spec.params.iter().enumerate() {
            for x in [p.min, p.max] {
                let mut v = defaults.clone();
                v[i] = x;
                cases.push((format!("{} at {x}", p.name), v));
            }
        }
        for (what, values) in cases {
            n += 1;
            let s = scenario::build(spec, &values);
            if BUDGET.check(&s).is_ok() {
                continue;
            }
            run += 1;
            let mut side = Side::default();
            side.start(&s);
            finish(&mut side);
            if let Some(e) = side.error() {
                cut.push(format!("{name}, {what}: {e}"));
            }
        }
    }
    assert!(n > 100, "{n} cases");
    assert!(
        run <= 3,
        "{run} cases over the estimate: is the budget too tight?"
    );
    assert!(cut.is_empty(), "{cut:#?}");
}

/// Simulates `side`'s run to its end, in one slice.
fn finish(side: &mut Side) {
    fn clock() -> f64 {
        0.0
    }
    assert!(side.simulate_until(f64::INFINITY, clock));
}

#[test]
fn a_scenario_over_the_budget_is_simulated_up_to_the_budget_and_cut() {
    // 1 GiB written a byte at a time: a billion write() calls.
    let mut s = Scenario::default();
    s.app.response = vec![1 << 30];
    s.app.server_writes = Some(ChunkedWrites {
        size: 1,
        cost: SimDuration::ZERO,
    });
    assert!(BUDGET.check(&s).is_err(), "over the budget");
    let mut side = Side::default();
    side.start(&s);
    assert!(side.busy(), "it simulates");
    assert_eq!(side.error(), None, "no note before the cut");
    finish(&mut side);
    let note = side.error().expect("the widget says where the run was cut");
    assert!(note.starts_with("cut at t = "), "{note}");
    assert!(
        note.contains("it reached the 2.0e7 events a run may take (the whole run would take about"),
        "{note}"
    );
    assert!(
        note.ends_with("everything up to the cut is drawn"),
        "{note}"
    );
    // No internal key is named: the reader set controls, not scenario keys.
    assert!(!note.contains('`'), "{note}");
    // The run up to the cut is there to draw, and its work stayed within the budget.
    let model = side.model.as_ref().expect("the run up to the cut is drawn");
    assert!(model.end_ns > 0.0);
    // A scenario that fits simulates in the same side, and the note goes.
    side.start(&Scenario::default());
    assert!(side.busy());
    assert_eq!(side.error(), None);
    finish(&mut side);
    assert_eq!(side.error(), None);
}

/// A budget small enough that every case takes a moment in a test build.
const TEST_BUDGET: sim_core::sim::Budget = sim_core::sim::Budget {
    max_memory_bytes: 32 << 20,
    max_events: 100_000,
};

/// Every widget's controls, each at its minimum, its maximum or its default.
fn extreme_controls() -> impl proptest::strategy::Strategy<Value = (&'static str, Vec<f64>)> {
    use proptest::prelude::*;
    prop::sample::select(widget_names()).prop_flat_map(|name| {
        let spec = widget(name).unwrap();
        let picks: Vec<_> = spec
            .params
            .iter()
            .map(|p| prop::sample::select(vec![p.min, p.max, p.default]))
            .collect();
        (Just(name), picks)
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 512, ..Default::default() })]

    /// Whatever a reader sets, within the controls' own ranges: a valid
    /// scenario, and a run held to its budget, in work and in memory,
    /// that ends (whole, or cut with a note naming no internal key).
    #[test]
    fn any_combination_of_control_extremes_runs_within_the_budget((name, values) in extreme_controls()) {
        let spec = widget(name).unwrap();
        let s = scenario::build(spec, &values);
        proptest::prop_assert!(s.validate().is_ok(), "{name} {values:?}: {:?}", s.validate());
        let mut sim = sim_core::sim::Simulation::cut_at_budget(&s, &TEST_BUDGET).unwrap();
        while !sim.advance(u64::MAX) {}
        // One event past the budget at most: its writes (a send buffer's
        // worth) and one more 1 MiB chunk of trace.
        proptest::prop_assert!(sim.work() <= TEST_BUDGET.max_events + (4 << 20), "work {}", sim.work());
        let heap = sim.trace().heap_bytes() as u64;
        proptest::prop_assert!(heap <= TEST_BUDGET.max_memory_bytes + (2 << 20), "trace {heap} B");
        if let Some(e) = sim.over_budget() {
            proptest::prop_assert!(e.message.starts_with("cut at t = "), "{}", e.message);
            proptest::prop_assert!(!e.message.contains('`'), "{}", e.message);
        }
    }
}
