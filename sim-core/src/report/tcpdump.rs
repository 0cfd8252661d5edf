//! `tcpsim --format trace`: every segment sent, as tcpdump prints it, and
//! between them the sockets' timers, cwnd and RTT changes and the flows'
//! samples, one sentence a record.
//!
//! Each kind has its own sentence, choosing and scaling the fields it shows,
//! so the lines match on the kind (see `trace::fields` for why they do not
//! walk the fields). Received and dropped segments print nothing: the sent
//! line already says where each segment went.

use crate::segment::Segment;
use crate::sim::RunResult;
use crate::time::SimTime;
use crate::trace::{TraceEvent, TraceRecord};
use std::fmt::{self, Write};

/// A tcpdump-like listing of every packet event (times in seconds, relative
/// sequence numbers), plus timer and cwnd events; with several flows each
/// line names its flow.
pub fn trace_lines(run: &RunResult) -> String {
    let mut out = String::new();
    let many = run.scenario.flows > 1;
    for r in run.trace.records() {
        if many {
            // Written for every record, also the received and dropped
            // segments that print no line: their prefix runs on into the
            // next line ("[flow 0] [flow 0] 0.105000 server > ..."). Kept
            // as it is, since the outputs are pinned byte for byte.
            let _ = write!(out, "[flow {}] ", r.flow);
        }
        let _ = line(&mut out, &r);
    }
    out
}

/// The line for one record, if it has one.
fn line(out: &mut String, r: &TraceRecord) -> fmt::Result {
    let t = r.time.as_secs_f64();
    match r.event {
        TraceEvent::SegmentSent {
            seg,
            flight,
            retransmit,
            arrives,
            ..
        } => segment_sent(out, t, &seg, flight, retransmit, arrives),
        TraceEvent::SegmentReceived { .. } | TraceEvent::SegmentDropped { .. } => Ok(()),
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
        TraceEvent::TransferComplete {
            index,
            bytes,
            started,
        } => writeln!(
            out,
            "{t:.6} transfer {index}: client has read all {bytes} bytes ({:.3} ms after it started)",
            r.time.since(started).as_millis_f64()
        ),
        _ => socket_line(out, t, &r.event),
    }
}

/// A sent segment, as tcpdump prints it, with the simulator's additions:
/// the slow-start flight, a retransmission, a drop at the bottleneck.
fn segment_sent(
    out: &mut String,
    t: f64,
    seg: &Segment,
    flight: u32,
    retransmit: bool,
    arrives: Option<SimTime>,
) -> fmt::Result {
    writeln!(
        out,
        "{t:.6} {} > {}: Flags [{}], seq {}:{}, ack {}, win {}, length {}{}{}{}{}",
        seg.from.name(),
        seg.from.peer().name(),
        flags(seg),
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
        sack_list(seg),
        if retransmit { ", retransmission" } else { "" },
        if arrives.is_none() { ", DROPPED" } else { "" },
    )
}

/// A record of one socket's state: its timers, cwnd, RTT estimate, pacing
/// and congestion-control mode, what it holds back; its losses and its end
/// in `loss_line`.
fn socket_line(out: &mut String, t: f64, event: &TraceEvent) -> fmt::Result {
    match *event {
        TraceEvent::CwndChanged {
            side,
            old,
            new,
            ssthresh,
        } => writeln!(
            out,
            "{t:.6} {} cwnd {old} -> {new} (ssthresh {ssthresh})",
            side.name()
        ),
        TraceEvent::DelayedAckArmed { side, deadline } => writeln!(
            out,
            "{t:.6} {} delayed ACK timer set for {:.6}",
            side.name(),
            deadline.as_secs_f64()
        ),
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
        TraceEvent::RtoFired { .. }
        | TraceEvent::FastRetransmit { .. }
        | TraceEvent::LossProbe { .. }
        | TraceEvent::Aborted { .. }
        | TraceEvent::Reset { .. } => loss_line(out, t, event),
        // Segments, samples and transfers have their lines in `line`.
        TraceEvent::SegmentSent { .. }
        | TraceEvent::SegmentReceived { .. }
        | TraceEvent::SegmentDropped { .. }
        | TraceEvent::Sample { .. }
        | TraceEvent::TransferComplete { .. } => Ok(()),
    }
}

/// A loss event of one socket: a timeout, fast recovery, a tail-loss probe,
/// giving up, a reset by the peer.
fn loss_line(out: &mut String, t: f64, event: &TraceEvent) -> fmt::Result {
    match *event {
        TraceEvent::RtoFired { side, rto_ns } => writeln!(
            out,
            "{t:.6} {} retransmission timeout ({:.0} ms)",
            side.name(),
            rto_ns as f64 / 1e6
        ),
        TraceEvent::FastRetransmit { side, seq } => writeln!(
            out,
            "{t:.6} {} enters fast recovery, first lost seq {seq}",
            side.name()
        ),
        TraceEvent::LossProbe { side, seq } => {
            writeln!(out, "{t:.6} {} tail-loss probe, seq {seq}", side.name())
        }
        TraceEvent::Aborted { side, retries } => writeln!(
            out,
            "{t:.6} {} gives up after {retries} unanswered retransmissions or probes",
            side.name()
        ),
        TraceEvent::Reset { side } => writeln!(
            out,
            "{t:.6} {} connection reset by peer (ECONNRESET)",
            side.name()
        ),
        _ => Ok(()),
    }
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
    // tcpdump prints R after S and F, then P, then the ACK's dot ("[R.]",
    // "[P.]").
    if seg.flags.rst {
        f.push('R');
    }
    if seg.flags.psh {
        f.push('P');
    }
    if seg.flags.ack {
        f.push('.');
    }
    f
}
