//! Text reports derived from a run's trace: a CSV time series of the data
//! sender's state and a tcpdump-like packet listing. (The JSON summary is
//! assembled by `tcpsim` from [`crate::analysis::Summary`].)

use crate::segment::{Segment, Side};
use crate::sim::RunResult;
use crate::trace::TraceEvent;
use std::fmt::Write;

/// The data sender's (the server's) state as its trace reveals it, folded
/// record by record. The CSV series and the `ss` line both read it.
struct SenderView {
    cwnd: u32,
    /// None while still the "infinite" initial value.
    ssthresh: Option<u32>,
    /// None until the first RTT sample.
    srtt_ns: Option<u64>,
    rttvar_ns: u64,
    rto_ns: u64,
    /// Highest data sequence number sent, and highest cumulative ACK received.
    high: u64,
    una: u64,
    rwnd: u64,
    segs_out: u64,
    data_segs_out: u64,
    bytes_sent: u64,
    bytes_retrans: u64,
    segs_in: u64,
}

impl SenderView {
    fn new(run: &RunResult) -> Self {
        SenderView {
            cwnd: run.scenario.server.sender.initcwnd,
            ssthresh: None,
            srtt_ns: None,
            rttvar_ns: 0,
            rto_ns: crate::config::TCP_TIMEOUT_INIT.0,
            high: 1,
            una: 1,
            rwnd: 0,
            segs_out: 0,
            data_segs_out: 0,
            bytes_sent: 0,
            bytes_retrans: 0,
            segs_in: 0,
        }
    }

    /// Take in one trace event; true when a column of the CSV series changed.
    fn apply(&mut self, event: &TraceEvent) -> bool {
        match *event {
            TraceEvent::CwndChanged {
                side: Side::Server,
                new,
                ssthresh,
                ..
            } => {
                self.cwnd = new;
                self.ssthresh = (ssthresh < crate::cc::TCP_INFINITE_SSTHRESH).then_some(ssthresh);
                true
            }
            TraceEvent::RttSample {
                side: Side::Server,
                srtt_ns,
                rttvar_ns,
                rto_ns,
                ..
            } => {
                (self.srtt_ns, self.rttvar_ns, self.rto_ns) = (Some(srtt_ns), rttvar_ns, rto_ns);
                true
            }
            TraceEvent::SegmentSent {
                seg, retransmit, ..
            } if seg.from == Side::Server => {
                self.segs_out += 1;
                if seg.len == 0 {
                    return false;
                }
                self.data_segs_out += 1;
                self.bytes_sent += seg.len as u64;
                if retransmit {
                    self.bytes_retrans += seg.len as u64;
                }
                self.high = self.high.max(seg.end_seq());
                true
            }
            TraceEvent::SegmentReceived {
                to: Side::Server,
                seg,
            } => {
                self.segs_in += 1;
                if !seg.flags.ack || seg.flags.syn {
                    return false;
                }
                self.una = self.una.max(seg.ack);
                self.rwnd = seg.wnd;
                true
            }
            _ => false,
        }
    }
}

/// One row per change of the server's (the data sender's) state:
/// `time_ms,cwnd,ssthresh,bytes_in_flight,rwnd,srtt_ms`. ssthresh is empty
/// while it is still the "infinite" initial value, srtt until the first
/// sample; bytes in flight are bytes sent above the highest cumulative ACK
/// received.
pub fn csv_series(run: &RunResult) -> String {
    let mut out = String::from("time_ms,cwnd,ssthresh,bytes_in_flight,rwnd,srtt_ms\n");
    let mut v = SenderView::new(run);
    for r in run.trace.records() {
        if v.apply(&r.event) {
            let st = v.ssthresh.map_or(String::new(), |s| s.to_string());
            let rtt = v
                .srtt_ns
                .map_or(String::new(), |ns| format!("{:.3}", ns as f64 / 1e6));
            let _ = writeln!(
                out,
                "{:.6},{},{st},{},{},{rtt}",
                r.time.as_millis_f64(),
                v.cwnd,
                v.high.saturating_sub(v.una),
                v.rwnd,
            );
        }
    }
    out
}

fn flags(seg: &Segment) -> String {
    let mut f = String::new();
    if seg.flags.syn {
        f.push('S');
    }
    if seg.flags.fin {
        f.push('F');
    }
    if seg.flags.ack {
        f.push('.');
    }
    f
}

/// A tcpdump-like listing of every packet event (times in seconds, relative
/// sequence numbers), plus timer and cwnd events.
pub fn trace_lines(run: &RunResult) -> String {
    let mut out = String::new();
    for r in run.trace.records() {
        let t = r.time.as_secs_f64();
        let _ = match r.event {
            TraceEvent::SegmentSent {
                seg,
                flight,
                retransmit,
                arrives,
                ..
            } => writeln!(
                out,
                "{t:.6} {} > {}: Flags [{}], seq {}:{}, ack {}, win {}, length {}{}{}{}",
                seg.from.name(),
                seg.from.peer().name(),
                flags(&seg),
                seg.seq,
                seg.end_seq(),
                seg.ack,
                seg.wnd,
                seg.len,
                if flight > 0 {
                    format!(", flight {flight}")
                } else {
                    String::new()
                },
                if retransmit { ", retransmission" } else { "" },
                if arrives.is_none() { ", DROPPED" } else { "" },
            ),
            TraceEvent::SegmentReceived { .. } | TraceEvent::SegmentDropped { .. } => Ok(()),
            TraceEvent::CwndChanged {
                side,
                old,
                new,
                ssthresh,
            } => {
                writeln!(
                    out,
                    "{t:.6} {} cwnd {old} -> {new} (ssthresh {ssthresh})",
                    side.name()
                )
            }
            TraceEvent::RtoFired { side, rto_ns } => {
                writeln!(
                    out,
                    "{t:.6} {} retransmission timeout ({:.0} ms)",
                    side.name(),
                    rto_ns as f64 / 1e6
                )
            }
            TraceEvent::DelayedAckArmed { side, deadline } => {
                writeln!(
                    out,
                    "{t:.6} {} delayed ACK timer set for {:.6}",
                    side.name(),
                    deadline.as_secs_f64()
                )
            }
            TraceEvent::Established { side } => writeln!(out, "{t:.6} {} established", side.name()),
            TraceEvent::RttSample {
                side,
                sample_ns,
                srtt_ns,
                ..
            } => writeln!(
                out,
                "{t:.6} {} rtt sample {:.3} ms, srtt {:.3} ms",
                side.name(),
                sample_ns as f64 / 1e6,
                srtt_ns as f64 / 1e6
            ),
            TraceEvent::FastRetransmit { side, seq } => {
                writeln!(
                    out,
                    "{t:.6} {} fast retransmit of seq {seq} (3 duplicate ACKs)",
                    side.name()
                )
            }
            TraceEvent::Aborted { side, retries } => {
                writeln!(
                    out,
                    "{t:.6} {} gives up after {retries} unanswered retransmissions or probes",
                    side.name()
                )
            }
            TraceEvent::ZeroWindowProbe { side, probes } => {
                writeln!(out, "{t:.6} {} zero-window probe #{probes}", side.name())
            }
            TraceEvent::TransferComplete {
                index,
                bytes,
                started,
            } => writeln!(
                out,
                "{t:.6} transfer {index}: client has read all {bytes} bytes ({:.3} ms after it started)",
                r.time.since(started).as_millis_f64()
            ),
        };
    }
    out
}

/// An iperf3-style report of the server's sending, one line per `interval`:
/// bytes the client received in order in the interval, the bitrate that makes,
/// segments the server retransmitted, and its cwnd at the interval's end (in
/// KBytes, cwnd × MSS, as iperf3 prints `snd_cwnd`).
pub fn iperf(run: &RunResult, interval: crate::time::SimDuration) -> String {
    let interval_ns = interval.0.max(1_000_000);
    let end = run.trace.records().last().map_or(0, |r| r.time.0);
    let mss = run.scenario.server.sender.mss as u64;
    let mut out =
        String::from("[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n");
    let (mut delivered, mut cwnd) = (1u64, run.scenario.server.sender.initcwnd);
    let mut records = run.trace.records().iter().peekable();
    let (mut total_bytes, mut total_retr) = (0u64, 0u64);
    let mut start = 0u64;
    while start < end {
        let stop = (start + interval_ns).min(end);
        let (mut bytes, mut retr) = (0u64, 0u64);
        while let Some(r) = records.next_if(|r| r.time.0 <= stop) {
            match r.event {
                TraceEvent::SegmentReceived {
                    to: Side::Client,
                    seg,
                } if seg.len > 0 && seg.seq == delivered => {
                    bytes += seg.len as u64;
                    delivered += seg.len as u64;
                }
                TraceEvent::SegmentSent {
                    seg,
                    retransmit: true,
                    ..
                } if seg.from == Side::Server => retr += 1,
                TraceEvent::CwndChanged {
                    side: Side::Server,
                    new,
                    ..
                } => cwnd = new,
                _ => {}
            }
        }
        let secs = (stop - start) as f64 / 1e9;
        let _ = writeln!(
            out,
            "[  5] {:>6.2}-{:<6.2} sec  {:>6.2} MBytes  {:>6.1} Mbits/sec  {:>4}  {:>6} KBytes",
            start as f64 / 1e9,
            stop as f64 / 1e9,
            bytes as f64 / 1048576.0,
            bytes as f64 * 8.0 / secs / 1e6,
            retr,
            cwnd as u64 * mss / 1024,
        );
        total_bytes += bytes;
        total_retr += retr;
        start = stop;
    }
    let secs = end as f64 / 1e9;
    let _ = writeln!(out, "- - - - - - - - - - - - - - - - - - - - - - - - -");
    let _ = writeln!(
        out,
        "[  5] {:>6.2}-{:<6.2} sec  {:>6.2} MBytes  {:>6.1} Mbits/sec  {:>4}             receiver",
        0.0,
        secs,
        total_bytes as f64 / 1048576.0,
        if secs > 0.0 {
            total_bytes as f64 * 8.0 / secs / 1e6
        } else {
            0.0
        },
        total_retr,
    );
    out
}

/// An `ss -tin`-style line for the server's socket at the end of the run:
/// congestion control, window scales, RTO, RTT, MSS, cwnd, ssthresh, bytes and
/// segments, and the send rate cwnd allows (`send` = cwnd × MSS × 8 / srtt).
pub fn ss_line(run: &RunResult) -> String {
    let sc = &run.scenario;
    let mut v = SenderView::new(run);
    for r in run.trace.records() {
        v.apply(&r.event);
    }
    let mss = sc.server.sender.mss as u64;
    let ws = if sc.client.receiver.window_scaling && sc.server.receiver.window_scaling {
        format!(
            " wscale:{},{}",
            sc.client.receiver.wscale, sc.server.receiver.wscale
        )
    } else {
        String::new()
    };
    let srtt = v.srtt_ns.unwrap_or(0);
    let send = if srtt > 0 {
        (v.cwnd as u64 * mss * 8) as f64 / (srtt as f64 / 1e9) / 1e6
    } else {
        0.0
    };
    format!(
        "{}{ws} rto:{:.0} rtt:{:.3}/{:.3} mss:{mss} cwnd:{}{} bytes_sent:{} bytes_retrans:{} bytes_acked:{} segs_out:{} segs_in:{} data_segs_out:{} send {send:.1}Mbps\n",
        sc.server.sender.congestion_control.name(),
        v.rto_ns as f64 / 1e6,
        srtt as f64 / 1e6,
        v.rttvar_ns as f64 / 1e6,
        v.cwnd,
        v.ssthresh
            .map_or(String::new(), |s| format!(" ssthresh:{s}")),
        v.bytes_sent,
        v.bytes_retrans,
        v.una.saturating_sub(1),
        v.segs_out,
        v.segs_in,
        v.data_segs_out,
    )
}

/// `ip tcp_metrics show` for the server's cache of the client, at the end of the run.
pub fn tcp_metrics_show(run: &RunResult) -> String {
    let end = run
        .trace
        .records()
        .last()
        .map_or(crate::time::SimTime::ZERO, |r| r.time);
    run.tcp_metrics.show("client", end)
}
