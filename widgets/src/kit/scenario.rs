//! The scenario a widget simulates for its current control values.

use sim_core::config::Scenario;
use sim_core::time::SimDuration;
use widget_catalogue::WidgetSpec;

/// The scenario for `values` of `spec`'s controls, with the sampling and the
/// trace budget the views need.
pub fn build(spec: &WidgetSpec, values: &[f64]) -> Scenario {
    let mut s = spec.scenario_of(values);
    // Buffer bars, `ss` and iperf read the periodic samples: take twenty per
    // round trip (at least every 50 µs, at most every 100 ms).
    let rtt = s.path.rtt().0;
    s.sample_interval = SimDuration((rtt / 20).clamp(50_000, 100_000_000));
    // The views keep every packet of a widget-sized run; a run that would
    // exceed this keeps its first packets and every cwnd change (64 bytes a
    // packet record: 16 MB, 22-31 MB with the vectors' spare room, measured
    // on benchmarks (c) and (d) with this budget).
    s.trace_packet_budget = 250_000;
    s
}

/// The hash of the whole trace of the run a widget shows for `values` (see
/// `sim_core::trace::Trace::hash`): equal natively and in the browser, or the
/// simulator is not deterministic.
pub fn trace_hash(spec: &WidgetSpec, values: &[f64]) -> Option<u64> {
    sim_core::sim::run(&build(spec, values))
        .ok()
        .map(|run| run.trace.hash())
}
