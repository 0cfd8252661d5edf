//! Where a Linux sender sets PSH (tcp.c `tcp_sendmsg_locked`, `tcp_push`,
//! `forced_push`, `tcp_mark_push`).
//!
//! ```text
//!   write() copies into skbs ─► an skb filled while more than half the peer's
//!                               largest window was written since the last
//!                               push: PSH on it                       forced_push
//!                            ─► the write ends, or blocks for buffer space:
//!                               PSH on the last skb                   tcp_push
//!   a new write() appending to an unsent, unfilled last skb clears its PSH
//! ```
//!
//! PSH belongs to an skb, and segmentation keeps it on the last piece only
//! (`tcp_fragment`, `tcp_gso_segment`), so here a mark is a sequence number:
//! the segment that ends there carries PSH. The receiver uses it to guess
//! that the sender waits for an ACK (`tcp_measure_rcv_mss`).
//!
//! Simplifications: with per-MSS skbs (`SendSkbs::PerMss`) `on_copy` cuts
//! them here; with GSO skbs the socket's `tcp_sendmsg_gso` marks its own skbs
//! through `mark`/`unmark`. `MSG_MORE` is not modelled (`TCP_CORK` still pushes at the end of each
//! write, as Linux does).

use std::collections::VecDeque;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushMarks {
    /// Ends of the skbs marked PSH, ascending, none at or below snd_una.
    marks: VecDeque<u64>,
    /// `tp->pushed_seq`: write_seq when PSH was last set.
    pushed_seq: u64,
    /// `tp->max_window`: the largest window the peer has advertised.
    max_window: u64,
}

impl PushMarks {
    /// A socket whose first data byte will be `write_seq` (`tcp_connect`
    /// starts `pushed_seq` there).
    pub fn new(write_seq: u64) -> Self {
        PushMarks {
            marks: VecDeque::new(),
            pushed_seq: write_seq,
            max_window: 0,
        }
    }

    /// The peer advertised `wnd` (`tcp_ack_update_window` keeps the largest).
    pub fn on_window(&mut self, wnd: u64) {
        self.max_window = self.max_window.max(wnd);
    }

    /// A new `write()` is about to copy into the socket whose data ends at
    /// `write_end`, of which everything from `snd_nxt` is unsent: an unsent
    /// last skb with room left takes the first bytes, and loses its PSH.
    pub fn on_new_write(&mut self, write_end: u64, snd_nxt: u64, mss: u64) {
        let unsent = write_end.saturating_sub(snd_nxt);
        if unsent > 0 && !unsent.is_multiple_of(mss) && self.marks.back() == Some(&write_end) {
            self.marks.pop_back();
        }
    }

    /// `write()` copied `[from, to)`, cut into skbs of `mss` from `snd_nxt`,
    /// and then returned or blocked (`tcp_push`): PSH on each skb it filled
    /// while `forced_push`, and on the last.
    pub fn on_copy(&mut self, from: u64, to: u64, snd_nxt: u64, mss: u64) {
        if to <= from {
            return;
        }
        // Ends of the skbs the copy filled: snd_nxt + k·mss within (from, to).
        let first = snd_nxt + (from.saturating_sub(snd_nxt) / mss + 1) * mss;
        let mut end = first;
        while end < to {
            if end > self.pushed_seq + self.max_window / 2 {
                self.mark(end);
            }
            end += mss;
        }
        self.mark(to);
    }

    /// The largest window the peer has advertised (`tp->max_window`).
    pub fn max_window(&self) -> u64 {
        self.max_window
    }

    /// `forced_push`: more than half the peer's largest window written since
    /// the last mark.
    pub fn forced_push(&self, write_seq: u64) -> bool {
        write_seq > self.pushed_seq + self.max_window / 2
    }

    /// A new write appends to an unsent skb ending at `end`: the skb loses its
    /// PSH until this write marks it again.
    pub fn unmark(&mut self, end: u64) {
        if self.marks.back() == Some(&end) {
            self.marks.pop_back();
        }
    }

    /// `tcp_mark_push`: the skb ending at `end` carries PSH.
    pub fn mark(&mut self, end: u64) {
        if self.marks.back().is_none_or(|&m| m < end) {
            self.marks.push_back(end);
        }
        self.pushed_seq = end;
    }

    /// Whether the segment `[seq, end)` carries PSH.
    pub fn psh(&self, seq: u64, end: u64) -> bool {
        // The first mark above `seq`, searched in whichever half of the ring
        // holds it (one search, and no index back into the deque).
        let (front, back) = self.marks.as_slices();
        let first_above = |s: &[u64]| s.get(s.partition_point(|&m| m <= seq)).copied();
        let first = match back.first() {
            Some(&b) if b <= seq => first_above(back),
            _ => first_above(front).or(back.first().copied()),
        };
        first.is_some_and(|m| m <= end)
    }

    /// Everything below `snd_una` is acknowledged: forget its marks.
    pub fn on_acked(&mut self, snd_una: u64) {
        while self.marks.front().is_some_and(|&m| m <= snd_una) {
            self.marks.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1448;

    #[test]
    fn the_last_segment_of_each_write_carries_psh() {
        let mut p = PushMarks::new(1);
        p.on_window(65_535);
        p.on_copy(1, 1 + 3 * MSS + 100, 1, MSS);
        assert!(!p.psh(1, 1 + MSS));
        assert!(!p.psh(1 + 2 * MSS, 1 + 3 * MSS));
        assert!(p.psh(1 + 3 * MSS, 1 + 3 * MSS + 100));
    }

    #[test]
    fn a_small_peer_window_forces_psh_every_half_window() {
        // max_window 5792: forced_push once more than 2896 bytes were written
        // since the last push (from byte 1), at the end of the skb that
        // crossed it: 4345, then 8689, 13033, and the write's last byte.
        let mut p = PushMarks::new(1);
        p.on_window(5_792);
        p.on_copy(1, 1 + 10 * MSS, 1, MSS);
        let marked: Vec<u64> = (0..10)
            .filter(|&k| p.psh(1 + k * MSS, 1 + (k + 1) * MSS))
            .collect();
        assert_eq!(marked, vec![2, 5, 8, 9]);
    }

    #[test]
    fn a_new_write_into_the_unsent_tail_moves_the_psh_to_its_end() {
        let mut p = PushMarks::new(1);
        p.on_window(65_535);
        p.on_copy(1, 101, 1, MSS);
        assert!(p.psh(1, 101));
        p.on_new_write(101, 1, MSS);
        p.on_copy(101, 201, 1, MSS);
        assert!(!p.psh(1, 101));
        assert!(p.psh(1, 201));
        // Once sent, the tail keeps its PSH: the next write starts a new skb.
        p.on_new_write(201, 201, MSS);
        p.on_copy(201, 301, 201, MSS);
        assert!(p.psh(1, 201) && p.psh(201, 301));
        p.on_acked(201);
        assert!(!p.psh(1, 201));
    }
}
