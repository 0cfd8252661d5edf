//! DRAIN (tcp_bbr.c `bbr_check_drain`): pace at 1/2.89 of max_bw, keeping
//! Startup's cwnd, until what is in flight is down to one BDP; then
//! PROBE_BW ([`super::probe_bw`]).

use super::{BBR_UNIT, Bbr, Mode};
use crate::cc::ControlBlock;

/// `bbr_drain_gain` = 1/high_gain: drains Startup's queue in about one round.
pub(super) const BBR_DRAIN_GAIN: u32 = BBR_UNIT * 1000 / 2885;

impl Bbr {
    /// `bbr_check_drain`: Startup → Drain → ProbeBW once inflight ≤ BDP.
    pub(super) fn check_drain(&mut self, cb: &mut ControlBlock) {
        if self.mode == Mode::Startup && self.full_bw_reached {
            self.mode = Mode::Drain;
            // BBR does write ssthresh, for `ss -i` and tcp_current_ssthresh().
            cb.ssthresh = self.inflight(cb, self.max_bw(), BBR_UNIT);
        }
        if self.mode == Mode::Drain
            && self.packets_in_net_at_edt(cb, cb.in_flight)
                <= self.inflight(cb, self.max_bw(), BBR_UNIT)
        {
            self.reset_probe_bw_mode();
        }
    }
}
