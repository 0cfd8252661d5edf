//! Fast retransmit and fast recovery without SACK: NewReno (RFC 6582) with
//! Proportional Rate Reduction sizing what is sent (RFC 6937, `tcp_cwnd_reduction`).
//!
//! ```text
//!   3 duplicate ACKs ─► ssthresh = ca.ssthresh(); retransmit the first unacked segment
//!   each further ACK  ─► PRR: send about ssthresh/RecoverFS segments per segment delivered
//!   partial ACK       ─► the next hole is lost too: retransmit it (NewReno)
//!   ACK past high_seq ─► recovery over, cwnd = ssthresh
//! ```
//!
//! Without SACK the receiver's duplicate ACKs are counted as segments that left
//! the network (`tcp_add_reno_sack`), which is how Linux itself runs when the
//! peer does not do SACK. SACK scoreboards and RACK-TLP are not modelled.

/// `TCP_FASTRETRANS_THRESH`: duplicate ACKs that signal a loss.
pub const TCP_FASTRETRANS_THRESH: u32 = 3;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recovery {
    /// `high_seq`: recovery ends when this is acknowledged.
    pub high_seq: u64,
    /// Segments in flight when recovery began (PRR's RecoverFS).
    pub recover_fs: u32,
    /// Segments delivered to the receiver since recovery began.
    pub prr_delivered: u32,
    /// Segments sent since recovery began.
    pub prr_out: u32,
    /// Duplicate ACKs standing in for SACKed segments (`sacked_out`).
    pub sacked_out: u32,
    /// The presumed-lost head segment has been retransmitted.
    pub head_retransmitted: bool,
}

impl Recovery {
    pub fn new(high_seq: u64, packets_out: u32, dupacks: u32) -> Self {
        Recovery {
            high_seq,
            recover_fs: packets_out.max(1),
            prr_delivered: 0,
            prr_out: 0,
            sacked_out: dupacks.min(packets_out.saturating_sub(1)),
            head_retransmitted: false,
        }
    }

    /// Segments the network holds (`tcp_packets_in_flight`): outstanding, less
    /// those the receiver has (dup ACKs) and the lost head, plus its retransmission.
    pub fn pipe(&self, packets_out: u32) -> u32 {
        (packets_out + self.head_retransmitted as u32).saturating_sub(self.sacked_out + 1)
    }

    /// RFC 6937 with slow-start reduction bound (PRR-SSRB): cwnd for this ACK,
    /// which delivered `delivered` segments.
    pub fn cwnd(&self, packets_out: u32, ssthresh: u32, delivered: u32) -> u32 {
        let pipe = self.pipe(packets_out);
        let sndcnt = if pipe > ssthresh {
            // Proportional part: ceil(prr_delivered · ssthresh / RecoverFS) − prr_out.
            let target =
                (self.prr_delivered as u64 * ssthresh as u64).div_ceil(self.recover_fs as u64);
            (target as u32).saturating_sub(self.prr_out)
        } else {
            // Slow-start reduction bound: grow back towards ssthresh, at most one
            // segment more than was delivered.
            let limit = self
                .prr_delivered
                .saturating_sub(self.prr_out)
                .max(delivered)
                + 1;
            (ssthresh - pipe).min(limit)
        };
        // Always allow the retransmission itself to go out.
        (pipe + sndcnt).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pipe_counts_dup_acks_as_delivered_and_the_head_as_lost() {
        // 20 out, 3 dup ACKs: 20 − 3 − 1 = 16 in the network; after the
        // retransmission 17.
        let mut r = Recovery::new(1000, 20, 3);
        assert_eq!(r.pipe(20), 16);
        r.head_retransmitted = true;
        assert_eq!(r.pipe(20), 17);
    }

    #[test]
    fn prr_sends_about_ssthresh_over_recoverfs_per_delivered_segment() {
        // RecoverFS 20, ssthresh 14 (CUBIC's 0.7): after 10 segments delivered,
        // ceil(10 x 14 / 20) = 7 may have been sent.
        let mut r = Recovery::new(1000, 20, 3);
        r.head_retransmitted = true;
        r.prr_delivered = 10;
        r.prr_out = 5;
        // pipe = 20 + 1 − (3 + 1) = 17 > 14: sndcnt = 7 − 5 = 2.
        assert_eq!(r.cwnd(20, 14, 1), 17 + 2);
    }

    #[test]
    fn below_ssthresh_prr_climbs_back_at_most_one_beyond_what_was_delivered() {
        let mut r = Recovery::new(1000, 20, 3);
        r.head_retransmitted = true;
        r.sacked_out = 12;
        r.prr_delivered = 12;
        r.prr_out = 12;
        // pipe = 21 − 13 = 8 ≤ ssthresh 14: limit = max(0, 1) + 1 = 2.
        assert_eq!(r.cwnd(20, 14, 1), 8 + 2);
    }
}
