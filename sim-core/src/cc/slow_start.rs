//! The two growth helpers every Linux algorithm shares (net/ipv4/tcp_cong.c).

use super::ControlBlock;

/// `tcp_slow_start()`: cwnd += acked, but not past ssthresh. Returns the ACKed
/// segments left over once ssthresh is reached, for congestion avoidance to use.
///
/// One ACK per two segments still doubles cwnd per round trip: each ACK adds
/// two segments' worth.
pub fn tcp_slow_start(cb: &mut ControlBlock, acked: u32) -> u32 {
    let cwnd = cb.cwnd.saturating_add(acked).min(cb.ssthresh);
    let leftover = acked - (cwnd - cb.cwnd);
    cb.cwnd = cwnd.min(cb.cwnd_clamp);
    leftover
}

/// `tcp_cong_avoid_ai()`: additive increase, +1 segment per `w` ACKed segments.
pub fn tcp_cong_avoid_ai(cb: &mut ControlBlock, w: u32, acked: u32) {
    let w = w.max(1);
    // Credits accumulated at a larger w are applied gently now (as Linux does).
    if cb.cwnd_cnt >= w {
        cb.cwnd_cnt = 0;
        cb.cwnd += 1;
    }
    cb.cwnd_cnt += acked;
    if cb.cwnd_cnt >= w {
        let delta = cb.cwnd_cnt / w;
        cb.cwnd_cnt -= delta * w;
        cb.cwnd += delta;
    }
    cb.cwnd = cb.cwnd.min(cb.cwnd_clamp);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_start_adds_one_segment_per_segment_acked() {
        let mut cb = ControlBlock::new(10);
        assert_eq!(tcp_slow_start(&mut cb, 2), 0);
        assert_eq!(cb.cwnd, 12);
    }

    #[test]
    fn slow_start_stops_at_ssthresh_and_returns_the_rest() {
        let mut cb = ControlBlock::new(10);
        cb.ssthresh = 11;
        assert_eq!(tcp_slow_start(&mut cb, 3), 2);
        assert_eq!(cb.cwnd, 11);
    }

    #[test]
    fn avoidance_adds_one_segment_per_window_of_acks() {
        let mut cb = ControlBlock::new(10);
        cb.ssthresh = 10;
        for _ in 0..9 {
            tcp_cong_avoid_ai(&mut cb, 10, 1);
            assert_eq!(cb.cwnd, 10);
        }
        tcp_cong_avoid_ai(&mut cb, 10, 1);
        assert_eq!(cb.cwnd, 11);
        assert_eq!(cb.cwnd_cnt, 0);
    }
}
