//! Shared fixtures for sim-core's integration tests.
#![allow(dead_code)]

use sim_core::config::{DelayedAck, PathConfig, Scenario, TCP_DELACK_MIN};
use sim_core::segment::{Segment, Side};
use sim_core::sim::{self, RunResult};
use sim_core::time::{SimDuration, SimTime};
use sim_core::trace::TraceEvent;

/// Seed 004's path: 1 Gbit/s, 7 ms RTT, a 512 KiB response, with receivers
/// that take each segment as an skb of its own (GRO off, as packetdrill's tun
/// device delivers them): the tests built on it pin the per-segment ACK and
/// cwnd rules; `tests/gro.rs` pins what today's default GRO changes.
pub fn seed_004() -> Scenario {
    let mut s = Scenario {
        path: PathConfig::symmetric(1_000_000_000, SimDuration::from_millis(7)),
        ..Scenario::default()
    };
    s.app.response = vec![524_288];
    s.client.receiver.gro_window = SimDuration::ZERO;
    s.server.receiver.gro_window = SimDuration::ZERO;
    s
}

/// The same with a receive buffer so large the window never limits the sender.
pub fn large_window(mut s: Scenario) -> Scenario {
    s.client.receiver.rcvbuf = 16 << 20;
    s.client.receiver.rcvbuf_max = 16 << 20;
    s
}

/// A receiver that ACKs every second full segment or after 40 ms, with no
/// quick-ACK mode: the textbook delayed-ACK receiver (RFC 1122), which is what
/// Linux settles into once its window stops growing.
pub fn every_other_ack(mut s: Scenario) -> Scenario {
    s.client.receiver.delayed_ack = DelayedAck::Fixed(TCP_DELACK_MIN);
    s.server.receiver.delayed_ack = DelayedAck::Fixed(TCP_DELACK_MIN);
    s
}

/// The client's pure ACKs (after the handshake): send time and cumulative ACK.
pub fn client_acks(run: &RunResult) -> Vec<(SimTime, u64)> {
    sent_by(run, Side::Client)
        .into_iter()
        .filter(|(_, s, _)| s.len == 0 && s.ack > 1)
        .map(|(t, s, _)| (t, s.ack))
        .collect()
}

pub fn run(s: &Scenario) -> RunResult {
    sim::run(s).expect("valid scenario")
}

/// Every segment a side sent, with its send time, in order.
pub fn sent_by(run: &RunResult, side: Side) -> Vec<(SimTime, Segment, u32)> {
    run.trace
        .records()
        .filter_map(|r| match r.event {
            TraceEvent::SegmentSent { seg, flight, .. } if seg.from == side => {
                Some((r.time, seg, flight))
            }
            _ => None,
        })
        .collect()
}

/// Every segment the path dropped (queue overflow, random loss, drop list), in order.
pub fn dropped(run: &RunResult) -> Vec<Segment> {
    run.trace
        .records()
        .filter_map(|r| match r.event {
            TraceEvent::SegmentDropped { seg } => Some(seg),
            _ => None,
        })
        .collect()
}

/// When the server entered fast recovery, and the first sequence it resent.
pub fn recovery_starts(run: &RunResult) -> Vec<(SimTime, u64)> {
    run.trace
        .records()
        .filter_map(|r| match r.event {
            TraceEvent::FastRetransmit {
                side: Side::Server,
                seq,
            } => Some((r.time, seq)),
            _ => None,
        })
        .collect()
}

/// Every segment a side received, with its arrival time, in order.
pub fn received_by(run: &RunResult, side: Side) -> Vec<(SimTime, Segment)> {
    run.trace
        .records()
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

/// A scenario from the book's `scenarios/` folder.
#[cfg(feature = "scenario-file")]
pub fn scenario_file(name: &str) -> Scenario {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    sim_core::scenario_file::parse(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .1
}

/// The text of a scenario file, for tests that edit it.
pub fn scenario_text(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(name);
    std::fs::read_to_string(path).unwrap()
}

/// The largest window `side` ever advertised.
pub fn max_window_sent_by(run: &RunResult, side: Side) -> u64 {
    sent_by(run, side)
        .iter()
        .map(|(_, s, _)| s.wnd)
        .max()
        .unwrap_or(0)
}

/// When `side` sent zero-window probes.
pub fn probe_times(run: &RunResult, side: Side) -> Vec<SimTime> {
    run.trace
        .records()
        .filter(|r| matches!(r.event, TraceEvent::ZeroWindowProbe { side: s, .. } if s == side))
        .map(|r| r.time)
        .collect()
}

/// Everything `s` sends now, stamped with the send time as the world stamps it.
pub fn drain(s: &mut sim_core::tcp::Socket, now: SimTime) -> Vec<Segment> {
    std::iter::from_fn(|| {
        s.poll_transmit(now).map(|(mut seg, _, _)| {
            seg.ts_val = now.0;
            seg
        })
    })
    .collect()
}

/// A client and server with default settings, connected by delivering the
/// handshake instantly (1 ms per step); for tests that drive sockets by hand.
pub fn connected_pair(
    trace: &mut sim_core::trace::Trace,
) -> (sim_core::tcp::Socket, sim_core::tcp::Socket, SimTime) {
    use sim_core::config::HostConfig;
    use sim_core::tcp::Socket;
    let mut client = Socket::connect(&HostConfig::default());
    let mut server = Socket::listen(&HostConfig::default());
    let mut now = SimTime::ZERO;
    for _ in 0..3 {
        now += SimDuration::from_millis(1);
        for seg in drain(&mut client, now) {
            server.handle_segment(now, &seg, trace);
        }
        for seg in drain(&mut server, now) {
            client.handle_segment(now, &seg, trace);
        }
    }
    assert!(server.is_established() && client.is_established());
    (client, server, now)
}

/// A seed scenario's text with both hosts on today's kernel.
pub fn scenario_text_today(name: &str) -> String {
    scenario_text(name)
        .replace("kernel = \"4.18\"", "kernel = \"today\"")
        .replace("kernel = \"5.5\"", "kernel = \"today\"")
}

/// The server's flights, in segments, of the scenario file `text`.
pub fn server_flights(text: &str) -> Vec<u32> {
    let (_, s) = sim_core::scenario_file::parse(text).unwrap();
    let r = sim_core::sim::run(&s).unwrap();
    sim_core::analysis::flights(&r.trace, Side::Server)
        .iter()
        .map(|f| f.segments)
        .collect()
}
