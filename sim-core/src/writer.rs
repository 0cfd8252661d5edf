//! An application that hands its messages to the socket through a buffer of
//! fixed size, as RPC frameworks do (seed 002's SOFA-RPC calls it `transbuf`).
//!
//! ```text
//!  message ─► [ copy ≤ size bytes: `cost` ] ─► write() ─ blocks while the send
//!             buffer is full ─► returns ─► [ copy the next chunk: `cost` ] ─► ...
//! ```
//!
//! Each chunk is its own `write()` call, made `cost` after the previous one
//! returned (the framework's work per chunk: copying into its buffer,
//! encoding, the system call). With a small buffer the writer, not TCP, sets
//! the pace: 4 MB in 1 KiB chunks is 3,907 calls.

use crate::config::ChunkedWrites;
use crate::time::SimTime;
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Nothing to write.
    Idle,
    /// Preparing the next chunk; it is written at this time.
    Copying { until: SimTime },
    /// The last `write()` has not returned: the send buffer had no room for all of it.
    Blocked,
}

/// What the writer wants done now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Call `write()` with these bytes; `more`: the message goes on after them.
    Write { bytes: u64, more: bool },
    /// Wake the writer at this time.
    WakeAt(SimTime),
    /// Nothing until the send buffer drains or a new message arrives.
    Wait,
}

#[derive(Clone)]
pub struct ChunkedWriter {
    cfg: ChunkedWrites,
    /// Bytes left of each message, and whether the application said more follows it.
    messages: VecDeque<(u64, bool)>,
    state: State,
}

impl ChunkedWriter {
    pub fn new(cfg: ChunkedWrites) -> Self {
        ChunkedWriter {
            cfg,
            messages: VecDeque::new(),
            state: State::Idle,
        }
    }

    /// The application passes a message (one `write()` of its own) to the framework.
    pub fn enqueue(&mut self, bytes: u64, more: bool) {
        if bytes > 0 {
            self.messages.push_back((bytes, more));
        }
    }

    pub fn config(&self) -> ChunkedWrites {
        self.cfg
    }

    pub fn is_idle(&self) -> bool {
        self.state == State::Idle && self.messages.is_empty()
    }

    /// Advances the writer at `now`. `blocked` says whether the socket still
    /// holds part of the last write outside its send buffer. Call repeatedly,
    /// performing each `Write`, until it returns `WakeAt` or `Wait`.
    pub fn step(&mut self, now: SimTime, blocked: bool) -> Step {
        loop {
            match self.state {
                State::Blocked if blocked => return Step::Wait,
                State::Blocked | State::Idle => {
                    if self.messages.is_empty() {
                        self.state = State::Idle;
                        return Step::Wait;
                    }
                    self.state = State::Copying {
                        until: now + self.cfg.cost,
                    };
                }
                State::Copying { until } if until > now => return Step::WakeAt(until),
                State::Copying { .. } => {
                    let Some((left, more)) = self.messages.front_mut() else {
                        self.state = State::Idle;
                        return Step::Wait;
                    };
                    let bytes = (*left).min(self.cfg.size);
                    *left -= bytes;
                    let more = *left > 0 || *more;
                    if *left == 0 {
                        self.messages.pop_front();
                    }
                    self.state = State::Blocked;
                    return Step::Write { bytes, more };
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    fn writer(size: u64, cost_us: u64) -> ChunkedWriter {
        ChunkedWriter::new(ChunkedWrites {
            size,
            cost: SimDuration::from_micros(cost_us),
        })
    }

    #[test]
    fn a_message_goes_out_in_chunks_one_cost_apart() {
        let mut w = writer(1024, 30);
        w.enqueue(2500, false);
        let t0 = SimTime::ZERO;
        // The first chunk is copied before it is written.
        assert_eq!(
            w.step(t0, false),
            Step::WakeAt(t0 + SimDuration::from_micros(30))
        );
        let t1 = t0 + SimDuration::from_micros(30);
        assert_eq!(
            w.step(t1, false),
            Step::Write {
                bytes: 1024,
                more: true
            }
        );
        // The write returned at once (room in the send buffer): copy the next.
        let t2 = t1 + SimDuration::from_micros(30);
        assert_eq!(w.step(t1, false), Step::WakeAt(t2));
        assert_eq!(
            w.step(t2, false),
            Step::Write {
                bytes: 1024,
                more: true
            }
        );
        let t3 = t2 + SimDuration::from_micros(30);
        assert_eq!(w.step(t2, false), Step::WakeAt(t3));
        assert_eq!(
            w.step(t3, false),
            Step::Write {
                bytes: 452,
                more: false
            }
        );
        assert_eq!(w.step(t3, false), Step::Wait);
        assert!(w.is_idle());
    }

    #[test]
    fn a_blocked_write_holds_the_next_chunk_until_it_returns() {
        let mut w = writer(1000, 10);
        w.enqueue(3000, false);
        let t = SimTime::ZERO + SimDuration::from_micros(10);
        assert_eq!(w.step(SimTime::ZERO, false), Step::WakeAt(t));
        assert!(matches!(w.step(t, false), Step::Write { bytes: 1000, .. }));
        // The send buffer took only part of it: no copying while blocked.
        let later = t + SimDuration::from_millis(5);
        assert_eq!(w.step(later, true), Step::Wait);
        // It returns at `later`; the next chunk is written a cost after that.
        assert_eq!(
            w.step(later, false),
            Step::WakeAt(later + SimDuration::from_micros(10))
        );
    }

    #[test]
    fn without_cost_chunks_follow_each_other_at_once() {
        let mut w = writer(100, 0);
        w.enqueue(250, true);
        let t = SimTime::ZERO;
        let mut sizes = Vec::new();
        while let Step::Write { bytes, more } = w.step(t, false) {
            sizes.push((bytes, more));
        }
        // The message's own `more` carries over to its last chunk.
        assert_eq!(sizes, [(100, true), (100, true), (50, true)]);
    }
}
