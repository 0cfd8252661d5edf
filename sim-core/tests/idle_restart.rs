//! Restart after idle (`tcp_cwnd_restart`, net.ipv4.tcp_slow_start_after_idle)
//! with seed 004's case 9: two 512 KiB pushes 10 s apart on one connection.
//!
//! The source's capture was taken on the server, whose netem delay (3 ms on its
//! egress) is applied before tcpdump sees its packets. So the capture's "first
//! data packet to last ACK" equals the simulated transfer time (server write to
//! client read) minus the server→client delay plus the client→server delay.
#![cfg(feature = "scenario-file")]

mod common;
use common::*;

use sim_core::analysis::{TransferTiming, summarize};
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::time::SimTime;
use sim_core::trace::TraceEvent;

fn run(name: &str) -> RunResult {
    common::run(&scenario_file(name))
}

/// The capture's span for a simulated transfer, in ms.
fn capture_span(run: &RunResult, t: &TransferTiming) -> f64 {
    let p = &run.scenario.path;
    t.duration().as_millis_f64() - p.delay_reverse.as_millis_f64() + p.delay_forward.as_millis_f64()
}

/// Data segments the server sent at exactly `at`.
fn burst_at(run: &RunResult, at: SimTime) -> usize {
    run.trace
        .records()
        .filter(|r| r.time == at && matches!(r.event, TraceEvent::SegmentSent { seg, .. } if seg.from == Side::Server && seg.len > 0))
        .count()
}

#[test]
fn with_idle_restart_both_transfers_take_the_captures_19ms() {
    let r = run("seed-004-idle-restart-on.toml");
    let t = summarize(&r).transfers;
    assert_eq!(t.len(), 2);
    // Tolerance 1.5 ms: under half a round trip (3.5 ms); the capture's client
    // window and host time shift its flights by that much.
    for x in &t {
        let span = capture_span(&r, x);
        assert!(
            (19.0 - 1.5..=19.0 + 1.5).contains(&span),
            "transfer {}: {span:.2} ms vs 19 ms",
            x.index
        );
    }
}

#[test]
fn after_ten_idle_seconds_cwnd_restarts_at_initcwnd() {
    let r = run("seed-004-idle-restart-on.toml");
    let second = summarize(&r).transfers[1].started;
    let restart = r.trace.records().find_map(|rec| match rec.event {
        TraceEvent::CwndChanged {
            side: Side::Server,
            old,
            new,
            ..
        } if rec.time == second => Some((old, new)),
        _ => None,
    });
    let (old, new) = restart.expect("cwnd restarts when the second write comes");
    assert!(old > 100, "cwnd had grown to {old}");
    assert_eq!(new, 10);
    assert_eq!(
        burst_at(&r, second),
        10,
        "the second transfer starts with a 10-segment flight"
    );
}

#[test]
fn without_idle_restart_the_second_transfer_takes_the_captures_5ms() {
    let r = run("seed-004-idle-restart-off.toml");
    let t = summarize(&r).transfers;
    let span = capture_span(&r, &t[1]);
    assert!(
        (5.0 - 1.5..=5.0 + 1.5).contains(&span),
        "{span:.2} ms vs 5 ms"
    );
    // The first transfer is the same as with restart on: the source measured 23 ms
    // there and 19 ms in the other run, so its runs vary by about 4 ms.
    let first = capture_span(&r, &t[0]);
    assert!((19.0 - 1.5..=23.0).contains(&first), "{first:.2} ms");
    // No restart: the second write goes out in one cwnd-sized burst, far more than 10.
    assert!(burst_at(&r, t[1].started) > 100);
}
