//! A TCP endpoint as a poll-style state machine (sans-IO).
//!
//! The simulator feeds it segments and timeouts and asks it what to send:
//!
//! ```text
//!   handle_segment(now, seg) ─┐                 ┌─► poll_transmit(now) → Option<Segment>
//!   handle_timeout(now) ──────┼─► Socket state ─┤
//!   app_write(bytes) ─────────┘                 └─► poll_timeout() → Option<SimTime>
//! ```
//!
//! Both directions live in one socket, as in Linux: the send half (cwnd,
//! in-flight segments, RTO) and the receive half (rcv_nxt, the advertised
//! window, delayed ACK). This first slice recovers losses only by the
//! retransmission timeout, resending everything from `snd_una` (go-back-N);
//! out-of-order segments are answered with an immediate duplicate ACK and
//! discarded.

use super::ack_policy::{AckDecision, AckPolicy};
use super::idle_restart::cwnd_restart;
use super::reader::Reader;
use super::receive_window::ReceiveWindow;
use super::recovery::{Recovery, TCP_FASTRETRANS_THRESH};
use super::rtt::{RttEstimator, tcp_model_timeout};

/// `net.ipv4.tcp_syn_retries` default.
const TCP_SYN_RETRIES: u32 = 6;
use super::send_buffer::SendBuffer;
use crate::cc::{AckSample, Algorithm, CaState, ControlBlock, CwndEvent};
use crate::config::{HostConfig, Nagle};
use crate::segment::{Flags, Segment, Side};
use crate::time::{SimDuration, SimTime};
use crate::trace::{Trace, TraceEvent};
use std::collections::{BTreeMap, VecDeque};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Listen,
    SynSent,
    SynReceived,
    Established,
}

/// A data segment sent and not yet cumulatively acknowledged.
#[derive(Clone, Copy, Debug)]
struct InFlight {
    seq: u64,
    end: u64,
    flight: u32,
    sent_at: SimTime,
    retransmitted: bool,
}

pub struct Socket {
    side: Side,
    state: State,
    mss: u32,

    // ---- send half ----
    snd_una: u64,
    snd_nxt: u64,
    /// Highest sequence ever sent: below it, a send is a retransmission.
    snd_max: u64,
    /// Sequence number after the last byte the application wrote.
    write_end: u64,
    sbuf: SendBuffer,
    cork: bool,
    /// Corked: partial segments wait (TCP_CORK, `TCP_NAGLE_CORK`).
    corked: bool,
    /// The peer's advertised window, in bytes.
    snd_wnd: u64,
    /// End of the last sub-MSS segment sent (`snd_sml`, for Minshall's Nagle check).
    snd_sml: u64,
    cb: ControlBlock,
    cc: Algorithm,
    in_flight: VecDeque<InFlight>,
    /// `tcp_cwnd_validate` bookkeeping: was cwnd the limit in this window?
    max_packets_out: u32,
    cwnd_usage_seq: u64,
    is_cwnd_limited: bool,
    rtt: RttEstimator,
    rto_deadline: Option<SimTime>,
    /// Duplicate ACKs in a row (`tcp_add_reno_sack`).
    dupacks: u32,
    /// When the first retransmission of the current loss episode left (`retrans_stamp`).
    retrans_stamp: Option<SimTime>,
    /// Timeouts in a row (`icsk_retransmits`).
    retransmits: u32,
    recovery: Option<Recovery>,
    /// RFC 6582 `recover`: no new fast recovery until snd_una passes this.
    recover: u64,
    initcwnd: u32,
    slow_start_after_idle: bool,
    /// When data was last sent (`lsndtime`).
    lsndtime: Option<SimTime>,
    /// Slow-start flight the next data segment belongs to: one more than the
    /// newest flight whose ACK released it.
    next_flight: u32,
    syn_pending: bool,
    syn_sent_at: SimTime,
    syn_retransmitted: bool,

    // ---- receive half ----
    rcv_nxt: u64,
    /// `rcv_wup`: rcv_nxt when we last sent an ACK.
    rcv_wup: u64,
    rwin: ReceiveWindow,
    ack_now: bool,
    /// Out-of-order data held until the hole before it is filled: start → end.
    ooo: BTreeMap<u64, u64>,
    acks: AckPolicy,
    nagle: Nagle,
    app_received: u64,
    reader: Reader,
    read_tick: Option<SimTime>,

    // ---- zero-window probing (tcp_timer.c `tcp_probe_timer`) ----
    persist_deadline: Option<SimTime>,
    /// Probes sent since the last ACK arrived (`icsk_probes_out`).
    probes_out: u32,
    /// Doublings of the probe interval since the window last opened (`icsk_backoff`).
    probe_backoff: u32,
    /// Probes sent over the connection's life, for the trace.
    probes_total: u32,
    probe_pending: bool,
    retries2: u32,
    aborted: bool,
}

impl Socket {
    fn new(side: Side, state: State, cfg: &HostConfig) -> Self {
        let mss = cfg.sender.mss;
        Socket {
            side,
            state,
            mss,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            write_end: 1,
            cork: cfg.sender.cork,
            corked: false,
            sbuf: SendBuffer::new(
                cfg.sender.sndbuf,
                cfg.sender.sndbuf_max,
                cfg.sender.sndbuf_autotune,
                mss,
            ),
            snd_wnd: 0,
            snd_sml: 0,
            cb: ControlBlock::new(cfg.sender.initcwnd),
            cc: cfg.sender.congestion_control.clone(),
            in_flight: VecDeque::new(),
            max_packets_out: 0,
            cwnd_usage_seq: 0,
            is_cwnd_limited: false,
            rtt: RttEstimator::default(),
            rto_deadline: None,
            dupacks: 0,
            retrans_stamp: None,
            retransmits: 0,
            recovery: None,
            recover: 0,
            initcwnd: cfg.sender.initcwnd,
            slow_start_after_idle: cfg.sender.slow_start_after_idle,
            lsndtime: None,
            next_flight: 1,
            syn_pending: side == Side::Client,
            syn_sent_at: SimTime::ZERO,
            syn_retransmitted: false,
            rcv_nxt: 0,
            rcv_wup: 0,
            rwin: ReceiveWindow::new(&cfg.receiver, mss),
            ack_now: false,
            ooo: BTreeMap::new(),
            acks: AckPolicy::new(cfg.receiver.delayed_ack.clone(), cfg.receiver.quickack),
            nagle: cfg.sender.nagle,
            app_received: 0,
            reader: Reader::new(cfg.receiver.read_rate),
            read_tick: None,
            persist_deadline: None,
            probes_out: 0,
            probe_backoff: 0,
            probes_total: 0,
            probe_pending: false,
            retries2: cfg.sender.retries2,
            aborted: false,
        }
    }

    /// An active opener: its first `poll_transmit` is the SYN.
    pub fn connect(cfg: &HostConfig) -> Self {
        Socket::new(Side::Client, State::SynSent, cfg)
    }

    /// A passive opener waiting for a SYN.
    pub fn listen(cfg: &HostConfig) -> Self {
        Socket::new(Side::Server, State::Listen, cfg)
    }

    pub fn side(&self) -> Side {
        self.side
    }

    pub fn is_established(&self) -> bool {
        self.state == State::Established
    }

    /// Congestion window in segments.
    pub fn cwnd(&self) -> u32 {
        self.cb.cwnd
    }

    pub fn ssthresh(&self) -> u32 {
        self.cb.ssthresh
    }

    /// Segments sent and not yet acknowledged (`packets_out`).
    pub fn packets_out(&self) -> u32 {
        self.in_flight.len() as u32
    }

    /// Payload bytes the application has read.
    pub fn app_received(&self) -> u64 {
        self.app_received
    }

    /// Payload bytes written and acknowledged by the peer.
    pub fn bytes_acked(&self) -> u64 {
        self.snd_una.saturating_sub(1)
    }

    pub fn srtt(&self) -> Option<SimDuration> {
        self.rtt.srtt()
    }

    /// The application writes `bytes` more (an unlimited send buffer in this slice).
    /// `more`: the application has more of this message to write; with
    /// `TCP_CORK` the socket stays corked until the last write.
    pub fn app_write(&mut self, now: SimTime, bytes: u64, more: bool, trace: &mut Trace) {
        self.idle_restart_check(now, trace);
        self.corked = self.cork && more;
        self.sbuf.backlog += bytes;
        self.take_from_app();
    }

    /// Moves what the send buffer has room for from the application into the
    /// socket; the rest waits with the writer blocked.
    fn take_from_app(&mut self) {
        let queued = self.write_end.saturating_sub(self.snd_una);
        self.write_end += self.sbuf.accept(queued);
    }

    /// Bytes the application has written that the send buffer has not taken yet.
    pub fn app_backlog(&self) -> u64 {
        self.sbuf.backlog
    }

    /// `sk_sndbuf` now.
    pub fn sndbuf(&self) -> u64 {
        self.sbuf.sndbuf
    }

    /// `tcp_slow_start_after_idle_check`: a sender with nothing in flight that
    /// has been idle for longer than the RTO restarts from a smaller window.
    fn idle_restart_check(&mut self, now: SimTime, trace: &mut Trace) {
        let Some(last) = self.lsndtime else { return };
        if !self.slow_start_after_idle || self.packets_out() > 0 || self.state != State::Established
        {
            return;
        }
        let idle = now.since(last);
        let rto = self.rtt.rto();
        if idle <= rto {
            return;
        }
        let old = self.cb.cwnd;
        cwnd_restart(&mut self.cb, self.initcwnd, idle, rto);
        self.trace_cwnd(now, old, trace);
    }

    pub fn poll_timeout(&self) -> Option<SimTime> {
        if self.aborted {
            return None;
        }
        [
            self.rto_deadline,
            self.acks.deadline(),
            self.read_tick,
            self.persist_deadline,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// What `tcp_update_metrics` reads when this connection closes.
    pub fn closing(&self) -> super::metrics::Closing {
        super::metrics::Closing {
            srtt_ns: self.rtt.srtt().map(|d| d.0),
            rttvar_ns: self.rtt.rttvar().0,
            cwnd: self.cb.cwnd,
            ssthresh: self.cb.ssthresh,
            backed_off: self.rtt.backoff() > 0,
            recovering: self.recovery.is_some(),
        }
    }

    /// `tcp_init_metrics`: start with a cached ssthresh.
    pub fn set_initial_ssthresh(&mut self, ssthresh: u32) {
        self.cb.ssthresh = ssthresh.min(self.cb.cwnd_clamp).max(2);
    }

    /// The connection was given up (`tcp_write_err`): it sends nothing more.
    pub fn is_aborted(&self) -> bool {
        self.aborted
    }

    /// Bytes received and not yet read by the application.
    pub fn unread(&self) -> u64 {
        self.rwin.unread()
    }

    /// The application reads what its pace allows; a read that reopens the
    /// window enough sends a window update (`tcp_cleanup_rbuf`).
    fn app_read(&mut self, now: SimTime) {
        let want = self.reader.budget(now, self.rwin.unread());
        if want > 0 {
            self.app_received += self.rwin.read(now, want);
            if self.state == State::Established && self.rwin.update_worth_sending(self.rcv_nxt) {
                self.ack_now = true;
            }
        }
        self.read_tick = self.reader.next_tick(now, self.rwin.unread(), self.mss);
    }

    pub fn handle_timeout(&mut self, now: SimTime, trace: &mut Trace) {
        if self.read_tick.is_some_and(|t| t <= now) {
            self.app_read(now);
        }
        if self.persist_deadline.is_some_and(|t| t <= now) {
            self.persist_deadline = None;
            // tcp_probe_timer: after net.ipv4.tcp_retries2 probes with no ACK in
            // between, the connection is given up (tcp_write_err). A receiver that
            // answers keeps it open indefinitely (RFC 1122 4.2.2.17).
            if self.probes_out >= self.retries2 {
                self.aborted = true;
                trace.push(
                    now,
                    TraceEvent::Aborted {
                        side: self.side,
                        retries: self.probes_out,
                    },
                );
                return;
            }
            // The peer's window is still closed: probe it (`tcp_send_probe0`).
            self.probe_pending = true;
            self.probes_out += 1;
            self.probes_total += 1;
            self.probe_backoff = (self.probe_backoff + 1).min(self.retries2);
            trace.push(
                now,
                TraceEvent::ZeroWindowProbe {
                    side: self.side,
                    probes: self.probes_total,
                },
            );
        }
        if self.acks.deadline().is_some_and(|t| t <= now) {
            self.acks.set_rtt(self.rtt.rto(), self.rtt.srtt());
            self.acks.on_timer();
            self.ack_now = true;
        }
        if self.rto_deadline.is_some_and(|t| t <= now) {
            self.on_rto(now, trace);
        }
    }

    /// The retransmission timer expired (tcp_timer.c `tcp_retransmit_timer`).
    fn on_rto(&mut self, now: SimTime, trace: &mut Trace) {
        // tcp_write_timeout: give up once retransmitting has lasted as long as
        // tcp_retries2 (or, for a SYN, tcp_syn_retries) doublings would take.
        let (boundary, base) = match self.state {
            State::SynSent | State::SynReceived => {
                (TCP_SYN_RETRIES, crate::config::TCP_TIMEOUT_INIT)
            }
            _ => (self.retries2, crate::config::TCP_RTO_MIN),
        };
        if let Some(start) = self.retrans_stamp
            && now.since(start) >= tcp_model_timeout(boundary, base)
        {
            self.aborted = true;
            trace.push(
                now,
                TraceEvent::Aborted {
                    side: self.side,
                    retries: self.retransmits,
                },
            );
            return;
        }
        self.retrans_stamp.get_or_insert(now);
        self.retransmits += 1;
        trace.push(
            now,
            TraceEvent::RtoFired {
                side: self.side,
                rto_ns: self.rtt.rto().0,
            },
        );
        self.rto_deadline = None;
        self.rtt.back_off();
        match self.state {
            State::SynSent | State::SynReceived => {
                self.syn_pending = true;
                self.syn_retransmitted = true;
            }
            State::Established => {
                // tcp_enter_loss: ssthresh from the algorithm, cwnd = in flight (none) + 1,
                // and everything outstanding is treated as lost.
                let old = self.cb.cwnd;
                self.cb.ssthresh = self.cc.ssthresh(&self.cb);
                self.cc.set_state(CaState::Loss);
                self.recovery = None;
                self.dupacks = 0;
                self.recover = self.snd_max;
                self.cb.cwnd = 1;
                self.cb.cwnd_cnt = 0;
                self.in_flight.clear();
                self.snd_nxt = self.snd_una;
                trace.push(
                    now,
                    TraceEvent::CwndChanged {
                        side: self.side,
                        old,
                        new: 1,
                        ssthresh: self.cb.ssthresh,
                    },
                );
            }
            State::Listen => {}
        }
    }

    pub fn handle_segment(&mut self, now: SimTime, seg: &Segment, trace: &mut Trace) {
        match self.state {
            State::Listen => {
                if seg.flags.syn && !seg.flags.ack {
                    self.rcv_nxt = seg.seq + 1;
                    self.rcv_wup = self.rcv_nxt;
                    self.snd_wnd = seg.wnd;
                    self.state = State::SynReceived;
                    self.syn_pending = true;
                }
                return;
            }
            State::SynSent => {
                if seg.flags.syn && seg.flags.ack && seg.ack == 1 {
                    self.rcv_nxt = seg.seq + 1;
                    self.snd_una = 1;
                    self.snd_wnd = seg.wnd;
                    self.rto_deadline = None;
                    self.establish(now, trace);
                    self.ack_now = true;
                }
                return;
            }
            State::SynReceived => {
                if seg.flags.syn {
                    // Our SYN-ACK was lost and the client retried its SYN.
                    self.syn_pending = true;
                    return;
                }
                if seg.flags.ack && seg.ack >= 1 {
                    self.snd_una = 1;
                    self.rto_deadline = None;
                    self.establish(now, trace);
                }
            }
            State::Established => {}
        }
        if !self.reader.reads_at_once() {
            self.app_read(now);
        }
        if seg.flags.ack {
            self.on_ack(now, seg, trace);
        }
        if seg.len > 0 {
            self.on_data(now, seg, trace);
            if !self.reader.reads_at_once() {
                self.read_tick = self.reader.next_tick(now, self.rwin.unread(), self.mss);
            }
        } else if seg.seq < self.rcv_nxt && !seg.flags.syn {
            // An old sequence number (a zero-window probe): answer with the
            // current window at once (`tcp_send_dupack`).
            self.ack_now = true;
        }
    }

    fn establish(&mut self, now: SimTime, trace: &mut Trace) {
        if !self.syn_retransmitted {
            self.rtt.on_sample(now.since(self.syn_sent_at));
        }
        self.state = State::Established;
        self.retrans_stamp = None;
        self.retransmits = 0;
        self.rwin.start(now, self.rcv_nxt, self.rtt.srtt());
        // tcp_init_buffer_space → tcp_sndbuf_expand.
        self.sbuf.expand(self.cb.cwnd);
        trace.push(now, TraceEvent::Established { side: self.side });
    }

    /// `tcp_is_cwnd_limited()`: in slow start, growth counts while cwnd is less
    /// than twice the most packets recently in flight.
    fn cwnd_limited(&self) -> bool {
        if self.cb.in_slow_start() {
            return self.cb.cwnd < 2 * self.max_packets_out;
        }
        self.is_cwnd_limited
    }

    /// `tcp_cwnd_validate()`: remember per window whether cwnd was the limit.
    fn cwnd_validate(&mut self, is_cwnd_limited: bool) {
        let packets_out = self.packets_out();
        if self.snd_una >= self.cwnd_usage_seq
            || is_cwnd_limited
            || (!self.is_cwnd_limited && packets_out > self.max_packets_out)
        {
            self.is_cwnd_limited = is_cwnd_limited;
            self.max_packets_out = packets_out;
            self.cwnd_usage_seq = self.snd_nxt;
        }
    }

    /// The peer acknowledged up to `seg.ack` (tcp_input.c `tcp_ack`).
    fn on_ack(&mut self, now: SimTime, seg: &Segment, trace: &mut Trace) {
        if seg.ack < self.snd_una || seg.ack > self.snd_max.max(self.snd_nxt) {
            return;
        }
        let window_changed = seg.wnd != self.snd_wnd;
        self.snd_wnd = seg.wnd;
        // Any ACK answers the probes (tcp_ack resets icsk_probes_out).
        self.probes_out = 0;
        // `tcp_ack_probe`: the window has room for the next segment again.
        if self.persist_deadline.is_some() && self.next_fits() {
            self.persist_deadline = None;
            self.probe_backoff = 0;
        }
        if seg.ack == self.snd_una {
            // A duplicate ACK carries no data and no window update.
            if seg.len == 0 && !window_changed && !self.in_flight.is_empty() {
                self.on_dupack(now, trace);
            }
            return;
        }
        let mut acked = 0u32;
        let mut newest_flight = 0;
        let mut sample = None;
        while let Some(front) = self.in_flight.front_mut() {
            if front.end <= seg.ack {
                acked += 1;
                newest_flight = newest_flight.max(front.flight);
                if !front.retransmitted {
                    sample = Some(now.since(front.sent_at));
                }
                self.in_flight.pop_front();
            } else {
                if front.seq < seg.ack {
                    front.seq = seg.ack; // partly acknowledged: keep the rest
                }
                break;
            }
        }
        self.snd_una = seg.ack;
        if self.snd_nxt < self.snd_una {
            self.snd_nxt = self.snd_una;
        }
        if let Some(r) = sample {
            self.rtt.on_sample(r);
            trace.push(
                now,
                TraceEvent::RttSample {
                    side: self.side,
                    sample_ns: r.0,
                    srtt_ns: self.rtt.srtt().map_or(0, |d| d.0),
                    rttvar_ns: self.rtt.rttvar().0,
                    rto_ns: self.rtt.rto().0,
                },
            );
        }
        let ack = AckSample {
            now,
            rtt: sample,
            snd_una: self.snd_una,
            snd_nxt: self.snd_nxt,
        };
        let ssthresh_before = self.cb.ssthresh;
        self.cc.pkts_acked(&mut self.cb, &ack);
        // Progress: the loss episode, if any, is over.
        self.retrans_stamp = None;
        self.retransmits = 0;
        if self.cb.ssthresh != ssthresh_before {
            // HyStart ended slow start: record the new ssthresh with cwnd.
            trace.push(
                now,
                TraceEvent::CwndChanged {
                    side: self.side,
                    old: self.cb.cwnd,
                    new: self.cb.cwnd,
                    ssthresh: self.cb.ssthresh,
                },
            );
        }
        self.dupacks = 0;
        let packets_out = self.packets_out();
        if let Some(r) = &mut self.recovery {
            r.prr_delivered += acked;
            let old = self.cb.cwnd;
            if seg.ack >= r.high_seq {
                // Recovery complete (`tcp_end_cwnd_reduction`): continue from ssthresh.
                self.recovery = None;
                self.cb.cwnd = self.cb.ssthresh;
                self.cc.set_state(CaState::Open);
            } else {
                // Partial ACK: the segment now at the head was lost too (NewReno).
                r.sacked_out = r.sacked_out.saturating_sub(acked.saturating_sub(1));
                r.head_retransmitted = false;
                self.cb.cwnd = r.cwnd(packets_out, self.cb.ssthresh, acked);
            }
            self.trace_cwnd(now, old, trace);
        } else if acked > 0 {
            self.next_flight = newest_flight + 1;
            self.cb.cwnd_limited = self.cwnd_limited();
            let old = self.cb.cwnd;
            self.cc.cong_avoid(&mut self.cb, acked, now);
            self.trace_cwnd(now, old, trace);
        }
        // tcp_check_space: freed buffer may wake the writer; a grown cwnd may
        // grow the buffer (tcp_new_space → tcp_sndbuf_expand).
        self.sbuf.expand(self.cb.cwnd);
        self.sbuf
            .on_acked(self.write_end.saturating_sub(self.snd_una));
        self.take_from_app();
        // RFC 6298 (5.2, 5.3): stop the timer when all is acknowledged, else restart it.
        self.rto_deadline = if self.in_flight.is_empty() {
            None
        } else {
            Some(now + self.rtt.rto())
        };
    }

    /// One more duplicate ACK (tcp_input.c `tcp_fastretrans_alert`, without SACK).
    fn on_dupack(&mut self, now: SimTime, trace: &mut Trace) {
        self.dupacks += 1;
        let packets_out = self.packets_out();
        let old = self.cb.cwnd;
        if let Some(r) = &mut self.recovery {
            // Each duplicate ACK means one more segment has left the network.
            r.sacked_out = (r.sacked_out + 1).min(packets_out.saturating_sub(1));
            r.prr_delivered += 1;
            self.cb.cwnd = r.cwnd(packets_out, self.cb.ssthresh, 1);
        } else if self.dupacks >= TCP_FASTRETRANS_THRESH && self.snd_una >= self.recover {
            // `tcp_enter_recovery`: halve (or as the algorithm says), retransmit the head.
            self.cb.ssthresh = self.cc.ssthresh(&self.cb);
            self.cc.set_state(CaState::Recovery);
            let mut r = Recovery::new(self.snd_max, packets_out, self.dupacks);
            r.prr_delivered = 1;
            self.cb.cwnd = r.cwnd(packets_out, self.cb.ssthresh, 1);
            self.cb.cwnd_cnt = 0;
            self.recover = self.snd_max;
            self.recovery = Some(r);
            trace.push(
                now,
                TraceEvent::FastRetransmit {
                    side: self.side,
                    seq: self.snd_una,
                },
            );
        }
        self.trace_cwnd(now, old, trace);
    }

    /// Records a cwnd change (if there was one) with the ssthresh now in force.
    fn trace_cwnd(&self, now: SimTime, old: u32, trace: &mut Trace) {
        if self.cb.cwnd != old {
            trace.push(
                now,
                TraceEvent::CwndChanged {
                    side: self.side,
                    old,
                    new: self.cb.cwnd,
                    ssthresh: self.cb.ssthresh,
                },
            );
        }
    }

    /// Segments the network holds: `packets_out`, or PRR's pipe estimate in recovery.
    fn flight_size(&self) -> u32 {
        match &self.recovery {
            Some(r) => r.pipe(self.packets_out()),
            None => self.packets_out(),
        }
    }

    /// Resends the presumed-lost segment at the head of the queue.
    fn retransmit_head(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        let front = *self.in_flight.front()?;
        let mut seg = self.blank(front.seq);
        seg.len = (front.end - front.seq) as u32;
        self.stamp_ack(&mut seg);
        if let Some(f) = self.in_flight.front_mut() {
            f.retransmitted = true;
            f.sent_at = now;
        }
        if let Some(r) = &mut self.recovery {
            r.head_retransmitted = true;
            r.prr_out += 1;
        }
        self.rto_deadline = Some(now + self.rtt.rto());
        Some((seg, front.flight, true))
    }

    /// Bytes of the next segment to send, if any data is waiting.
    fn next_len(&self) -> u64 {
        self.write_end
            .saturating_sub(self.snd_nxt)
            .min(self.mss as u64)
    }

    /// The next segment fits in the peer's window (`tcp_snd_wnd_test`).
    fn next_fits(&self) -> bool {
        self.snd_nxt + self.next_len() <= self.snd_una + self.snd_wnd
    }

    /// Data arrived (tcp_input.c `tcp_data_queue`, `__tcp_ack_snd_check`).
    fn on_data(&mut self, now: SimTime, seg: &Segment, trace: &mut Trace) {
        let end = seg.end_seq();
        if end <= self.rcv_nxt {
            // A duplicate: ACK at once so the sender learns rcv_nxt (tcp_send_dupack).
            self.ack_now = true;
            return;
        }
        if seg.seq > self.rcv_nxt {
            // Out of order: keep it for when the hole is filled, and send a
            // duplicate ACK at once (the sender counts them).
            let e = self.ooo.entry(seg.seq).or_insert(end);
            *e = (*e).max(end);
            self.ack_now = true;
            return;
        }
        // In order (perhaps overlapping old data): take it, and everything held
        // out of order that now follows on.
        let had_ooo = !self.ooo.is_empty();
        let mut new_end = end;
        while let Some((&start, &stop)) = self.ooo.first_key_value() {
            if start > new_end {
                break;
            }
            new_end = new_end.max(stop);
            self.ooo.pop_first();
        }
        let len = (new_end - self.rcv_nxt) as u32;
        self.rcv_nxt = new_end;
        let grew = self.rwin.on_data(len);
        if self.reader.reads_at_once() {
            self.app_received += self.rwin.read(now, len as u64);
        }
        if had_ooo {
            // RFC 5681 4.2: ACK at once when a gap is filled.
            self.ack_now = true;
        }
        let unacked = self.rcv_nxt - self.rcv_wup;
        let rcv_wnd = self.rwin.current_window(self.rcv_wup);
        let armed_before = self.acks.deadline();
        self.acks.set_rtt(self.rtt.rto(), self.rtt.srtt());
        match self.acks.on_data(now, unacked, self.mss, rcv_wnd, grew) {
            AckDecision::Now => self.ack_now = true,
            AckDecision::Delay(deadline) => {
                if armed_before != Some(deadline) {
                    trace.push(
                        now,
                        TraceEvent::DelayedAckArmed {
                            side: self.side,
                            deadline,
                        },
                    );
                }
            }
        }
    }

    /// Fills in the ACK fields every segment after the SYN carries, and notes
    /// that any pending ACK has now been sent (an ACK rides free on data).
    fn stamp_ack(&mut self, seg: &mut Segment) {
        seg.flags.ack = true;
        seg.ack = self.rcv_nxt;
        seg.wnd = self.rwin.advertise(self.rcv_nxt);
        self.ack_now = false;
        self.acks.on_ack_sent();
        self.rcv_wup = self.rcv_nxt;
    }

    fn blank(&self, seq: u64) -> Segment {
        Segment {
            id: 0,
            from: self.side,
            seq,
            len: 0,
            ack: 0,
            wnd: 0,
            flags: Flags::default(),
        }
    }

    /// Next segment to put on the wire, if any. The caller assigns `id`.
    /// Returns the segment and, for data, its flight number and whether it is
    /// a retransmission.
    pub fn poll_transmit(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        if self.aborted {
            return None;
        }
        if self.syn_pending {
            self.syn_pending = false;
            let mut seg = self.blank(0);
            seg.flags.syn = true;
            seg.wnd = self.rwin.syn_window(self.rcv_nxt);
            if self.state == State::SynReceived {
                seg.flags.ack = true;
                seg.ack = self.rcv_nxt;
            }
            self.snd_nxt = 1;
            self.snd_max = self.snd_max.max(1);
            self.syn_sent_at = now;
            self.rto_deadline = Some(now + self.rtt.rto());
            return Some((seg, 0, self.syn_retransmitted));
        }
        if self.state == State::Established
            && self
                .recovery
                .as_ref()
                .is_some_and(|r| !r.head_retransmitted)
            && let Some(out) = self.retransmit_head(now)
        {
            return Some(out);
        }
        if self.state == State::Established
            && let Some(out) = self.next_data(now)
        {
            return Some(out);
        }
        if self.probe_pending && self.state == State::Established {
            self.probe_pending = false;
            return Some(self.window_probe(now));
        }
        if self.ack_now && self.state == State::Established {
            let mut seg = self.blank(self.snd_nxt);
            self.stamp_ack(&mut seg);
            return Some((seg, 0, false));
        }
        None
    }

    /// A zero-window probe (`tcp_write_wakeup`): if the window has any room,
    /// send as much new data as fits; otherwise an already-acknowledged
    /// sequence number with no data, which the receiver must answer with an ACK
    /// carrying its current window.
    fn window_probe(&mut self, now: SimTime) -> (Segment, u32, bool) {
        let room = (self.snd_una + self.snd_wnd).saturating_sub(self.snd_nxt);
        let len = room.min(self.next_len());
        if len > 0 {
            let seq = self.snd_nxt;
            let mut seg = self.blank(seq);
            seg.len = len as u32;
            self.stamp_ack(&mut seg);
            let flight = self.next_flight;
            self.in_flight.push_back(InFlight {
                seq,
                end: seq + len,
                flight,
                sent_at: now,
                retransmitted: false,
            });
            self.snd_nxt += len;
            self.snd_max = self.snd_max.max(self.snd_nxt);
            self.lsndtime = Some(now);
            self.rto_deadline.get_or_insert(now + self.rtt.rto());
            return (seg, flight, false);
        }
        let mut seg = self.blank(self.snd_una.saturating_sub(1));
        self.stamp_ack(&mut seg);
        (seg, 0, false)
    }

    /// Nagle's rule for a sub-MSS segment while data is in flight
    /// (tcp_output.c `tcp_nagle_check`).
    fn nagle_holds(&self) -> bool {
        match self.nagle {
            Nagle::Off => false,
            // `tcp_minshall_check`: an earlier small segment is still unacknowledged.
            Nagle::Minshall => self.snd_sml > self.snd_una,
            Nagle::Classic => true,
        }
    }

    /// The next data segment that cwnd, the peer's window and Nagle allow.
    fn next_data(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        if self.snd_nxt >= self.write_end {
            return None;
        }
        if self.flight_size() >= self.cb.cwnd {
            self.cwnd_validate(true);
            return None;
        }
        let unsent = self.write_end - self.snd_nxt;
        let mut len = unsent.min(self.mss as u64);
        let retransmit = self.snd_nxt < self.snd_max;
        if retransmit {
            // __tcp_retransmit_skb: resend what was sent, cut at the window's
            // edge; with the window shut, the head still goes (it doubles as a
            // window probe).
            len = len.min(self.snd_max - self.snd_nxt);
            let room = (self.snd_una + self.snd_wnd).saturating_sub(self.snd_nxt);
            if room > 0 {
                len = len.min(room);
            } else if self.snd_nxt != self.snd_una {
                return None;
            }
        }
        // tcp_snd_wnd_test: the segment must fit inside the peer's window. (Linux
        // with TSO can also cut a large buffer at the window edge to the byte,
        // `tcp_mss_split_point`; the simulator sends whole segments only.)
        if !retransmit && self.snd_nxt + len > self.snd_una + self.snd_wnd {
            // Window-limited with nothing in flight: no ACK will come to reopen
            // it, so the persist timer must (RTO, doubling per probe, ≤ 120 s).
            if self.packets_out() == 0 && self.persist_deadline.is_none() && !self.probe_pending {
                let mut wait = self.rtt.rto();
                for _ in 0..self.probe_backoff.min(16) {
                    wait = wait.doubled();
                }
                self.persist_deadline = Some(now + wait.min(crate::config::TCP_RTO_MAX));
            }
            return None;
        }
        // Nagle and the cork hold back new data only; retransmissions bypass them.
        if !retransmit
            && len < self.mss as u64
            && (self.corked || (self.packets_out() > 0 && self.nagle_holds()))
        {
            return None;
        }
        let seq = self.snd_nxt;
        let mut seg = self.blank(seq);
        seg.len = len as u32;
        self.stamp_ack(&mut seg);
        if len < self.mss as u64 {
            self.snd_sml = seq + len;
        }
        let flight = self.next_flight;
        self.acks.on_data_sent(now);
        self.lsndtime = Some(now);
        if let Some(r) = &mut self.recovery {
            r.prr_out += 1;
        }
        if self.in_flight.is_empty() {
            self.cc.cwnd_event(&mut self.cb, CwndEvent::TxStart, now);
        }
        self.cc.cwnd_event(&mut self.cb, CwndEvent::DataSent, now);
        self.in_flight.push_back(InFlight {
            seq,
            end: seq + len,
            flight,
            sent_at: now,
            retransmitted: retransmit,
        });
        self.snd_nxt += len;
        self.snd_max = self.snd_max.max(self.snd_nxt);
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
        let limited = self.packets_out() >= self.cb.cwnd;
        self.cwnd_validate(limited);
        Some((seg, flight, retransmit))
    }
}
