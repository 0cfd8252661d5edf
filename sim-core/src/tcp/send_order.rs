//! Segments in flight ordered by transmission time, as Linux's
//! `tsorted_sent_queue`, which RACK walks oldest first.
//!
//! Nearly every insertion is a segment sent *now*, the newest of all, and
//! nearly every removal is at or near the oldest end (a cumulative ACK) or
//! scattered a little behind it (SACKs). A sorted double-ended queue with
//! tombstones serves that pattern in O(1) amortised time per change: insert
//! is a push at the back, removal a binary search and a mark, and marks are
//! popped from the front or swept out once they are half the queue. A
//! `BTreeSet` did the same job at O(log n) and was a tenth of a long run's
//! time. Out-of-order insertions (undoing a spurious timeout re-files
//! segments under their old send times) still work, at O(n) each.

use crate::time::SimTime;
use std::collections::VecDeque;

/// `(sent_at, end_seq)`: send time, with the end sequence breaking ties as
/// `tcp_skb_sent_after` does.
pub type SendKey = (SimTime, u64);

#[derive(Clone, Debug, Default)]
pub struct SendOrder {
    /// Sorted by key; `false` marks an entry removed but not yet swept.
    q: VecDeque<(SendKey, bool)>,
    dead: usize,
}

impl SendOrder {
    /// Entries in the queue (not counting removed ones).
    pub fn len(&self) -> usize {
        self.q.len() - self.dead
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn position(&self, key: SendKey) -> usize {
        self.q.partition_point(|&(k, _)| k < key)
    }

    /// Adds `key`; adding one already present changes nothing.
    pub fn insert(&mut self, key: SendKey) {
        if self.q.back().is_none_or(|&(k, _)| k < key) {
            self.q.push_back((key, true));
            return;
        }
        let i = self.position(key);
        match self.q.get_mut(i) {
            Some((k, alive)) if *k == key => {
                if !*alive {
                    *alive = true;
                    self.dead -= 1;
                }
            }
            _ => self.q.insert(i, (key, true)),
        }
    }

    /// Removes `key` if present.
    pub fn remove(&mut self, key: SendKey) {
        if self.q.front() == Some(&(key, true)) {
            // A cumulative ACK removes the oldest: no search, no mark.
            self.q.pop_front();
        } else {
            let i = self.position(key);
            match self.q.get_mut(i) {
                Some((k, alive)) if *k == key && *alive => {
                    *alive = false;
                    self.dead += 1;
                }
                _ => return,
            }
        }
        while let Some(&(_, false)) = self.q.front() {
            self.q.pop_front();
            self.dead -= 1;
        }
        if self.dead > 32 && self.dead * 2 > self.q.len() {
            self.q.retain(|&(_, alive)| alive);
            self.dead = 0;
        }
    }

    /// Entries oldest first.
    pub fn iter(&self) -> impl Iterator<Item = SendKey> + '_ {
        self.q.iter().filter(|&&(_, alive)| alive).map(|&(k, _)| k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn key(t: u64, end: u64) -> SendKey {
        (SimTime(t), end)
    }

    #[test]
    fn keeps_send_order_with_ties_broken_by_sequence() {
        let mut o = SendOrder::default();
        o.insert(key(5, 30));
        o.insert(key(5, 10));
        o.insert(key(1, 99));
        o.insert(key(5, 10));
        assert_eq!(
            o.iter().collect::<Vec<_>>(),
            [key(1, 99), key(5, 10), key(5, 30)]
        );
        o.remove(key(5, 10));
        o.remove(key(7, 7));
        assert_eq!(o.iter().collect::<Vec<_>>(), [key(1, 99), key(5, 30)]);
        o.insert(key(5, 10));
        assert_eq!(o.len(), 3);
    }

    proptest! {
        /// Any sequence of inserts and removals leaves exactly what a
        /// `BTreeSet` would hold, in the same order.
        #[test]
        fn behaves_as_an_ordered_set(ops in proptest::collection::vec((any::<bool>(), 0u64..40, 0u64..8), 0..400)) {
            let mut o = SendOrder::default();
            let mut set = BTreeSet::new();
            for (insert, t, end) in ops {
                let k = key(t, end);
                if insert {
                    o.insert(k);
                    set.insert(k);
                } else {
                    o.remove(k);
                    set.remove(&k);
                }
                prop_assert_eq!(o.len(), set.len());
            }
            prop_assert_eq!(o.iter().collect::<Vec<_>>(), set.into_iter().collect::<Vec<_>>());
        }
    }
}
