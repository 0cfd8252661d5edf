//! The receive window a Linux receiver advertises, and how it grows.
//!
//! Four quantities, as in `struct tcp_sock`:
//!
//! ```text
//!   sk_rcvbuf ─win_from_space─► window_clamp  (the most the buffer can ever back)
//!   rcv_ssthresh                             (grows ~2·advmss per segment: tcp_grow_window)
//!   free = win_from_space(sk_rcvbuf − sk_rmem_alloc)                  (tcp_space)
//!   rcv_wnd = the window last advertised; a new one is
//!     min(rcv_ssthresh, free), rounded up to 1 << wscale, or to whole MSS
//!     without scaling; zero when free falls under an MSS (__tcp_select_window)
//!     and never pulling the right edge back (tcp_select_window)
//! ```
//!
//! `initial` chooses the first window (`tcp_select_initial_window`,
//! `tcp_init_buffer_space`); `space` says what the buffer is charged
//! (`skb->truesize`, `sk_rmem_alloc`) and which share of it is window
//! (`tcp_adv_win_scale`, or 6.6+'s measured `scaling_ratio`).
//!
//! Once per receiver RTT, buffer autotuning (`tcp_rcv_space_adjust`, "dynamic
//! right-sizing") raises `rcvbuf` towards twice what the application read in
//! the last RTT, plus growth room while the sender is in slow start: with
//! 16 segments of cushion before 6.16, and from 6.16 (`tcp_rcvbuf_grow`)
//! also whenever a segment is held out of order, for what the held data
//! spans ([`Drs`]).
//!
//! Simplifications, stated in the book: no memory pressure, and the
//! receiver's RTT estimate is the handshake RTT. A GRO skb (the socket's
//! receive path gathers them) is charged and measured here as its segments.

mod initial;
mod space;
#[cfg(test)]
mod tests;

pub use initial::{InitialWindow, TCPOLEN_TSTAMP_ALIGNED, tcp_select_initial_window};
pub use space::{RX_TRUESIZE_DEFAULT, RxTruesize, TCP_DEFAULT_SCALING_RATIO, WindowShare};

use crate::config::{Behaviour, OfoGrowth, ReceiverConfig, SOCK_MIN_RCVBUF};
use crate::time::{SimDuration, SimTime};
use space::{Rmem, Share};

/// `tcp_set_window_clamp` never goes below `SOCK_MIN_RCVBUF / 2`.
const MIN_WINDOW_CLAMP: u64 = SOCK_MIN_RCVBUF / 2;
/// `tcp_event_data_recv` grows the window only for segments of this size or more.
pub const GROW_MIN_LEN: u32 = 128;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReceiveWindow {
    share: Share,
    truesize: RxTruesize,
    autotune: bool,
    /// `SOCK_RCVBUF_LOCK`: `SO_RCVBUF` fixed the buffer.
    locked: bool,
    /// `tcp_fixup_rcvbuf` (3.x–4.19) raises an unlocked buffer on ESTABLISHED.
    fixup_rcvbuf: bool,
    ofo_growth: OfoGrowth,
    /// `tcp_rmem[2]`, which `__tcp_grow_window` reads.
    tcp_rmem2: u64,
    rcvbuf_max: u64,
    rcvbuf: u64,
    window_clamp: u64,
    rcv_ssthresh: u64,
    /// `tp->rcv_wnd`: the window last advertised, unscaled.
    rcv_wnd: u64,
    /// rcv_wup + rcv_wnd: the window never moves back past it.
    right_edge: u64,
    /// `tp->advmss` after the handshake: MSS less the timestamp option, which
    /// the model always has (1448 on a 1500-byte MTU).
    advmss: u64,
    wscale: u8,
    /// `rcvq_space`: bytes read in the last measured RTT, and where that RTT began.
    space: u64,
    space_seq: u64,
    space_time: SimTime,
    rtt: Option<SimDuration>,
    /// How autotuning sizes the buffer (6.16 rewrote it).
    drs: Drs,
    /// What the out-of-order queue spans past `rcv_nxt`
    /// (`ooo_last_skb->end_seq - rcv_nxt`), which 6.16's `tcp_rcvbuf_grow`
    /// provisions for; zero with nothing held.
    ooo_span: u64,
    /// `sk_rmem_alloc`: truesize of what is queued and not yet read.
    rmem: Rmem,
    /// Bytes received in order that the application has not read yet.
    unread: u64,
    /// Sequence number up to which the application has read (`copied_seq`).
    copied_seq: u64,
}

/// What `__tcp_select_window` chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selected {
    /// Bytes, unscaled.
    pub window: u64,
    /// Less than half the buffer's window is free: the kernel ends quick-ACK
    /// mode here (`icsk_ack.quick = 0`).
    pub low_space: bool,
}

impl ReceiveWindow {
    /// The receive half of a socket that opens actively (`tcp_connect_init`)
    /// or passively (`tcp_openreq_init_rwin`), for segments of `mss` bytes.
    pub fn new(cfg: &ReceiverConfig, behaviour: &Behaviour, mss: u32, active: bool) -> Self {
        let advmss = mss as u64;
        // The peer's MSS as `tcp_select_initial_window` sees it: an active
        // opener does not know yet that timestamps will be used.
        let syn_mss = if active {
            advmss + TCPOLEN_TSTAMP_ALIGNED
        } else {
            advmss
        };
        let first = tcp_select_initial_window(cfg, behaviour, syn_mss);
        ReceiveWindow {
            share: Share::new(cfg.window_share),
            truesize: cfg.rx_truesize,
            autotune: cfg.autotune,
            locked: cfg.locked,
            fixup_rcvbuf: behaviour.rcvbuf_fixup,
            ofo_growth: behaviour.ofo_grows_window,
            tcp_rmem2: cfg.tcp_rmem_max,
            rcvbuf_max: cfg.rcvbuf_max.max(cfg.rcvbuf),
            rcvbuf: cfg.rcvbuf,
            window_clamp: first.window_clamp,
            rcv_ssthresh: first.rcv_wnd,
            rcv_wnd: first.rcv_wnd,
            right_edge: 0,
            advmss,
            wscale: cfg.wscale,
            space: 0,
            space_seq: 1,
            space_time: SimTime::ZERO,
            rtt: None,
            drs: behaviour.drs,
            ooo_span: 0,
            rmem: Rmem::default(),
            unread: 0,
            copied_seq: 1,
        }
    }

    /// The window carried by our SYN or SYN-ACK: never scaled, so at most
    /// 65535 of `rcv_wnd` (`tcp_transmit_skb`); the socket's own right edge is
    /// the whole `rcv_wnd`.
    pub fn syn_window(&mut self, rcv_nxt: u64) -> u64 {
        self.right_edge = rcv_nxt + self.rcv_wnd;
        self.rcv_wnd.min(65_535)
    }

    /// The connection is established (`tcp_init_buffer_space`): settle the
    /// clamp, and start measuring what the application reads.
    pub fn start(&mut self, now: SimTime, rcv_nxt: u64, rtt: Option<SimDuration>) {
        if self.fixup_rcvbuf && !self.locked {
            self.rcvbuf =
                initial::tcp_fixup_rcvbuf(self.rcvbuf, self.advmss, self.autotune, self.tcp_rmem2);
            self.rcvbuf_max = self.rcvbuf_max.max(self.rcvbuf);
        }
        let b = initial::tcp_init_buffer_space(
            self.full_space(),
            self.window_clamp,
            self.rcv_ssthresh,
            self.rcv_wnd,
            self.advmss,
        );
        self.window_clamp = b.window_clamp;
        self.rcv_ssthresh = b.rcv_ssthresh;
        self.space = b.rcvq_space;
        // rcv_wup = rcv_nxt: nothing advertised since the SYN.
        self.right_edge = rcv_nxt + self.rcv_wnd;
        self.space_seq = rcv_nxt;
        self.copied_seq = rcv_nxt;
        self.space_time = now;
        self.rtt = rtt;
    }

    pub fn rcvbuf(&self) -> u64 {
        self.rcvbuf
    }

    pub fn rcv_ssthresh(&self) -> u64 {
        self.rcv_ssthresh
    }

    pub fn window_clamp(&self) -> u64 {
        self.window_clamp
    }

    /// `tp->rcv_wnd`: the window last advertised.
    pub fn rcv_wnd(&self) -> u64 {
        self.rcv_wnd
    }

    /// `tp->scaling_ratio` (a fraction of 256).
    pub fn scaling_ratio(&self) -> u32 {
        self.share.scaling_ratio()
    }

    /// Bytes waiting for the application.
    pub fn unread(&self) -> u64 {
        self.unread
    }

    /// `sk_rmem_alloc`: what the queued data costs the buffer.
    pub fn rmem_alloc(&self) -> u64 {
        self.rmem.alloc()
    }

    /// The truesize a segment of `len` bytes is charged.
    pub fn truesize_of(&self, len: u32) -> u64 {
        self.truesize.of(len, self.share.rule())
    }

    /// `tcp_full_space`: the window the whole buffer backs.
    fn full_space(&self) -> u64 {
        self.share.win_from_space(self.rcvbuf as i64).max(0) as u64
    }

    /// `tcp_space`: the window the free part of the buffer backs (negative
    /// when more is charged than the buffer holds).
    fn tcp_space(&self) -> i64 {
        self.share
            .win_from_space(self.rcvbuf as i64 - self.rmem.alloc() as i64)
    }

    /// The part of `tcp_measure_rcv_mss` that measures the share (6.6+): a
    /// full-sized segment whose length differs from rcv_mss sets
    /// `scaling_ratio` to its payload over its truesize; a new ratio re-clamps
    /// the window to the buffer's (05f76b2d634e, 6.11).
    pub fn measure_scaling_ratio(&mut self, len: u32) {
        let truesize = self.truesize_of(len);
        if self.share.measure(len, truesize) {
            self.tcp_set_window_clamp(self.full_space());
            self.space = self.space.min(self.window_clamp);
        }
    }

    /// `tcp_set_window_clamp`: a smaller clamp pulls rcv_ssthresh down with
    /// it; a larger one lets it up to what was last advertised.
    fn tcp_set_window_clamp(&mut self, val: u64) {
        let new = val.max(MIN_WINDOW_CLAMP);
        if new < self.window_clamp {
            self.rcv_ssthresh = self.rcv_ssthresh.min(new);
        } else if new > self.window_clamp {
            self.rcv_ssthresh = self.rcv_ssthresh.max(self.rcv_wnd.min(new));
        }
        self.window_clamp = new;
    }

    /// In-order data of `len` bytes ending at `end` arrived, and the receive
    /// queue now ends at `rcv_nxt`; `ofo_truesize` is what the out-of-order
    /// data it made contiguous was charged (`tcp_queue_rcv`, `tcp_ofo_queue`).
    /// It waits in the buffer until [`read`](Self::read).
    pub fn queue(&mut self, len: u32, end: u64, rcv_nxt: u64, ofo_truesize: u64) {
        let truesize = self.truesize_of(len);
        self.rmem.queue(end, truesize);
        self.rmem.ofo_to_queue(rcv_nxt, ofo_truesize);
        self.unread = rcv_nxt.saturating_sub(self.copied_seq);
    }

    /// Out-of-order data that cost `truesize` is held (`tcp_data_queue_ofo`).
    pub fn charge_ofo(&mut self, truesize: u64) {
        self.rmem.charge_ofo(truesize);
    }

    /// Which connections grow this window on out-of-order data.
    pub fn ofo_growth(&self) -> OfoGrowth {
        self.ofo_growth
    }

    /// `tcp_grow_window` for a segment of `len` bytes; `rcv_mss` is the
    /// receiver's estimate of the peer's MSS. Returns whether rcv_ssthresh grew
    /// (which grants one more quick ACK).
    pub fn grow(&mut self, len: u32, rcv_mss: u32) -> bool {
        let room = (self.window_clamp as i64).min(self.tcp_space()) - self.rcv_ssthresh as i64;
        if room <= 0 {
            return false;
        }
        // Check #2: will segments with this overhead fit the buffer later?
        let truesize = self.truesize_of(len) as i64;
        let incr = if self.share.win_from_space(truesize) <= len as i64 {
            2 * self.advmss as i64
        } else {
            self.tcp_grow_window_slow(truesize, len, rcv_mss)
        };
        if incr == 0 {
            return false;
        }
        let incr = incr.max(2 * len as i64);
        self.rcv_ssthresh += room.min(incr) as u64;
        true
    }

    /// `__tcp_grow_window`: a segment with a poor payload/truesize ratio still
    /// grows the window (by two rcv_mss) while rcv_ssthresh is small enough
    /// that halving both its overhead and the largest window makes it fit.
    fn tcp_grow_window_slow(&self, truesize: i64, len: u32, rcv_mss: u32) -> i64 {
        let mut t = self.share.win_from_space(truesize) >> 1;
        let mut w = self.share.win_from_space(self.tcp_rmem2 as i64) >> 1;
        while self.rcv_ssthresh as i64 <= w {
            if t <= len as i64 {
                return 2 * rcv_mss as i64;
            }
            t >>= 1;
            w >>= 1;
        }
        0
    }

    /// The application reads up to `bytes`; returns how many it got. Reading
    /// frees what it consumed and drives receive-buffer autotuning, as
    /// `tcp_recvmsg` does.
    pub fn read(&mut self, now: SimTime, bytes: u64) -> u64 {
        let got = bytes.min(self.unread);
        self.unread -= got;
        self.copied_seq += got;
        self.rmem.consumed(self.copied_seq);
        self.space_adjust(now, self.copied_seq);
        got
    }

    /// `tcp_rcv_space_adjust`: once per RTT, size the buffer for what was read.
    fn space_adjust(&mut self, now: SimTime, copied_seq: u64) {
        let Some(rtt) = self.rtt else { return };
        if now.since(self.space_time) < rtt {
            return;
        }
        let mut copied = copied_seq - self.space_seq;
        if self.drs == Drs::RcvbufGrow {
            // 6.16: "Number of bytes in receive queue" is not what the
            // application consumed.
            copied = copied.saturating_sub(self.unread);
        }
        if copied > self.space {
            match self.drs {
                Drs::Classic => {
                    // Twice the data per RTT, plus 16 segments of cushion ...
                    let rcvwin = 2 * copied + 16 * self.advmss;
                    // ... plus room for a sender still growing (slow start).
                    let grow = rcvwin * (copied - self.space) / self.space.max(1);
                    self.grow_rcvbuf_for(rcvwin + 2 * grow);
                    self.space = copied;
                }
                Drs::RcvbufGrow => self.tcp_rcvbuf_grow(copied),
            }
        }
        self.space_seq = copied_seq;
        self.space_time = now;
    }

    /// `tcp_rcvbuf_grow` (6.16 and later): `rcvq_space.space` becomes
    /// `newval`, and the buffer is sized for the window that reading,
    /// slow start and whatever the out-of-order queue spans need.
    fn tcp_rcvbuf_grow(&mut self, newval: u64) {
        let rcvwin = tcp_rcvbuf_grow_window(newval, self.space, self.rtt.unwrap_or_default());
        self.space = newval;
        self.grow_rcvbuf_for(rcvwin + self.ooo_span);
    }

    /// Raises `sk_rcvbuf` (and the window clamp with it) to back `rcvwin`,
    /// up to `tcp_rmem[2]`; never lowers it, and leaves a locked buffer alone.
    fn grow_rcvbuf_for(&mut self, rcvwin: u64) {
        if !self.autotune {
            return;
        }
        let rcvbuf = self.share.space_from_win(rcvwin).min(self.rcvbuf_max);
        if rcvbuf > self.rcvbuf {
            self.rcvbuf = rcvbuf;
            self.window_clamp = self.full_space();
        }
    }

    /// The out-of-order queue now spans `span` bytes past `rcv_nxt` (zero:
    /// nothing held). `queued`: a segment was just held out of order, where
    /// 6.16 and later grow the buffer at once (`tcp_data_queue_ofo` calls
    /// `tcp_rcvbuf_grow` with the space unchanged) so that a sender in loss
    /// recovery is not held back by a window the held data used up.
    pub fn ooo_changed(&mut self, span: u64, queued: bool) {
        self.ooo_span = span;
        if queued && span > 0 && self.drs == Drs::RcvbufGrow {
            self.tcp_rcvbuf_grow(self.space);
        }
    }

    /// `tcp_receive_window`: what is left of the last advertisement, seen
    /// from `rcv_nxt`.
    pub fn receive_window(&self, rcv_nxt: u64) -> u64 {
        self.right_edge.saturating_sub(rcv_nxt)
    }

    /// `__tcp_select_window`: the window the buffer backs now, for a peer
    /// whose segments carry `rcv_mss` bytes.
    pub fn select(&self, rcv_mss: u32) -> Selected {
        let unit = 1i64 << self.wscale;
        let allowed = self.full_space() as i64;
        let full = (self.window_clamp as i64).min(allowed);
        let mut mss = rcv_mss as i64;
        if mss > full {
            mss = full;
            if mss <= 0 {
                return Selected {
                    window: 0,
                    low_space: false,
                };
            }
        }
        let mut free = self.tcp_space();
        let low_space = free < full >> 1;
        if low_space {
            // free might become the window: never round it up past the
            // buffer. (Rounding down to a power of two is a mask.)
            free &= !(unit - 1);
            // Receiver-side silly window avoidance: nothing rather than less
            // than an MSS (or a sixteenth of the buffer).
            if free < allowed >> 4 || free < mss {
                return Selected {
                    window: 0,
                    low_space,
                };
            }
        }
        free = free.min(self.rcv_ssthresh as i64);
        let window = if self.wscale > 0 {
            // Up to the scale unit, so that the scaled window is not rounded
            // away. A mask for the power of two: it rounds a negative sum down
            // rather than towards zero, and either is 0 once clamped below.
            (free + unit - 1) & !(unit - 1)
        } else {
            // Whole segments; keep the current offer while it is within one
            // MSS of the free space.
            let current = self.rcv_wnd as i64;
            if current <= free - mss || current > free {
                free / mss * mss
            } else if mss == full && free > current + (full >> 1) {
                free
            } else {
                current
            }
        };
        Selected {
            window: window.max(0) as u64,
            low_space,
        }
    }

    /// `tcp_select_window`: the window to put in an outgoing segment (bytes,
    /// after scaling). The right edge never moves back: a smaller choice
    /// re-offers what is left of the last one, rounded up to the scale unit.
    pub fn advertise(&mut self, rcv_nxt: u64, rcv_mss: u32) -> (u64, Selected) {
        let current = self.receive_window(rcv_nxt);
        let chosen = self.select(rcv_mss);
        let unit = 1u64 << self.wscale;
        let new = if chosen.window < current {
            current.div_ceil(unit) * unit
        } else {
            chosen.window
        };
        self.rcv_wnd = new;
        self.right_edge = rcv_nxt + new;
        let wire = (new.min(65_535 << self.wscale) >> self.wscale) << self.wscale;
        (wire, chosen)
    }

    /// The window-update half of `tcp_cleanup_rbuf`: after a read, is the
    /// window worth announcing on its own? Yes when what is left of the last
    /// advertisement is at most half the clamp, and the new window is not zero
    /// and at least twice that. `None` when the window was not looked at.
    pub fn update_worth_sending(&self, rcv_nxt: u64, rcv_mss: u32) -> Option<(bool, Selected)> {
        let now_wnd = self.receive_window(rcv_nxt);
        if 2 * now_wnd > self.window_clamp {
            return None;
        }
        let new = self.select(rcv_mss);
        Some((new.window > 0 && new.window >= 2 * now_wnd, new))
    }
}

/// How receive-buffer autotuning (DRS) sizes the buffer each RTT.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Drs {
    /// Before 6.16: `rcvwin` = 2 × copied + 16 × advmss, plus twice that
    /// scaled by the growth since the last RTT.
    Classic,
    /// 6.16 and later (`tcp_rcvbuf_grow`, "tcp: add receive queue awareness
    /// in tcp_rcv_space_adjust()", then `tcp_rcvbuf_low_rtt`): 2 × copied
    /// ("DRS is always one RTT late"), plus, from 1 ms of RTT, room for a
    /// sender doubling; below it, only rtt / 1 ms of that window; unread data
    /// does not count as copied.
    #[default]
    RcvbufGrow,
}

crate::config::value_names! {
    Drs { Classic = "classic", RcvbufGrow = "rcvbuf-grow" }
}

/// `net.ipv4.tcp_rcvbuf_low_rtt` (1 ms by default).
const TCP_RCVBUF_LOW_RTT: SimDuration = SimDuration::from_millis(1);

/// The window `tcp_rcvbuf_grow` sizes the buffer for, from `newval` bytes
/// read in the last RTT, `oldval` in the one before, and the receiver's RTT
/// estimate; the caller adds what the out-of-order queue spans.
fn tcp_rcvbuf_grow_window(newval: u64, oldval: u64, rtt: SimDuration) -> u64 {
    let rcvwin = newval << 1;
    let rtt_us = rtt.0 / 1_000;
    let threshold_us = TCP_RCVBUF_LOW_RTT.0 / 1_000;
    let grow = if rtt_us < threshold_us {
        rcvwin * rtt_us / threshold_us
    } else {
        (rcvwin << 1) * (newval - oldval) / oldval.max(1)
    };
    rcvwin + grow
}
