//! Round-trip estimation and the retransmission timeout (RFC 6298, with Linux's floor).
//!
//! Linux keeps RFC 6298's smoothed RTT and variance but never lets the variance
//! term fall below `TCP_RTO_MIN` (tcp_input.c `tcp_rtt_estimator`,
//! `__tcp_set_rto`), so in practice RTO = SRTT + max(4·RTTVAR, 200 ms).

use crate::config::{TCP_RTO_MAX, TCP_RTO_MIN, TCP_TIMEOUT_INIT};
use crate::time::SimDuration;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RttEstimator {
    srtt: Option<SimDuration>,
    rttvar: SimDuration,
    /// Consecutive timeouts without a fresh sample; each doubles the RTO.
    backoff: u32,
    /// An RTO `tcp_init_metrics` set from the cached RTT, until the first
    /// sample after the handshake recomputes it (`tcp_set_rto`).
    seeded_rto: Option<SimDuration>,
}

impl Default for RttEstimator {
    fn default() -> Self {
        RttEstimator {
            srtt: None,
            rttvar: SimDuration::ZERO,
            backoff: 0,
            seeded_rto: None,
        }
    }
}

impl RttEstimator {
    /// Feeds one RTT measurement (never from a retransmitted segment: Karn's rule).
    pub fn on_sample(&mut self, r: SimDuration) {
        match self.srtt {
            // RFC 6298 (2.2): SRTT = R, RTTVAR = R/2.
            None => {
                self.srtt = Some(r);
                self.rttvar = SimDuration(r.0 / 2);
            }
            // RFC 6298 (2.3): RTTVAR = 3/4 RTTVAR + 1/4 |SRTT - R'|; SRTT = 7/8 SRTT + 1/8 R'.
            Some(srtt) => {
                let err = srtt.0.abs_diff(r.0);
                self.rttvar = SimDuration((3 * self.rttvar.0 + err) / 4);
                self.srtt = Some(SimDuration((7 * srtt.0 + r.0) / 8));
            }
        }
        self.backoff = 0;
        self.seeded_rto = None;
    }

    /// `tcp_init_metrics`: the cached RTT (`crtt`) sets the RTO, if it is
    /// larger than the handshake's estimate, as crtt + max(2·crtt,
    /// `TCP_RTO_MIN`); srtt and rttvar stay the handshake's, so the cached
    /// RTT "only influences the first RTO".
    pub fn seed_rto(&mut self, crtt: SimDuration) {
        if crtt > self.srtt.unwrap_or(SimDuration::ZERO) {
            self.seeded_rto = Some(rto_from_cached(crtt));
        }
    }

    /// `tcp_init_metrics` before 3.12: the cached RTT (`crtt`) and variance
    /// (`cvar`) raise srtt and rttvar where they are larger than the
    /// handshake's sample ("rtt may appear much less than real one. Use
    /// per-dst memory to make it more realistic"), and the RTO follows from
    /// them. Without a handshake sample nothing is seeded (`goto reset`).
    pub fn seed_estimator(&mut self, crtt: SimDuration, cvar: SimDuration) {
        let Some(srtt) = self.srtt else {
            return;
        };
        self.srtt = Some(srtt.max(crtt));
        // The kernel's `rttvar = max(mdev, tcp_rto_min)` is `base_rto`'s floor.
        self.rttvar = self.rttvar.max(cvar);
    }

    pub fn rttvar(&self) -> SimDuration {
        self.rttvar
    }

    pub fn srtt(&self) -> Option<SimDuration> {
        self.srtt
    }

    /// The timeout before backoff: 1 s before any sample (`TCP_TIMEOUT_INIT`).
    pub fn base_rto(&self) -> SimDuration {
        if let Some(rto) = self.seeded_rto {
            return rto.min(TCP_RTO_MAX);
        }
        match self.srtt {
            None => TCP_TIMEOUT_INIT,
            Some(srtt) => {
                let var = SimDuration(4 * self.rttvar.0).max(TCP_RTO_MIN);
                (srtt + var).min(TCP_RTO_MAX)
            }
        }
    }

    /// The timeout to arm now, with exponential backoff, capped at `TCP_RTO_MAX`.
    pub fn rto(&self) -> SimDuration {
        let mut rto = self.base_rto();
        for _ in 0..self.backoff.min(16) {
            rto = rto.doubled();
        }
        rto.min(TCP_RTO_MAX)
    }

    /// A timeout fired: the next one waits twice as long.
    pub fn back_off(&mut self) {
        self.backoff = self.backoff.saturating_add(1);
    }

    pub fn backoff(&self) -> u32 {
        self.backoff
    }
}

/// The RTO `tcp_init_metrics` sets from a cached RTT: "like
/// `tcp_rtt_estimator()`, but from cached RTT", crtt + max(2·crtt, `TCP_RTO_MIN`).
pub fn rto_from_cached(crtt: SimDuration) -> SimDuration {
    crtt + SimDuration(2 * crtt.0).max(TCP_RTO_MIN)
}

/// `tcp_model_timeout` (tcp_timer.c): how long `boundary` retransmissions take
/// when each doubles from `rto_base` up to `TCP_RTO_MAX`. A sender that has
/// been retransmitting longer than this gives up.
pub fn tcp_model_timeout(boundary: u32, rto_base: SimDuration) -> SimDuration {
    // ilog2(TCP_RTO_MAX / rto_base): doublings before the cap.
    let linear = (TCP_RTO_MAX.0 / rto_base.0.max(1)).max(1).ilog2();
    if boundary <= linear {
        SimDuration(((2u64 << boundary) - 1) * rto_base.0)
    } else {
        SimDuration(
            ((2u64 << linear) - 1) * rto_base.0 + (boundary - linear) as u64 * TCP_RTO_MAX.0,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn before_3_12_the_cache_raises_srtt_and_rttvar_and_the_rto_follows() {
        let ms = SimDuration::from_millis;
        // Handshake 20 ms: srtt 20, rttvar 10, RTO 20 + 200.
        let mut r = RttEstimator::default();
        r.on_sample(ms(20));
        r.seed_estimator(ms(60), ms(70));
        assert_eq!((r.srtt(), r.rttvar()), (Some(ms(60)), ms(70)));
        assert_eq!(r.rto(), ms(60 + 280));
        // Smaller cached figures change nothing.
        let mut r = RttEstimator::default();
        r.on_sample(ms(20));
        r.seed_estimator(ms(15), ms(5));
        assert_eq!((r.srtt(), r.rttvar()), (Some(ms(20)), ms(10)));
        assert_eq!(r.rto(), ms(220));
        // Without a handshake sample, nothing is seeded (`goto reset`).
        let mut r = RttEstimator::default();
        r.seed_estimator(ms(60), ms(70));
        assert_eq!(r.srtt(), None);
        assert_eq!(r.rto(), SimDuration::from_secs(1));
        // Later samples move the seeded estimate as any other.
        let mut r = RttEstimator::default();
        r.on_sample(ms(20));
        r.seed_estimator(ms(60), ms(70));
        r.on_sample(ms(20));
        assert_eq!(
            r.srtt(),
            Some(SimDuration((7 * 60_000_000 + 20_000_000) / 8))
        );
    }

    #[test]
    fn a_cached_rtt_sets_the_first_rto_until_the_first_sample() {
        let mut r = RttEstimator::default();
        r.on_sample(SimDuration::from_millis(50));
        // Handshake at 50 ms: 50 + max(4 × 25, 200) = 250 ms.
        assert_eq!(r.rto(), SimDuration::from_millis(250));
        // A smaller cached RTT changes nothing; a larger one sets the RTO.
        r.seed_rto(SimDuration::from_millis(40));
        assert_eq!(r.rto(), SimDuration::from_millis(250));
        r.seed_rto(SimDuration::from_millis(120));
        assert_eq!(r.rto(), SimDuration::from_millis(360));
        r.back_off();
        assert_eq!(r.rto(), SimDuration::from_millis(720));
        r.on_sample(SimDuration::from_millis(50));
        assert_eq!(r.srtt(), Some(SimDuration::from_millis(50)));
        assert_eq!(r.rto(), SimDuration::from_millis(50 + 200));
    }

    #[test]
    fn tcp_retries2_15_means_about_924_seconds() {
        // 200 ms doubles 9 times before reaching 120 s: (2^10 − 1) x 0.2 s = 204.6 s,
        // then 6 more at 120 s: 924.6 s.
        assert_eq!(
            tcp_model_timeout(15, TCP_RTO_MIN),
            SimDuration::from_millis(924_600)
        );
        // tcp_syn_retries 6 from the 1 s initial RTO: (2^7 − 1) x 1 s = 127 s.
        assert_eq!(
            tcp_model_timeout(6, TCP_TIMEOUT_INIT),
            SimDuration::from_secs(127)
        );
    }

    #[test]
    fn rto_starts_at_one_second() {
        assert_eq!(RttEstimator::default().rto(), SimDuration::from_secs(1));
    }

    #[test]
    fn a_short_rtt_gives_linuxs_200ms_floor_plus_srtt() {
        let mut e = RttEstimator::default();
        e.on_sample(SimDuration::from_millis(7));
        // 4 * 3.5 ms = 14 ms is below the floor, so RTO = 7 ms + 200 ms.
        assert_eq!(e.rto(), SimDuration::from_millis(207));
    }

    #[test]
    fn a_long_rtt_follows_rfc_6298() {
        let mut e = RttEstimator::default();
        e.on_sample(SimDuration::from_millis(200));
        // SRTT 200, RTTVAR 100: RTO = 200 + 4*100 = 600 ms.
        assert_eq!(e.rto(), SimDuration::from_millis(600));
        e.on_sample(SimDuration::from_millis(100));
        // RTTVAR = 3/4*100 + 1/4*100 = 100; SRTT = 7/8*200 + 1/8*100 = 187.5
        assert_eq!(e.rto(), SimDuration::from_micros(587_500));
    }

    #[test]
    fn each_timeout_doubles_the_rto_up_to_120_seconds() {
        let mut e = RttEstimator::default();
        e.back_off();
        assert_eq!(e.rto(), SimDuration::from_secs(2));
        for _ in 0..20 {
            e.back_off();
        }
        assert_eq!(e.rto(), SimDuration::from_secs(120));
        e.on_sample(SimDuration::from_millis(7));
        assert_eq!(e.backoff(), 0);
    }
}
