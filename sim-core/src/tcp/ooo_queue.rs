//! The receiver's out-of-order queue and the SACK blocks it reports
//! (tcp_input.c `tcp_data_queue_ofo`, `tcp_sack_new_ofo_skb`).
//!
//! ```text
//!   rcv_nxt        held out of order
//!      │   hole   ┌──────┐  hole  ┌────────────┐
//!  ────┴──────────┴──────┴────────┴────────────┴──►  sequence
//!                  block 2         block 1 (newest first)
//! ```
//!
//! Data above `rcv_nxt` is kept as merged ranges, each with the truesize its
//! segments were charged (`sk_rmem_alloc` counts held data too), in a sorted
//! `Vec`: there are as many as there are holes, a handful, and a `BTreeMap`
//! of its own type cost the widget bundle kilobytes. Each ACK sent
//! while any is held carries up to three SACK blocks, the one that changed
//! most recently first (RFC 2018 §4), so a sender learns about every new
//! arrival even when older blocks no longer fit.

use crate::segment::{MAX_SACK_BLOCKS, SackBlocks};

/// `TCP_NUM_SACKS`: blocks the receiver keeps track of.
const TCP_NUM_SACKS: usize = 4;

/// How `tcp_data_queue_ofo` took a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queued {
    /// Every byte was held already: dropped, nothing charged.
    Duplicate,
    /// Appended to the held range that ends where it starts
    /// (`tcp_ooo_try_coalesce`): charged before the window grows.
    Coalesced,
    /// A range of its own (possibly merged with what follows): the window
    /// grows before it is charged (`tcp_data_queue_ofo`'s `end:` path).
    Inserted,
}

/// One range held: `[start, end)`, and the truesize its segments were charged.
#[derive(Clone, Copy, Debug)]
struct Held {
    start: u64,
    end: u64,
    truesize: u64,
}

#[derive(Clone, Debug, Default)]
pub struct OooQueue {
    /// Disjoint, non-adjacent ranges, by start.
    ranges: Vec<Held>,
    /// Starts of the ranges in the order they last changed, newest first
    /// (`tp->selective_acks`). Like Linux it remembers only `TCP_NUM_SACKS`
    /// (4): an older block drops out of the SACK option until it changes.
    recent: Vec<u64>,
}

impl OooQueue {
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// How far past `rcv_nxt` the held data reaches (`ooo_last_skb->end_seq
    /// - rcv_nxt`); zero with nothing held.
    pub fn span_past(&self, rcv_nxt: u64) -> u64 {
        self.ranges
            .last()
            .map_or(0, |h| h.end.saturating_sub(rcv_nxt))
    }

    /// Holds `[seq, end)`, charged `truesize`, merging it with any range it
    /// touches; the merged range becomes the newest SACK block.
    pub fn insert(&mut self, seq: u64, end: u64, truesize: u64) -> Queued {
        if let Some(i) = self.last_starting_by(seq)
            && self.ranges[i].end >= end
        {
            return Queued::Duplicate;
        }
        let mut start = seq;
        let mut stop = end;
        let mut charged = truesize;
        let mut how = Queued::Inserted;
        // Absorb every range that overlaps or abuts [seq, end), highest
        // first: each is removed as it is taken, so the next is again the
        // highest left.
        while let Some(i) = self.last_starting_by(end)
            && self.ranges[i].end >= seq
        {
            let Held {
                start: s,
                end: e,
                truesize: t,
            } = self.ranges.remove(i);
            if e == seq && s < seq {
                how = Queued::Coalesced;
            }
            self.recent.retain(|&r| r != s);
            start = start.min(s);
            stop = stop.max(e);
            charged += t;
        }
        let at = self.ranges.partition_point(|r| r.start < start);
        self.ranges.insert(
            at,
            Held {
                start,
                end: stop,
                truesize: charged,
            },
        );
        self.recent.insert(0, start);
        self.recent.truncate(TCP_NUM_SACKS);
        how
    }

    /// Removes the data now contiguous with `rcv_nxt`: returns where in-order
    /// data ends (`rcv_nxt` itself when nothing follows on) and the truesize
    /// the removed ranges were charged.
    #[inline]
    pub fn take_in_order(&mut self, rcv_nxt: u64) -> (u64, u64) {
        // Every in-order segment asks; nothing is held nearly always.
        if self.ranges.is_empty() {
            return (rcv_nxt, 0);
        }
        self.take_held(rcv_nxt)
    }

    fn take_held(&mut self, rcv_nxt: u64) -> (u64, u64) {
        let mut next = rcv_nxt;
        let mut truesize = 0;
        let mut taken = 0;
        for r in &self.ranges {
            if r.start > next {
                break;
            }
            next = next.max(r.end);
            truesize += r.truesize;
            self.recent.retain(|&s| s != r.start);
            taken += 1;
        }
        self.ranges.drain(..taken);
        (next, truesize)
    }

    /// The last range starting at or before `seq`.
    fn last_starting_by(&self, seq: u64) -> Option<usize> {
        self.ranges
            .partition_point(|r| r.start <= seq)
            .checked_sub(1)
    }

    /// The end of the range starting at `start`.
    fn end_of(&self, start: u64) -> u64 {
        let i = self.ranges.partition_point(|r| r.start < start);
        self.ranges[i].end
    }

    /// Whether an ACK sent now carries SACK blocks.
    pub fn has_sack_blocks(&self) -> bool {
        !self.recent.is_empty()
    }

    /// The SACK option for an ACK sent now.
    pub fn sack_blocks(&self) -> SackBlocks {
        // Every segment sent asks, and the queue is nearly always empty.
        if self.recent.is_empty() {
            return SackBlocks::default();
        }
        let mut blocks = [(0, 0); MAX_SACK_BLOCKS];
        let mut n = 0;
        for s in self.recent.iter().take(MAX_SACK_BLOCKS) {
            blocks[n] = (*s, self.end_of(*s));
            n += 1;
        }
        SackBlocks::new(&blocks[..n])
    }

    /// Bytes held out of order.
    pub fn bytes(&self) -> u64 {
        self.ranges.iter().map(|r| r.end - r.start).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_block_comes_first_and_only_three_are_reported() {
        let mut q = OooQueue::default();
        q.insert(2000, 3000, 1);
        q.insert(4000, 5000, 1);
        q.insert(6000, 7000, 1);
        q.insert(8000, 9000, 1);
        assert_eq!(
            q.sack_blocks().as_slice(),
            &[(8000, 9000), (6000, 7000), (4000, 5000)]
        );
    }

    #[test]
    fn adjacent_arrivals_merge_into_one_block_that_moves_to_the_front() {
        let mut q = OooQueue::default();
        q.insert(2000, 3000, 1);
        q.insert(5000, 6000, 1);
        assert_eq!(q.insert(3000, 4000, 1), Queued::Coalesced); // extends the first block
        assert_eq!(q.sack_blocks().as_slice(), &[(2000, 4000), (5000, 6000)]);
        q.insert(4000, 5000, 1); // fills the hole between them
        assert_eq!(q.sack_blocks().as_slice(), &[(2000, 6000)]);
    }

    #[test]
    fn filling_the_hole_at_rcv_nxt_releases_everything_contiguous() {
        let mut q = OooQueue::default();
        q.insert(2000, 3000, 1);
        q.insert(4000, 5000, 1);
        assert_eq!(q.take_in_order(1000), (1000, 0));
        assert_eq!(q.take_in_order(2000), (3000, 1));
        assert_eq!(q.sack_blocks().as_slice(), &[(4000, 5000)]);
        assert_eq!(q.bytes(), 1000);
    }

    #[test]
    fn held_data_keeps_what_it_was_charged_and_duplicates_cost_nothing() {
        let mut q = OooQueue::default();
        assert_eq!(q.insert(4000, 5000, 2304), Queued::Inserted);
        assert_eq!(q.insert(4000, 4500, 2304), Queued::Duplicate);
        assert_eq!(q.insert(2000, 3000, 2304), Queued::Inserted);
        assert_eq!(q.insert(3000, 4000, 2304), Queued::Coalesced);
        assert_eq!(q.take_in_order(2000), (5000, 3 * 2304));
    }
}
