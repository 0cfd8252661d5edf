//! Simulated time: integer nanoseconds, never floats and never the wall clock.
//!
//! Integer time makes every run bit-for-bit repeatable, natively and in wasm.
//! `u64` nanoseconds cover 584 years, far beyond any scenario.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// `HZ`: the kernel's tick rate, here `CONFIG_HZ=1000` as on the kernels the
/// book measures, so a jiffy is one millisecond. The congestion-control
/// modules keep some timestamps in jiffies (tcp_cubic.c's epoch, tcp_bbr.c's
/// min_rtt and PROBE_RTT stamps), and rounding to whole jiffies is part of
/// what makes their numbers the kernel's.
pub const HZ: u64 = 1000;

/// Nanoseconds per jiffy.
pub const JIFFY_NS: u64 = 1_000_000_000 / HZ;

/// `jiffies` (include/linux/jiffies.h) at `t`: whole ticks since the scenario
/// started. The kernel's counter starts at `INITIAL_JIFFIES` (5 minutes
/// before the 32-bit wrap) rather than 0; callers that treat jiffy 0 as
/// "unset" say how they offset it.
pub fn jiffies(t: SimTime) -> u64 {
    t.0 / JIFFY_NS
}

/// An instant on the simulated clock, in nanoseconds since the scenario started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

/// A span of simulated time, in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimDuration(pub u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);

    pub fn as_nanos(self) -> u64 {
        self.0
    }

    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }

    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }

    /// Time elapsed since `earlier`; zero if `earlier` is later (never underflows).
    pub fn since(self, earlier: SimTime) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

impl SimDuration {
    pub const ZERO: SimDuration = SimDuration(0);

    pub const fn from_nanos(ns: u64) -> Self {
        SimDuration(ns)
    }
    pub const fn from_micros(us: u64) -> Self {
        SimDuration(us * 1_000)
    }
    pub const fn from_millis(ms: u64) -> Self {
        SimDuration(ms * 1_000_000)
    }
    pub const fn from_secs(s: u64) -> Self {
        SimDuration(s * 1_000_000_000)
    }
    pub fn as_nanos(self) -> u64 {
        self.0
    }
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }
    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }
    /// Doubles, saturating: used for exponential timer backoff.
    pub fn doubled(self) -> Self {
        SimDuration(self.0.saturating_mul(2))
    }
}

impl Add<SimDuration> for SimTime {
    type Output = SimTime;
    fn add(self, d: SimDuration) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}

impl AddAssign<SimDuration> for SimTime {
    fn add_assign(&mut self, d: SimDuration) {
        *self = *self + d;
    }
}

impl Add for SimDuration {
    type Output = SimDuration;
    fn add(self, d: SimDuration) -> SimDuration {
        SimDuration(self.0.saturating_add(d.0))
    }
}

impl Sub for SimTime {
    type Output = SimDuration;
    fn sub(self, earlier: SimTime) -> SimDuration {
        self.since(earlier)
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ms",
            crate::decimal_text::fixed(self.as_millis_f64(), 3)
        )
    }
}

impl fmt::Display for SimDuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ms",
            crate::decimal_text::fixed(self.as_millis_f64(), 3)
        )
    }
}
