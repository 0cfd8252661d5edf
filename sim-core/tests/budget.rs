//! A run's cost estimated before it runs (`sim::cost`), and the budget that
//! refuses what would not fit (`sim::budget`): the issue's two machine-
//! exhausting scenarios are refused with messages naming their keys, every
//! seed scenario fits, and random scenarios at their keys' extremes either
//! are refused or run within the estimate, never past the backstop.
//!
//! No test here times anything: work is bounded by the budgets, and counted.
#![cfg(feature = "scenario-file")]

use proptest::prelude::*;
use sim_core::config::{ChunkedWrites, Pacing, PathConfig, Scenario};
use sim_core::scenario_file;
use sim_core::sim::cost::ESTIMATE_SLACK;
use sim_core::sim::{self, Budget, Cost, Limit, RunError, Simulation};
use sim_core::time::SimDuration;

fn scenario(text: &str) -> Scenario {
    scenario_file::parse(text).unwrap().1
}

fn refusal(s: &Scenario, budget: &Budget) -> sim::OverBudget {
    match budget.check(s) {
        Err(e) => e,
        Ok(cost) => panic!("not refused: {}", sim::budget::describe(&cost)),
    }
}

/// The issue's first case: samples every 50 µs over a day, 64 flows (a
/// receiver that never reads keeps every one running to the time limit).
#[test]
fn samples_every_50us_over_a_day_with_64_flows_are_refused_naming_the_keys() {
    let s = scenario(
        r#"
format = 1
name = "day-of-samples"
time_limit = "86400s"
sample_interval = "50us"
flows = 64
[path]
rate = "1Gbit"
rtt = "10ms"
[app]
type = "request-response"
response = "16GiB"
"#,
    );
    let cost = Cost::of(&s);
    // Every 50 µs for 86,400 s, 64 flows: 1.1e11 samples.
    assert_eq!(cost.horizon.amount, 86_400_000_000_000);
    assert_eq!(cost.samples.amount, (1_728_000_000 + 2) * 64);
    let e = refusal(&s, &Budget::NATIVE);
    assert_eq!(e.limit, Limit::Memory);
    assert_eq!(e.keys, ["sample_interval", "time_limit", "flows"]);
    assert!(
        e.message.starts_with(
            "`sample_interval` = 50 µs, `time_limit` = 86400 s and `flows` = 64 would keep \
             about 1.1e11 samples ("
        ),
        "{}",
        e.message
    );
    assert!(
        e.message
            .ends_with("; raise `sample_interval`, shorten `time_limit` or lower `flows`"),
        "{}",
        e.message
    );
    assert!(
        e.message.contains("over the 1 GiB memory limit"),
        "{}",
        e.message
    );
    // The same through a checked run: nothing simulated.
    assert!(matches!(
        sim::run_within(&s, &Budget::NATIVE),
        Err(RunError::OverBudget(_))
    ));
}

/// The issue's second case: 16 GiB written a byte at a time, a run of hours
/// that takes almost no event.
#[test]
fn one_byte_writes_of_16_gib_are_refused_naming_the_write_size_and_transfer() {
    let s = scenario(
        r#"
format = 1
name = "byte-writes"
[path]
rate = "1Gbit"
rtt = "1ms"
[app]
type = "request-response"
request = "100B"
response = "16GiB"
server_write_buffer = "1B"
"#,
    );
    let cost = Cost::of(&s);
    assert_eq!(cost.writes.amount, (16 << 30) + 1);
    let e = refusal(&s, &Budget::NATIVE);
    // Nagle holds the bytes back into full segments: the time is the
    // problem, not the memory.
    assert_eq!(e.limit, Limit::Events);
    assert_eq!(e.also, None);
    assert_eq!(e.keys, ["app.server_write_buffer", "app.response"]);
    assert!(
        e.message
            .starts_with("`app.server_write_buffer` = 1 B and `app.response` = 16 GiB would "),
        "{}",
        e.message
    );
    assert!(e.message.contains("1.0e8 events"), "{}", e.message);
    assert!(
        e.message
            .ends_with("; raise `app.server_write_buffer` or lower `app.response`"),
        "{}",
        e.message
    );
}

/// Runs let in without the estimate (as a wrong one would) are held to
/// the backstop all the same: 1-byte writes of 1 GiB stop at twice a small
/// event budget, a receiver that never reads sampled every 50 µs at twice a
/// small memory budget, each with a message.
#[test]
fn the_backstop_stops_what_the_estimate_let_through() {
    let small = Budget {
        max_memory_bytes: 16 << 20,
        max_events: 1_000_000,
    };
    let mut writes = Scenario::default();
    writes.app.response = vec![1 << 30];
    writes.app.server_writes = Some(ChunkedWrites {
        size: 1,
        cost: SimDuration::ZERO,
    });
    let mut samples = Scenario {
        sample_interval: SimDuration::from_micros(50),
        time_limit: SimDuration::from_secs(100),
        flows: 64,
        ..Scenario::default()
    };
    samples.client.receiver.read_rate = Some(0);
    for (s, limit) in [(writes, Limit::Events), (samples, Limit::Memory)] {
        assert!(small.check(&s).is_err());
        let mut sim = Simulation::held_to(&s, &small).unwrap();
        while !sim.advance(u64::MAX) {}
        let e = sim.over_budget().expect("stopped by the backstop");
        assert_eq!(e.limit, limit);
        match limit {
            Limit::Events => assert!(sim.work() > small.backstop_events()),
            Limit::Memory => {
                assert!(sim.trace().heap_bytes() as u64 > small.backstop_memory());
                // Stopped at once: it looks after every event, and a growing
                // vector at most doubles its capacity past the limit.
                assert!(
                    sim.trace().heap_bytes() as u64 <= 2 * small.backstop_memory(),
                    "{} vs {}",
                    sim.trace().heap_bytes(),
                    small.backstop_memory()
                );
            }
        }
        assert!(e.message.starts_with("stopped after"), "{}", e.message);
        assert!(sim_core::sim::run_within(&s, &small).is_err());
    }
}

#[test]
fn every_seed_scenario_fits_the_default_budget() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        n += 1;
        let s = scenario(&std::fs::read_to_string(&path).unwrap());
        if let Err(e) = Budget::NATIVE.check(&s) {
            panic!("{}: {e}", path.display());
        }
    }
    assert!(n >= 50, "found {n} scenario files");
}

/// One key's value: its minimum, its maximum or an ordinary value (as
/// often as the two extremes together, so that some runs get through).
fn pick<T: Clone + std::fmt::Debug + 'static>(values: [T; 3]) -> impl Strategy<Value = T> {
    let [min, max, ordinary] = values;
    prop::sample::select(vec![min, max, ordinary.clone(), ordinary])
}

/// Scenarios whose every key that drives cost sits at its minimum, its
/// maximum or an ordinary value.
fn extreme_scenario() -> impl Strategy<Value = Scenario> {
    let path = (
        pick([1_000u64, 100_000_000_000, 100_000_000]), // path.rate
        pick([0u64, 10_000_000_000, 10_000_000]),       // path.rtt (ns)
        pick([0u64, 1 << 32, 1_500_000]),               // path.queue
        pick([0.0f64, 0.5, 1e-4]),                      // path.loss
        pick([1u32, 1_000, 10]),                        // route.initcwnd
        pick([64u32, 65_000, 1448]),                    // mss
        pick([4_096u64, 1 << 30, 131_072]),             // receive buffer
    );
    let app = (
        pick([1u64, 1 << 34, 100_000]),              // app.response
        pick([0u64, 1 << 30, 100]),                  // app.request
        pick([1u32, 10_000, 3]),                     // app.repeat
        pick([0u64, 7_200_000_000_000, 10_000_000]), // app.gap (ns)
        pick([None, Some(1u64), Some(1 << 30)]),     // app.server_write_buffer
        pick([0u64, 1_000_000_000, 30_000]),         // app.server_write_cost (ns)
        pick([None, Some(0u64), Some(1)]),           // app.client_read_rate
    );
    let run = (
        pick([1_000_000u64, 86_400_000_000_000, 10_000_000_000]), // time_limit (ns)
        pick([50_000u64, 3_600_000_000_000, 100_000_000]),        // sample_interval (ns)
        pick([1u32, 64, 2]),                                      // flows
        any::<bool>(),                                            // app.new_connection
        pick([0u64, 100_000_000, 50_000]),                        // app.client_read_wakeup (ns)
        pick([0u64, 1_000_000, 20_000]),                          // client.stack.gro (ns)
    );
    (path, app, run).prop_map(|(path, app, run)| {
        let (rate, rtt, queue, loss, initcwnd, mss, rcvbuf) = path;
        let (response, request, repeat, gap, wbuf, wcost, read_rate) = app;
        let (time_limit, sample_interval, flows, new_connection, wakeup, gro) = run;
        let mut s = Scenario {
            path: PathConfig {
                queue_bytes: queue,
                loss,
                ..PathConfig::symmetric(rate, SimDuration(rtt))
            },
            time_limit: SimDuration(time_limit),
            sample_interval: SimDuration(sample_interval),
            flows,
            ..Scenario::default()
        };
        for h in [&mut s.client, &mut s.server] {
            h.sender.mss = mss;
            h.sender.initcwnd = initcwnd;
            h.receiver.rcvbuf = rcvbuf;
            h.receiver.rcvbuf_max = rcvbuf.max(6 << 20);
        }
        s.client.receiver.read_rate = read_rate;
        s.client.receiver.read_wakeup = SimDuration(wakeup);
        s.client.receiver.gro_window = SimDuration(gro);
        s.app.response = vec![response];
        s.app.request = if request == 0 { vec![] } else { vec![request] };
        s.app.repeat = repeat;
        s.app.pacing = Pacing::Every(SimDuration(gap));
        s.app.new_connection = new_connection;
        s.app.server_writes = wbuf.map(|size| ChunkedWrites {
            size,
            cost: SimDuration(wcost),
        });
        s
    })
}

/// A budget small enough that every run it lets through takes a moment in
/// a debug build.
const TEST_BUDGET: Budget = Budget {
    max_memory_bytes: 64 << 20,
    max_events: 200_000,
};

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    /// Either refused up front, or stopped at the backstop (both `tcpsim`'s
    /// exit status 2, with a message naming keys), or run to its end; in
    /// every case within bounded work and memory, and a run that ends with
    /// its work and memory within the estimate's slack.
    #[test]
    fn extreme_scenarios_are_refused_or_run_within_their_estimate(s in extreme_scenario()) {
        prop_assume!(s.validate().is_ok());
        let cost = match TEST_BUDGET.check(&s) {
            Err(e) => {
                // The message names every key it blames.
                prop_assert!(!e.keys.is_empty());
                for k in &e.keys {
                    prop_assert!(e.message.contains(&format!("`{k}`")), "{}", e.message);
                }
                return Ok(());
            }
            Ok(cost) => cost,
        };
        let mut sim = Simulation::within(&s, &TEST_BUDGET).unwrap();
        while !sim.advance(u64::MAX) {}
        let work = sim.work();
        let heap = sim.trace().heap_bytes() as u64;
        // Bounded whatever happened: the backstop, plus one event's writes
        // (at most a send buffer's worth) and one doubling of a vector.
        prop_assert!(work <= TEST_BUDGET.backstop_events() + (4 << 20));
        prop_assert!(heap <= 2 * TEST_BUDGET.backstop_memory() + (1 << 20));
        if let Some(e) = sim.over_budget() {
            // A run the estimate let through but the model kept going past
            // it (a transfer that never starts leaves nothing but samples to
            // its time limit): stopped with a message all the same.
            prop_assert!(e.message.starts_with("stopped after"), "{}", e.message);
            return Ok(());
        }
        prop_assert!(work <= ESTIMATE_SLACK * cost.events.amount,
            "work {} past {} × the estimate {}", work, ESTIMATE_SLACK, sim_core::sim::budget::describe(&cost));
        prop_assert!(heap <= ESTIMATE_SLACK * cost.memory.amount,
            "trace of {} B past {} × the estimate {}", heap, ESTIMATE_SLACK, sim_core::sim::budget::describe(&cost));
    }
}
