//! `tcpsim --format iperf`: the server's sending per interval, as iperf3
//! prints it, from the flows' periodic samples.

use crate::sim::RunResult;
use crate::trace::TraceEvent;
use std::fmt::Write;

/// One flow's readings for the iperf report: (time ns, delivered, retransmits, cwnd).
fn samples(run: &RunResult, flow: u16) -> Vec<(u64, u64, u64, u32)> {
    let mut out = vec![(0, 0, 0, run.scenario.server.sender.initcwnd)];
    out.extend(run.trace.flow_summary(flow).filter_map(|r| match r.event {
        TraceEvent::Sample {
            delivered, info, ..
        } => Some((r.time.0, delivered, info.total_retrans, info.cwnd)),
        _ => None,
    }));
    out
}

/// The latest reading at or before `t`.
fn at(samples: &[(u64, u64, u64, u32)], t: u64) -> (u64, u64, u32) {
    let i = samples.partition_point(|s| s.0 <= t).max(1) - 1;
    let (_, d, r, c) = samples[i];
    (d, r, c)
}

/// Decimals of the interval edges: iperf3's two, or as many as an interval
/// shorter than 10 ms needs for its edges to differ ("0.000-0.005 sec", not
/// "0.00-0.01, 0.01-0.01").
fn interval_decimals(interval_ns: u64) -> usize {
    (2..9)
        .find(|&d| interval_ns >= 10u64.pow(9 - d as u32))
        .unwrap_or(9)
}

/// An iperf3-style report of the server's sending, one line per flow per
/// `interval` (and a `[SUM]` line with several flows): bytes the client
/// application read in the interval, the bitrate that makes, segments the
/// server retransmitted, and its cwnd at the interval's end (in KBytes,
/// cwnd × MSS, as iperf3 prints `snd_cwnd`). Read from the periodic samples
/// in the trace, as iperf3 reads `TCP_INFO`, so it covers runs of any length;
/// interval edges fall on the scenario's `sample_interval`.
pub fn iperf(run: &RunResult, interval: crate::time::SimDuration) -> String {
    let interval_ns = interval.0.max(run.scenario.sample_interval.0);
    let mss = run.scenario.server.sender.mss as u64;
    let flows: Vec<_> = (0..run.scenario.flows as u16)
        .map(|f| samples(run, f))
        .collect();
    let end = flows
        .iter()
        .filter_map(|s| s.last().map(|x| x.0))
        .max()
        .unwrap_or(0);
    let id = |f: usize| 5 + 2 * f;
    let (d, w) = (
        interval_decimals(interval_ns),
        interval_decimals(interval_ns) + 4,
    );
    let line =
        |out: &mut String, tag: &str, a: u64, b: u64, bytes: u64, retr: u64, cwnd: Option<u64>| {
            let secs = (b - a) as f64 / 1e9;
            let rate = if secs > 0.0 {
                bytes as f64 * 8.0 / secs / 1e6
            } else {
                0.0
            };
            let _ = write!(
                out,
                "[{tag:>3}] {:>w$}-{:<w$} sec  {:>6} MBytes  {:>6} Mbits/sec  {:>4}",
                crate::decimal_text::fixed(a as f64 / 1e9, d),
                crate::decimal_text::fixed(b as f64 / 1e9, d),
                crate::decimal_text::fixed(bytes as f64 / 1048576.0, 2),
                crate::decimal_text::fixed(rate, 1),
                retr,
            );
            let _ = match cwnd {
                Some(c) => writeln!(out, "  {:>6} KBytes", c * mss / 1024),
                None => writeln!(out),
            };
        };
    let mut out =
        String::from("[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n");
    let many = flows.len() > 1;
    let mut start = 0u64;
    while start < end {
        let stop = (start + interval_ns).min(end);
        let (mut sum_bytes, mut sum_retr) = (0, 0);
        for (f, s) in flows.iter().enumerate() {
            let (d0, r0, _) = at(s, start);
            let (d1, r1, cwnd) = at(s, stop);
            line(
                &mut out,
                &id(f).to_string(),
                start,
                stop,
                d1 - d0,
                r1 - r0,
                Some(cwnd as u64),
            );
            sum_bytes += d1 - d0;
            sum_retr += r1 - r0;
        }
        if many {
            line(&mut out, "SUM", start, stop, sum_bytes, sum_retr, None);
        }
        start = stop;
    }
    let _ = writeln!(out, "- - - - - - - - - - - - - - - - - - - - - - - - -");
    let (mut sum_bytes, mut sum_retr) = (0, 0);
    for (f, s) in flows.iter().enumerate() {
        let (d, r, _) = at(s, end);
        line(&mut out, &id(f).to_string(), 0, end, d, r, None);
        sum_bytes += d;
        sum_retr += r;
    }
    if many {
        line(&mut out, "SUM", 0, end, sum_bytes, sum_retr, None);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Scenario;
    use crate::time::SimDuration;

    #[test]
    fn interval_edges_have_the_decimals_the_interval_needs() {
        assert_eq!(interval_decimals(1_000_000_000), 2);
        assert_eq!(interval_decimals(10_000_000), 2);
        assert_eq!(interval_decimals(5_000_000), 3);
        assert_eq!(interval_decimals(350_000), 4);
        assert_eq!(interval_decimals(1), 9);
    }

    #[test]
    fn short_intervals_print_distinct_edges() {
        // The default case over its 50 ms, in 5 ms intervals (the widget's
        // iperf panel takes about a tenth of the run).
        let s = Scenario {
            sample_interval: SimDuration::from_millis(1),
            ..Scenario::default()
        };
        let run = crate::sim::run(&s).unwrap();
        let out = iperf(&run, SimDuration::from_millis(5));
        let edges: Vec<&str> = out
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with('-'))
            .map(|l| l[6..].split(" sec").next().unwrap().trim())
            .collect();
        assert!(edges.len() > 2, "{out}");
        assert_eq!(edges[0], "0.000-0.005", "{out}");
        assert_eq!(edges[1], "0.005-0.010", "{out}");
        for e in &edges {
            let (a, b) = e.split_once('-').unwrap();
            assert_ne!(a.trim(), b.trim(), "{out}");
        }
    }
}
