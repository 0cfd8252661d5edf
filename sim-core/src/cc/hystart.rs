//! HyStart (tcp_cubic.c `hystart_update`): leave slow start before the first
//! loss, when the ACKs of a round stretch over a set share of the minimum RTT
//! (the pipe is full: "ACK train") or when the RTT has grown (a queue is
//! building: "delay increase"). Only from 16 segments (`hystart_low_window`).
//!
//! The rules changed twice, so each era has its own ([`HyStartRules`]):
//!
//! ```text
//!              clock  ACK train: a train (ACKs ≤ 2 ms apart)     delay: min RTT of the round
//!                     longer than                               over
//!  3.x         ms     delay_min / 2                             delay_min + clamp(delay_min/16, 4, 16 ms)  (first 8 ACKs)
//!  4.x–5.6     ms     delay_min / 2                             delay_min + clamp(delay_min/8, 4, 16 ms)   (first 8 ACKs)
//!  5.7+        µs     (delay_min + ack_delay) / 2 unpaced,       delay_min + clamp(delay_min/8, 4, 16 ms)   (every ACK
//!                     delay_min + ack_delay with fq or BBR-style                                         after the 8th)
//!                     pacing (sk_pacing_status ≠ SK_PACING_NONE)
//! ```
//!
//! `ack_delay` (`hystart_ack_delay`, 5.7+) allows for TSO and GRO: the time
//! four 64 KB GSO packets take at the pacing rate, at most 1 ms. A round
//! begins when an ACK passes the `snd_nxt` of the last round's start: checked
//! in `cong_avoid` before 5.7-era code moved it (4e1fddc98d25) into
//! `hystart_update`, and since 25c1a9ca53db (6.13) before the 16-segment test
//! rather than after it.

use super::ControlBlock;
use crate::time::SimTime;

/// `hystart_low_window`.
pub const HYSTART_LOW_WINDOW: u32 = 16;
/// `hystart_ack_delta_us` (2 ms; `hystart_ack_delta`, in ms, before 5.7).
const ACK_DELTA_US: u64 = 2_000;
/// `HYSTART_MIN_SAMPLES`.
const MIN_SAMPLES: u32 = 8;
/// `HYSTART_DELAY_MIN` / `HYSTART_DELAY_MAX`, µs.
const DELAY_MIN_US: u64 = 4_000;
const DELAY_MAX_US: u64 = 16_000;
/// `sk_gso_max_size`: `GSO_LEGACY_MAX_SIZE`, without BIG TCP.
const GSO_MAX_SIZE: u64 = 65_536;

/// Which kernel's HyStart a host runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HyStartRules {
    /// 3.x (CentOS 7's 3.10 and, as modelled, CentOS 6's 2.6.32): a
    /// millisecond clock, delays in 1/8 ms, the delay margin a sixteenth of
    /// the minimum RTT. (Vanilla 2.6.32 floored that margin at 2 ms, not 4;
    /// whether RHEL 6 took the 3.0 change was not checked.)
    Ms16,
    /// 4.x to 5.6: the same with the margin an eighth of the minimum RTT.
    Ms8,
    /// 5.7 and later ("tcp_cubic: switch bictcp_clock to usec resolution",
    /// "tweak Hystart detection for short RTT flows", "make Hystart aware of
    /// pacing").
    #[default]
    Us,
}

crate::config::value_names! {
    HyStartRules { Ms16 = "ms-rtt16", Ms8 = "ms-rtt8", Us = "us-pacing-aware" }
}

impl HyStartRules {
    fn ms_clock(self) -> bool {
        self != HyStartRules::Us
    }
}

/// Why slow start ended early.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    AckTrain,
    Delay,
}

/// What HyStart needs to know of one ACK with an RTT sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HyStartAck {
    pub now: SimTime,
    pub snd_una: u64,
    pub snd_nxt: u64,
    /// The sample, µs (`sample->rtt_us`, at least 1).
    pub delay_us: u64,
    /// CUBIC's `delay_min`, µs, this sample included.
    pub delay_min_us: u64,
    /// `sk_pacing_status != SK_PACING_NONE`: fq or an algorithm's pacing.
    pub paced: bool,
    /// `sk_pacing_rate`, bytes per second (0: not yet set).
    pub pacing_rate: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HyStart {
    pub rules: HyStartRules,
    pub found: Option<Found>,
    /// In µs on the 5.7+ clock, in ms on the older one.
    round_start: u64,
    last_ack: u64,
    end_seq: u64,
    /// µs on the 5.7+ clock; 1/8 ms before (0: none yet).
    curr_rtt: u64,
    sample_cnt: u32,
    /// snd_una and snd_nxt of the last ACK, for the pre-5.7 round check in
    /// `cong_avoid`.
    last_seqs: (u64, u64),
}

impl HyStart {
    pub fn new(rules: HyStartRules) -> Self {
        HyStart {
            rules,
            ..HyStart::default()
        }
    }

    /// Forgets everything but the rules (`bictcp_reset` with `found = 0`).
    pub fn clear(&mut self) {
        *self = HyStart::new(self.rules);
    }

    fn clock(&self, now: SimTime) -> u64 {
        if self.rules.ms_clock() {
            // bictcp_clock(): jiffies_to_msecs(jiffies) at HZ=1000.
            now.0 / 1_000_000
        } else {
            // bictcp_clock_us(): tp->tcp_mstamp.
            now.0 / 1_000
        }
    }

    /// `bictcp_hystart_reset`: a new round begins at `snd_nxt`.
    pub fn reset(&mut self, now: SimTime, snd_nxt: u64) {
        self.round_start = self.clock(now);
        self.last_ack = self.round_start;
        self.end_seq = snd_nxt;
        self.curr_rtt = if self.rules.ms_clock() { 0 } else { u64::MAX };
        self.sample_cnt = 0;
    }

    /// `cubictcp_cong_avoid`'s round check before 5.7-era code moved it:
    /// in slow start and cwnd-limited, an ACK past `end_seq` starts a round.
    pub fn on_slow_start_ack(&mut self, now: SimTime) {
        let (snd_una, snd_nxt) = self.last_seqs;
        if self.rules.ms_clock() && snd_una > self.end_seq {
            self.reset(now, snd_nxt);
        }
    }

    /// `cubictcp_acked` → `hystart_update` for one ACK with an RTT sample,
    /// in slow start; may set ssthresh to cwnd to end slow start.
    pub fn update(&mut self, cb: &mut ControlBlock, ack: &HyStartAck) {
        self.last_seqs = (ack.snd_una, ack.snd_nxt);
        if self.found.is_some() || !cb.in_slow_start() {
            return;
        }
        if !self.rules.ms_clock() && ack.snd_una > self.end_seq {
            self.reset(ack.now, ack.snd_nxt);
        }
        if cb.cwnd < HYSTART_LOW_WINDOW {
            return;
        }
        let found = if self.rules.ms_clock() {
            self.update_ms(ack)
        } else {
            self.update_us(ack)
        };
        if let Some(f) = found {
            self.found = Some(f);
            cb.ssthresh = cb.cwnd;
        }
    }

    /// Before 5.7: delays in 1/8 ms (`(rtt_us << 3) / USEC_PER_MSEC`), a
    /// millisecond clock; the delay test takes the least of the round's
    /// first eight samples only.
    fn update_ms(&mut self, ack: &HyStartAck) -> Option<Found> {
        let delay = (ack.delay_us * 8 / 1_000).max(1);
        let delay_min = (ack.delay_min_us * 8 / 1_000).max(1);
        let now = self.clock(ack.now);
        let mut found = None;
        if now.saturating_sub(self.last_ack) <= ACK_DELTA_US / 1_000 {
            self.last_ack = now;
            // delay_min >> 4: half the minimum RTT, in ms.
            if now.saturating_sub(self.round_start) > delay_min >> 4 {
                found = Some(Found::AckTrain);
            }
        }
        if self.sample_cnt < MIN_SAMPLES {
            if self.curr_rtt == 0 || self.curr_rtt > delay {
                self.curr_rtt = delay;
            }
            self.sample_cnt += 1;
        } else {
            let share = match self.rules {
                HyStartRules::Ms16 => delay_min >> 4,
                _ => delay_min >> 3,
            };
            let margin = share.clamp(DELAY_MIN_US * 8 / 1_000, DELAY_MAX_US * 8 / 1_000);
            if found.is_none() && self.curr_rtt > delay_min + margin {
                found = Some(Found::Delay);
            }
        }
        found
    }

    /// 5.7 and later: µs throughout; the ACK train's threshold allows for
    /// TSO/GRO and, when the flow is paced, for pacing's spread.
    fn update_us(&mut self, ack: &HyStartAck) -> Option<Found> {
        let now = self.clock(ack.now);
        if now.saturating_sub(self.last_ack) <= ACK_DELTA_US {
            self.last_ack = now;
            let mut threshold = ack.delay_min_us + hystart_ack_delay(ack.pacing_rate);
            // "Pacing might have delayed packets up to RTT/2 during slow start."
            if !ack.paced {
                threshold >>= 1;
            }
            if now.saturating_sub(self.round_start) > threshold {
                return Some(Found::AckTrain);
            }
        }
        self.curr_rtt = self.curr_rtt.min(ack.delay_us);
        if self.sample_cnt < MIN_SAMPLES {
            self.sample_cnt += 1;
        } else if self.curr_rtt
            > ack.delay_min_us + (ack.delay_min_us >> 3).clamp(DELAY_MIN_US, DELAY_MAX_US)
        {
            return Some(Found::Delay);
        }
        None
    }
}

/// `hystart_ack_delay`: four GSO packets' time at the pacing rate, at most
/// 1 ms; nothing before a rate is set.
pub fn hystart_ack_delay(pacing_rate: u64) -> u64 {
    if pacing_rate == 0 {
        return 0;
    }
    (GSO_MAX_SIZE * 4 * 1_000_000 / pacing_rate).min(1_000)
}

#[cfg(test)]
#[path = "hystart_tests.rs"]
mod tests;
