//! Runs longer than the trace's packet budget (the long-fat widget's 30 s):
//! the views that count packets hand over to the periodic samples where the
//! packet records end, so nothing goes blank or undercounts after that.

use tcp_widgets::kit::model::Model;
use tcp_widgets::kit::scenario;
use tcp_widgets::params::preset_values;

fn model(preset: &str) -> (Model, sim_core::sim::RunResult) {
    let spec = widget_spec::widget("long-fat").unwrap();
    let values = preset_values(spec, preset).unwrap();
    let run = sim_core::sim::run(&scenario::build(spec, &values)).unwrap();
    (Model::from_run(&run), run)
}

#[test]
fn throughput_continues_from_samples_where_packet_records_end() {
    let (m, run) = model("seed-003-cubic");
    assert!(run.trace.skipped() > 0, "this run must outgrow the budget");
    let handover = m
        .throughput
        .sampled_from_ns
        .expect("handed over to samples");
    assert!(
        handover > 1e9 && handover < 29e9,
        "handover at {handover} ns"
    );
    // Every interval after the handover carries data: CUBIC never stops for a
    // whole interval on this path.
    let t = &m.throughput;
    let after = (0..t.bytes.len()).filter(|&i| t.start_ns(i) > handover + t.interval_ns as f64);
    for i in after.clone() {
        assert!(t.bytes[i] > 0, "interval {i} is empty");
    }
    assert!(after.count() > 10);
    // The intervals add up to what the application read by the end, give or
    // take the bytes in flight at the last sample (at most one receive window).
    let read = sim_core::analysis::flow_totals(&run)[0].delivered;
    let counted = t.total_bytes();
    let slack = 35_000_000;
    assert!(
        counted.abs_diff(read) <= slack,
        "counted {counted}, read {read}"
    );
    assert!(t.table().caption.contains("samples"));
}

#[test]
fn retransmissions_count_the_whole_run_not_only_the_recorded_packets() {
    let (m, run) = model("seed-003-cubic");
    let total = sim_core::analysis::flow_totals(&run)[0].retransmits;
    assert_eq!(m.summary.retransmissions, total);
    assert!(total > 0, "3e-5 loss over 30 s loses some packets");
}
