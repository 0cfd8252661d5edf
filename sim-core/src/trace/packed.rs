//! How a trace stores its records: packet records in a compact fixed form.
//!
//! A long run is mostly packet records (a segment sent, a segment received,
//! an RTT sample, a delayed-ACK timer). Kept as `TraceRecord`s they cost 176
//! bytes each, half of it a SACK option that is almost always empty and
//! optional times: the 30 s, 1 Gbit/s case held 131 MB, and writing it was
//! two thirds of that run's time. Here each packet record is one 64-byte
//! `Slot`: times near the record's own (the echoed timestamp, departure,
//! arrival) as 32-bit offsets, SACK blocks in a side table, sides and flags
//! as bits. A fixed form rather than varints: byte-wise LEB128 packing
//! (tried) took half the memory of this, but made a long run in WebAssembly
//! a quarter slower again and every pass over the trace twice as slow.
//!
//! Records that are not packet-level (cwnd changes, samples, transfers) are
//! kept whole in `summary`, which lets readers of totals scan them without
//! touching a packet; so is any packet record a slot cannot hold exactly
//! (an offset past 32 bits, say), in `odd`. Both remember their place in
//! the order, so reading back gives every record exactly as pushed, in order.

use super::{TraceEvent, TraceRecord};
use crate::segment::{Flags, SackBlocks, Segment, Side};
use crate::time::SimTime;

/// Slot kinds.
const SENT: u8 = 0;
const RECEIVED: u8 = 1;
const DROPPED: u8 = 2;
const RTT_SAMPLE: u8 = 3;
const DELAYED_ACK: u8 = 4;
const SEND_HELD: u8 = 5;

/// Bits of `Slot::bits`.
const SERVER: u8 = 1; // the segment's sender, or the record's side
const SYN: u8 = 2;
const ACK: u8 = 4;
const FIN: u8 = 8;
/// Sent: a retransmission. Received: arrived at the server. Held: cork.
const EXTRA: u8 = 16;
const HAS_DEPARTS: u8 = 32;
const HAS_ARRIVES: u8 = 64;

/// What a `SendHeld` record's reason can be; the socket gives no other
/// (`Hold::name`), and a record with another goes to `odd`.
const HOLD_REASONS: [&str; 2] = ["nagle", "cork"];

/// No SACK blocks (`Slot::sack`).
const NO_SACK: u32 = u32::MAX;

/// One packet record, 64 bytes. The four words hold, by kind: a segment's
/// sequence number, ACK, id and echoed timestamp; an RTT sample's four
/// values; a delayed-ACK deadline or held bytes in `w0`.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    time: u64,
    w0: u64,
    w1: u64,
    w2: u64,
    w3: u64,
    /// A sent segment: `departs - time` and `arrives - time` (its own
    /// timestamp is `time`). Any other segment: `time - ts_val` in `off_a`.
    off_a: u32,
    off_b: u32,
    wnd: u32,
    /// Index into `Packed::sacks`, or `NO_SACK`.
    sack: u32,
    len: u16,
    /// Slow-start flight of a sent segment.
    flight: u16,
    flow: u16,
    kind: u8,
    bits: u8,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Packed {
    slots: Vec<Slot>,
    sacks: Vec<SackBlocks>,
    /// Every record that is not packet-level, whole, in order, and the
    /// place of each in the whole sequence.
    summary: Vec<TraceRecord>,
    summary_at: Vec<usize>,
    /// Packet records no slot can hold exactly, likewise.
    odd: Vec<TraceRecord>,
    odd_at: Vec<usize>,
    len: usize,
    last_time: Option<SimTime>,
}

impl Packed {
    pub fn len(&self) -> usize {
        self.len
    }

    /// Time of the last record, if there is one.
    pub fn last_time(&self) -> Option<SimTime> {
        self.last_time
    }

    /// Bytes held, for the memory figures the benchmarks report.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.slots.capacity() * size_of::<Slot>()
            + self.sacks.capacity() * size_of::<SackBlocks>()
            + (self.summary.capacity() + self.odd.capacity()) * size_of::<TraceRecord>()
            + (self.summary_at.capacity() + self.odd_at.capacity()) * size_of::<usize>()
    }

    pub fn summary(&self) -> &[TraceRecord] {
        &self.summary
    }

    pub fn push(&mut self, time: SimTime, flow: u16, event: &TraceEvent) {
        let at = self.len;
        self.len += 1;
        self.last_time = Some(time);
        match self.slot(time, flow, event) {
            Some((slot, sack)) => {
                // Only now, so that a record that fell to `odd` leaves no
                // SACK entry behind.
                if let Some(blocks) = sack {
                    self.sacks.push(blocks);
                }
                self.slots.push(slot);
            }
            None => {
                let whole = TraceRecord {
                    time,
                    flow,
                    event: *event,
                };
                if event.is_packet_level() {
                    self.odd.push(whole);
                    self.odd_at.push(at);
                } else {
                    self.summary.push(whole);
                    self.summary_at.push(at);
                }
            }
        }
    }

    /// The slot for a packet record, if one can hold it exactly, and the SACK
    /// blocks to file at the index it names.
    #[inline]
    fn slot(
        &self,
        time: SimTime,
        flow: u16,
        event: &TraceEvent,
    ) -> Option<(Slot, Option<SackBlocks>)> {
        let t = time.0;
        let base = Slot {
            time: t,
            flow,
            sack: NO_SACK,
            ..Slot::default()
        };
        match *event {
            TraceEvent::SegmentSent {
                seg,
                flight,
                retransmit,
                departs,
                arrives,
            } => {
                if seg.ts_val != t {
                    return None;
                }
                let (mut s, sack) = self.segment(base, SENT, &seg, retransmit)?;
                s.flight = u16::try_from(flight).ok()?;
                // `off_a` is then free: the segment's own timestamp is `time`.
                s.off_a = 0;
                if let Some(d) = departs {
                    s.off_a = offset(d.0.checked_sub(t)?)?;
                    s.bits |= HAS_DEPARTS;
                }
                if let Some(a) = arrives {
                    s.off_b = offset(a.0.checked_sub(t)?)?;
                    s.bits |= HAS_ARRIVES;
                }
                Some((s, sack))
            }
            TraceEvent::SegmentReceived { to, seg } => {
                self.segment(base, RECEIVED, &seg, to == Side::Server)
            }
            TraceEvent::SegmentDropped { seg } => self.segment(base, DROPPED, &seg, false),
            TraceEvent::RttSample {
                side,
                sample_ns,
                srtt_ns,
                rttvar_ns,
                rto_ns,
            } => Some((
                Slot {
                    kind: RTT_SAMPLE,
                    bits: side_bits(side),
                    w0: sample_ns,
                    w1: srtt_ns,
                    w2: rttvar_ns,
                    w3: rto_ns,
                    ..base
                },
                None,
            )),
            TraceEvent::DelayedAckArmed { side, deadline } => Some((
                Slot {
                    kind: DELAYED_ACK,
                    bits: side_bits(side),
                    w0: deadline.0,
                    ..base
                },
                None,
            )),
            TraceEvent::SendHeld {
                side,
                reason,
                bytes,
            } if HOLD_REASONS.contains(&reason) => Some((
                Slot {
                    kind: SEND_HELD,
                    bits: side_bits(side) | if reason == HOLD_REASONS[1] { EXTRA } else { 0 },
                    w0: bytes,
                    ..base
                },
                None,
            )),
            _ => None,
        }
    }

    fn segment(
        &self,
        base: Slot,
        kind: u8,
        seg: &Segment,
        extra: bool,
    ) -> Option<(Slot, Option<SackBlocks>)> {
        let (sack, blocks) = if seg.sack.is_empty() {
            (NO_SACK, None)
        } else {
            // The index the blocks will take once `push` files them.
            let i = u32::try_from(self.sacks.len())
                .ok()
                .filter(|&i| i != NO_SACK)?;
            (i, Some(seg.sack))
        };
        let slot = Slot {
            kind,
            bits: side_bits(seg.from)
                | if seg.flags.syn { SYN } else { 0 }
                | if seg.flags.ack { ACK } else { 0 }
                | if seg.flags.fin { FIN } else { 0 }
                | if extra { EXTRA } else { 0 },
            w0: seg.seq,
            w1: seg.ack,
            w2: seg.id,
            w3: seg.ts_ecr,
            off_a: offset(base.time.checked_sub(seg.ts_val)?)?,
            wnd: u32::try_from(seg.wnd).ok()?,
            len: u16::try_from(seg.len).ok()?,
            sack,
            ..base
        };
        Some((slot, blocks))
    }

    pub fn iter(&self) -> Records<'_> {
        Records {
            slots: &self.slots,
            sacks: &self.sacks,
            summary: &self.summary,
            summary_at: &self.summary_at,
            odd: &self.odd,
            odd_at: &self.odd_at,
            at: 0,
            left: self.len,
        }
    }
}

/// A time offset that fits a slot's 32 bits.
fn offset(ns: u64) -> Option<u32> {
    u32::try_from(ns).ok()
}

fn side_bits(side: Side) -> u8 {
    match side {
        Side::Client => 0,
        Side::Server => SERVER,
    }
}

fn bits_side(bits: u8) -> Side {
    if bits & SERVER == 0 {
        Side::Client
    } else {
        Side::Server
    }
}

/// The records of a trace in the order they were pushed, unpacked one at a time.
#[derive(Clone, Debug)]
pub struct Records<'a> {
    /// What is left of each store.
    slots: &'a [Slot],
    sacks: &'a [SackBlocks],
    summary: &'a [TraceRecord],
    summary_at: &'a [usize],
    odd: &'a [TraceRecord],
    odd_at: &'a [usize],
    /// Place of the next record in the whole sequence.
    at: usize,
    left: usize,
}

impl Iterator for Records<'_> {
    type Item = TraceRecord;

    fn next(&mut self) -> Option<TraceRecord> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let at = self.at;
        self.at += 1;
        // The next record is whichever store has one at this place. Each
        // place has exactly one record (`push`); should that ever not hold,
        // the iteration ends rather than panics.
        if self.summary_at.first() == Some(&at) {
            return take(&mut self.summary, &mut self.summary_at);
        }
        if self.odd_at.first() == Some(&at) {
            return take(&mut self.odd, &mut self.odd_at);
        }
        let (&s, rest) = self.slots.split_first()?;
        self.slots = rest;
        let side = bits_side(s.bits);
        let extra = s.bits & EXTRA != 0;
        let event = match s.kind {
            SENT => TraceEvent::SegmentSent {
                seg: self.segment(&s)?,
                flight: s.flight as u32,
                retransmit: extra,
                departs: (s.bits & HAS_DEPARTS != 0).then(|| SimTime(s.time + s.off_a as u64)),
                arrives: (s.bits & HAS_ARRIVES != 0).then(|| SimTime(s.time + s.off_b as u64)),
            },
            RECEIVED => TraceEvent::SegmentReceived {
                to: if extra { Side::Server } else { Side::Client },
                seg: self.segment(&s)?,
            },
            DROPPED => TraceEvent::SegmentDropped {
                seg: self.segment(&s)?,
            },
            RTT_SAMPLE => TraceEvent::RttSample {
                side,
                sample_ns: s.w0,
                srtt_ns: s.w1,
                rttvar_ns: s.w2,
                rto_ns: s.w3,
            },
            DELAYED_ACK => TraceEvent::DelayedAckArmed {
                side,
                deadline: SimTime(s.w0),
            },
            _ => TraceEvent::SendHeld {
                side,
                reason: HOLD_REASONS[extra as usize],
                bytes: s.w0,
            },
        };
        Some(TraceRecord {
            time: SimTime(s.time),
            flow: s.flow,
            event,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Records<'_> {}

impl Records<'_> {
    fn segment(&self, s: &Slot) -> Option<Segment> {
        let sack = if s.sack == NO_SACK {
            SackBlocks::default()
        } else {
            *self.sacks.get(s.sack as usize)?
        };
        Some(Segment {
            id: s.w2,
            from: bits_side(s.bits),
            seq: s.w0,
            len: s.len as u32,
            ack: s.w1,
            wnd: s.wnd as u64,
            flags: Flags {
                syn: s.bits & SYN != 0,
                ack: s.bits & ACK != 0,
                fin: s.bits & FIN != 0,
            },
            sack,
            ts_val: if s.kind == SENT {
                s.time
            } else {
                s.time - s.off_a as u64
            },
            ts_ecr: s.w3,
        })
    }
}

/// The front record of a whole-record store, which is then shortened.
fn take(records: &mut &[TraceRecord], at: &mut &[usize]) -> Option<TraceRecord> {
    let (&r, rest) = records.split_first()?;
    *records = rest;
    *at = at.get(1..).unwrap_or(&[]);
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::info::{RecvInfo, TcpInfo};
    use proptest::prelude::*;

    fn side() -> impl Strategy<Value = Side> {
        prop_oneof![Just(Side::Client), Just(Side::Server)]
    }

    /// Any value, with the extremes over-represented: they are where a
    /// difference or a shift would go wrong.
    fn word() -> impl Strategy<Value = u64> {
        prop_oneof![
            any::<u64>(),
            0u64..300,
            Just(u64::MAX),
            Just(u64::MAX - 1),
            Just(1u64 << 63)
        ]
    }

    fn segment() -> impl Strategy<Value = Segment> {
        (
            (word(), side(), word(), any::<u32>(), word(), word()),
            (
                any::<[bool; 3]>(),
                prop::collection::vec((word(), word()), 0..=3),
            ),
            (word(), word()),
        )
            .prop_map(
                |((id, from, seq, len, ack, wnd), (f, sack), (ts_val, ts_ecr))| Segment {
                    id,
                    from,
                    seq,
                    len,
                    ack,
                    wnd,
                    flags: Flags {
                        syn: f[0],
                        ack: f[1],
                        fin: f[2],
                    },
                    sack: SackBlocks::new(&sack),
                    ts_val,
                    ts_ecr,
                },
            )
    }

    fn event() -> impl Strategy<Value = TraceEvent> {
        let time = || word().prop_map(SimTime);
        prop_oneof![
            (
                segment(),
                any::<u32>(),
                any::<bool>(),
                prop::option::of(time()),
                prop::option::of(time())
            )
                .prop_map(|(seg, flight, retransmit, departs, arrives)| {
                    TraceEvent::SegmentSent {
                        seg,
                        flight,
                        retransmit,
                        departs,
                        arrives,
                    }
                }),
            (side(), segment()).prop_map(|(to, seg)| TraceEvent::SegmentReceived { to, seg }),
            segment().prop_map(|seg| TraceEvent::SegmentDropped { seg }),
            (side(), word(), word(), word(), word()).prop_map(|(side, a, b, c, d)| {
                TraceEvent::RttSample {
                    side,
                    sample_ns: a,
                    srtt_ns: b,
                    rttvar_ns: c,
                    rto_ns: d,
                }
            }),
            (side(), time())
                .prop_map(|(side, deadline)| TraceEvent::DelayedAckArmed { side, deadline }),
            (side(), word()).prop_map(|(side, rto_ns)| TraceEvent::RtoFired { side, rto_ns }),
            word().prop_map(|delivered| TraceEvent::Sample {
                delivered,
                info: TcpInfo {
                    srtt_ns: delivered ^ 5,
                    ..TcpInfo::default()
                },
                client: RecvInfo::default(),
            }),
            (
                side(),
                any::<u64>(),
                prop::sample::select(vec!["nagle", "cork", "other"])
            )
                .prop_map(|(side, bytes, reason)| TraceEvent::SendHeld {
                    side,
                    reason,
                    bytes
                }),
        ]
    }

    fn record() -> impl Strategy<Value = TraceRecord> {
        (word(), any::<u16>(), event()).prop_map(|(t, flow, event)| TraceRecord {
            time: SimTime(t),
            flow,
            event,
        })
    }

    /// `r` changed to what a run produces, so that a slot can hold it: times
    /// near the record's own, windows and lengths in range.
    fn fitted(r: TraceRecord) -> TraceRecord {
        let t = (r.time.0 % (1 << 50)) | (1 << 40); // room either side for near times
        let near = |v: u64| v % (1 << 31);
        let fit_seg = |seg: Segment, sent: bool| Segment {
            len: seg.len % (1 << 16),
            wnd: near(seg.wnd),
            ts_val: if sent { t } else { t - near(seg.ts_val) },
            ..seg
        };
        let event = match r.event {
            TraceEvent::SegmentSent {
                seg,
                flight,
                retransmit,
                departs,
                arrives,
            } => TraceEvent::SegmentSent {
                seg: fit_seg(seg, true),
                flight: flight % (1 << 16),
                retransmit,
                departs: departs.map(|d| SimTime(t + near(d.0))),
                arrives: arrives.map(|a| SimTime(t + near(a.0))),
            },
            TraceEvent::SegmentReceived { to, seg } => TraceEvent::SegmentReceived {
                to,
                seg: fit_seg(seg, false),
            },
            TraceEvent::SegmentDropped { seg } => TraceEvent::SegmentDropped {
                seg: fit_seg(seg, false),
            },
            TraceEvent::SendHeld { side, bytes, .. } => TraceEvent::SendHeld {
                side,
                reason: "cork",
                bytes,
            },
            e => e,
        };
        TraceRecord {
            time: SimTime(t),
            event,
            ..r
        }
    }

    fn check_round_trip(records: &[TraceRecord]) -> Result<Packed, TestCaseError> {
        let mut p = Packed::default();
        for r in records {
            p.push(r.time, r.flow, &r.event);
        }
        prop_assert_eq!(p.len(), records.len());
        prop_assert_eq!(p.iter().len(), records.len());
        let back: Vec<TraceRecord> = p.iter().collect();
        prop_assert_eq!(&back[..], records);
        let summary: Vec<TraceRecord> = records
            .iter()
            .filter(|r| !r.is_packet_level())
            .copied()
            .collect();
        prop_assert_eq!(p.summary(), &summary[..]);
        prop_assert_eq!(p.last_time(), records.last().map(|r| r.time));
        Ok(p)
    }

    proptest! {
        /// Whatever goes in comes out, in order, field for field, whether a
        /// slot could hold it or not; times need not even be sorted.
        #[test]
        fn records_round_trip(records in prop::collection::vec(record(), 0..60)) {
            check_round_trip(&records)?;
        }

        /// Records like a run's all go into slots, and come out the same.
        #[test]
        fn run_like_records_take_slots(records in prop::collection::vec(record(), 0..60)) {
            let records: Vec<TraceRecord> = records.into_iter().map(fitted).collect();
            let p = check_round_trip(&records)?;
            prop_assert!(p.odd.is_empty(), "{:?}", p.odd);
            let packets = records.iter().filter(|r| r.is_packet_level()).count();
            prop_assert_eq!(p.slots.len(), packets);
        }
    }

    /// A slot is 64 bytes, against 176 for a `TraceRecord`.
    #[test]
    fn a_slot_is_a_cache_line() {
        assert_eq!(std::mem::size_of::<Slot>(), 64);
    }

    /// A typical sent data segment goes into a slot; one whose window no
    /// 32-bit field can hold is kept whole, and both read back exactly.
    #[test]
    fn a_segment_a_slot_cannot_hold_is_kept_whole() {
        let t = 12_000_000_000u64; // 12 s into a run
        let seg = Segment {
            id: 150_000,
            from: Side::Server,
            seq: 200_000_000,
            len: 1448,
            ack: 1,
            wnd: 3_000_000,
            flags: Flags {
                syn: false,
                ack: true,
                fin: false,
            },
            sack: SackBlocks::new(&[(5, 9)]),
            ts_val: t,
            ts_ecr: t - 105_000_000,
        };
        let sent = |seg| TraceRecord {
            time: SimTime(t),
            flow: 0,
            event: TraceEvent::SegmentSent {
                seg,
                flight: 0,
                retransmit: false,
                departs: Some(SimTime(t + 5_000)),
                arrives: Some(SimTime(t + 105_012_000)),
            },
        };
        let records = [
            sent(seg),
            sent(Segment {
                wnd: 1 << 33,
                ..seg
            }),
            sent(seg),
        ];
        let p = check_round_trip(&records).unwrap();
        assert_eq!(
            (p.slots.len(), p.odd.len(), p.odd_at.clone()),
            (2, 1, vec![1])
        );
        // The record kept whole filed no SACK blocks of its own.
        assert_eq!(p.sacks.len(), 2);
    }
}
