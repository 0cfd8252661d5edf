//! The receiving application's reads: at once (the default), or at a steady
//! rate, as a slow consumer (a database parsing a huge INSERT, a client
//! writing to a slow disk) does. Unread data stays in the receive buffer and
//! shrinks the window the receiver can offer.
//!
//! It may also pause: stop reading at one moment (a garbage collection, a
//! thread busy elsewhere: seed 001's case 6) and resume at another, or never.
//!
//! ```text
//!   reads (at once or at its rate) ──► pause.from ── nothing read ──► pause.until ──► reads again
//! ```

use crate::time::{SimDuration, SimTime};

const NS_PER_S: u128 = 1_000_000_000;

/// When the application stops reading, and when (if ever) it reads again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadPause {
    pub from: SimTime,
    /// `None`: it never reads again.
    pub until: Option<SimTime>,
}

impl ReadPause {
    fn covers(&self, now: SimTime) -> bool {
        now >= self.from && self.until.is_none_or(|u| now < u)
    }
}

#[derive(Clone, Debug)]
pub struct Reader {
    /// Bytes per second; `None` reads everything the moment it arrives.
    rate: Option<u64>,
    pause: Option<ReadPause>,
    /// Reading capacity accumulated but not yet a whole byte (byte·ns).
    carry: u128,
    last: SimTime,
    /// A reader that reads at once does so this long after data wakes it.
    wakeup: SimDuration,
}

impl Reader {
    pub fn new(rate: Option<u64>, pause: Option<ReadPause>, wakeup: SimDuration) -> Self {
        Reader {
            rate,
            pause,
            carry: 0,
            last: SimTime::ZERO,
            wakeup,
        }
    }

    /// The application a receiver's settings describe.
    pub fn for_receiver(cfg: &crate::config::ReceiverConfig) -> Self {
        Reader::new(cfg.read_rate, cfg.read_pause, cfg.read_wakeup)
    }

    /// Reads every byte the moment it arrives, always: the socket then
    /// needs no read ticks.
    pub fn reads_at_once(&self) -> bool {
        self.rate.is_none() && self.pause.is_none() && self.wakeup == SimDuration::ZERO
    }

    /// Reads everything there is, but only `wakeup` after the first data
    /// woke it: data arriving meanwhile does not wake it again.
    pub fn wakes_late(&self) -> bool {
        self.rate.is_none() && self.wakeup > SimDuration::ZERO
    }

    /// How many bytes the application may read at `now`, given `unread` waiting.
    /// An application with nothing to read cannot bank reading time for later.
    pub fn budget(&mut self, now: SimTime, unread: u64) -> u64 {
        if self.pause.is_some_and(|p| p.covers(now)) {
            // Nor does a paused one.
            self.last = now;
            self.carry = 0;
            return 0;
        }
        let Some(rate) = self.rate else { return unread };
        let elapsed = now.since(self.last).0 as u128;
        self.last = now;
        let avail = self.carry + rate as u128 * elapsed;
        let bytes = (avail / NS_PER_S) as u64;
        if bytes >= unread {
            self.carry = 0;
            unread
        } else {
            self.carry = avail % NS_PER_S;
            bytes
        }
    }

    /// When to look again: once one more segment's worth has been read.
    /// While paused: when it resumes.
    pub fn next_tick(&self, now: SimTime, unread: u64, mss: u32) -> Option<SimTime> {
        if unread == 0 {
            return None;
        }
        if let Some(p) = self.pause.filter(|p| p.covers(now)) {
            return p.until;
        }
        // Past a pause, reading at once: at once (this very instant), or
        // once the application has woken up.
        let Some(rate) = self.rate else {
            return Some(now + self.wakeup);
        };
        if rate == 0 {
            return None;
        }
        let ns = (mss.min(unread as u32).max(1) as u128 * NS_PER_S).div_ceil(rate as u128) as u64;
        Some(now + SimDuration(ns.max(100_000)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_at_1000_bytes_per_second_reads_one_byte_per_millisecond() {
        let mut r = Reader::new(Some(1000), None, SimDuration::ZERO);
        assert_eq!(r.budget(SimTime(0), 10_000), 0);
        assert_eq!(r.budget(SimTime(5_500_000), 10_000), 5);
        // The half byte carried over completes at 6 ms.
        assert_eq!(r.budget(SimTime(6_000_000), 10_000), 1);
    }

    #[test]
    fn an_idle_reader_does_not_bank_time() {
        let mut r = Reader::new(Some(1000), None, SimDuration::ZERO);
        assert_eq!(r.budget(SimTime(1_000_000_000), 0), 0);
        assert_eq!(r.budget(SimTime(1_001_000_000), 100), 1);
    }

    #[test]
    fn a_stopped_reader_never_reads_and_never_ticks() {
        let mut r = Reader::new(Some(0), None, SimDuration::ZERO);
        assert_eq!(r.budget(SimTime(9_000_000_000), 100), 0);
        assert_eq!(r.next_tick(SimTime(0), 100, 1448), None);
    }

    #[test]
    fn a_paused_reader_reads_at_once_before_nothing_during_and_all_at_its_resumption() {
        let pause = ReadPause {
            from: SimTime(2_000_000_000),
            until: Some(SimTime(8_000_000_000)),
        };
        let mut r = Reader::new(None, Some(pause), SimDuration::ZERO);
        assert!(!r.reads_at_once(), "the socket must tick it");
        assert_eq!(r.budget(SimTime(1_000_000_000), 5_000), 5_000);
        assert_eq!(r.budget(SimTime(3_000_000_000), 5_000), 0);
        assert_eq!(
            r.next_tick(SimTime(3_000_000_000), 5_000, 1448),
            pause.until
        );
        assert_eq!(r.budget(SimTime(8_000_000_000), 5_000), 5_000);
        assert_eq!(r.next_tick(SimTime(8_000_000_000), 0, 1448), None);
        // Data that arrives after it resumes is read the same instant.
        let t = SimTime(9_000_000_000);
        assert_eq!(r.next_tick(t, 1448, 1448), Some(t));
        let never = Reader::new(
            None,
            Some(ReadPause {
                until: None,
                ..pause
            }),
            SimDuration::ZERO,
        );
        assert_eq!(never.next_tick(SimTime(3_000_000_000), 5_000, 1448), None);
    }

    #[test]
    fn a_reader_that_wakes_late_reads_everything_once_awake() {
        let r = Reader::new(None, None, SimDuration::from_micros(50));
        assert!(!r.reads_at_once() && r.wakes_late());
        let t = SimTime(1_000_000);
        assert_eq!(
            r.next_tick(t, 1448, 1448),
            Some(t + SimDuration::from_micros(50))
        );
        assert_eq!(r.next_tick(t, 0, 1448), None);
    }
}
