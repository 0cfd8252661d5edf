//! Long-term bandwidth sampling (tcp_bbr.c `bbr_lt_bw_sampling`): detecting
//! a token-bucket policer.
//!
//! A policer lets a burst through at line rate, then drops whatever exceeds
//! its token rate; the max filter keeps the burst's rate and BBR would go on
//! losing a fifth of what it sends. Sampling starts at the first loss (the
//! bucket is empty by then); two lossy intervals in a row that deliver at
//! the same rate mean a policer, and BBR paces at that rate (`lt_bw`) for 48
//! rounds before probing again.
//!
//! ```text
//!   first loss ──► interval 1: 4 to 16 rounds, ends at a loss once ≥ 20 % were lost
//!              ──► interval 2 the same way; its rate within 1/8 (or 4 kbit/s) of
//!                  interval 1's? then lt_bw = their mean, paced at for 48 rounds
//! ```

use super::pacing::rate_bytes_per_sec;
use super::{BBR_SCALE, BBR_UNIT, BW_UNIT, Bbr, Mode};

/// `bbr_lt_intvl_min_rtts`: a long-term sample spans at least 4 rounds.
const BBR_LT_INTVL_MIN_RTTS: u32 = 4;

/// `bbr_lt_loss_thresh`: lost/delivered ≥ 50/256 (≈ 20 %) looks policed.
const BBR_LT_LOSS_THRESH: u64 = 50;

/// `bbr_lt_bw_ratio`: two intervals within 1/8 of each other are consistent...
const BBR_LT_BW_RATIO: u64 = (BBR_UNIT / 8) as u64;

/// ...or within `bbr_lt_bw_diff` = 4 kbit/s, in bytes per second.
const BBR_LT_BW_DIFF: u64 = 4000 / 8;

/// `bbr_lt_bw_max_rtts`: rounds to trust the policer's rate before re-probing.
const BBR_LT_BW_MAX_RTTS: u32 = 48;

/// The long-term ("lt") delivery rate, sampled over lossy intervals to detect
/// a token-bucket policer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct LongTerm {
    pub(super) is_sampling: bool,
    /// Pace at `bw`, the policer's rate, instead of the max filter.
    pub(super) use_bw: bool,
    pub(super) bw: u32,
    rtt_cnt: u32,
    /// `tp->delivered`, `tp->lost` and the time (ms) when the interval began.
    last_delivered: u64,
    last_lost: u64,
    last_stamp_ms: u64,
}

impl Bbr {
    fn reset_lt_bw_sampling_interval(&mut self) {
        self.lt.last_stamp_ms = self.delivered_mstamp / 1_000;
        self.lt.last_delivered = self.delivered;
        self.lt.last_lost = self.lost;
        self.lt.rtt_cnt = 0;
    }

    pub(super) fn reset_lt_bw_sampling(&mut self) {
        self.lt.bw = 0;
        self.lt.use_bw = false;
        self.lt.is_sampling = false;
        self.reset_lt_bw_sampling_interval();
    }

    /// `bbr_lt_bw_interval_done`: two lossy intervals at consistent rates mean
    /// a policer; pace at their average.
    fn lt_bw_interval_done(&mut self, bw: u32) {
        if self.lt.bw != 0 {
            let diff = bw.abs_diff(self.lt.bw) as u64;
            if diff * BBR_UNIT as u64 <= BBR_LT_BW_RATIO * self.lt.bw as u64
                || rate_bytes_per_sec(diff, self.mss, BBR_UNIT) <= BBR_LT_BW_DIFF
            {
                self.lt.bw = ((bw as u64 + self.lt.bw as u64) >> 1) as u32;
                self.lt.use_bw = true;
                self.pacing_gain = BBR_UNIT; // try to avoid drops
                self.lt.rtt_cnt = 0;
                return;
            }
        }
        self.lt.bw = bw;
        self.reset_lt_bw_sampling_interval();
    }

    /// `bbr_lt_bw_sampling`: token-bucket policer detection. Sampling starts at
    /// the first loss (the bucket is empty by then), and an interval of 4 to 16
    /// rounds ends at a loss with ≥ 20 % of segments lost.
    pub(super) fn lt_bw_sampling(&mut self, losses: u32, is_app_limited: bool) {
        if self.lt.use_bw {
            if self.mode == Mode::ProbeBw && self.round_start {
                self.lt.rtt_cnt += 1;
                if self.lt.rtt_cnt >= BBR_LT_BW_MAX_RTTS {
                    self.reset_lt_bw_sampling(); // stop using lt_bw
                    self.reset_probe_bw_mode(); // and probe again
                }
            }
            return;
        }
        if !self.lt.is_sampling {
            if losses == 0 {
                return;
            }
            self.reset_lt_bw_sampling_interval();
            self.lt.is_sampling = true;
        }
        if is_app_limited {
            self.reset_lt_bw_sampling(); // would underestimate
            return;
        }
        if self.round_start {
            self.lt.rtt_cnt += 1;
        }
        if self.lt.rtt_cnt < BBR_LT_INTVL_MIN_RTTS {
            return;
        }
        if self.lt.rtt_cnt > 4 * BBR_LT_INTVL_MIN_RTTS {
            self.reset_lt_bw_sampling();
            return;
        }
        if losses == 0 {
            return;
        }
        let lost = self.lost - self.lt.last_lost;
        let delivered = self.delivered - self.lt.last_delivered;
        if delivered == 0 || (lost << BBR_SCALE) < BBR_LT_LOSS_THRESH * delivered {
            return;
        }
        let t_ms = (self.delivered_mstamp / 1_000) as i64 - self.lt.last_stamp_ms as i64;
        if t_ms < 1 {
            return; // under a millisecond: wait
        }
        if t_ms as u64 >= u32::MAX as u64 / 1_000 {
            self.reset_lt_bw_sampling();
            return;
        }
        let bw = delivered * BW_UNIT / (t_ms as u64 * 1_000);
        self.lt_bw_interval_done(bw.min(u32::MAX as u64) as u32);
    }
}
