//! When a receiver acknowledges: Linux's delayed-ACK engine, and the simpler
//! policies other stacks use.
//!
//! Linux (tcp_input.c `__tcp_ack_snd_check`, `tcp_event_data_recv`,
//! `tcp_grow_window`; tcp_output.c `tcp_send_delayed_ack`, `tcp_event_ack_sent`,
//! `tcp_event_data_sent`):
//!
//! ```text
//!  data in order ─► ACK now if  more than one full segment is unacknowledged
//!                            or quick-ACK mode (quick > 0 and not ping-pong)
//!                  otherwise arm the delayed-ACK timer (ato, 40 ms)
//!  first data    ─► quick = min(rcv_wnd / (2·rcv_mss), 16)     tcp_incr_quickack
//!  window grew   ─► quick |= 1                                 tcp_grow_window
//!  ACK sent      ─► quick -= 1                                 tcp_dec_quickack_mode
//!  we send data within ato of receiving some ─► ping-pong (interactive): no quick ACKs
//!  delayed-ACK timer fires in ping-pong ─► leave ping-pong
//! ```
//!
//! Simplification: `ato` stays at `TCP_ATO_MIN` (40 ms); Linux adapts it to
//! the packet inter-arrival time (up to 200 ms in ping-pong mode).

pub use crate::config::DelayedAck;
use crate::time::{SimDuration, SimTime};

/// `TCP_MAX_QUICKACKS` (include/net/tcp.h).
pub const TCP_MAX_QUICKACKS: u32 = 16;
/// `TCP_ATO_MIN`: HZ/25.
pub const TCP_ATO_MIN: SimDuration = SimDuration::from_millis(40);
/// `TCP_PINGPONG_THRESH`: one reply within ato makes a connection interactive
/// (it was 3 in kernels 5.1 to 6.0).
pub const TCP_PINGPONG_THRESH: u32 = 1;

/// What to do about an arriving data segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckDecision {
    Now,
    /// Wait; the delayed-ACK timer is armed for this time (it may have been armed already).
    Delay(SimTime),
}

#[derive(Clone, Debug)]
pub struct AckPolicy {
    mode: DelayedAck,
    /// `ip route ... quickack 1` / `TCP_QUICKACK`: every ACK is quick.
    always_quick: bool,
    quick: u32,
    pingpong: u32,
    started: bool,
    lrcvtime: SimTime,
    deadline: Option<SimTime>,
}

impl AckPolicy {
    pub fn new(mode: DelayedAck, always_quick: bool) -> Self {
        AckPolicy {
            mode,
            always_quick,
            quick: 0,
            pingpong: 0,
            started: false,
            lrcvtime: SimTime::ZERO,
            deadline: None,
        }
    }

    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    fn timeout(&self) -> SimDuration {
        match self.mode {
            DelayedAck::Fixed(d) => d,
            _ => TCP_ATO_MIN,
        }
    }

    /// `tcp_in_quickack_mode`.
    pub fn in_quickack_mode(&self) -> bool {
        self.always_quick || (self.quick > 0 && self.pingpong < TCP_PINGPONG_THRESH)
    }

    /// In-order data arrived. `unacked` is rcv_nxt − rcv_wup (bytes not yet
    /// acknowledged, this segment included); `rcv_wnd` is the window last
    /// advertised; `window_grew` says whether `tcp_grow_window` raised rcv_ssthresh.
    pub fn on_data(
        &mut self,
        now: SimTime,
        unacked: u64,
        rcv_mss: u32,
        rcv_wnd: u64,
        window_grew: bool,
    ) -> AckDecision {
        if self.mode == DelayedAck::Linux {
            if !self.started {
                // The first data packet initialises the delayed-ACK engine.
                self.started = true;
                let quickacks = ((rcv_wnd / (2 * rcv_mss.max(1) as u64)) as u32).max(2);
                self.quick = self.quick.max(quickacks.min(TCP_MAX_QUICKACKS));
            }
            if window_grew {
                self.quick |= 1;
            }
        }
        self.lrcvtime = now;
        let more_than_one_segment = unacked > rcv_mss as u64;
        let now_please = match self.mode {
            DelayedAck::Off => true,
            DelayedAck::Fixed(_) => more_than_one_segment || self.always_quick,
            DelayedAck::Linux => more_than_one_segment || self.in_quickack_mode(),
        };
        if now_please {
            return AckDecision::Now;
        }
        let ato = self.timeout();
        match self.deadline {
            // tcp_send_delayed_ack: a timer about to fire (within ato/4) means ACK now.
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

    /// An ACK left (alone or on data): `tcp_event_ack_sent`.
    pub fn on_ack_sent(&mut self) {
        self.quick = self.quick.saturating_sub(1);
        self.deadline = None;
    }

    /// We sent data: a quick reply to received data marks the connection interactive.
    pub fn on_data_sent(&mut self, now: SimTime) {
        if self.mode == DelayedAck::Linux && self.started && now.since(self.lrcvtime) < TCP_ATO_MIN
        {
            self.pingpong = self.pingpong.saturating_add(1);
        }
    }

    /// The delayed-ACK timer fired: the ACK goes now; in ping-pong mode Linux
    /// takes the missed reply as a sign to leave it (`tcp_delack_timer_handler`).
    pub fn on_timer(&mut self) {
        self.deadline = None;
        if self.pingpong >= TCP_PINGPONG_THRESH {
            self.pingpong = 0;
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

    #[test]
    fn linux_starts_with_sixteen_quick_acks() {
        let mut p = AckPolicy::new(DelayedAck::Linux, false);
        // rcv_wnd 64256 / (2 x 1448) = 22, capped at TCP_MAX_QUICKACKS.
        for _ in 0..16 {
            assert_eq!(
                p.on_data(t(0), MSS as u64, MSS, 64_256, false),
                AckDecision::Now
            );
            p.on_ack_sent();
        }
        assert_eq!(
            p.on_data(t(0), MSS as u64, MSS, 64_256, false),
            AckDecision::Delay(t(40))
        );
    }

    #[test]
    fn a_small_window_gives_fewer_quick_acks_but_at_least_two() {
        let mut p = AckPolicy::new(DelayedAck::Linux, false);
        assert_eq!(p.on_data(t(0), 100, MSS, 2_000, false), AckDecision::Now);
        p.on_ack_sent();
        assert_eq!(p.on_data(t(0), 100, MSS, 2_000, false), AckDecision::Now);
        p.on_ack_sent();
        assert!(matches!(
            p.on_data(t(0), 100, MSS, 2_000, false),
            AckDecision::Delay(_)
        ));
    }

    #[test]
    fn a_growing_window_keeps_acks_quick() {
        let mut p = AckPolicy::new(DelayedAck::Linux, false);
        for _ in 0..40 {
            assert_eq!(
                p.on_data(t(0), MSS as u64, MSS, 64_256, true),
                AckDecision::Now
            );
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
            let mut p = AckPolicy::new(mode, false);
            p.quick = 0;
            p.started = true;
            assert_eq!(
                p.on_data(t(0), 2 * MSS as u64, MSS, 64_256, false),
                AckDecision::Now
            );
        }
    }

    #[test]
    fn windows_waits_200ms_for_a_lone_segment() {
        let mut p = AckPolicy::new(DelayedAck::Fixed(SimDuration::from_millis(200)), false);
        assert_eq!(
            p.on_data(t(5), MSS as u64, MSS, 64_256, true),
            AckDecision::Delay(t(205))
        );
    }

    #[test]
    fn replying_quickly_enters_ping_pong_and_ends_quick_acks() {
        let mut p = AckPolicy::new(DelayedAck::Linux, false);
        assert_eq!(p.on_data(t(0), 100, MSS, 64_256, false), AckDecision::Now);
        p.on_data_sent(t(1)); // the reply left 1 ms after the request: interactive
        assert_eq!(
            p.on_data(t(10), 100, MSS, 64_256, false),
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
        let mut p = AckPolicy::new(DelayedAck::Linux, false);
        p.started = true;
        assert_eq!(
            p.on_data(t(0), 100, MSS, 64_256, false),
            AckDecision::Delay(t(40))
        );
        // 35 ms later the timer is within ato/4 = 10 ms of firing.
        assert_eq!(p.on_data(t(35), 200, MSS, 64_256, false), AckDecision::Now);
    }

    #[test]
    fn quickack_route_attribute_acks_everything_at_once() {
        let mut p = AckPolicy::new(DelayedAck::Linux, true);
        p.started = true;
        p.pingpong = 5;
        assert_eq!(p.on_data(t(0), 100, MSS, 64_256, false), AckDecision::Now);
    }
}
