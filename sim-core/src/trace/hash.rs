//! The trace's running hash: every record pushed, stored or not, goes into
//! one 64-bit value that determinism checks compare across runs and targets.

use super::TraceEvent;
use crate::segment::Segment;
use crate::time::SimTime;

pub(super) fn hash_record(h: &mut Fnv, time: SimTime, flow: u16, event: &TraceEvent) {
    // Packet records, the bulk of a long run, go in as one word (see
    // `segment_word`); the rest field by field.
    let packet = match event {
        TraceEvent::SegmentSent {
            seg,
            flight,
            retransmit,
            departs,
            arrives,
        } => Some(
            segment_word(seg)
                ^ (1 | (*flight as u64) << 8 | (*retransmit as u64) << 40)
                    .wrapping_mul(0x2545_F491_4F6C_DD1D)
                ^ departs
                    .map_or(u64::MAX, |t| t.0)
                    .wrapping_mul(0x9FB2_1C65_1E98_DF25)
                ^ arrives
                    .map_or(u64::MAX, |t| t.0)
                    .wrapping_mul(0xBF58_476D_1CE4_E5B9),
        ),
        TraceEvent::SegmentDropped { seg } => Some(segment_word(seg) ^ 2),
        TraceEvent::SegmentReceived { to, seg } => {
            Some(segment_word(seg) ^ (3 | (*to as u64) << 8).wrapping_mul(0x2545_F491_4F6C_DD1D))
        }
        _ => None,
    };
    if let Some(word) = packet {
        h.write(word ^ time.0.wrapping_mul(0x94D0_49BB_1331_11EB) ^ (flow as u64) << 48);
        return;
    }
    h.write(time.0);
    if flow != 0 {
        h.write(0xF10 + flow as u64);
    }
    match *event {
        TraceEvent::SegmentSent { .. }
        | TraceEvent::SegmentDropped { .. }
        | TraceEvent::SegmentReceived { .. } => {} // hashed above, as one word
        TraceEvent::CwndChanged {
            side,
            old,
            new,
            ssthresh,
        } => {
            h.write(4);
            h.write(side as u64);
            h.write(old as u64);
            h.write(new as u64);
            h.write(ssthresh as u64);
        }
        TraceEvent::RtoFired { side, rto_ns } => {
            h.write(5);
            h.write(side as u64);
            h.write(rto_ns);
        }
        TraceEvent::DelayedAckArmed { side, deadline } => {
            h.write(6);
            h.write(side as u64);
            h.write(deadline.0);
        }
        TraceEvent::Established { side } => {
            h.write(7);
            h.write(side as u64);
        }
        TraceEvent::CcMode { side, mode } => {
            h.write(13);
            h.write(side as u64);
            for b in mode.bytes() {
                h.write(b as u64);
            }
        }
        TraceEvent::Sample {
            delivered,
            info,
            client,
        } => {
            h.write(15);
            let c = info.counters;
            for v in [
                delivered,
                info.total_retrans,
                info.cwnd as u64,
                info.ssthresh.map_or(u64::MAX, |s| s as u64),
                info.in_flight as u64,
                info.srtt_ns,
                info.rttvar_ns,
                info.rto_ns,
                info.pacing_rate,
                info.bytes_acked,
                c.segs_out,
                c.data_segs_out,
                c.bytes_sent,
                c.bytes_retrans,
                c.segs_in,
                info.snd_wnd,
                info.sndbuf,
                info.wmem_queued,
                info.notsent_bytes,
                client.rcvbuf,
                client.unread,
            ] {
                h.write(v);
            }
        }
        TraceEvent::PacingRate {
            side,
            bytes_per_sec,
        } => {
            h.write(14);
            h.write(side as u64);
            h.write(bytes_per_sec);
        }
        TraceEvent::Aborted { side, retries } => {
            h.write(10);
            h.write(side as u64);
            h.write(retries as u64);
        }
        TraceEvent::RttSample {
            side,
            sample_ns,
            srtt_ns,
            rttvar_ns,
            rto_ns,
        } => {
            h.write(12);
            h.write(side as u64);
            h.write(sample_ns);
            h.write(srtt_ns);
            h.write(rttvar_ns);
            h.write(rto_ns);
        }
        TraceEvent::SendHeld {
            side,
            reason,
            bytes,
        } => {
            h.write(16);
            h.write(side as u64);
            h.write(reason.len() as u64);
            h.write(bytes);
        }
        TraceEvent::FastRetransmit { side, seq } => {
            h.write(11);
            h.write(side as u64);
            h.write(seq);
        }
        TraceEvent::ZeroWindowProbe { side, probes } => {
            h.write(9);
            h.write(side as u64);
            h.write(probes as u64);
        }
        TraceEvent::TransferComplete {
            index,
            bytes,
            started,
        } => {
            h.write(8);
            h.write(index as u64);
            h.write(bytes);
            h.write(started.0);
        }
    }
}

/// One word standing for a segment's header, folded into the running hash
/// with its record in a single step. Each field is multiplied by its own odd constant (a
/// bijection, so a change in any one field changes the word) and the products
/// are xored: the multiplies are independent and run side by side, where
/// feeding ten fields through the running hash one after another made every
/// packet record wait on ten dependent multiplies (hashing was a fifth of a
/// long run's time).
fn segment_word(s: &Segment) -> u64 {
    let flags = s.flags.syn as u64 | (s.flags.ack as u64) << 1 | (s.flags.fin as u64) << 2;
    let mut x = s.id.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ s.seq.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ (s.len as u64 | (s.from as u64) << 32 | flags << 33).wrapping_mul(0x1656_67B1_9E37_79F9)
        ^ s.ack.wrapping_mul(0x85EB_CA77_C2B2_AE63)
        ^ s.wnd.wrapping_mul(0x27D4_EB2F_1656_67C5)
        ^ s.ts_val.wrapping_mul(0xFF51_AFD7_ED55_8CCD)
        ^ s.ts_ecr.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    for (i, &(start, end)) in s.sack.as_slice().iter().enumerate() {
        let k = 2 * i as u64 + 1;
        x ^= (start.wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ end.wrapping_mul(0xA076_1D64_78BD_642F))
            .rotate_left(7 * k as u32)
            .wrapping_add(k);
    }
    x
}

/// A word-at-a-time FNV-1a variant: one xor, multiply and rotate per 64-bit
/// value instead of per byte (byte-wise FNV was a quarter of a long run's
/// time). Tiny, dependency-free and identical on every platform; it only has
/// to tell runs apart, not resist an adversary.
#[derive(Clone, Debug)]
pub(super) struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub(super) fn get(&self) -> u64 {
        self.0
    }

    fn write(&mut self, v: u64) {
        self.0 = (self.0 ^ v)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::{Flags, SackBlocks, Side};
    use crate::trace::Trace;

    fn segment() -> Segment {
        Segment {
            id: 7,
            from: Side::Server,
            seq: 1_449,
            len: 1_448,
            ack: 1,
            wnd: 65_535,
            flags: Flags {
                syn: false,
                ack: true,
                fin: false,
            },
            sack: SackBlocks::new(&[(10_000, 11_448), (20_000, 21_448)]),
            ts_val: 5_000_000,
            ts_ecr: 4_000_000,
        }
    }

    /// The one-word segment hash still tells apart segments that differ in
    /// any single header field, including which SACK block says what.
    #[test]
    fn a_change_in_any_segment_field_changes_the_hash() {
        let base = segment();
        let variants: Vec<Segment> = vec![
            Segment { id: 8, ..base },
            Segment {
                from: Side::Client,
                ..base
            },
            Segment { seq: 1_450, ..base },
            Segment { len: 1_447, ..base },
            Segment { ack: 2, ..base },
            Segment {
                wnd: 65_534,
                ..base
            },
            Segment {
                flags: Flags {
                    fin: true,
                    ..base.flags
                },
                ..base
            },
            Segment {
                sack: SackBlocks::new(&[(20_000, 21_448), (10_000, 11_448)]),
                ..base
            },
            Segment {
                sack: SackBlocks::new(&[(10_000, 11_448)]),
                ..base
            },
            Segment {
                ts_val: 5_000_001,
                ..base
            },
            Segment {
                ts_ecr: 4_000_001,
                ..base
            },
        ];
        let word = segment_word(&base);
        for v in &variants {
            assert_ne!(segment_word(v), word, "{v:?}");
        }
    }

    /// Records hash by content, time and flow, not by whether they were kept.
    #[test]
    fn the_hash_covers_time_flow_and_kind() {
        let hash = |time: u64, flow: u16, event: TraceEvent| {
            let mut t = Trace::with_packet_budget(0);
            t.set_flow(flow);
            t.push(SimTime(time), event);
            t.hash()
        };
        let seg = segment();
        let received = TraceEvent::SegmentReceived {
            to: Side::Client,
            seg,
        };
        let base = hash(1, 0, received);
        assert_ne!(hash(2, 0, received), base);
        assert_ne!(hash(1, 1, received), base);
        assert_ne!(hash(1, 0, TraceEvent::SegmentDropped { seg }), base);
        let sent = |retransmit| TraceEvent::SegmentSent {
            seg,
            flight: 1,
            retransmit,
            departs: Some(SimTime(1)),
            arrives: Some(SimTime(9)),
        };
        assert_ne!(hash(1, 0, sent(false)), hash(1, 0, sent(true)));
        assert_eq!(hash(1, 0, sent(true)), hash(1, 0, sent(true)));
    }
}
