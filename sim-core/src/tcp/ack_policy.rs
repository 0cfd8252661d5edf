//! When a receiver acknowledges: Linux's delayed-ACK engine, and the simpler
//! policies other stacks use.
//!
//! Linux (tcp_input.c `__tcp_ack_snd_check`, `tcp_event_data_recv`,
//! `tcp_measure_rcv_mss`, `tcp_grow_window`; tcp_output.c
//! `tcp_send_delayed_ack`, `tcp_event_ack_sent`, `tcp_event_data_sent`;
//! tcp.c `tcp_cleanup_rbuf`):
//!
//! ```text
//!  data in order ─► ACK now if  more than one rcv_mss is unacknowledged and the
//!                               window would not shrink (else the read ACKs)
//!                            or quick-ACK mode (quick > 0 and not ping-pong)
//!                  otherwise arm the delayed-ACK timer for ato (bounded below)
//!  each segment  ─► rcv_mss follows the peer's full segments   tcp_measure_rcv_mss
//!                   a short one sets PUSHED (a second, PUSHED2); a full one with
//!                   PSH sets PUSHED too on 6.6+ kernels
//!  first data    ─► quick = min(rcv_wnd / (2·rcv_mss), 16)     tcp_incr_quickack
//!                   ato = 40 ms
//!  later data, m after the last ─► m ≤ 20 ms:  ato = ato/2 + 20 ms   tcp_event_data_recv
//!                                  m < ato:    ato = ato/2 + m (≤ rto)
//!                                  m > rto:    quick-ACKs again
//!  window grew   ─► quick |= 1                                 tcp_grow_window
//!  buffer half full ─► quick = 0                               __tcp_select_window
//!  ACK sent      ─► quick -= 1, PUSHED flags cleared           tcp_event_ack_sent
//!  the application read ─► ACK now if an ACK is pending and    tcp_cleanup_rbuf
//!                   more than one rcv_mss is unacknowledged, or it emptied the
//!                   buffer with PUSHED set (outside ping-pong) or PUSHED2
//!  we send data within ato of receiving some ─► ping-pong (interactive): no quick ACKs
//!  delayed-ACK timer fires ─► ping-pong: leave it, ato = 40 ms   tcp_delack_timer_handler
//!                             otherwise: ato = min(2·ato, rto)
//!  the timer is armed for min(ato, max(srtt, 40 ms), 200 ms in ping-pong or
//!  with PUSHED set, 500 ms otherwise; 200 ms at most on 5.10+) tcp_send_delayed_ack
//!  at jiffies + that, and runs on the tick the era's timer wheel gives it
//!  (crate::timer_wheel: the expiry tick before 4.8, one past it since)
//! ```
//!
//! Simplification: `ato` is kept in nanoseconds and becomes whole ticks (rounded
//! down; srtt rounded up, as `usecs_to_jiffies`) only when the timer is armed.

pub use crate::config::DelayedAck;
use crate::time::{SimDuration, SimTime};
use crate::timer_wheel::{Hz, TimerWheel};

/// `TCP_MAX_QUICKACKS` (include/net/tcp.h).
pub const TCP_MAX_QUICKACKS: u32 = 16;
/// `TCP_ATO_MIN`: HZ/25.
pub const TCP_ATO_MIN: SimDuration = SimDuration::from_millis(40);
/// `TCP_DELACK_MIN`: the same 40 ms, as the floor of the armed timer.
pub const TCP_DELACK_MIN: SimDuration = SimDuration::from_millis(40);
/// `TCP_DELACK_MAX`: HZ/5, the ceiling in ping-pong mode.
pub const TCP_DELACK_MAX: SimDuration = SimDuration::from_millis(200);
/// `tcp_send_delayed_ack`'s ceiling outside ping-pong: HZ/2.
const DELACK_MAX_BULK: SimDuration = SimDuration::from_millis(500);
/// `TCP_PINGPONG_THRESH`: one reply within ato makes a connection interactive
/// (it was 3 in kernels 5.1 to 5.18: `Behaviour::pingpong_thresh`).
pub const TCP_PINGPONG_THRESH: u32 = 1;
/// `TCP_MSS_DEFAULT`: the most `rcv_mss` starts at (RFC 1122's 536).
pub const TCP_MSS_DEFAULT: u32 = 536;
/// `TCP_MIN_MSS`: the least it starts at.
pub const TCP_MIN_MSS: u32 = 88;
/// `sizeof(struct tcphdr)`.
const TCP_HEADER: u32 = 20;
/// `tp->tcp_header_len` with timestamps, which every segment here carries.
pub const TCP_HEADER_LEN: u32 = TCP_HEADER + 12;

/// What to do about an arriving data segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckDecision {
    Now,
    /// Wait; the delayed-ACK timer is armed for this time (it may have been armed already).
    Delay(SimTime),
}

/// A received data segment as `tcp_measure_rcv_mss` sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// Payload bytes.
    pub len: u32,
    /// TCP header bytes, options included.
    pub header_len: u32,
    /// PSH set.
    pub psh: bool,
}

#[derive(Clone, Debug)]
pub struct AckPolicy {
    mode: DelayedAck,
    /// `ip route ... quickack 1` / `TCP_QUICKACK`: every ACK is quick.
    always_quick: bool,
    /// A full-sized segment with PSH sets PUSHED (4720852ed9af, 6.6).
    ack_pushed_full_segment: bool,
    /// `TCP_PINGPONG_THRESH` on this host's kernel.
    pingpong_thresh: u32,
    quick: u32,
    pingpong: u32,
    started: bool,
    lrcvtime: SimTime,
    /// `tp->lsndtime`: when this host last sent data (from the start, as
    /// the handshake sets it).
    lsndtime: SimTime,
    /// `icsk_ack.ato`: the estimated gap between arriving segments.
    ato: SimDuration,
    /// The socket's retransmission timeout and smoothed RTT, which bound ato.
    rto: SimDuration,
    srtt: Option<SimDuration>,
    /// When the armed delayed-ACK timer runs (the wheel's tick).
    deadline: Option<SimTime>,
    /// `icsk_ack.timeout`: the armed timer's expiry in jiffies, before the
    /// wheel rounds it.
    expires: u64,
    /// The host's tick and timer wheel.
    hz: Hz,
    wheel: TimerWheel,
    /// `icsk_delack_max` (5.10+): the timer never waits more than
    /// `TCP_DELACK_MAX`, even outside ping-pong.
    delack_max_cap: bool,
    /// `icsk_ack.rcv_mss`: the peer's segment size as this receiver guesses it.
    rcv_mss: u32,
    /// `icsk_ack.last_seg_size`: the last short segment, less its header.
    last_seg_size: u32,
    /// `ICSK_ACK_SCHED`: received data waits for an ACK.
    scheduled: bool,
    /// `ICSK_ACK_PUSHED`, `ICSK_ACK_PUSHED2`.
    pushed: bool,
    pushed2: bool,
}

impl AckPolicy {
    pub fn new(mode: DelayedAck, always_quick: bool, ack_pushed_full_segment: bool) -> Self {
        AckPolicy {
            mode,
            always_quick,
            ack_pushed_full_segment,
            pingpong_thresh: TCP_PINGPONG_THRESH,
            quick: 0,
            pingpong: 0,
            started: false,
            lrcvtime: SimTime::ZERO,
            lsndtime: SimTime::ZERO,
            ato: TCP_ATO_MIN,
            rto: crate::config::TCP_TIMEOUT_INIT,
            srtt: None,
            deadline: None,
            expires: 0,
            hz: Hz::DEFAULT,
            wheel: TimerWheel::Cascading,
            delack_max_cap: false,
            rcv_mss: TCP_MSS_DEFAULT,
            last_seg_size: 0,
            scheduled: false,
            pushed: false,
            pushed2: false,
        }
    }

    /// The kernel's `TCP_PINGPONG_THRESH` (3 on 5.1 to 5.18).
    pub fn with_pingpong_thresh(mut self, thresh: u32) -> Self {
        self.pingpong_thresh = thresh.max(1);
        self
    }

    /// The host's tick and timer wheel, and whether it caps the timer at
    /// `TCP_DELACK_MAX` (`icsk_delack_max`, 5.10+).
    pub fn with_timer(mut self, hz: Hz, wheel: TimerWheel, delack_max_cap: bool) -> Self {
        self.hz = hz;
        self.wheel = wheel;
        self.delack_max_cap = delack_max_cap;
        self
    }

    /// The sender side's RTT estimate, which Linux uses to bound `ato`.
    pub fn set_rtt(&mut self, rto: SimDuration, srtt: Option<SimDuration>) {
        self.rto = rto;
        self.srtt = srtt;
    }

    /// The current `ato` estimate (for tests and traces).
    pub fn ato(&self) -> SimDuration {
        self.ato
    }

    /// `tcpi_ato`, `lsndtime` and `lrcvtime` as `TCP_INFO` reports them: 0
    /// for an estimate not yet started, or a time not yet stamped.
    pub fn info_times(&self) -> (u64, u64, u64) {
        let ato = if self.started { self.ato.0 } else { 0 };
        (ato, self.lsndtime.0, self.lrcvtime.0)
    }

    pub fn rcv_mss(&self) -> u32 {
        self.rcv_mss
    }

    /// `tcp_initialize_rcv_mss`: underestimate the peer's MSS rather than
    /// overestimate it: at most 536 and half the window offered, at least 88.
    pub fn init_rcv_mss(&mut self, advmss: u32, rcv_wnd: u64) {
        let hint = (advmss as u64).min(rcv_wnd / 2).min(TCP_MSS_DEFAULT as u64) as u32;
        self.rcv_mss = hint.max(TCP_MIN_MSS);
    }

    /// `tcp_measure_rcv_mss` for a segment from a peer whose own advmss is
    /// `advmss`. Returns true for a full-sized segment whose length differs
    /// from the estimate, which is when 6.6+ re-measure `scaling_ratio`.
    pub fn measure_rcv_mss(&mut self, seg: Arrival, advmss: u32) -> bool {
        let lss = self.last_seg_size;
        self.last_seg_size = 0;
        if seg.len >= self.rcv_mss {
            let remeasure = seg.len != self.rcv_mss;
            self.rcv_mss = seg.len.min(advmss);
            // A full segment with PSH is likely the end of a write, and its
            // sender may be waiting for the ACK: ACK it once it is read.
            if seg.psh && self.ack_pushed_full_segment {
                self.pushed = true;
            }
            return remeasure;
        }
        // A short segment: with its header (so that SACK blocks do not make it
        // jitter), a repeated length without PSH is taken as the peer's MSS.
        let with_header = seg.len + seg.header_len;
        if with_header >= TCP_MSS_DEFAULT + TCP_HEADER
            || (with_header >= TCP_MIN_MSS + TCP_HEADER && !seg.psh)
        {
            let len = with_header.saturating_sub(TCP_HEADER_LEN);
            self.last_seg_size = len;
            if len == lss {
                self.rcv_mss = len;
                return false;
            }
        }
        if self.pushed {
            self.pushed2 = true;
        }
        self.pushed = true;
        false
    }

    /// `tcp_incr_quickack`: up to half the window's worth of segments, at least
    /// two when the window holds less than two.
    fn incr_quickack(&mut self, rcv_wnd: u64) {
        let mut quickacks =
            (rcv_wnd / (2 * self.rcv_mss.max(1) as u64)).min(u32::MAX as u64) as u32;
        if quickacks == 0 {
            quickacks = 2;
        }
        self.quick = self.quick.max(quickacks.min(TCP_MAX_QUICKACKS));
    }

    /// `tcp_event_data_recv`'s ACK bookkeeping: an ACK is now due, and ato
    /// adapts to the gap since the last segment. `rcv_wnd` is the window last
    /// advertised.
    pub fn on_data_recv(&mut self, now: SimTime, rcv_wnd: u64) {
        self.scheduled = true;
        if self.mode == DelayedAck::Linux {
            self.adapt_ato(now, rcv_wnd);
        }
        self.lrcvtime = now;
    }

    fn adapt_ato(&mut self, now: SimTime, rcv_wnd: u64) {
        if !self.started {
            // The first data packet initialises the delayed-ACK engine.
            self.started = true;
            self.incr_quickack(rcv_wnd);
            self.ato = TCP_ATO_MIN;
            return;
        }
        let m = now.since(self.lrcvtime);
        let half_min = SimDuration(TCP_ATO_MIN.0 / 2);
        if m <= half_min {
            self.ato = SimDuration(self.ato.0 / 2 + half_min.0);
        } else if m < self.ato {
            self.ato = SimDuration(self.ato.0 / 2 + m.0).min(self.rto);
        } else if m > self.rto {
            // A long silence: the sender probably restarted from a small window,
            // so ACK quickly again.
            self.incr_quickack(rcv_wnd);
        }
    }

    /// `tcp_grow_window` raised rcv_ssthresh: one more quick ACK.
    pub fn window_grew(&mut self) {
        if self.mode == DelayedAck::Linux {
            self.quick |= 1;
        }
    }

    /// `__tcp_select_window` found less than half the buffer's window free:
    /// quick-ACK mode ends.
    pub fn clear_quick(&mut self) {
        self.quick = 0;
    }

    /// Data arrived that must be acknowledged (out of order, a duplicate):
    /// `inet_csk_schedule_ack`.
    pub fn schedule(&mut self) {
        self.scheduled = true;
    }

    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    /// How many ticks the delayed-ACK timer waits (`tcp_send_delayed_ack`):
    /// ato, bounded by max(srtt, `TCP_DELACK_MIN`) and by `TCP_DELACK_MAX` in
    /// ping-pong or after a pushed segment, HZ/2 otherwise; then, on 5.10+,
    /// by `icsk_delack_max` (`TCP_DELACK_MAX`).
    fn timeout_ticks(&self) -> u64 {
        let hz = self.hz;
        let ato = hz.ticks_floor(self.ato);
        let delack_min = hz.ticks_floor(TCP_DELACK_MIN);
        let delack_max = hz.ticks_floor(TCP_DELACK_MAX);
        let mut ato = if ato > delack_min {
            let mut max_ato = if self.in_pingpong_mode() || self.pushed {
                delack_max
            } else {
                hz.ticks_floor(DELACK_MAX_BULK)
            };
            if let Some(srtt) = self.srtt {
                max_ato = max_ato.min(hz.ticks_ceil(srtt).max(delack_min));
            }
            ato.min(max_ato)
        } else {
            ato
        };
        if self.delack_max_cap {
            ato = ato.min(delack_max);
        }
        ato
    }

    /// `tcp_in_quickack_mode`.
    pub fn in_quickack_mode(&self) -> bool {
        self.always_quick || (self.quick > 0 && self.pingpong < self.pingpong_thresh)
    }

    fn in_pingpong_mode(&self) -> bool {
        self.pingpong >= self.pingpong_thresh
    }

    /// `__tcp_ack_snd_check` after in-order data. `unacked` is rcv_nxt −
    /// rcv_wup (bytes not yet acknowledged, this segment included).
    /// `window_ok` is asked only when more than one rcv_mss is unacknowledged:
    /// Linux then ACKs at once only if the window it would advertise is not
    /// smaller than the last one (or nothing is left unread); otherwise the
    /// application's read will ACK (`tcp_cleanup_rbuf`). It may end quick-ACK
    /// mode, as `__tcp_select_window` does.
    pub fn ack_snd_check(
        &mut self,
        now: SimTime,
        unacked: u64,
        window_ok: impl FnOnce(&mut AckPolicy) -> bool,
    ) -> AckDecision {
        let more_than_one_segment = unacked > self.rcv_mss as u64;
        let now_please = match self.mode {
            DelayedAck::Off => true,
            DelayedAck::Fixed(_) => more_than_one_segment || self.always_quick,
            DelayedAck::Linux => {
                (more_than_one_segment && window_ok(self)) || self.in_quickack_mode()
            }
        };
        if now_please {
            return AckDecision::Now;
        }
        self.tcp_send_delayed_ack(now)
    }

    /// `tcp_send_delayed_ack`: arm the timer, or keep an earlier deadline.
    /// Linux counts in jiffies: the timer expires at `jiffies + ato`, and the
    /// era's timer wheel decides the tick it runs on ([`TimerWheel`]).
    fn tcp_send_delayed_ack(&mut self, now: SimTime) -> AckDecision {
        if let DelayedAck::Fixed(d) = self.mode {
            // Other stacks' fixed timers: exact, and an armed one is kept.
            let t = *self.deadline.get_or_insert(now + d);
            return AckDecision::Delay(t);
        }
        let ato = self.timeout_ticks();
        let jiffies = self.hz.jiffies(now);
        let mut timeout = jiffies + ato;
        if self.deadline.is_some() {
            // A timer about to expire (within ato/4) means ACK now.
            if self.expires <= jiffies + ato / 4 {
                return AckDecision::Now;
            }
            // An earlier expiry stands; a later one is not taken.
            if timeout >= self.expires {
                timeout = self.expires;
            }
        }
        if self.deadline.is_none() || timeout != self.expires {
            // sk_reset_timer → mod_timer: the wheel places the new expiry
            // (mod_timer leaves a pending timer with the same expiry alone).
            let runs_on = self.wheel.runs_on(jiffies, timeout);
            self.deadline = Some(self.hz.tick_start(runs_on));
            self.expires = timeout;
        }
        AckDecision::Delay(self.deadline.expect("armed above"))
    }

    /// `tcp_event_data_recv` then `__tcp_ack_snd_check` for in-order data,
    /// with the window condition met: for callers that track no window.
    pub fn on_data(
        &mut self,
        now: SimTime,
        unacked: u64,
        rcv_wnd: u64,
        window_grew: bool,
    ) -> AckDecision {
        self.on_data_recv(now, rcv_wnd);
        if window_grew {
            self.window_grew();
        }
        self.ack_snd_check(now, unacked, |_| true)
    }

    /// The ACK half of `tcp_cleanup_rbuf`, after the application read
    /// `copied` bytes: is the pending ACK due now? Yes if more than one
    /// rcv_mss is unacknowledged (the ACK `__tcp_ack_snd_check` left to the
    /// read), or if the read emptied the buffer (`rmem_empty`) after a PUSHED
    /// segment outside ping-pong mode, or after two of them.
    pub fn cleanup_rbuf(&self, copied: u64, unacked: u64, rmem_empty: bool) -> bool {
        self.mode == DelayedAck::Linux
            && self.scheduled
            && (unacked > self.rcv_mss as u64
                || (copied > 0
                    && (self.pushed2 || (self.pushed && !self.in_pingpong_mode()))
                    && rmem_empty))
    }

    /// An ACK left (alone or on data): `tcp_event_ack_sent`.
    pub fn on_ack_sent(&mut self) {
        self.quick = self.quick.saturating_sub(1);
        self.deadline = None;
        self.scheduled = false;
        self.pushed = false;
        self.pushed2 = false;
    }

    /// We sent data: a quick reply to received data marks the connection
    /// interactive (`tcp_event_data_sent`). With a threshold of 3 (5.1 to
    /// 5.18) only the first data sent since data arrived counts, compared in
    /// jiffies (`before(tp->lsndtime, icsk_ack.lrcvtime)`): a request that
    /// arrives in the tick of this host's previous send does not count, the coarseness for which
    /// 4d8f24eeedc5 went back to 1.
    pub fn on_data_sent(&mut self, now: SimTime) {
        let first_reply = self.pingpong_thresh == 1
            || self.hz.jiffies(self.lsndtime) < self.hz.jiffies(self.lrcvtime);
        self.lsndtime = now;
        if self.mode == DelayedAck::Linux
            && self.started
            && first_reply
            && now.since(self.lrcvtime) < self.ato
        {
            self.pingpong = self.pingpong.saturating_add(1);
        }
    }

    /// The delayed-ACK timer fired: the ACK goes now (`tcp_delack_timer_handler`).
    /// In ping-pong mode Linux takes the missed reply as a sign to leave it and
    /// resets ato; otherwise the gap was longer than guessed, so ato doubles.
    pub fn on_timer(&mut self) {
        self.deadline = None;
        if self.mode != DelayedAck::Linux {
            return;
        }
        if self.pingpong >= self.pingpong_thresh {
            self.pingpong = 0;
            self.ato = TCP_ATO_MIN;
        } else {
            self.ato = self.ato.doubled().min(self.rto);
        }
    }
}

#[cfg(test)]
mod tests;
