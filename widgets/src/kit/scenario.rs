//! The scenario a widget simulates for its current control values.

use sim_core::config::{Pacing, Scenario};

use sim_core::time::SimDuration;
use widget_catalogue::WidgetSpec;

/// The scenario for `values` of `spec`'s controls, with the sampling and the
/// trace budget the views need.
pub fn build(spec: &WidgetSpec, values: &[f64]) -> Scenario {
    let mut s = spec.scenario_of(values);
    // Buffer bars, `ss` and iperf read the periodic samples: take twenty per
    // round trip (at least every 50 µs, at most every 100 ms), but no more
    // than about MAX_SAMPLES in the run's expected length. A 64 MiB transfer
    // at 1 Mbit/s took 556,000 samples at 20 per RTT, and reducing them to
    // the views and the CSV held the page for seconds.
    let rtt = s.path.rtt().0;
    let per_rtt = (rtt / 20).clamp(50_000, 100_000_000);
    s.sample_interval = SimDuration(per_rtt.max(expected_ns(&s) / MAX_SAMPLES));
    // The views keep every packet of a widget-sized run; a run that would
    // exceed this keeps its first packets and every cwnd change (64 bytes a
    // packet record: 16 MB, 22-31 MB with the vectors' spare room, measured
    // on benchmarks (c) and (d) with this budget).
    s.trace_packet_budget = 250_000;
    fit_samples(&mut s);
    s
}

/// Coarser sampling where the run may last far longer than [`expected_ns`]
/// says (every message held back for a delayed ACK, losses waiting out
/// timeouts): the sampling is the widget's choice, not the reader's, so the
/// budget check before a widget simulates (`side::BUDGET`) must not refuse
/// a run for it, nor cut it short for it. The interval doubles while the
/// samples (over the longest the estimate takes the run to last) are what
/// passes the budget: their memory, or their events (each sample tick is
/// one).
fn fit_samples(s: &mut Scenario) {
    while s.sample_interval.0 < MAX_SAMPLE_INTERVAL {
        match super::side::BUDGET.over(s) {
            Some(keys) if keys.first().is_some_and(|k| k == "sample_interval") => {
                s.sample_interval = SimDuration((s.sample_interval.0 * 2).min(MAX_SAMPLE_INTERVAL));
            }
            _ => return,
        }
    }
}

/// The longest `sample_interval` a scenario may have.
const MAX_SAMPLE_INTERVAL: u64 = 3_600_000_000_000;

/// Samples a run takes at most, about (see [`build`]).
const MAX_SAMPLES: u64 = 20_000;

/// How long the run should take: its bytes at the bottleneck's rate, the
/// pauses between repeated exchanges, plus twenty round trips for the
/// handshake and slow start, or its time limit if that comes first. Only
/// the sampling depends on it: two pushes 10 s apart would otherwise be
/// sampled as densely as one, 57,000 samples where the budget is 20,000.
pub fn expected_ns(s: &Scenario) -> u64 {
    let app = &s.app;
    let exchange: u64 = app.request.iter().chain(&app.response).sum();
    let bytes = exchange
        .saturating_mul(u64::from(app.repeat.max(1)))
        .saturating_mul(u64::from(s.flows.max(1)));
    let serialisation = (bytes as f64 * 8.0 / s.path.rate_bps.max(1) as f64 * 1e9) as u64;
    let (Pacing::Every(gap) | Pacing::After(gap)) = app.pacing;
    let gaps = gap.0.saturating_mul(u64::from(app.repeat.max(1) - 1));
    serialisation
        .saturating_add(gaps)
        .saturating_add(stalls_ns(s))
        .saturating_add(20 * s.path.rtt().0)
        .min(s.time_limit.0)
}

/// How long the run may stand still on purpose: a reader that never reads
/// (to the time limit), a read pause, an outage. Without it a stalled run
/// was sampled as densely as a busy one to its time limit: case 6's
/// receiver that stops reading took 5 million samples over 1800 s, more
/// than a wasm32 vector can hold.
fn stalls_ns(s: &Scenario) -> u64 {
    let limit = s.time_limit.0;
    let reader = |r: &sim_core::config::ReceiverConfig| match (r.read_rate, r.read_pause) {
        (Some(0), _) => limit,
        (_, Some(p)) => p.until.map_or(limit, |u| u.0.saturating_sub(p.from.0)),
        _ => 0,
    };
    let outages = s.path.outages.iter().map(|o| o.until.0).max().unwrap_or(0);
    reader(&s.client.receiver)
        .max(reader(&s.server.receiver))
        .max(outages)
}

/// The hash of the whole trace of the run a widget shows for `values` (see
/// `sim_core::trace::Trace::hash`): equal natively and in the browser, or the
/// simulator is not deterministic.
pub fn trace_hash(spec: &WidgetSpec, values: &[f64]) -> Option<u64> {
    sim_core::sim::run(&build(spec, values))
        .ok()
        .map(|run| run.trace.hash())
}
