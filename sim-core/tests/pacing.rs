//! Pacing: BBR (always) and any algorithm under the fq qdisc spread their
//! segments out at the pacing rate; without pacing, each ACK releases a burst
//! of back-to-back segments.
#![cfg(feature = "scenario-file")]

mod common;
use common::*;
use sim_core::config::Scenario;
use sim_core::segment::Side;
use sim_core::time::{SimDuration, SimTime};

/// Share of consecutive server data segments (between 6 s and 8 s, after startup) sent at
/// the very same instant, and the shortest non-zero gap between them.
fn burstiness(s: &Scenario) -> (f64, SimDuration) {
    let mut s = s.clone();
    s.time_limit = SimDuration::from_secs(8);
    let r = run(&s);
    let times: Vec<SimTime> = sent_by(&r, Side::Server)
        .into_iter()
        .filter(|(t, seg, _)| seg.len > 0 && t.0 > 6_000_000_000)
        .map(|(t, _, _)| t)
        .collect();
    let gaps: Vec<SimDuration> = times.windows(2).map(|w| w[1].since(w[0])).collect();
    let same = gaps.iter().filter(|g| g.0 == 0).count();
    let min = gaps.iter().filter(|g| g.0 > 0).min().copied().unwrap();
    (same as f64 / gaps.len() as f64, min)
}

#[test]
fn bbr_paces_its_segments_and_unpaced_cubic_sends_bursts() {
    let (bbr_same, bbr_min_gap) = burstiness(&scenario_file("seed-003-lfn-bbr.toml"));
    let (cubic_same, _) = burstiness(&scenario_file("seed-003-lfn-cubic.toml"));
    // A 1448-byte segment at 110 Mbit/s takes 105 µs on the wire; BBR's pacing
    // (at most 1.25 × its bandwidth estimate) never sends faster than about
    // 1.25 × that rate.
    assert!(bbr_same < 0.01, "{bbr_same}");
    assert!(bbr_min_gap > SimDuration::from_micros(40), "{bbr_min_gap}");
    // CUBIC without fq: every ACK of two segments releases two or more at once.
    assert!(cubic_same > 0.3, "{cubic_same}");
}

#[test]
fn the_fq_qdisc_paces_cubic_too() {
    let mut s = scenario_file("seed-003-lfn-cubic.toml");
    s.server.sender.fq = true;
    let (same, _) = burstiness(&s);
    assert!(same < 0.05, "{same}");
}
