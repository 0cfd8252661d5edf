//! The send buffer: how much an application may hand TCP before `write()`
//! blocks, counted the way Linux counts it.
//!
//! Linux charges every queued skb its *truesize*: payload plus the skb's own
//! bookkeeping (`struct sk_buff`, `skb_shared_info`, the kmalloc'd head with
//! room for headers), so a buffer holds noticeably less payload than its byte
//! value. That is why `setsockopt(SO_SNDBUF, n)` stores 2n (man 7 socket).
//!
//! ```text
//!   write() ─► accepted while wmem_queued < sk_sndbuf          (sk_stream_memory_free)
//!              blocked writer wakes when wmem_queued ≤ ⅔ sk_sndbuf (sk_stream_write_space)
//!   autotuning (no SO_SNDBUF): sk_sndbuf = 2 · max(cwnd, 10) · per_mss, ≤ tcp_wmem[2]
//! ```
//!
//! The model charges each MSS-sized piece as a separate skb (Linux without
//! TSO/GSO, as in many virtual machines): the payload sits in page fragments,
//! plus a kmalloc'd head for the headers and `skb_shared_info`, plus the
//! `struct sk_buff` itself. With segmentation offload Linux queues larger skbs
//! and the overhead per byte is smaller.

/// `MAX_TCP_HEADER` (128 + the link-layer reserve) on x86-64.
pub const MAX_TCP_HEADER: u64 = 320;
/// `SKB_DATA_ALIGN(sizeof(struct skb_shared_info))`.
pub const SHINFO: u64 = 320;
/// `SKB_DATA_ALIGN(sizeof(struct sk_buff))`.
pub const SK_BUFF: u64 = 256;

/// Truesize of one skb carrying `payload` bytes in page fragments: the
/// payload, the head (MAX_TCP_HEADER + shinfo, kmalloc'd, so rounded up to a
/// power of two) and the `struct sk_buff`.
pub fn truesize(payload: u64) -> u64 {
    payload + (MAX_TCP_HEADER + SHINFO).next_power_of_two() + SK_BUFF
}

/// `tcp_sndbuf_expand`'s per-segment allowance: roundup_pow_of_two(mss +
/// MAX_TCP_HEADER + shinfo) + sk_buff, with mss the clamp (payload + 12).
pub fn per_mss(mss: u32) -> u64 {
    ((mss as u64 + 12) + MAX_TCP_HEADER + SHINFO).next_power_of_two() + SK_BUFF
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SendBuffer {
    /// `sk_sndbuf` in bytes.
    pub sndbuf: u64,
    /// `tcp_wmem[2]`: autotuning's ceiling.
    max: u64,
    autotune: bool,
    mss: u32,
    /// Bytes the application has asked to write but TCP has not taken yet.
    pub backlog: u64,
    /// The writer is blocked in `write()`.
    pub blocked: bool,
}

impl SendBuffer {
    pub fn new(sndbuf: u64, max: u64, autotune: bool, mss: u32) -> Self {
        SendBuffer {
            sndbuf,
            max: max.max(sndbuf),
            autotune,
            mss,
            backlog: 0,
            blocked: false,
        }
    }

    /// `sk_wmem_queued` for `queued` bytes (unsent + unacknowledged).
    pub fn wmem_queued(&self, queued: u64) -> u64 {
        let mss = self.mss as u64;
        let full = queued / mss;
        let rest = queued % mss;
        full * truesize(mss) + if rest > 0 { truesize(rest) } else { 0 }
    }

    /// `tcp_sndbuf_expand`, called as cwnd grows (`tcp_new_space`): room for
    /// `factor` windows (the algorithm's `.sndbuf_expand`, 2 unless BBR's 3).
    pub fn expand(&mut self, cwnd: u32, factor: u32) {
        if self.autotune {
            let want = factor as u64 * (cwnd.max(10) as u64) * per_mss(self.mss);
            self.sndbuf = self.sndbuf.max(want.min(self.max));
        }
    }

    /// How many bytes `write()` hands TCP now, given `queued` bytes already in
    /// the socket: whole segments while the buffer has room (the last may
    /// overshoot it, as Linux's copy loop does). Sets `blocked` when some of
    /// the backlog must wait.
    pub fn accept(&mut self, queued: u64) -> u64 {
        if self.blocked {
            return 0;
        }
        let mut taken = 0;
        while self.backlog > taken && self.wmem_queued(queued + taken) < self.sndbuf {
            taken += (self.backlog - taken).min(self.mss as u64);
        }
        self.blocked = taken < self.backlog;
        self.backlog -= taken;
        taken
    }

    /// `sk_stream_write_space`: wake a blocked writer once a third of the
    /// buffer is free again.
    pub fn on_acked(&mut self, queued: u64) {
        if self.blocked && 3 * self.wmem_queued(queued) <= 2 * self.sndbuf {
            self.blocked = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_1448_byte_segment_costs_2728_bytes_of_buffer() {
        // 1448 of payload + a 1024-byte head (640 rounded up) + 256 of sk_buff.
        assert_eq!(truesize(1448), 2728);
        // The autotuning allowance uses the kernel's own rounding:
        // roundup_pow_of_two(1460 + 320 + 320) + 256.
        assert_eq!(per_mss(1448), 4096 + 256);
    }

    #[test]
    fn so_sndbuf_16k_holds_about_18k_of_payload() {
        // SO_SNDBUF 16 KB is stored doubled: 32768 bytes. 12 segments take 32736,
        // still under it, so a 13th is copied in (18824 bytes of payload).
        let mut b = SendBuffer::new(32_768, 32_768, false, 1448);
        b.backlog = 1_000_000;
        assert_eq!(b.accept(0), 13 * 1448);
        assert!(b.blocked);
        // The writer wakes once at most 2/3 of 32768 (21845) is queued: 8 segments
        // (21824), not 9 (24552).
        b.on_acked(9 * 1448);
        assert!(b.blocked);
        b.on_acked(8 * 1448);
        assert!(!b.blocked);
        assert_eq!(b.accept(8 * 1448), 5 * 1448);
    }

    #[test]
    fn autotuning_grows_with_cwnd_up_to_tcp_wmem_max() {
        let mut b = SendBuffer::new(16_384, 4_194_304, true, 1448);
        b.expand(10, 2);
        assert_eq!(b.sndbuf, 2 * 10 * 4352);
        b.expand(10_000, 2);
        assert_eq!(b.sndbuf, 4_194_304);
    }
}
