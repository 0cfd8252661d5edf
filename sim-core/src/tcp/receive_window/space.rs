//! What the receive buffer is charged and how much of it may be offered as
//! window: the share (`tcp_win_from_space`, with `scaling_ratio` on 6.6+ or
//! `tcp_adv_win_scale` before), the truesize a received segment costs, and
//! `sk_rmem_alloc`, the truesize of everything queued and not yet read.
//!
//! ```text
//!   segment arrives ─► charged its truesize ─► sk_rmem_alloc ─► tcp_space =
//!                      (receive queue, or      (freed when the     win_from_space(
//!                       out-of-order queue)     reader has read      sk_rcvbuf − rmem_alloc)
//!                                               all of that skb)
//! ```

use std::collections::VecDeque;

/// `TCP_RMEM_TO_WIN_SCALE`: `scaling_ratio` is a fraction of 256.
const TCP_RMEM_TO_WIN_SCALE: u32 = 8;
/// `TCP_DEFAULT_SCALING_RATIO`: 50 %, what 6.10+ assume until a segment is
/// measured (697a6c8cec03 "tcp: increase the default TCP scaling ratio").
pub const TCP_DEFAULT_SCALING_RATIO: u32 = 1 << (TCP_RMEM_TO_WIN_SCALE - 1);

/// How much of the receive buffer may be offered as window: the rest is
/// reserved for per-packet overhead (`tcp_win_from_space`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowShare {
    /// Kernels 6.6+: `scaling_ratio`, 50 % until the first full-sized segment
    /// is measured (its payload over its truesize, `tcp_measure_rcv_mss`).
    ScalingRatio,
    /// Kernels up to 6.5: `net.ipv4.tcp_adv_win_scale`. 1 (the default since 3.4)
    /// offers half the space, 2 (2.6 kernels) three quarters; negative values offer
    /// space >> -scale.
    AdvWinScale(i8),
}

impl WindowShare {
    /// `tcp_win_from_space` before anything was measured (for `ScalingRatio`,
    /// at `TCP_DEFAULT_SCALING_RATIO`).
    pub fn win_from_space(self, space: u64) -> u64 {
        Share::new(self).win_from_space(space as i64).max(0) as u64
    }

    /// `tcp_space_from_win`: the buffer a window needs (the inverse, rounded up).
    pub fn space_from_win(self, win: u64) -> u64 {
        Share::new(self).space_from_win(win)
    }
}

/// The share a socket uses now: the rule, and for `ScalingRatio` the ratio
/// measured so far (`tp->scaling_ratio`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    rule: WindowShare,
    scaling_ratio: u32,
}

impl Share {
    pub fn new(rule: WindowShare) -> Self {
        Share {
            rule,
            scaling_ratio: TCP_DEFAULT_SCALING_RATIO,
        }
    }

    /// `tcp_win_from_space`: `space · ratio / 256` (6.6+), or
    /// `space − space / 2^adv_win_scale`. Negative space (more charged than
    /// the buffer holds) gives a negative window, as in the kernel.
    pub fn win_from_space(self, space: i64) -> i64 {
        match self.rule {
            WindowShare::ScalingRatio => {
                (space * self.scaling_ratio as i64) >> TCP_RMEM_TO_WIN_SCALE
            }
            WindowShare::AdvWinScale(s) if s <= 0 => space >> (-s as u32).min(63),
            WindowShare::AdvWinScale(s) => space - (space >> (s as u32).min(63)),
        }
    }

    /// `tcp_space_from_win`, rounded up so that `win_from_space` of the
    /// result is at least `win` (what autotuning sizes the buffer with).
    pub fn space_from_win(self, win: u64) -> u64 {
        match self.rule {
            WindowShare::ScalingRatio => {
                (win << TCP_RMEM_TO_WIN_SCALE).div_ceil(self.scaling_ratio as u64)
            }
            WindowShare::AdvWinScale(s) if s <= 0 => win.saturating_mul(1 << (-s as u32).min(32)),
            WindowShare::AdvWinScale(s) => {
                let keep = (1u64 << s as u32) - 1; // share offered = keep / 2^s
                (win.saturating_mul(1 << s as u32)).div_ceil(keep.max(1))
            }
        }
    }

    /// The part of `tcp_measure_rcv_mss` that measures the share (6.6+): a
    /// full-sized segment of `len` bytes that cost `truesize` sets
    /// `scaling_ratio = len · 256 / truesize` (at least 1). Returns whether
    /// the ratio changed, which re-clamps the window (`tcp_set_window_clamp`).
    pub fn measure(&mut self, len: u32, truesize: u64) -> bool {
        if self.rule != WindowShare::ScalingRatio {
            return false;
        }
        let ratio = ((len as u64) << TCP_RMEM_TO_WIN_SCALE) / truesize.max(1);
        // The kernel keeps the ratio in a u8; `RxTruesize` is checked to keep
        // every segment's truesize above its payload, so this is below 256.
        let ratio = (ratio as u32).clamp(1, 255);
        let changed = ratio != self.scaling_ratio;
        self.scaling_ratio = ratio;
        changed
    }

    pub fn scaling_ratio(self) -> u32 {
        self.scaling_ratio
    }

    pub fn rule(self) -> WindowShare {
        self.rule
    }
}

/// What a received segment costs the receive buffer (`skb->truesize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RxTruesize {
    /// The simulator's assumption before it knew truesize: every segment
    /// costs exactly the buffer its payload needs at the window share
    /// (`tcp_space_from_win(len)`), so `scaling_ratio` measures 50 % and stays
    /// there. Not a real driver.
    Ideal,
    /// Every packet costs this many bytes whatever its length, as with a
    /// driver that receives each frame into a buffer of its own: a 2 KB
    /// buffer plus `struct sk_buff` is 2304 bytes ([`RX_TRUESIZE_DEFAULT`]),
    /// which makes 6.6+ measure a 1448-byte segment at 160/256 = 62.5 %.
    PerPacket(u32),
}

/// A 2048-byte receive buffer (page fragment) per frame plus the 256 bytes of
/// `SKB_DATA_ALIGN(sizeof(struct sk_buff))`: `build_skb`'s truesize for the
/// usual 1500-byte MTU drivers (virtio-net, e1000e, mlx5 without striding).
pub const RX_TRUESIZE_DEFAULT: u32 = 2_304;

impl RxTruesize {
    /// A driver that receives each frame into a buffer of its own: 2 KB for
    /// a standard MTU (up to 1500 bytes: [`RX_TRUESIZE_DEFAULT`]), the next
    /// power of two for a jumbo frame (9000 bytes: 16 KB, truesize 16640),
    /// plus the 256 bytes of `struct sk_buff`. `mss` is the payload of a
    /// full segment; the frame adds 52 bytes of IP and TCP headers with
    /// timestamps and 14 of Ethernet.
    pub fn per_frame_for(mss: u32) -> RxTruesize {
        let frame = mss.saturating_add(52 + 14);
        RxTruesize::PerPacket(frame.next_power_of_two().max(2_048) + 256)
    }
}

impl RxTruesize {
    /// The truesize of a segment with `len` bytes of payload.
    pub fn of(self, len: u32, share: WindowShare) -> u64 {
        match self {
            RxTruesize::Ideal => share.space_from_win(len as u64),
            RxTruesize::PerPacket(t) => t as u64,
        }
    }
}

/// `sk_rmem_alloc`: the truesize of the skbs in the receive queue (in order,
/// not yet read) and in the out-of-order queue. A received skb is freed only
/// once the reader has consumed all of it (`sk_eat_skb`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rmem {
    /// The receive queue: each skb's end sequence and truesize.
    queue: VecDeque<(u64, u64)>,
    queued: u64,
    /// Truesize of what the out-of-order queue holds.
    ofo: u64,
}

impl Rmem {
    /// In-order data ending at `end_seq` joins the receive queue.
    pub fn queue(&mut self, end_seq: u64, truesize: u64) {
        self.queue.push_back((end_seq, truesize));
        self.queued += truesize;
    }

    /// Out-of-order data is charged while it waits for the hole before it.
    pub fn charge_ofo(&mut self, truesize: u64) {
        self.ofo += truesize;
    }

    /// Out-of-order skbs worth `truesize`, now in order, move to the receive
    /// queue (`tcp_ofo_queue`) ending at `end_seq`.
    pub fn ofo_to_queue(&mut self, end_seq: u64, truesize: u64) {
        self.ofo = self.ofo.saturating_sub(truesize);
        if truesize > 0 {
            self.queue(end_seq, truesize);
        }
    }

    /// The reader has consumed everything before `copied_seq`: free the skbs
    /// that lie wholly below it.
    pub fn consumed(&mut self, copied_seq: u64) {
        while let Some(&(end, t)) = self.queue.front() {
            if end > copied_seq {
                break;
            }
            self.queue.pop_front();
            self.queued -= t;
        }
    }

    /// `sk_rmem_alloc`.
    pub fn alloc(&self) -> u64 {
        self.queued + self.ofo
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn today_measures_a_1448_byte_segment_in_a_2304_byte_skb_at_160() {
        // (1448 << 8) / 2304 = 160.9: the kernel's integer division keeps 160.
        let mut s = Share::new(WindowShare::ScalingRatio);
        assert_eq!(s.win_from_space(16_384), 8_192, "50 % before measuring");
        assert!(s.measure(1448, 2304));
        assert_eq!(s.scaling_ratio(), 160);
        assert_eq!(s.win_from_space(16_384), 10_240);
        assert!(!s.measure(1448, 2304), "unchanged: no re-clamp");
    }

    #[test]
    fn the_ideal_truesize_keeps_the_ratio_at_half() {
        let mut s = Share::new(WindowShare::ScalingRatio);
        let t = RxTruesize::Ideal.of(1448, WindowShare::ScalingRatio);
        assert_eq!(t, 2_896);
        assert!(!s.measure(1448, t));
        assert_eq!(s.scaling_ratio(), 128);
    }

    #[test]
    fn older_kernels_offer_the_tcp_adv_win_scale_share_and_never_measure() {
        // SO_RCVBUF 8K is doubled to 16384: scale 1 offers half, scale 2 three quarters.
        assert_eq!(WindowShare::AdvWinScale(1).win_from_space(16_384), 8_192);
        assert_eq!(WindowShare::AdvWinScale(2).win_from_space(16_384), 12_288);
        assert_eq!(WindowShare::AdvWinScale(-2).win_from_space(16_384), 4_096);
        let mut s = Share::new(WindowShare::AdvWinScale(1));
        assert!(!s.measure(1448, 2304));
        assert_eq!(s.win_from_space(16_384), 8_192);
        for share in [
            WindowShare::AdvWinScale(1),
            WindowShare::AdvWinScale(2),
            WindowShare::AdvWinScale(-1),
            WindowShare::ScalingRatio,
        ] {
            let space = share.space_from_win(12_000);
            assert!(share.win_from_space(space) >= 12_000, "{share:?}");
        }
    }

    #[test]
    fn an_skb_is_freed_only_when_all_of_it_has_been_read() {
        let mut r = Rmem::default();
        r.queue(1449, 2304);
        r.queue(2897, 2304);
        r.charge_ofo(2304);
        assert_eq!(r.alloc(), 3 * 2304);
        r.consumed(1000);
        assert_eq!(r.alloc(), 3 * 2304, "half of the first skb read");
        r.consumed(1449);
        assert_eq!(r.alloc(), 2 * 2304);
        r.ofo_to_queue(4345, 2304);
        r.consumed(4345);
        assert_eq!(r.alloc(), 0);
    }
}
