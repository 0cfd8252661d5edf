//! The send queue as Linux lays it out with GSO (`SendSkbs::Gso`): the skbs
//! between snd_una and write_seq, and what each costs (`sk_wmem_queued`).
//!
//! `tcp_sendmsg_locked` appends to the unsent tail skb until it holds the size
//! goal (`tcp_xmit_size_goal`: up to 45 × 1448 bytes, half the peer's largest
//! window at most), with no look at the send buffer; only a new skb needs
//! `sk_stream_memory_free`. `tcp_write_xmit` then cuts the unsent skbs into
//! TSO packets of about 1 ms of the pacing rate (`tcp_tso_segs`), and every
//! cut (`tso_fragment`) allocates another skb head for the rest, which is
//! again the unsent tail the next write tops up:
//!
//! ```text
//!   snd_una                 snd_nxt                         write_seq
//!     │ sent (rtx queue)       │ unsent (write queue)           │
//!     ├──────┬──────┬──────────┼────────────────────────────────┤
//!     │ 2896 │ 2896 │  ...     │ tail: topped up to size_goal    │
//!     └──────┴──────┴──────────┴────────────────────────────────┘
//!   each skb costs its payload + its head (960 bytes on 6.3+, 1280 before)
//! ```
//!
//! An ACK frees the skbs it covers whole, and trims the paged payload off a
//! partly acknowledged one (`tcp_trim_head`), whose head stays charged.
//!
//! The simulator puts MSS-sized segments on the wire (it has no TSO there);
//! only the accounting follows the kernel's skbs. Simplified: retransmissions
//! never split an skb (`tcp_fragment` on the rtx queue) and SACK never merges
//! skbs (`tcp_shift_skb_data`); `tso_fragment` of an skb whose linear part
//! reaches past the cut (MSS under 1408 on 3.10/4.18) is charged as if the
//! moved bytes were paged.

use std::collections::VecDeque;

use super::send_buffer::{MAX_TCP_HEADER, SHINFO, SK_BUFF};
use crate::config::{TsoSize, TxSkbHead};

/// `sk_gso_max_size` for TCP over a device with the default 64 KB GSO limit:
/// `GSO_LEGACY_MAX_SIZE` − (MAX_TCP_HEADER + 1) (`sk_dst_gso_max_size`; the
/// same bound `tcp_xmit_size_goal` applied itself before 6.x).
pub const GSO_MAX_SIZE: u64 = 65_536 - 1 - MAX_TCP_HEADER;

/// `TCP_MSS_DEFAULT`: a peer window at most this big is not halved for the size goal.
const TCP_MSS_DEFAULT: u64 = 536;

/// TCP header with timestamps (`tcp_header_len`): `tcp_bound_to_half_wnd`
/// never goes below 68 bytes of segment.
const TCP_HEADER_LEN: u64 = 32;

/// `SKB_WITH_OVERHEAD(2048 - MAX_TCP_HEADER)`: payload a 2 KB skb head holds
/// (`select_size`, `linear_payload_sz`).
pub const LINEAR_PAYLOAD: u64 = 2048 - MAX_TCP_HEADER - SHINFO;

/// Truesize of an skb from `skb_small_head_cache` (6.3+): a 384-byte head
/// (MAX_TCP_HEADER rounded up with `GRO_MAX_HEAD_PAD`) + `struct sk_buff` +
/// `skb_shared_info`, on x86-64.
pub const SMALL_HEAD_TRUESIZE: u64 = 384 + SK_BUFF + SHINFO;

/// Truesize of a kmalloc'd skb head with room for `linear` payload bytes:
/// `alloc_skb(linear + MAX_TCP_HEADER)` rounds head + shinfo up to a power of
/// two, plus the `struct sk_buff` (1280 with no payload, 2304 with 1408).
fn kmalloc_head(linear: u64) -> u64 {
    (linear + MAX_TCP_HEADER + SHINFO).next_power_of_two() + SK_BUFF
}

impl TxSkbHead {
    /// Truesize and linear room of an skb `tcp_sendmsg` allocates; `first`:
    /// both queues are empty (`tcp_rtx_and_write_queues_empty`).
    fn fresh(self, first: bool) -> (u64, u64) {
        let linear = match self {
            TxSkbHead::Linear2k => LINEAR_PAYLOAD,
            TxSkbHead::FirstLinear2k if first => LINEAR_PAYLOAD,
            TxSkbHead::SmallHead => return (SMALL_HEAD_TRUESIZE, 0),
            _ => 0,
        };
        (kmalloc_head(linear), linear)
    }

    /// Truesize of the head `tso_fragment` allocates for the rest of a cut skb.
    fn split(self) -> u64 {
        match self {
            TxSkbHead::SmallHead => SMALL_HEAD_TRUESIZE,
            _ => kmalloc_head(0),
        }
    }
}

/// `tcp_xmit_size_goal` → `tcp_bound_to_half_wnd`: how much `tcp_sendmsg`
/// puts in one skb: 64 KB, at most half the largest window the peer has
/// offered (`max_window`), in whole MSS, at least one.
pub fn size_goal(mss: u32, max_window: u64) -> u64 {
    let mss = mss as u64;
    let cutoff = if max_window > TCP_MSS_DEFAULT {
        max_window / 2
    } else {
        max_window
    };
    let goal = if cutoff > 0 && GSO_MAX_SIZE > cutoff {
        cutoff.max(68 - TCP_HEADER_LEN)
    } else {
        GSO_MAX_SIZE
    };
    (goal / mss * mss).max(mss)
}

/// `tcp_tso_segs` → `tcp_tso_autosize`: segments per TSO packet, about 1 ms of
/// `pacing_rate` (bytes/s, `>> sk_pacing_shift` 10), at least `min_segs`;
/// with [`TsoSize::MinRttGrow`] plus `GSO_MAX_SIZE >> (min_rtt_us >> 9)`
/// (`tcp_tso_rtt_log`), which is nothing from about 16 ms of RTT up.
pub fn tso_segs(
    size: TsoSize,
    pacing_rate: u64,
    min_rtt_us: Option<u64>,
    mss: u32,
    min_segs: u32,
) -> u32 {
    let mut bytes = pacing_rate >> 10;
    if let (TsoSize::MinRttGrow, Some(rtt)) = (size, min_rtt_us) {
        let r = rtt >> 9;
        if r < 32 {
            bytes += GSO_MAX_SIZE >> r;
        }
    }
    ((bytes.min(GSO_MAX_SIZE) / mss as u64) as u32).max(min_segs)
}

/// One skb: where it ends, its truesize, and its payload in the linear head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Skb {
    /// Sequence number after its last byte; it starts where the one before ends.
    end: u64,
    /// `skb->truesize`.
    truesize: u64,
    /// Payload bytes in the linear head (trimming them frees nothing).
    linear: u64,
    /// Room left in the linear head for the next bytes copied in.
    linear_room: u64,
}

/// Bytes one skb takes in the queues, for the cost estimates (`sim::cost`).
pub(crate) const SKB_BYTES: usize = std::mem::size_of::<Skb>();

/// The skbs of the retransmission queue and the write queue, in order. Two
/// deques, so that cutting a TSO packet off the send head (`tso_fragment`)
/// moves no other skb, however many wait behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteQueue {
    head: TxSkbHead,
    /// Sent skbs (`tcp_rtx_queue`), oldest first.
    rtx: VecDeque<Skb>,
    /// Unsent skbs (`sk_write_queue`); the first is the send head.
    unsent: VecDeque<Skb>,
    /// Where the first skb starts: snd_una once ACKs trimmed it.
    start: u64,
    /// `sk_wmem_queued`: the truesize of all of them.
    wmem_queued: u64,
}

impl WriteQueue {
    /// An empty queue whose first byte will be `start` (the ISN + 1).
    pub fn new(head: TxSkbHead, start: u64) -> Self {
        WriteQueue {
            head,
            rtx: VecDeque::new(),
            unsent: VecDeque::new(),
            start,
            wmem_queued: 0,
        }
    }

    /// `sk_wmem_queued`.
    pub fn wmem_queued(&self) -> u64 {
        self.wmem_queued
    }

    /// Where the sent skbs end: the start of the first unsent one.
    pub fn sent_end(&self) -> u64 {
        self.rtx.back().map_or(self.start, |skb| skb.end)
    }

    /// The `k`th unsent skb's start and length.
    fn unsent_span(&self, k: usize) -> (u64, u64) {
        let start = match k {
            0 => self.sent_end(),
            k => self.unsent[k - 1].end,
        };
        (start, self.unsent[k].end - start)
    }

    /// Bytes `tcp_sendmsg` may still append to the tail skb without a memory
    /// check: up to `goal`, if the tail is unsent (`copy = size_goal - skb->len`).
    pub fn tail_room(&self, goal: u64) -> u64 {
        match self.unsent.len() {
            0 => 0,
            n => goal.saturating_sub(self.unsent_span(n - 1).1),
        }
    }

    /// The tail skb is the first unsent one (`skb == tcp_send_head(sk)`).
    pub fn tail_is_send_head(&self) -> bool {
        self.unsent.len() == 1
    }

    /// `tcp_stream_alloc_skb` + `tcp_skb_entail`: a new empty skb at the tail,
    /// starting at `write_seq`; its head is charged at once.
    pub fn entail(&mut self, write_seq: u64) {
        let empty = self.rtx.is_empty() && self.unsent.is_empty();
        let (truesize, linear_room) = self.head.fresh(empty);
        if empty {
            self.start = write_seq;
        }
        self.unsent.push_back(Skb {
            end: write_seq,
            truesize,
            linear: 0,
            linear_room,
        });
        self.wmem_queued += truesize;
    }

    /// Copies `bytes` into the tail skb: the linear head first (already
    /// paid for), then page fragments, charged byte for byte.
    pub fn append(&mut self, bytes: u64) {
        let skb = self.unsent.back_mut().expect("an unsent skb to append to");
        let linear = bytes.min(skb.linear_room);
        skb.linear += linear;
        skb.linear_room -= linear;
        skb.truesize += bytes - linear;
        skb.end += bytes;
        self.wmem_queued += bytes - linear;
    }

    /// Skbs sent and not yet acknowledged (`tcp_rtx_queue`).
    pub fn rtx_skbs(&self) -> usize {
        self.rtx.len()
    }

    /// Truesize of the last skb sent: the TSO packet just cut.
    pub fn last_sent_truesize(&self) -> u64 {
        self.rtx.back().map_or(0, |skb| skb.truesize)
    }

    /// The first unsent skb (`tcp_send_head`): its start and length.
    pub fn send_head(&self) -> Option<(u64, u64)> {
        (!self.unsent.is_empty()).then(|| self.unsent_span(0))
    }

    /// `tcp_grow_skb`: moves up to `bytes` from the next skb into the send
    /// head, freeing the next skb if that empties it. `skb_shift` moves paged
    /// data only, so a next skb with a linear part stays as it is.
    pub fn grow_send_head(&mut self, bytes: u64) {
        if self.unsent.len() < 2 || self.unsent[1].linear > 0 {
            return;
        }
        let moved = bytes.min(self.unsent_span(1).1);
        self.unsent[0].end += moved;
        self.unsent[0].truesize += moved;
        self.unsent[1].truesize -= moved;
        if self.unsent[1].end == self.unsent[0].end {
            // tcp_eat_one_skb: the emptied skb and its head are freed.
            let eaten = self.unsent.remove(1).expect("the next skb");
            self.wmem_queued -= eaten.truesize;
        }
    }

    /// `tcp_write_xmit` hands the send head to the wire as one TSO packet of
    /// at most `limit` bytes: `tso_fragment` first cuts off the rest as a
    /// new unsent skb with a head of its own. Returns where the packet ends.
    pub fn transmit_send_head(&mut self, limit: u64) -> u64 {
        let start = self.sent_end();
        let split = self.head.split();
        let head = self.unsent.front_mut().expect("unsent data");
        let len = head.end - start;
        if len <= limit {
            let skb = self.unsent.pop_front().expect("unsent data");
            self.rtx.push_back(skb);
            return skb.end;
        }
        // tcp_fragment's nsize: linear bytes past the cut move along. The
        // rest stays in place as the new send head, with a head of its own.
        let moved_linear = head.linear.saturating_sub(limit);
        let paged = len - limit - moved_linear;
        let sent = Skb {
            end: start + limit,
            truesize: head.truesize - paged,
            linear: head.linear - moved_linear,
            linear_room: head.linear_room,
        };
        *head = Skb {
            end: head.end,
            truesize: split + paged,
            linear: moved_linear,
            linear_room: 0,
        };
        self.wmem_queued += split;
        self.rtx.push_back(sent);
        sent.end
    }

    /// The peer acknowledged everything before `snd_una`: fully acknowledged
    /// skbs are freed (`tcp_clean_rtx_queue` → `tcp_wmem_free_skb`), a partly
    /// acknowledged one loses its paged bytes (`tcp_trim_head`). Returns
    /// whether an skb was freed (`SOCK_QUEUE_SHRUNK`).
    pub fn ack(&mut self, snd_una: u64) -> bool {
        let mut freed = false;
        while let Some(skb) = self.rtx.front().copied() {
            if skb.end > snd_una {
                break;
            }
            self.rtx.pop_front();
            self.wmem_queued -= skb.truesize;
            self.start = skb.end;
            freed = true;
        }
        if snd_una > self.start
            && let Some(skb) = self.rtx.front_mut()
        {
            let trimmed = snd_una - self.start;
            let linear = trimmed.min(skb.linear);
            skb.linear -= linear;
            skb.truesize -= trimmed - linear;
            self.wmem_queued -= trimmed - linear;
            self.start = snd_una;
        }
        freed
    }
}

#[cfg(test)]
mod tests;
