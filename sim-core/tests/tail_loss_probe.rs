//! Whole runs with each kernel's tail-loss probe and F-RTO (the
//! segment-by-segment rules are tested on the socket, `tcp/socket/tests/`):
//! over a path that loses data and ACKs at random, every variant still
//! delivers every byte, and the probe turns timeouts into probes.

mod common;
use common::*;
use sim_core::config::{Frto, Scenario, Tlp};
use sim_core::trace::TraceEvent;

const TLPS: [Tlp; 4] = [Tlp::Off, Tlp::V3_10, Tlp::TwoJiffies, Tlp::TwoMs];
const FRTOS: [Frto; 3] = [Frto::Off, Frto::Rfc4138, Frto::Rfc5682];

/// Seed 004's path losing `loss` of the packets either way, with both hosts
/// probing and judging timeouts as `tlp` and `frto` say.
fn lossy(response: u64, loss: f64, tlp: Tlp, frto: Frto, seed: u64) -> Scenario {
    let mut s = seed_004();
    s.app.response = vec![response];
    s.path.loss = loss;
    s.seed = seed;
    for host in [&mut s.client, &mut s.server] {
        host.behaviour.tlp = tlp;
        host.behaviour.frto = frto;
    }
    s
}

fn count(run: &sim_core::sim::RunResult, probe: bool) -> usize {
    (run.trace.records())
        .filter(|r| match r.event {
            TraceEvent::LossProbe { .. } => probe,
            TraceEvent::RtoFired { .. } => !probe,
            _ => false,
        })
        .count()
}

#[test]
fn every_variant_delivers_every_byte_over_a_lossy_path() {
    for tlp in TLPS {
        for frto in FRTOS {
            for seed in 1..=12 {
                let s = lossy(150_000, 0.05, tlp, frto, seed);
                let run = run(&s);
                assert!(
                    run.outcome.completed_at().is_some(),
                    "{tlp:?} {frto:?} seed {seed}: {:?}",
                    run.outcome
                );
            }
        }
    }
}

#[test]
fn todays_probe_answers_tail_losses_that_would_otherwise_time_out() {
    // One initial window over a path losing 30 %: runs whose losses are all
    // at the tail had only the RTO; with the probe most of those end sooner.
    let (mut probes, mut rtos_with, mut rtos_without) = (0, 0, 0);
    for seed in 1..=40 {
        let with = run(&lossy(10 * 1448, 0.3, Tlp::TwoMs, Frto::Rfc5682, seed));
        let without = run(&lossy(10 * 1448, 0.3, Tlp::Off, Frto::Rfc5682, seed));
        probes += count(&with, true);
        rtos_with += count(&with, false);
        rtos_without += count(&without, false);
        assert_eq!(count(&without, true), 0);
    }
    assert!(probes > 0);
    assert!(
        rtos_with < rtos_without,
        "{rtos_with} timeouts with TLP, {rtos_without} without"
    );
}
