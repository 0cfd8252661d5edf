//! What one ACK told the sender, as the `FLAG_*` bits `tcp_ack` collects
//! (tcp_input.c) for the rules that read them after the scoreboard has
//! taken the ACK in: the tail-loss probe's episode (`tcp_process_tlp_ack`)
//! and F-RTO (`tcp_process_loss`, and 2.6.32's `tcp_process_frto`).

/// The flags of one ACK.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AckFlags {
    /// The cumulative ACK.
    pub ack: u64,
    /// `FLAG_SND_UNA_ADVANCED` (for data, also `FLAG_DATA_ACKED`).
    pub una_advanced: bool,
    /// `FLAG_NOT_DUP`: the segment carried data, changed the window or
    /// acknowledged data.
    pub not_dup: bool,
    /// `FLAG_DATA_SACKED`: it SACKed data not SACKed before.
    pub data_sacked: bool,
    /// `FLAG_DSACKING_ACK`: the range its D-SACK block reports as received
    /// twice (`tcp_check_dsack`).
    pub dsack: Option<(u64, u64)>,
    /// `FLAG_ORIG_SACK_ACKED`: never-retransmitted data sent before the
    /// timeout was (S)ACKed now. Only worked out while F-RTO is judging a
    /// timeout.
    pub orig_sack_acked: bool,
    /// `FLAG_ONLY_ORIG_SACKED` (2.6.32): the new SACKs cover only
    /// never-retransmitted data sent before the timeout.
    pub only_orig_sacked: bool,
    /// `FLAG_RETRANS_DATA_ACKED`: some of the data ACKed now was retransmitted.
    pub retrans_data_acked: bool,
}

impl AckFlags {
    /// An ACK of `ack` that may be a duplicate (`not_dup` false) or not.
    pub fn new(ack: u64, not_dup: bool) -> Self {
        AckFlags {
            ack,
            not_dup,
            ..AckFlags::default()
        }
    }

    /// A pure duplicate ACK (`num_dupack` in `tcp_ack`): nothing ACKed, no
    /// data, no window change, no D-SACK.
    pub fn pure_dupack(&self) -> bool {
        !(self.una_advanced || self.not_dup || self.dsack.is_some())
    }

    /// `FLAG_FORWARD_PROGRESS`: data ACKed or newly SACKed.
    pub fn forward_progress(&self) -> bool {
        self.una_advanced || self.data_sacked
    }
}

/// `tcp_check_dsack`: the first SACK block reports a duplicate (RFC 2883)
/// when it lies below the cumulative ACK, or inside the second block.
pub fn dsack_block(blocks: &[(u64, u64)], ack: u64) -> Option<(u64, u64)> {
    let &(start, end) = blocks.first()?;
    let below_ack = start < ack;
    let inside_next = blocks
        .get(1)
        .is_some_and(|&(s1, e1)| start >= s1 && end <= e1);
    (start < end && (below_ack || inside_next)).then_some((start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dsack_is_a_first_block_below_the_ack_or_inside_the_second() {
        assert_eq!(dsack_block(&[(8689, 10_137)], 10_137), Some((8689, 10_137)));
        assert_eq!(dsack_block(&[(11_585, 13_033)], 10_137), None);
        assert_eq!(
            dsack_block(&[(11_585, 13_033), (11_585, 14_481)], 10_137),
            Some((11_585, 13_033))
        );
        assert_eq!(dsack_block(&[], 10_137), None);
    }
}
