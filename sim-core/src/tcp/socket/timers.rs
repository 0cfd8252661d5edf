//! The socket's timers (tcp_timer.c): one table of deadlines keyed by kind,
//! and what each kind does when it fires.
//!
//! ```text
//!   kind        armed by                              on expiry
//!   ReadTick    a paced reader with unread data       the application reads (tcp_recvmsg)
//!   Persist     window too small, nothing in flight   a zero-window probe (tcp_probe_timer)
//!   DelayedAck  AckPolicy (the table only reads it)   the pending ACK goes (tcp_delack_timer_handler)
//!   Pacing      pacing holds data back                data may go again (tcp_pace_kick)
//!   Reorder     RACK: a segment not yet overdue       RACK looks again (tcp_rack_reo_timeout)
//!   LossProbe   TLP: data sent, or an ACK, in Open    a tail-loss probe (tcp_send_loss_probe)
//!   Rto         data or a SYN in flight               retransmit, back off (tcp_retransmit_timer)
//! ```
//!
//! `poll_timeout` is the earliest deadline; `handle_timeout` serves every
//! kind that is due, in the order the enum declares.
//!
//! Linux keeps the loss probe and the RTO in one slot (`icsk_pending` of
//! `icsk_retransmit_timer`): arming one replaces the other, and clearing the
//! retransmission timer clears either. The table does the same for these two,
//! so at most one of them is ever armed. (The reorder timer shares that slot
//! in Linux too; here it keeps its own.)

use std::ops::ControlFlow;

use super::{Socket, State};
use crate::config::{TCP_RTO_MAX, TCP_RTO_MIN};
use crate::tcp::GiveUp;
use crate::tcp::rtt::tcp_model_timeout;
use crate::time::{SimDuration, SimTime};
use crate::trace::{Trace, TraceEvent};

/// `ilog2(TCP_RTO_MAX / TCP_RTO_MIN) + 1`: the most doublings
/// `tcp_probe0_when` applies to the probe interval.
const MAX_PROBE0_BACKOFF: u32 = 10;

/// A kind of timer.
///
/// Declared in the order `handle_timeout` serves them when several are due at
/// the same instant: read tick, persist, delayed ACK, pacing, reorder, loss
/// probe, RTO. (The loss probe and the RTO are never armed together.)
/// The order is behaviour, not style: each handler sees what the ones before
/// it did (an RTO due together with the reorder timer finds the Recovery that
/// timer entered, and so keeps ssthresh as `tcp_enter_loss` does within an
/// episode), so every trace depends on it. Do not reorder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Timer {
    /// The application's next read (a reader with a limited pace).
    ReadTick,
    /// The zero-window probe timer (`ICSK_TIME_PROBE0`).
    Persist,
    /// The delayed-ACK timer (`ICSK_TIME_DACK`); its deadline lives in `AckPolicy`.
    DelayedAck,
    /// The pacing timer (`tcp_pacing_timer`): data waits for its slot.
    Pacing,
    /// RACK's reorder timer (`ICSK_TIME_REO_TIMEOUT`).
    Reorder,
    /// The tail-loss probe timer (`ICSK_TIME_LOSS_PROBE`), armed in the RTO's place.
    LossProbe,
    /// The retransmission timer (`ICSK_TIME_RETRANS`).
    Rto,
}

impl Timer {
    const COUNT: usize = 7;

    /// Every kind, in declaration order: the order `handle_timeout` serves them.
    pub(super) const IN_ORDER: [Timer; Timer::COUNT] = [
        Timer::ReadTick,
        Timer::Persist,
        Timer::DelayedAck,
        Timer::Pacing,
        Timer::Reorder,
        Timer::LossProbe,
        Timer::Rto,
    ];

    /// The timer that shares Linux's retransmission slot with this one.
    fn slot_mate(self) -> Option<Timer> {
        match self {
            Timer::Rto => Some(Timer::LossProbe),
            Timer::LossProbe => Some(Timer::Rto),
            _ => None,
        }
    }
}

/// One deadline per kind of timer.
///
/// The delayed-ACK deadline is not stored here (its slot stays empty):
/// `AckPolicy` keeps it, because
/// its decisions depend on it (an armed timer keeps its earlier deadline, and
/// one about to fire means "ACK now") and every ACK sent clears it. A copy here
/// would have to follow each of those changes; instead the table is handed the
/// policy's deadline when it computes the next timeout, and the socket reads it
/// from the policy when it checks what is due.
///
/// Kept as plain nanoseconds, `u64::MAX` where a timer is not armed, with
/// the armed kinds as bits: the next timeout, asked after every event on
/// both sides, is then a plain minimum. (A timer may be armed for
/// `u64::MAX` itself, a deadline saturated; its bit tells it from "not
/// armed", and as before it never becomes the next timeout.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TimerTable {
    deadlines: [u64; Timer::COUNT],
    armed: u8,
}

impl Default for TimerTable {
    fn default() -> Self {
        TimerTable {
            deadlines: [u64::MAX; Timer::COUNT],
            armed: 0,
        }
    }
}

impl TimerTable {
    /// Arms `timer` for `at`, replacing any earlier deadline (and, for the
    /// RTO and the loss probe, the other one: they share a slot).
    pub(super) fn set(&mut self, timer: Timer, at: SimTime) {
        debug_assert!(
            timer != Timer::DelayedAck,
            "AckPolicy owns the delayed-ACK deadline"
        );
        if let Some(mate) = timer.slot_mate() {
            self.disarm(mate);
        }
        self.deadlines[timer as usize] = at.0;
        self.armed |= 1 << timer as u8;
    }

    /// Disarms `timer`; stopping the RTO also stops a pending loss probe
    /// (`inet_csk_clear_xmit_timer` empties the shared slot).
    pub(super) fn stop(&mut self, timer: Timer) {
        if timer == Timer::Rto {
            self.disarm(Timer::LossProbe);
        }
        self.disarm(timer);
    }

    fn disarm(&mut self, timer: Timer) {
        self.deadlines[timer as usize] = u64::MAX;
        self.armed &= !(1 << timer as u8);
    }

    pub(super) fn get(&self, timer: Timer) -> Option<SimTime> {
        (self.armed & 1 << timer as u8 != 0).then(|| SimTime(self.deadlines[timer as usize]))
    }

    /// The earliest deadline, the delayed ACK's (kept by `AckPolicy`) included.
    pub(super) fn next_timeout(&self, delayed_ack: Option<SimTime>) -> Option<SimTime> {
        let earliest = self
            .deadlines
            .iter()
            .fold(delayed_ack.map_or(u64::MAX, |t| t.0), |m, &t| m.min(t));
        (earliest != u64::MAX).then_some(SimTime(earliest))
    }
}

impl Socket {
    pub fn poll_timeout(&self) -> Option<SimTime> {
        if self.gave_up.is_some() {
            return None;
        }
        self.timers.next_timeout(self.acks.deadline())
    }

    /// When `timer` fires, if it is armed.
    fn deadline(&self, timer: Timer) -> Option<SimTime> {
        match timer {
            Timer::DelayedAck => self.acks.deadline(),
            _ => self.timers.get(timer),
        }
    }

    pub fn handle_timeout(&mut self, now: SimTime, trace: &mut Trace) {
        for timer in Timer::IN_ORDER {
            // Each kind is checked after the handlers before it have run.
            let due = self.deadline(timer).is_some_and(|t| t <= now);
            if due && self.on_timer(timer, now, trace).is_break() {
                return;
            }
        }
    }

    /// Runs what `timer` does when it fires. Breaks when the connection has
    /// been given up, so that no later timer runs.
    fn on_timer(&mut self, timer: Timer, now: SimTime, trace: &mut Trace) -> ControlFlow<()> {
        match timer {
            Timer::ReadTick => self.app_read(now),
            Timer::Persist => return self.tcp_probe_timer(now, trace),
            Timer::DelayedAck => self.tcp_delack_timer(),
            // `tcp_pace_kick`: the slot has come, data may go again.
            Timer::Pacing => self.timers.stop(Timer::Pacing),
            Timer::Reorder => self.tcp_rack_reo_timeout(now, trace),
            Timer::LossProbe => self.tcp_send_loss_probe(now, trace),
            Timer::Rto => self.tcp_retransmit_timer(now, trace),
        }
        ControlFlow::Continue(())
    }

    /// (Re)starts the retransmission timer for one RTO from now
    /// (`tcp_reset_xmit_timer(sk, ICSK_TIME_RETRANS, ...)`).
    pub(super) fn tcp_reset_xmit_timer(&mut self, now: SimTime) {
        self.timers.set(Timer::Rto, now + self.rtt.rto());
    }

    /// After an ACK (RFC 6298 5.2, 5.3): stop the timer when all is
    /// acknowledged, else restart it when new data is acknowledged.
    pub(super) fn tcp_rearm_rto(&mut self, now: SimTime, una_advanced: bool) {
        if self.board.is_empty() {
            self.timers.stop(Timer::Rto);
            self.timers.stop(Timer::Reorder);
        } else if una_advanced {
            self.tcp_reset_xmit_timer(now);
        }
    }

    /// `tcp_check_probe_timer`: window-limited with nothing in flight, no ACK
    /// will come to reopen the window, so the persist timer must. The first
    /// probe waits `tcp_probe0_base`, without backoff.
    pub(super) fn tcp_check_probe_timer(&mut self, now: SimTime) {
        if self.packets_out() == 0
            && self.timers.get(Timer::Persist).is_none()
            && !self.probe.probe_pending
        {
            self.reset_probe_timer(now, self.tcp_probe0_base());
        }
    }

    /// `tcp_reset_xmit_timer(sk, ICSK_TIME_PROBE0, when, ...)`: the timer
    /// expires `when` (in jiffies, rounded up as `usecs_to_jiffies`) after
    /// this tick, and runs on the tick the era's wheel gives that expiry:
    /// one RTO of 300 ms is 300 ticks at HZ=1000, wheel level 1, so today it
    /// runs on the next multiple of 8 ticks after the expiry (301–308 ms).
    pub(super) fn reset_probe_timer(&mut self, now: SimTime, when: SimDuration) {
        let (hz, wheel) = (self.probe.hz, self.probe.wheel);
        let (_, at) = wheel.arm(hz, now, hz.ticks_ceil(when));
        self.timers.set(Timer::Persist, at);
    }

    /// `tcp_probe0_base`: the RTO, at least `TCP_RTO_MIN`.
    fn tcp_probe0_base(&self) -> SimDuration {
        self.rtt.rto().max(TCP_RTO_MIN)
    }

    /// `tcp_probe0_when`: the base doubled per probe sent unanswered in a
    /// row (`icsk_backoff`, at most ten doublings), at most `TCP_RTO_MAX`.
    pub(super) fn tcp_probe0_when(&self) -> SimDuration {
        let mut when = self.tcp_probe0_base();
        for _ in 0..self.probe.probe_backoff.min(MAX_PROBE0_BACKOFF) {
            when = when.doubled();
        }
        when.min(TCP_RTO_MAX)
    }

    /// `tcp_ack_probe`, for an ACK that found nothing in flight (`tcp_ack`'s
    /// `no_queue` path) while data waits: if the window now has room for the
    /// next segment, probing ends and its backoff is forgotten; otherwise the
    /// next probe is timed from this answer, at the backed-off interval.
    pub(super) fn tcp_ack_probe(&mut self, now: SimTime) {
        if self.snd_nxt >= self.write_end {
            return;
        }
        if self.tcp_snd_wnd_test() {
            self.probe.probe_backoff = 0;
            self.timers.stop(Timer::Persist);
        } else {
            self.reset_probe_timer(now, self.tcp_probe0_when());
        }
    }

    /// The persist timer fired (`tcp_probe_timer`). Breaks when the
    /// connection is given up.
    fn tcp_probe_timer(&mut self, now: SimTime, trace: &mut Trace) -> ControlFlow<()> {
        self.timers.stop(Timer::Persist);
        if self.packets_out() > 0 || self.snd_nxt >= self.write_end {
            // Data in flight will bring ACKs, or there is nothing to send.
            self.probe.probes_out = 0;
            return ControlFlow::Continue(());
        }
        // After net.ipv4.tcp_retries2 probes with no ACK in between, the
        // connection is given up (tcp_write_err). A receiver that answers
        // keeps it open indefinitely (RFC 1122 4.2.2.17).
        if self.probe.probes_out >= self.retries2 {
            self.tcp_write_err(now, GiveUp::ZeroWindowProbes, self.probe.probes_out, trace);
            return ControlFlow::Break(());
        }
        // tcp_send_probe0, as the probe leaves (`poll_transmit`).
        self.probe.probe_pending = true;
        self.probe.probes_total += 1;
        trace.push(
            now,
            TraceEvent::ZeroWindowProbe {
                side: self.side,
                probes: self.probe.probes_total,
            },
        );
        ControlFlow::Continue(())
    }

    /// `tcp_delack_timer_handler`: the delayed ACK goes now.
    fn tcp_delack_timer(&mut self) {
        self.acks.set_rtt(self.rtt.rto(), self.rtt.srtt());
        self.acks.on_timer();
        self.ack_now = true;
    }

    /// RACK's reorder timer (`tcp_rack_reo_timeout`): segments that were
    /// within the reordering window when the last ACK came are now overdue.
    /// If that changed what is in flight, recovery starts (unless under way)
    /// with one PRR step, as if an ACK had delivered one segment
    /// (`tcp_cwnd_reduction(sk, 1, newly_lost, 0)`), so that only what the
    /// reduction allows is retransmitted; an algorithm with `cong_control`
    /// (BBR) keeps its cwnd until its next ACK. The retransmissions go at
    /// the next `poll_transmit` (`tcp_xmit_retransmit_queue`).
    fn tcp_rack_reo_timeout(&mut self, now: SimTime, trace: &mut Trace) {
        self.timers.stop(Timer::Reorder);
        if self.state != State::Established || self.board.is_empty() {
            return;
        }
        let lost = self.board.lost();
        let prior_in_flight = self.board.in_flight();
        self.tcp_rack_mark_lost(now, true);
        if self.board.in_flight() == prior_in_flight
            || self.cb.ca_state == crate::cc::CaState::Recovery
        {
            return;
        }
        let old = self.cb.cwnd;
        self.tcp_enter_recovery(now, trace);
        if !self.cc.has_cong_control() {
            let newly_lost = (self.board.lost() - lost) as u32;
            self.tcp_cwnd_reduction(1, newly_lost, false);
        }
        self.trace_cwnd(now, old, trace);
    }

    /// The retransmission timer expired (`tcp_retransmit_timer`). A SYN's
    /// and a SYN-ACK's timers are their own (`handshake.rs`).
    fn tcp_retransmit_timer(&mut self, now: SimTime, trace: &mut Trace) {
        match self.state {
            State::SynSent => return self.tcp_syn_timeout(now, trace),
            State::SynReceived => return self.reqsk_timer_handler(now, trace),
            State::Listen | State::Established => {}
        }
        if self.tcp_write_timeout(now) {
            self.tcp_write_err(now, GiveUp::Retries2, self.retransmits, trace);
            return;
        }
        if self.retransmits == 0 {
            // The episode's first timeout: Linux's retrans_stamp is the
            // latest send of the segment it resends.
            self.write_timeout_from = self.board.front().map_or(now, |h| h.sent_at);
        }
        self.retrans_stamp.get_or_insert(now);
        self.retransmits += 1;
        self.trace_timeout(now, self.rtt.rto(), trace);
        self.timers.stop(Timer::Rto);
        self.rtt.back_off();
        if self.state == State::Established {
            let before = self.frto_before_timeout();
            self.tcp_enter_loss(now, trace);
            self.tcp_frto_on_timeout(before);
        }
    }

    /// Records that the retransmission timer (a SYN's, a request's) fired
    /// after waiting `rto`.
    pub(super) fn trace_timeout(&self, now: SimTime, rto: SimDuration, trace: &mut Trace) {
        trace.push(
            now,
            TraceEvent::RtoFired {
                side: self.side,
                rto_ns: rto.0,
            },
        );
    }

    /// `tcp_write_timeout` once established (`retransmits_timed_out`): give up
    /// once the episode has lasted as long as tcp_retries2 doublings of
    /// `TCP_RTO_MIN` would take (924.6 s for 15), whatever the real RTO.
    fn tcp_write_timeout(&self, now: SimTime) -> bool {
        self.retransmits > 0
            && now.since(self.write_timeout_from) >= tcp_model_timeout(self.retries2, TCP_RTO_MIN)
    }

    /// `tcp_write_err`: the connection is given up after `retries` unanswered
    /// tries (the listener's `inet_csk_reqsk_queue_drop_and_put` for a
    /// request); it sends nothing more.
    pub(super) fn tcp_write_err(
        &mut self,
        now: SimTime,
        reason: GiveUp,
        retries: u32,
        trace: &mut Trace,
    ) {
        self.gave_up = Some(reason);
        trace.push(
            now,
            TraceEvent::Aborted {
                side: self.side,
                retries,
            },
        );
    }
}
