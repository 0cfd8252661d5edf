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
//!  with PUSHED set, 500 ms otherwise)                          tcp_send_delayed_ack
//! ```

pub use crate::config::DelayedAck;
use crate::time::{SimDuration, SimTime};

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
/// (it was 3 in kernels 5.1 to 6.0).
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
    quick: u32,
    pingpong: u32,
    started: bool,
    lrcvtime: SimTime,
    /// `icsk_ack.ato`: the estimated gap between arriving segments.
    ato: SimDuration,
    /// The socket's retransmission timeout and smoothed RTT, which bound ato.
    rto: SimDuration,
    srtt: Option<SimDuration>,
    deadline: Option<SimTime>,
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
            quick: 0,
            pingpong: 0,
            started: false,
            lrcvtime: SimTime::ZERO,
            ato: TCP_ATO_MIN,
            rto: crate::config::TCP_TIMEOUT_INIT,
            srtt: None,
            deadline: None,
            rcv_mss: TCP_MSS_DEFAULT,
            last_seg_size: 0,
            scheduled: false,
            pushed: false,
            pushed2: false,
        }
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

    /// How long the delayed-ACK timer waits (`tcp_send_delayed_ack`).
    fn timeout(&self) -> SimDuration {
        match self.mode {
            DelayedAck::Fixed(d) => d,
            _ if self.ato > TCP_DELACK_MIN => {
                let mut max_ato = if self.pingpong >= TCP_PINGPONG_THRESH || self.pushed {
                    TCP_DELACK_MAX
                } else {
                    DELACK_MAX_BULK
                };
                if let Some(srtt) = self.srtt {
                    max_ato = max_ato.min(srtt.max(TCP_DELACK_MIN));
                }
                self.ato.min(max_ato)
            }
            _ => self.ato,
        }
    }

    /// `tcp_in_quickack_mode`.
    pub fn in_quickack_mode(&self) -> bool {
        self.always_quick || (self.quick > 0 && self.pingpong < TCP_PINGPONG_THRESH)
    }

    fn in_pingpong_mode(&self) -> bool {
        self.pingpong >= TCP_PINGPONG_THRESH
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
    fn tcp_send_delayed_ack(&mut self, now: SimTime) -> AckDecision {
        let ato = self.timeout();
        match self.deadline {
            // A timer about to fire (within ato/4) means ACK now.
            Some(t) if self.mode == DelayedAck::Linux && t <= now + SimDuration(ato.0 / 4) => {
                AckDecision::Now
            }
            // Keep the earlier deadline.
            Some(t) => AckDecision::Delay(t),
            None => {
                let t = now + ato;
                self.deadline = Some(t);
                AckDecision::Delay(t)
            }
        }
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

    /// We sent data: a quick reply to received data marks the connection interactive.
    pub fn on_data_sent(&mut self, now: SimTime) {
        if self.mode == DelayedAck::Linux && self.started && now.since(self.lrcvtime) < self.ato {
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
        if self.pingpong >= TCP_PINGPONG_THRESH {
            self.pingpong = 0;
            self.ato = TCP_ATO_MIN;
        } else {
            self.ato = self.ato.doubled().min(self.rto);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1448;

    fn t(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    /// A Linux receiver whose rcv_mss has settled on the peer's 1448 bytes.
    fn linux(always_quick: bool) -> AckPolicy {
        let mut p = AckPolicy::new(DelayedAck::Linux, always_quick, false);
        p.rcv_mss = MSS;
        p
    }

    #[test]
    fn linux_starts_with_sixteen_quick_acks() {
        let mut p = linux(false);
        // rcv_wnd 64256 / (2 x 1448) = 22, capped at TCP_MAX_QUICKACKS.
        for _ in 0..16 {
            assert_eq!(p.on_data(t(0), MSS as u64, 64_256, false), AckDecision::Now);
            p.on_ack_sent();
        }
        assert_eq!(
            p.on_data(t(0), MSS as u64, 64_256, false),
            AckDecision::Delay(t(40))
        );
    }

    #[test]
    fn a_small_window_gives_fewer_quick_acks_but_at_least_two() {
        let mut p = linux(false);
        assert_eq!(p.on_data(t(0), 100, 2_000, false), AckDecision::Now);
        p.on_ack_sent();
        assert_eq!(p.on_data(t(0), 100, 2_000, false), AckDecision::Now);
        p.on_ack_sent();
        assert!(matches!(
            p.on_data(t(0), 100, 2_000, false),
            AckDecision::Delay(_)
        ));
    }

    #[test]
    fn a_growing_window_keeps_acks_quick() {
        let mut p = linux(false);
        for _ in 0..40 {
            assert_eq!(p.on_data(t(0), MSS as u64, 64_256, true), AckDecision::Now);
            p.on_ack_sent();
        }
    }

    #[test]
    fn two_full_segments_are_acked_at_once_in_every_mode() {
        for mode in [
            DelayedAck::Linux,
            DelayedAck::Fixed(SimDuration::from_millis(200)),
            DelayedAck::Off,
        ] {
            let mut p = AckPolicy::new(mode, false, false);
            p.rcv_mss = MSS;
            p.quick = 0;
            p.started = true;
            assert_eq!(
                p.on_data(t(0), 2 * MSS as u64, 64_256, false),
                AckDecision::Now
            );
        }
    }

    #[test]
    fn windows_waits_200ms_for_a_lone_segment() {
        let mut p = AckPolicy::new(
            DelayedAck::Fixed(SimDuration::from_millis(200)),
            false,
            false,
        );
        p.rcv_mss = MSS;
        assert_eq!(
            p.on_data(t(5), MSS as u64, 64_256, true),
            AckDecision::Delay(t(205))
        );
    }

    #[test]
    fn replying_quickly_enters_ping_pong_and_ends_quick_acks() {
        let mut p = linux(false);
        assert_eq!(p.on_data(t(0), 100, 64_256, false), AckDecision::Now);
        p.on_data_sent(t(1)); // the reply left 1 ms after the request: interactive
        assert_eq!(
            p.on_data(t(10), 100, 64_256, false),
            AckDecision::Delay(t(50))
        );
        p.on_timer();
        assert!(
            p.in_quickack_mode(),
            "a missed delayed ACK leaves ping-pong mode"
        );
    }

    #[test]
    fn a_timer_about_to_fire_sends_the_ack_now() {
        let mut p = linux(false);
        p.started = true;
        assert_eq!(
            p.on_data(t(0), 100, 64_256, false),
            AckDecision::Delay(t(40))
        );
        // 35 ms later the timer is within ato/4 = 10 ms of firing.
        assert_eq!(p.on_data(t(35), 200, 64_256, false), AckDecision::Now);
    }

    #[test]
    fn quickack_route_attribute_acks_everything_at_once() {
        let mut p = linux(true);
        p.started = true;
        p.pingpong = 5;
        assert_eq!(p.on_data(t(0), 100, 64_256, false), AckDecision::Now);
    }

    /// A policy past its quick ACKs, with the RTT estimate of a 150 ms path.
    fn delaying(rto_ms: u64, srtt_ms: u64) -> AckPolicy {
        let mut p = linux(false);
        p.started = true;
        p.set_rtt(
            SimDuration::from_millis(rto_ms),
            Some(SimDuration::from_millis(srtt_ms)),
        );
        p
    }

    #[test]
    fn back_to_back_segments_keep_ato_at_40ms() {
        let mut p = delaying(350, 150);
        for i in 0..10 {
            // 100 bytes every 5 ms: ato = ato/2 + 20 ms stays 40 ms.
            let _ = p.on_data(t(5 * i), 100, 64_256, false);
            assert_eq!(p.ato(), TCP_ATO_MIN);
        }
    }

    #[test]
    fn a_missed_delayed_ack_doubles_ato_up_to_the_rto_and_srtt_bounds_the_timer() {
        let mut p = delaying(200, 150);
        let mut now = 0;
        let mut armed = vec![];
        for _ in 0..4 {
            // Gaps of exactly the RTO: at least ato, so arrivals leave ato alone,
            // and not over the RTO, so no quick ACKs are granted.
            now += 200;
            match p.on_data(t(now), 100, 64_256, false) {
                AckDecision::Delay(at) => armed.push(at.since(t(now)).0 / 1_000_000),
                AckDecision::Now => panic!("not in quick-ACK mode"),
            }
            p.on_timer();
            p.on_ack_sent();
        }
        // ato: 40 → 80 → 160 → 200 (the RTO); the armed timer is capped by srtt.
        assert_eq!(armed, vec![40, 80, 150, 150]);
        assert_eq!(p.ato(), SimDuration::from_millis(200));
    }

    #[test]
    fn a_gap_shorter_than_ato_pulls_it_halfway_down() {
        let mut p = delaying(400, 300);
        let _ = p.on_data(t(0), 100, 64_256, false);
        p.ato = SimDuration::from_millis(160);
        let _ = p.on_data(t(30), 100, 64_256, false);
        // 160/2 + 30
        assert_eq!(p.ato(), SimDuration::from_millis(110));
    }

    #[test]
    fn a_missed_ack_in_ping_pong_resets_ato() {
        let mut p = delaying(400, 300);
        p.ato = SimDuration::from_millis(160);
        p.pingpong = TCP_PINGPONG_THRESH;
        // In ping-pong the timer is capped at 200 ms (and here by srtt 300 ms).
        assert_eq!(
            p.on_data(t(1_000), 100, 64_256, false),
            AckDecision::Delay(t(1_160))
        );
        p.on_timer();
        assert_eq!(p.ato(), TCP_ATO_MIN);
        assert!(p.pingpong < TCP_PINGPONG_THRESH);
    }

    #[test]
    fn silence_longer_than_the_rto_brings_quick_acks_back() {
        let mut p = delaying(200, 20);
        let _ = p.on_data(t(0), 100, 64_256, false);
        assert!(!p.in_quickack_mode());
        assert_eq!(
            p.on_data(t(500), 100, 64_256, false),
            AckDecision::Now,
            "tcp_event_data_recv: a gap over the RTO calls tcp_incr_quickack"
        );
    }

    #[test]
    fn a_window_of_one_to_two_segments_gives_one_quick_ack() {
        // tcp_incr_quickack: 4000 / (2 × 1448) = 1; only a zero becomes 2.
        let mut p = linux(false);
        assert_eq!(p.on_data(t(0), 100, 4_000, false), AckDecision::Now);
        p.on_ack_sent();
        assert!(matches!(
            p.on_data(t(1), 100, 4_000, false),
            AckDecision::Delay(_)
        ));
    }

    #[test]
    fn a_pushed_segment_caps_the_delayed_ack_at_200ms() {
        // tcp_send_delayed_ack: with ICSK_ACK_PUSHED set, max_ato is
        // TCP_DELACK_MAX (200 ms) instead of HZ/2, as in ping-pong mode.
        let mut p = delaying(1_000, 900);
        p.ato = SimDuration::from_millis(400);
        // 100 ms after the last segment: ato = 400/2 + 100 = 300 ms.
        p.lrcvtime = t(1_900);
        let short = Arrival {
            len: 100,
            header_len: TCP_HEADER_LEN,
            psh: true,
        };
        p.measure_rcv_mss(short, MSS);
        assert_eq!(
            p.on_data(t(2_000), 100, 64_256, false),
            AckDecision::Delay(t(2_200))
        );
    }

    #[test]
    fn a_repeated_short_length_without_psh_becomes_rcv_mss() {
        // tcp_measure_rcv_mss: a segment of the same short length twice, with
        // no PSH, is taken as the peer's MSS (a small path MTU); with PSH it
        // only marks the connection PUSHED, then PUSHED2.
        let mut p = AckPolicy::new(DelayedAck::Linux, false, false);
        let seg = |len, psh| Arrival {
            len,
            header_len: TCP_HEADER_LEN,
            psh,
        };
        assert!(!p.measure_rcv_mss(seg(500, false), MSS));
        assert_eq!(p.rcv_mss(), TCP_MSS_DEFAULT);
        p.measure_rcv_mss(seg(500, false), MSS);
        assert_eq!(p.rcv_mss(), 500);
        let mut p = AckPolicy::new(DelayedAck::Linux, false, false);
        p.measure_rcv_mss(seg(500, true), MSS);
        p.measure_rcv_mss(seg(500, true), MSS);
        assert_eq!(p.rcv_mss(), TCP_MSS_DEFAULT);
        assert!(p.pushed && p.pushed2);
        // A full-sized segment sets rcv_mss, and PUSHED only with the 6.6 switch.
        assert!(p.measure_rcv_mss(seg(1448, true), MSS));
        p.on_ack_sent();
        p.measure_rcv_mss(seg(1448, true), MSS);
        assert!(!p.pushed);
        let mut p = AckPolicy::new(DelayedAck::Linux, false, true);
        p.measure_rcv_mss(seg(1448, true), MSS);
        assert!(p.pushed && !p.pushed2);
    }

    #[test]
    fn the_read_acks_what_softirq_left_or_a_drained_pushed_segment() {
        // tcp_cleanup_rbuf's first rule: an ACK is scheduled and either more
        // than rcv_mss is unacknowledged, or the read emptied the buffer
        // after PUSHED outside ping-pong (or PUSHED2 in any mode).
        let mut p = linux(false);
        p.on_data_recv(t(0), 64_256);
        assert!(p.cleanup_rbuf(2 * MSS as u64, 2 * MSS as u64, false));
        assert!(!p.cleanup_rbuf(MSS as u64, MSS as u64, true));
        p.pushed = true;
        assert!(p.cleanup_rbuf(MSS as u64, MSS as u64, true));
        assert!(
            !p.cleanup_rbuf(MSS as u64, MSS as u64, false),
            "not drained"
        );
        assert!(!p.cleanup_rbuf(0, MSS as u64, true), "nothing read");
        p.pingpong = TCP_PINGPONG_THRESH;
        assert!(!p.cleanup_rbuf(MSS as u64, MSS as u64, true));
        p.pushed2 = true;
        assert!(p.cleanup_rbuf(MSS as u64, MSS as u64, true));
        p.on_ack_sent();
        assert!(
            !p.cleanup_rbuf(MSS as u64, 2 * MSS as u64, true),
            "nothing due"
        );
    }
}
