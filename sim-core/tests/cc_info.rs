//! The congestion control's own state in the periodic samples (`.get_info`,
//! `TcpInfo::cc`), checked against the packet-level records of real runs:
//! CUBIC's W_max and K after each fast recovery, and BBR's bandwidth and
//! min_rtt estimates on seed 003's path.
#![cfg(feature = "scenario-file")]

mod common;
use common::*;
use sim_core::cc::{CcInfo, cubic_root};
use sim_core::segment::Side;
use sim_core::time::SimDuration;
use sim_core::trace::TraceEvent;

/// `cube_factor` (tcp_cubic.c): 2^(10 + 3·BICTCP_HZ) / (bic_scale · 10).
const CUBE_FACTOR: u64 = (1 << 40) / 410;

/// After each loss CUBIC remembers the cwnd it had (`cubictcp_recalc_ssthresh`:
/// W_max, or W_max·(1 + β)/2 with fast convergence when the loss came below
/// the previous W_max), and the epoch begun when recovery ends has
/// K = ∛((W_max − cwnd)·cube_factor) in 2^-10 s, from the cwnd it starts at.
#[test]
fn cubic_exports_w_max_and_k_of_each_loss() {
    let mut s = scenario_file("lfn-loss-0.1pct-cubic.toml");
    s.sample_interval = SimDuration::from_millis(5);
    let r = run(&s);
    // Each reduction: the cwnd before it and the ssthresh it set.
    let mut reductions = Vec::new();
    let mut recovering = false;
    for rec in r.trace.flow_summary(0) {
        match rec.event {
            TraceEvent::FastRetransmit {
                side: Side::Server, ..
            } => recovering = true,
            TraceEvent::CwndChanged {
                side: Side::Server,
                old,
                ssthresh,
                ..
            } if recovering => {
                reductions.push((rec.time.0, old, ssthresh));
                recovering = false;
            }
            _ => {}
        }
    }
    // Each epoch once, as the first sample after it began shows it.
    let mut epochs: Vec<(u64, u32, u32, u32)> = Vec::new();
    for rec in r.trace.flow_summary(0) {
        if let TraceEvent::Sample { info, .. } = rec.event
            && let CcInfo::Cubic {
                epoch_start_ns: Some(start),
                w_max,
                k,
                origin_point,
            } = info.cc
            && epochs.last().is_none_or(|&(s, ..)| s != start)
        {
            epochs.push((start, w_max, k, origin_point));
        }
    }
    assert!(reductions.len() >= 5, "{} recoveries", reductions.len());
    let mut checked = 0;
    let mut w_max_before = 0;
    for (i, &(t, cwnd, ssthresh)) in reductions.iter().enumerate() {
        let next = reductions.get(i + 1).map_or(u64::MAX, |r| r.0);
        let expect_w_max = if cwnd < w_max_before {
            cwnd * (1024 + 717) / 2048
        } else {
            cwnd
        };
        assert_eq!(ssthresh, (cwnd * 717 / 1024).max(2), "β·cwnd at {t}");
        w_max_before = expect_w_max;
        // The epoch that follows this loss (none if the next loss came first).
        let Some(&(start, w_max, k, origin)) = epochs
            .iter()
            .find(|e| e.0 >= t / 1_000_000 * 1_000_000 && e.0 < next)
        else {
            continue;
        };
        assert_eq!(w_max, expect_w_max, "W_max after the loss at {t} ns");
        // Recovery ends with cwnd at ssthresh (`tcp_end_cwnd_reduction`),
        // where the epoch begins.
        assert_eq!(origin, w_max, "at {start}");
        assert_eq!(
            k,
            cubic_root(CUBE_FACTOR * (w_max - ssthresh) as u64),
            "K after the loss at {t} ns"
        );
        checked += 1;
    }
    assert!(checked >= 5, "{checked} epochs checked");
}

/// BBR's estimates on seed 003's path: max_bw near the 110 Mbit/s
/// bottleneck's goodput (1448 of every 1500 bytes on the wire... at most the
/// line rate), min_rtt the 210 ms propagation delay, and in ProbeBW the
/// eight-phase cycle of pacing gains 1.25, 0.75 and 1 with cwnd gain 2.
#[test]
fn bbr_exports_its_bandwidth_and_min_rtt() {
    let mut s = scenario_file("seed-003-lfn-bbr.toml");
    s.time_limit = SimDuration::from_secs(12);
    s.sample_interval = SimDuration::from_millis(5);
    let r = run(&s);
    let min_rtt_sample = r
        .trace
        .flow_records(0)
        .filter_map(|x| match x.event {
            TraceEvent::RttSample {
                side: Side::Server,
                sample_ns,
                ..
            } => Some(sample_ns / 1_000),
            _ => None,
        })
        .min()
        .unwrap();
    let mut gains = std::collections::BTreeSet::new();
    let mut last = None;
    for rec in r.trace.flow_summary(0) {
        if let TraceEvent::Sample { info, .. } = rec.event
            && let CcInfo::Bbr {
                bw,
                min_rtt_us,
                pacing_gain,
                cwnd_gain,
            } = info.cc
        {
            if cwnd_gain == 512 {
                gains.insert(pacing_gain);
            }
            if rec.time.0 > 5_000_000_000 {
                // The rate filter's bandwidth is what reached the receiver.
                let mbps = bw as f64 * 8.0 / 1e6;
                assert!(
                    (100.0..=110.0).contains(&mbps),
                    "{mbps} Mbit/s at {}",
                    rec.time.0
                );
                // The handshake's RTT (`bbr_init`) or a sample's, whichever
                // was lower: the 210 ms path plus serialisation.
                assert!(
                    (210_000..=min_rtt_sample).contains(&(min_rtt_us as u64)),
                    "min_rtt {min_rtt_us} µs, smallest RTT sample {min_rtt_sample} µs"
                );
            }
            last = Some(info.cc);
        }
    }
    assert!(last.is_some());
    assert_eq!(
        gains.into_iter().collect::<Vec<_>>(),
        [192, 256, 320],
        "ProbeBW's phases"
    );
}
