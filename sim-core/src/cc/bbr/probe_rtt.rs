//! PROBE_RTT (the second half of tcp_bbr.c `bbr_update_min_rtt`,
//! `bbr_check_probe_rtt_done`): when min_rtt has gone 10 s without a new
//! low, from any mode, cut cwnd to 4 segments so the queue drains and a
//! fresh RTT sample shows the path's own delay.
//!
//! ```text
//!   min_rtt 10 s old ──► cwnd 4 ──► inflight ≤ 4: start the 200 ms
//!   ──► 200 ms passed and a round at 4 ──► restore cwnd, back to
//!       PROBE_BW (pipe was full) or STARTUP (it never was)
//! ```

use super::cwnd::BBR_CWND_MIN_TARGET;
use super::{Bbr, Mode};
use crate::cc::ControlBlock;

/// `bbr_probe_rtt_mode_ms`: least time at 4 segments in PROBE_RTT.
const BBR_PROBE_RTT_MODE_MS: u64 = 200;

impl Bbr {
    /// Enters PROBE_RTT when the min_rtt filter expired (`filter_expired`),
    /// and runs it: holds cwnd at 4 for 200 ms and at least a round.
    pub(super) fn update_probe_rtt(
        &mut self,
        cb: &mut ControlBlock,
        now_j: u64,
        filter_expired: bool,
    ) {
        if filter_expired && !self.idle_restart && self.mode != Mode::ProbeRtt {
            self.mode = Mode::ProbeRtt;
            // After the mode change, as in the kernel: prior_cwnd only grows here.
            self.save_cwnd(cb.cwnd);
            self.probe_rtt_done_stamp = None;
        }
        if self.mode == Mode::ProbeRtt {
            // Samples at 4 segments say nothing about the path's bandwidth.
            cb.app_limited = true;
            match self.probe_rtt_done_stamp {
                None if cb.in_flight <= BBR_CWND_MIN_TARGET => {
                    self.probe_rtt_done_stamp = Some(now_j + BBR_PROBE_RTT_MODE_MS);
                    self.probe_rtt_round_done = false;
                    self.next_rtt_delivered = cb.delivered;
                }
                Some(_) => {
                    self.probe_rtt_round_done |= self.round_start;
                    if self.probe_rtt_round_done {
                        self.check_probe_rtt_done(cb, now_j);
                    }
                }
                None => {}
            }
        }
    }

    /// `bbr_check_probe_rtt_done`.
    pub(super) fn check_probe_rtt_done(&mut self, cb: &mut ControlBlock, now_j: u64) {
        if self.probe_rtt_done_stamp.is_none_or(|done| now_j <= done) {
            return;
        }
        self.min_rtt_stamp = now_j; // next PROBE_RTT in 10 s at the earliest
        cb.cwnd = cb.cwnd.max(self.prior_cwnd);
        self.reset_mode();
    }

    fn reset_mode(&mut self) {
        if self.full_bw_reached {
            self.reset_probe_bw_mode();
        } else {
            self.mode = Mode::Startup;
        }
    }
}
