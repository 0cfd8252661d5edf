//! CUBIC (net/ipv4/tcp_cubic.c; RFC 9438), Linux's default congestion control.
//!
//! After a loss, cwnd follows a cubic curve in the time since the loss,
//! centred on the window where the loss happened (W_max):
//!
//! ```text
//!   W(t) = C·(t − K)³ + W_max,   K = ∛(W_max·(1 − β) / C),   C = 0.4, β = 717/1024
//!
//!   cwnd ▲            ___________------   probing above W_max
//!        │      ____/
//!  W_max ┼ ··· /·························
//!        │    /   concave: fast at first, flat near W_max
//!        │   /
//!        └──┴─────────────────────────► t
//!          loss    K
//! ```
//!
//! The arithmetic follows Linux's fixed point (times in 2^-10 s "bictcp_HZ",
//! jiffies of 1 ms), so K and the per-ACK step match the kernel's integers.
//! HyStart, which ends slow start before the first loss, is in [`super::hystart`].

use super::hystart::{HyStart, HyStartAck};
use super::slow_start::{tcp_cong_avoid_ai, tcp_slow_start};
use super::{AckSample, CaState, CcInfo, CongestionOps, ControlBlock, CwndEvent};
use crate::time::{self, HZ, SimTime};

/// `BICTCP_BETA_SCALE`.
const BETA_SCALE: u32 = 1024;
/// β = 717/1024 ≈ 0.7 (RFC 9438 `BETA_CUBIC`).
const BETA: u32 = 717;
/// `BICTCP_HZ`: CUBIC's time unit is 2^-10 s.
const BICTCP_HZ: u32 = 10;
/// C = bic_scale / 1024 = 41/1024 ≈ 0.04 per 100 ms ... scaled below to 0.4 s^-2.
const BIC_SCALE: u64 = 41;
/// `cube_rtt_scale`: 1024·C, with C = 0.4.
const CUBE_RTT_SCALE: u64 = BIC_SCALE * 10;
/// `cube_factor` = 2^(10 + 3·BICTCP_HZ) / (bic_scale·10): turns W_max − cwnd into K³.
const CUBE_FACTOR: u64 = (1u64 << (10 + 3 * BICTCP_HZ)) / (BIC_SCALE * 10);
/// `beta_scale` = 8·(1024 + β) / 3 / (1024 − β): the TCP-friendly (Reno-equivalent) rate.
const BETA_SCALE_FRIENDLY: u32 = 8 * (BETA_SCALE + BETA) / 3 / (BETA_SCALE - BETA);
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cubic {
    /// ACKs per cwnd increment (`ca->cnt`).
    pub cnt: u32,
    pub last_max_cwnd: u32,
    last_cwnd: u32,
    last_time: u64,
    origin_point: u32,
    /// K in 2^-10 s.
    pub k: u32,
    /// Minimum RTT seen, in microseconds (`delay_min`).
    delay_min_us: u64,
    /// Start of the current epoch in jiffies; 0 = no epoch.
    epoch_start: u64,
    ack_cnt: u32,
    tcp_cwnd: u32,
    /// Last time data was sent, in jiffies, for `CA_EVENT_TX_START`.
    last_send: u64,
    pub hystart: HyStart,
}

/// `cubic_root`: Newton–Raphson on integers, as the kernel computes it. (The
/// kernel starts from a lookup table; the fixed point of the iteration is the
/// same integer within 1.)
pub fn cubic_root(a: u64) -> u32 {
    if a == 0 {
        return 0;
    }
    let mut x: u64 = 1 << ((64 - a.leading_zeros()) / 3 + 1);
    loop {
        let next = (2 * x + a / (x * x)) / 3;
        if next >= x {
            break;
        }
        x = next;
    }
    // Settle on floor(cbrt(a)).
    let cube = |v: u64| (v as u128).pow(3);
    while cube(x) > a as u128 {
        x -= 1;
    }
    while cube(x + 1) <= a as u128 {
        x += 1;
    }
    x as u32
}

/// `tcp_jiffies32`, as CUBIC reads it.
///
/// The `+ 1` keeps jiffy 0 meaning what it means in tcp_cubic.c: `epoch_start
/// == 0` is "no epoch" (`cubictcp_recalc_ssthresh` and `bictcp_reset` write
/// 0; `bictcp_update` starts an epoch when it reads 0). The kernel's counter
/// starts at `INITIAL_JIFFIES`, 5 minutes short of the 32-bit wrap, so a
/// connection practically never sees it read 0; the simulated clock starts at
/// 0, and an epoch begun in a run's first millisecond would otherwise be
/// taken for none. Apart from that sentinel CUBIC only compares these stamps
/// and subtracts them, which the offset leaves alone.
fn jiffies(now: SimTime) -> u64 {
    time::jiffies(now) + 1
}

impl Cubic {
    fn reset(&mut self) {
        let last_send = self.last_send;
        let hystart = HyStart::new(self.hystart.rules);
        *self = Cubic {
            last_send,
            hystart,
            ..Cubic::default()
        };
    }

    /// `bictcp_update`: sets `cnt`, the number of ACKed segments per +1 cwnd.
    fn update(&mut self, cwnd: u32, acked: u32, now: SimTime) {
        let now_j = jiffies(now);
        self.ack_cnt += acked;
        if self.last_cwnd == cwnd && now_j.saturating_sub(self.last_time) <= HZ / 32 {
            return;
        }
        // cnt changes at most once per jiffy, except after a reduction (epoch 0).
        if !(self.epoch_start != 0 && now_j == self.last_time) {
            self.last_cwnd = cwnd;
            self.last_time = now_j;
            if self.epoch_start == 0 {
                self.epoch_start = now_j;
                self.ack_cnt = acked;
                self.tcp_cwnd = cwnd;
                if self.last_max_cwnd <= cwnd {
                    self.k = 0;
                    self.origin_point = cwnd;
                } else {
                    // K = ∛((W_max − cwnd) / C), in 2^-10 s.
                    self.k = cubic_root(CUBE_FACTOR * (self.last_max_cwnd - cwnd) as u64);
                    self.origin_point = self.last_max_cwnd;
                }
            }
            // t: time since the epoch began, plus one minimum RTT (the target is
            // where cwnd should be one RTT from now; usecs_to_jiffies rounds it
            // up), in 2^-10 s.
            let t_j = now_j - self.epoch_start + self.delay_min_us.div_ceil(1_000_000 / HZ);
            let t = (t_j << BICTCP_HZ) / HZ;
            let offs = t.abs_diff(self.k as u64);
            // C·(t − K)³, back in segments.
            // (u128: after minutes of backoff (t − K)³ overflows 64 bits,
            // where the kernel's arithmetic would silently wrap.)
            let delta = ((CUBE_RTT_SCALE as u128 * (offs as u128).pow(3)) >> (10 + 3 * BICTCP_HZ))
                .min(u32::MAX as u128) as u32;
            let target = if t < self.k as u64 {
                self.origin_point.saturating_sub(delta)
            } else {
                self.origin_point.saturating_add(delta)
            };
            self.cnt = if target > cwnd {
                cwnd / (target - cwnd)
            } else {
                100 * cwnd
            };
            // With no loss yet, grow at least 5 % per RTT.
            if self.last_max_cwnd == 0 && self.cnt > 20 {
                self.cnt = 20;
            }
        }
        // TCP friendliness: never slower than Reno with the same β would be.
        let delta = (cwnd * BETA_SCALE_FRIENDLY) >> 3;
        while delta > 0 && self.ack_cnt > delta {
            self.ack_cnt -= delta;
            self.tcp_cwnd += 1;
        }
        if self.tcp_cwnd > cwnd {
            let max_cnt = cwnd / (self.tcp_cwnd - cwnd);
            self.cnt = self.cnt.min(max_cnt);
        }
        // At most 1 segment per 2 ACKed: 1.5x per RTT.
        self.cnt = self.cnt.max(2);
    }

    /// W(t) in segments for a window `wmax` lost `secs` ago, as real numbers
    /// (RFC 9438 eq. 1), for readers and tests.
    pub fn w_cubic(wmax: f64, secs: f64) -> f64 {
        let c = 0.4;
        let beta = BETA as f64 / BETA_SCALE as f64;
        let k = (wmax * (1.0 - beta) / c).cbrt();
        c * (secs - k).powi(3) + wmax
    }
}

impl CongestionOps for Cubic {
    fn name(&self) -> &'static str {
        "cubic"
    }

    /// `cubictcp_recalc_ssthresh`: remember W_max (less, with fast convergence,
    /// when this loss came below the previous one) and return β·cwnd.
    fn ssthresh(&mut self, cb: &ControlBlock) -> u32 {
        self.epoch_start = 0;
        self.last_max_cwnd = if cb.cwnd < self.last_max_cwnd {
            (cb.cwnd * (BETA_SCALE + BETA)) / (2 * BETA_SCALE)
        } else {
            cb.cwnd
        };
        ((cb.cwnd * BETA) / BETA_SCALE).max(2)
    }

    /// `cubictcp_cong_avoid`.
    fn cong_avoid(&mut self, cb: &mut ControlBlock, acked: u32, now: SimTime) {
        if !cb.cwnd_limited {
            return;
        }
        let mut acked = acked;
        if cb.in_slow_start() {
            // Before 5.7-era code moved it into hystart_update, a new
            // HyStart round began here.
            self.hystart.on_slow_start_ack(now);
            acked = tcp_slow_start(cb, acked);
            if acked == 0 {
                return;
            }
        }
        self.update(cb.cwnd, acked, now);
        tcp_cong_avoid_ai(cb, self.cnt, acked);
    }

    /// `cubictcp_acked`: track the minimum RTT and run HyStart.
    fn pkts_acked(&mut self, cb: &mut ControlBlock, ack: &AckSample) {
        let Some(r) = ack.rtt else { return };
        // Discard delay samples right after fast recovery.
        if self.epoch_start != 0 && jiffies(ack.now).saturating_sub(self.epoch_start) < HZ {
            return;
        }
        let us = (r.0 / 1000).max(1);
        if self.delay_min_us == 0 || us < self.delay_min_us {
            self.delay_min_us = us;
        }
        self.hystart.update(
            cb,
            &HyStartAck {
                now: ack.now,
                snd_una: ack.snd_una,
                snd_nxt: ack.snd_nxt,
                delay_us: us,
                delay_min_us: self.delay_min_us,
                paced: ack.paced,
                pacing_rate: ack.pacing_rate,
            },
        );
    }

    /// `cubictcp_state`: a timeout starts everything afresh.
    fn set_state(&mut self, state: CaState) {
        if state == CaState::Loss {
            self.reset();
        }
    }

    /// `cubictcp_cwnd_event`: an application-limited pause shifts the epoch, so
    /// idle time does not count as time spent growing.
    fn cwnd_event(&mut self, _cb: &mut ControlBlock, event: CwndEvent, now: SimTime) {
        let now_j = jiffies(now);
        match event {
            CwndEvent::TxStart => {
                if self.epoch_start != 0 && now_j > self.last_send {
                    self.epoch_start = (self.epoch_start + (now_j - self.last_send)).min(now_j);
                }
                self.last_send = now_j;
            }
            CwndEvent::DataSent => self.last_send = now_j,
        }
    }

    fn undo_cwnd(&self, cb: &ControlBlock) -> u32 {
        cb.cwnd.max(self.last_max_cwnd)
    }

    /// The current epoch's curve (Linux's CUBIC exports none: see `CcInfo`).
    /// `epoch_start` is in `jiffies()`, one past the clock's jiffy.
    fn get_info(&self, _cb: &ControlBlock) -> CcInfo {
        CcInfo::Cubic {
            epoch_start_ns: (self.epoch_start != 0)
                .then(|| (self.epoch_start - 1) * time::JIFFY_NS),
            w_max: self.last_max_cwnd,
            k: self.k,
            origin_point: self.origin_point,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    #[test]
    fn the_kernels_constants() {
        assert_eq!(CUBE_FACTOR, 2_681_735_677, "2^40 / 410");
        assert_eq!(BETA_SCALE_FRIENDLY, 15, "8 x 1741 / 3 / 307");
    }

    #[test]
    fn cube_roots_are_exact_integers() {
        assert_eq!(cubic_root(27), 3);
        assert_eq!(cubic_root(26), 2);
        assert_eq!(cubic_root(1_000_000_000_000), 10_000);
        assert_eq!(cubic_root(u64::MAX), 2_642_245);
    }

    #[test]
    fn k_for_a_loss_at_100_segments_is_4_2_seconds() {
        // W_max = 100, cwnd after the loss 70 (β ≈ 0.7): K = ∛(30 / 0.4) = ∛75 = 4.217 s.
        // In the kernel's units: ∛(2681735677 x 30) = 4316, i.e. 4316 / 1024 = 4.215 s.
        let mut c = Cubic {
            last_max_cwnd: 100,
            ..Cubic::default()
        };
        c.update(70, 1, SimTime(5_000_000_000));
        assert_eq!(c.k, 4316);
        assert!((c.k as f64 / 1024.0 - 75f64.cbrt()).abs() < 0.005);
    }

    #[test]
    fn w_of_t_is_w_max_at_k_and_beta_w_max_at_the_loss() {
        // RFC 9438: W(0) = β·W_max, W(K) = W_max.
        let k = (100.0 * (1.0 - 717.0 / 1024.0) / 0.4f64).cbrt();
        assert!((Cubic::w_cubic(100.0, 0.0) - 100.0 * 717.0 / 1024.0).abs() < 1e-9);
        assert!((Cubic::w_cubic(100.0, k) - 100.0).abs() < 1e-9);
        // One second past K: W_max + 0.4.
        assert!((Cubic::w_cubic(100.0, k + 1.0) - 100.4).abs() < 1e-9);
    }

    #[test]
    fn a_loss_sets_ssthresh_to_717_1024_of_cwnd_and_remembers_w_max() {
        let mut c = Cubic::default();
        let cb = ControlBlock {
            cwnd: 100,
            ..ControlBlock::new(10)
        };
        assert_eq!(c.ssthresh(&cb), 70);
        assert_eq!(c.last_max_cwnd, 100);
        // A second loss below W_max: fast convergence releases bandwidth,
        // W_max = cwnd x (1 + β) / 2.
        let cb = ControlBlock {
            cwnd: 80,
            ..ControlBlock::new(10)
        };
        assert_eq!(c.ssthresh(&cb), 56);
        assert_eq!(c.last_max_cwnd, 80 * 1741 / 2048);
    }

    #[test]
    fn right_after_a_loss_the_curve_climbs_steeply_then_flattens_near_w_max() {
        // W_max 100, cwnd 70, srtt irrelevant (delay_min 0): just after the loss the
        // target is far above cwnd (small cnt); near K the target is close to cwnd.
        let mut early = Cubic {
            last_max_cwnd: 100,
            ..Cubic::default()
        };
        early.update(70, 1, SimTime(1_000_000_000));
        let mut late = Cubic {
            last_max_cwnd: 100,
            ..Cubic::default()
        };
        late.update(70, 1, SimTime(1_000_000_000));
        late.last_time = 0;
        late.update(99, 1, SimTime(1_000_000_000 + 4_000_000_000));
        assert!(early.cnt < late.cnt, "{} vs {}", early.cnt, late.cnt);
    }

    /// Plays ACK clocking: every RTT, one ACK per segment of cwnd.
    fn grow(
        c: &mut Cubic,
        cb: &mut ControlBlock,
        start: SimTime,
        rtt_ms: u64,
        rtts: u64,
    ) -> Vec<u32> {
        let mut out = Vec::new();
        for r in 0..rtts {
            let now = start + SimDuration::from_millis(r * rtt_ms);
            for _ in 0..cb.cwnd {
                c.cong_avoid(cb, 1, now);
            }
            out.push(cb.cwnd);
        }
        out
    }

    #[test]
    fn after_a_loss_cwnd_climbs_back_to_w_max_around_k_then_probes_beyond() {
        // Loss at 100 segments, 100 ms RTT: ssthresh and cwnd 70, K = 4.2 s = 42 RTTs.
        let mut c = Cubic::default();
        let mut cb = ControlBlock::new(10);
        cb.cwnd = 100;
        cb.ssthresh = c.ssthresh(&cb);
        cb.cwnd = cb.ssthresh;
        c.delay_min_us = 100_000;
        let w = grow(&mut c, &mut cb, SimTime(10_000_000_000), 100, 60);
        // RFC 9438: W(K/2) = 100 − 0.4·(2.1)³ ≈ 96.3; W(K) = 100; W(K + 1.8 s) ≈ 102.3.
        // Linux aims one RTT ahead and counts whole segments: allow 3.
        let at = |rtt: usize| w[rtt] as f64;
        assert!(
            (at(21) - Cubic::w_cubic(100.0, 2.2)).abs() <= 3.0,
            "K/2: {}",
            at(21)
        );
        assert!((at(42) - 100.0).abs() <= 3.0, "K: {}", at(42));
        assert!(at(59) > 100.0, "beyond K it probes above W_max: {}", at(59));
        // Concave before K: the first 10 RTTs gain more than the 10 before K.
        assert!(w[10] - w[0] > w[42] - w[32], "{w:?}");
    }

    /// The exported epoch: W_max and K as `bictcp_update` set them, the
    /// epoch's start back on the simulated clock; none between a reduction
    /// and the first ACK grown after it.
    #[test]
    fn get_info_exports_the_epochs_curve() {
        let mut c = Cubic::default();
        let mut cb = ControlBlock::new(10);
        cb.cwnd = 100;
        cb.ssthresh = c.ssthresh(&cb);
        cb.cwnd = cb.ssthresh;
        let none = CcInfo::Cubic {
            epoch_start_ns: None,
            w_max: 100,
            k: 0,
            origin_point: 0,
        };
        assert_eq!(c.get_info(&cb), none);
        c.cong_avoid(&mut cb, 1, SimTime(5_000_300_000));
        assert_eq!(
            c.get_info(&cb),
            CcInfo::Cubic {
                epoch_start_ns: Some(5_000_000_000),
                w_max: 100,
                k: 4316,
                origin_point: 100,
            }
        );
    }

    #[test]
    fn cnt_never_allows_more_than_1_5x_per_rtt() {
        let mut c = Cubic::default();
        c.update(10, 1, SimTime(1_000_000_000));
        assert!(c.cnt >= 2);
    }
}
