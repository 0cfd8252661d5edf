//! FACK: loss detection by the forward-most SACK, what Linux used before
//! RACK (2.6.32 and 3.10 with `net.ipv4.tcp_fack` = 1, their default;
//! tcp_input.c `tcp_time_to_recover`, `tcp_update_scoreboard`,
//! `tcp_mark_head_lost`, `tcp_mark_lost_retrans`). RACK replaced it from 4.4
//! (`tcp_recovery`), and 4.15 removed it.
//!
//! FACK counts every segment up to the highest one SACKed as gone from the
//! network, holes included (`fackets_out`). Once that count exceeds the
//! reordering degree (3), recovery starts, and every hole more than three
//! segments below the highest SACK is lost:
//!
//! ```text
//!   snd_una                          highest SACK
//!     │ 0 │ 1 │ 2 │ 3 │ 4 │ 5 │ 6 │ 7 │           fackets_out = 8
//!       ?   S   ?   S   ?   ?   ?   S
//!     └─── lost: 8 − 3 = 5 ───┘└ wait ┘   holes 0, 2, 4 lost; 5, 6 not yet
//! ```
//!
//! A retransmission is lost once a segment first sent after it is SACKed:
//! its ACK would have come first (`tcp_mark_lost_retrans`, in Recovery).
//!
//! Not modelled, each a path these simulations do not take or a rare case:
//! early retransmit (3.10, `tcp_early_retrans`: fewer than four segments out
//! and nothing new to send, recovery after a quarter RTT), the
//! nothing-to-send rule for tiny windows and the thin-stream rule of
//! `tcp_time_to_recover`, 2.6.32's head timeout (`tcp_head_timedout`), and
//! FACK's switch to RFC 3517 counting once reordering is seen (the links here
//! never reorder). Old kernels also grew `tp->reordering` from DSACKs; it
//! stays 3 here.

use super::rack::TCP_REORDERING;
use super::scoreboard::Scoreboard;

#[derive(Clone, Debug, Default)]
pub struct Fack {
    /// Segments ending at or below this were SACKed or marked lost by an
    /// earlier call (`lost_skb_hint`); valid while anything is marked lost.
    marked_upto: u64,
    /// Retransmissions in flight, (end sequence, snd_nxt when it was sent:
    /// `TCP_SKB_CB(skb)->ack_seq`), by end. A SACK above it proves it lost.
    /// A sorted `Vec`: a handful at a time, and a `BTreeMap` cost the widget
    /// bundle kilobytes.
    retrans: Vec<(u64, u64)>,
    /// The lowest of those (`lost_retrans_low`): a SACK below it tells nothing.
    lost_retrans_low: u64,
}

impl Fack {
    /// `tcp_time_to_recover` with FACK: something is marked lost, or more
    /// than `reordering` segments have left up to the highest SACK.
    pub fn time_to_recover(board: &Scoreboard) -> bool {
        board.lost_out() > 0 || board.fackets_out() > TCP_REORDERING
    }

    /// `tcp_update_scoreboard` with FACK: every hole among the first
    /// `fackets_out − reordering` segments is lost. Returns how many were
    /// newly marked.
    pub fn update_scoreboard(&mut self, board: &mut Scoreboard) -> u32 {
        let fackets = board.fackets_out();
        if fackets <= TCP_REORDERING {
            return 0;
        }
        if board.lost_out() == 0 {
            // Nothing is marked (a new episode, or an undo unmarked it all):
            // look from the head again.
            self.marked_upto = 0;
        }
        let before = board.lost();
        self.marked_upto = board.mark_head_lost_fack(fackets - TCP_REORDERING, self.marked_upto);
        (board.lost() - before) as u32
    }

    /// A lost segment ending at `end` was retransmitted with snd_nxt at
    /// `snd_nxt` (`tcp_retransmit_skb` noting `ack_seq`).
    pub fn on_retransmit(&mut self, end: u64, snd_nxt: u64) {
        if self.retrans.is_empty() || snd_nxt < self.lost_retrans_low {
            self.lost_retrans_low = snd_nxt;
        }
        match self.retrans.binary_search_by_key(&end, |&(e, _)| e) {
            Ok(i) => self.retrans[i].1 = snd_nxt,
            Err(i) => self.retrans.insert(i, (end, snd_nxt)),
        }
    }

    /// `tcp_mark_lost_retrans`: a retransmission whose snd_nxt at sending
    /// is below the highest SACK is lost again (it would have been ACKed
    /// before the data sent after it). Returns how many.
    pub fn mark_lost_retrans(&mut self, board: &mut Scoreboard) -> u32 {
        let received_upto = board.highest_sack();
        if self.retrans.is_empty() || received_upto <= self.lost_retrans_low {
            return 0;
        }
        let mut lost = 0;
        let mut low = u64::MAX;
        self.retrans.retain(|&(end, snd_nxt)| {
            // Forget what was ACKed, SACKed or marked lost since it was sent.
            if !board.get(end).is_some_and(|s| s.retrans) {
                return false;
            }
            if received_upto > snd_nxt {
                board.mark_lost(end);
                lost += 1;
                return false;
            }
            low = low.min(snd_nxt);
            true
        });
        self.lost_retrans_low = low;
        lost
    }
}

#[cfg(test)]
mod tests {
    use super::super::scoreboard::TxRate;
    use super::*;
    use crate::time::SimTime;

    fn board(n: u64) -> Scoreboard {
        Scoreboard::with_segments(n)
    }

    /// The end of segment `i` (from 0).
    fn end(i: u64) -> u64 {
        1 + (i + 1) * 1000
    }

    #[test]
    fn holes_more_than_three_below_the_highest_sack_are_lost() {
        // The diagram in the module docs: 1, 3 and 7 SACKed.
        let mut b = board(10);
        b.sack(&[(1001, 2001), (3001, 4001), (7001, 8001)], |_| ());
        assert_eq!(b.fackets_out(), 8);
        assert!(Fack::time_to_recover(&b));
        let mut fack = Fack::default();
        assert_eq!(fack.update_scoreboard(&mut b), 3);
        let lost: Vec<u64> = (0..10).filter(|&i| b.get(end(i)).unwrap().lost).collect();
        assert_eq!(lost, vec![0, 2, 4]);
        // Nothing new: nothing more is lost, and a retransmission of a lost
        // segment is not marked again.
        b.retransmitted(end(0), SimTime(20), TxRate::default());
        assert_eq!(fack.update_scoreboard(&mut b), 0);
        assert_eq!(b.retrans_out(), 1);
    }

    #[test]
    fn three_segments_up_to_the_highest_sack_are_not_enough() {
        let mut b = board(10);
        b.sack(&[(2001, 3001)], |_| ());
        assert_eq!(b.fackets_out(), 3);
        assert!(!Fack::time_to_recover(&b));
        assert_eq!(Fack::default().update_scoreboard(&mut b), 0);
    }

    #[test]
    fn a_retransmission_is_lost_once_data_sent_after_it_is_sacked() {
        // Segment 0 lost and resent when snd_nxt was the end of segment 9.
        let mut b = board(12);
        b.sack(&[(1001, 4001)], |_| ());
        let mut fack = Fack::default();
        fack.update_scoreboard(&mut b);
        b.retransmitted(end(0), SimTime(20), TxRate::default());
        fack.on_retransmit(end(0), end(9));
        // SACKs up to segment 9 say nothing about it.
        b.sack(&[(1001, 10_001)], |_| ());
        assert_eq!(fack.mark_lost_retrans(&mut b), 0);
        // Segment 10, sent after the retransmission, arrived: it is lost.
        b.sack(&[(1001, 11_001)], |_| ());
        assert_eq!(fack.mark_lost_retrans(&mut b), 1);
        assert_eq!((b.retrans_out(), b.lost_out()), (0, 1));
        assert_eq!(b.next_retransmit().unwrap().end, end(0));
    }
}
