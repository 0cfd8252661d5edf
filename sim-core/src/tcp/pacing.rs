//! Pacing: spreading a window's segments over the round trip instead of
//! sending them in a burst (tcp_output.c `tcp_update_skb_after_send`,
//! `tcp_pacing_check`; the same earliest-departure-time model `fq` uses).
//!
//! ```text
//!   unpaced:  ||||||||||..........................   burst, then idle
//!   paced:    |  |  |  |  |  |  |  |  |  |  |  |     one segment per len/rate
//! ```
//!
//! After each data segment the next may leave `len / pacing_rate` later. A
//! sender that fell behind (the timer fired late, or it had nothing to send)
//! may catch up by at most half a slot per segment, so a stall does not turn
//! into a burst. The first ten segments of a connection are not paced
//! (`tp->data_segs_out >= 10`).
//!
//! Who paces: an algorithm that asks for it (BBR) always does, through TCP's
//! internal pacing; any algorithm does when the qdisc is `fq`
//! (`net.core.default_qdisc`). Without either, Linux does not pace.

use crate::time::{SimDuration, SimTime};

/// Segments a connection sends before pacing starts.
const UNPACED_SEGMENTS: u64 = 10;

#[derive(Clone, Debug, Default)]
pub struct Pacer {
    /// `tcp_wstamp_ns`: the earliest time the next segment may leave.
    wstamp: SimTime,
    segs_out: u64,
}

impl Pacer {
    /// The next data segment may not leave before this.
    pub fn ready_at(&self) -> SimTime {
        self.wstamp
    }

    /// A data segment of `len` payload bytes left at `now` with the pacing
    /// rate at `rate` bytes per second (0: not paced).
    pub fn on_send(&mut self, now: SimTime, len: u32, rate: u64) {
        let prior = self.wstamp;
        self.wstamp = self.wstamp.max(now);
        self.segs_out += 1;
        if rate == 0 || self.segs_out <= UNPACED_SEGMENTS {
            return;
        }
        let mut len_ns = len as u64 * 1_000_000_000 / rate;
        let credit = self.wstamp.since(prior).0;
        len_ns -= (len_ns / 2).min(credit);
        self.wstamp += SimDuration(len_ns);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_leave_len_over_rate_apart_after_the_first_ten() {
        let mut p = Pacer::default();
        // 1448 B at 14.48 MB/s: 100 µs per segment.
        for _ in 0..10 {
            p.on_send(SimTime::ZERO, 1448, 14_480_000);
        }
        assert_eq!(p.ready_at(), SimTime::ZERO);
        p.on_send(SimTime::ZERO, 1448, 14_480_000);
        assert_eq!(p.ready_at(), SimTime(100_000));
        p.on_send(SimTime(100_000), 1448, 14_480_000);
        assert_eq!(p.ready_at(), SimTime(200_000));
    }

    #[test]
    fn a_late_sender_catches_up_by_at_most_half_a_slot() {
        let mut p = Pacer {
            segs_out: 10,
            ..Pacer::default()
        };
        p.on_send(SimTime::ZERO, 1448, 14_480_000); // next at 100 µs
        // Sent 1 ms late: 900 µs of credit, but only 50 µs may be used.
        p.on_send(SimTime(1_000_000), 1448, 14_480_000);
        assert_eq!(p.ready_at(), SimTime(1_050_000));
    }
}
