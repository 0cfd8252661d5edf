//! The send buffer: how much an application may hand TCP before `write()`
//! blocks, counted the way Linux counts it.
//!
//! Linux charges every queued skb its *truesize*: payload plus the skb's own
//! bookkeeping (`struct sk_buff`, `skb_shared_info`, the head with room for
//! headers), so a buffer holds noticeably less payload than its byte value.
//! That is why `setsockopt(SO_SNDBUF, n)` stores 2n (man 7 socket).
//!
//! ```text
//!   new skb ─► only while wmem_queued < sk_sndbuf         (sk_stream_memory_free)
//!              and unsent < tcp_notsent_lowat             (tcp_stream_memory_free)
//!   (GSO: asked for only when the tail skb holds the size goal and the
//!    copy loop's push is over: cwnd full, or TCP Small Queues holding a
//!    packet; each packet pushed before that is topped up unchecked)
//!   blocked writer wakes when sk_sndbuf − wmem_queued ≥ wmem_queued / 2
//!              and unsent (× 2 on 5.x+) < tcp_notsent_lowat (sk_stream_write_space)
//!   autotuning (no SO_SNDBUF): sk_sndbuf = 2 · max(cwnd, 10) · per_mss, ≤ tcp_wmem[2]
//! ```
//!
//! Two ways of cutting the data into skbs (`SendSkbs`):
//!
//! - **Per MSS** (what the model did before eras; a device without
//!   scatter-gather): each MSS-sized piece is a separate skb, its payload in
//!   page fragments plus a kmalloc'd head and the `struct sk_buff`, and the
//!   buffer is checked before each one. Its wake-up and autotuning are the
//!   model's: a third of the buffer free, and `tcp_sndbuf_expand` on every ACK.
//! - **GSO** (3.10 on, with scatter-gather; every device since 4.17):
//!   multi-segment skbs up to the size goal, checked only when a new skb is
//!   needed, so `sk_wmem_queued` runs past `sk_sndbuf` ([`WriteQueue`]); the
//!   writer wakes and the buffer grows as `tcp_check_space` rules it: only
//!   while the writer sleeps (`SOCK_NOSPACE`), and grows only while cwnd is
//!   not full (`tcp_should_expand_sndbuf`).

use super::write_queue::WriteQueue;
use crate::config::{Behaviour, NotsentLowat, SendSkbs, SenderConfig, TsoSize};
use crate::time::SimTime;

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
    /// The writer is blocked in `write()` (`SOCK_NOSPACE`).
    pub blocked: bool,
    /// `tcp_notsent_lowat(tp)`.
    lowat: u64,
    lowat_rule: NotsentLowat,
    /// The skbs, with [`SendSkbs::Gso`]; `None`: one per MSS.
    pub gso: Option<Gso>,
}

/// What `tcp_sendmsg` and `tcp_write_xmit` keep with GSO skbs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gso {
    pub queue: WriteQueue,
    pub tso_size: TsoSize,
    pub check_space_on_send: bool,
    /// An ACK came in since the last `tcp_check_space` (with
    /// `check_space_on_send`), or freed an skb (`SOCK_QUEUE_SHRUNK`).
    pub space_check_due: bool,
    /// This `write()` has copied something (`copied` in `tcp_sendmsg_locked`).
    pub copied: bool,
    /// A TSO packet was cut for the segment about to leave.
    pub packet_started: bool,
    /// TCP Small Queues refused that packet the device (`tcp_small_queue_check`).
    pub packet_throttled: bool,
    /// The copy loop stopped for a push of its own, and goes on when that
    /// push is over.
    pub push: Option<CopyPush>,
    /// What TCP Small Queues counts (`sk_wmem_alloc`): the truesize of the
    /// packets handed to the device at `device_at`. The copy loop runs in
    /// microseconds, faster than a device completes a packet, so the
    /// packets of one instant all count; by the next instant (an ACK, a
    /// timer) the device has completed them.
    pub device_at: SimTime,
    pub device_bytes: u64,
}

/// A push `tcp_sendmsg_locked` makes from its copy loop, which goes on once
/// `tcp_write_xmit` stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyPush {
    /// `tcp_push_one`: the tail skb reached the size goal as the send head;
    /// one TSO packet (`push_one` = 1), then the copy tops the tail up.
    One,
    /// `forced_push` (half the peer's largest window written since the last
    /// PSH): `__tcp_push_pending_frames` sends what it may.
    All,
}

impl SendBuffer {
    pub fn new(cfg: &SenderConfig, behaviour: &Behaviour, write_seq: u64) -> Self {
        let gso = (behaviour.send_skbs == SendSkbs::Gso).then(|| Gso {
            queue: WriteQueue::new(behaviour.tx_skb_head, write_seq),
            tso_size: behaviour.tso_size,
            check_space_on_send: behaviour.check_space_on_send,
            space_check_due: false,
            copied: false,
            packet_started: false,
            packet_throttled: false,
            push: None,
            device_at: SimTime::ZERO,
            device_bytes: 0,
        });
        SendBuffer {
            sndbuf: cfg.sndbuf,
            max: cfg.sndbuf_max.max(cfg.sndbuf),
            autotune: cfg.sndbuf_autotune,
            mss: cfg.mss,
            backlog: 0,
            blocked: false,
            lowat: cfg.notsent_lowat as u64,
            lowat_rule: behaviour.notsent_lowat,
            gso,
        }
    }

    /// `sk_wmem_queued` for `queued` bytes (unsent + unacknowledged): the
    /// skbs' truesize.
    pub fn wmem_queued(&self, queued: u64) -> u64 {
        if let Some(g) = &self.gso {
            return g.queue.wmem_queued();
        }
        let mss = self.mss as u64;
        let full = queued / mss;
        let rest = queued % mss;
        full * truesize(mss) + if rest > 0 { truesize(rest) } else { 0 }
    }

    /// `tcp_sndbuf_expand`, at the handshake (`tcp_init_buffer_space`) and as
    /// `tcp_new_space` allows: room for `factor` windows (the algorithm's
    /// `.sndbuf_expand`, 2 unless BBR's 3) of at least 10 segments.
    /// (`tp->reordering + 1` segments, the third bound, is never the largest here.)
    ///
    /// This is the rule of 3.10, 4.18, 5.4 and 6.18 alike (read in each). CentOS
    /// 6's 2.6.32 differs and is not modelled: at the handshake
    /// `tcp_fixup_sndbuf` gives 10 × (mss_clamp + MAX_TCP_HEADER + 16 +
    /// sizeof(sk_buff)), not doubled, and `tcp_new_space` 2 × max(cwnd,
    /// reordering + 1) of that size, with no 10-segment floor; its era host
    /// keeps the model's rule (it matters only without `SO_SNDBUF`).
    pub fn expand(&mut self, cwnd: u32, factor: u32) {
        if self.autotune {
            let want = factor as u64 * (cwnd.max(10) as u64) * per_mss(self.mss);
            self.sndbuf = self.sndbuf.max(want.min(self.max));
        }
    }

    /// `tcp_should_expand_sndbuf`, given whether cwnd is full: not set by
    /// `SO_SNDBUF` (`SOCK_SNDBUF_LOCK`; no memory pressure is modelled).
    pub fn should_expand(&self, cwnd_full: bool) -> bool {
        self.autotune && !cwnd_full
    }

    /// `tcp_stream_memory_free(sk, wake)`: `unsent << wake < tcp_notsent_lowat`,
    /// with the shift only on kernels that have it.
    fn notsent_ok(&self, unsent: u64, wake: bool) -> bool {
        match self.lowat_rule {
            NotsentLowat::Absent => true,
            NotsentLowat::Unsent => unsent < self.lowat,
            NotsentLowat::HalfUnsent => unsent << (wake as u32) < self.lowat,
        }
    }

    /// `sk_stream_memory_free`: `tcp_sendmsg` may allocate a new skb.
    pub fn memory_free(&self, wmem_queued: u64, unsent: u64) -> bool {
        wmem_queued < self.sndbuf && self.notsent_ok(unsent, false)
    }

    /// `__sk_stream_is_writeable(sk, 1)`, which `sk_stream_write_space` asks
    /// before waking the writer: free space at least half what is queued
    /// (`sk_stream_wspace ≥ sk_stream_min_wspace`), and memory free for a
    /// waker (`wake` = 1).
    pub fn writeable(&self, wmem_queued: u64, unsent: u64) -> bool {
        self.sndbuf.saturating_sub(wmem_queued) >= wmem_queued >> 1
            && wmem_queued < self.sndbuf
            && self.notsent_ok(unsent, true)
    }

    /// Per MSS: how many bytes `write()` hands TCP now, given `queued` bytes
    /// already in the socket, `unsent` of them not sent: whole segments while
    /// the buffer has room (the last may overshoot it, as Linux's copy loop
    /// does). Sets `blocked` when some of the backlog must wait.
    pub fn accept(&mut self, queued: u64, unsent: u64) -> u64 {
        if self.blocked {
            return 0;
        }
        let mut taken = 0;
        while self.backlog > taken
            && self.wmem_queued(queued + taken) < self.sndbuf
            && self.notsent_ok(unsent + taken, false)
        {
            taken += (self.backlog - taken).min(self.mss as u64);
        }
        self.blocked = taken < self.backlog;
        self.backlog -= taken;
        taken
    }

    /// Per MSS, `sk_stream_write_space` as the model has it: wake a blocked
    /// writer once a third of the buffer is free again.
    pub fn on_acked(&mut self, queued: u64, unsent: u64) {
        if self.blocked
            && 3 * self.wmem_queued(queued) <= 2 * self.sndbuf
            && self.notsent_ok(unsent, true)
        {
            self.blocked = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Kernel;

    /// A per-MSS buffer of `sndbuf` bytes, autotuned up to `max` or locked.
    fn per_mss(sndbuf: u64, max: u64, autotune: bool) -> SendBuffer {
        let cfg = SenderConfig {
            sndbuf,
            sndbuf_max: max,
            sndbuf_autotune: autotune,
            ..SenderConfig::default()
        };
        SendBuffer::new(&cfg, &Behaviour::model(), 1)
    }

    /// Today's kernel's buffer (GSO skbs) of `sndbuf` bytes, locked, with
    /// `TCP_NOTSENT_LOWAT` = `lowat`.
    fn today(sndbuf: u64, lowat: u32) -> SendBuffer {
        let cfg = SenderConfig {
            sndbuf,
            sndbuf_max: sndbuf,
            sndbuf_autotune: false,
            notsent_lowat: lowat,
            ..SenderConfig::default()
        };
        SendBuffer::new(&cfg, &Kernel::Today.behaviour(), 1)
    }

    #[test]
    fn a_1448_byte_segment_costs_2728_bytes_of_buffer() {
        // 1448 of payload + a 1024-byte head (640 rounded up) + 256 of sk_buff.
        assert_eq!(truesize(1448), 2728);
        // The autotuning allowance uses the kernel's own rounding:
        // roundup_pow_of_two(1460 + 320 + 320) + 256.
        assert_eq!(super::per_mss(1448), 4096 + 256);
    }

    #[test]
    fn so_sndbuf_16k_holds_about_18k_of_payload() {
        // SO_SNDBUF 16 KB is stored doubled: 32768 bytes. 12 segments take 32736,
        // still under it, so a 13th is copied in (18824 bytes of payload).
        let mut b = per_mss(32_768, 32_768, false);
        b.backlog = 1_000_000;
        assert_eq!(b.accept(0, 0), 13 * 1448);
        assert!(b.blocked);
        // The writer wakes once at most 2/3 of 32768 (21845) is queued: 8 segments
        // (21824), not 9 (24552).
        b.on_acked(9 * 1448, 0);
        assert!(b.blocked);
        b.on_acked(8 * 1448, 0);
        assert!(!b.blocked);
        assert_eq!(b.accept(8 * 1448, 0), 5 * 1448);
    }

    #[test]
    fn autotuning_grows_with_cwnd_up_to_tcp_wmem_max() {
        let mut b = per_mss(16_384, 4_194_304, true);
        b.expand(10, 2);
        assert_eq!(b.sndbuf, 2 * 10 * 4352);
        b.expand(10_000, 2);
        assert_eq!(b.sndbuf, 4_194_304);
    }

    #[test]
    fn a_new_skb_needs_wmem_queued_below_sk_sndbuf_and_unsent_below_the_lowat() {
        // sk_stream_memory_free: wmem_queued < sk_sndbuf, then
        // tcp_stream_memory_free(sk, 0): unsent < tcp_notsent_lowat.
        let b = today(32_768, 16_384);
        assert!(b.memory_free(32_767, 16_383));
        assert!(!b.memory_free(32_768, 0));
        assert!(!b.memory_free(0, 16_384));
    }

    #[test]
    fn the_writer_wakes_at_two_thirds_of_the_buffer_and_half_the_lowat() {
        // sk_stream_wspace ≥ sk_stream_min_wspace: 32768 − w ≥ w >> 1, so
        // w ≤ 21845 (21845 >> 1 = 10922 ≤ 10923; 21846 >> 1 = 10923 > 10922).
        let b = today(32_768, u32::MAX);
        assert!(b.writeable(21_845, 0));
        assert!(!b.writeable(21_846, 0));
        // 5.x+: (unsent << 1) < lowat, so unsent < 8192 for a 16 KiB lowat.
        let b = today(1 << 20, 16_384);
        assert!(b.writeable(0, 8_191));
        assert!(!b.writeable(0, 8_192));
        // 3.12 to 4.x compared unsent itself.
        let mut b = today(1 << 20, 16_384);
        b.lowat_rule = NotsentLowat::Unsent;
        assert!(b.writeable(0, 16_383));
    }

    #[test]
    fn unset_the_lowat_never_limits() {
        // UINT_MAX, net.ipv4.tcp_notsent_lowat's default.
        let b = today(1 << 30, u32::MAX);
        assert!(b.memory_free(0, u32::MAX as u64 - 1));
        assert!(b.writeable(0, (u32::MAX as u64 - 1) / 2));
    }

    #[test]
    fn per_mss_the_lowat_stops_the_copy_at_the_segment_that_reaches_it() {
        // TCP_NOTSENT_LOWAT 4000 with a large buffer: segments are taken while
        // fewer than 4000 bytes are unsent: 0, 1448, 2896, then 4344 stops it.
        let mut b = per_mss(1 << 20, 1 << 20, false);
        b.lowat = 4_000;
        b.backlog = 100_000;
        assert_eq!(b.accept(0, 0), 3 * 1448);
        assert!(b.blocked);
    }
}
