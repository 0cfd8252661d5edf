//! STARTUP (tcp_bbr.c `bbr_check_full_bw_reached`): double the delivery rate
//! every round until the pipe is full.
//!
//! Pacing and cwnd gain 2/ln 2 ≈ 2.89 is the smallest gain that doubles what
//! is delivered each round, as slow start does. The pipe is full once three
//! rounds in a row (not app-limited) raised max_bw by less than 25 %: then
//! DRAIN ([`super::drain`]) empties the queue Startup built.

use super::{BBR_SCALE, BBR_UNIT, Bbr};
use crate::cc::RateSample;

/// `bbr_high_gain` = 2/ln 2: the smallest gain that doubles delivery every round.
pub(super) const BBR_HIGH_GAIN: u32 = BBR_UNIT * 2885 / 1000 + 1;

/// `bbr_full_bw_thresh`: growth of less than 1.25x counts towards a full pipe...
pub(super) const BBR_FULL_BW_THRESH: u64 = (BBR_UNIT * 5 / 4) as u64;

/// ...`bbr_full_bw_cnt` rounds in a row.
const BBR_FULL_BW_CNT: u32 = 3;

impl Bbr {
    /// `bbr_check_full_bw_reached`: 3 non-app-limited rounds without 25 % growth.
    pub(super) fn check_full_bw_reached(&mut self, rs: &RateSample) {
        if self.full_bw_reached || !self.round_start || rs.is_app_limited {
            return;
        }
        let thresh = (self.full_bw as u64 * BBR_FULL_BW_THRESH) >> BBR_SCALE;
        if self.max_bw() as u64 >= thresh {
            self.full_bw = self.max_bw();
            self.full_bw_cnt = 0;
            return;
        }
        self.full_bw_cnt += 1;
        self.full_bw_reached = self.full_bw_cnt >= BBR_FULL_BW_CNT;
    }
}
