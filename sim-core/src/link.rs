//! A bottleneck link: a drop-tail FIFO queue in front of a serialiser of fixed
//! rate, followed by a fixed propagation delay.
//!
//! ```text
//!   offer ──► [ queue (bytes, drop-tail) ] ──► serialiser (rate) ──► delay ──► arrive
//! ```
//!
//! Because the link is FIFO and its rate is constant, a packet's departure and
//! arrival times are known the moment it is offered, so the link needs no events
//! of its own: it keeps the time its serialiser frees up and the packets still
//! waiting, to know how full the queue is.

use crate::rng::Rng;
use crate::time::{SimDuration, SimTime};
use std::collections::VecDeque;

#[derive(Clone, Debug, PartialEq)]
pub struct LinkConfig {
    /// Serialisation rate in bits per second.
    pub rate_bps: u64,
    /// One-way propagation delay.
    pub delay: SimDuration,
    /// Bytes that may wait in the queue (not counting the packet being serialised).
    pub queue_bytes: u64,
    /// Probability that a packet is lost on the wire (random loss, not congestion).
    pub loss: f64,
    /// Random loss stops at this time.
    pub loss_until: Option<SimTime>,
    pub seed: u64,
}

/// What happened to a packet offered to the link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Queued or sent at once: serialisation starts at `departs`, the last bit
    /// reaches the far end at `arrives`.
    Accepted { departs: SimTime, arrives: SimTime },
    /// The queue was full: dropped at the tail.
    Dropped,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    pub packets: u64,
    pub bytes: u64,
    pub dropped: u64,
    pub max_queue_bytes: u64,
}

pub struct Link {
    cfg: LinkConfig,
    /// When the serialiser finishes the last accepted packet.
    busy_until: SimTime,
    /// Packets accepted but not yet being serialised: (start of serialisation, bytes).
    waiting: VecDeque<(SimTime, u32)>,
    waiting_bytes: u64,
    stats: LinkStats,
    rng: Rng,
}

impl Link {
    pub fn new(cfg: LinkConfig) -> Self {
        Link {
            rng: Rng::new(cfg.seed),
            cfg,
            busy_until: SimTime::ZERO,
            waiting: VecDeque::new(),
            waiting_bytes: 0,
            stats: LinkStats::default(),
        }
    }

    pub fn config(&self) -> &LinkConfig {
        &self.cfg
    }

    pub fn stats(&self) -> &LinkStats {
        &self.stats
    }

    /// Time to put `bytes` on the wire at the link's rate, rounded up to a nanosecond.
    pub fn serialisation(&self, bytes: u32) -> SimDuration {
        let bits = bytes as u128 * 8 * 1_000_000_000;
        let rate = self.cfg.rate_bps.max(1) as u128;
        SimDuration(bits.div_ceil(rate) as u64)
    }

    /// Bytes waiting in the queue at `now`.
    pub fn queue_bytes(&mut self, now: SimTime) -> u64 {
        self.drain_started(now);
        self.waiting_bytes
    }

    fn drain_started(&mut self, now: SimTime) {
        while let Some(&(start, bytes)) = self.waiting.front() {
            if start > now {
                break;
            }
            self.waiting.pop_front();
            self.waiting_bytes -= bytes as u64;
        }
    }

    /// Offers a packet of `bytes` at `now`.
    pub fn offer(&mut self, now: SimTime, bytes: u32) -> Admission {
        self.drain_started(now);
        let busy = self.busy_until > now;
        if busy && self.waiting_bytes + bytes as u64 > self.cfg.queue_bytes {
            self.stats.dropped += 1;
            return Admission::Dropped;
        }
        let departs = self.busy_until.max(now);
        self.busy_until = departs + self.serialisation(bytes);
        // A random loss still occupies the link; the packet just never arrives.
        let lossy = self.cfg.loss_until.is_none_or(|t| now < t);
        if lossy && self.rng.chance(self.cfg.loss) {
            self.stats.dropped += 1;
            return Admission::Dropped;
        }
        if departs > now {
            self.waiting.push_back((departs, bytes));
            self.waiting_bytes += bytes as u64;
            self.stats.max_queue_bytes = self.stats.max_queue_bytes.max(self.waiting_bytes);
        }
        self.stats.packets += 1;
        self.stats.bytes += bytes as u64;
        Admission::Accepted {
            departs,
            arrives: self.busy_until + self.cfg.delay,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link(rate_bps: u64, delay_ms: u64, queue_bytes: u64) -> Link {
        Link::new(LinkConfig {
            rate_bps,
            delay: SimDuration::from_millis(delay_ms),
            queue_bytes,
            loss: 0.0,
            loss_until: None,
            seed: 1,
        })
    }

    #[test]
    fn a_1500_byte_packet_takes_12_microseconds_at_1_gbit() {
        let l = link(1_000_000_000, 0, 0);
        assert_eq!(l.serialisation(1500), SimDuration::from_micros(12));
    }

    #[test]
    fn an_idle_link_delivers_after_serialisation_plus_delay() {
        let mut l = link(1_000_000_000, 3, 10_000);
        let t0 = SimTime(1_000);
        assert_eq!(
            l.offer(t0, 1500),
            Admission::Accepted {
                departs: t0,
                arrives: t0 + SimDuration::from_micros(12) + SimDuration::from_millis(3)
            }
        );
    }

    #[test]
    fn back_to_back_packets_queue_behind_each_other() {
        let mut l = link(1_000_000_000, 0, 10_000);
        l.offer(SimTime::ZERO, 1500);
        match l.offer(SimTime::ZERO, 1500) {
            Admission::Accepted { departs, arrives } => {
                assert_eq!(departs, SimTime(12_000));
                assert_eq!(arrives, SimTime(24_000));
            }
            Admission::Dropped => panic!("second packet should queue"),
        }
        assert_eq!(l.queue_bytes(SimTime::ZERO), 1500);
        assert_eq!(l.queue_bytes(SimTime(12_000)), 0);
    }

    #[test]
    fn random_loss_drops_about_its_share_and_repeats_with_the_seed() {
        let run = |seed| {
            let mut l = Link::new(LinkConfig {
                rate_bps: 1_000_000_000,
                delay: SimDuration::ZERO,
                queue_bytes: 1 << 30,
                loss: 0.01,
                loss_until: None,
                seed,
            });
            (0..100_000)
                .map(|i| l.offer(SimTime(i * 20_000), 1500) == Admission::Dropped)
                .collect::<Vec<_>>()
        };
        let a = run(7);
        let dropped = a.iter().filter(|d| **d).count();
        assert!((900..1100).contains(&dropped), "{dropped}");
        assert_eq!(a, run(7));
        assert_ne!(a, run(8));
    }

    #[test]
    fn a_full_queue_drops_at_the_tail() {
        // Queue holds two 1500-byte packets; the first goes straight to the serialiser.
        let mut l = link(1_000_000, 0, 3000);
        assert!(matches!(
            l.offer(SimTime::ZERO, 1500),
            Admission::Accepted { .. }
        ));
        assert!(matches!(
            l.offer(SimTime::ZERO, 1500),
            Admission::Accepted { .. }
        ));
        assert!(matches!(
            l.offer(SimTime::ZERO, 1500),
            Admission::Accepted { .. }
        ));
        assert_eq!(l.offer(SimTime::ZERO, 1500), Admission::Dropped);
        assert_eq!(l.stats().dropped, 1);
        assert_eq!(l.stats().max_queue_bytes, 3000);
    }
}
