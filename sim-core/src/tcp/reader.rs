//! The receiving application's reads: at once (the default), or at a steady
//! rate, as a slow consumer (a database parsing a huge INSERT, a client
//! writing to a slow disk) does. Unread data stays in the receive buffer and
//! shrinks the window the receiver can offer.

use crate::time::{SimDuration, SimTime};

const NS_PER_S: u128 = 1_000_000_000;

#[derive(Clone, Debug)]
pub struct Reader {
    /// Bytes per second; `None` reads everything the moment it arrives.
    rate: Option<u64>,
    /// Reading capacity accumulated but not yet a whole byte (byte·ns).
    carry: u128,
    last: SimTime,
}

impl Reader {
    pub fn new(rate: Option<u64>) -> Self {
        Reader {
            rate,
            carry: 0,
            last: SimTime::ZERO,
        }
    }

    pub fn reads_at_once(&self) -> bool {
        self.rate.is_none()
    }

    /// How many bytes the application may read at `now`, given `unread` waiting.
    /// An application with nothing to read cannot bank reading time for later.
    pub fn budget(&mut self, now: SimTime, unread: u64) -> u64 {
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
    pub fn next_tick(&self, now: SimTime, unread: u64, mss: u32) -> Option<SimTime> {
        let rate = self.rate?;
        if unread == 0 || rate == 0 {
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
        let mut r = Reader::new(Some(1000));
        assert_eq!(r.budget(SimTime(0), 10_000), 0);
        assert_eq!(r.budget(SimTime(5_500_000), 10_000), 5);
        // The half byte carried over completes at 6 ms.
        assert_eq!(r.budget(SimTime(6_000_000), 10_000), 1);
    }

    #[test]
    fn an_idle_reader_does_not_bank_time() {
        let mut r = Reader::new(Some(1000));
        assert_eq!(r.budget(SimTime(1_000_000_000), 0), 0);
        assert_eq!(r.budget(SimTime(1_001_000_000), 100), 1);
    }

    #[test]
    fn a_stopped_reader_never_reads_and_never_ticks() {
        let mut r = Reader::new(Some(0));
        assert_eq!(r.budget(SimTime(9_000_000_000), 100), 0);
        assert_eq!(r.next_tick(SimTime(0), 100, 1448), None);
    }
}
