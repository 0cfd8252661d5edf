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
    /// `sk_pacing_rate`, bytes per second (0: not paced).
    pacing_rate: u64,
    /// The algorithm's mode, for algorithms that have modes (BBR).
    cc_mode: Option<&'static str>,
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
            pacing_rate: 0,
            cc_mode: None,
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
            TraceEvent::PacingRate {
                side: Side::Server,
                bytes_per_sec,
            } => {
                self.pacing_rate = bytes_per_sec;
                true
            }
            TraceEvent::CcMode {
                side: Side::Server,
                mode,
            } => {
                self.cc_mode = Some(mode);
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
/// `time_ms,cwnd,ssthresh,bytes_in_flight,rwnd,srtt_ms,pacing_rate_bps,cc_mode`.
/// ssthresh is empty while it is still the "infinite" initial value, srtt
/// until the first sample; bytes in flight are bytes sent above the highest
/// cumulative ACK received; the pacing rate is in bits per second (0 when the
/// sender does not pace); the mode is empty for algorithms without modes.
pub fn csv_series(run: &RunResult) -> String {
    let mut out = String::from(
        "time_ms,cwnd,ssthresh,bytes_in_flight,rwnd,srtt_ms,pacing_rate_bps,cc_mode\n",
    );
    let mut v = SenderView::new(run);
    for r in run.trace.flow_records(0) {
        if v.apply(&r.event) {
            let st = v.ssthresh.map_or(String::new(), |s| s.to_string());
            let rtt = v
                .srtt_ns
                .map_or(String::new(), |ns| format!("{:.3}", ns as f64 / 1e6));
            let _ = writeln!(
                out,
                "{:.6},{},{st},{},{},{rtt},{},{}",
                r.time.as_millis_f64(),
                v.cwnd,
                v.high.saturating_sub(v.una),
                v.rwnd,
                v.pacing_rate * 8,
                v.cc_mode.unwrap_or(""),
            );
        }
    }
    out
}

/// `, sack {a:b c:d}` as tcpdump prints the option, or nothing.
fn sack_list(seg: &Segment) -> String {
    if seg.sack.is_empty() {
        return String::new();
    }
    let blocks: Vec<String> = seg
        .sack
        .as_slice()
        .iter()
        .map(|(a, b)| format!("{a}:{b}"))
        .collect();
    format!(", sack {{{}}}", blocks.join(" "))
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
/// sequence numbers), plus timer and cwnd events; with several flows each
/// line names its flow.
pub fn trace_lines(run: &RunResult) -> String {
    let mut out = String::new();
    let many = run.scenario.flows > 1;
    for r in run.trace.records() {
        let t = r.time.as_secs_f64();
        if many {
            let _ = write!(out, "[flow {}] ", r.flow);
        }
        let _ = match r.event {
            TraceEvent::SegmentSent {
                seg,
                flight,
                retransmit,
                arrives,
                ..
            } => writeln!(
                out,
                "{t:.6} {} > {}: Flags [{}], seq {}:{}, ack {}, win {}, length {}{}{}{}{}",
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
                sack_list(&seg),
                if retransmit { ", retransmission" } else { "" },
                if arrives.is_none() { ", DROPPED" } else { "" },
            ),
            TraceEvent::Sample {
                delivered, info, ..
            } => writeln!(
                out,
                "{t:.6} sample: delivered {delivered} retrans {} cwnd {} in_flight {} srtt {:.3} ms pacing {:.3} Mbit/s",
                info.total_retrans,
                info.cwnd,
                info.in_flight,
                info.srtt_ns as f64 / 1e6,
                info.pacing_rate as f64 * 8.0 / 1e6
            ),
            TraceEvent::CcMode { side, mode } => {
                writeln!(out, "{t:.6} {} congestion control mode {mode}", side.name())
            }
            TraceEvent::PacingRate {
                side,
                bytes_per_sec,
            } => writeln!(
                out,
                "{t:.6} {} pacing rate {:.3} Mbit/s",
                side.name(),
                bytes_per_sec as f64 * 8.0 / 1e6
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
                    "{t:.6} {} enters fast recovery, first lost seq {seq}",
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
            TraceEvent::SendHeld {
                side,
                reason,
                bytes,
            } => writeln!(
                out,
                "{t:.6} {} holds {bytes} bytes back ({reason})",
                side.name()
            ),
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

/// One row per periodic sample (every `sample_interval`, and at the end),
/// for every flow: the client's bytes read, the server socket's `TCP_INFO`
/// (cwnd, ssthresh, in flight, RTT, RTO, pacing rate, retransmissions, the
/// peer's window), its send buffer (size, charged, not yet sent) and the
/// client's receive buffer (size, unread). Unlike `csv_series`, it reads only
/// the samples, so it covers runs of any length; set `sample_interval` as fine
/// as 1 ms for short transfers.
pub fn csv_samples(run: &RunResult) -> String {
    let mut out = String::from(
        "time_ms,flow,delivered_bytes,cwnd,ssthresh,in_flight,srtt_ms,rto_ms,pacing_rate_bps,retransmits,snd_wnd,sndbuf,wmem_queued,notsent_bytes,rcvbuf,rcv_unread\n",
    );
    for r in run.trace.summary_records() {
        let TraceEvent::Sample {
            delivered,
            info,
            client,
        } = r.event
        else {
            continue;
        };
        let _ = writeln!(
            out,
            "{:.3},{},{delivered},{},{},{},{:.3},{:.0},{},{},{},{},{},{},{},{}",
            r.time.0 as f64 / 1e6,
            r.flow,
            info.cwnd,
            info.ssthresh.map_or(String::new(), |s| s.to_string()),
            info.in_flight,
            info.srtt_ns as f64 / 1e6,
            info.rto_ns as f64 / 1e6,
            info.pacing_rate * 8,
            info.total_retrans,
            info.snd_wnd,
            info.sndbuf,
            info.wmem_queued,
            info.notsent_bytes,
            client.rcvbuf,
            client.unread,
        );
    }
    out
}

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
                "[{tag:>3}] {:>6.2}-{:<6.2} sec  {:>6.2} MBytes  {:>6.1} Mbits/sec  {:>4}",
                a as f64 / 1e9,
                b as f64 / 1e9,
                bytes as f64 / 1048576.0,
                rate,
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

/// An `ss -tin`-style line for the server's socket at the end of the run:
/// congestion control, window scales, RTO, RTT, MSS, cwnd, ssthresh, bytes and
/// segments, and the send rate cwnd allows (`send` = cwnd × MSS × 8 / srtt).
///
/// It reads the run's last `TCP_INFO` sample (taken at the end of every run),
/// not the packet records, so it stays exact past the trace's packet budget.
pub fn ss_line(run: &RunResult) -> String {
    let info = run
        .trace
        .flow_summary(0)
        .filter_map(|r| match r.event {
            TraceEvent::Sample { info, .. } => Some(info),
            _ => None,
        })
        .last()
        .unwrap_or_default();
    ss_line_of(&run.scenario, &info)
}

/// The `ss -tin` line for the server socket of `scenario` with `info` (any
/// sample, e.g. the one in effect at a widget's time cursor).
pub fn ss_line_of(sc: &crate::config::Scenario, info: &crate::tcp::info::TcpInfo) -> String {
    let mss = sc.server.sender.mss as u64;
    let ws = if sc.client.receiver.window_scaling && sc.server.receiver.window_scaling {
        format!(
            " wscale:{},{}",
            sc.client.receiver.wscale, sc.server.receiver.wscale
        )
    } else {
        String::new()
    };
    let srtt = info.srtt_ns;
    let send = if srtt > 0 {
        (info.cwnd as u64 * mss * 8) as f64 / (srtt as f64 / 1e9) / 1e6
    } else {
        0.0
    };
    let c = info.counters;
    format!(
        "{}{ws} rto:{:.0} rtt:{:.3}/{:.3} mss:{mss} cwnd:{}{} bytes_sent:{} bytes_retrans:{} bytes_acked:{} segs_out:{} segs_in:{} data_segs_out:{} send {send:.1}Mbps\n",
        sc.server.sender.congestion_control.name(),
        info.rto_ns as f64 / 1e6,
        srtt as f64 / 1e6,
        info.rttvar_ns as f64 / 1e6,
        info.cwnd,
        info.ssthresh
            .map_or(String::new(), |s| format!(" ssthresh:{s}")),
        c.bytes_sent,
        c.bytes_retrans,
        info.bytes_acked,
        c.segs_out,
        c.segs_in,
        c.data_segs_out,
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

/// The settings in effect for a run, by the names Linux gives them (sysctls,
/// socket options, route attributes) and the path's: what a widget's
/// "settings" panel lists next to its sliders.
pub fn settings(sc: &crate::config::Scenario) -> Vec<(String, String)> {
    use crate::config::{DelayedAck, Nagle};
    use crate::units::{format_bytes, format_duration, format_rate};
    let on = |b: bool| if b { "1" } else { "0" }.to_string();
    let srv = &sc.server.sender;
    let cli = &sc.client.receiver;
    let p = &sc.path;
    let mut out = vec![
        ("path rate".to_string(), format_rate(p.rate_bps)),
        ("path RTT".to_string(), format_duration(p.rtt())),
        ("bottleneck queue".to_string(), format_bytes(p.queue_bytes)),
        ("random loss".to_string(), format!("{}", p.loss)),
        (
            "net.ipv4.tcp_congestion_control".to_string(),
            srv.congestion_control.name().to_string(),
        ),
        ("initcwnd (route)".to_string(), srv.initcwnd.to_string()),
        ("MSS".to_string(), format!("{} B", srv.mss)),
        (
            "server sk_sndbuf".to_string(),
            if srv.sndbuf_autotune {
                format!(
                    "{} (autotuned up to {})",
                    format_bytes(srv.sndbuf),
                    format_bytes(srv.sndbuf_max)
                )
            } else {
                format!("{} (SO_SNDBUF, doubled)", format_bytes(srv.sndbuf))
            },
        ),
        (
            "client sk_rcvbuf".to_string(),
            if cli.autotune {
                format!(
                    "{} (autotuned up to {})",
                    format_bytes(cli.rcvbuf),
                    format_bytes(cli.rcvbuf_max)
                )
            } else {
                format!("{} (SO_RCVBUF, doubled)", format_bytes(cli.rcvbuf))
            },
        ),
        (
            "client SYN window".to_string(),
            format!("{} B", cli.syn_window),
        ),
        (
            "net.ipv4.tcp_window_scaling".to_string(),
            on(cli.window_scaling && sc.server.receiver.window_scaling),
        ),
        (
            "net.ipv4.tcp_sack".to_string(),
            on(srv.sack && sc.client.sender.sack),
        ),
        (
            "net.ipv4.tcp_slow_start_after_idle".to_string(),
            on(srv.slow_start_after_idle),
        ),
    ];
    for (who, s) in [("client", &sc.client.sender), ("server", srv)] {
        let nagle = match s.nagle {
            Nagle::Off => "TCP_NODELAY (Nagle off)",
            Nagle::Minshall => "Nagle on (Linux, Minshall's check)",
            Nagle::Classic => "Nagle on (classic RFC 896)",
        };
        out.push((format!("{who} Nagle"), nagle.to_string()));
        if s.cork {
            out.push((format!("{who} TCP_CORK"), "1".to_string()));
        }
    }
    for (who, r) in [("client", cli), ("server", &sc.server.receiver)] {
        let ack = match &r.delayed_ack {
            _ if r.quickack => "off (quickack)".to_string(),
            DelayedAck::Linux => "Linux (quick-ACK mode, 40 ms+ timer)".to_string(),
            DelayedAck::Fixed(d) => format!("every 2nd segment or {}", format_duration(*d)),
            DelayedAck::Off => "off".to_string(),
        };
        out.push((format!("{who} delayed ACK"), ack));
    }
    out
}
