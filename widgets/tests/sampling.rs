//! How densely a widget samples its run (`kit::scenario::build`).

use sim_core::trace::TraceEvent;

/// A run that stands still on purpose (a reader that never reads, a
/// pause) is sampled over its whole length, not as densely as a busy one:
/// case 6's 1800 s runs took five million samples, more than a wasm32
/// vector holds.
#[test]
fn stalled_runs_take_a_bounded_number_of_samples() {
    let spec = widget_catalogue::WIDGETS
        .iter()
        .find(|w| w.name == "buffers")
        .unwrap();
    for preset in ["stops-reading", "pauses"] {
        let s = tcp_widgets::kit::scenario::build(spec, spec.preset_values(preset).unwrap());
        let r = sim_core::sim::run(&s).unwrap();
        let taken = r
            .trace
            .records()
            .filter(|x| matches!(x.event, TraceEvent::Sample { .. }))
            .count();
        assert!(taken <= 40_000, "{preset}: {taken} samples taken");
    }
}
