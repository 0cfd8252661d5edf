//! Window scaling (RFC 7323) on and off, with seed 000's case 7: an LVS
//! synproxy dropped the option, capping every window at 65535 bytes, so at
//! 35 ms a connection cannot beat 65535 B / 35 ms ≈ 1.87 MB/s on any line.
#![cfg(feature = "scenario-file")]

mod common;
use common::{max_window_sent_by, scenario_text};

use sim_core::analysis::summarize;
use sim_core::scenario_file;
use sim_core::segment::Side;
use sim_core::sim::{self, RunResult};

fn run_text(text: &str) -> RunResult {
    let (_, scenario) = scenario_file::parse(text).unwrap();
    sim::run(&scenario).unwrap()
}

fn case7() -> String {
    scenario_text("seed-000-no-window-scaling.toml")
}

/// Bytes per second over the transfer.
fn rate(run: &RunResult) -> f64 {
    let t = &summarize(run).transfers[0];
    t.bytes as f64 / t.duration().as_secs_f64()
}

#[test]
fn without_scaling_no_window_exceeds_65535_bytes() {
    let r = run_text(&case7());
    let max_wnd = max_window_sent_by(&r, Side::Client);
    assert_eq!(max_wnd, 65_535);
}

#[test]
fn without_scaling_throughput_is_the_window_per_rtt() {
    // The article's ceiling: 65535 B per 35 ms = 1.872 MB/s. The transfer also pays
    // for its handshake and slow start (about 6 RTTs of 20 MiB at this rate's ~330
    // RTTs), so allow it to be up to 5 % below the ceiling, never above.
    let ceiling = 65_535.0 / 0.035;
    let got = rate(&run_text(&case7()));
    assert!(
        got <= ceiling && got > 0.95 * ceiling,
        "{:.3} MB/s vs {:.3}",
        got / 1e6,
        ceiling / 1e6
    );
}

#[test]
fn with_scaling_the_same_path_is_many_times_faster() {
    let on = case7().replace(
        "\"net.ipv4.tcp_window_scaling\" = 0",
        "\"net.ipv4.tcp_window_scaling\" = 1",
    );
    let fast = rate(&run_text(&on));
    let slow = rate(&run_text(&case7()));
    assert!(
        fast > 10.0 * slow,
        "{:.1} vs {:.1} MB/s",
        fast / 1e6,
        slow / 1e6
    );
}
