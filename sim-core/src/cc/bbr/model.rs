//! BBR's model of the path (tcp_bbr.c `bbr_update_bw`, `bbr_update_min_rtt`):
//! the bottleneck bandwidth as a windowed max of delivery-rate samples over
//! 10 packet-timed rounds, and the round-trip propagation delay as a windowed
//! min of RTT samples over 10 seconds.
//!
//! ```text
//!   max_bw  = max over the last 10 rounds of  delivered / interval
//!   min_rtt = min over the last 10 s of       RTT samples
//! ```
//!
//! A round ends when a segment sent after the round began is delivered; the
//! round count is the max filter's clock. When min_rtt goes 10 s without a
//! new low, PROBE_RTT ([`super::probe_rtt`]) drains the queue to measure it.

use super::probe_bw::CYCLE_LEN;
use super::{BW_UNIT, Bbr, valid_interval_us};
use crate::cc::{ControlBlock, RateSample};
use crate::time::{HZ, jiffies};

/// `bbr_bw_rtts`: the max-bandwidth filter spans a cycle plus 2 rounds.
pub(super) const BBR_BW_RTTS: u32 = CYCLE_LEN as u32 + 2;

/// `bbr_min_rtt_win_sec`.
const BBR_MIN_RTT_WIN_SEC: u64 = 10;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Sample {
    t: u32,
    v: u32,
}

/// Kathleen Nichols' windowed max (lib/win_minmax.c `minmax_running_max`):
/// the best, second and third best samples, spread across the window, so the
/// max can fall back gracefully when the best one ages out. Time is BBR's
/// round count, so the window is 10 rounds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct WindowedMax {
    s: [Sample; 3],
}

impl WindowedMax {
    pub(super) fn get(&self) -> u32 {
        self.s[0].v
    }

    fn reset(&mut self, t: u32, v: u32) {
        self.s = [Sample { t, v }; 3];
    }

    pub(super) fn update(&mut self, win: u32, t: u32, v: u32) {
        let val = Sample { t, v };
        // A new max, or nothing left in the window: start over.
        if v >= self.s[0].v || t.wrapping_sub(self.s[2].t) > win {
            return self.reset(t, v);
        }
        if v >= self.s[1].v {
            self.s[1] = val;
            self.s[2] = val;
        } else if v >= self.s[2].v {
            self.s[2] = val;
        }
        // minmax_subwin_update: age the choices.
        let dt = t.wrapping_sub(self.s[0].t);
        if dt > win {
            // The best aged out: promote the others (twice if the 2nd is stale too).
            self.s = [self.s[1], self.s[2], val];
            if t.wrapping_sub(self.s[0].t) > win {
                self.s = [self.s[1], self.s[2], val];
            }
        } else if self.s[1].t == self.s[0].t && dt > win / 4 {
            // A quarter window without a new max: take a 2nd choice from it.
            self.s[1] = val;
            self.s[2] = val;
        } else if self.s[2].t == self.s[1].t && dt > win / 2 {
            self.s[2] = val;
        }
    }
}

impl Bbr {
    pub(super) fn max_bw(&self) -> u32 {
        self.bw.get()
    }

    /// `bbr_bw`: the policer's rate when one was detected, else the max filter.
    pub(super) fn bw(&self) -> u32 {
        if self.lt.use_bw {
            self.lt.bw
        } else {
            self.max_bw()
        }
    }

    /// `bbr_update_bw`: count rounds and feed the max filter.
    pub(super) fn update_bw(&mut self, cb: &ControlBlock, rs: &RateSample) {
        self.round_start = false;
        let Some(interval_us) = valid_interval_us(rs) else {
            return;
        };
        // A round ends when a segment sent after the round began is delivered.
        if rs.prior_delivered >= self.next_rtt_delivered {
            self.next_rtt_delivered = cb.delivered;
            self.rtt_cnt = self.rtt_cnt.wrapping_add(1);
            self.round_start = true;
            self.packet_conservation = false;
        }
        self.lt_bw_sampling(rs.losses, rs.is_app_limited);
        let bw = (rs.delivered * BW_UNIT / interval_us).min(u32::MAX as u64) as u32;
        // An app-limited sample shows the application, not the path: it may
        // only raise the estimate.
        if !rs.is_app_limited || bw >= self.max_bw() {
            self.bw.update(BBR_BW_RTTS, self.rtt_cnt, bw);
        }
    }

    /// `bbr_update_min_rtt`: the 10 s min filter, then PROBE_RTT.
    pub(super) fn update_min_rtt(&mut self, cb: &mut ControlBlock, rs: &RateSample) {
        let now_j = jiffies(rs.now);
        let filter_expired = now_j > self.min_rtt_stamp + BBR_MIN_RTT_WIN_SEC * HZ;
        if let Some(rtt) = rs.rtt {
            let rtt_us = (rtt.0 / 1_000).min(u32::MAX as u64) as u32;
            // (Linux also requires !rs->is_ack_delayed to accept a higher sample.)
            if rtt_us <= self.min_rtt_us || filter_expired {
                self.min_rtt_us = rtt_us;
                self.min_rtt_stamp = now_j;
            }
        }
        self.update_probe_rtt(cb, now_j, filter_expired);
        // Restart after idle ends only once an ACK delivers new data.
        if rs.delivered > 0 {
            self.idle_restart = false;
        }
    }
}
