//! Runs longer than the trace's packet budget (the long-fat widget's 30 s):
//! the views that count packets hand over to the periodic samples where the
//! packet records end, so nothing goes blank or undercounts after that.

use tcp_widgets::kit::model::Model;
use tcp_widgets::kit::scenario;
use tcp_widgets::params::preset_values;

fn model(preset: &str) -> (Model, sim_core::sim::RunResult) {
    let spec = widget_catalogue::widget("long-fat").unwrap();
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

/// Outstanding data is rebuilt from packet records, so where they end it is
/// unknown: the chart leaves a gap and the table leaves the cells blank,
/// instead of holding the last value flat for the rest of the run (which is
/// what the cwnd chart showed before). cwnd and ssthresh go on.
#[test]
fn outstanding_data_stops_where_packet_records_end() {
    let (m, _) = model("seed-003-cubic");
    let w = &m.window;
    let until = w.outstanding_until_ns.expect("the records end early");
    assert_eq!(Some(until as u64), m.path.packets_until_ns);
    let (before, after): (Vec<_>, Vec<_>) = w.points.iter().partition(|p| p.t_ns <= until);
    assert!(before.iter().all(|p| w.outstanding_segments(p).is_finite()));
    assert!(!after.is_empty(), "cwnd changes after the records end");
    assert!(after.iter().all(|p| w.outstanding_segments(p).is_nan()));
    let table = w.table();
    assert!(table.caption.contains("stopped storing packets"));
    let last = table.rows.last().unwrap();
    assert_eq!((last[3].as_str(), last[4].as_str()), ("", ""));
    assert!(!last[1].is_empty(), "cwnd is still there");
}
