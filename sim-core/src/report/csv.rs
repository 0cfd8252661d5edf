//! The two CSV outputs: `tcpsim --format csv`, a row per change of the data
//! sender's state as its packet records reveal it, and `--format samples`,
//! a row per periodic `TCP_INFO` sample of every flow.

use crate::segment::{Segment, Side};
use crate::sim::RunResult;
use crate::trace::{TraceEvent, TraceRecord};
use std::fmt::Write;

/// The data sender's (the server's) state as its trace reveals it, folded
/// record by record, for the CSV series.
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
            } if seg.from == Side::Server => self.sent(&seg, retransmit),
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
            } => self.received(&seg),
            _ => false,
        }
    }

    /// The server sent `seg`; true when it carried data.
    fn sent(&mut self, seg: &Segment, retransmit: bool) -> bool {
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

    /// The server received `seg`; true when it was an ACK past the handshake.
    fn received(&mut self, seg: &Segment) -> bool {
        self.segs_in += 1;
        if !seg.flags.ack || seg.flags.syn {
            return false;
        }
        self.una = self.una.max(seg.ack);
        self.rwnd = seg.wnd;
        true
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
            let rtt = v.srtt_ns.map_or(String::new(), |ns| {
                crate::decimal_text::fixed(ns as f64 / 1e6, 3)
            });
            let _ = writeln!(
                out,
                "{},{},{st},{},{},{rtt},{},{}",
                crate::decimal_text::fixed(r.time.as_millis_f64(), 6),
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

/// One row per periodic sample (every `sample_interval`, and at the end),
/// for every flow: the client's bytes read, the server socket's `TCP_INFO`
/// (cwnd, ssthresh, in flight, RTT, RTO, pacing rate, retransmissions, the
/// peer's window), its send buffer (size, charged, not yet sent) and the
/// client's receive buffer (size, unread). Unlike `csv_series`, it reads only
/// the samples, so it covers runs of any length; set `sample_interval` as fine
/// as 1 ms for short transfers.
pub fn csv_samples(run: &RunResult) -> String {
    csv_samples_of(run.trace.summary_records())
}

/// [`csv_samples`] of the `Sample` records among `records` (other records
/// are skipped): for a caller that kept only the samples of a run.
pub fn csv_samples_of<'a>(records: impl IntoIterator<Item = &'a TraceRecord>) -> String {
    let mut out = String::from(
        "time_ms,flow,delivered_bytes,cwnd,ssthresh,in_flight,srtt_ms,rto_ms,pacing_rate_bps,retransmits,snd_wnd,sndbuf,wmem_queued,notsent_bytes,rcvbuf,rcv_unread\n",
    );
    for r in records {
        let TraceEvent::Sample {
            delivered,
            info,
            client,
            ..
        } = r.event
        else {
            continue;
        };
        let _ = writeln!(
            out,
            "{},{},{delivered},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            crate::decimal_text::fixed(r.time.0 as f64 / 1e6, 3),
            r.flow,
            info.cwnd,
            info.ssthresh.map_or(String::new(), |s| s.to_string()),
            info.in_flight,
            crate::decimal_text::fixed(info.srtt_ns as f64 / 1e6, 3),
            crate::decimal_text::fixed(info.rto_ns as f64 / 1e6, 0),
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
