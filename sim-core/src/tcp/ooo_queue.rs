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
//! Data above `rcv_nxt` is kept as merged ranges. Each ACK sent while any is
//! held carries up to three SACK blocks, the one that changed most recently
//! first (RFC 2018 §4), so a sender learns about every new arrival even when
//! older blocks no longer fit.

use crate::segment::{MAX_SACK_BLOCKS, SackBlocks};
use std::collections::BTreeMap;

/// `TCP_NUM_SACKS`: blocks the receiver keeps track of.
const TCP_NUM_SACKS: usize = 4;

#[derive(Clone, Debug, Default)]
pub struct OooQueue {
    /// Disjoint, non-adjacent ranges: start → end.
    ranges: BTreeMap<u64, u64>,
    /// Starts of the ranges in the order they last changed, newest first
    /// (`tp->selective_acks`). Like Linux it remembers only `TCP_NUM_SACKS`
    /// (4): an older block drops out of the SACK option until it changes.
    recent: Vec<u64>,
}

impl OooQueue {
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Holds `[seq, end)`, merging it with any range it touches; the merged
    /// range becomes the newest SACK block.
    pub fn insert(&mut self, seq: u64, end: u64) {
        let mut start = seq;
        let mut stop = end;
        // Absorb every range that overlaps or abuts [start, stop).
        let touching: Vec<(u64, u64)> = self
            .ranges
            .range(..=stop)
            .rev()
            .take_while(|&(_, &e)| e >= start)
            .map(|(&s, &e)| (s, e))
            .collect();
        for (s, e) in touching {
            self.ranges.remove(&s);
            self.recent.retain(|&r| r != s);
            start = start.min(s);
            stop = stop.max(e);
        }
        self.ranges.insert(start, stop);
        self.recent.insert(0, start);
        self.recent.truncate(TCP_NUM_SACKS);
    }

    /// Removes and returns the end of in-order data now contiguous with
    /// `rcv_nxt` (which ends at `rcv_nxt` itself when nothing follows on).
    pub fn take_in_order(&mut self, rcv_nxt: u64) -> u64 {
        let mut next = rcv_nxt;
        while let Some((&s, &e)) = self.ranges.first_key_value() {
            if s > next {
                break;
            }
            next = next.max(e);
            self.ranges.remove(&s);
            self.recent.retain(|&r| r != s);
        }
        next
    }

    /// The SACK option for an ACK sent now.
    pub fn sack_blocks(&self) -> SackBlocks {
        let mut blocks = [(0, 0); MAX_SACK_BLOCKS];
        let mut n = 0;
        for s in self.recent.iter().take(MAX_SACK_BLOCKS) {
            blocks[n] = (*s, self.ranges[s]);
            n += 1;
        }
        SackBlocks::new(&blocks[..n])
    }

    /// Bytes held out of order.
    pub fn bytes(&self) -> u64 {
        self.ranges.iter().map(|(s, e)| e - s).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_block_comes_first_and_only_three_are_reported() {
        let mut q = OooQueue::default();
        q.insert(2000, 3000);
        q.insert(4000, 5000);
        q.insert(6000, 7000);
        q.insert(8000, 9000);
        assert_eq!(
            q.sack_blocks().as_slice(),
            &[(8000, 9000), (6000, 7000), (4000, 5000)]
        );
    }

    #[test]
    fn adjacent_arrivals_merge_into_one_block_that_moves_to_the_front() {
        let mut q = OooQueue::default();
        q.insert(2000, 3000);
        q.insert(5000, 6000);
        q.insert(3000, 4000); // extends the first block
        assert_eq!(q.sack_blocks().as_slice(), &[(2000, 4000), (5000, 6000)]);
        q.insert(4000, 5000); // fills the hole between them
        assert_eq!(q.sack_blocks().as_slice(), &[(2000, 6000)]);
    }

    #[test]
    fn filling_the_hole_at_rcv_nxt_releases_everything_contiguous() {
        let mut q = OooQueue::default();
        q.insert(2000, 3000);
        q.insert(4000, 5000);
        assert_eq!(q.take_in_order(1000), 1000);
        assert_eq!(q.take_in_order(2000), 3000);
        assert_eq!(q.sack_blocks().as_slice(), &[(4000, 5000)]);
        assert_eq!(q.bytes(), 1000);
    }
}
