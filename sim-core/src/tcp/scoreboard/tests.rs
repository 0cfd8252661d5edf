use super::*;

fn board(n: u64) -> Scoreboard {
    Scoreboard::with_segments(n)
}

#[test]
fn sacked_and_lost_segments_leave_the_pipe_and_retransmissions_rejoin_it() {
    let mut b = board(10);
    assert_eq!(b.in_flight(), 10);
    // Segments 3..5 (seq 3001..6001) SACKed.
    let mut seen = 0;
    assert_eq!(b.sack(&[(3001, 6001)], |_| seen += 1), 3);
    assert_eq!(seen, 3);
    assert_eq!(b.in_flight(), 7);
    assert!(b.mark_lost(1001)); // segment 0
    assert_eq!((b.lost_out(), b.in_flight()), (1, 6));
    let seg = b.next_retransmit().unwrap();
    assert_eq!(seg.seq, 1);
    b.retransmitted(seg.end, SimTime(100), TxRate::default());
    assert_eq!((b.retrans_out(), b.in_flight()), (1, 7));
    assert!(b.next_retransmit().is_none());
}

#[test]
fn a_repeated_sack_block_is_not_counted_twice() {
    let mut b = board(10);
    assert_eq!(b.sack(&[(3001, 5001)], |_| ()), 2);
    // The block grew by one segment: only that one is new.
    assert_eq!(b.sack(&[(3001, 6001)], |_| ()), 1);
    assert_eq!(b.sacked_out(), 3);
}

#[test]
fn a_cumulative_ack_counts_only_segments_not_sacked_before() {
    let mut b = board(5);
    b.sack(&[(2001, 3001)], |_| ());
    let mut delivered = 0;
    assert_eq!(b.ack_up_to(4001, |_| delivered += 1), 4);
    assert_eq!(delivered, 3);
    assert_eq!((b.packets_out(), b.sacked_out()), (1, 0));
}

#[test]
fn an_rto_marks_everything_not_sacked_lost_and_forgets_retransmissions() {
    let mut b = board(4);
    b.sack(&[(2001, 3001)], |_| ());
    b.mark_lost(1001);
    b.retransmitted(1001, SimTime(50), TxRate::default());
    b.mark_all_lost();
    assert_eq!((b.lost_out(), b.retrans_out(), b.in_flight()), (3, 0, 0));
    let order: Vec<u64> = std::iter::from_fn({
        let mut b = b.clone();
        move || {
            let s = b.next_retransmit()?;
            b.retransmitted(s.end, SimTime(60), TxRate::default());
            Some(s.seq)
        }
    })
    .collect();
    assert_eq!(order, vec![1, 1001, 3001]);
}

#[test]
fn splitting_keeps_the_counters_and_the_indexes() {
    let mut b = board(2);
    b.mark_lost(1001);
    b.split(1001, 501);
    assert_eq!((b.packets_out(), b.lost_out()), (3, 2));
    assert_eq!(b.next_retransmit().unwrap().end, 501);
    b.ack_up_to(501, |_| ());
    assert_eq!(b.next_retransmit().unwrap().seq, 501);
}

#[test]
fn tp_lost_counts_each_marking_and_a_lost_retransmission_again() {
    // tcp_mark_skb_lost: a segment marked lost counts once; marking it
    // again changes nothing until it is retransmitted, and a lost
    // retransmission counts again. An RTO counts only what it newly marks.
    let mut b = board(4);
    assert!(b.mark_lost(1001));
    assert!(!b.mark_lost(1001));
    assert_eq!((b.lost(), b.lost_out()), (1, 1));
    b.retransmitted(1001, SimTime(50), TxRate::default());
    assert!(b.mark_lost(1001));
    assert_eq!((b.lost(), b.lost_out()), (2, 1));
    b.mark_all_lost();
    assert_eq!((b.lost(), b.lost_out()), (5, 4));
    // Repairing a loss lowers lost_out; tp->lost never goes down.
    b.ack_up_to(1001, |_| ());
    assert_eq!((b.lost(), b.lost_out()), (5, 3));
}

#[test]
fn reno_dupacks_stand_in_for_sacks() {
    let mut b = board(10);
    for _ in 0..3 {
        b.reno_dupack();
    }
    b.mark_head_lost();
    assert_eq!(b.in_flight(), 10 - 3 - 1);
    // A cumulative ACK of 4 segments: 3 were counted by dup ACKs.
    assert_eq!(b.reno_acked(4), 1);
    assert_eq!(b.sacked_out(), 0);
}

/// The parts `for_each_uncovered` reports, in order.
fn uncovered(start: u64, end: u64, cache: &[(u64, u64)]) -> Vec<(u64, u64)> {
    let mut parts = Vec::new();
    for_each_uncovered(start, end, cache, &mut |s, e| parts.push((s, e)));
    parts
}

#[test]
fn uncovered_subtracts_cached_ranges() {
    assert_eq!(
        uncovered(0, 100, &[(20, 30), (50, 60)]),
        vec![(0, 20), (30, 50), (60, 100)]
    );
    assert_eq!(uncovered(0, 100, &[(0, 100)]), vec![]);
    // A later block cuts the parts an earlier one left, in order.
    assert_eq!(
        uncovered(0, 100, &[(40, 50), (10, 20), (45, 90)]),
        vec![(0, 10), (20, 40), (90, 100)]
    );
}
