//! The SYN and the SYN-ACK after they left: their timers, when a host gives
//! the handshake up, and what their retransmissions leave the connection
//! with once it is established.
//!
//! ```text
//!   client, SYN-SENT (tcp_retransmit_timer)   server, SYN-RECV (reqsk_timer_handler)
//!   SYN at 0, again at 1, 3, 7, 15, 31, 63 s  SYN-ACK at 0, again at 1, 3, 7, 15, 31 s
//!   (6.5+: 1, 2, 3, 4, 5, 7, 11, 19, 35, 67)  request forgotten at 63 s, no RST
//!   connect() fails at 127 s (6.5+: 131 s)    a retried SYN: SYN-ACK again at once
//!
//!   established (tcp_init_transfer): RTT from the echoed timestamp when the
//!   SYN was resent; cwnd 1 after two or more resends unless the ACK echoes
//!   the first SYN-ACK (tcp_try_undo_spurious_syn, 5.4+)
//! ```
//!
//! Linux keeps a passive open in a request sock until the handshake's ACK
//! arrives; the simulator keeps it in the socket, in `SynReceived`, with the
//! request's timer in the `Rto` slot.

use super::timers::Timer;
use super::{Socket, State};
use crate::config::{TCP_RTO_MAX, TCP_TIMEOUT_INIT};
use crate::segment::Segment;
use crate::tcp::GiveUp;
use crate::tcp::rtt::tcp_model_timeout;
use crate::time::{SimDuration, SimTime};
use crate::trace::Trace;

impl Socket {
    /// A SYN (SYN-ACK) is leaving now: counts it, and arms its timer.
    pub(super) fn on_syn_sent(&mut self, now: SimTime) -> bool {
        let retransmit = self.syn.first_sent_at.is_some();
        if retransmit {
            self.syn.retransmits += 1;
            self.total_retrans += 1;
        } else {
            self.syn.first_sent_at = Some(now);
        }
        self.syn.sent_at = now;
        match self.state {
            // The request's timer (`inet_csk_reqsk_queue_hash_add`, and
            // `mod_timer_pending` for a retried SYN): from now.
            State::SynReceived => self.timers.set(Timer::Rto, now + self.reqsk_timeout()),
            _ => self.tcp_reset_xmit_timer(now),
        }
        retransmit
    }

    /// `reqsk_timeout`: `TCP_TIMEOUT_INIT` doubled per expiry, at most
    /// `TCP_RTO_MAX`.
    fn reqsk_timeout(&self) -> SimDuration {
        let mut t = TCP_TIMEOUT_INIT;
        for _ in 0..self.syn.timeouts.min(8) {
            t = t.doubled();
        }
        t.min(TCP_RTO_MAX)
    }

    /// The SYN went unanswered (`tcp_retransmit_timer` in SYN-SENT): give up
    /// once `tcp_write_timeout` says so, else send it again. The RTO doubles,
    /// except after the first `tcp_syn_linear_timeouts` expiries (6.5+).
    pub(super) fn tcp_syn_timeout(&mut self, now: SimTime, trace: &mut Trace) {
        if self.tcp_syn_write_timeout(now) {
            self.tcp_write_err(now, GiveUp::SynRetries, self.syn.timeouts, trace);
            return;
        }
        self.syn.timeouts += 1;
        self.trace_timeout(now, self.rtt.rto(), trace);
        self.timers.stop(Timer::Rto);
        if self.syn.timeouts > self.handshake.syn_linear_timeouts {
            self.rtt.back_off();
        }
        self.syn.pending = true;
    }

    /// `tcp_write_timeout` in SYN-SENT: `tcp_syn_retries` retransmissions
    /// (plus the linear ones), or as long as that many doublings of the 1 s
    /// initial RTO take since the first SYN (`retransmits_timed_out`).
    fn tcp_syn_write_timeout(&self, now: SimTime) -> bool {
        let retries = self.handshake.syn_retries;
        let first = self.syn.first_sent_at.unwrap_or(now);
        self.syn.timeouts >= retries + self.handshake.syn_linear_timeouts
            || (self.syn.timeouts > 0
                && now.since(first) >= tcp_model_timeout(retries, TCP_TIMEOUT_INIT))
    }

    /// The SYN-ACK went unanswered (`reqsk_timer_handler`): after
    /// `tcp_synack_retries` expiries the listener forgets the request,
    /// silently (the client hears of it only when it next sends, from the
    /// listener's RST); until then the SYN-ACK goes again.
    pub(super) fn reqsk_timer_handler(&mut self, now: SimTime, trace: &mut Trace) {
        self.timers.stop(Timer::Rto);
        if self.syn.timeouts >= self.handshake.synack_retries {
            self.tcp_write_err(now, GiveUp::SynAckRetries, self.syn.timeouts, trace);
            return;
        }
        self.trace_timeout(now, self.reqsk_timeout(), trace);
        self.syn.timeouts += 1;
        self.syn.pending = true;
    }

    /// The handshake completes (`tcp_finish_connect`, or the request's
    /// ACK): the RTT sample, and the initial cwnd its retransmissions allow
    /// (`tcp_init_transfer`). Returns the RTT sample, if any.
    pub(super) fn syn_acknowledged(&mut self, now: SimTime, seg: &Segment) -> Option<SimDuration> {
        let passive = self.state == State::SynReceived;
        if passive {
            // The child socket starts with its own rate limit.
            self.last_oow_ack_time = None;
        }
        if self.syn.retransmits > 1
            && (!self.handshake.spurious_syn_undo || self.syn_undo_marker(seg, passive))
        {
            // RFC 6298 5.7 as tcp_init_transfer applies it: more than one SYN
            // (SYN-ACK) retransmission, and no proof that they were spurious.
            self.cb.cwnd = 1;
        }
        self.handshake_rtt(now, seg.ts_ecr)
    }

    /// `undo_marker` when the handshake completes: set by a timeout of our SYN
    /// (`tcp_enter_loss`) or SYN-ACK (`tcp_create_openreq_child`); cleared on
    /// the passive side when the ACK echoes the first SYN-ACK's timestamp,
    /// which shows that one arrived (`tcp_try_undo_spurious_syn`). The active
    /// side never undoes: `tcp_packet_delayed` is false in SYN-SENT.
    fn syn_undo_marker(&self, seg: &Segment, passive: bool) -> bool {
        let first_echoed = self.syn.first_sent_at.map(|t| t.0) == Some(seg.ts_ecr);
        self.syn.timeouts > 0 && !(passive && first_echoed)
    }

    /// The handshake's RTT sample: from our SYN if it left only once (Karn's
    /// rule forbids it otherwise); after a retransmission, from the
    /// timestamp the peer echoes when it is one of our SYNs'
    /// (`tcp_ack_update_rtt` falls back to `tcp_rtt_tsopt_us`; other echoes
    /// are rejected by `tcp_rcv_synsent_state_process` and `tcp_check_req`).
    fn handshake_rtt(&self, now: SimTime, ts_ecr: u64) -> Option<SimDuration> {
        if self.syn.retransmits == 0 {
            return Some(now.since(self.syn.sent_at));
        }
        let first = self.syn.first_sent_at?;
        (first.0 <= ts_ecr && ts_ecr <= self.syn.sent_at.0).then(|| now.since(SimTime(ts_ecr)))
    }
}
