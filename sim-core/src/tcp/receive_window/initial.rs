//! The first window: what the SYN or SYN-ACK offers and what the socket may
//! offer right after the handshake (`tcp_select_initial_window`, called by
//! `tcp_connect_init` for an active open and `tcp_openreq_init_rwin` for a
//! passive one), and the clamp `tcp_init_buffer_space` settles on entering
//! ESTABLISHED.
//!
//! ```text
//!   full space = win_from_space(sk_rcvbuf)               (50 % or the adv_win_scale share)
//!   window_clamp = full space if SO_RCVBUF locked it (3.x+), else none
//!   rcv_wnd = rounddown(min(full space, clamp), mss)      mss: 1460 active, 1448 passive
//!             then the era's cap (20 MSS, 65535, none) and route initrwnd (only lowers)
//!   SYN window = min(rcv_wnd, 65535); rcv_ssthresh = rcv_wnd
//!   ESTABLISHED: window_clamp = min(clamp, full space), less one advmss of reserve;
//!                rcv_ssthresh = min(rcv_ssthresh, window_clamp)
//! ```

use crate::config::{Behaviour, InitialRwnd, ReceiverConfig};
use crate::tcp::send_buffer::{MAX_TCP_HEADER, SHINFO, SK_BUFF};

/// `U16_MAX << TCP_MAX_WSCALE`: the clamp when nothing sets one.
const NO_CLAMP: u64 = 65_535 << 14;
/// Bytes of TCP timestamp option (`TCPOLEN_TSTAMP_ALIGNED`): a passive
/// opener subtracts it from advmss before choosing its window, an active one
/// only learns in the SYN-ACK that timestamps are on.
pub const TCPOLEN_TSTAMP_ALIGNED: u64 = 12;
/// `TCP_INIT_CWND`: the measurement of what the reader consumes starts at
/// this many segments (`tcp_init_buffer_space`).
const TCP_INIT_CWND: u64 = 10;

/// What `tcp_select_initial_window` leaves in the socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InitialWindow {
    /// `rcv_wnd`: the window offered, unscaled; the SYN carries at most 65535 of it.
    pub rcv_wnd: u64,
    /// `window_clamp`: the most the socket will ever offer.
    pub window_clamp: u64,
}

/// `tcp_select_initial_window` for a socket whose peer's segments carry
/// `mss` bytes: advmss (1460) for an active open, advmss less the timestamp
/// option (1448) for a passive one.
pub fn tcp_select_initial_window(
    cfg: &ReceiverConfig,
    behaviour: &Behaviour,
    mss: u64,
) -> InitialWindow {
    let full_space = cfg.window_share.win_from_space(cfg.rcvbuf);
    // tcp_connect_init / tcp_openreq_init_rwin: "limit the window selection
    // if the user enforce a smaller rx buffer" (3.x and later).
    let mut window_clamp = if cfg.locked && behaviour.rcvbuf_lock_clamps_wscale {
        full_space.max(1)
    } else {
        NO_CLAMP
    };
    let mut space = full_space.min(window_clamp);
    if space > mss {
        space = space / mss * mss;
    }
    let mut rcv_wnd = match behaviour.initial_rwnd {
        // a337531b942b (4.20) to 378979e94e95 (6.10): at most 64 KB.
        InitialRwnd::Bytes(cap) => space.min(cap as u64),
        InitialRwnd::Segments(_) | InitialRwnd::Unlimited => space,
    };
    // The route's initrwnd (in segments of this mss) may only lower it; before
    // 4.20 a default of `tcp_default_init_rwnd` applies when it is not set.
    // (3.10 and 2.6.32 skip the cap when mss ≤ 1 << wscale, which needs a
    // scale of 11 or more; the model ignores that corner.)
    let init_rcv_wnd = match (cfg.route_initrwnd, behaviour.initial_rwnd) {
        (Some(n), _) if n > 0 => Some(n as u64),
        (_, InitialRwnd::Segments(n)) => Some(tcp_default_init_rwnd(n, mss)),
        _ => None,
    };
    if let Some(n) = init_rcv_wnd {
        rcv_wnd = rcv_wnd.min(n * mss);
    }
    // Not a kernel knob: the slow-start widget's slider.
    if let Some(limit) = cfg.syn_window_limit {
        rcv_wnd = rcv_wnd.min(limit as u64);
    }
    // The scale was chosen in `HostSettings` for the largest buffer the
    // socket may get (and zeroed if the peer does not scale).
    window_clamp = window_clamp.min(65_535 << cfg.wscale);
    InitialWindow {
        rcv_wnd: rcv_wnd.max(1),
        window_clamp,
    }
}

/// `tcp_default_init_rwnd` (3.x–4.19; `TCP_DEFAULT_INIT_RCVWND` in 2.6.32):
/// `segments` of MSS, fewer when the MSS is larger than 1460, at least 2.
fn tcp_default_init_rwnd(segments: u32, mss: u64) -> u64 {
    let n = segments as u64;
    if mss > 1460 {
        (1460 * n / mss).max(2)
    } else {
        n
    }
}

/// `tcp_fixup_rcvbuf` as 3.x–4.19 have it: an unlocked buffer is raised to
/// room for twice the default initial window of `SKB_TRUESIZE(advmss +
/// MAX_TCP_HEADER)` segments, four times that with `tcp_moderate_rcvbuf`,
/// at most `tcp_rmem[2]`.
pub fn tcp_fixup_rcvbuf(rcvbuf: u64, advmss: u64, moderate: bool, tcp_rmem2: u64) -> u64 {
    let skb_truesize = advmss + MAX_TCP_HEADER + SK_BUFF + SHINFO;
    let mut rcvmem = 2 * skb_truesize * tcp_default_init_rwnd(20, advmss);
    if moderate {
        rcvmem <<= 2;
    }
    if rcvbuf < rcvmem {
        rcvmem.min(tcp_rmem2)
    } else {
        rcvbuf
    }
}

/// What `tcp_init_buffer_space` settles on entering ESTABLISHED, from the
/// buffer's full window `maxwin`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferSpace {
    pub window_clamp: u64,
    pub rcv_ssthresh: u64,
    /// `rcvq_space.space`: what autotuning compares the first RTT's reads with.
    pub rcvq_space: u64,
}

/// `tcp_init_buffer_space`: the clamp no larger than the buffer's window,
/// less one segment of reserve ("force reservation of one segment";
/// `tcp_app_win` = 31 reserves nothing else), and rcv_ssthresh under it.
pub fn tcp_init_buffer_space(
    maxwin: u64,
    window_clamp: u64,
    rcv_ssthresh: u64,
    rcv_wnd: u64,
    advmss: u64,
) -> BufferSpace {
    let mut clamp = window_clamp.min(maxwin);
    if clamp > 2 * advmss && clamp + advmss > maxwin {
        clamp = (2 * advmss).max(maxwin.saturating_sub(advmss));
    }
    let rcv_ssthresh = rcv_ssthresh.min(clamp);
    BufferSpace {
        window_clamp: clamp,
        rcv_ssthresh,
        // 6.18's min3; older kernels start from rcv_wnd alone.
        rcvq_space: rcv_ssthresh.min(rcv_wnd).min(TCP_INIT_CWND * advmss),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{HostSettings, Kernel};

    /// `tcp_select_initial_window` for a host of `kernel` with default
    /// settings, as client (advmss 1460) and server (1448).
    fn both(kernel: Kernel) -> (u64, u64) {
        let h = HostSettings::for_kernel(kernel).finish().unwrap();
        let w = |mss| tcp_select_initial_window(&h.receiver, &h.behaviour, mss).rcv_wnd;
        (w(1460), w(1448))
    }

    #[test]
    fn the_seeds_syn_windows_come_out_of_each_eras_rule() {
        // Seed 004: the 5.5 client's SYN 64240 = 44 × 1460 (tcp_rmem[1] 131072,
        // half of it, rounded down to advmss); the 4.18 server's SYN-ACK 28960
        // = 20 × 1448 (tcp_default_init_rwnd); seed 001's 2.6.32 host 14600.
        assert_eq!(both(Kernel::V5_5), (64_240, 65_160));
        assert_eq!(both(Kernel::V4_18), (29_200, 28_960));
        assert_eq!(both(Kernel::V3_10), (29_200, 28_960));
        assert_eq!(both(Kernel::V2_6_32), (14_600, 14_480));
        // Today's SYN still says 64240 (65160), but rcv_wnd is not capped.
        assert_eq!(both(Kernel::Today), (64_240, 65_160));
    }

    #[test]
    fn a_raised_tcp_rmem_1_opens_todays_initial_window_and_not_5_5s() {
        // tcp_rmem[1] = 1 MiB: the full space is 524288; 359 × 1460 = 524140.
        let mut s = HostSettings::for_kernel(Kernel::Today);
        s.set_tcp_rmem([4096, 1 << 20, 33_554_432]);
        let h = s.finish().unwrap();
        let w = tcp_select_initial_window(&h.receiver, &h.behaviour, 1460);
        assert_eq!(w.rcv_wnd, 524_140);
        let mut s = HostSettings::for_kernel(Kernel::V5_5);
        s.set_tcp_rmem([4096, 1 << 20, 6_291_456]);
        let h = s.finish().unwrap();
        assert_eq!(
            tcp_select_initial_window(&h.receiver, &h.behaviour, 1460).rcv_wnd,
            65_535
        );
    }

    #[test]
    fn route_initrwnd_never_offers_more_than_the_buffer_backs() {
        // initrwnd 120 (175200 bytes) replaces the 10- or 20-segment default
        // on old kernels, but the buffer's own window stays the limit: 2.6.32's
        // 65535 (tcp_adv_win_scale 2 of 87380), 3.10's 43690, 64 KB since 4.20.
        for (k, buffer) in [
            (Kernel::V2_6_32, 44 * 1460),
            (Kernel::V3_10, 29 * 1460),
            (Kernel::V4_18, 29 * 1460),
            (Kernel::V5_5, 44 * 1460),
            (Kernel::Today, 44 * 1460),
        ] {
            let mut s = HostSettings::for_kernel(k);
            s.set_route_initrwnd(120);
            let h = s.finish().unwrap();
            let w = tcp_select_initial_window(&h.receiver, &h.behaviour, 1460).rcv_wnd;
            assert_eq!(w, buffer, "{k}");
        }
    }

    #[test]
    fn the_3_x_buffer_fixup_makes_room_for_eighty_initial_segments() {
        // 2 × SKB_TRUESIZE(1448 + 320) × 20 × 4 = 2 × 2344 × 80 = 375040.
        assert_eq!(tcp_fixup_rcvbuf(87_380, 1448, true, 6_291_456), 375_040);
        assert_eq!(tcp_fixup_rcvbuf(87_380, 1448, false, 6_291_456), 93_760);
        assert_eq!(tcp_fixup_rcvbuf(500_000, 1448, true, 6_291_456), 500_000);
    }

    #[test]
    fn establishing_reserves_one_segment_below_the_buffers_window() {
        // Default buffer, today: 65536 of window, less 1448 = 64088.
        let b = tcp_init_buffer_space(65_536, 65_535 << 10, 64_240, 64_240, 1448);
        assert_eq!((b.window_clamp, b.rcv_ssthresh), (64_088, 64_088));
        assert_eq!(b.rcvq_space, 14_480);
        // SO_RCVBUF 8K: 8192 of window, clamp 8192 - 1448 = 6744.
        let b = tcp_init_buffer_space(8_192, 8_192, 7_240, 7_240, 1448);
        assert_eq!((b.window_clamp, b.rcv_ssthresh), (6_744, 6_744));
    }
}
