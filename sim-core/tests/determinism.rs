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
    let packets = |r: &sim_core::sim::RunResult| {
        r.trace
            .records()
            .iter()
            .filter(|x| x.is_packet_level())
            .count()
    };
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
