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
