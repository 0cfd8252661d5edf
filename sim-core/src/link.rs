//! A bottleneck link: a drop-tail FIFO queue in front of a serialiser of fixed
//! rate, followed by a fixed propagation delay, with a lossy element either
//! in front of the queue or behind the serialiser.
//!
//! ```text
//!             Before                                         After
//!   offer ──► [loss] ──► [ queue (bytes, drop-tail) ] ──► serialiser (rate) ──► [loss] ──► delay ──► arrive
//! ```
//!
//! Because the link is FIFO and its rate is constant, a packet's departure and
//! arrival times are known the moment it is offered, so the link needs no events
//! of its own: it keeps the time its serialiser frees up and the packets still
//! waiting, to know how full the queue is.

use crate::config::LossPosition;
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
    /// Spans `[from, until)` in which every packet offered is lost (outages).
    pub outages: Vec<(SimTime, SimTime)>,
    /// Where lost packets (random, listed or in an outage) disappear.
    pub position: LossPosition,
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
    /// Lost by the lossy element (random loss or a drop list): before the
    /// queue (`departs` is `None`), or after being serialised from `departs`.
    Lost { departs: Option<SimTime> },
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Packets and bytes the serialiser carried (with loss after the
    /// bottleneck, also the ones lost behind it).
    pub packets: u64,
    pub bytes: u64,
    /// Packets that never arrived: tail drops and losses.
    pub dropped: u64,
    /// Of those, the ones the lossy element took (random or listed).
    pub lost: u64,
    pub max_queue_bytes: u64,
}

#[derive(Clone)]
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
        let rate = self.cfg.rate_bps.max(1);
        // Bits times 10⁹ fit 64 bits for any packet under 2 GB: a plain
        // division then, not a 128-bit one (a call) for every packet.
        let ns = match (bytes as u64 * 8).checked_mul(1_000_000_000) {
            Some(bits) => bits.div_ceil(rate),
            None => (bytes as u128 * 8 * 1_000_000_000).div_ceil(rate as u128) as u64,
        };
        SimDuration(ns)
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

    /// No more random loss from now on (listed drops still happen): the
    /// lossy connections are over.
    pub fn stop_random_loss(&mut self) {
        self.cfg.loss_until = Some(SimTime::ZERO);
    }

    /// Whether the lossy element takes a packet at `now`: `listed` (a drop
    /// list names it) or by chance. The chance is drawn whether or not the
    /// packet is listed, so a drop list leaves the random pattern as it was.
    fn lose(&mut self, now: SimTime, listed: bool) -> bool {
        let lossy = self.cfg.loss_until.is_none_or(|t| now < t);
        let random = lossy && self.rng.chance(self.cfg.loss);
        let lost = random || listed || self.in_outage(now);
        if lost {
            self.stats.dropped += 1;
            self.stats.lost += 1;
        }
        lost
    }

    /// Whether `now` falls in one of the outages.
    fn in_outage(&self, now: SimTime) -> bool {
        (self.cfg.outages.iter()).any(|&(from, until)| from <= now && now < until)
    }

    /// Offers a packet of `bytes` at `now`; `listed`: a drop list names it.
    /// Inlined into the one loop that sends every segment, which then reads
    /// the answer in registers rather than through memory.
    #[inline]
    pub fn offer(&mut self, now: SimTime, bytes: u32, listed: bool) -> Admission {
        self.drain_started(now);
        let before = self.cfg.position == LossPosition::Before;
        // netem_enqueue decides loss before the packet is queued or rate-limited.
        if before && self.lose(now, listed) {
            return Admission::Lost { departs: None };
        }
        let busy = self.busy_until > now;
        if busy && self.waiting_bytes + bytes as u64 > self.cfg.queue_bytes {
            self.stats.dropped += 1;
            return Admission::Dropped;
        }
        let departs = self.busy_until.max(now);
        self.busy_until = departs + self.serialisation(bytes);
        if departs > now {
            self.waiting.push_back((departs, bytes));
            self.waiting_bytes += bytes as u64;
            self.stats.max_queue_bytes = self.stats.max_queue_bytes.max(self.waiting_bytes);
        }
        self.stats.packets += 1;
        self.stats.bytes += bytes as u64;
        // Behind the bottleneck the packet has taken its place in the queue
        // and its link time; only then is it lost.
        if !before && self.lose(now, listed) {
            return Admission::Lost {
                departs: Some(departs),
            };
        }
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
        lossy_link(rate_bps, delay_ms, queue_bytes, LossPosition::Before)
    }

    fn lossy_link(rate_bps: u64, delay_ms: u64, queue_bytes: u64, position: LossPosition) -> Link {
        Link::new(LinkConfig {
            rate_bps,
            delay: SimDuration::from_millis(delay_ms),
            queue_bytes,
            loss: 0.0,
            loss_until: None,
            outages: Vec::new(),
            position,
            seed: 1,
        })
    }

    /// Three 1500-byte packets offered together at 1 Gbit/s (12 µs each), the
    /// second one listed: what the link answers, and the queue just after.
    fn three_with_the_second_lost(position: LossPosition) -> (Vec<Admission>, u64) {
        let mut l = lossy_link(1_000_000_000, 0, 10_000, position);
        let answers = [false, true, false]
            .into_iter()
            .map(|listed| l.offer(SimTime::ZERO, 1500, listed))
            .collect();
        (answers, l.queue_bytes(SimTime::ZERO))
    }

    #[test]
    fn a_packet_lost_before_the_bottleneck_takes_no_queue_space_or_link_time() {
        let (answers, queued) = three_with_the_second_lost(LossPosition::Before);
        assert_eq!(answers[1], Admission::Lost { departs: None });
        assert_eq!(
            answers[2],
            Admission::Accepted {
                departs: SimTime(12_000),
                arrives: SimTime(24_000)
            },
            "the third goes straight after the first"
        );
        assert_eq!(queued, 1500, "only the third waits");
    }

    #[test]
    fn a_packet_lost_after_the_bottleneck_waits_and_is_serialised_first() {
        let (answers, queued) = three_with_the_second_lost(LossPosition::After);
        assert_eq!(
            answers[1],
            Admission::Lost {
                departs: Some(SimTime(12_000))
            }
        );
        assert_eq!(
            answers[2],
            Admission::Accepted {
                departs: SimTime(24_000),
                arrives: SimTime(36_000)
            },
            "the third waits for the lost one's link time"
        );
        assert_eq!(queued, 3000, "the lost one waits in the queue too");
    }

    #[test]
    fn losses_are_counted_apart_from_tail_drops() {
        let mut l = lossy_link(1_000_000, 0, 0, LossPosition::Before);
        l.offer(SimTime::ZERO, 1500, false);
        assert_eq!(l.offer(SimTime::ZERO, 1500, false), Admission::Dropped);
        assert_eq!(
            l.offer(SimTime::ZERO, 1500, true),
            Admission::Lost { departs: None }
        );
        assert_eq!((l.stats().dropped, l.stats().lost), (2, 1));
    }

    #[test]
    fn random_loss_stops_at_loss_until() {
        let mut l = Link::new(LinkConfig {
            loss: 0.5,
            loss_until: Some(SimTime(1_000_000)),
            ..lossy_link(1_000_000_000, 0, 1 << 30, LossPosition::Before).cfg
        });
        let lost = |l: &mut Link, from: u64| {
            (from..from + 1000)
                .filter(|i| {
                    !matches!(
                        l.offer(SimTime(i * 100), 100, false),
                        Admission::Accepted { .. }
                    )
                })
                .count()
        };
        assert!(lost(&mut l, 0) > 300, "half are lost during the episode");
        assert_eq!(lost(&mut l, 10_000), 0, "none after it");
    }

    /// Everything offered within an outage is lost, where the path loses
    /// packets; the random draws go on meanwhile, so the seed's pattern
    /// after the outage is the same as without it.
    #[test]
    fn an_outage_loses_everything_from_its_start_until_its_end() {
        let outage = (SimTime(1_000_000), SimTime(2_000_000));
        for position in [LossPosition::Before, LossPosition::After] {
            let cfg = LinkConfig {
                loss: 0.1,
                ..lossy_link(1_000_000_000, 0, 1 << 30, position).cfg
            };
            let mut with = Link::new(LinkConfig {
                outages: vec![outage],
                ..cfg.clone()
            });
            let mut without = Link::new(cfg);
            let mut by_chance = 0;
            for i in 0..300u64 {
                let t = SimTime(i * 10_000);
                let (a, b) = (with.offer(t, 100, false), without.offer(t, 100, false));
                if t >= outage.0 && t < outage.1 {
                    assert!(matches!(a, Admission::Lost { .. }), "{t:?} {position:?}");
                    by_chance += matches!(b, Admission::Lost { .. }) as u64;
                } else {
                    assert_eq!(a, b, "{t:?} {position:?}");
                }
            }
            // The 100 packets offered in the outage, not only the chance ones.
            let lost = without.stats().lost - by_chance + 100;
            assert_eq!(with.stats().lost, lost, "{position:?}");
        }
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
            l.offer(t0, 1500, false),
            Admission::Accepted {
                departs: t0,
                arrives: t0 + SimDuration::from_micros(12) + SimDuration::from_millis(3)
            }
        );
    }

    #[test]
    fn back_to_back_packets_queue_behind_each_other() {
        let mut l = link(1_000_000_000, 0, 10_000);
        l.offer(SimTime::ZERO, 1500, false);
        match l.offer(SimTime::ZERO, 1500, false) {
            Admission::Accepted { departs, arrives } => {
                assert_eq!(departs, SimTime(12_000));
                assert_eq!(arrives, SimTime(24_000));
            }
            other => panic!("second packet should queue, not {other:?}"),
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
                outages: Vec::new(),
                position: LossPosition::Before,
                seed,
            });
            (0..100_000)
                .map(|i| {
                    l.offer(SimTime(i * 20_000), 1500, false) == Admission::Lost { departs: None }
                })
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
            l.offer(SimTime::ZERO, 1500, false),
            Admission::Accepted { .. }
        ));
        assert!(matches!(
            l.offer(SimTime::ZERO, 1500, false),
            Admission::Accepted { .. }
        ));
        assert!(matches!(
            l.offer(SimTime::ZERO, 1500, false),
            Admission::Accepted { .. }
        ));
        assert_eq!(l.offer(SimTime::ZERO, 1500, false), Admission::Dropped);
        assert_eq!(l.stats().dropped, 1);
        assert_eq!(l.stats().max_queue_bytes, 3000);
    }
}
