//! BBR v1 (net/ipv4/tcp_bbr.c): Bottleneck Bandwidth and Round-trip time.
//!
//! BBR ignores loss as a signal and builds a model of the path from every ACK:
//!
//! ```text
//!   max_bw  = windowed max of delivered / interval   over 10 round trips
//!   min_rtt = windowed min of RTT samples            over 10 seconds
//!   pacing_rate = pacing_gain · max_bw
//!   cwnd        = cwnd_gain · max_bw · min_rtt  (+ ACK aggregation, + 3 TSO bursts)
//! ```
//!
//! The gains come from a small state machine:
//!
//! ```text
//!          bw grew < 25 % in 3 rounds           inflight ≤ BDP
//!   ┌─────────┐ ─────────────────► ┌───────┐ ─────────────────► ┌──────────────┐
//!   │ STARTUP │                    │ DRAIN │                    │   PROBE_BW   │
//!   │  2.89   │                    │ 0.35  │                    │ 1.25 .75 1 1 │
//!   └─────────┘                    └───────┘                    │  1  1  1  1  │
//!        ▲                                                      └──────────────┘
//!        │ pipe never filled ┌───────────┐ pipe filled                 ▲   │ min_rtt
//!        └────────────────── │ PROBE_RTT │ ────────────────────────────┘   │ 10 s old
//!                            │  cwnd 4   │ ◄───────────────────────────────┘ (any mode)
//!                            └───────────┘  ≥ 200 ms and one round at 4
//! ```
//!
//! PROBE_BW moves one phase per min_rtt: 1.25 looks for more bandwidth, 0.75
//! drains the queue that probe may have built, six phases at 1.0 cruise.
//!
//! Arithmetic is the kernel's fixed point so the numbers match Linux's: gains
//! in 1/256 (`BBR_SCALE`), bandwidth in segments per µs << 24 (`BW_SCALE`),
//! RTTs in µs, timestamps for min_rtt and PROBE_RTT in 1 ms jiffies (HZ = 1000).
//! Two parts of v1 are easy to forget: the long-term ("lt") estimator that
//! detects token-bucket policers and paces at their rate, and the ACK
//! aggregation allowance (`extra_acked`, Linux 4.20+) that keeps sending
//! through bursts of stretched ACKs.
//!
//! The files follow tcp_bbr.c's parts:
//!
//! ```text
//!   model.rs             max_bw and min_rtt filters, round counting
//!   lt_bw.rs             long-term sampling: token-bucket policer detection
//!   ack_aggregation.rs   extra_acked, the allowance for bursts of ACKs
//!   cwnd.rs              the cwnd target, quantization budget, recovery and restore
//!   pacing.rs            pacing rate and the TSO burst goal
//!   startup.rs drain.rs probe_bw.rs probe_rtt.rs   each mode and its way out
//! ```
//!
//! This file holds the state (`struct bbr`) and the `tcp_congestion_ops`
//! hooks, with `bbr_main` ([`CongestionOps::cong_control`]) running the model,
//! then pacing, then cwnd on every ACK.

mod ack_aggregation;
mod cwnd;
mod drain;
mod lt_bw;
mod model;
mod pacing;
mod probe_bw;
mod probe_rtt;
mod startup;
#[cfg(test)]
mod tests;

use super::{
    CaState, CcInfo, CongestionOps, ControlBlock, CwndEvent, RateSample, TCP_INFINITE_SSTHRESH,
};
use crate::rng::Rng;
use crate::time::{SimDuration, SimTime, jiffies};
use ack_aggregation::AckAggregation;
use drain::BBR_DRAIN_GAIN;
use lt_bw::LongTerm;
use model::WindowedMax;
use probe_bw::{BBR_CWND_GAIN, BBR_PACING_GAIN};
use startup::BBR_HIGH_GAIN;
use std::cell::Cell;

/// `BW_SCALE`: bandwidth is in segments per µs, shifted left 24 bits.
const BW_SCALE: u32 = 24;
const BW_UNIT: u64 = 1 << BW_SCALE;
/// `BBR_SCALE`: gains are in 1/256.
const BBR_SCALE: u32 = 8;
const BBR_UNIT: u32 = 1 << BBR_SCALE;

/// `enum bbr_mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

/// `tcp_mstamp` and friends are µs clocks.
fn micros(t: SimTime) -> u64 {
    t.0 / 1_000
}

/// `tcp_ca_state` is ordered Open < Disorder < CWR < Recovery < Loss and BBR
/// compares against Recovery.
fn in_recovery_or_loss(s: CaState) -> bool {
    matches!(s, CaState::Recovery | CaState::Loss)
}

/// `rs->interval_us` when the sample is valid (> 0 µs).
fn valid_interval_us(rs: &RateSample) -> Option<u64> {
    rs.interval.map(|i| i.0 / 1_000).filter(|&us| us > 0)
}

/// BBR's per-connection state (`struct bbr`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bbr {
    mode: Mode,
    /// Max delivery rate over the last 10 rounds, segments/µs << 24.
    bw: WindowedMax,
    /// `u32::MAX` until there is an RTT sample (`~0U`).
    min_rtt_us: u32,
    min_rtt_stamp: u64,
    /// When PROBE_RTT may end, in jiffies (kernel: 0 = not yet at 4 segments).
    probe_rtt_done_stamp: Option<u64>,
    probe_rtt_round_done: bool,
    /// Packet-timed rounds so far: the max filter's clock.
    rtt_cnt: u32,
    /// `tp->delivered` when the current round ends.
    next_rtt_delivered: u64,
    round_start: bool,
    idle_restart: bool,
    packet_conservation: bool,
    prev_ca_state: CaState,
    /// cwnd before recovery or PROBE_RTT, to restore afterwards.
    prior_cwnd: u32,
    cycle_mstamp: u64,
    cycle_idx: usize,
    pacing_gain: u32,
    cwnd_gain: u32,
    has_seen_rtt: bool,
    full_bw_reached: bool,
    full_bw: u32,
    full_bw_cnt: u32,

    lt: LongTerm,
    aggr: AckAggregation,

    // Socket fields the kernel reads that the interface doesn't hand over:
    // `tp->delivered_mstamp` (µs of the last delivery), `tp->lost` (summed from
    // rate samples), and delivered / mss for hooks without a control block.
    delivered: u64,
    delivered_mstamp: u64,
    lost: u64,
    mss: u32,

    /// Picks PROBE_BW's first phase. Linux uses `prandom_u32_max`; a seeded
    /// generator keeps runs repeatable and lets flows sharing a path start out
    /// of step, as real hosts do.
    rng: Rng,
    /// `bbr_undo_cwnd` changes state, but `.undo_cwnd` takes `&self`: the reset
    /// is noted here and done at the start of the next hook.
    undo_pending: Cell<bool>,
}

impl Default for Bbr {
    fn default() -> Self {
        Bbr::with_seed(0)
    }
}

impl Bbr {
    pub fn new() -> Self {
        Bbr::default()
    }

    pub fn with_seed(seed: u64) -> Self {
        Bbr {
            mode: Mode::Startup,
            bw: WindowedMax::default(),
            min_rtt_us: u32::MAX,
            min_rtt_stamp: 0,
            probe_rtt_done_stamp: None,
            probe_rtt_round_done: false,
            rtt_cnt: 0,
            next_rtt_delivered: 0,
            round_start: false,
            idle_restart: false,
            packet_conservation: false,
            prev_ca_state: CaState::Open,
            prior_cwnd: 0,
            cycle_mstamp: 0,
            cycle_idx: 0,
            pacing_gain: 0,
            cwnd_gain: 0,
            has_seen_rtt: false,
            full_bw_reached: false,
            full_bw: 0,
            full_bw_cnt: 0,
            lt: LongTerm::default(),
            aggr: AckAggregation::default(),
            delivered: 0,
            delivered_mstamp: 0,
            lost: 0,
            mss: 1448,
            rng: Rng::new(seed),
            undo_pending: Cell::new(false),
        }
    }

    /// Estimated bottleneck bandwidth in bytes per second (`bbr_get_info`).
    pub fn bandwidth(&self) -> u64 {
        (self.bw() as u64 * self.mss as u64 * 1_000_000) >> BW_SCALE
    }

    /// The min_rtt estimate, once there is an RTT sample.
    pub fn min_rtt(&self) -> Option<SimDuration> {
        (self.min_rtt_us != u32::MAX).then(|| SimDuration::from_micros(self.min_rtt_us as u64))
    }

    /// Current gains in 1/256 (`bbr_pacing_gain`, `bbr_cwnd_gain` in `ss -i`).
    pub fn gains(&self) -> (u32, u32) {
        (self.pacing_gain, self.cwnd_gain)
    }

    /// Follows the socket's counters the kernel reads directly.
    fn observe(&mut self, cb: &ControlBlock, rs: &RateSample) {
        if cb.delivered != self.delivered {
            self.delivered_mstamp = micros(rs.now);
        }
        self.delivered = cb.delivered;
        self.lost += rs.losses as u64;
        self.mss = cb.mss;
    }

    fn apply_pending_undo(&mut self) {
        if self.undo_pending.replace(false) {
            // Spurious slow-down: reset full-pipe detection and the lt estimator.
            self.full_bw = 0;
            self.full_bw_cnt = 0;
            self.reset_lt_bw_sampling();
        }
    }

    /// `bbr_update_gains`: each mode's pacing and cwnd gains.
    fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            Mode::Startup => (BBR_HIGH_GAIN, BBR_HIGH_GAIN),
            Mode::Drain => (BBR_DRAIN_GAIN, BBR_HIGH_GAIN), // keep cwnd while draining
            Mode::ProbeBw if self.lt.use_bw => (BBR_UNIT, BBR_CWND_GAIN),
            Mode::ProbeBw => (BBR_PACING_GAIN[self.cycle_idx], BBR_CWND_GAIN),
            Mode::ProbeRtt => (BBR_UNIT, BBR_UNIT),
        };
    }

    /// `bbr_update_model`.
    fn update_model(&mut self, cb: &mut ControlBlock, rs: &RateSample) {
        self.update_bw(cb, rs);
        self.update_ack_aggregation(cb, rs);
        if self.mode == Mode::ProbeBw && self.is_next_cycle_phase(cb, rs) {
            self.advance_cycle_phase();
        }
        self.check_full_bw_reached(rs);
        self.check_drain(cb);
        self.update_min_rtt(cb, rs);
        self.update_gains();
    }
}

impl CongestionOps for Bbr {
    fn name(&self) -> &'static str {
        "bbr"
    }

    /// `bbr_ssthresh`: entering recovery; remember cwnd, leave ssthresh alone.
    fn ssthresh(&mut self, cb: &ControlBlock) -> u32 {
        self.apply_pending_undo();
        self.save_cwnd(cb.cwnd);
        cb.ssthresh
    }

    /// BBR sets cwnd in `.cong_control`; nothing to do per ACK here.
    fn cong_avoid(&mut self, _cb: &mut ControlBlock, _acked: u32, _now: SimTime) {}

    /// `bbr_set_state`: an RTO ends a round, restarts full-pipe detection and
    /// counts as a loss for the policer estimator.
    fn set_state(&mut self, state: CaState) {
        self.apply_pending_undo();
        if state == CaState::Loss {
            self.prev_ca_state = CaState::Loss;
            self.full_bw = 0;
            self.round_start = true;
            self.lt_bw_sampling(1, false);
        }
    }

    /// `bbr_init`.
    fn init(&mut self, cb: &mut ControlBlock, now: SimTime) {
        let rng = self.rng.clone();
        *self = Bbr {
            rng,
            delivered: cb.delivered,
            delivered_mstamp: micros(now),
            mss: cb.mss,
            // tcp_min_rtt(): at establishment, the handshake's one RTT sample.
            min_rtt_us: cb
                .srtt
                .map_or(u32::MAX, |s| (s.0 / 1_000).min(u32::MAX as u64 - 1) as u32),
            min_rtt_stamp: jiffies(now),
            aggr: AckAggregation {
                epoch_mstamp: micros(now),
                ..AckAggregation::default()
            },
            ..Bbr::with_seed(0)
        };
        cb.ssthresh = TCP_INFINITE_SSTHRESH;
        self.init_pacing_rate_from_rtt(cb);
        self.reset_lt_bw_sampling();
    }

    /// `bbr_cwnd_event`: restarting from idle while app-limited.
    fn cwnd_event(&mut self, cb: &mut ControlBlock, event: CwndEvent, now: SimTime) {
        self.apply_pending_undo();
        if event != CwndEvent::TxStart {
            return;
        }
        // tcp_rate_skb_sent: with nothing out, the delivery clock restarts now.
        self.delivered_mstamp = micros(now);
        if cb.app_limited {
            self.idle_restart = true;
            self.aggr.epoch_mstamp = micros(now);
            self.aggr.epoch_acked = 0;
            // No need for more speed: pace at the estimate rather than overflow buffers.
            match self.mode {
                Mode::ProbeBw => self.set_pacing_rate(cb, self.bw(), BBR_UNIT),
                Mode::ProbeRtt => self.check_probe_rtt_done(cb, jiffies(now)),
                _ => {}
            }
        }
    }

    /// `bbr_undo_cwnd`: keep cwnd; the loss was spurious, so full-pipe and
    /// policer detection start over (at the next hook, see `undo_pending`).
    fn undo_cwnd(&self, cb: &ControlBlock) -> u32 {
        self.undo_pending.set(true);
        cb.cwnd
    }

    /// `bbr_main`.
    fn cong_control(&mut self, cb: &mut ControlBlock, rs: &RateSample) -> bool {
        self.observe(cb, rs);
        self.apply_pending_undo();
        self.update_model(cb, rs);
        let bw = self.bw();
        self.set_pacing_rate(cb, bw, self.pacing_gain);
        self.set_cwnd(cb, rs, rs.acked_sacked, bw, self.cwnd_gain);
        true
    }

    fn has_cong_control(&self) -> bool {
        true
    }

    /// BBR may slow start even in recovery: room for 3 cwnds.
    fn sndbuf_expand(&self) -> u32 {
        3
    }

    fn needs_pacing(&self) -> bool {
        true
    }

    fn min_tso_segs(&self, cb: &ControlBlock) -> u32 {
        pacing::min_tso_segs(cb.pacing_rate)
    }

    /// `bbr_get_info`: `bbr_bw` in bytes per second (at the socket's
    /// `mss_cache`), min_rtt and the gains as the state holds them.
    fn get_info(&self, cb: &ControlBlock) -> CcInfo {
        CcInfo::Bbr {
            bw: (self.bw() as u64 * cb.mss as u64 * 1_000_000) >> BW_SCALE,
            min_rtt_us: self.min_rtt_us,
            pacing_gain: self.pacing_gain,
            cwnd_gain: self.cwnd_gain,
        }
    }

    fn mode(&self) -> Option<&'static str> {
        Some(match self.mode {
            Mode::Startup => "startup",
            Mode::Drain => "drain",
            Mode::ProbeBw => "probe_bw",
            Mode::ProbeRtt => "probe_rtt",
        })
    }
}
