//! The receive window a Linux receiver advertises, and how it grows.
//!
//! Three quantities, as in `struct tcp_sock`:
//!
//! ```text
//!   rcvbuf ──win_from_space──► window_clamp   (the most the buffer can ever back)
//!   rcv_ssthresh                               (grows 2·advmss per segment: tcp_grow_window)
//!   advertised = min(rcv_ssthresh, free space) rounded down to the scale unit,
//!                never pulling the right edge back (tcp_select_window)
//! ```
//!
//! Once per receiver RTT, buffer autotuning (`tcp_rcv_space_adjust`, "dynamic
//! right-sizing") raises `rcvbuf` towards twice what the application read in
//! the last RTT, plus growth room while the sender is in slow start.
//!
//! Simplifications, stated in the book: the application reads every byte the
//! moment it arrives (so free space is the whole buffer), the payload/truesize
//! ratio is fixed at the 50 % that kernels 6.6+ start from (`scaling_ratio`),
//! and the receiver's RTT estimate is the handshake RTT.

use crate::config::ReceiverConfig;
use crate::time::{SimDuration, SimTime};

/// Bytes of TCP timestamp option in every segment: advmss = MSS + this.
const TCPOLEN_TSTAMP_ALIGNED: u32 = 12;
/// `TCP_INIT_CWND` segments seed the autotuning measurement (`tcp_init_buffer_space`).
const INIT_SPACE_SEGMENTS: u64 = 10;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReceiveWindow {
    share: WindowShare,
    autotune: bool,
    rcvbuf_max: u64,
    rcvbuf: u64,
    window_clamp: u64,
    rcv_ssthresh: u64,
    advmss: u64,
    wscale: u8,
    /// `rcvq_space`: bytes read in the last measured RTT, and where that RTT began.
    space: u64,
    space_seq: u64,
    space_time: SimTime,
    rtt: Option<SimDuration>,
    /// rcv_nxt + window of the last advertisement: the window never shrinks past it.
    right_edge: u64,
    /// Bytes received in order that the application has not read yet.
    unread: u64,
    /// Sequence number up to which the application has read (`copied_seq`).
    copied_seq: u64,
    mss: u64,
}

/// How much of the receive buffer may be offered as window: the rest is
/// reserved for per-packet overhead (`tcp_win_from_space`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowShare {
    /// Kernels 6.6+: `scaling_ratio`, which starts at 50 % (the simulator keeps it there).
    ScalingRatio,
    /// Kernels up to 6.5: `net.ipv4.tcp_adv_win_scale`. 1 (the default since 3.x)
    /// offers half the space, 2 (2.6 kernels) three quarters; negative values offer
    /// space >> -scale.
    AdvWinScale(i8),
}

impl WindowShare {
    /// `tcp_win_from_space`.
    pub fn win_from_space(self, space: u64) -> u64 {
        match self {
            WindowShare::ScalingRatio => space / 2,
            WindowShare::AdvWinScale(s) if s <= 0 => space >> (-s as u32).min(63),
            WindowShare::AdvWinScale(s) => space - (space >> (s as u32).min(63)),
        }
    }

    /// `tcp_space_from_win`: the buffer a window needs (the inverse, rounded up).
    pub fn space_from_win(self, win: u64) -> u64 {
        match self {
            WindowShare::ScalingRatio => win.saturating_mul(2),
            WindowShare::AdvWinScale(s) if s <= 0 => win.saturating_mul(1 << (-s as u32).min(32)),
            WindowShare::AdvWinScale(s) => {
                let keep = (1u64 << s as u32) - 1; // share offered = keep / 2^s
                (win.saturating_mul(1 << s as u32)).div_ceil(keep.max(1))
            }
        }
    }
}

impl ReceiveWindow {
    pub fn new(cfg: &ReceiverConfig, mss: u32) -> Self {
        let share = cfg.window_share;
        let window_clamp = share.win_from_space(cfg.rcvbuf);
        let advmss = (mss + TCPOLEN_TSTAMP_ALIGNED) as u64;
        let rcv_ssthresh = (cfg.syn_window as u64).min(window_clamp.max(1));
        ReceiveWindow {
            share,
            autotune: cfg.autotune,
            rcvbuf_max: cfg.rcvbuf_max.max(cfg.rcvbuf),
            rcvbuf: cfg.rcvbuf,
            window_clamp,
            rcv_ssthresh,
            advmss,
            wscale: cfg.wscale,
            space: rcv_ssthresh.min(INIT_SPACE_SEGMENTS * advmss),
            space_seq: 1,
            space_time: SimTime::ZERO,
            rtt: None,
            right_edge: 0,
            unread: 0,
            copied_seq: 1,
            mss: mss as u64,
        }
    }

    /// The window carried by our SYN or SYN-ACK: never scaled, so at most 65535.
    pub fn syn_window(&mut self, rcv_nxt: u64) -> u64 {
        let w = self.rcv_ssthresh.min(65_535);
        self.right_edge = rcv_nxt + w;
        w
    }

    /// The connection is established: start measuring what the application reads.
    pub fn start(&mut self, now: SimTime, rcv_nxt: u64, rtt: Option<SimDuration>) {
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

    /// Bytes waiting for the application.
    pub fn unread(&self) -> u64 {
        self.unread
    }

    /// `tcp_space`: window the free part of the buffer could back, once the
    /// unread data (charged at the same payload share) is set aside.
    fn tcp_space(&self) -> u64 {
        let rmem_alloc = self.share.space_from_win(self.unread);
        self.share
            .win_from_space(self.rcvbuf.saturating_sub(rmem_alloc))
    }

    /// In-order data of `len` bytes arrived; it waits in the buffer until
    /// [`read`](Self::read). Returns whether rcv_ssthresh grew (which puts a
    /// Linux receiver in quick-ACK mode).
    pub fn on_data(&mut self, len: u32) -> bool {
        let before = self.rcv_ssthresh;
        self.unread += len as u64;
        // tcp_event_data_recv → tcp_grow_window, for segments of 128 bytes or more.
        if len >= 128 {
            let room = self
                .window_clamp
                .min(self.tcp_space())
                .saturating_sub(self.rcv_ssthresh);
            if room > 0 {
                let incr = (2 * self.advmss).max(2 * len as u64);
                self.rcv_ssthresh += room.min(incr);
            }
        }
        self.rcv_ssthresh > before
    }

    /// The application reads up to `bytes`; returns how many it got. Reading
    /// drives receive-buffer autotuning, as `tcp_recvmsg` does.
    pub fn read(&mut self, now: SimTime, bytes: u64) -> u64 {
        let got = bytes.min(self.unread);
        self.unread -= got;
        self.copied_seq += got;
        self.space_adjust(now, self.copied_seq);
        got
    }

    /// `tcp_rcv_space_adjust`: once per RTT, size the buffer for what was read.
    fn space_adjust(&mut self, now: SimTime, copied_seq: u64) {
        let Some(rtt) = self.rtt else { return };
        if now.since(self.space_time) < rtt {
            return;
        }
        let copied = copied_seq - self.space_seq;
        if copied > self.space {
            if self.autotune {
                // Twice the data per RTT, plus 16 segments of cushion ...
                let mut rcvwin = 2 * copied + 16 * self.advmss;
                // ... plus room for a sender that is still growing (slow start).
                let grow = rcvwin * (copied - self.space) / self.space.max(1);
                rcvwin += 2 * grow;
                let rcvbuf = self.share.space_from_win(rcvwin).min(self.rcvbuf_max);
                if rcvbuf > self.rcvbuf {
                    self.rcvbuf = rcvbuf;
                    self.window_clamp = self.share.win_from_space(rcvbuf);
                }
            }
            self.space = copied;
        }
        self.space_seq = copied_seq;
        self.space_time = now;
    }

    /// The window currently offered: what is left of the last advertisement
    /// (`tcp_receive_window`), seen from `rcv_wup`.
    pub fn current_window(&self, rcv_wup: u64) -> u64 {
        self.right_edge.saturating_sub(rcv_wup)
    }

    /// The window `tcp_select_window` would offer now, without committing to it.
    pub fn select(&self, rcv_nxt: u64) -> u64 {
        let unit = 1u64 << self.wscale;
        let free = self.tcp_space().min(self.window_clamp);
        // __tcp_select_window: offer nothing rather than less than a segment
        // (receiver-side silly window syndrome avoidance).
        let mut w = if free < self.mss {
            0
        } else {
            self.rcv_ssthresh.min(free) / unit * unit
        };
        // Never move the right edge back; round the old window up to the scale unit instead.
        let current = self.right_edge.saturating_sub(rcv_nxt);
        if w < current {
            w = current.div_ceil(unit) * unit;
        }
        w.min(65_535 << self.wscale)
    }

    /// The window to put in an outgoing segment (bytes, after scaling).
    pub fn advertise(&mut self, rcv_nxt: u64) -> u64 {
        let w = self.select(rcv_nxt);
        self.right_edge = rcv_nxt + w;
        w
    }

    /// `tcp_cleanup_rbuf`: after a read, is the window now worth announcing?
    /// Yes when what is left of the last advertisement is at most half the
    /// clamp and the new window would at least double it.
    pub fn update_worth_sending(&self, rcv_nxt: u64) -> bool {
        let now_wnd = self.right_edge.saturating_sub(rcv_nxt);
        if 2 * now_wnd > self.window_clamp {
            return false;
        }
        let new = self.select(rcv_nxt);
        new > 0 && new >= 2 * now_wnd
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linux_default() -> ReceiveWindow {
        ReceiveWindow::new(&ReceiverConfig::default(), 1448)
    }

    #[test]
    fn the_syn_advertises_64240_and_the_first_ack_502_scaled_units() {
        // Seed 004's capture: SYN "win 64240", then the client's ACK "win 502" (x128).
        let mut w = linux_default();
        assert_eq!(w.syn_window(1), 64_240);
        assert_eq!(w.advertise(1), 502 * 128);
    }

    #[test]
    fn each_full_segment_grows_rcv_ssthresh_by_two_advmss_up_to_the_buffer() {
        let cfg = ReceiverConfig {
            rcvbuf: 8 << 20,
            autotune: false,
            ..ReceiverConfig::default()
        };
        let mut w = ReceiveWindow::new(&cfg, 1448);
        w.on_data(1448);
        w.read(SimTime::ZERO, 1448);
        assert_eq!(w.rcv_ssthresh(), 64_240 + 2 * 1460);
    }

    #[test]
    fn with_the_default_buffer_the_window_stays_at_64240_until_autotuning_runs() {
        // The arriving segment is charged to the buffer before tcp_grow_window looks:
        // tcp_space = (131072 - 2 x 1448) / 2 = 64088, below rcv_ssthresh (64240).
        let mut w = linux_default();
        for _ in 0..40 {
            assert!(!w.on_data(1448));
            w.read(SimTime::ZERO, 1448);
        }
        assert_eq!(w.rcv_ssthresh(), 64_240);
    }

    #[test]
    fn autotuning_grows_the_buffer_after_one_rtt_of_reading() {
        let mut w = linux_default();
        let rtt = SimDuration::from_millis(7);
        w.start(SimTime::ZERO, 1, Some(rtt));
        // 20 segments read within the first RTT: more than the 14600-byte seed.
        let copied = 20 * 1448;
        for _ in 0..20 {
            w.on_data(1448);
        }
        w.read(SimTime::ZERO + rtt, copied);
        // rcvwin = 2*28960 + 16*1460 = 81280; grow = 81280*(28960-14600)/14600 = 79943
        // rcvwin += 2*79943 → 241166; rcvbuf = 2*241166 = 482332.
        assert_eq!(w.rcvbuf(), 482_332);
        assert_eq!(w.window_clamp(), 241_166);
    }

    #[test]
    fn older_kernels_offer_the_tcp_adv_win_scale_share() {
        // SO_RCVBUF 8K is doubled to 16384: scale 1 offers half, scale 2 three quarters.
        assert_eq!(WindowShare::AdvWinScale(1).win_from_space(16_384), 8_192);
        assert_eq!(WindowShare::AdvWinScale(2).win_from_space(16_384), 12_288);
        assert_eq!(WindowShare::AdvWinScale(-2).win_from_space(16_384), 4_096);
        assert_eq!(WindowShare::ScalingRatio.win_from_space(16_384), 8_192);
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
    fn unread_data_closes_the_window_and_a_read_reopens_it() {
        // A locked 16 KB buffer offers 8192 (50 %).
        let cfg = ReceiverConfig {
            rcvbuf: 16_384,
            rcvbuf_max: 16_384,
            autotune: false,
            syn_window: 8_192,
            ..ReceiverConfig::default()
        };
        let mut w = ReceiveWindow::new(&cfg, 1448);
        w.start(SimTime::ZERO, 1, None);
        assert_eq!(w.advertise(1), 8_192);
        for _ in 0..5 {
            w.on_data(1448);
        }
        let rcv_nxt = 1 + 5 * 1448;
        // 7240 unread bytes take 14480 of the buffer: 1904 free, 952 of window,
        // less than an MSS, so Linux would offer 0. But the edge already promised
        // (952 bytes ahead) may not move back: 952 rounded up to 128 = 1024.
        assert_eq!(w.select(rcv_nxt), 1_024);
        assert!(!w.update_worth_sending(rcv_nxt));
        // Once the application has read everything the full window is back, and
        // at least doubling what is left makes it worth an ACK of its own.
        w.read(SimTime::ZERO, 7_240);
        assert_eq!(w.select(rcv_nxt), 8_192);
        assert!(w.update_worth_sending(rcv_nxt));
    }

    #[test]
    fn a_locked_buffer_is_never_autotuned() {
        let cfg = ReceiverConfig {
            autotune: false,
            ..ReceiverConfig::default()
        };
        let mut w = ReceiveWindow::new(&cfg, 1448);
        w.start(SimTime::ZERO, 1, Some(SimDuration::from_millis(1)));
        for _ in 0..100 {
            w.on_data(1448);
        }
        w.read(SimTime(5_000_000), 100 * 1448);
        assert_eq!(w.rcvbuf(), 131_072);
    }
}
