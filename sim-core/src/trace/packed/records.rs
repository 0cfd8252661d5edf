//! Reading a trace back: the stored records in the order they were pushed,
//! each packet record unpacked from its slot as it is reached.

use super::{
    ACK, DELAYED_ACK, DROPPED, EXTRA, FIN, HAS_ARRIVES, HAS_DEPARTS, HOLD_REASONS, NO_SACK, PSH,
    Packed, RECEIVED, RTT_SAMPLE, SENT, SERVER, SYN, Slot,
};
use crate::segment::{Flags, SackBlocks, Segment, Side};
use crate::time::SimTime;
use crate::trace::{TraceEvent, TraceRecord};

impl Packed {
    pub fn iter(&self) -> Records<'_> {
        let (slots, chunks) = match self.slots.split_first() {
            Some((first, rest)) => (first.as_slice(), rest),
            None => (&[][..], &[][..]),
        };
        Records {
            slots,
            chunks,
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
    /// What is left of each store: of the slots, the rest of the current
    /// chunk, then the chunks after it.
    slots: &'a [Slot],
    chunks: &'a [Vec<Slot>],
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
        if self.slots.is_empty()
            && let Some((next, rest)) = self.chunks.split_first()
        {
            self.slots = next;
            self.chunks = rest;
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
                psh: s.bits & PSH != 0,
                // A RST never has a slot (`Packed::segment`).
                rst: false,
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
