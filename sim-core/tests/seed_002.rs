//! Seed 002 (case 10): 4 MB reads every 10 s across data centres (4 ms RTT,
//! 1 Gbit/s). Measured: 174 ms with a new connection per read, 102 ms on one
//! reused connection, 43 ms with tcp_slow_start_after_idle = 0 (the author's
//! ideal: 40 ms on the wire plus one RTT).
//!
//! The model reproduces the last figure and the order of the three; the first
//! two measurements are much slower than slow start alone explains (the source
//! reports latencies swinging between 40 and 500 ms on that line), so for them
//! only the mechanism is asserted.
#![cfg(feature = "scenario-file")]

mod common;
use common::*;
use sim_core::analysis::summarize;
use sim_core::segment::Side;
use sim_core::time::{SimDuration, SimTime};
use sim_core::trace::TraceEvent;

/// Mean duration of the reads after the first (the first is the same in all three).
fn later_reads_ms(name: &str) -> f64 {
    let t = summarize(&run(&scenario_file(name))).transfers;
    assert_eq!(t.len(), 5);
    t[1..]
        .iter()
        .map(|x| x.duration().as_millis_f64())
        .sum::<f64>()
        / 4.0
}

#[test]
fn without_idle_restart_a_reused_connection_reads_4mb_in_about_43ms() {
    // 4,000,000 bytes in 1500-byte packets at 1 Gbit/s: 33.1 ms on the wire,
    // plus the request's round trip. Measured 43 ms; allow 15 % for host time.
    let ms = later_reads_ms("seed-002-4mb-reused-no-idle-restart.toml");
    assert!(
        ms > 33.1 + 4.0 && (ms - 43.0).abs() < 0.15 * 43.0,
        "{ms:.1} ms"
    );
}

#[test]
fn restarting_after_idle_or_reconnecting_costs_slow_start_again() {
    let fresh = later_reads_ms("seed-002-4mb-new-connection.toml");
    let reused = later_reads_ms("seed-002-4mb-reused.toml");
    let warm = later_reads_ms("seed-002-4mb-reused-no-idle-restart.toml");
    // The order the source measured: 174 > 102 > 43 ms.
    assert!(
        fresh > reused && reused > warm,
        "{fresh:.1} > {reused:.1} > {warm:.1}"
    );
    // A new connection pays one more round trip (the handshake) than a
    // connection whose cwnd restarted from initcwnd after idling, and on the
    // seed's 2.6.32 a little more while the client's receive window opens
    // from its 10-segment start (tcp_default_init_rwnd): 0.18 ms here, none
    // with `initial_rwnd = "unlimited"`.
    let extra = fresh - reused - 4.0;
    assert!((0.0..0.3).contains(&extra), "{fresh:.2} vs {reused:.2}");
    // Slow start from 10 segments costs several round trips on top of the warm read.
    assert!(reused - warm > 3.0 * 4.0, "{reused:.1} vs {warm:.1}");
}

// Step 5 of the source: the same reads through SOFA-RPC, whose transfer
// buffer ("transbuf") sets the size of each write() the framework makes.
// Measured: 124 ms with 1 KB, 61 ms with 32 KB, 55 ms with 4 MB. The
// framework's time per chunk (31 µs) is fitted to the 1 KB figure, so these
// tests check what follows from it, not the fitted number itself.

/// The file's response size, chunk size and per-chunk cost, and its RTT.
fn transbuf(name: &str) -> (u64, u64, SimDuration, SimDuration) {
    let s = scenario_file(name);
    let w = s.app.server_writes.expect("a transfer buffer");
    (s.app.response_bytes(), w.size, w.cost, s.path.rtt())
}

#[test]
fn a_1k_transfer_buffer_makes_the_rpc_writer_set_the_pace() {
    let small = later_reads_ms("seed-002-rpc-transbuf-1k.toml");
    // 4,000,000 B in 1 KiB writes is 3,907 chunks, each prepared before it is
    // written: the read lasts the request's round trip plus the chunks, to
    // within the last chunk's trip across the line.
    let (bytes, size, cost, rtt) = transbuf("seed-002-rpc-transbuf-1k.toml");
    let chunks = bytes.div_ceil(size);
    assert_eq!(chunks, 3907);
    let writer_bound = rtt.as_millis_f64() + chunks as f64 * cost.as_millis_f64();
    assert!(
        small >= writer_bound && small - writer_bound < 2.5,
        "{small:.2} ms vs {writer_bound:.2} ms"
    );
    // Against the source's 124 ms (the calibration point), 5 %.
    assert!((small - 124.0).abs() < 0.05 * 124.0, "{small:.1} ms");
}

#[test]
fn from_32k_up_the_transfer_buffer_no_longer_matters() {
    let plain = later_reads_ms("seed-002-4mb-reused-no-idle-restart.toml");
    let mid = later_reads_ms("seed-002-rpc-transbuf-32k.toml");
    let whole = later_reads_ms("seed-002-rpc-transbuf-4m.toml");
    let small = later_reads_ms("seed-002-rpc-transbuf-1k.toml");
    // 32 KiB chunks come faster than the line drains them: the read takes what
    // it takes without a framework, give or take one chunk's cost.
    for ms in [mid, whole] {
        assert!((ms - plain).abs() < 0.1, "{ms:.2} vs {plain:.2} ms");
    }
    // The source's order: 1 KB well over twice 32 KB (124 vs 61 ms).
    assert!(small > 2.0 * mid, "{small:.1} vs {mid:.1} ms");
    // With slow start after idle (the source's step 4, 93 ms) the buffer
    // cannot win back what the restart costs.
    let restart = later_reads_ms("seed-002-rpc-transbuf-32k-idle-restart.toml");
    assert!(restart > mid + 3.0 * 4.0, "{restart:.1} vs {mid:.1} ms");
}

#[test]
fn with_tcp_nodelay_each_1k_chunk_leaves_as_its_own_segment_one_cost_apart() {
    let r = run(&scenario_file("seed-002-rpc-transbuf-1k.toml"));
    let second_read = SimTime::ZERO + SimDuration::from_secs(10);
    let sends: Vec<(SimTime, u32)> = r
        .trace
        .records()
        .filter(|rec| rec.time > second_read)
        .filter_map(|rec| match rec.event {
            TraceEvent::SegmentSent { seg, .. } if seg.from == Side::Server && seg.len > 0 => {
                Some((rec.time, seg.len))
            }
            _ => None,
        })
        .take_while(|&(t, _)| t < second_read + SimDuration::from_secs(1))
        .collect();
    // 3,906 full chunks and a 256-byte tail, nothing coalesced or split.
    let (bytes, size, cost, _) = transbuf("seed-002-rpc-transbuf-1k.toml");
    let full = (bytes / size) as usize;
    assert_eq!(sends.len(), full + 1);
    assert!(sends[..full].iter().all(|&(_, len)| len as u64 == size));
    assert_eq!(sends[full].1 as u64, bytes % size);
    // The writer is slower than the window: every chunk is sent the moment it
    // is written, exactly one chunk cost after the one before.
    for pair in sends.windows(2) {
        assert_eq!(pair[1].0 - pair[0].0, cost);
    }
}

#[test]
fn each_new_connection_counts_its_own_flights_from_initcwnd() {
    // Five reads, five connections: each slow-starts from initcwnd, and the
    // flights follow one another rather than add up flight by flight.
    let one = summarize(&run(&scenario_file("seed-002-4mb-new-connection.toml"))).flights;
    assert_eq!(one.len() % 5, 0, "{one:?}");
    let per = one.len() / 5;
    let first: Vec<u64> = one[..per].iter().map(|f| f.bytes).collect();
    for k in 1..5 {
        let again: Vec<u64> = one[k * per..(k + 1) * per]
            .iter()
            .map(|f| f.bytes)
            .collect();
        assert_eq!(again, first, "connection {}", k + 1);
    }
    assert_eq!(first.iter().sum::<u64>(), 4_000_000);
    assert!(one.windows(2).all(|w| w[0].start <= w[1].start));
}

#[test]
fn the_flows_samples_add_up_over_its_new_connections() {
    // Five connections, one flow: the samples are the flow's totals, so
    // the last says all 20 MB were read, and iperf3's intervals never go back.
    let run = run(&scenario_file("seed-002-4mb-new-connection.toml"));
    let delivered: Vec<u64> = run
        .trace
        .flow_summary(0)
        .filter_map(|r| match r.event {
            TraceEvent::Sample { delivered, .. } => Some(delivered),
            _ => None,
        })
        .collect();
    assert!(delivered.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(delivered.last(), Some(&20_000_000));
    let report = sim_core::report::iperf(&run, SimDuration::from_secs(1));
    assert!(report.contains("19.07 MBytes"), "{report}");
}
