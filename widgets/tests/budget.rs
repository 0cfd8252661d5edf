//! The widgets check a run's estimated cost against the browser's budget
//! before they simulate it (`kit::side::BUDGET`, `sim::Budget::BROWSER`):
//! none of the book's own settings (a preset, or any control at its minimum
//! or maximum with the others at their defaults) meets the refusal, and a
//! scenario that would is not simulated but named in the widget's notes.

use sim_core::config::{ChunkedWrites, Scenario};
use sim_core::time::SimDuration;
use tcp_widgets::kit::scenario;
use tcp_widgets::kit::side::{BUDGET, Side};
use widget_catalogue::{widget, widget_names};

#[test]
fn every_preset_and_every_control_at_its_extremes_fits_the_browser_budget() {
    let mut refused = Vec::new();
    let mut n = 0;
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
            if let Err(e) = BUDGET.check(&scenario::build(spec, &values)) {
                refused.push(format!("{name}, {what}: {e}"));
            }
        }
    }
    assert!(n > 100, "{n} cases");
    assert!(refused.is_empty(), "{refused:#?}");
}

#[test]
fn a_scenario_over_the_budget_is_named_not_simulated() {
    // 1 GiB written a byte at a time: a billion write() calls.
    let mut s = Scenario::default();
    s.app.response = vec![1 << 30];
    s.app.server_writes = Some(ChunkedWrites {
        size: 1,
        cost: SimDuration::ZERO,
    });
    let mut side = Side::default();
    side.start(&s);
    assert!(!side.busy(), "nothing simulates");
    let e = side.error().expect("the widget says why");
    assert!(
        e.starts_with(
            "`app.server_write_buffer` = 1 B and `app.response` = 1 GiB would take about"
        ),
        "{e}"
    );
    assert!(e.contains("over the limit of 2.0e7 events"), "{e}");
    // A scenario that fits simulates in the same side, and the note goes.
    side.start(&Scenario::default());
    assert!(side.busy());
    assert_eq!(side.error(), None);
}
