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
//! (an offset past 32 bits, or a RST, say), in `odd`. Both remember their place in
//! the order, so reading back gives every record exactly as pushed, in order.
//!
//! Packing matches on the kinds it packs rather than walking their fields
//! with [`TraceEvent::visit`]: where each field goes (a word, a bit, an
//! offset from the record's time, the SACK side table) is the layout itself,
//! and reading back (`records.rs`) must rebuild each variant, arm for arm
//! with packing; the round-trip property tests (`tests.rs`) hold the two
//! together. (Even the RTT samples, timers and holds, whose values simply
//! fill the words in order, cost 1.4 % more instructions on a long run when
//! walked: packing runs for every packet record.)

use super::{TraceEvent, TraceRecord};
use crate::segment::{SackBlocks, Segment, Side};
use crate::time::SimTime;

mod records;
#[cfg(test)]
mod tests;

pub use records::Records;

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
const PSH: u8 = 128;

/// What a `SendHeld` record's reason can be; the socket gives no other
/// (`Hold::name`), and a record with another goes to `odd`.
const HOLD_REASONS: [&str; 2] = ["nagle", "cork"];

/// No SACK blocks (`Slot::sack`).
const NO_SACK: u32 = u32::MAX;

/// Bytes a packet record may take: its slot, and a SACK entry (an ACK's
/// blocks) in the side table at most (`sim::cost` counts with it).
pub(crate) const RECORD_BYTES: u64 =
    (std::mem::size_of::<Slot>() + std::mem::size_of::<SackBlocks>()) as u64;

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

/// Slots per chunk of [`Packed::slots`] (1 MiB; a power of two, see
/// `push`). A trace grows in chunks of this size rather than as one vector
/// doubling: one vector of a long run's
/// 760,000 slots was copied at each doubling and held up to twice the
/// slots it stored (86 MB for 49 MB of records), a fifth of the 30 s CUBIC
/// run's time in page faults and copies, and twice its memory at the peak.
const CHUNK: usize = 1 << 14;

/// The fewest elements a vector grows by near the memory limit.
const MIN_GROWTH: usize = 64;

/// Room for one more element in `v`. A vector doubles as it fills, and a
/// doubling takes twice the memory at once: a run's 20 MB of summary
/// records became 40 MB in one push, past a 32 MiB limit the run checks
/// only between events. With a `limit`, `v` grows by as much as doubling
/// would, but no more than what is `held` leaves under the limit (at least
/// [`MIN_GROWTH`] elements), so the trace ends close to
/// its limit (packet slots come in 1 MiB chunks: about a megabyte at most)
/// instead of up to twice it. Far from the limit nothing changes. (`held`
/// is read on every whole record and SACK entry, not only when `v` is full:
/// it is a few loads, and those pushes are far rarer than the packet slots'.)
#[inline]
fn make_room<T>(v: &mut Vec<T>, held: usize, limit: Option<usize>) {
    if v.len() < v.capacity() {
        return;
    }
    let Some(limit) = limit else { return };
    let left = limit.saturating_sub(held) / std::mem::size_of::<T>().max(1);
    v.reserve_exact(v.capacity().max(4).min(left).max(MIN_GROWTH));
}

#[derive(Clone, Debug, Default)]
pub(super) struct Packed {
    /// Packet records in pushing order, in chunks of [`CHUNK`] (each full
    /// but the last).
    slots: Vec<Vec<Slot>>,
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
    /// The most [`Packed::heap_bytes`] may reach by a vector's growth (see
    /// [`make_room`]); `None`: no limit, vectors double as usual.
    limit: Option<usize>,
}

impl Packed {
    pub fn len(&self) -> usize {
        self.len
    }

    /// Packet records held in slots.
    #[cfg(test)]
    fn slot_count(&self) -> usize {
        self.slots.iter().map(Vec::len).sum()
    }

    /// Time of the last record, if there is one.
    pub fn last_time(&self) -> Option<SimTime> {
        self.last_time
    }

    /// Bytes held, for the memory figures the benchmarks report.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        // Every chunk but the last is full, at CHUNK: O(1), as the run's
        // memory backstop reads this after every event.
        let slots =
            self.slots.len().saturating_sub(1) * CHUNK + self.slots.last().map_or(0, Vec::capacity);
        slots * size_of::<Slot>()
            + self.sacks.capacity() * size_of::<SackBlocks>()
            + (self.summary.capacity() + self.odd.capacity()) * size_of::<TraceRecord>()
            + (self.summary_at.capacity() + self.odd_at.capacity()) * size_of::<usize>()
    }

    /// Holds the vectors' growth to `bytes` in all (see [`make_room`]).
    pub fn set_memory_limit(&mut self, bytes: usize) {
        self.limit = Some(bytes);
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
                    let held = self.heap_bytes();
                    make_room(&mut self.sacks, held, self.limit);
                    self.sacks.push(*blocks);
                }
                match self.slots.last_mut() {
                    Some(chunk) if chunk.len() < CHUNK => chunk.push(slot),
                    // The first chunk grows as a vector does (a short run
                    // holds little), to CHUNK exactly (both powers of two);
                    // later ones are taken whole.
                    last => {
                        let mut chunk = match last {
                            None => Vec::new(),
                            Some(_) => Vec::with_capacity(CHUNK),
                        };
                        chunk.push(slot);
                        self.slots.push(chunk);
                    }
                }
            }
            None => {
                let whole = TraceRecord {
                    time,
                    flow,
                    event: *event,
                };
                let held = self.heap_bytes();
                let (records, places) = if event.is_packet_level() {
                    (&mut self.odd, &mut self.odd_at)
                } else {
                    (&mut self.summary, &mut self.summary_at)
                };
                make_room(records, held, self.limit);
                make_room(places, held, self.limit);
                records.push(whole);
                places.push(at);
            }
        }
    }

    /// The slot for a packet record, if one can hold it exactly, and the SACK
    /// blocks to file at the index it names. (Fields are read in place, never
    /// copied out of the event: that copying once cost more than the packing.)
    #[inline]
    fn slot<'e>(
        &self,
        time: SimTime,
        flow: u16,
        event: &'e TraceEvent,
    ) -> Option<(Slot, Option<&'e SackBlocks>)> {
        let t = time.0;
        let base = Slot {
            time: t,
            flow,
            sack: NO_SACK,
            ..Slot::default()
        };
        // An RTT sample, a timer or a hold: the side, and values in order.
        let values = |kind, side, [w0, w1, w2, w3]: [u64; 4]| Slot {
            kind,
            bits: side_bits(side),
            w0,
            w1,
            w2,
            w3,
            ..base
        };
        match *event {
            TraceEvent::SegmentSent {
                ref seg,
                flight,
                retransmit,
                departs,
                arrives,
            } => {
                if seg.ts_val != t {
                    return None;
                }
                let (mut s, sack) = self.segment(base, SENT, seg, retransmit)?;
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
            TraceEvent::SegmentReceived { to, ref seg } => {
                self.segment(base, RECEIVED, seg, to == Side::Server)
            }
            TraceEvent::SegmentDropped { ref seg } => self.segment(base, DROPPED, seg, false),
            TraceEvent::RttSample {
                side,
                sample_ns: w0,
                srtt_ns: w1,
                rttvar_ns: w2,
                rto_ns: w3,
            } => Some((values(RTT_SAMPLE, side, [w0, w1, w2, w3]), None)),
            TraceEvent::DelayedAckArmed { side, deadline } => {
                Some((values(DELAYED_ACK, side, [deadline.0, 0, 0, 0]), None))
            }
            TraceEvent::SendHeld {
                side,
                reason,
                bytes,
            } if HOLD_REASONS.contains(&reason) => {
                let mut s = values(SEND_HELD, side, [bytes, 0, 0, 0]);
                if reason == HOLD_REASONS[1] {
                    s.bits |= EXTRA;
                }
                Some((s, None))
            }
            _ => None,
        }
    }

    fn segment<'e>(
        &self,
        base: Slot,
        kind: u8,
        seg: &'e Segment,
        extra: bool,
    ) -> Option<(Slot, Option<&'e SackBlocks>)> {
        // The slot's flag bits are all taken; a RST, one or two in a run,
        // is kept whole in `odd`.
        if seg.flags.rst {
            return None;
        }
        let (sack, blocks) = if seg.sack.is_empty() {
            (NO_SACK, None)
        } else {
            // The index the blocks will take once `push` files them.
            let i = u32::try_from(self.sacks.len())
                .ok()
                .filter(|&i| i != NO_SACK)?;
            (i, Some(&seg.sack))
        };
        let slot = Slot {
            kind,
            bits: side_bits(seg.from)
                | if seg.flags.syn { SYN } else { 0 }
                | if seg.flags.ack { ACK } else { 0 }
                | if seg.flags.fin { FIN } else { 0 }
                | if seg.flags.psh { PSH } else { 0 }
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
