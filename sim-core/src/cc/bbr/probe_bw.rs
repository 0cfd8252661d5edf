//! PROBE_BW (tcp_bbr.c `bbr_update_cycle_phase`): cruise at max_bw, probing
//! for more bandwidth one phase in eight.
//!
//! ```text
//!   pacing_gain  1.25 → 0.75 → 1 → 1 → 1 → 1 → 1 → 1 → (again)
//!                probe  drain   cruise
//! ```
//!
//! Each phase lasts about one min_rtt; the 1.25 phase holds on until inflight
//! reaches 1.25·BDP (or a loss), the 0.75 phase ends early once inflight is
//! down to one BDP. cwnd gain is 2 throughout. The cycle starts at a random
//! phase other than 0.75 so that flows sharing a bottleneck do not probe in
//! step.

use super::{BBR_UNIT, Bbr, Mode};
use crate::cc::{ControlBlock, RateSample};

/// `CYCLE_LEN`: phases in the PROBE_BW pacing-gain cycle.
pub(super) const CYCLE_LEN: usize = 8;

/// `bbr_cwnd_gain`: 2·BDP tolerates delayed and stretched ACKs.
pub(super) const BBR_CWND_GAIN: u32 = BBR_UNIT * 2;

/// `bbr_pacing_gain[]`.
pub(super) const BBR_PACING_GAIN: [u32; CYCLE_LEN] = [
    BBR_UNIT * 5 / 4,
    BBR_UNIT * 3 / 4,
    BBR_UNIT,
    BBR_UNIT,
    BBR_UNIT,
    BBR_UNIT,
    BBR_UNIT,
    BBR_UNIT,
];

/// `bbr_cycle_rand`: PROBE_BW starts in one of 7 phases (never the 0.75 one).
const BBR_CYCLE_RAND: u64 = 7;

impl Bbr {
    /// `bbr_is_next_cycle_phase`.
    pub(super) fn is_next_cycle_phase(&self, cb: &ControlBlock, rs: &RateSample) -> bool {
        let is_full_length =
            self.delivered_mstamp.saturating_sub(self.cycle_mstamp) > self.min_rtt_us as u64;
        if self.pacing_gain == BBR_UNIT {
            return is_full_length;
        }
        let inflight = self.packets_in_net_at_edt(cb, rs.prior_in_flight);
        let bw = self.max_bw();
        if self.pacing_gain > BBR_UNIT {
            // Probe until inflight reaches gain x BDP, but not into losses:
            // a shallow buffer may never hold that much.
            is_full_length && (rs.losses > 0 || inflight >= self.inflight(cb, bw, self.pacing_gain))
        } else {
            // Drain phase: stop early once the queue we built is gone.
            is_full_length || inflight <= self.inflight(cb, bw, BBR_UNIT)
        }
    }

    pub(super) fn advance_cycle_phase(&mut self) {
        self.cycle_idx = (self.cycle_idx + 1) % CYCLE_LEN;
        self.cycle_mstamp = self.delivered_mstamp;
    }

    /// `bbr_reset_probe_bw_mode`: start the cycle at a random phase other than
    /// 0.75, so flows sharing a bottleneck don't probe in lockstep.
    pub(super) fn reset_probe_bw_mode(&mut self) {
        self.mode = Mode::ProbeBw;
        // prandom_u32_max(7): the high 32 bits scaled into [0, 7).
        let r = ((self.rng.next_u64() >> 32) * BBR_CYCLE_RAND) >> 32;
        self.cycle_idx = CYCLE_LEN - 1 - r as usize;
        self.advance_cycle_phase();
    }
}
