//! Same scenario, same trace: the property the wasm build is checked against.

mod common;
use common::*;

#[test]
fn the_same_scenario_gives_the_same_trace_hash() {
    let a = run(&seed_004());
    let b = run(&seed_004());
    assert_eq!(a.trace.len(), b.trace.len());
    assert_eq!(a.trace.hash(), b.trace.hash());
}

#[test]
fn a_different_scenario_gives_a_different_hash() {
    let a = run(&seed_004());
    let mut s = seed_004();
    s.server.sender.initcwnd = 11;
    assert_ne!(a.trace.hash(), run(&s).trace.hash());
}

#[test]
fn a_packet_budget_bounds_the_trace_but_not_the_hash() {
    let full = run(&seed_004());
    let mut s = seed_004();
    s.trace_packet_budget = 100;
    let bounded = run(&s);
    let packets =
        |r: &sim_core::sim::RunResult| r.trace.records().filter(|x| x.is_packet_level()).count();
    assert_eq!(packets(&bounded), 100);
    assert_eq!(bounded.trace.skipped() as usize, packets(&full) - 100);
    // cwnd changes and transfers are always kept, and the hash covers everything.
    assert_eq!(
        sim_core::analysis::cwnd_series(&bounded.trace, sim_core::segment::Side::Server, 10),
        sim_core::analysis::cwnd_series(&full.trace, sim_core::segment::Side::Server, 10)
    );
    assert_eq!(bounded.trace.hash(), full.trace.hash());
    // `ss` reads the socket's own counters, not the packets the trace kept.
    assert_eq!(
        sim_core::report::ss_line(&bounded),
        sim_core::report::ss_line(&full)
    );
    assert!(sim_core::report::ss_line(&bounded).contains("bytes_sent:524288"));
}

#[test]
fn random_loss_repeats_with_the_seed_and_changes_with_it() {
    let mut s = seed_004();
    s.path.loss = 0.01;
    let a = run(&s);
    assert_eq!(a.trace.hash(), run(&s).trace.hash());
    s.seed = 2;
    assert_ne!(a.trace.hash(), run(&s).trace.hash());
}

/// The browser simulates a slice per frame; slicing must not change the run.
#[test]
fn a_run_advanced_in_slices_equals_one_run_to_the_end() {
    let mut s = seed_004();
    s.path.loss = 0.01;
    let whole = run(&s);
    for slice in [1, 7, 1000] {
        let mut sim = sim_core::sim::Simulation::new(&s).unwrap();
        let mut calls = 0;
        let mut last_progress = 0.0;
        while !sim.advance(slice) {
            calls += 1;
            assert!(sim.events() <= calls * slice);
            let p = sim.progress();
            assert!(
                (last_progress..=1.0).contains(&p),
                "progress {p} after {last_progress}"
            );
            last_progress = p;
        }
        assert_eq!(sim.progress(), 1.0);
        let sliced = sim.finish();
        assert_eq!(sliced.trace.hash(), whole.trace.hash(), "slice {slice}");
        assert_eq!(sliced.events, whole.events);
        assert_eq!(sliced.outcome, whole.outcome);
        if slice == 1 {
            assert!(calls >= whole.events - 1, "one event per call");
        }
    }
}

/// Records are stored packed; reading them back must give exactly what was
/// pushed. Over every scenario file (and benchmark (c), the longest run that
/// keeps all its packets under the default budget), with every record kept,
/// the hash of the records read back equals the hash taken as they were
/// pushed.
#[cfg(feature = "scenario-file")]
#[test]
fn every_scenario_reads_back_the_records_it_pushed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut runs = vec![(
        "benchmark c".to_string(),
        sim_core::benchmarks::by_name("c").unwrap(),
    )];
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path).unwrap();
            let (_, s) = sim_core::scenario_file::parse(&text).unwrap();
            runs.push((path.display().to_string(), s));
        }
    }
    assert!(runs.len() > 12, "scenario files found");
    for (name, mut s) in runs {
        s.trace_packet_budget = usize::MAX;
        let r = run(&s);
        assert_eq!(r.trace.skipped(), 0, "{name}: nothing past the budget");
        assert_eq!(r.trace.records().len(), r.trace.len(), "{name}");
        assert_eq!(r.trace.readback_hash(), r.trace.hash(), "{name}");
    }
}

/// A stretch replayed from a copy taken mid-run (`Simulation::fork`) is the
/// same stretch: every packet record in its window equals the whole run's,
/// random loss included (the copy carries the links' random state).
#[test]
fn a_fork_replays_its_stretch_of_the_run_exactly() {
    use sim_core::sim::Simulation;
    use sim_core::time::SimTime;
    use sim_core::trace::Trace;
    let mut s = seed_004();
    s.path.loss = 0.02;
    let whole = run(&s);
    let mut sim = Simulation::new(&s).unwrap();
    while sim.now() < SimTime(20_000_000) {
        assert!(!sim.advance(50));
    }
    let window = SimTime(25_000_000)..SimTime(40_000_000);
    let fork = sim.fork(Trace::with_packet_window(usize::MAX, window.clone()));
    // The original goes on unchanged by the copy.
    assert_eq!(sim.finish().trace.hash(), whole.trace.hash());
    let mut fork = fork;
    while fork.now() < window.end {
        assert!(!fork.advance(50), "the run ends after the window");
    }
    let stretch = fork.cut();
    let in_window =
        |r: &sim_core::trace::TraceRecord| r.is_packet_level() && window.contains(&r.time);
    let replayed: Vec<_> = stretch.trace.records().filter(in_window).collect();
    let original: Vec<_> = whole.trace.records().filter(in_window).collect();
    assert!(original.len() > 100, "the window holds packets");
    assert_eq!(replayed, original);
    // Outside the window the replay stores no packet record, and skips none
    // for a budget.
    assert_eq!(
        stretch
            .trace
            .records()
            .filter(|r| r.is_packet_level())
            .count(),
        original.len()
    );
    assert_eq!(stretch.trace.skipped(), 0);
}
