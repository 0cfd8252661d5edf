//! Pacing: the rate BBR sends at, and the burst it expects each send to
//! carry (tcp_bbr.c `bbr_rate_bytes_per_sec`, `bbr_set_pacing_rate`,
//! `bbr_tso_segs_goal`).
//!
//! `pacing_rate = pacing_gain · bw`, 1 % under, in bytes per second. Until the
//! pipe is found full the rate never goes down, so one early low sample
//! cannot throttle Startup.

use super::startup::BBR_HIGH_GAIN;
use super::{BBR_SCALE, BW_SCALE, BW_UNIT, Bbr};
use crate::cc::ControlBlock;

/// `bbr_min_tso_rate`, bits per second.
const BBR_MIN_TSO_RATE: u64 = 1_200_000;

/// `bbr_pacing_margin_percent`: pace 1 % under the estimate so queues drain.
const BBR_PACING_MARGIN_PERCENT: u64 = 1;

/// `sk_pacing_shift` default: TSO bursts of about 1 ms of data.
const SK_PACING_SHIFT: u32 = 10;

/// `GSO_LEGACY_MAX_SIZE - 1 - MAX_TCP_HEADER`: the 64 KB burst cap BBR applies
/// itself. MAX_TCP_HEADER is 320 on x86-64 distribution kernels.
pub(super) const BBR_TSO_MAX_BYTES: u64 = 65_536 - 1 - 320;

/// `bbr_rate_bytes_per_sec`: bw (segments/µs << 24) x gain → bytes/s, 1 % under.
/// The kernel orders the steps to fit a u64 up to ~3 Tbit/s; u128 here keeps
/// a bogus sample beyond that from overflowing, with the same result below it.
pub(super) fn rate_bytes_per_sec(bw: u64, mss: u32, gain: u32) -> u64 {
    let mut rate = bw as u128 * mss as u128 * gain as u128;
    rate >>= BBR_SCALE;
    rate *= (1_000_000 / 100 * (100 - BBR_PACING_MARGIN_PERCENT)) as u128;
    (rate >> BW_SCALE).min(u64::MAX as u128) as u64
}

/// `bbr_min_tso_segs`: one-segment TSO packets below 1.2 Mbit/s, else 2.
pub(super) fn min_tso_segs(pacing_rate: u64) -> u32 {
    if pacing_rate < BBR_MIN_TSO_RATE >> 3 {
        1
    } else {
        2
    }
}

/// `bbr_tso_segs_goal` with `bbr_min_tso_segs`: the burst BBR expects one
/// send to carry, ~1 ms of data at the pacing rate (`>> sk_pacing_shift`).
/// Linux applies its own 64 KB cap here whatever the device offers, so this
/// needs no TSO model: 1 segment below 1.2 Mbit/s, else 2 to 127.
pub(super) fn tso_segs_goal(pacing_rate: u64, mss: u32) -> u32 {
    let min_segs = min_tso_segs(pacing_rate);
    let bytes = (pacing_rate >> SK_PACING_SHIFT).min(BBR_TSO_MAX_BYTES);
    let segs = (bytes / mss.max(1) as u64) as u32;
    segs.max(min_segs).min(0x7F)
}

impl Bbr {
    /// `bbr_init_pacing_rate_from_rtt`: high_gain x initcwnd / RTT (1 ms if unknown).
    pub(super) fn init_pacing_rate_from_rtt(&mut self, cb: &mut ControlBlock) {
        let rtt_us = match cb.srtt {
            Some(srtt) => {
                self.has_seen_rtt = true;
                (srtt.0 / 1_000).max(1)
            }
            None => 1_000,
        };
        let bw = cb.cwnd as u64 * BW_UNIT / rtt_us;
        cb.pacing_rate = rate_bytes_per_sec(bw, cb.mss, BBR_HIGH_GAIN);
    }

    /// `bbr_set_pacing_rate`: until the pipe is full, never slow down, so an
    /// early low sample cannot throttle Startup.
    pub(super) fn set_pacing_rate(&mut self, cb: &mut ControlBlock, bw: u32, gain: u32) {
        let rate = rate_bytes_per_sec(bw as u64, cb.mss, gain);
        if !self.has_seen_rtt && cb.srtt.is_some() {
            self.init_pacing_rate_from_rtt(cb);
        }
        if self.full_bw_reached || rate > cb.pacing_rate {
            cb.pacing_rate = rate;
        }
    }
}
