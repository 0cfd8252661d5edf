//! HyStart (tcp_cubic.c `hystart_update`): leave slow start before the first
//! loss, when the ACKs of a round stretch over half the minimum RTT (the pipe
//! is full: "ACK train") or when the RTT has grown (a queue is building:
//! "delay increase"). Only above 16 segments (`hystart_low_window`).
//!
//! ```text
//!   round: from snd_nxt at its start until that byte is ACKed
//!   ACK train: ACKs ≤ 2 ms apart, first to last > delay_min / 2  ─► ssthresh = cwnd
//!   delay:     min RTT of the round's first 8 ACKs
//!              > delay_min + clamp(delay_min / 8, 4 ms, 16 ms)      ─► ssthresh = cwnd
//! ```

use super::ControlBlock;
use crate::time::SimTime;

/// `hystart_low_window`.
pub const HYSTART_LOW_WINDOW: u32 = 16;
/// `hystart_ack_delta_us`.
const ACK_DELTA_US: u64 = 2_000;
/// `HYSTART_MIN_SAMPLES`.
const MIN_SAMPLES: u32 = 8;
/// `HYSTART_DELAY_MIN` / `HYSTART_DELAY_MAX`, µs.
const DELAY_MIN_US: u64 = 4_000;
const DELAY_MAX_US: u64 = 16_000;

/// Why slow start ended early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    AckTrain,
    Delay,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HyStart {
    pub found: Option<Found>,
    round_start_us: u64,
    last_ack_us: u64,
    end_seq: u64,
    curr_rtt_us: u64,
    sample_cnt: u32,
}

fn us(t: SimTime) -> u64 {
    t.0 / 1000
}

impl HyStart {
    /// `bictcp_hystart_reset`: a new round begins at `snd_nxt`.
    pub fn reset(&mut self, now: SimTime, snd_nxt: u64) {
        self.round_start_us = us(now);
        self.last_ack_us = us(now);
        self.end_seq = snd_nxt;
        self.curr_rtt_us = u64::MAX;
        self.sample_cnt = 0;
    }

    /// `hystart_update` for one ACK with an RTT sample of `delay_us`; may set
    /// ssthresh to cwnd to end slow start.
    pub fn update(
        &mut self,
        cb: &mut ControlBlock,
        now: SimTime,
        snd_una: u64,
        snd_nxt: u64,
        delay_us: u64,
        delay_min_us: u64,
    ) {
        if self.found.is_some() || !cb.in_slow_start() || cb.cwnd < HYSTART_LOW_WINDOW {
            return;
        }
        if snd_una > self.end_seq {
            self.reset(now, snd_nxt);
        }
        let now_us = us(now);
        // ACK train: consecutive ACKs close together, spanning half the min RTT
        // (the whole min RTT is the threshold when pacing spreads the flight).
        if now_us.saturating_sub(self.last_ack_us) <= ACK_DELTA_US {
            self.last_ack_us = now_us;
            if now_us.saturating_sub(self.round_start_us) > delay_min_us / 2 {
                self.found = Some(Found::AckTrain);
                cb.ssthresh = cb.cwnd;
                return;
            }
        }
        // Delay increase over the round's first samples.
        self.curr_rtt_us = self.curr_rtt_us.min(delay_us);
        if self.sample_cnt < MIN_SAMPLES {
            self.sample_cnt += 1;
        } else if self.curr_rtt_us
            > delay_min_us + (delay_min_us >> 3).clamp(DELAY_MIN_US, DELAY_MAX_US)
        {
            self.found = Some(Found::Delay);
            cb.ssthresh = cb.cwnd;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cb(cwnd: u32) -> ControlBlock {
        ControlBlock {
            cwnd,
            ..ControlBlock::new(10)
        }
    }

    #[test]
    fn below_16_segments_hystart_does_nothing() {
        let mut h = HyStart::default();
        let mut c = cb(15);
        h.reset(SimTime::ZERO, 100);
        h.update(&mut c, SimTime(60_000_000), 200, 300, 100_000, 1_000);
        assert_eq!(h.found, None);
    }

    #[test]
    fn an_ack_train_longer_than_half_the_min_rtt_ends_slow_start() {
        // min RTT 10 ms: a train of ACKs 1 ms apart passes 5 ms at the 6th.
        let mut h = HyStart::default();
        let mut c = cb(100);
        h.reset(SimTime::ZERO, 1_000_000);
        for i in 1..=6u64 {
            h.update(
                &mut c,
                SimTime(i * 1_000_000),
                10 + i,
                1_000_000,
                10_000,
                10_000,
            );
        }
        assert_eq!(h.found, Some(Found::AckTrain));
        assert_eq!(c.ssthresh, 100);
    }

    #[test]
    fn a_gap_between_acks_breaks_the_train() {
        let mut h = HyStart::default();
        let mut c = cb(100);
        h.reset(SimTime::ZERO, 1_000_000);
        // ACKs 3 ms apart (over the 2 ms delta): never a train.
        for i in 1..=5u64 {
            h.update(
                &mut c,
                SimTime(i * 3_000_000),
                10 + i,
                1_000_000,
                10_000,
                10_000,
            );
        }
        assert_eq!(h.found, None);
    }

    #[test]
    fn rtt_growth_past_the_threshold_ends_slow_start() {
        // min RTT 40 ms: threshold 40 + clamp(5, 4, 16) = 45 ms. Samples of 46 ms,
        // 10 ms apart (no ACK train): the 9th decides.
        let mut h = HyStart::default();
        let mut c = cb(100);
        h.reset(SimTime::ZERO, 1_000_000);
        for i in 1..=8u64 {
            h.update(
                &mut c,
                SimTime(i * 10_000_000),
                10 + i,
                1_000_000,
                46_000,
                40_000,
            );
            assert_eq!(h.found, None);
        }
        h.update(&mut c, SimTime(90_000_000), 19, 1_000_000, 46_000, 40_000);
        assert_eq!(h.found, Some(Found::Delay));
    }
}
