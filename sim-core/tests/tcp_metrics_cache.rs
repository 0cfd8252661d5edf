//! The tcp_metrics cache at packet level, over the connections widget's
//! presets (seed 000, case 11): what each close saves (`tcp_update_metrics`)
//! and what each open takes (`tcp_init_metrics`), flushing, ageing,
//! `tcp_no_metrics_save`, and the cached RTT's first RTO.
#![cfg(feature = "scenario-file")]

mod common;
use common::*;
use sim_core::analysis::summarize;
use sim_core::config::{
    Direction, DropRule, DropTarget, Pacing, PathConfig, Scenario, Transmission,
};
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::tcp::rtt::rto_from_cached;
use sim_core::time::{SimDuration, SimTime};
use sim_core::trace::TraceEvent;

fn preset(name: &str) -> RunResult {
    run(&scenario_file(&format!("seed-000-tcp-metrics-{name}.toml")))
}

fn durations_ms(r: &RunResult) -> Vec<f64> {
    summarize(r)
        .transfers
        .iter()
        .map(|t| t.duration().as_millis_f64())
        .collect()
}

/// The ssthresh of the server's first cwnd record at or after `t`.
fn ssthresh_after(r: &RunResult, t: SimTime) -> u32 {
    r.trace
        .records()
        .find_map(|x| match x.event {
            TraceEvent::CwndChanged {
                side: Side::Server,
                ssthresh,
                ..
            } if x.time >= t => Some(ssthresh),
            _ => None,
        })
        .unwrap()
}

#[test]
fn the_lossy_connection_caches_ssthresh_13_and_the_next_one_starts_there() {
    let r = preset("lossy-first-saved");
    let first = r.tcp_metrics.after_close[0].unwrap();
    // It closed in congestion avoidance after 1 % loss: max(cwnd / 2, ssthresh).
    assert_eq!((first.ssthresh, first.cwnd), (13, 7));
    let starts: Vec<SimTime> = summarize(&r).transfers.iter().map(|t| t.started).collect();
    assert_eq!(ssthresh_after(&r, starts[1]), 13);
    // Each clean connection closes in congestion avoidance above the cached
    // value (tcp_update_metrics keeps max(cwnd / 2, ssthresh) when it is not
    // in slow start), so the cache creeps up from 13 (13, 41, 53, 61 today).
    let cached: Vec<u32> = r
        .tcp_metrics
        .after_close
        .iter()
        .map(|e| e.unwrap().ssthresh)
        .collect();
    assert_eq!(cached[0], 13);
    assert!(cached.windows(2).all(|w| w[1] > w[0]), "{cached:?}");
}

#[test]
fn kernel_3_10_caches_ssthresh_without_any_sysctl_and_today_does_not() {
    let text = scenario_text("seed-000-tcp-metrics-lossy-first-3.10.toml");
    let (mut file, s) = sim_core::scenario_file::parse(&text).unwrap();
    let old = run(&s);
    assert_eq!(old.tcp_metrics.after_close[0].unwrap().ssthresh, 13);
    file.set_kernel(sim_core::config::Kernel::Today);
    let today = run(&file.to_scenario().unwrap());
    assert!(
        today
            .tcp_metrics
            .after_close
            .iter()
            .all(|e| e.unwrap().ssthresh == 0)
    );
    let (old, today) = (durations_ms(&old), durations_ms(&today));
    for i in 1..4 {
        assert!(old[i] >= 1.5 * today[i], "{old:?} vs {today:?}");
    }
}

#[test]
fn later_connections_crawl_only_where_ssthresh_is_cached() {
    let saved = durations_ms(&preset("lossy-first-saved"));
    let today = durations_ms(&preset("lossy-first-today"));
    // The lossy first connection is the same run on both.
    assert_eq!(saved[0], today[0]);
    for i in 1..4 {
        assert!(saved[i] >= 1.5 * today[i], "{i}: {saved:?} vs {today:?}");
    }
    // Today's clean connections are alike: nothing they inherit slows them.
    assert!(today[1..].iter().all(|&d| d == today[1]), "{today:?}");
}

#[test]
fn todays_default_caches_rtt_rttvar_and_cwnd_but_never_ssthresh() {
    let r = preset("lossy-first-today");
    for e in &r.tcp_metrics.after_close {
        let e = e.unwrap();
        assert_eq!(e.ssthresh, 0);
        assert!(e.rtt_ns > 0 && e.rttvar_ns > 0 && e.cwnd > 0);
    }
    // A clean connection's ssthresh comes from its own slow start (HyStart
    // or a loss), never from the cache: its first cwnd record has none.
    let starts: Vec<SimTime> = summarize(&r).transfers.iter().map(|t| t.started).collect();
    assert_eq!(
        ssthresh_after(&r, starts[1]),
        sim_core::cc::TCP_INFINITE_SSTHRESH
    );
}

#[test]
fn a_flush_empties_the_cache_before_the_third_connection() {
    let flush = preset("flush");
    let saved = durations_ms(&preset("lossy-first-saved"));
    let today = durations_ms(&preset("lossy-first-today"));
    let d = durations_ms(&flush);
    assert_eq!(d[1], saved[1], "the second still starts from the cache");
    assert_eq!(d[2], today[2], "the third starts from nothing");
    let log: Vec<&str> = flush
        .tcp_metrics
        .log
        .iter()
        .map(|(_, l)| l.as_str())
        .collect();
    assert_eq!(log[3], "ip tcp_metrics flush all");
    assert_eq!(
        log[4],
        "open #3: tcp_init_metrics takes no ssthresh, no rtt"
    );
}

#[test]
fn tcp_no_metrics_save_caches_nothing() {
    let r = preset("no-metrics-save");
    assert_eq!(r.tcp_metrics.entry(), None);
    assert!(r.tcp_metrics.after_close.iter().all(Option::is_none));
    assert_eq!(sim_core::report::tcp_metrics_show(&r), "");
    assert_eq!(durations_ms(&r), durations_ms(&preset("lossy-first-today")));
}

#[test]
fn an_entry_idle_for_two_hours_is_reset_before_the_next_connection_reads_it() {
    let r = preset("aged");
    let log: Vec<&str> = r.tcp_metrics.log.iter().map(|(_, l)| l.as_str()).collect();
    assert_eq!(log[1], "entry older than an hour: reset");
    assert_eq!(
        log[2],
        "open #2: tcp_init_metrics takes no ssthresh, no rtt"
    );
    // Every later connection is as fast as a fresh one.
    let d = durations_ms(&r);
    assert_eq!(d[1..], durations_ms(&preset("lossy-first-today"))[1..]);
}

/// Two 4 MiB downloads at 20 ms over a deep queue, the second connection's
/// first flight lost: its retransmission waits for the RTO.
fn bloated_then_first_flight_lost(save: bool) -> RunResult {
    run(&bloated_scenario(save, 4 << 20))
}

/// [`bloated_then_first_flight_lost`]'s scenario with `size`-byte downloads.
fn bloated_scenario(save: bool, size: u64) -> Scenario {
    let mut s = Scenario {
        path: PathConfig {
            queue_bytes: 4 << 20,
            drops: (1..=10)
                .map(|n| DropRule {
                    flow: 0,
                    connection: 2,
                    direction: Direction::Data,
                    target: DropTarget::Segment(n),
                    transmission: Transmission::First,
                })
                .collect(),
            ..PathConfig::symmetric(100_000_000, SimDuration::from_millis(20))
        },
        ..Scenario::default()
    };
    s.server.metrics.save = save;
    s.app.response = vec![size];
    s.app.repeat = 2;
    s.app.new_connection = true;
    s.app.pacing = Pacing::After(SimDuration::from_secs(1));
    s
}

/// The time from the second connection's first data segment to its
/// retransmission.
fn first_rto(r: &RunResult) -> SimDuration {
    let second = summarize(r).transfers[1].started;
    let data: Vec<_> = sent_by(r, Side::Server)
        .into_iter()
        .filter(|(t, s, _)| *t >= second && s.len > 0)
        .collect();
    let (t0, first, _) = data[0];
    let (t1, _, _) = data
        .iter()
        .skip(1)
        .find(|(_, s, _)| s.seq == first.seq)
        .unwrap();
    t1.since(t0)
}

#[test]
fn the_cached_rtt_sets_the_first_rto_of_the_next_connection() {
    let cached = bloated_then_first_flight_lost(true);
    let crtt = SimDuration(cached.tcp_metrics.after_close[0].unwrap().rtt_ns);
    // The queue inflated the first connection's RTT (44.6 ms) well past
    // the path's 20 ms, which the second connection's handshake measures.
    assert!(crtt > SimDuration::from_millis(40), "{crtt:?}");
    assert_eq!(first_rto(&cached), rto_from_cached(crtt));
    // Without the cache the RTO comes from the handshake alone: about
    // 20 ms + the 200 ms floor.
    let plain = first_rto(&bloated_then_first_flight_lost(false));
    assert!(plain < rto_from_cached(crtt), "{plain:?}");
    assert!(plain < SimDuration::from_millis(230), "{plain:?}");
}

/// Before 3.12 (CentOS 6's 2.6.32) `tcp_init_metrics` made the cached RTT
/// and variance the new connection's srtt and rttvar, so the first RTO is
/// srtt + max(4·rttvar, 200 ms) from them: with a cached variance as large
/// as the RTT (a fresh entry's), 5·crtt where today's kernel waits 3·crtt.
#[test]
fn before_3_12_the_cached_rtt_and_variance_become_the_estimators_own() {
    let mut s = bloated_scenario(true, 16 << 20);
    s.server.behaviour.cached_rtt_seeds_estimator = true;
    s.server.metrics.seeds_estimator = true;
    let old = run(&s);
    let entry = old.tcp_metrics.after_close[0].unwrap();
    let (crtt, cvar) = (SimDuration(entry.rtt_ns), SimDuration(entry.rttvar_ns));
    // The handshake measured about the path's 20 ms: its rttvar (half of
    // it) is below the cached one, and its srtt below the cached RTT.
    assert!(crtt > SimDuration::from_millis(60), "{crtt:?}");
    assert!(cvar > SimDuration::from_millis(15), "{cvar:?}");
    let want = crtt + SimDuration(4 * cvar.0).max(SimDuration::from_millis(200));
    assert_eq!(first_rto(&old), want);
    // Today's rule on the same run: the cached RTT sets only the first RTO.
    s.server.behaviour.cached_rtt_seeds_estimator = false;
    s.server.metrics.seeds_estimator = false;
    let today = run(&s);
    assert_eq!(
        today.tcp_metrics.after_close[0],
        old.tcp_metrics.after_close[0]
    );
    assert_eq!(first_rto(&today), rto_from_cached(crtt));
    assert!(want > rto_from_cached(crtt), "{want:?}");
    // What `ip tcp_metrics` logs at the second open says which rule ran.
    let opened = |r: &RunResult| {
        (r.tcp_metrics.log.iter())
            .map(|(_, line)| line.clone())
            .find(|l| l.starts_with("open #2"))
            .unwrap()
    };
    assert!(opened(&old).contains("srtt ≥ "), "{}", opened(&old));
    assert!(opened(&today).contains("first rto "), "{}", opened(&today));
}

/// The 2.6.32 era has the old rule, 3.10 (CentOS 7's, with the backport)
/// and later the new one.
#[test]
fn only_the_2_6_32_era_seeds_the_estimator_from_the_cache() {
    use sim_core::config::Kernel;
    for k in Kernel::ALL {
        assert_eq!(
            k.behaviour().cached_rtt_seeds_estimator,
            k == Kernel::V2_6_32,
            "{k}"
        );
    }
}
