//! The delayed-ACK timer's tick, per era and `CONFIG_HZ`, on seed 000's
//! header-then-body POST: the server, in ping-pong mode after its first reply,
//! delays the ACK of each later header for `ato` = 40 ms.
//!
//! `tcp_send_delayed_ack` arms the timer for `jiffies + ato`. What the wheel
//! does with that expiry (kernel/time/timer.c):
//!
//! - 2.6.32 and 3.10, the cascading wheel: it runs on tick `jiffies + ato`,
//!   so a header that arrives `f` into a tick waits `ato − f`: between
//!   ato − 1 tick and ato (39–40 ms at HZ=1000, 36–40 ms at HZ=250);
//! - 4.8 and later, `calc_index`: `(expires >> 0) + 1` at level 0, so it
//!   waits `ato + 1 tick − f`: more than ato, at most ato + 1 tick (40–41 ms
//!   at HZ=1000, 40–44 ms at HZ=250). "A timer does not fire early."
//!
//! The tests move the header's arrival across a tick by changing the path's
//! RTT in steps of a fraction of a tick, and check every wait against its
//! era's bounds and that the waits spread over most of a tick (so a model
//! that ignored the tick, or rounded the other way, fails).
#![cfg(feature = "scenario-file")]

mod common;
use common::scenario_text;

use sim_core::segment::Side;
use sim_core::sim;
use sim_core::trace::TraceEvent;

const MS: u64 = 1_000_000;

/// The server's delayed-ACK waits (armed → runs), in ns, with both hosts on
/// `kernel`, at `hz`, over a path of `rtt_us` µs.
fn waits(kernel: &str, hz: u32, rtt_us: u64) -> Vec<u64> {
    let text = scenario_text("seed-000-post-header-body.toml")
        .replace("kernel = \"3.10\"", &format!("kernel = \"{kernel}\""))
        .replace("rtt = \"7ms\"", &format!("rtt = \"{rtt_us}us\""))
        + &format!("\n[server.behaviour]\nhz = {hz}\n");
    let (_, s) = sim_core::scenario_file::parse(&text).unwrap();
    let run = sim::run(&s).unwrap();
    let armed: Vec<u64> = run
        .trace
        .records()
        .filter_map(|r| match r.event {
            TraceEvent::DelayedAckArmed {
                side: Side::Server,
                deadline,
            } => Some(deadline.since(r.time).0),
            _ => None,
        })
        .collect();
    // The ACK leaves when the timer runs: a pure ACK from the server at each
    // deadline (the POSTs are answered only after the body).
    let acks: Vec<u64> = common::sent_by(&run, Side::Server)
        .into_iter()
        .filter(|(_, seg, _)| seg.len == 0)
        .map(|(t, _, _)| t.0)
        .collect();
    for r in run.trace.records() {
        if let TraceEvent::DelayedAckArmed {
            side: Side::Server,
            deadline,
        } = r.event
        {
            assert!(acks.contains(&deadline.0), "an ACK left at {deadline}");
        }
    }
    armed
}

/// Every wait over RTTs that move the header across one tick of `hz`.
fn waits_across_a_tick(kernel: &str, hz: u32) -> Vec<u64> {
    let tick_us = 1_000_000 / hz as u64;
    let steps = 8;
    let mut all = Vec::new();
    for i in 0..steps {
        // A one-way delay changes by half the RTT step.
        let w = waits(kernel, hz, 7_000 + 2 * i * tick_us / steps);
        assert!(!w.is_empty(), "{kernel} HZ={hz}: the server delayed an ACK");
        all.extend(w);
    }
    all
}

fn check(kernel: &str, hz: u32, lo_exclusive: u64, hi: u64) {
    let w = waits_across_a_tick(kernel, hz);
    let tick = 1_000_000_000 / hz as u64;
    let (min, max) = (*w.iter().min().unwrap(), *w.iter().max().unwrap());
    assert!(
        min > lo_exclusive && max <= hi,
        "{kernel} HZ={hz}: waits {min}..={max} ns, outside ({lo_exclusive}, {hi}]"
    );
    // Eight arrival offsets a tick apart by 1/8: the waits cover 7/8 of it.
    assert!(
        max - min >= tick * 7 / 8 - tick / 100,
        "{kernel} HZ={hz}: waits {min}..={max} ns do not follow the tick"
    );
}

#[test]
fn on_todays_kernel_a_40_ms_delayed_ack_waits_40_to_41_ms_at_hz_1000() {
    check("today", 1000, 40 * MS, 41 * MS);
}

#[test]
fn on_todays_kernel_a_40_ms_delayed_ack_waits_40_to_44_ms_at_hz_250() {
    check("today", 250, 40 * MS, 44 * MS);
}

#[test]
fn on_4_18_the_wheel_already_rounds_up() {
    check("4.18", 1000, 40 * MS, 41 * MS);
}

#[test]
fn on_3_10_the_cascading_wheel_runs_it_on_the_tick_39_to_40_ms_at_hz_1000() {
    check("3.10", 1000, 39 * MS, 40 * MS);
}

#[test]
fn on_3_10_at_hz_250_it_waits_36_to_40_ms() {
    check("3.10", 250, 36 * MS, 40 * MS);
}
