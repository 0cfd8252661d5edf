//! Seed 003 (case 12): a long fat network (210 ms RTT). Measured with iperf3
//! over 30 s: one CUBIC socket averaged 69.6 Mbit/s with 101 retransmits, its
//! rate swinging between 52 and 105 Mbit/s; raising the socket buffers did not
//! help; BBR with fq averaged 102 Mbit/s with 6 retransmits and a steady cwnd;
//! ten sockets filled the 1 Gbit/s line.
//!
//! One socket's ceiling was about 110 Mbit/s even inside one data centre, so
//! the single-flow scenarios use a 110 Mbit/s bottleneck. The queue (2 BDP) and
//! the random loss rate (3e-5) are not in the source; the tests therefore
//! assert the effects over several seeds rather than one run's figures:
//!
//! - BBR keeps within 15 % of the 110 Mbit/s ceiling (the source: 102, 93 %),
//!   with few retransmissions (the source: 6; allow 30);
//! - CUBIC averages clearly less (the source: 68 % of BBR; assert under 85 %)
//!   and swings by more than 25 Mbit/s between its best and worst second
//!   after slow start (the source: 52 to 105);
//! - with larger buffers CUBIC still stays far below the ceiling (the model
//!   finds them worth about 20 %, where the source saw no change; see the test);
//! - ten BBR flows together carry over 90 % of 1 Gbit/s once started.
#![cfg(feature = "scenario-file")]

mod common;
use common::*;
use sim_core::analysis::flow_totals;
use sim_core::config::Scenario;
use sim_core::time::SimDuration;
use sim_core::trace::TraceEvent;

const SEEDS: [u64; 4] = [1, 2, 3, 4];

fn with_seed(mut s: Scenario, seed: u64) -> Scenario {
    s.seed = seed;
    s
}

/// Average bitrate over the run, Mbit/s, and total retransmissions, of flow 0.
fn rate_and_retrans(s: &Scenario) -> (f64, u64) {
    let r = run(s);
    let t = &flow_totals(&r)[0];
    (t.bitrate / 1e6, t.retransmits)
}

/// Mbit/s of each whole second of flow 0, from the trace's samples.
fn per_second(s: &Scenario) -> Vec<f64> {
    let r = run(s);
    let samples: Vec<(u64, u64)> = r
        .trace
        .flow_records(0)
        .filter_map(|x| match x.event {
            TraceEvent::Sample { delivered, .. } => Some((x.time.0, delivered)),
            _ => None,
        })
        .collect();
    let at = |t: u64| {
        samples
            .iter()
            .take_while(|s| s.0 <= t)
            .last()
            .map_or(0, |s| s.1)
    };
    (0..30u64)
        .map(|i| (at((i + 1) * 1_000_000_000) - at(i * 1_000_000_000)) as f64 * 8.0 / 1e6)
        .collect()
}

/// Every seed stays near the ceiling. Most lose a handful of segments; a
/// random loss during startup, while the queue is still filling, can outlast
/// the RTO and cost a burst of needless retransmissions (seed 4), as BBR v1's
/// startup does on real deep-buffered paths, so the count is checked on the
/// median seed.
#[test]
fn bbr_runs_close_to_the_ceiling_with_few_retransmissions() {
    let mut retrans = Vec::new();
    for seed in SEEDS {
        let (mbit, retr) =
            rate_and_retrans(&with_seed(scenario_file("seed-003-lfn-bbr.toml"), seed));
        assert!(mbit > 0.85 * 110.0, "seed {seed}: {mbit:.1} Mbit/s");
        retrans.push(retr);
    }
    retrans.sort();
    assert!(retrans[1] <= 30, "{retrans:?}");
}

#[test]
fn cubic_gets_clearly_less_than_bbr_and_swings() {
    let mut cubic_sum = 0.0;
    let mut bbr_sum = 0.0;
    for seed in SEEDS {
        cubic_sum += rate_and_retrans(&with_seed(scenario_file("seed-003-lfn-cubic.toml"), seed)).0;
        bbr_sum += rate_and_retrans(&with_seed(scenario_file("seed-003-lfn-bbr.toml"), seed)).0;
    }
    assert!(
        cubic_sum < 0.85 * bbr_sum,
        "CUBIC {:.1} vs BBR {:.1} Mbit/s on average",
        cubic_sum / 4.0,
        bbr_sum / 4.0
    );
    let secs = per_second(&scenario_file("seed-003-lfn-cubic.toml"));
    let after_start = &secs[4..];
    let max = after_start.iter().cloned().fold(0.0, f64::max);
    let min = after_start.iter().cloned().fold(f64::MAX, f64::min);
    assert!(max - min > 25.0, "{secs:?}");
}

/// The source's first fix was raising tcp_wmem/tcp_rmem and the core maxima
/// to the BDP; it saw no change. In the model the raised buffers do help
/// CUBIC (about 40 % over these seeds: 73.6 against 51.3 Mbit/s since
/// HyStart follows each era's rules; 20 % before), because without segmentation
/// offload each queued segment costs 1280 bytes of overhead, so the old
/// 4 MiB send buffer holds only about 2.2 MB of data, under one BDP of the
/// 110 Mbit/s path. That gain is the model's, not the source's, so it is
/// not pinned here. What is pinned is the source's conclusion: buffers were
/// not the bottleneck, since even raised they leave CUBIC far below the
/// line (and below BBR: `cubic_gets_clearly_less_than_bbr_and_swings`).
#[test]
fn bigger_buffers_do_not_rescue_cubic() {
    let (mut raised_sum, mut default_sum) = (0.0, 0.0);
    for seed in SEEDS {
        let raised = with_seed(scenario_file("seed-003-lfn-cubic.toml"), seed);
        let mut default = raised.clone();
        default.server.sender.sndbuf_max = 4_194_304;
        default.client.receiver.rcvbuf_max = 4_194_304;
        // Its kernel's window accounting: tcp_adv_win_scale = 2 (¾ of the buffer).
        default.client.receiver.window_share = sim_core::config::WindowShare::AdvWinScale(2);
        raised_sum += rate_and_retrans(&raised).0;
        default_sum += rate_and_retrans(&default).0;
    }
    let (raised, default) = (raised_sum / 4.0, default_sum / 4.0);
    assert!(raised < 0.7 * 110.0, "raised buffers: {raised:.1} Mbit/s");
    assert!(
        raised >= default,
        "raised {raised:.1} vs default {default:.1} Mbit/s"
    );
}

#[test]
fn ten_bbr_flows_fill_the_gigabit_line() {
    // 12 s is enough: the flows are through startup after about 3 s.
    let mut s = scenario_file("seed-003-lfn-bbr-10-flows.toml");
    s.time_limit = SimDuration::from_secs(12);
    let r = run(&s);
    let sum_at = |t_ns: u64| -> u64 {
        (0..10u16)
            .map(|f| {
                r.trace
                    .flow_records(f)
                    .filter_map(|x| match x.event {
                        TraceEvent::Sample { delivered, .. } if x.time.0 <= t_ns => Some(delivered),
                        _ => None,
                    })
                    .last()
                    .unwrap_or(0)
            })
            .sum()
    };
    let bytes = sum_at(12_000_000_000) - sum_at(4_000_000_000);
    let mbit = bytes as f64 * 8.0 / 8.0 / 1e6;
    assert!(mbit > 900.0, "{mbit:.0} Mbit/s from 4 s to 12 s");
    // And each flow carries a share: none starves.
    for t in flow_totals(&r) {
        assert!(
            t.bitrate > 40e6,
            "flow {}: {:.1} Mbit/s",
            t.flow,
            t.bitrate / 1e6
        );
    }
}
