//! When a jiffies timer runs: the kernel's tick (`CONFIG_HZ`) and the timer
//! wheel that turns a timer's `expires` into the tick whose softirq runs it
//! (kernel/time/timer.c).
//!
//! A socket arms a timer as `jiffies + timeout` (`sk_reset_timer` →
//! `mod_timer`). What happens to that number changed in 4.8:
//!
//! ```text
//!  2.6.32, 3.10  cascading wheel   runs it on tick `expires` itself, so a timer
//!                                  armed between two ticks waits up to one tick
//!                                  LESS than its timeout; from 3.10 (2.6.34's
//!                                  `apply_slack`) a timeout of 256 ticks or more
//!                                  may run up to 1/256 of it late
//!  4.8 and later  non-cascading     `calc_index` rounds `expires` UP to its level's
//!                 wheel             granularity, plus one: "a timer does not fire
//!                                  early … armed at the edge of a tick". Level 0
//!                                  (under 63 ticks) runs it on tick expires + 1,
//!                                  level n every 8^n ticks
//! ```
//!
//! So a 40 ms delayed ACK armed mid-tick waits 39–40 ms on 3.10 at HZ=1000 and
//! 40–41 ms today (40–44 ms at HZ=250).
//!
//! The model takes the wheel's clock (`base->clk`) to be `jiffies` when the
//! timer is armed: `forward_timer_base` brings an idle base up to date on
//! enqueue, and the book's hosts are never so busy that the softirq falls
//! behind.

use crate::time::{SimDuration, SimTime};

/// `CONFIG_HZ`: the host's tick rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hz(u32);

impl Hz {
    /// The rates distributions build with: 100, 250 (Debian, Ubuntu), 300 and
    /// 1000 (RHEL, CentOS, Fedora, and so the seeds' hosts).
    pub const CHOICES: [u32; 4] = [100, 250, 300, 1000];
    /// The seeds' hosts' rate, and the model's default.
    pub const DEFAULT: Hz = Hz(1000);

    /// A rate from [`Hz::CHOICES`].
    pub fn new(hz: u32) -> Option<Hz> {
        Hz::CHOICES.contains(&hz).then_some(Hz(hz))
    }

    pub fn get(self) -> u32 {
        self.0
    }

    /// Nanoseconds per tick (300 Hz: 3,333,333 ns, as `TICK_NSEC` rounds).
    pub fn tick_ns(self) -> u64 {
        1_000_000_000 / self.0 as u64
    }

    /// `jiffies` at `t`: whole ticks since the scenario started.
    pub fn jiffies(self, t: SimTime) -> u64 {
        t.0 / self.tick_ns()
    }

    /// The instant tick `j` begins.
    pub fn tick_start(self, j: u64) -> SimTime {
        SimTime(j * self.tick_ns())
    }

    /// A span in whole ticks, rounded down (a timeout the model keeps in
    /// nanoseconds, as `ato`, becomes the kernel's integer jiffies).
    pub fn ticks_floor(self, d: SimDuration) -> u64 {
        d.0 / self.tick_ns()
    }

    /// `usecs_to_jiffies`/`msecs_to_jiffies`: rounded up.
    pub fn ticks_ceil(self, d: SimDuration) -> u64 {
        d.0.div_ceil(self.tick_ns())
    }
}

impl Default for Hz {
    fn default() -> Self {
        Hz::DEFAULT
    }
}

/// Which timer wheel a kernel has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimerWheel {
    /// Before 2.6.34: the cascading wheel, exact to the tick.
    Cascading,
    /// 2.6.34 to 4.7: the cascading wheel with `apply_slack` ("timers:
    /// introduce the concept of timer slack"): a timer with no slack set may
    /// run up to delta/256 late, rounded so that nearby timers share a tick.
    /// Vanilla 2.6.32 predates it; whether RHEL 6 carries it was not checked,
    /// and it only matters for timeouts of 256 ticks or more.
    CascadingSlack,
    /// 4.8 and later (500462a9de65 "timers: Switch to a non-cascading
    /// wheel"): `calc_wheel_index` / `calc_index` round up.
    RoundsUp,
}

/// `LVL_CLK_SHIFT`: each level's ticks are 8 times the one below's.
const LVL_CLK_SHIFT: u32 = 3;
/// `LVL_BITS`: 64 buckets a level.
const LVL_BITS: u32 = 6;
/// `LVL_DEPTH` at HZ > 100 (HZ=100 has 8 levels too in the model: the
/// timers here never reach the last level).
const LVL_DEPTH: u32 = 9;

crate::config::value_names! {
    TimerWheel { Cascading = "cascading", CascadingSlack = "cascading_slack", RoundsUp = "rounds_up" }
}

impl TimerWheel {
    /// The tick on which a timer armed at tick `clk` for tick `expires` runs.
    pub fn runs_on(self, clk: u64, expires: u64) -> u64 {
        let delta = expires.saturating_sub(clk);
        match self {
            TimerWheel::Cascading => expires,
            TimerWheel::CascadingSlack => apply_slack(delta, expires),
            TimerWheel::RoundsUp => {
                // calc_wheel_index: the first level whose range holds delta;
                // LVL_START(n) = 63 << 3(n-1).
                let lvl = (1..LVL_DEPTH)
                    .find(|&n| delta < (((1u64 << LVL_BITS) - 1) << ((n - 1) * LVL_CLK_SHIFT)))
                    .map_or(LVL_DEPTH - 1, |n| n - 1);
                // calc_index: (expires >> LVL_SHIFT(lvl)) + 1, back in ticks.
                let shift = lvl * LVL_CLK_SHIFT;
                ((expires >> shift) + 1) << shift
            }
        }
    }

    /// When a timer armed at `now` for `timeout` ticks (`jiffies + timeout`)
    /// runs, on a host ticking at `hz`. Returns the nominal expiry in jiffies
    /// (what the socket keeps, as `icsk_ack.timeout`) and the instant it runs.
    pub fn arm(self, hz: Hz, now: SimTime, timeout: u64) -> (u64, SimTime) {
        let clk = hz.jiffies(now);
        let expires = clk + timeout;
        (expires, hz.tick_start(self.runs_on(clk, expires)))
    }
}

/// `apply_slack` (2.6.34 to 4.7) for a timer with no slack set: a timeout of
/// 256 ticks or more may run up to delta/256 late, at the latest tick whose
/// high bits match the limit's, so that timers near each other share one.
fn apply_slack(delta: u64, expires: u64) -> u64 {
    if delta < 256 {
        return expires;
    }
    let limit = expires + delta / 256;
    let mask = expires ^ limit;
    if mask == 0 {
        return expires;
    }
    // find_last_bit: the highest bit that differs; clear the bits below it.
    let bit = 63 - mask.leading_zeros();
    limit & !((1u64 << bit) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn today_a_40_tick_timer_runs_one_tick_after_its_expiry() {
        // calc_index at level 0: (expires >> 0) + 1.
        assert_eq!(TimerWheel::RoundsUp.runs_on(1000, 1040), 1041);
        // delta 62 is the last of level 0; 63 starts level 1 (8-tick buckets).
        assert_eq!(TimerWheel::RoundsUp.runs_on(1000, 1062), 1063);
        assert_eq!(TimerWheel::RoundsUp.runs_on(1000, 1063), 1064);
        assert_eq!(TimerWheel::RoundsUp.runs_on(1000, 1064), 1072);
        // 200 ticks (TCP_DELACK_MAX at HZ=1000): level 1, ((1200 >> 3) + 1) << 3.
        assert_eq!(TimerWheel::RoundsUp.runs_on(1000, 1200), 1208);
        // 504 = LVL_START(2) starts level 2, 64-tick buckets.
        assert_eq!(TimerWheel::RoundsUp.runs_on(1000, 1504), 1536);
    }

    #[test]
    fn the_cascading_wheel_runs_a_timer_on_its_expiry() {
        assert_eq!(TimerWheel::Cascading.runs_on(1000, 1040), 1040);
        assert_eq!(TimerWheel::Cascading.runs_on(1000, 1500), 1500);
        // apply_slack leaves a timeout under 256 ticks alone ...
        assert_eq!(TimerWheel::CascadingSlack.runs_on(1000, 1200), 1200);
        // ... and lets 500 ticks run late by up to 500/256 = 1: limit 1501,
        // 1500 ^ 1501 = 1, bit 0, nothing cleared.
        assert_eq!(TimerWheel::CascadingSlack.runs_on(1000, 1500), 1501);
        // 1023 + 3 = 1026: 1023 ^ 1026 = 0b111_1111_1101, top bit 10, so
        // 1026 & !0x3ff = 1024.
        assert_eq!(TimerWheel::CascadingSlack.runs_on(0, 1023), 1024);
    }

    #[test]
    fn a_40_ms_timer_armed_mid_tick_waits_per_wheel_and_hz() {
        // Armed at 27.6 ms: tick 27 at HZ=1000, tick 6 (24 ms) at HZ=250.
        let now = SimTime(27 * MS + 600_000);
        let wait = |w: TimerWheel, hz: u32| {
            let hz = Hz::new(hz).unwrap();
            let (_, at) = w.arm(hz, now, hz.ticks_floor(SimDuration(40 * MS)));
            at.0 - now.0
        };
        assert_eq!(wait(TimerWheel::Cascading, 1000), 39_400_000);
        assert_eq!(wait(TimerWheel::RoundsUp, 1000), 40_400_000);
        // HZ=250: ticks of 4 ms; 6 + 10 = 16 → runs on 17, at 68 ms.
        assert_eq!(wait(TimerWheel::Cascading, 250), 36_400_000);
        assert_eq!(wait(TimerWheel::RoundsUp, 250), 40_400_000);
        // Armed right after a tick: the longest waits, 41 ms and 44 ms.
        let now = SimTime(28 * MS + 1);
        let hz = Hz::new(250).unwrap();
        let (_, at) = TimerWheel::RoundsUp.arm(hz, now, 10);
        assert_eq!(at.0 - now.0, 44 * MS - 1);
    }

    #[test]
    fn only_distribution_rates_are_taken() {
        assert!(Hz::new(1000).is_some() && Hz::new(250).is_some());
        assert!(Hz::new(0).is_none() && Hz::new(1024).is_none());
        assert_eq!(Hz::new(300).unwrap().tick_ns(), 3_333_333);
    }
}
