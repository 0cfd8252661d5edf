//! Shared fixtures for sim-core's integration tests.
#![allow(dead_code)]

use sim_core::config::{PathConfig, Scenario};
use sim_core::segment::{Segment, Side};
use sim_core::sim::{self, RunResult};
use sim_core::time::{SimDuration, SimTime};
use sim_core::trace::TraceEvent;

/// Seed 004's path: 1 Gbit/s, 7 ms RTT, a 512 KiB response.
pub fn seed_004() -> Scenario {
    let mut s = Scenario {
        path: PathConfig::symmetric(1_000_000_000, SimDuration::from_millis(7)),
        ..Scenario::default()
    };
    s.app.response_bytes = 524_288;
    s
}

/// The same with a receive buffer so large the window never limits the sender.
pub fn large_window(mut s: Scenario) -> Scenario {
    s.client.receiver.rcvbuf = 16 << 20;
    s.client.receiver.rcvbuf_max = 16 << 20;
    s
}

pub fn run(s: &Scenario) -> RunResult {
    sim::run(s).expect("valid scenario")
}

/// Every segment a side sent, with its send time, in order.
pub fn sent_by(run: &RunResult, side: Side) -> Vec<(SimTime, Segment, u32)> {
    run.trace
        .records()
        .iter()
        .filter_map(|r| match r.event {
            TraceEvent::SegmentSent { seg, flight, .. } if seg.from == side => {
                Some((r.time, seg, flight))
            }
            _ => None,
        })
        .collect()
}

/// Every segment a side received, with its arrival time, in order.
pub fn received_by(run: &RunResult, side: Side) -> Vec<(SimTime, Segment)> {
    run.trace
        .records()
        .iter()
        .filter_map(|r| match r.event {
            TraceEvent::SegmentReceived { to, seg } if to == side => Some((r.time, seg)),
            _ => None,
        })
        .collect()
}

/// The sender's cwnd after each change, in order.
pub fn cwnd_steps(run: &RunResult) -> Vec<u32> {
    run.trace
        .records()
        .iter()
        .filter_map(|r| match r.event {
            TraceEvent::CwndChanged {
                side: Side::Server,
                new,
                ..
            } => Some(new),
            _ => None,
        })
        .collect()
}
