//! Restart after idle (tcp_output.c `tcp_cwnd_restart`, called when
//! `net.ipv4.tcp_slow_start_after_idle` = 1 and a sender with nothing in flight
//! writes again after more than one RTO of silence): the network may have
//! changed while the connection was quiet, so the old cwnd is not trusted.
//!
//! ```text
//!   idle ─► cwnd halved once per RTO of idle time, not below min(initcwnd, cwnd)
//!           ssthresh = max(ssthresh, 3/4 cwnd)          (tcp_current_ssthresh)
//! ```

use crate::cc::ControlBlock;
use crate::time::SimDuration;

/// `tcp_cwnd_restart` (tcp_output.c): halve cwnd once per RTO of idle time,
/// never below min(initcwnd, cwnd); ssthresh becomes `tcp_current_ssthresh`,
/// max(ssthresh, 3/4 cwnd).
pub fn cwnd_restart(cb: &mut ControlBlock, initcwnd: u32, idle: SimDuration, rto: SimDuration) {
    let restart_cwnd = initcwnd.min(cb.cwnd);
    let mut cwnd = cb.cwnd;
    cb.ssthresh = cb.ssthresh.max((cb.cwnd >> 1) + (cb.cwnd >> 2));
    let mut delta = idle.0 as i128;
    loop {
        delta -= rto.0 as i128;
        if delta <= 0 || cwnd <= restart_cwnd {
            break;
        }
        cwnd >>= 1;
    }
    cb.cwnd = cwnd.max(restart_cwnd);
    cb.cwnd_cnt = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_seconds_idle_halves_a_320_segment_cwnd_back_to_initcwnd() {
        // RTO 207 ms: 10 s is 48 RTOs, far more than the 5 halvings 320 → 10 needs.
        let mut cb = ControlBlock::new(10);
        cb.cwnd = 320;
        cwnd_restart(
            &mut cb,
            10,
            SimDuration::from_secs(10),
            SimDuration::from_millis(207),
        );
        assert_eq!(cb.cwnd, 10);
        assert_eq!(
            cb.ssthresh,
            crate::cc::TCP_INFINITE_SSTHRESH,
            "max(infinite, 3/4 cwnd)"
        );
    }

    #[test]
    fn each_rto_of_idle_time_halves_cwnd_once() {
        let mut cb = ControlBlock::new(10);
        cb.cwnd = 320;
        cb.ssthresh = 100;
        // 2.5 RTOs idle: delta stays positive after two subtractions → two halvings.
        cwnd_restart(
            &mut cb,
            10,
            SimDuration::from_millis(500),
            SimDuration::from_millis(200),
        );
        assert_eq!(cb.cwnd, 80);
        assert_eq!(cb.ssthresh, 240, "3/4 of the old cwnd");
    }

    #[test]
    fn a_cwnd_below_initcwnd_is_kept() {
        let mut cb = ControlBlock::new(10);
        cb.cwnd = 4;
        cwnd_restart(
            &mut cb,
            10,
            SimDuration::from_secs(10),
            SimDuration::from_millis(200),
        );
        assert_eq!(cb.cwnd, 4);
    }
}
