//! cwnd (tcp_bbr.c `bbr_set_cwnd` and its helpers): BBR sets cwnd itself on
//! every ACK, as a cap on what the model says the path holds.
//!
//! ```text
//!   target = cwnd_gain · max_bw · min_rtt      (bbr_bdp, rounded up)
//!          + extra_acked                       (ACK aggregation, pipe full)
//!          + 3 TSO bursts, even, +2 in the 1.25 phase   (quantization budget)
//! ```
//!
//! Until the pipe is full cwnd grows by what each ACK delivers (slow start
//! towards the target); afterwards it is clamped to it. In recovery the first
//! round conserves packets (one out per one delivered); when recovery or
//! PROBE_RTT ends, the cwnd saved before it comes back.

use super::pacing::tso_segs_goal;
use super::{BBR_SCALE, BBR_UNIT, BW_UNIT, Bbr, Mode, in_recovery_or_loss};
use crate::cc::{CaState, ControlBlock, RateSample};
use crate::config::TCP_INIT_CWND;

/// `bbr_cwnd_min_target`: two ACK-every-other-segment pairs.
pub(super) const BBR_CWND_MIN_TARGET: u32 = 4;

impl Bbr {
    /// `bbr_save_cwnd`: keep the last good cwnd, not one recovery or PROBE_RTT cut.
    pub(super) fn save_cwnd(&mut self, cwnd: u32) {
        self.prior_cwnd = if !in_recovery_or_loss(self.prev_ca_state) && self.mode != Mode::ProbeRtt
        {
            cwnd
        } else {
            self.prior_cwnd.max(cwnd)
        };
    }

    /// `bbr_bdp`: ceil(bw x min_rtt x gain), in segments.
    fn bdp(&self, bw: u32, gain: u32) -> u32 {
        if self.min_rtt_us == u32::MAX {
            return TCP_INIT_CWND; // no RTT yet: stay at a safe default
        }
        let w = bw as u128 * self.min_rtt_us as u128;
        // Rounded up, to avoid a feedback loop shrinking cwnd.
        let bdp = ((w * gain as u128) >> BBR_SCALE).div_ceil(BW_UNIT as u128);
        bdp.min(u32::MAX as u128) as u32
    }

    /// `bbr_quantization_budget`: room for the bursts in the sender's qdisc and
    /// offload and the receiver's GRO, an even cwnd against delayed ACKs, and
    /// 2 more in the 1.25 phase so even tiny BDPs get probed above BDP.
    fn quantization_budget(&self, cb: &ControlBlock, cwnd: u32) -> u32 {
        let mut cwnd = cwnd + 3 * tso_segs_goal(cb.pacing_rate, cb.mss);
        cwnd = (cwnd + 1) & !1;
        if self.mode == Mode::ProbeBw && self.cycle_idx == 0 {
            cwnd += 2;
        }
        cwnd
    }

    /// `bbr_inflight`.
    pub(super) fn inflight(&self, cb: &ControlBlock, bw: u32, gain: u32) -> u32 {
        self.quantization_budget(cb, self.bdp(bw, gain))
    }

    /// `bbr_packets_in_net_at_edt`. The kernel subtracts what drains before the
    /// next skb's earliest departure time; the interface carries no EDT, so it
    /// is taken as now and only the outgoing burst is added when probing up.
    pub(super) fn packets_in_net_at_edt(&self, cb: &ControlBlock, inflight_now: u32) -> u32 {
        if self.pacing_gain > BBR_UNIT {
            inflight_now + tso_segs_goal(cb.pacing_rate, cb.mss)
        } else {
            inflight_now
        }
    }

    /// `bbr_set_cwnd_to_recover_or_restore`: returns the cwnd and whether packet
    /// conservation decided it (send one segment per segment delivered in the
    /// first round of recovery; afterwards slow start back up).
    fn recover_or_restore(
        &mut self,
        cb: &ControlBlock,
        rs: &RateSample,
        acked: u32,
    ) -> (u32, bool) {
        let (prev, state) = (self.prev_ca_state, cb.ca_state);
        let mut cwnd = cb.cwnd;
        // Lost segments left the network without an ACK: take them off first.
        if rs.losses > 0 {
            cwnd = cwnd.saturating_sub(rs.losses).max(1);
        }
        if state == CaState::Recovery && prev != CaState::Recovery {
            self.packet_conservation = true;
            self.next_rtt_delivered = cb.delivered; // the first round starts now
            cwnd = cb.in_flight + acked; // drop cwnd the sender wasn't using
        } else if in_recovery_or_loss(prev) && !in_recovery_or_loss(state) {
            cwnd = cwnd.max(self.prior_cwnd);
            self.packet_conservation = false;
        }
        self.prev_ca_state = state;
        if self.packet_conservation {
            (cwnd.max(cb.in_flight + acked), true)
        } else {
            (cwnd, false)
        }
    }

    /// `bbr_set_cwnd`: slow start towards the target while the pipe might not be
    /// full; once it is, clamp to the target.
    pub(super) fn set_cwnd(
        &mut self,
        cb: &mut ControlBlock,
        rs: &RateSample,
        acked: u32,
        bw: u32,
        gain: u32,
    ) {
        let mut cwnd = cb.cwnd;
        if acked > 0 {
            let (c, conserving) = self.recover_or_restore(cb, rs, acked);
            cwnd = c;
            if !conserving {
                let target = self.bdp(bw, gain) + self.ack_aggregation_cwnd();
                let target = self.quantization_budget(cb, target);
                if self.full_bw_reached {
                    cwnd = (cwnd + acked).min(target);
                } else if cwnd < target || cb.delivered < TCP_INIT_CWND as u64 {
                    cwnd += acked;
                }
                cwnd = cwnd.max(BBR_CWND_MIN_TARGET);
            }
        }
        cb.cwnd = cwnd.min(cb.cwnd_clamp);
        if self.mode == Mode::ProbeRtt {
            cb.cwnd = cb.cwnd.min(BBR_CWND_MIN_TARGET);
        }
    }
}
