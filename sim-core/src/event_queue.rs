//! The simulator's agenda: events ordered by `(time, insertion sequence)`.
//!
//! The sequence number is the tie-break that makes simultaneous events resolve
//! in the order they were scheduled, identically on every run and platform.
//!
//! Most events are packets arriving at the far end of a link, and a FIFO link
//! with a fixed delay delivers them in the order it accepted them. Those go
//! into *lanes*: plain queues whose times never decrease, so pushing and
//! popping them costs O(1) and never moves a packet more than once. Timers
//! and everything else go into a binary heap. `pop` takes the smallest
//! `(time, seq)` across the heap and the lane fronts, so the order is exactly
//! the one a single heap would give.

use crate::time::SimTime;
use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, VecDeque};

/// Where an event is kept: the heap holds only this small key, and the event
/// itself stays put in `slots` until popped.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    time: SimTime,
    seq: u64,
}

#[derive(Clone)]
struct HeapEntry {
    key: Key,
    slot: u32,
}

impl PartialEq for HeapEntry {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl Eq for HeapEntry {}
impl PartialOrd for HeapEntry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for HeapEntry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key.cmp(&other.key)
    }
}

/// A min-queue of events keyed by simulated time, FIFO among equal times.
#[derive(Clone)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<HeapEntry>>,
    /// Events of heap entries; `None` once popped, reused through `free`.
    slots: Vec<Option<E>>,
    free: Vec<u32>,
    lanes: Vec<VecDeque<(Key, E)>>,
    next_seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    pub fn new() -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            slots: Vec::new(),
            free: Vec::new(),
            lanes: Vec::new(),
            next_seq: 0,
        }
    }

    fn key(&mut self, time: SimTime) -> Key {
        let seq = self.next_seq;
        self.next_seq += 1;
        Key { time, seq }
    }

    /// Schedules `event` at `time`, in any order relative to other pushes.
    pub fn push(&mut self, time: SimTime, event: E) {
        let key = self.key(time);
        let slot = match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = Some(event);
                i
            }
            None => {
                self.slots.push(Some(event));
                (self.slots.len() - 1) as u32
            }
        };
        self.heap.push(Reverse(HeapEntry { key, slot }));
    }

    /// Schedules `event` at `time` in `lane`, whose events the caller pushes in
    /// time order (a FIFO link's arrivals). Lanes are created on first use.
    /// Inlined: every segment sent comes this way, and as a call its event
    /// was built on the caller's stack only to be copied into the lane.
    #[inline]
    pub fn push_in_order(&mut self, lane: usize, time: SimTime, event: E) {
        let key = self.key(time);
        if self.lanes.len() <= lane {
            self.lanes.resize_with(lane + 1, VecDeque::new);
        }
        let q = &mut self.lanes[lane];
        debug_assert!(
            q.back().is_none_or(|(k, _)| k.time <= time),
            "lane {lane} pushed out of time order"
        );
        q.push_back((key, event));
    }

    /// The lane whose front comes first among the lanes (the earlier lane
    /// on a tie), with that front's key.
    #[inline]
    fn first_lane(&self) -> Option<(usize, Key)> {
        let mut first: Option<(usize, Key)> = None;
        for (i, q) in self.lanes.iter().enumerate() {
            if let Some(&(key, _)) = q.front()
                && first.is_none_or(|(_, k)| key < k)
            {
                first = Some((i, key));
            }
        }
        first
    }

    /// Whether the next event is the heap's: its top comes first unless a
    /// lane's front comes strictly before it.
    #[inline]
    fn heap_first(&self, lane: Option<(usize, Key)>) -> bool {
        match (self.heap.peek(), lane) {
            (Some(Reverse(top)), Some((_, key))) => top.key <= key,
            (top, _) => top.is_some(),
        }
    }

    /// The next event. Runs for every event, most of which wait in a lane.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let lane = self.first_lane();
        if self.heap_first(lane) {
            let Reverse(entry) = self.heap.pop()?;
            self.free.push(entry.slot);
            let event = self.slots[entry.slot as usize].take()?;
            return Some((entry.key.time, event));
        }
        // Moved out of the lane once, straight into the answer.
        let (key, event) = self.lanes[lane?.0].pop_front()?;
        Some((key.time, event))
    }

    /// The front of `lane`: the next event the lane holds, and its time.
    pub fn peek_lane(&self, lane: usize) -> Option<(SimTime, &E)> {
        self.lanes.get(lane)?.front().map(|(k, e)| (k.time, e))
    }

    pub fn peek_time(&self) -> Option<SimTime> {
        let lane = self.first_lane();
        match self.heap.peek() {
            Some(Reverse(top)) if self.heap_first(lane) => Some(top.key.time),
            _ => lane.map(|(_, key)| key.time),
        }
    }

    pub fn len(&self) -> usize {
        self.heap.len() + self.lanes.iter().map(VecDeque::len).sum::<usize>()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn earlier_events_pop_first() {
        let mut q = EventQueue::new();
        q.push(SimTime(30), "c");
        q.push(SimTime(10), "a");
        q.push(SimTime(20), "b");
        assert_eq!(q.pop(), Some((SimTime(10), "a")));
        assert_eq!(q.pop(), Some((SimTime(20), "b")));
        assert_eq!(q.pop(), Some((SimTime(30), "c")));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn simultaneous_events_pop_in_insertion_order() {
        let mut q = EventQueue::new();
        for i in 0..100 {
            q.push(SimTime(5), i);
        }
        let order: Vec<i32> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn lanes_and_heap_interleave_by_time_then_insertion() {
        let mut q = EventQueue::new();
        q.push_in_order(0, SimTime(10), "lane0@10");
        q.push(SimTime(10), "heap@10");
        q.push_in_order(1, SimTime(5), "lane1@5");
        q.push_in_order(0, SimTime(20), "lane0@20");
        q.push(SimTime(15), "heap@15");
        let order: Vec<_> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(
            order,
            ["lane1@5", "lane0@10", "heap@10", "heap@15", "lane0@20"]
        );
    }

    proptest! {
        /// Lanes change where events wait, never the order they come out in:
        /// the same pushes through a plain sorted list give the same sequence.
        #[test]
        fn same_order_as_sorting_by_time_and_insertion(
            ops in proptest::collection::vec((0u8..3, 0u64..50, any::<bool>()), 0..200)
        ) {
            let mut q = EventQueue::new();
            let mut reference = Vec::new();
            let mut lane_clock = [0u64; 2];
            let mut now = 0u64;
            for (n, &(lane, dt, pop)) in ops.iter().enumerate() {
                if pop {
                    let expected = (!reference.is_empty()).then(|| reference.remove(0));
                    let got = q.pop();
                    if let Some((t, _)) = got { now = t.0; }
                    prop_assert_eq!(got, expected.map(|(t, _, e)| (SimTime(t), e)));
                    continue;
                }
                let seq = n;
                let t = match lane {
                    2 => { let t = now + dt; q.push(SimTime(t), n); t }
                    l => {
                        let l = l as usize;
                        lane_clock[l] = lane_clock[l].max(now) + dt;
                        q.push_in_order(l, SimTime(lane_clock[l]), n);
                        lane_clock[l]
                    }
                };
                reference.push((t, seq, n));
                reference.sort_by_key(|&(t, s, _)| (t, s));
            }
        }
    }
}
