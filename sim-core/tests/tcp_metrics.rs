//! tcp_metrics (seed 000, case 11): one lossy connection leaves a small
//! ssthresh cached for its destination; with net.ipv4.tcp_no_ssthresh_metrics_save
//! = 0 (older kernels) later connections start from it and stay slow; with the
//! current default (1) they slow-start as usual. `ip tcp_metrics flush` or
//! net.ipv4.tcp_no_metrics_save = 1 also avoid it.
#![cfg(feature = "scenario-file")]

mod common;
use common::*;
use sim_core::analysis::summarize;
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;

fn durations(r: &RunResult) -> Vec<f64> {
    summarize(r)
        .transfers
        .iter()
        .map(|t| t.duration().as_secs_f64())
        .collect()
}

/// The pair's file with a queue of one bandwidth-delay product (12.5 MB at
/// 1 Gbit/s and 100 ms), so that a fresh connection's slow start ends
/// without overflowing it.
fn deep_queue(name: &str) -> sim_core::config::Scenario {
    let text = scenario_text(name).replace("[path]", "[path]\nqueue_bdp = 1.0");
    sim_core::scenario_file::parse(&text).unwrap().1
}

#[test]
fn a_cached_ssthresh_slows_every_later_connection() {
    // Where a fresh slow start fits the path. With the files' default queue
    // (1.5 MB, an eighth of the BDP) a fresh connection overflows it and
    // loses over a thousand segments, which on today's GRO receiver costs
    // it more than the cached ssthresh costs the other: the cache is only
    // the slower choice while slow start fits.
    let saved = run(&deep_queue("seed-000-tcp-metrics-ssthresh-saved.toml"));
    let fresh = run(&deep_queue("seed-000-tcp-metrics-ssthresh-not-saved.toml"));
    let later_drops = dropped(&fresh).len();
    assert!(
        later_drops < 10,
        "the fresh connections fit: {later_drops} drops"
    );
    let (a, b) = (durations(&saved), durations(&fresh));
    // The first connection, which met the losses, is the same either way.
    assert_eq!(a[0], b[0]);
    // Every later one is clearly slower when it starts from the cache (by about
    // a fifth here: tcp_wmem[2]'s 4 MB send buffer caps both at this RTT).
    for i in 1..4 {
        assert!(
            a[i] > 1.15 * b[i],
            "connection {i}: {:.2} s vs {:.2} s",
            a[i],
            b[i]
        );
    }
}

#[test]
fn the_cache_holds_the_lossy_connections_ssthresh_and_the_next_one_starts_there() {
    let r = run(&scenario_file("seed-000-tcp-metrics-ssthresh-saved.toml"));
    let show = sim_core::report::tcp_metrics_show(&r);
    assert!(
        show.starts_with("client age ") && show.contains(" ssthresh "),
        "{show}"
    );
    let cached: u32 = show
        .split(" ssthresh ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(cached < 1000, "a small ssthresh: {cached}");
    // The second connection's first cwnd change already shows a finite ssthresh
    // from the cache, while its own path saw no loss.
    let second = summarize(&r).transfers[1].started;
    let first_change = r.trace.records().find_map(|x| match x.event {
        TraceEvent::CwndChanged {
            side: Side::Server,
            ssthresh,
            ..
        } if x.time > second => Some(ssthresh),
        _ => None,
    });
    assert!(first_change.unwrap() < 1000);
}

#[test]
fn tcp_no_metrics_save_avoids_the_slowdown() {
    let text = scenario_text("seed-000-tcp-metrics-ssthresh-saved.toml").replace(
        "[server.sysctl]",
        "[server.sysctl]\n\"net.ipv4.tcp_no_metrics_save\" = 1",
    );
    let (_, s) = sim_core::scenario_file::parse(&text).unwrap();
    let off = durations(&run(&s));
    let fresh = durations(&run(&scenario_file(
        "seed-000-tcp-metrics-ssthresh-not-saved.toml",
    )));
    assert_eq!(off, fresh);
    assert_eq!(sim_core::report::tcp_metrics_show(&run(&s)), "");
}

/// A transfer due on a new connection while the last one still runs (a gap
/// shorter than an exchange) waits for it: the model has one connection per
/// flow, and opening the next one at once used to abandon the running
/// transfer, leaving the later ones never started until the time limit.
#[test]
fn a_transfer_due_while_the_last_runs_starts_when_it_completes() {
    use sim_core::analysis::summarize;
    use sim_core::config::Pacing;
    let mut s = common::seed_004();
    s.app.request = vec![100];
    s.app.response = vec![100_000];
    s.app.repeat = 3;
    s.app.pacing = Pacing::Every(sim_core::time::SimDuration::ZERO);
    s.app.new_connection = true;
    s.time_limit = sim_core::time::SimDuration::from_secs(10);
    let r = common::run(&s);
    let t = summarize(&r).transfers;
    assert_eq!(t.len(), 3, "every transfer completed");
    assert!(
        matches!(r.outcome, sim_core::sim::Outcome::Completed { .. }),
        "{:?}",
        r.outcome
    );
    // Each starts the moment the one before completed, on its own connection.
    for w in t.windows(2) {
        assert_eq!(w[1].started, w[0].started + w[0].duration(), "{t:?}");
    }
}
