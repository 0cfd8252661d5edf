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

/// Outstanding data is rebuilt from packet records; where they end, the
/// socket's counters in the samples go on with the same quantity (the chart
/// once left a gap there, and before that held the last value flat). It
/// equals what a run storing every packet rebuilds, sample for sample.
#[test]
fn outstanding_data_goes_on_from_the_samples_where_packet_records_end() {
    use sim_core::trace::TraceEvent;
    use tcp_widgets::series::window::WindowSeries;
    let full = WindowSeries::from_run(&sim_core::sim::run(&cubic(6, usize::MAX)).unwrap());
    let run = sim_core::sim::run(&cubic(6, 5_000)).unwrap();
    let cut = WindowSeries::from_run(&run);
    assert!(full.outstanding_until_ns.is_none());
    let until = cut.outstanding_until_ns.expect("the records end early");
    // At each sample (cwnd changes between samples carry the last one).
    let samples: Vec<f64> = run
        .trace
        .flow_summary(0)
        .filter(|r| matches!(r.event, TraceEvent::Sample { .. }))
        .map(|r| r.time.0 as f64)
        .filter(|&t| t > until)
        .collect();
    assert!(samples.len() > 100, "samples after the records end");
    let mut off = Vec::new();
    for &t in &samples {
        let (got, want) = (cut.at(t).outstanding_bytes, full.at(t).outstanding_bytes);
        if got != want {
            off.push((t, got, want));
        }
    }
    assert!(
        off.is_empty(),
        "{} of {} samples differ (t, got, want): {:?}",
        off.len(),
        samples.len(),
        &off[..off.len().min(10)]
    );
    let table = cut.table();
    assert!(
        table.caption.contains("read from the periodic samples"),
        "{}",
        table.caption
    );
    let last = table.rows.last().unwrap();
    assert!(!last[3].is_empty() && !last[1].is_empty());
}

/// The long-fat CUBIC preset cut to `secs` seconds, its trace storing at
/// most `budget` packet records.
fn cubic(secs: u64, budget: usize) -> sim_core::config::Scenario {
    let spec = widget_catalogue::widget("long-fat").unwrap();
    let values = preset_values(spec, "seed-003-cubic").unwrap();
    let mut s = scenario::build(spec, &values);
    s.time_limit = sim_core::time::SimDuration(secs * 1_000_000_000);
    s.trace_packet_budget = budget;
    s
}

/// Past the packets a run stored, the widget replays the stretch around the
/// cursor from a copy of the simulation (`kit::detail`): the path there is
/// exactly the one a run storing every packet shows, packet for packet.
#[test]
fn past_the_stored_packets_a_replay_shows_the_path_exactly() {
    use tcp_widgets::kit::detail::Work;
    use tcp_widgets::kit::side::Side;
    use tcp_widgets::series::path::PathSeries;
    let full = PathSeries::from_run(&sim_core::sim::run(&cubic(6, usize::MAX)).unwrap());
    assert!(full.packets_until_ns.is_none());
    let mut side = Side::default();
    side.start(&cubic(6, 5_000));
    assert!(side.simulate_until(f64::INFINITY, || 0.0));
    let model = side.model.clone().unwrap();
    let records_end = model
        .path
        .packets_until_ns
        .expect("5,000 records end early") as f64;
    assert!(records_end < 2.6e9, "records end at {records_end} ns");
    let mut replays = 0;
    for t in [2.7e9, 4.75e9, 5.9e9] {
        assert!(!model.path.at(t).recorded);
        assert!(side.detail.wants(t) || side.detail.at(t).is_some());
        // Replayed a slice at a time (a clock that is always past the
        // deadline gives one check's worth of events per call).
        let mut calls = 0;
        while side.detail.work(t, 0.0, || 1.0) == Work::Pending {
            calls += 1;
            assert!(calls < 100_000);
        }
        replays += (calls > 0) as u32;
        let stretch = side.detail.at(t).expect("the stretch covers the cursor");
        let (got, want) = (stretch.path.at(t), full.at(t));
        assert!(got.recorded && want.downlink.data > 100, "{want:?}");
        assert_eq!(got.downlink.data, want.downlink.data);
        assert_eq!(got.uplink.acks, want.uplink.acks);
        assert_eq!(got.downlink.queued, want.downlink.queued);
        assert_eq!(got.downlink.queued_bytes, want.downlink.queued_bytes);
        assert_eq!(got.buffers, want.buffers);
        assert!(got.established && want.established);
        let on_wire = |p: &PathSeries| p.downlink.packets()[p.downlink.on_wire(t)].to_vec();
        assert_eq!(on_wire(&stretch.path), on_wire(&full));
        // Nothing more to do there until the cursor moves on.
        assert!(
            !side.detail.wants(t) || t > (stretch.shows_from_ns + stretch.until_ns) as f64 / 2.0
        );
    }
    assert!(replays >= 1, "replayed, a slice at a time");
}

/// Copies of the run are few and far between: bounded whatever the run's
/// length, and before the stored packets end only the latest two are kept.
#[test]
fn a_long_run_keeps_a_bounded_number_of_copies() {
    use tcp_widgets::kit::detail::{MAX_SNAPSHOTS, Snapshots};
    let s = cubic(30, 250_000);
    let mut sim = sim_core::sim::Simulation::new(&s).unwrap();
    let mut snapshots = Snapshots::new(&mut sim, &s);
    while !sim.advance(2_000) {
        snapshots.observe(&mut sim);
    }
    let times = snapshots.times_ns();
    assert!(
        times.len() <= MAX_SNAPSHOTS && times.len() >= 5,
        "{times:?}"
    );
    assert_eq!(times[0], 0);
    assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    assert!(*times.last().unwrap() > 25_000_000_000, "{times:?}");
}

/// Playing on through a long run: stretch after stretch is replayed (the
/// next one while the cursor is in the second half of the current one),
/// and at every frame the path equals the one of a run storing every packet.
#[test]
fn playing_on_the_replays_follow_the_cursor_exactly() {
    use tcp_widgets::kit::detail::Work;
    use tcp_widgets::kit::side::Side;
    use tcp_widgets::series::path::PathSeries;
    let full = PathSeries::from_run(&sim_core::sim::run(&cubic(9, usize::MAX)).unwrap());
    let mut side = Side::default();
    side.start(&cubic(9, 5_000));
    assert!(side.simulate_until(f64::INFINITY, || 0.0));
    let mut stretches = std::collections::BTreeSet::new();
    let mut t = 2.7e9;
    while t < 8.9e9 {
        // One frame: a slice of replay work (an unbounded one here).
        while side.detail.work(t, f64::INFINITY, || 0.0) == Work::Pending {}
        let stretch = side.detail.at(t).expect("a stretch covers every frame");
        stretches.insert(stretch.from_ns);
        let (got, want) = (stretch.path.at(t), full.at(t));
        assert_eq!(
            (got.downlink.data, got.downlink.queued),
            (want.downlink.data, want.downlink.queued),
            "at {t}"
        );
        assert_eq!(got.uplink.acks, want.uplink.acks, "at {t}");
        t += 40e6;
    }
    assert!(stretches.len() >= 3, "{stretches:?}");
}

thread_local!(static NOW: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) });

/// A page clock 5 ms on at every look: about 60 looks simulate the 30 s
/// run, as about 600 ms do in a browser.
fn ticking() -> f64 {
    NOW.with(|n| {
        n.set(n.get() + 5.0);
        n.get()
    })
}

/// A long run is drawn while it simulates: once it has simulated for a
/// while, its beginning becomes the side's model (on the whole run's time
/// axis, so the charts fill in place), the last run's replayed packets go,
/// and the whole run replaces it when it is in.
#[test]
fn a_long_run_is_drawn_from_its_beginning_while_it_simulates() {
    use tcp_widgets::kit::side::Side;
    let s = cubic(30, 250_000);
    let mut side = Side::default();
    side.start(&s);
    let mut preview = None;
    let mut slices = 0;
    while !side.simulate_until(NOW.with(|n| n.get()) + 10.0, ticking) {
        slices += 1;
        if preview.is_none()
            && let Some(m) = &side.model
        {
            assert!(side.busy() && side.previewing, "drawn while it simulates");
            preview = Some(m.clone());
        }
        assert!(slices < 100_000);
    }
    let preview = preview.expect("a 30 s run is previewed");
    let whole = side.model.clone().unwrap();
    assert!(!side.previewing);
    assert!(!std::rc::Rc::ptr_eq(&preview, &whole));
    // The preview's axis is the whole run's; its data stop where it was taken.
    assert_eq!(preview.end_ns, scenario::expected_ns(&s) as f64);
    assert_eq!(whole.end_ns, 30e9);
    let last = |m: &Model| m.window.points.last().unwrap().t_ns;
    assert!(
        last(&preview) < 0.8 * last(&whole),
        "{} vs {}",
        last(&preview),
        last(&whole)
    );
    assert!(!preview.window.points.is_empty() && preview.summary.completion.is_none());
}

/// srtt covers the whole run: past the packet records (where the RTT
/// samples end) it goes on from the periodic samples, so that the RTT
/// chart's last value is the run's last `ss` reading, not the srtt of the
/// moment the trace stopped storing packets (the long-fat chart once drew a
/// flat line from there). At every sample time the cut run's srtt is the
/// full run's.
#[test]
fn srtt_covers_the_whole_run_where_packet_records_end() {
    use sim_core::trace::TraceEvent;
    use tcp_widgets::series::rtt::RttSeries;
    let full = RttSeries::from_run(&sim_core::sim::run(&cubic(6, usize::MAX)).unwrap());
    let run = sim_core::sim::run(&cubic(6, 5_000)).unwrap();
    let cut = RttSeries::from_run(&run);
    assert!(full.samples_until_ns.is_none() && full.sampled.is_empty());
    let until = cut.samples_until_ns.expect("the records end early");
    assert!(until < 3e9, "records end at {until} ns");
    let readings: Vec<(f64, u64)> = run
        .trace
        .flow_summary(0)
        .filter_map(|r| match r.event {
            TraceEvent::Sample { info, .. } => Some((r.time.0 as f64, info.srtt_ns)),
            _ => None,
        })
        .collect();
    let (last_t, last_srtt) = *readings.last().unwrap();
    assert!(last_t > 5.9e9, "the last reading is at the end: {last_t}");
    assert_eq!(cut.sampled.last().unwrap().srtt_ns, last_srtt);
    assert_eq!(cut.srtt_at(last_t), last_srtt);
    // The same srtt as the run that stored every packet, at every reading
    // after the cut.
    let off: Vec<_> = (readings.iter())
        .filter(|r| r.0 > until)
        .filter(|r| cut.srtt_at(r.0) != full.srtt_at(r.0))
        .collect();
    assert!(
        off.is_empty(),
        "{} readings differ: {:?}",
        off.len(),
        &off[..off.len().min(5)]
    );
    assert!(cut.max_ns >= last_srtt as f64);
    assert!(cut.table().caption.contains("periodic samples"));
}
