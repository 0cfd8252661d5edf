//! RACK: loss detection by time rather than by counting duplicate ACKs
//! (net/ipv4/tcp_recovery.c; RFC 8985).
//!
//! Once a segment sent *later* is known to have arrived, an earlier one still
//! missing after one RTT plus a small reordering window is declared lost:
//!
//! ```text
//!   sent:   A ──── B ──── C            C SACKed: rack.mstamp = C's send time
//!   lost?   A: now − sent(A) ≥ rack.rtt + reo_wnd  →  lost, retransmit
//!           B: not yet                              →  reorder timer for the rest
//! ```
//!
//! `reo_wnd` is a quarter of the minimum RTT, except that it is zero (declare
//! at once) when no reordering has been seen and either recovery is already
//! under way or three segments have been SACKed, which keeps the classic
//! three-duplicate-ACK behaviour (`tcp_rack_reo_wnd`). The simulated paths
//! never reorder, so the reordering-adaptive growth of the window (DSACK
//! driven `reo_wnd_steps`) is not modelled.

use super::scoreboard::{Scoreboard, sent_after};
use crate::time::{SimDuration, SimTime};

/// `tp->reordering` default (`net.ipv4.tcp_reordering`).
pub const TCP_REORDERING: u32 = 3;
/// `TCP_TIMEOUT_MIN`: the reorder timer fires at least this late (2 jiffies).
pub const TCP_TIMEOUT_MIN: SimDuration = SimDuration::from_millis(2);

#[derive(Clone, Debug, Default)]
pub struct Rack {
    /// Send time and end of the most recently sent segment known delivered.
    mstamp: Option<(SimTime, u64)>,
    /// RTT of that delivery.
    rtt: SimDuration,
    /// A delivery moved `mstamp` since the last detection (`rack.advanced`).
    advanced: bool,
}

impl Rack {
    /// `tcp_rack_advance`: a segment sent at `sent_at` was delivered now. A
    /// retransmission ACKed faster than the minimum RTT was probably the
    /// original's ACK and is ignored.
    pub fn advance(
        &mut self,
        ever_retrans: bool,
        sent_at: SimTime,
        end: u64,
        now: SimTime,
        min_rtt: Option<SimDuration>,
    ) {
        let rtt = now.since(sent_at);
        if ever_retrans && min_rtt.is_some_and(|m| rtt < m) {
            return;
        }
        self.advanced = true;
        self.rtt = rtt;
        let newer = match self.mstamp {
            None => true,
            Some((t, e)) => sent_after(sent_at, t, end, e),
        };
        if newer {
            self.mstamp = Some((sent_at, end));
        }
    }

    /// `tcp_rack_reo_wnd`.
    pub fn reo_wnd(
        in_recovery: bool,
        sacked_out: u32,
        min_rtt: Option<SimDuration>,
        srtt: Option<SimDuration>,
    ) -> SimDuration {
        if in_recovery || sacked_out >= TCP_REORDERING {
            return SimDuration::ZERO;
        }
        let quarter = SimDuration(min_rtt.map_or(0, |m| m.0 / 4));
        srtt.map_or(quarter, |s| quarter.min(s))
    }

    /// `tcp_rack_detect_loss`: marks segments lost and returns how many, and
    /// when the next one would be due (for the reorder timer), if any.
    /// Only runs after a delivery advanced RACK, or when `force`d by the timer.
    pub fn detect_loss(
        &mut self,
        board: &mut Scoreboard,
        now: SimTime,
        reo_wnd: SimDuration,
        force: bool,
    ) -> (u32, Option<SimTime>) {
        if !self.advanced && !force {
            return (0, None);
        }
        self.advanced = false;
        let Some((rack_t, rack_end)) = self.mstamp else {
            return (0, None);
        };
        let mut lost = Vec::new();
        let mut due: Option<SimTime> = None;
        for (sent_at, end) in board.by_send_time() {
            if !sent_after(rack_t, sent_at, rack_end, end) {
                break;
            }
            let deadline = sent_at + self.rtt + reo_wnd;
            if deadline <= now {
                lost.push(end);
            } else {
                due = Some(due.map_or(deadline, |d| d.max(deadline)));
            }
        }
        let mut newly = 0;
        for end in lost {
            newly += board.mark_lost(end) as u32;
        }
        (newly, due.map(|d| d + TCP_TIMEOUT_MIN))
    }
}

#[cfg(test)]
mod tests {
    use super::super::scoreboard::{TxRate, TxSeg};
    use super::*;

    fn board() -> Scoreboard {
        // Five segments sent 1 ms apart.
        let mut b = Scoreboard::default();
        for i in 0..5u64 {
            b.push(TxSeg::new(
                1 + i * 1000,
                1 + (i + 1) * 1000,
                1,
                SimTime::ZERO + SimDuration::from_millis(i),
                TxRate::default(),
            ));
        }
        b
    }

    #[test]
    fn a_segment_sent_before_a_delivered_one_is_lost_after_rtt_plus_reo_wnd() {
        let mut b = board();
        let mut rack = Rack::default();
        // Segment 2 (sent at 2 ms) is SACKed at 12 ms: RTT 10 ms.
        let now = SimTime::ZERO + SimDuration::from_millis(12);
        b.sack(&[(2001, 3001)], |_| ());
        rack.advance(
            false,
            SimTime::ZERO + SimDuration::from_millis(2),
            3001,
            now,
            None,
        );
        // reo_wnd 2.5 ms (min RTT 10 ms / 4): segment 0 (sent 0 ms) is due at
        // 12.5 ms, segment 1 at 13.5 ms; neither yet. Timer: 13.5 + 2 ms.
        let reo = Rack::reo_wnd(false, 1, Some(SimDuration::from_millis(10)), None);
        assert_eq!(reo, SimDuration(2_500_000));
        let (n, due) = rack.detect_loss(&mut b, now, reo, false);
        assert_eq!(n, 0);
        assert_eq!(due, Some(SimTime(15_500_000)));
        // When the timer fires both are lost; segments 3 and 4 were sent after
        // segment 2 and are left alone.
        let (n, due) = rack.detect_loss(&mut b, SimTime(15_500_000), reo, true);
        assert_eq!((n, due), (2, None));
        assert_eq!(b.lost_out(), 2);
    }

    #[test]
    fn three_sacked_segments_make_the_window_zero() {
        assert_eq!(
            Rack::reo_wnd(false, 3, Some(SimDuration::from_millis(10)), None),
            SimDuration::ZERO
        );
        assert_eq!(
            Rack::reo_wnd(true, 0, Some(SimDuration::from_millis(10)), None),
            SimDuration::ZERO
        );
    }

    #[test]
    fn a_fast_ack_of_a_retransmission_does_not_advance() {
        let mut rack = Rack::default();
        let now = SimTime::ZERO + SimDuration::from_millis(11);
        rack.advance(
            true,
            SimTime::ZERO + SimDuration::from_millis(10),
            1001,
            now,
            Some(SimDuration::from_millis(10)),
        );
        let mut b = board();
        assert_eq!(
            rack.detect_loss(&mut b, now, SimDuration::ZERO, false),
            (0, None)
        );
    }
}
