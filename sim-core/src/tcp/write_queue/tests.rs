//! The skb arithmetic on its own: sizes from `tcp_xmit_size_goal` and
//! `tcp_tso_autosize`, truesize from the allocations each kernel makes.

use super::*;

const MSS: u32 = 1448;

#[test]
fn the_size_goal_is_45_segments_or_half_the_peers_largest_window() {
    // 65536 − 1 − 320 = 65215 → 45 × 1448 = 65160.
    assert_eq!(size_goal(MSS, 1 << 20), 65_160);
    // tcp_bound_to_half_wnd: 65160 / 2 = 32580 → 22 × 1448.
    assert_eq!(size_goal(MSS, 65_160), 31_856);
    // Never under one MSS, whatever the window; no window seen yet: 64 KB.
    assert_eq!(size_goal(MSS, 1_000), 1_448);
    assert_eq!(size_goal(MSS, 0), 65_160);
}

#[test]
fn tso_packets_carry_a_millisecond_of_the_pacing_rate() {
    // 100 Mbit/s = 12.5 MB/s: 12207 B per 1024 µs → 8 segments.
    let rate = 12_500_000;
    assert_eq!(tso_segs(TsoSize::PacingRate, rate, None, MSS, 2), 8);
    // At least tcp_min_tso_segs, at most 64 KB (45 segments).
    assert_eq!(tso_segs(TsoSize::PacingRate, 100_000, None, MSS, 2), 2);
    assert_eq!(tso_segs(TsoSize::PacingRate, 1 << 40, None, MSS, 2), 45);
    // 6.x adds 65215 >> (min_rtt_us >> 9): nothing at 20 ms (20000 >> 9 =
    // 39), 65215 >> 13 = 7 bytes at 7 ms, all of 64 KB under 512 µs.
    assert_eq!(tso_segs(TsoSize::MinRttGrow, rate, Some(20_000), MSS, 2), 8);
    assert_eq!(
        tso_segs(TsoSize::MinRttGrow, 2_896 << 10, Some(7_000), MSS, 2),
        2
    );
    assert_eq!(tso_segs(TsoSize::MinRttGrow, 0, Some(300), MSS, 2), 45);
}

#[test]
fn a_heads_truesize_is_what_each_kernel_allocates() {
    // 6.3+: skb_small_head_cache, 384 + 256 + 320.
    assert_eq!(TxSkbHead::SmallHead.fresh(true), (960, 0));
    assert_eq!(TxSkbHead::SmallHead.split(), 960);
    // kmalloc(320 + 320) → 1024, + sk_buff.
    assert_eq!(TxSkbHead::Kmalloc1k.fresh(true), (1_280, 0));
    // 2 KB heads with 1408 bytes of payload room: 3.10 always, 4.18 first.
    assert_eq!(TxSkbHead::Linear2k.fresh(false), (2_304, 1_408));
    assert_eq!(TxSkbHead::FirstLinear2k.fresh(true), (2_304, 1_408));
    assert_eq!(TxSkbHead::FirstLinear2k.fresh(false), (1_280, 0));
    assert_eq!(TxSkbHead::Linear2k.split(), 1_280);
}

#[test]
fn appending_charges_paged_bytes_one_for_one_and_linear_ones_not_at_all() {
    let mut q = WriteQueue::new(TxSkbHead::Linear2k, 1);
    q.entail(1);
    q.append(1_000);
    assert_eq!(q.wmem_queued(), 2_304);
    q.append(2_000);
    assert_eq!(q.wmem_queued(), 2_304 + 3_000 - 1_408);
    assert_eq!(q.tail_room(4_344), 1_344);
}

#[test]
fn a_cut_gives_the_rest_a_new_head_and_its_own_bytes() {
    // tso_fragment: buff->truesize = head + nlen, skb->truesize −= nlen.
    let mut q = WriteQueue::new(TxSkbHead::SmallHead, 1);
    q.entail(1);
    q.append(10 * MSS as u64);
    assert_eq!(q.transmit_send_head(2 * MSS as u64), 1 + 2 * MSS as u64);
    assert_eq!(q.wmem_queued(), 10 * MSS as u64 + 2 * 960);
    assert_eq!(q.send_head(), Some((1 + 2 * MSS as u64, 8 * MSS as u64)));
    // The rest is the unsent tail again: room up to the goal.
    assert_eq!(q.tail_room(10 * MSS as u64), 2 * MSS as u64);
    assert!(q.tail_is_send_head());
}

#[test]
fn growing_the_send_head_empties_and_frees_a_short_next_skb() {
    // tcp_grow_skb: 1 segment left in the head, 1 in the next skb; a
    // 2-segment packet takes the next skb's bytes and frees its head.
    let mut q = WriteQueue::new(TxSkbHead::SmallHead, 1);
    q.entail(1);
    q.append(MSS as u64);
    q.entail(1 + MSS as u64);
    q.append(MSS as u64);
    assert_eq!(q.wmem_queued(), 2 * (MSS as u64 + 960));
    q.grow_send_head(MSS as u64);
    assert_eq!(q.send_head(), Some((1, 2 * MSS as u64)));
    assert_eq!(q.wmem_queued(), 2 * MSS as u64 + 960);
}

/// One skb of `payload` bytes from `head`, with `packets` two-segment TSO
/// packets cut off its front and sent.
fn sent(head: TxSkbHead, payload: u64, packets: usize) -> WriteQueue {
    let mut q = WriteQueue::new(head, 1);
    q.entail(1);
    q.append(payload);
    for _ in 0..packets {
        q.transmit_send_head(2 * MSS as u64);
    }
    q
}

#[test]
fn an_ack_frees_whole_skbs_and_trims_paged_bytes_off_a_partly_acked_one() {
    let mut q = sent(TxSkbHead::Kmalloc1k, 6 * MSS as u64, 2);
    assert_eq!(q.wmem_queued(), 6 * MSS as u64 + 3 * 1_280);
    // Half the second packet: the first skb freed, the second trimmed.
    assert!(q.ack(1 + 3 * MSS as u64));
    assert_eq!(q.wmem_queued(), 3 * MSS as u64 + 2 * 1_280);
    // The rest of it: freed. Unsent data is never freed.
    assert!(q.ack(1 + 4 * MSS as u64));
    assert!(!q.ack(1 + 6 * MSS as u64));
    assert_eq!(q.wmem_queued(), 2 * MSS as u64 + 1_280);
}

#[test]
fn trimming_a_linear_head_frees_nothing() {
    // Before 6.x __pskb_trim_head pulls linear bytes without freeing memory;
    // only paged bytes leave truesize.
    let mut q = sent(TxSkbHead::Linear2k, 2 * MSS as u64, 1);
    let before = q.wmem_queued();
    q.ack(1 + MSS as u64);
    assert_eq!(q.wmem_queued(), before - (MSS as u64 - 1_408));
}
