//! The drop list at work: which segments leaving a host the path must lose,
//! whatever the seed.
//!
//! Linux has no such list; a packetdrill script "loses" a segment by never
//! acknowledging it, and on real hosts a packet filter does it (iptables'
//! `statistic --mode nth`, or a u32/BPF classifier matching a sequence
//! number). Here each rule counts, on its flow's current connection and in
//! its direction, the segments of new data and the pure ACKs as they are
//! sent, and names one of them (or a byte range) to lose.

use crate::config::{Direction, DropRule, DropTarget, Transmission};
use crate::segment::{Segment, Side};

/// What a flow has sent one way on its current connection.
#[derive(Clone, Copy, Default)]
struct Counts {
    /// Segments of new data (first transmissions with payload).
    data: u32,
    /// Segments without payload, SYN or FIN.
    acks: u32,
}

#[derive(Clone)]
pub(super) struct DropList {
    rules: Vec<DropRule>,
    /// Per rule: the sequence range `[start, end)` its segment carried when
    /// first sent, so that `Transmission::All` can match its retransmissions.
    carried: Vec<Option<(u64, u64)>>,
    /// Per flow: its connection (1 = the first) and the counts each way.
    flows: Vec<(u32, [Counts; 2])>,
}

impl DropList {
    pub(super) fn new(rules: &[DropRule], flows: u32) -> Self {
        DropList {
            rules: rules.to_vec(),
            carried: vec![None; rules.len()],
            flows: vec![(1, [Counts::default(); 2]); flows as usize],
        }
    }

    #[inline(always)]
    pub(super) fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// `flow` opened a new connection: counting starts again.
    pub(super) fn on_reconnect(&mut self, flow: u16) {
        let (connection, counts) = &mut self.flows[flow as usize];
        *connection += 1;
        *counts = [Counts::default(); 2];
    }

    /// Counts `seg`, sent by `from` on `flow`, and says whether a rule names it.
    pub(super) fn matches(
        &mut self,
        flow: u16,
        from: Side,
        seg: &Segment,
        retransmit: bool,
    ) -> bool {
        let direction = Direction::of(from);
        let (connection, counts) = &mut self.flows[flow as usize];
        let c = &mut counts[direction as usize];
        let new_data = seg.len > 0 && !retransmit;
        let pure_ack = seg.len == 0 && !seg.flags.syn && !seg.flags.fin;
        c.data += new_data as u32;
        c.acks += pure_ack as u32;
        let (start, end) = (seg.seq, seg.seq + seg.len as u64);
        let mut hit = false;
        for (rule, carried) in self.rules.iter().zip(&mut self.carried) {
            if rule.flow != flow || rule.direction != direction || rule.connection != *connection {
                continue;
            }
            let any = rule.transmission == Transmission::All;
            hit |= match rule.target {
                DropTarget::Segment(n) if new_data && c.data == n => {
                    *carried = Some((start, end));
                    true
                }
                DropTarget::Segment(_) => {
                    any && seg.len > 0 && carried.is_some_and(|(s, e)| start < e && s < end)
                }
                // Relative sequence numbers: bytes `first..=last` are
                // `[first, last + 1)` in the segment's numbering.
                DropTarget::Bytes { first, last } => {
                    seg.len > 0 && (any || !retransmit) && start <= last && first < end
                }
                DropTarget::Ack(n) => pure_ack && c.acks == n,
            };
        }
        hit
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::Flags;

    fn data(seq: u64, len: u32) -> Segment {
        Segment {
            id: 0,
            from: Side::Server,
            seq,
            len,
            ack: 1,
            wnd: 65_535,
            flags: Flags {
                ack: true,
                ..Flags::default()
            },
            sack: Default::default(),
            ts_val: 0,
            ts_ecr: 0,
        }
    }

    fn ack(n: u64) -> Segment {
        Segment {
            from: Side::Client,
            seq: 1,
            ack: n,
            ..data(1, 0)
        }
    }

    /// Which of ten full segments (and a retransmission of the 4th) `rule` drops.
    fn dropped(rule: DropRule) -> Vec<(u64, bool)> {
        let mut list = DropList::new(&[rule], 1);
        let sent = (0..10)
            .map(|i| (data(1 + i * 1448, 1448), false))
            .chain([(data(1 + 3 * 1448, 1448), true)]);
        sent.filter(|(seg, re)| list.matches(0, Side::Server, seg, *re))
            .map(|(seg, re)| (seg.seq, re))
            .collect()
    }

    #[test]
    fn the_fourth_segment_is_dropped_once_or_on_every_transmission() {
        let fourth = 1 + 3 * 1448;
        assert_eq!(dropped(DropRule::data_segment(4)), vec![(fourth, false)]);
        assert_eq!(
            dropped(DropRule::data_segment(4).every_transmission()),
            vec![(fourth, false), (fourth, true)]
        );
    }

    #[test]
    fn a_byte_range_drops_every_segment_it_touches() {
        // 4345-4345 is the first byte of the 4th segment; 2897-4345 spans the 3rd and 4th.
        let bytes = |first, last| DropRule::new(Direction::Data, DropTarget::Bytes { first, last });
        assert_eq!(dropped(bytes(4345, 4345)), vec![(4345, false)]);
        assert_eq!(
            dropped(bytes(2897, 4345)),
            vec![(2897, false), (4345, false)]
        );
    }

    #[test]
    fn acks_are_counted_in_their_own_direction_and_per_connection() {
        let mut list = DropList::new(&[DropRule::client_ack(2)], 1);
        let hits = |list: &mut DropList, seg: Segment| list.matches(0, seg.from, &seg, false);
        assert!(!hits(&mut list, data(1, 1448)), "data is not an ACK");
        assert!(
            !hits(&mut list, data(1, 0)),
            "the server's ACKs are not the client's"
        );
        assert!(!hits(&mut list, ack(1)));
        assert!(hits(&mut list, ack(1449)));
        assert!(!hits(&mut list, ack(2897)));
        list.on_reconnect(0);
        assert!(!hits(&mut list, ack(1)));
        assert!(
            !hits(&mut list, ack(1449)),
            "the rule is for the first connection"
        );
    }
}
