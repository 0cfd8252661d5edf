//! Proportional Rate Reduction: how much may be sent on each ACK during fast
//! recovery (RFC 6937; tcp_input.c `tcp_cwnd_reduction`).
//!
//! ```text
//!   pipe > ssthresh  ─► send ssthresh/prior_cwnd of what was delivered
//!                       (cwnd glides down to ssthresh over one round trip)
//!   pipe ≤ ssthresh  ─► slow-start reduction bound: grow back towards
//!                       ssthresh, at most one more than was delivered
//! ```
//!
//! Entering recovery always lets the first retransmission go, whatever the
//! arithmetic says. Recovery itself (which segments are lost, when it ends) is
//! the socket's `tcp_fastretrans_alert`; this is only the cwnd arithmetic.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prr {
    /// cwnd when recovery began (`prior_cwnd`, PRR's RecoverFS).
    pub prior_cwnd: u32,
    /// Segments delivered to the receiver since recovery began.
    pub prr_delivered: u32,
    /// Segments sent since recovery began.
    pub prr_out: u32,
}

impl Prr {
    /// `tcp_init_cwnd_reduction`.
    pub fn new(prior_cwnd: u32) -> Self {
        Prr {
            prior_cwnd: prior_cwnd.max(1),
            prr_delivered: 0,
            prr_out: 0,
        }
    }

    /// cwnd after an ACK that delivered `newly_acked_sacked` segments and
    /// marked `newly_lost` lost, with `in_flight` segments in the network (an
    /// ACK that delivered nothing leaves `cwnd` as it is).
    pub fn cwnd_reduction(
        &mut self,
        cwnd: u32,
        in_flight: u32,
        ssthresh: u32,
        newly_acked_sacked: u32,
        newly_lost: u32,
        una_advanced: bool,
    ) -> u32 {
        if newly_acked_sacked == 0 {
            return cwnd;
        }
        self.prr_delivered += newly_acked_sacked;
        let mut sndcnt: i64 = if in_flight > ssthresh {
            // Proportional: ceil(prr_delivered · ssthresh / prior_cwnd) − prr_out.
            let target =
                (self.prr_delivered as u64 * ssthresh as u64).div_ceil(self.prior_cwnd as u64);
            target as i64 - self.prr_out as i64
        } else {
            let delta = (ssthresh - in_flight) as i64;
            let mut n =
                (self.prr_delivered as i64 - self.prr_out as i64).max(newly_acked_sacked as i64);
            if una_advanced && newly_lost == 0 {
                n += 1;
            }
            n.min(delta)
        };
        // Force the fast retransmit when recovery begins.
        if self.prr_out == 0 {
            sndcnt = sndcnt.max(1);
        }
        (in_flight as i64 + sndcnt.max(0)).max(1) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn above_ssthresh_sends_ssthresh_over_prior_cwnd_per_delivered_segment() {
        // prior_cwnd 20, ssthresh 14 (CUBIC's 0.7). Five segments delivered so
        // far, three sent: ceil(5 × 14 / 20) − 3 = 4 − 3 = 1 more.
        let mut p = Prr::new(20);
        p.prr_delivered = 4;
        p.prr_out = 3;
        assert_eq!(p.cwnd_reduction(20, 16, 14, 1, 0, false), 16 + 1);
    }

    #[test]
    fn below_ssthresh_grows_back_at_most_one_beyond_what_was_delivered() {
        let mut p = Prr::new(20);
        p.prr_delivered = 11;
        p.prr_out = 12;
        // in_flight 8 ≤ 14: max(12 − 12, 1) + 1 (una advanced) = 2, ≤ 14 − 8.
        assert_eq!(p.cwnd_reduction(20, 8, 14, 1, 0, true), 8 + 2);
        // Without the cumulative ACK's bonus only 1.
        let mut p = Prr::new(20);
        p.prr_delivered = 11;
        p.prr_out = 12;
        assert_eq!(p.cwnd_reduction(20, 8, 14, 1, 0, false), 8 + 1);
    }

    #[test]
    fn the_first_ack_of_recovery_always_lets_the_retransmission_out() {
        // In flight already at ssthresh: the reduction bound allows nothing,
        // but the retransmission that starts recovery still goes.
        let mut p = Prr::new(10);
        assert_eq!(p.cwnd_reduction(10, 7, 7, 3, 1, false), 7 + 1);
        // An ACK that delivers nothing changes nothing.
        assert_eq!(p.cwnd_reduction(10, 7, 7, 0, 0, false), 10);
    }
}
