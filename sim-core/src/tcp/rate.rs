//! Delivery-rate estimation (net/ipv4/tcp_rate.c; draft-cheng-iccrg-delivery-rate-estimation).
//!
//! Each transmission is stamped with how much had been delivered so far and
//! when; when its ACK (or SACK) arrives, the difference gives a delivery rate
//! over the interval:
//!
//! ```text
//!   sent: delivered = D0 at t0          acked at t1: delivered = D1
//!   rate = (D1 − D0) / max(send interval, ACK interval)
//! ```
//!
//! Taking the longer of the two intervals keeps an ACK compressed by the
//! receiver or the path from inflating the estimate. BBR's bandwidth filter is
//! fed these samples.

use super::scoreboard::{TxRate, TxSeg, sent_after};
use crate::cc::RateSample;
use crate::time::{SimDuration, SimTime};

#[derive(Clone, Debug, Default)]
pub struct RateEstimator {
    /// `tp->delivered`: segments delivered over the connection's life.
    pub delivered: u64,
    /// When `delivered` last changed (`delivered_mstamp`).
    delivered_mstamp: SimTime,
    /// Send time of the newest segment delivered so far, which starts the next
    /// sending phase (`first_tx_mstamp`).
    first_tx_mstamp: SimTime,
    /// Nonzero: rate samples are app-limited until `delivered` passes it (`tp->app_limited`).
    app_limited: u64,
}

/// A sample being assembled from one ACK's deliveries.
#[derive(Clone, Copy, Debug, Default)]
pub struct SampleBuilder {
    prior_delivered: u64,
    prior_mstamp: Option<SimTime>,
    is_app_limited: bool,
    is_retrans: bool,
    last_sent: Option<(SimTime, u64)>,
    send_interval: SimDuration,
    /// RTT of the most recently sent segment delivered.
    pub rtt: Option<SimDuration>,
}

impl RateEstimator {
    pub fn app_limited(&self) -> bool {
        self.app_limited != 0
    }

    /// `tcp_rate_skb_sent`: the stamp for a segment leaving now. A sending
    /// phase starts afresh when nothing was in flight.
    pub fn on_send(&mut self, now: SimTime, packets_out: u32) -> TxRate {
        if packets_out == 0 {
            self.first_tx_mstamp = now;
            self.delivered_mstamp = now;
        }
        TxRate {
            delivered: self.delivered,
            delivered_mstamp: Some(self.delivered_mstamp),
            first_tx_mstamp: self.first_tx_mstamp,
            is_app_limited: self.app_limited != 0,
        }
    }

    /// `tcp_rate_check_app_limited`: the application has nothing more to send
    /// while the network could take more, so the coming samples measure the
    /// application, not the path.
    pub fn check_app_limited(
        &mut self,
        nothing_unsent: bool,
        in_flight: u32,
        cwnd: u32,
        lost_out: u32,
    ) {
        if nothing_unsent && in_flight < cwnd && lost_out == 0 {
            self.app_limited = (self.delivered + in_flight as u64).max(1);
        }
    }

    /// `tcp_rate_skb_delivered`: one segment reached the receiver.
    pub fn on_delivered(&mut self, b: &mut SampleBuilder, seg: &TxSeg, now: SimTime) {
        self.delivered += 1;
        if !seg.ever_retrans {
            b.rtt = Some(now.since(seg.sent_at));
        }
        let Some(mstamp) = seg.rate.delivered_mstamp else {
            return;
        };
        let newer = match b.last_sent {
            None => true,
            Some((t, end)) => sent_after(seg.sent_at, t, seg.end, end),
        };
        if b.prior_mstamp.is_none() || newer {
            b.prior_delivered = seg.rate.delivered;
            b.prior_mstamp = Some(mstamp);
            b.is_app_limited = seg.rate.is_app_limited;
            b.is_retrans = seg.retrans || seg.ever_retrans;
            b.last_sent = Some((seg.sent_at, seg.end));
            self.first_tx_mstamp = seg.sent_at;
            b.send_interval = seg.sent_at.since(seg.rate.first_tx_mstamp);
        }
    }

    /// An algorithm declared the coming samples application-limited (BBR in
    /// ProbeRTT sets `tp->app_limited` itself).
    pub fn mark_app_limited(&mut self, in_flight: u32) {
        self.app_limited = (self.delivered + in_flight as u64).max(1);
    }

    /// Counts segments delivered without SACK information (duplicate ACKs
    /// standing for segments the receiver holds, `tcp_add_reno_sack`).
    pub fn count_delivered(&mut self, n: u32) {
        self.delivered += n as u64;
    }

    /// `tcp_rate_gen`: the sample for this ACK.
    pub fn generate(
        &mut self,
        b: &SampleBuilder,
        now: SimTime,
        acked_sacked: u32,
        losses: u32,
        prior_in_flight: u32,
        min_rtt: Option<SimDuration>,
    ) -> RateSample {
        if self.app_limited != 0 && self.delivered > self.app_limited {
            self.app_limited = 0;
        }
        if acked_sacked > 0 {
            self.delivered_mstamp = now;
        }
        let mut rs = RateSample {
            now,
            prior_delivered: b.prior_delivered,
            delivered: 0,
            interval: None,
            rtt: b.rtt,
            losses,
            acked_sacked,
            prior_in_flight,
            is_app_limited: b.is_app_limited,
        };
        let Some(prior_mstamp) = b.prior_mstamp else {
            return rs;
        };
        rs.delivered = self.delivered - b.prior_delivered;
        let ack_interval = now.since(prior_mstamp);
        let interval = b.send_interval.max(ack_interval);
        // An interval shorter than the path's minimum RTT cannot be a real
        // delivery rate (ACK compression); Linux discards it.
        if min_rtt.is_some_and(|m| interval < m) || interval == SimDuration::ZERO {
            return rs;
        }
        rs.interval = Some(interval);
        rs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_sent_back_to_back_is_measured_over_its_round_trip() {
        // Ten segments sent at t = 0..9 µs on an idle connection, all ACKed at
        // 10 ms + 9 µs: ten delivered over max(9 µs send, 10 ms ACK) = 10 ms.
        let mut r = RateEstimator::default();
        let segs: Vec<TxSeg> = (0..10)
            .map(|i| {
                let t = SimTime(i * 1000);
                let stamp = r.on_send(t, i as u32);
                TxSeg::new(1 + i * 1448, 1 + (i + 1) * 1448, 1, t, stamp)
            })
            .collect();
        let now = SimTime(10_009_000);
        let mut b = SampleBuilder::default();
        for s in &segs {
            r.on_delivered(&mut b, s, now);
        }
        let rs = r.generate(&b, now, 10, 0, 10, Some(SimDuration::from_millis(10)));
        assert_eq!(rs.delivered, 10);
        assert_eq!(rs.interval, Some(SimDuration(10_009_000)));
        assert_eq!(rs.rtt, Some(SimDuration(10_000_000)));
    }

    #[test]
    fn an_interval_shorter_than_min_rtt_is_no_sample() {
        let mut r = RateEstimator::default();
        let stamp = r.on_send(SimTime(0), 0);
        let seg = TxSeg::new(1, 1449, 1, SimTime(0), stamp);
        let mut b = SampleBuilder::default();
        let now = SimTime(1_000_000);
        r.on_delivered(&mut b, &seg, now);
        let rs = r.generate(&b, now, 1, 0, 1, Some(SimDuration::from_millis(5)));
        assert_eq!(rs.interval, None);
    }

    #[test]
    fn an_app_limited_mark_lasts_until_its_data_is_delivered() {
        let mut r = RateEstimator {
            delivered: 100,
            ..RateEstimator::default()
        };
        r.check_app_limited(true, 4, 10, 0);
        assert!(r.app_limited());
        r.delivered = 104;
        r.generate(&SampleBuilder::default(), SimTime(1), 0, 0, 0, None);
        assert!(r.app_limited());
        r.delivered = 105;
        r.generate(&SampleBuilder::default(), SimTime(2), 0, 0, 0, None);
        assert!(!r.app_limited());
    }
}
