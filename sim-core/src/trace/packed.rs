//! How a trace stores its records: packed into bytes, a few per field.
//!
//! A long run is mostly packet records (a segment sent, a segment received,
//! an RTT sample, a delayed-ACK timer), and kept as `TraceRecord`s they cost
//! 176 bytes each: the 30 s, 1 Gbit/s case held 131 MB, and writing it was
//! two thirds of that run's time. Here each packet record is a header byte
//! and LEB128 varints, with the fields that sit near a known value (the
//! time since the previous record; timestamps, departure and arrival times
//! relative to the record's own time; SACK edges relative to the ACK) stored
//! as zigzagged differences, so most take one to four bytes. A sent data
//! segment packs into about 35 bytes. The rare records (cwnd changes,
//! samples, transfers) are kept whole in a side list.
//!
//! The encoding is lossless for every record: differences wrap, so any
//! values round-trip, and the tests check that against random records.

use super::{TraceEvent, TraceRecord};
use crate::segment::{Flags, MAX_SACK_BLOCKS, SackBlocks, Segment, Side};
use crate::time::SimTime;

/// Record kinds: the low three bits of a record's header byte. The other
/// five bits carry the record's small fields (sides and flags).
const SENT: u8 = 0;
const RECEIVED: u8 = 1;
const DROPPED: u8 = 2;
const RTT_SAMPLE: u8 = 3;
const DELAYED_ACK: u8 = 4;
const OTHER: u8 = 5;

#[derive(Clone, Debug, Default)]
pub(super) struct Packed {
    bytes: Vec<u8>,
    /// Records with no packed form, whole, in order; an `OTHER` record
    /// holds its index here.
    others: Vec<TraceEvent>,
    len: usize,
    /// Time of the last record pushed (times are stored as differences).
    last_time: u64,
}

impl Packed {
    pub fn len(&self) -> usize {
        self.len
    }

    /// Time of the last record, if there is one.
    pub fn last_time(&self) -> Option<SimTime> {
        (self.len > 0).then_some(SimTime(self.last_time))
    }

    /// Bytes held, for the memory figures the benchmarks report.
    pub fn heap_bytes(&self) -> usize {
        self.bytes.capacity() + self.others.capacity() * std::mem::size_of::<TraceEvent>()
    }

    pub fn push(&mut self, time: SimTime, flow: u16, event: &TraceEvent) {
        let t = time.0;
        let dt = t.wrapping_sub(self.last_time);
        self.last_time = t;
        self.len += 1;
        let b = &mut Enc(&mut self.bytes);
        match *event {
            TraceEvent::SegmentSent {
                seg,
                flight,
                retransmit,
                departs,
                arrives,
            } => {
                b.byte(SENT | segment_bits(&seg, retransmit));
                b.put(dt);
                b.put(flow as u64);
                b.segment(t, &seg);
                // Whether each time is present rides in the flight number's
                // two low bits.
                b.put(
                    (flight as u64) << 2
                        | (departs.is_some() as u64) << 1
                        | arrives.is_some() as u64,
                );
                for at in [departs, arrives].into_iter().flatten() {
                    b.put(zigzag(at.0.wrapping_sub(t)));
                }
            }
            TraceEvent::SegmentReceived { to, seg } => {
                b.byte(RECEIVED | segment_bits(&seg, to == Side::Server));
                b.put(dt);
                b.put(flow as u64);
                b.segment(t, &seg);
            }
            TraceEvent::SegmentDropped { seg } => {
                b.byte(DROPPED | segment_bits(&seg, false));
                b.put(dt);
                b.put(flow as u64);
                b.segment(t, &seg);
            }
            TraceEvent::RttSample {
                side,
                sample_ns,
                srtt_ns,
                rttvar_ns,
                rto_ns,
            } => {
                b.byte(RTT_SAMPLE | side_bit(side) << 3);
                b.put(dt);
                b.put(flow as u64);
                for v in [sample_ns, srtt_ns, rttvar_ns, rto_ns] {
                    b.put(v);
                }
            }
            TraceEvent::DelayedAckArmed { side, deadline } => {
                b.byte(DELAYED_ACK | side_bit(side) << 3);
                b.put(dt);
                b.put(flow as u64);
                b.put(zigzag(deadline.0.wrapping_sub(t)));
            }
            other => {
                b.byte(OTHER);
                b.put(dt);
                b.put(flow as u64);
                b.put(self.others.len() as u64);
                self.others.push(other);
            }
        }
    }

    pub fn iter(&self) -> Records<'_> {
        Records {
            bytes: &self.bytes,
            pos: 0,
            time: 0,
            others: &self.others,
            left: self.len,
        }
    }
}

/// The records of a trace in the order they were pushed, unpacked one at a time.
#[derive(Clone, Debug)]
pub struct Records<'a> {
    bytes: &'a [u8],
    pos: usize,
    time: u64,
    others: &'a [TraceEvent],
    left: usize,
}

impl Iterator for Records<'_> {
    type Item = TraceRecord;

    fn next(&mut self) -> Option<TraceRecord> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let head = self.byte();
        self.time = self.time.wrapping_add(self.get());
        let t = self.time;
        let flow = self.get() as u16;
        let bits = head >> 3;
        let event = match head & 7 {
            SENT => {
                let seg = self.segment(t, bits);
                let word = self.get();
                let mut at = |present: bool| present.then(|| SimTime(unzig_from(t, self.get())));
                let departs = at(word & 2 != 0);
                let arrives = at(word & 1 != 0);
                TraceEvent::SegmentSent {
                    seg,
                    flight: (word >> 2) as u32,
                    retransmit: bits & 16 != 0,
                    departs,
                    arrives,
                }
            }
            RECEIVED => TraceEvent::SegmentReceived {
                to: bit_side(bits >> 4),
                seg: self.segment(t, bits),
            },
            DROPPED => TraceEvent::SegmentDropped {
                seg: self.segment(t, bits),
            },
            RTT_SAMPLE => TraceEvent::RttSample {
                side: bit_side(bits),
                sample_ns: self.get(),
                srtt_ns: self.get(),
                rttvar_ns: self.get(),
                rto_ns: self.get(),
            },
            DELAYED_ACK => TraceEvent::DelayedAckArmed {
                side: bit_side(bits),
                deadline: SimTime(unzig_from(t, self.get())),
            },
            _ => {
                let i = self.get() as usize;
                // Always present: `push` stored it. Ending the iteration
                // beats a panic should that ever not hold.
                *self.others.get(i)?
            }
        };
        Some(TraceRecord {
            time: SimTime(t),
            flow,
            event,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Records<'_> {}

impl Records<'_> {
    fn byte(&mut self) -> u8 {
        // The bytes come from `Packed::push` alone, so they never run out
        // mid-record; a zero ends any varint should they.
        let b = self.bytes.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// One LEB128 varint.
    fn get(&mut self) -> u64 {
        let mut v = 0u64;
        let mut shift = 0u32;
        loop {
            let b = self.byte();
            v |= ((b & 0x7f) as u64).wrapping_shl(shift);
            if b < 0x80 {
                return v;
            }
            shift += 7;
        }
    }

    fn segment(&mut self, t: u64, bits: u8) -> Segment {
        let id = self.get();
        let seq = self.get();
        let len = self.get() as u32;
        let ack = self.get();
        let wnd = self.get();
        let ts_val = unzig_from(t, self.get());
        let ts_ecr = unzig_from(t, self.get());
        let n = (self.get() as usize).min(MAX_SACK_BLOCKS);
        let mut blocks = [(0, 0); MAX_SACK_BLOCKS];
        for block in blocks.iter_mut().take(n) {
            let start = unzig_from(ack, self.get());
            *block = (start, unzig_from(start, self.get()));
        }
        Segment {
            id,
            from: bit_side(bits),
            seq,
            len,
            ack,
            wnd,
            flags: Flags {
                syn: bits & 2 != 0,
                ack: bits & 4 != 0,
                fin: bits & 8 != 0,
            },
            sack: SackBlocks::new(&blocks[..n]),
            ts_val,
            ts_ecr,
        }
    }
}

/// The header's five spare bits for a segment record: sender, SYN, ACK, FIN,
/// and one more (retransmission, or receiving side).
fn segment_bits(seg: &Segment, extra: bool) -> u8 {
    (side_bit(seg.from)
        | (seg.flags.syn as u8) << 1
        | (seg.flags.ack as u8) << 2
        | (seg.flags.fin as u8) << 3
        | (extra as u8) << 4)
        << 3
}

fn side_bit(side: Side) -> u8 {
    match side {
        Side::Client => 0,
        Side::Server => 1,
    }
}

fn bit_side(bits: u8) -> Side {
    if bits & 1 == 0 {
        Side::Client
    } else {
        Side::Server
    }
}

/// Appends one record's bytes.
struct Enc<'a>(&'a mut Vec<u8>);

impl Enc<'_> {
    #[inline]
    fn byte(&mut self, b: u8) {
        self.0.push(b);
    }

    /// LEB128: seven bits a byte, low first, the top bit set on all but the last.
    #[inline]
    fn put(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.byte(v as u8 | 0x80);
            v >>= 7;
        }
        self.byte(v as u8);
    }

    fn segment(&mut self, t: u64, s: &Segment) {
        self.put(s.id);
        self.put(s.seq);
        self.put(s.len as u64);
        self.put(s.ack);
        self.put(s.wnd);
        self.put(zigzag(s.ts_val.wrapping_sub(t)));
        self.put(zigzag(s.ts_ecr.wrapping_sub(t)));
        let blocks = s.sack.as_slice();
        self.put(blocks.len() as u64);
        for &(start, end) in blocks {
            self.put(zigzag(start.wrapping_sub(s.ack)));
            self.put(zigzag(end.wrapping_sub(start)));
        }
    }
}

/// A wrapped difference as a small unsigned number whichever its sign.
fn zigzag(d: u64) -> u64 {
    let d = d as i64;
    ((d << 1) ^ (d >> 63)) as u64
}

/// `base` plus the difference `zigzag` stored.
fn unzig_from(base: u64, z: u64) -> u64 {
    let d = ((z >> 1) as i64) ^ -((z & 1) as i64);
    base.wrapping_add(d as u64)
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
            (side(), any::<u64>()).prop_map(|(side, bytes)| TraceEvent::SendHeld {
                side,
                reason: "nagle",
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

    proptest! {
        /// Whatever goes in comes out, in order, field for field; times need
        /// not even be sorted.
        #[test]
        fn records_round_trip(records in prop::collection::vec(record(), 0..60)) {
            let mut p = Packed::default();
            for r in &records {
                p.push(r.time, r.flow, &r.event);
            }
            prop_assert_eq!(p.len(), records.len());
            prop_assert_eq!(p.iter().len(), records.len());
            let back: Vec<TraceRecord> = p.iter().collect();
            prop_assert_eq!(back, records.clone());
            prop_assert_eq!(p.last_time(), records.last().map(|r| r.time));
        }
    }

    /// A typical sent data segment, 176 bytes as a `TraceRecord`, packs
    /// into at most 40.
    #[test]
    fn a_data_segment_packs_small() {
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
            sack: SackBlocks::default(),
            ts_val: t,
            ts_ecr: t - 105_000_000,
        };
        let mut p = Packed::default();
        p.push(
            SimTime(t),
            0,
            &TraceEvent::SegmentSent {
                seg,
                flight: 0,
                retransmit: false,
                departs: Some(SimTime(t + 5_000)),
                arrives: Some(SimTime(t + 105_012_000)),
            },
        );
        assert!(p.bytes.len() <= 40, "{} bytes", p.bytes.len());
    }
}
