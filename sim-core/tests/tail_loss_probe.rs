//! Whole runs with each kernel's tail-loss probe and F-RTO (the
//! segment-by-segment rules are tested on the socket, `tcp/socket/tests/`):
//! over a path that loses data and ACKs at random, every variant still
//! delivers every byte, and the probe turns timeouts into probes; a tail
//! the drop list takes is probed two round trips after the last ACK.

mod common;
use common::*;
use sim_core::config::{DropRule, Frto, LossDirection, Scenario, Tlp};
use sim_core::segment::Side;
use sim_core::time::{SimDuration, SimTime};
use sim_core::trace::TraceEvent;

const TLPS: [Tlp; 4] = [Tlp::Off, Tlp::V3_10, Tlp::TwoJiffies, Tlp::TwoMs];
const FRTOS: [Frto; 3] = [Frto::Off, Frto::Rfc4138, Frto::Rfc5682];

/// Seed 004's path losing `loss` of the packets either way, with both hosts
/// probing and judging timeouts as `tlp` and `frto` say.
fn lossy(response: u64, loss: f64, tlp: Tlp, frto: Frto, seed: u64) -> Scenario {
    let mut s = seed_004();
    s.app.response = vec![response];
    s.path.loss = loss;
    s.path.loss_direction = LossDirection::Both;
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

/// Seed 004 sending a ten-segment response whose last two segments the path
/// drops (once each), the server probing as `tlp` says.
fn tail_dropped(tlp: Tlp) -> sim_core::sim::RunResult {
    let mut s = lossy(10 * 1448, 0.0, tlp, Frto::Rfc5682, 1);
    s.path.drops = vec![DropRule::data_segment(9), DropRule::data_segment(10)];
    run(&s)
}

fn first(run: &sim_core::sim::RunResult, probe: bool) -> Option<SimTime> {
    (run.trace.records())
        .find(|r| match r.event {
            TraceEvent::LossProbe { .. } => probe,
            TraceEvent::RtoFired { .. } => !probe,
            _ => false,
        })
        .map(|r| r.time)
}

#[test]
fn a_dropped_tail_is_probed_two_srtt_and_two_ms_after_the_last_ack_not_timed_out() {
    let with = tail_dropped(Tlp::TwoMs);
    let without = tail_dropped(Tlp::Off);
    // The last ACK (of segment 8) reaches the server 3.5 ms after the client
    // sends it; two segments are still out, so the PTO is 2·SRTT + 2 ms,
    // with SRTT ≈ 7 ms, rounded up to a jiffy: 17 ms.
    let probe = first(&with, true).expect("a probe");
    let before = |t: &SimTime| *t < probe;
    let sent = (client_acks(&with).into_iter().map(|(t, _)| t)).filter(before);
    let last_ack = sent.max().expect("ACKs") + SimDuration::from_micros(3_500);
    let gap = probe.since(last_ack);
    assert!(
        gap >= SimDuration::from_millis(16) && gap <= SimDuration::from_millis(18),
        "probe {gap:?} after the last ACK"
    );
    assert_eq!(count(&with, false), 0, "no timeout with the probe");
    // Without it, only the RTO (at least TCP_RTO_MIN) finds the loss.
    let rto = first(&without, false).expect("a timeout");
    assert!(rto.since(last_ack) >= SimDuration::from_millis(200));
    assert!(with.outcome.completed_at() < without.outcome.completed_at());
    // The probe is the last segment again; its SACK starts fast recovery.
    let resent: Vec<u64> = (sent_by(&with, Side::Server).into_iter())
        .filter(|(t, s, _)| *t >= probe && s.len > 0)
        .map(|(_, s, _)| s.seq)
        .collect();
    assert_eq!(resent, [1 + 9 * 1448, 1 + 8 * 1448]);
}
