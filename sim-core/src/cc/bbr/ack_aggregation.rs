//! ACK aggregation (tcp_bbr.c `bbr_update_ack_aggregation`, Linux 4.20+):
//! room in cwnd for ACKs that arrive in bursts.
//!
//! Wi-Fi, cellular links and GRO deliver ACKs in bunches after a silence;
//! cwnd = 2·BDP alone would stall the sender in the silence. BBR measures how
//! far ACKs ran ahead of what max_bw explains since an "epoch" began, keeps
//! the max over two 5-round slots, and adds it to the cwnd target once the
//! pipe is full (at most 100 ms of data):
//!
//! ```text
//!   extra_acked = epoch_acked − bw · (now − epoch_start),  at most cwnd
//! ```

use super::{BBR_SCALE, BBR_UNIT, BW_UNIT, Bbr, valid_interval_us};
use crate::cc::{ControlBlock, RateSample};

/// `bbr_extra_acked_gain`.
const BBR_EXTRA_ACKED_GAIN: u32 = BBR_UNIT;

/// `bbr_extra_acked_win_rtts`: each of the two extra_acked slots lives 5 rounds.
const BBR_EXTRA_ACKED_WIN_RTTS: u32 = 5;

/// `bbr_ack_epoch_acked_reset_thresh`.
const BBR_ACK_EPOCH_ACKED_RESET_THRESH: u32 = 1 << 20;

/// `bbr_extra_acked_max_us`: the allowance never exceeds 100 ms of data.
const BBR_EXTRA_ACKED_MAX_US: u64 = 100_000;

/// ACK aggregation: segments ACKed beyond what max_bw explains since the
/// epoch began, kept as a max over two 5-round slots.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct AckAggregation {
    pub(super) epoch_mstamp: u64,
    pub(super) epoch_acked: u32,
    pub(super) extra_acked: [u32; 2],
    pub(super) win_rtts: u32,
    pub(super) win_idx: usize,
}

impl Bbr {
    /// `bbr_update_ack_aggregation`: how far ACKs ran ahead of max_bw since the
    /// current epoch began, max over 5 to 10 rounds.
    pub(super) fn update_ack_aggregation(&mut self, cb: &ControlBlock, rs: &RateSample) {
        if rs.acked_sacked == 0 || valid_interval_us(rs).is_none() {
            return;
        }
        if self.round_start {
            self.aggr.win_rtts = (self.aggr.win_rtts + 1).min(0x1F);
            if self.aggr.win_rtts >= BBR_EXTRA_ACKED_WIN_RTTS {
                self.aggr.win_rtts = 0;
                self.aggr.win_idx ^= 1;
                self.aggr.extra_acked[self.aggr.win_idx] = 0;
            }
        }
        let epoch_us = self.delivered_mstamp.saturating_sub(self.aggr.epoch_mstamp);
        let mut expected = self.bw() as u64 * epoch_us / BW_UNIT;
        // ACKs slower than expected (or a very old epoch): start a new epoch.
        if self.aggr.epoch_acked as u64 <= expected
            || self.aggr.epoch_acked + rs.acked_sacked >= BBR_ACK_EPOCH_ACKED_RESET_THRESH
        {
            self.aggr.epoch_acked = 0;
            self.aggr.epoch_mstamp = self.delivered_mstamp;
            expected = 0;
        }
        self.aggr.epoch_acked = (self.aggr.epoch_acked + rs.acked_sacked).min(0xF_FFFF);
        let extra = (self.aggr.epoch_acked as u64 - expected).min(cb.cwnd as u64) as u32;
        let slot = &mut self.aggr.extra_acked[self.aggr.win_idx];
        *slot = (*slot).max(extra);
    }

    /// `bbr_ack_aggregation_cwnd`: only once the pipe is full, capped at 100 ms of data.
    pub(super) fn ack_aggregation_cwnd(&self) -> u32 {
        if !self.full_bw_reached {
            return 0;
        }
        let max_aggr = self.bw() as u64 * BBR_EXTRA_ACKED_MAX_US / BW_UNIT;
        let extra = self.aggr.extra_acked[0].max(self.aggr.extra_acked[1]);
        let aggr = (BBR_EXTRA_ACKED_GAIN as u64 * extra as u64) >> BBR_SCALE;
        aggr.min(max_aggr) as u32
    }
}
