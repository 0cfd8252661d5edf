//! Reno (net/ipv4/tcp_cong.c, `tcp_reno_*`): slow start to ssthresh, then +1
//! segment per round trip; halve on loss.

use super::slow_start::{tcp_cong_avoid_ai, tcp_slow_start};
use super::{CongestionOps, ControlBlock};
use crate::time::SimTime;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reno;

impl CongestionOps for Reno {
    fn name(&self) -> &'static str {
        "reno"
    }

    /// `tcp_reno_ssthresh()`: max(cwnd / 2, 2).
    fn ssthresh(&mut self, cb: &ControlBlock) -> u32 {
        (cb.cwnd >> 1).max(2)
    }

    /// `tcp_reno_cong_avoid()`.
    fn cong_avoid(&mut self, cb: &mut ControlBlock, acked: u32, _now: SimTime) {
        if !cb.cwnd_limited {
            return;
        }
        let mut acked = acked;
        if cb.in_slow_start() {
            acked = tcp_slow_start(cb, acked);
            if acked == 0 {
                return;
            }
        }
        let w = cb.cwnd;
        tcp_cong_avoid_ai(cb, w, acked);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loss_halves_cwnd_but_never_below_two() {
        let mut cb = ControlBlock::new(40);
        assert_eq!(Reno.ssthresh(&cb), 20);
        cb.cwnd = 3;
        assert_eq!(Reno.ssthresh(&cb), 2);
    }

    #[test]
    fn an_app_limited_sender_does_not_grow_cwnd() {
        let mut cb = ControlBlock::new(10);
        cb.cwnd_limited = false;
        Reno.cong_avoid(&mut cb, 2, SimTime::ZERO);
        assert_eq!(cb.cwnd, 10);
    }

    #[test]
    fn crossing_ssthresh_spends_the_leftover_in_avoidance() {
        let mut cb = ControlBlock::new(19);
        cb.ssthresh = 20;
        Reno.cong_avoid(&mut cb, 2, SimTime::ZERO);
        // one segment takes cwnd to ssthresh, the other is credited towards +1
        assert_eq!((cb.cwnd, cb.cwnd_cnt), (20, 1));
    }
}
