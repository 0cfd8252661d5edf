//! The trace's running hash: every record pushed, stored or not, goes into
//! one 64-bit value that determinism checks compare across runs and targets.
//!
//! A record goes in as its time, its flow (when not 0), its kind's number and
//! then each field as a word, walked by [`TraceEvent::visit`]; segment records
//! as one word each (`packet_word`). The words and their order are fixed: the
//! golden outputs and the browser tests compare hashes.

use super::TraceEvent;
use super::fields::{FieldVisitor, Kind, Value};
use crate::segment::Segment;
use crate::time::SimTime;

pub(super) fn hash_record(h: &mut Fnv, time: SimTime, flow: u16, event: &TraceEvent) {
    // Packet records, the bulk of a long run, go in as one word; the rest
    // field by field.
    if let Some(word) = packet_word(event) {
        h.write(word ^ time.0.wrapping_mul(0x94D0_49BB_1331_11EB) ^ (flow as u64) << 48);
        return;
    }
    h.write(time.0);
    if flow != 0 {
        h.write(0xF10 + flow as u64);
    }
    event.visit(&mut Words(h));
}

/// Feeds the kind's number and then each field to the hash as a word (a
/// name as a word a byte). Always inlined: as calls, the walk cost long runs
/// 2 % more instructions.
struct Words<'a>(&'a mut Fnv);

impl FieldVisitor for Words<'_> {
    #[inline(always)]
    fn kind(&mut self, kind: Kind) {
        self.0.write(kind as u64);
    }

    #[inline(always)]
    fn field(&mut self, name: &'static str, value: Value<'_>) {
        let h = &mut *self.0;
        match value {
            Value::Side(side) => h.write(side as u64),
            Value::Count(v) => h.write(v),
            Value::MaybeCount(v) => h.write(v.unwrap_or(u64::MAX)),
            Value::Time(t) => h.write(t.0),
            Value::MaybeTime(t) => h.write(t.map_or(u64::MAX, |t| t.0)),
            Value::Flag(b) => h.write(b as u64),
            // A hold's reason has always gone in as its length ("nagle" 5,
            // "cork" 4, which tells them apart); other names byte by byte.
            Value::Name(reason) if name == "reason" => h.write(reason.len() as u64),
            Value::Name(s) => s.bytes().for_each(|b| h.write(b as u64)),
            Value::Segment(seg) => h.write(segment_word(seg)),
        }
    }
}

/// A segment record (sent, dropped, received) as one word, `None` for any
/// other kind: the segment's word (see [`segment_word`]) xored with the
/// record's own fields, each group times its own odd constant.
#[inline]
fn packet_word(event: &TraceEvent) -> Option<u64> {
    let mut p = PacketWord {
        kind: None,
        word: 0,
        small: 0,
    };
    event.visit(&mut p);
    Some(match p.kind? {
        Kind::SegmentDropped => p.word ^ p.small,
        _ => p.word ^ p.small.wrapping_mul(0x2545_F491_4F6C_DD1D),
    })
}

/// Folds a segment record into one word, for `packet_word`: the segment's
/// word, each time times its own constant, and in `small` the kind's number
/// with the flight or receiving side (from bit 8) and the retransmission flag
/// (bit 40), which share one product (a drop's kind goes in as it is). Any
/// other kind leaves `kind` empty. Always inlined, as `Words` is.
struct PacketWord {
    kind: Option<Kind>,
    word: u64,
    small: u64,
}

impl FieldVisitor for PacketWord {
    #[inline(always)]
    fn kind(&mut self, kind: Kind) {
        if matches!(
            kind,
            Kind::SegmentSent | Kind::SegmentDropped | Kind::SegmentReceived
        ) {
            self.kind = Some(kind);
            self.small = kind as u64;
        }
    }

    #[inline(always)]
    fn field(&mut self, name: &'static str, value: Value<'_>) {
        if self.kind.is_none() {
            return;
        }
        match value {
            Value::Segment(seg) => self.word ^= segment_word(seg),
            Value::Count(flight) => self.small |= flight << 8,
            Value::Side(to) => self.small |= (to as u64) << 8,
            Value::Flag(retransmit) => self.small |= (retransmit as u64) << 40,
            Value::MaybeTime(t) => {
                let k = match name {
                    "departs" => 0x9FB2_1C65_1E98_DF25,
                    _ => 0xBF58_476D_1CE4_E5B9, // arrives
                };
                self.word ^= t.map_or(u64::MAX, |t| t.0).wrapping_mul(k);
            }
            _ => {}
        }
    }
}

/// One word standing for a segment's header, folded into the running hash
/// with its record in a single step. Each field is multiplied by its own odd constant (a
/// bijection, so a change in any one field changes the word) and the products
/// are xored: the multiplies are independent and run side by side, where
/// feeding ten fields through the running hash one after another made every
/// packet record wait on ten dependent multiplies (hashing was a fifth of a
/// long run's time). Always inlined into the packet records' path, where the
/// call cost more than the multiplies.
#[inline(always)]
fn segment_word(s: &Segment) -> u64 {
    // RST's bit is new: clear on every other segment, so their words (and
    // every golden hash) are what they were.
    let flags = s.flags.syn as u64
        | (s.flags.ack as u64) << 1
        | (s.flags.fin as u64) << 2
        | (s.flags.rst as u64) << 3;
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
                psh: false,
                rst: false,
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
                flags: Flags {
                    rst: true,
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

    /// One record of every kind: both hold reasons, a sample with every
    /// value set and one with ssthresh still "infinite".
    fn one_of_each() -> [TraceEvent; 20] {
        use crate::tcp::info::{Counters, RecvInfo, TcpInfo};
        let seg = segment();
        let info = TcpInfo {
            counters: Counters {
                segs_out: 1,
                data_segs_out: 2,
                bytes_sent: 3,
                bytes_retrans: 4,
                segs_in: 5,
            },
            bytes_acked: 6,
            total_retrans: 7,
            cwnd: 8,
            ssthresh: Some(9),
            in_flight: 10,
            srtt_ns: 11,
            rttvar_ns: 12,
            rto_ns: 13,
            pacing_rate: 14,
            snd_wnd: 15,
            sndbuf: 16,
            wmem_queued: 17,
            notsent_bytes: 18,
            // Not hashed: read by `ss` only.
            ..TcpInfo::default()
        };
        let client = RecvInfo {
            rcvbuf: 19,
            unread: 20,
            ..RecvInfo::default()
        };
        let (s, c) = (Side::Server, Side::Client);
        [
            TraceEvent::SegmentSent {
                seg,
                flight: 3,
                retransmit: true,
                departs: Some(SimTime(5_000_100)),
                arrives: None,
            },
            TraceEvent::SegmentDropped { seg },
            TraceEvent::SegmentReceived { to: c, seg },
            TraceEvent::CwndChanged {
                side: s,
                old: 10,
                new: 11,
                ssthresh: 0x7fff_ffff,
            },
            TraceEvent::RttSample {
                side: s,
                sample_ns: 1,
                srtt_ns: 2,
                rttvar_ns: 3,
                rto_ns: 4,
            },
            TraceEvent::SendHeld {
                side: c,
                reason: "nagle",
                bytes: 100,
            },
            TraceEvent::SendHeld {
                side: s,
                reason: "cork",
                bytes: 100,
            },
            TraceEvent::FastRetransmit { side: s, seq: 1449 },
            TraceEvent::RtoFired {
                side: s,
                rto_ns: 200_000_000,
            },
            TraceEvent::DelayedAckArmed {
                side: c,
                deadline: SimTime(40_000_000),
            },
            TraceEvent::ZeroWindowProbe { side: s, probes: 2 },
            TraceEvent::Aborted {
                side: s,
                retries: 15,
            },
            TraceEvent::CcMode {
                side: s,
                mode: "probe_bw",
            },
            TraceEvent::PacingRate {
                side: s,
                bytes_per_sec: 1_250_000,
            },
            TraceEvent::Sample {
                delivered: 21,
                info,
                client,
                client_send: Default::default(),
                server_recv: client,
            },
            TraceEvent::Sample {
                delivered: 21,
                info: TcpInfo {
                    ssthresh: None,
                    ..info
                },
                client,
                client_send: Default::default(),
                server_recv: client,
            },
            TraceEvent::Established { side: c },
            TraceEvent::TransferComplete {
                index: 1,
                bytes: 100_000,
                started: SimTime(3),
            },
            TraceEvent::LossProbe {
                side: s,
                seq: 14_481,
            },
            TraceEvent::Reset { side: c },
        ]
    }

    /// One record of every kind, each hashed alone in flow 0 and in flow 1. The words and their order must
    /// never change: golden outputs and the browser tests compare hashes. The
    /// values were taken from the hash before it walked fields.
    #[test]
    fn every_kind_hashes_as_it_always_has() {
        let events = one_of_each();
        let hashes: Vec<String> = events
            .iter()
            .flat_map(|&event| {
                [0, 1].map(|flow| {
                    let mut t = Trace::with_packet_budget(0);
                    t.set_flow(flow);
                    t.push(SimTime(5_000_000), event);
                    format!("{:016x}", t.hash())
                })
            })
            .collect();
        assert_eq!(hashes, PINNED);
    }

    /// `every_kind_hashes_as_it_always_has`, flow 0 then flow 1 for each record.
    const PINNED: [&str; 40] = [
        "8eebf44d8a05a4ef",
        "8eebf44d998844ef",
        "4df822b203018151",
        "4df822b2137ee151",
        "f62ba00d26e7cc39",
        "f62ba00d366a6c39",
        "d7fcbd15a06755f3",
        "4c8dbd084bb09573",
        "7feb2417103c74f7",
        "92ae6319db602604",
        "819d97ca05e00bef",
        "e8381a46d79571b0",
        "2c81c0977f381779",
        "1322ae3b10cd0ef6",
        "b8b4b6387c86f7c1",
        "fae4f8568f2a6765",
        "164f9e4a0f17ca5f",
        "5b11234281afdb96",
        "da415492ffb44918",
        "de387863bda2dd11",
        "faeadc2819eb53ba",
        "1cde2262892a2b4a",
        "f2f3f2a3b02eaf8a",
        "833ca31636e3a15b",
        "4b0eeb1797fae811",
        "f6daffeba84d0fc1",
        "57529df2ea455cf8",
        "306b12f6ada5b4be",
        "991a6f1479602159",
        "21050788aa9ccb8e",
        "85a25bf5469fd226",
        "17a7afe619fe428a",
        "1d4e2a0c62d7b18a",
        "26eb1c626d5c7392",
        "571d3b224b6718b9",
        "7b18e6aebc0778b4",
        "2177bed5a682d70d",
        "59aa2fa630abae95",
        "972e7aca016647ba",
        "ad0acba4cecddd61",
    ];
}
