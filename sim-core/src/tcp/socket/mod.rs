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
//! the retransmission queue with its SACK scoreboard, RACK, PRR, pacing, the
//! RTO) and the receive half (rcv_nxt, the out-of-order queue and SACK blocks,
//! the advertised window, delayed ACK).
//!
//! Loss recovery follows `tcp_ack` → `tcp_fastretrans_alert` →
//! `tcp_cong_control`: SACK blocks tag the scoreboard, RACK marks segments
//! lost, the first loss enters Recovery (ssthresh from the algorithm, PRR
//! sizing what is sent), and lost segments are retransmitted before new
//! data. Without SACK, duplicate ACKs stand in for SACKed segments and the
//! head is marked lost (NewReno). An RTO marks everything not SACKed lost.

use super::ack_policy::{AckDecision, AckPolicy};
use super::idle_restart::cwnd_restart;
use super::info::{Counters, RecvInfo, TcpInfo};
use super::ooo_queue::OooQueue;
use super::pacing::Pacer;
use super::rack::{Rack, TCP_REORDERING};
use super::rate::{RateEstimator, SampleBuilder};
use super::reader::Reader;
use super::receive_window::ReceiveWindow;
use super::recovery::Prr;
use super::rtt::{RttEstimator, tcp_model_timeout};
use super::scoreboard::{Scoreboard, TxSeg};

/// `net.ipv4.tcp_syn_retries` default.
const TCP_SYN_RETRIES: u32 = 6;
use super::send_buffer::SendBuffer;
use crate::cc::{AckSample, Algorithm, CaState, ControlBlock, CwndEvent};
use crate::config::{HostConfig, Nagle};
use crate::segment::SackBlocks;
use crate::segment::{Flags, Segment, Side};
use crate::time::{SimDuration, SimTime};
use crate::trace::{Trace, TraceEvent};

/// What holds a small segment back although cwnd and the window allow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// Nagle's rule: wait for the ACK of data in flight (`tcp_nagle_check`).
    Nagle,
    /// `TCP_CORK`: wait for a full segment or the uncork.
    Cork,
}

impl Hold {
    pub fn name(self) -> &'static str {
        match self {
            Hold::Nagle => "nagle",
            Hold::Cork => "cork",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Listen,
    SynSent,
    SynReceived,
    Established,
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
    /// Why the last attempt to send stopped short of unsent data that was
    /// ready: Nagle's rule or `TCP_CORK` holding a sub-MSS segment.
    held: Option<Hold>,
    /// The peer's advertised window, in bytes.
    snd_wnd: u64,
    /// End of the last sub-MSS segment sent (`snd_sml`, for Minshall's Nagle check).
    snd_sml: u64,
    cb: ControlBlock,
    cc: Algorithm,
    /// Segments sent and not yet cumulatively acknowledged, with SACK state.
    board: Scoreboard,
    /// SACK was negotiated.
    sack_ok: bool,
    rack: Rack,
    /// When RACK's reorder timer fires (`ICSK_TIME_REO_TIMEOUT`).
    reo_deadline: Option<SimTime>,
    rate: RateEstimator,
    pacer: Pacer,
    /// Pacing applies: `fq`, or an algorithm that needs it.
    pacing: bool,
    /// Data waits for the pacing timer until then.
    pacing_wakeup: Option<SimTime>,
    /// The pacing rate and algorithm mode last written to the trace.
    traced_pacing: u64,
    traced_mode: Option<&'static str>,
    /// Segments retransmitted over the connection's life (`tcpi_total_retrans`).
    total_retrans: u64,
    /// Segments and bytes sent and received, for `TCP_INFO`.
    counters: Counters,
    /// cwnd and ssthresh before the timeout, to restore if it proves
    /// spurious (`tcp_init_undo`: prior_cwnd, prior_ssthresh).
    undo: Option<(u32, u32)>,
    /// The peer's latest timestamp to echo (`ts_recent`).
    ts_recent: u64,
    /// Windowed minimum RTT (`tcp_min_rtt`; Linux's window is 5 minutes,
    /// longer than any run here, so a plain minimum).
    min_rtt: Option<SimDuration>,
    /// `tcp_cwnd_validate` bookkeeping: was cwnd the limit in this window?
    max_packets_out: u32,
    cwnd_usage_seq: u64,
    is_cwnd_limited: bool,
    rtt: RttEstimator,
    rto_deadline: Option<SimTime>,
    /// When the first retransmission of the current loss episode left (`retrans_stamp`).
    retrans_stamp: Option<SimTime>,
    /// Timeouts in a row (`icsk_retransmits`).
    retransmits: u32,
    /// PRR's bookkeeping while in Recovery.
    prr: Option<Prr>,
    /// Recovery or Loss ends when snd_una reaches this (`high_seq`).
    high_seq: u64,
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
    /// Out-of-order data held until the hole before it is filled.
    ooo: OooQueue,
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
            held: None,
            sbuf: SendBuffer::new(
                cfg.sender.sndbuf,
                cfg.sender.sndbuf_max,
                cfg.sender.sndbuf_autotune,
                mss,
            ),
            snd_wnd: 0,
            snd_sml: 0,
            cb: ControlBlock {
                mss,
                ..ControlBlock::new(cfg.sender.initcwnd)
            },
            cc: cfg.sender.congestion_control.clone(),
            board: Scoreboard::default(),
            sack_ok: cfg.sender.sack,
            rack: Rack::default(),
            reo_deadline: None,
            rate: RateEstimator::default(),
            pacer: Pacer::default(),
            pacing: cfg.sender.fq || cfg.sender.congestion_control.needs_pacing(),
            pacing_wakeup: None,
            traced_pacing: 0,
            traced_mode: None,
            min_rtt: None,
            total_retrans: 0,
            counters: Counters::default(),
            undo: None,
            ts_recent: 0,
            max_packets_out: 0,
            cwnd_usage_seq: 0,
            is_cwnd_limited: false,
            rtt: RttEstimator::default(),
            rto_deadline: None,
            retrans_stamp: None,
            retransmits: 0,
            prr: None,
            high_seq: 0,
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
            ooo: OooQueue::default(),
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
        self.board.packets_out()
    }

    /// Segments the network holds (`tcp_packets_in_flight`).
    pub fn in_flight(&self) -> u32 {
        self.board.in_flight()
    }

    /// `sk_pacing_rate` in bytes per second (0 when not paced).
    pub fn pacing_rate(&self) -> u64 {
        if self.pacing { self.cb.pacing_rate } else { 0 }
    }

    /// The congestion-control algorithm's mode (BBR's state machine).
    pub fn cc_mode(&self) -> Option<&'static str> {
        self.cc.mode()
    }

    /// `icsk_ca_state`.
    pub fn ca_state(&self) -> CaState {
        self.cb.ca_state
    }

    /// Payload bytes the application has read.
    pub fn app_received(&self) -> u64 {
        self.app_received
    }

    /// Payload bytes written and acknowledged by the peer.
    pub fn bytes_acked(&self) -> u64 {
        self.snd_una.saturating_sub(1)
    }

    /// The socket's `TCP_INFO` now.
    pub fn info(&self) -> TcpInfo {
        TcpInfo {
            counters: self.counters,
            bytes_acked: self.bytes_acked(),
            total_retrans: self.total_retrans,
            cwnd: self.cb.cwnd,
            ssthresh: (self.cb.ssthresh < crate::cc::TCP_INFINITE_SSTHRESH)
                .then_some(self.cb.ssthresh),
            in_flight: self.in_flight(),
            srtt_ns: self.rtt.srtt().map_or(0, |d| d.0),
            rttvar_ns: self.rtt.rttvar().0,
            rto_ns: self.rtt.rto().0,
            pacing_rate: self.pacing_rate(),
            snd_wnd: self.snd_wnd,
            sndbuf: self.sbuf.sndbuf,
            wmem_queued: self
                .sbuf
                .wmem_queued(self.write_end.saturating_sub(self.snd_una)),
            notsent_bytes: self.write_end.saturating_sub(self.snd_nxt),
        }
    }

    /// The receive side's buffer and unread bytes now.
    pub fn recv_info(&self) -> RecvInfo {
        RecvInfo {
            rcvbuf: self.rwin.rcvbuf(),
            unread: self.unread(),
        }
    }

    /// Segments retransmitted so far (`tcpi_total_retrans`).
    pub fn total_retrans(&self) -> u64 {
        self.total_retrans
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
        // tcp_sendmsg → tcp_rate_check_app_limited: writing into an empty
        // pipe marks the coming rate samples as application-limited.
        let nothing_unsent = self.write_end.saturating_sub(self.snd_nxt) < self.mss as u64;
        self.rate.check_app_limited(
            nothing_unsent,
            self.board.in_flight(),
            self.cb.cwnd,
            self.board.lost_out(),
        );
        self.cb.app_limited = self.rate.app_limited();
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
        // Unset timers as "never", and a branch-free minimum: this runs
        // after every event on both sides, so it is worth keeping cheap.
        let never = |t: Option<SimTime>| t.map_or(u64::MAX, |t| t.0);
        let earliest = never(self.rto_deadline)
            .min(never(self.acks.deadline()))
            .min(never(self.read_tick))
            .min(never(self.persist_deadline))
            .min(never(self.reo_deadline))
            .min(never(self.pacing_wakeup));
        (earliest != u64::MAX).then_some(SimTime(earliest))
    }

    /// What `tcp_update_metrics` reads when this connection closes.
    pub fn closing(&self) -> super::metrics::Closing {
        super::metrics::Closing {
            srtt_ns: self.rtt.srtt().map(|d| d.0),
            rttvar_ns: self.rtt.rttvar().0,
            cwnd: self.cb.cwnd,
            ssthresh: self.cb.ssthresh,
            backed_off: self.rtt.backoff() > 0,
            recovering: self.cb.ca_state != CaState::Open,
        }
    }

    /// `tcp_init_metrics`: start with a cached ssthresh.
    pub fn set_initial_ssthresh(&mut self, ssthresh: u32) {
        self.cb.ssthresh = ssthresh.min(self.cb.cwnd_clamp).max(2);
    }

    /// The connection was given up (`tcp_write_err`): it sends nothing more.
    /// A sub-MSS segment Nagle's rule or `TCP_CORK` is holding back now, and
    /// its length.
    pub fn held(&self) -> Option<(Hold, u64)> {
        let h = self.held?;
        Some((h, (self.write_end - self.snd_nxt).min(self.mss as u64)))
    }

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
        if self.pacing_wakeup.is_some_and(|t| t <= now) {
            self.pacing_wakeup = None;
        }
        if self.reo_deadline.is_some_and(|t| t <= now) {
            self.reo_deadline = None;
            self.on_reorder_timeout(now, trace);
        }
        if self.rto_deadline.is_some_and(|t| t <= now) {
            self.on_rto(now, trace);
        }
    }

    /// RACK's reorder timer (`tcp_rack_reo_timeout`): segments that were
    /// within the reordering window when the last ACK came are now overdue.
    fn on_reorder_timeout(&mut self, now: SimTime, trace: &mut Trace) {
        if self.state != State::Established || self.board.is_empty() {
            return;
        }
        let lost_before = self.board.lost_out();
        self.detect_loss_rack(now, true);
        if self.board.lost_out() > lost_before && self.cb.ca_state == CaState::Open {
            let old = self.cb.cwnd;
            self.enter_recovery(now, trace);
            self.trace_cwnd(now, old, trace);
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
                // tcp_enter_loss: a fresh ssthresh unless this continues a loss
                // episode already under way; everything not SACKed is lost,
                // and cwnd = in flight (none now) + 1.
                let old = self.cb.cwnd;
                if self.cb.ca_state == CaState::Open || self.snd_una >= self.high_seq {
                    self.undo = Some((self.cb.cwnd, self.cb.ssthresh));
                    self.cb.ssthresh = self.cc.ssthresh(&self.cb);
                }
                self.set_ca_state(CaState::Loss);
                self.prr = None;
                self.high_seq = self.snd_nxt;
                self.board.mark_all_lost();
                self.reo_deadline = None;
                self.cb.cwnd = self.board.in_flight() + 1;
                self.cb.cwnd_cnt = 0;
                // Recorded even when cwnd was already 1 (unlike `trace_cwnd`),
                // so every timeout is followed by the window it left.
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
            State::Listen => {}
        }
    }

    pub fn handle_segment(&mut self, now: SimTime, seg: &Segment, trace: &mut Trace) {
        self.counters.on_receive();
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
        // `tcp_replace_ts_recent`: echo the timestamp of a segment that starts
        // at or before what we last acknowledged.
        if seg.len > 0 && seg.seq <= self.rcv_wup {
            self.ts_recent = seg.ts_val;
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
            let r = now.since(self.syn_sent_at);
            self.rtt.on_sample(r);
            self.min_rtt = Some(r);
        }
        self.state = State::Established;
        self.retrans_stamp = None;
        self.retransmits = 0;
        self.rwin.start(now, self.rcv_nxt, self.rtt.srtt());
        // tcp_init_buffer_space → tcp_sndbuf_expand.
        self.sbuf.expand(self.cb.cwnd, self.cc.sndbuf_expand());
        trace.push(now, TraceEvent::Established { side: self.side });
        // tcp_init_transfer → tcp_init_congestion_control.
        self.cb.srtt = self.rtt.srtt();
        self.cc.init(&mut self.cb, now);
        self.update_pacing_rate();
        self.trace_cc(now, trace);
    }

    fn set_ca_state(&mut self, state: CaState) {
        if self.cb.ca_state != state {
            self.cb.ca_state = state;
            self.cc.set_state(state);
        }
    }

    /// `tcp_enter_recovery`: ssthresh from the algorithm, PRR starts, and the
    /// lost segments go out first.
    fn enter_recovery(&mut self, now: SimTime, trace: &mut Trace) {
        self.cb.ssthresh = self.cc.ssthresh(&self.cb);
        self.prr = Some(Prr::new(self.cb.cwnd));
        self.high_seq = self.snd_nxt;
        self.cb.cwnd_cnt = 0;
        self.set_ca_state(CaState::Recovery);
        let seq = self.board.next_retransmit().map_or(self.snd_una, |s| s.seq);
        trace.push(
            now,
            TraceEvent::FastRetransmit {
                side: self.side,
                seq,
            },
        );
    }

    /// RACK over the scoreboard; arms the reorder timer for what is not yet due.
    fn detect_loss_rack(&mut self, now: SimTime, force: bool) -> u32 {
        let reo_wnd = Rack::reo_wnd(
            self.cb.ca_state != CaState::Open,
            self.board.sacked_out(),
            self.min_rtt,
            self.rtt.srtt(),
        );
        let (lost, due) = self.rack.detect_loss(&mut self.board, now, reo_wnd, force);
        if due.is_some() {
            self.reo_deadline = due;
        }
        lost
    }

    /// `tcp_update_pacing_rate`, for algorithms that do not set it themselves:
    /// twice cwnd per smoothed RTT in slow start, 1.2 times after.
    fn update_pacing_rate(&mut self) {
        if !self.pacing || self.cc.needs_pacing() {
            return;
        }
        let Some(srtt) = self.rtt.srtt() else { return };
        let ratio: u64 = if self.cb.cwnd < self.cb.ssthresh / 2 {
            200
        } else {
            120
        };
        let segs = self.cb.cwnd.max(self.board.packets_out()) as u64;
        let ns = srtt.0.max(1);
        self.cb.pacing_rate = (self.mss as u128 * segs as u128 * ratio as u128 * 1_000_000_000
            / 100
            / ns as u128) as u64;
    }

    /// Writes the algorithm's mode and pacing rate to the trace when they
    /// change (the pacing rate when it moves by more than 1/64, to keep a
    /// rate that is recomputed on every ACK from flooding the trace).
    fn trace_cc(&mut self, now: SimTime, trace: &mut Trace) {
        let mode = self.cc.mode();
        if mode != self.traced_mode {
            self.traced_mode = mode;
            if let Some(mode) = mode {
                trace.push(
                    now,
                    TraceEvent::CcMode {
                        side: self.side,
                        mode,
                    },
                );
            }
        }
        let rate = self.pacing_rate();
        if rate.abs_diff(self.traced_pacing) > self.traced_pacing / 64 {
            self.traced_pacing = rate;
            trace.push(
                now,
                TraceEvent::PacingRate {
                    side: self.side,
                    bytes_per_sec: rate,
                },
            );
        }
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
        let una_advanced = seg.ack > self.snd_una;
        let has_sack = self.sack_ok && !seg.sack.is_empty();
        // A duplicate ACK: nothing new acknowledged, no data, no window update.
        let dupack = !una_advanced && seg.len == 0 && !window_changed && !self.board.is_empty();
        if !una_advanced && !has_sack && !dupack {
            return;
        }
        let prior_in_flight = self.board.in_flight();
        let prior_delivered = self.rate.delivered;
        let retrans_stamp = self.retrans_stamp;
        let lost_before = self.board.lost_out();
        let mut builder = SampleBuilder::default();
        let min_rtt = self.min_rtt;

        // 1. SACK blocks (`tcp_sacktag_write_queue`).
        let mut sack_rtt = None;
        if has_sack {
            let (board, rate, rack) = (&mut self.board, &mut self.rate, &mut self.rack);
            board.sack(seg.sack.as_slice(), |s| {
                rate.on_delivered(&mut builder, s, now);
                rack.advance(s.ever_retrans, s.sent_at, s.end, now, min_rtt);
                if !s.ever_retrans && sack_rtt.is_none() {
                    sack_rtt = Some(now.since(s.sent_at));
                }
            });
        }

        // 2. The cumulative ACK (`tcp_clean_rtx_queue`).
        let mut acked = 0u32;
        let mut newest_flight = 0;
        let mut seq_rtt = None;
        if una_advanced {
            let (board, rate, rack) = (&mut self.board, &mut self.rate, &mut self.rack);
            acked = board.ack_up_to(seg.ack, |s| {
                newest_flight = newest_flight.max(s.flight);
                rate.on_delivered(&mut builder, s, now);
                rack.advance(s.ever_retrans, s.sent_at, s.end, now, min_rtt);
                if !s.ever_retrans {
                    seq_rtt = Some(now.since(s.sent_at));
                }
            });
            self.snd_una = seg.ack;
            if self.snd_nxt < self.snd_una {
                self.snd_nxt = self.snd_una;
            }
            if !self.sack_ok {
                // All but one of these were counted as delivered by their
                // duplicate ACKs already (`tcp_remove_reno_sacks`).
                let newly = self.board.reno_acked(acked);
                let counted = self.rate.delivered - prior_delivered;
                self.rate.delivered -= counted.saturating_sub(newly as u64);
            }
        } else if dupack && !self.sack_ok {
            let before = self.board.sacked_out();
            self.board.reno_dupack();
            self.rate.count_delivered(self.board.sacked_out() - before);
        }

        // 3. RTT (`tcp_ack_update_rtt`): from the cumulative ACK, else from SACK.
        if let Some(r) = seq_rtt.or(sack_rtt) {
            self.rtt.on_sample(r);
            self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
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
        self.cb.srtt = self.rtt.srtt();
        let ssthresh_before = self.cb.ssthresh;
        if acked > 0 || una_advanced {
            let ack = AckSample {
                now,
                rtt: seq_rtt,
                snd_una: self.snd_una,
                snd_nxt: self.snd_nxt,
            };
            self.cc.pkts_acked(&mut self.cb, &ack);
            // Progress: the loss episode, if any, is over.
            self.retrans_stamp = None;
            self.retransmits = 0;
        }
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
        let old = self.cb.cwnd;

        // 4. Loss detection and the recovery state machine (`tcp_fastretrans_alert`).
        let dubious = !una_advanced || has_sack || self.cb.ca_state != CaState::Open;
        if dubious {
            if una_advanced && self.cb.ca_state == CaState::Loss {
                self.try_undo_loss(now, seg.ts_ecr, retrans_stamp, trace);
            }
            self.fastretrans_alert(now, una_advanced, trace);
        }
        let newly_lost = self.board.lost_out().saturating_sub(lost_before);

        if acked > 0 && self.prr.is_none() {
            self.next_flight = newest_flight + 1;
        }

        // 5. Congestion control (`tcp_cong_control`).
        let acked_sacked = (self.rate.delivered - prior_delivered) as u32;
        self.cb.delivered = self.rate.delivered;
        self.cb.in_flight = self.board.in_flight();
        let rs = self.rate.generate(
            &builder,
            now,
            acked_sacked,
            newly_lost,
            prior_in_flight,
            self.min_rtt,
        );
        self.cb.app_limited = self.rate.app_limited();
        if self.cc.cong_control(&mut self.cb, &rs) {
            // The algorithm set cwnd and the pacing rate itself (BBR). It may
            // also have declared the coming samples app-limited (ProbeRTT).
            if self.cb.app_limited && !self.rate.app_limited() {
                self.rate.mark_app_limited(self.board.in_flight());
            }
        } else if let Some(prr) = &mut self.prr {
            self.cb.cwnd = prr.cwnd_reduction(
                self.cb.cwnd,
                self.board.in_flight(),
                self.cb.ssthresh,
                acked_sacked,
                newly_lost,
                una_advanced,
            );
        } else if acked > 0 {
            self.cb.cwnd_limited = self.cwnd_limited();
            self.cc.cong_avoid(&mut self.cb, acked, now);
        }
        self.update_pacing_rate();
        self.trace_cwnd(now, old, trace);
        self.trace_cc(now, trace);

        // tcp_check_space: freed buffer may wake the writer; a grown cwnd may
        // grow the buffer (tcp_new_space → tcp_sndbuf_expand).
        self.sbuf.expand(self.cb.cwnd, self.cc.sndbuf_expand());
        self.sbuf
            .on_acked(self.write_end.saturating_sub(self.snd_una));
        self.take_from_app();
        // RFC 6298 (5.2, 5.3): stop the timer when all is acknowledged, else
        // restart it when new data is acknowledged.
        if self.board.is_empty() {
            self.rto_deadline = None;
            self.reo_deadline = None;
        } else if una_advanced {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
    }

    /// `tcp_try_undo_loss` with `tcp_packet_delayed`: an ACK echoing a
    /// timestamp from before the first retransmission proves the originals
    /// arrived; the timeout was spurious (the RTT had grown past the RTO, as
    /// when a queue fills). Restore cwnd and ssthresh and forget the losses.
    fn try_undo_loss(
        &mut self,
        now: SimTime,
        ts_ecr: u64,
        retrans_stamp: Option<SimTime>,
        trace: &mut Trace,
    ) {
        let Some((prior_cwnd, prior_ssthresh)) = self.undo else {
            return;
        };
        if ts_ecr == 0 || retrans_stamp.is_none_or(|r| ts_ecr >= r.0) {
            return;
        }
        let old = self.cb.cwnd;
        self.cb.cwnd = self.cb.cwnd.max(self.cc.undo_cwnd(&ControlBlock {
            cwnd: prior_cwnd,
            ..self.cb.clone()
        }));
        self.cb.ssthresh = self.cb.ssthresh.max(prior_ssthresh);
        self.board.unmark_lost();
        self.undo = None;
        self.set_ca_state(CaState::Open);
        self.trace_cwnd(now, old, trace);
    }

    /// `tcp_fastretrans_alert`: leave Recovery or Loss once `high_seq` is
    /// acknowledged; otherwise find lost segments and enter Recovery at the first.
    fn fastretrans_alert(&mut self, now: SimTime, una_advanced: bool, trace: &mut Trace) {
        if self.cb.ca_state != CaState::Open && self.snd_una >= self.high_seq {
            if self.cb.ca_state == CaState::Recovery {
                // `tcp_end_cwnd_reduction`: continue from ssthresh.
                if self.prr.take().is_some() && self.cb.ssthresh < crate::cc::TCP_INFINITE_SSTHRESH
                {
                    self.cb.cwnd = self.cb.ssthresh;
                }
            }
            if !self.sack_ok {
                self.board.reset_reno_sacks();
            }
            self.set_ca_state(CaState::Open);
        }
        if self.sack_ok {
            self.detect_loss_rack(now, false);
        } else {
            // `tcp_newreno_mark_lost`: the head is lost after `reordering`
            // duplicate ACKs, and again after each partial ACK in Recovery.
            let open = self.cb.ca_state == CaState::Open;
            if (open && self.board.sacked_out() >= TCP_REORDERING)
                || (self.cb.ca_state == CaState::Recovery && una_advanced)
            {
                self.board.mark_head_lost();
            }
        }
        if self.cb.ca_state == CaState::Open && self.board.lost_out() > 0 {
            self.enter_recovery(now, trace);
        }
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

    /// Stamps a data transmission for rate sampling and pacing.
    fn on_data_xmit(&mut self, now: SimTime, len: u32) -> super::scoreboard::TxRate {
        let stamp = self.rate.on_send(now, self.board.packets_out());
        let rate = self.pacing_rate();
        self.pacer.on_send(now, len, rate);
        self.lsndtime = Some(now);
        stamp
    }

    /// Pacing holds data back until its slot; returns true while it does.
    fn paced_out(&mut self, now: SimTime) -> bool {
        if !self.pacing {
            return false;
        }
        let ready = self.pacer.ready_at();
        if ready > now {
            self.pacing_wakeup = Some(ready);
            true
        } else {
            false
        }
    }

    /// Resends the lowest lost segment, if cwnd and the peer's window allow
    /// (`tcp_xmit_retransmit_queue`, `__tcp_retransmit_skb`).
    fn next_retransmit(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        let lost = self.board.next_retransmit()?;
        if self.board.in_flight() >= self.cb.cwnd {
            return None;
        }
        // Resend what was sent, cut at the window's edge; with the window
        // shut, the head still goes (it doubles as a window probe).
        let wnd_end = self.snd_una + self.snd_wnd;
        if lost.seq >= wnd_end && lost.seq != self.snd_una {
            return None;
        }
        if lost.end > wnd_end && wnd_end > lost.seq {
            self.board.split(lost.end, wnd_end);
        }
        let lost = self.board.next_retransmit()?;
        if self.paced_out(now) {
            return None;
        }
        let len = (lost.end - lost.seq) as u32;
        let stamp = self.on_data_xmit(now, len);
        let seg_state = self.board.retransmitted(lost.end, now, stamp)?;
        let mut seg = self.blank(seg_state.seq);
        seg.len = len;
        self.stamp_ack(&mut seg);
        if let Some(p) = &mut self.prr {
            p.prr_out += 1;
        }
        self.total_retrans += 1;
        if self.board.front().is_some_and(|h| h.end == lost.end) {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
        self.retrans_stamp.get_or_insert(now);
        Some((seg, seg_state.flight, true))
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
            // Out of order: keep it for when the hole is filled, and ACK at
            // once with SACK blocks (`tcp_data_queue_ofo`).
            self.ooo.insert(seg.seq, end);
            self.ack_now = true;
            return;
        }
        // In order (perhaps overlapping old data): take it, and everything held
        // out of order that now follows on.
        let had_ooo = !self.ooo.is_empty();
        let new_end = self.ooo.take_in_order(end);
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
        seg.ts_ecr = self.ts_recent;
        seg.sack = if self.sack_ok {
            self.ooo.sack_blocks()
        } else {
            SackBlocks::default()
        };
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
            sack: SackBlocks::default(),
            ts_val: 0,
            ts_ecr: 0,
        }
    }

    /// Next segment to put on the wire, if any. The caller assigns `id`.
    /// Returns the segment and, for data, its flight number and whether it is
    /// a retransmission.
    pub fn poll_transmit(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        let out = self.next_segment(now);
        if let Some((seg, _, retransmit)) = &out {
            self.counters.on_send(seg.len, *retransmit);
        }
        out
    }

    fn next_segment(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        self.held = None;
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
        if self.state == State::Established {
            // Lost segments first, then new data (`tcp_xmit_recovery`, `tcp_write_xmit`).
            if let Some(out) = self.next_retransmit(now) {
                return Some(out);
            }
            if let Some(out) = self.next_data(now) {
                return Some(out);
            }
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
            let stamp = self.on_data_xmit(now, len as u32);
            self.board
                .push(TxSeg::new(seq, seq + len, flight, now, stamp));
            self.snd_nxt += len;
            self.snd_max = self.snd_max.max(self.snd_nxt);
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

    /// The next new data segment that cwnd, the peer's window, Nagle and
    /// pacing allow.
    fn next_data(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        if self.snd_nxt >= self.write_end {
            return None;
        }
        if self.board.in_flight() >= self.cb.cwnd {
            self.cwnd_validate(true);
            return None;
        }
        let unsent = self.write_end - self.snd_nxt;
        let len = unsent.min(self.mss as u64);
        // tcp_snd_wnd_test: the segment must fit inside the peer's window. (Linux
        // with TSO can also cut a large buffer at the window edge to the byte,
        // `tcp_mss_split_point`; the simulator sends whole segments only.)
        if self.snd_nxt + len > self.snd_una + self.snd_wnd {
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
        if len < self.mss as u64 && (self.corked || (self.packets_out() > 0 && self.nagle_holds()))
        {
            self.held = Some(if self.corked { Hold::Cork } else { Hold::Nagle });
            return None;
        }
        if self.paced_out(now) {
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
        if let Some(p) = &mut self.prr {
            p.prr_out += 1;
        }
        if self.board.is_empty() {
            self.cc.cwnd_event(&mut self.cb, CwndEvent::TxStart, now);
        }
        self.cc.cwnd_event(&mut self.cb, CwndEvent::DataSent, now);
        let stamp = self.on_data_xmit(now, len as u32);
        self.board
            .push(TxSeg::new(seq, seq + len, flight, now, stamp));
        self.snd_nxt += len;
        self.snd_max = self.snd_max.max(self.snd_nxt);
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
        let limited = self.packets_out() >= self.cb.cwnd;
        self.cwnd_validate(limited);
        Some((seg, flight, false))
    }
}
