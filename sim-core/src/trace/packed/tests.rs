use super::*;
use crate::segment::Flags;
use crate::tcp::info::{RecvInfo, TcpInfo};
use proptest::prelude::*;

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Client), Just(Side::Server)]
}

/// Any value, with the extremes over-represented: they are where a
/// difference or a shift would go wrong.
fn word() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        0u64..300,
        Just(u64::MAX),
        Just(u64::MAX - 1),
        Just(1u64 << 63)
    ]
}

fn segment() -> impl Strategy<Value = Segment> {
    (
        (word(), side(), word(), any::<u32>(), word(), word()),
        (
            any::<[bool; 4]>(),
            prop::collection::vec((word(), word()), 0..=3),
        ),
        (word(), word()),
    )
        .prop_map(
            |((id, from, seq, len, ack, wnd), (f, sack), (ts_val, ts_ecr))| Segment {
                id,
                from,
                seq,
                len,
                ack,
                wnd,
                flags: Flags {
                    syn: f[0],
                    ack: f[1],
                    fin: f[2],
                    psh: f[1] && !f[0],
                    rst: f[3],
                },
                sack: SackBlocks::new(&sack),
                ts_val,
                ts_ecr,
            },
        )
}

fn event() -> impl Strategy<Value = TraceEvent> {
    let time = || word().prop_map(SimTime);
    prop_oneof![
        (
            segment(),
            any::<u32>(),
            any::<bool>(),
            prop::option::of(time()),
            prop::option::of(time())
        )
            .prop_map(|(seg, flight, retransmit, departs, arrives)| {
                TraceEvent::SegmentSent {
                    seg,
                    flight,
                    retransmit,
                    departs,
                    arrives,
                }
            }),
        (side(), segment()).prop_map(|(to, seg)| TraceEvent::SegmentReceived { to, seg }),
        segment().prop_map(|seg| TraceEvent::SegmentDropped { seg }),
        (side(), word(), word(), word(), word()).prop_map(|(side, a, b, c, d)| {
            TraceEvent::RttSample {
                side,
                sample_ns: a,
                srtt_ns: b,
                rttvar_ns: c,
                rto_ns: d,
            }
        }),
        (side(), time())
            .prop_map(|(side, deadline)| TraceEvent::DelayedAckArmed { side, deadline }),
        (side(), word()).prop_map(|(side, rto_ns)| TraceEvent::RtoFired { side, rto_ns }),
        (side(), word()).prop_map(|(side, seq)| TraceEvent::LossProbe { side, seq }),
        word().prop_map(|delivered| TraceEvent::Sample {
            delivered,
            info: TcpInfo {
                srtt_ns: delivered ^ 5,
                ..TcpInfo::default()
            },
            client: RecvInfo::default(),
            client_send: Default::default(),
            server_recv: RecvInfo {
                rcvbuf: delivered ^ 7,
                ..RecvInfo::default()
            },
        }),
        (
            side(),
            any::<u64>(),
            prop::sample::select(vec!["nagle", "cork", "other"])
        )
            .prop_map(|(side, bytes, reason)| TraceEvent::SendHeld {
                side,
                reason,
                bytes
            }),
    ]
}

fn record() -> impl Strategy<Value = TraceRecord> {
    (word(), any::<u16>(), event()).prop_map(|(t, flow, event)| TraceRecord {
        time: SimTime(t),
        flow,
        event,
    })
}

/// `r` changed to what a run produces, so that a slot can hold it: times
/// near the record's own, windows and lengths in range.
fn fitted(r: TraceRecord) -> TraceRecord {
    let t = (r.time.0 % (1 << 50)) | (1 << 40); // room either side for near times
    let near = |v: u64| v % (1 << 31);
    // A run's RSTs are kept whole (no flag bit is left in a slot).
    let fit_seg = |seg: Segment, sent: bool| Segment {
        len: seg.len % (1 << 16),
        wnd: near(seg.wnd),
        ts_val: if sent { t } else { t - near(seg.ts_val) },
        flags: Flags {
            rst: false,
            ..seg.flags
        },
        ..seg
    };
    let event = match r.event {
        TraceEvent::SegmentSent {
            seg,
            flight,
            retransmit,
            departs,
            arrives,
        } => TraceEvent::SegmentSent {
            seg: fit_seg(seg, true),
            flight: flight % (1 << 16),
            retransmit,
            departs: departs.map(|d| SimTime(t + near(d.0))),
            arrives: arrives.map(|a| SimTime(t + near(a.0))),
        },
        TraceEvent::SegmentReceived { to, seg } => TraceEvent::SegmentReceived {
            to,
            seg: fit_seg(seg, false),
        },
        TraceEvent::SegmentDropped { seg } => TraceEvent::SegmentDropped {
            seg: fit_seg(seg, false),
        },
        TraceEvent::SendHeld { side, bytes, .. } => TraceEvent::SendHeld {
            side,
            reason: "cork",
            bytes,
        },
        e => e,
    };
    TraceRecord {
        time: SimTime(t),
        event,
        ..r
    }
}

fn check_round_trip(records: &[TraceRecord]) -> Result<Packed, TestCaseError> {
    let mut p = Packed::default();
    for r in records {
        p.push(r.time, r.flow, &r.event);
    }
    prop_assert_eq!(p.len(), records.len());
    prop_assert_eq!(p.iter().len(), records.len());
    let back: Vec<TraceRecord> = p.iter().collect();
    prop_assert_eq!(&back[..], records);
    let summary: Vec<TraceRecord> = records
        .iter()
        .filter(|r| !r.is_packet_level())
        .copied()
        .collect();
    prop_assert_eq!(p.summary(), &summary[..]);
    prop_assert_eq!(p.last_time(), records.last().map(|r| r.time));
    Ok(p)
}

proptest! {
    /// Whatever goes in comes out, in order, field for field, whether a
    /// slot could hold it or not; times need not even be sorted.
    #[test]
    fn records_round_trip(records in prop::collection::vec(record(), 0..60)) {
        check_round_trip(&records)?;
    }

    /// Records like a run's all go into slots, and come out the same.
    #[test]
    fn run_like_records_take_slots(records in prop::collection::vec(record(), 0..60)) {
        let records: Vec<TraceRecord> = records.into_iter().map(fitted).collect();
        let p = check_round_trip(&records)?;
        prop_assert!(p.odd.is_empty(), "{:?}", p.odd);
        let packets = records.iter().filter(|r| r.is_packet_level()).count();
        prop_assert_eq!(p.slot_count(), packets);
    }
}

/// A slot is 64 bytes, against 176 for a `TraceRecord`.
#[test]
fn a_slot_is_a_cache_line() {
    assert_eq!(std::mem::size_of::<Slot>(), 64);
}

/// A typical sent data segment goes into a slot; one whose window no
/// 32-bit field can hold is kept whole, and both read back exactly.
#[test]
fn a_segment_a_slot_cannot_hold_is_kept_whole() {
    let t = 12_000_000_000u64; // 12 s into a run
    let seg = Segment {
        id: 150_000,
        from: Side::Server,
        seq: 200_000_000,
        len: 1448,
        ack: 1,
        wnd: 3_000_000,
        flags: Flags {
            syn: false,
            ack: true,
            fin: false,
            psh: true,
            rst: false,
        },
        sack: SackBlocks::new(&[(5, 9)]),
        ts_val: t,
        ts_ecr: t - 105_000_000,
    };
    let sent = |seg| TraceRecord {
        time: SimTime(t),
        flow: 0,
        event: TraceEvent::SegmentSent {
            seg,
            flight: 0,
            retransmit: false,
            departs: Some(SimTime(t + 5_000)),
            arrives: Some(SimTime(t + 105_012_000)),
        },
    };
    let records = [
        sent(seg),
        sent(Segment {
            wnd: 1 << 33,
            ..seg
        }),
        sent(seg),
        // A RST (no flag bit left for it in a slot).
        sent(Segment {
            flags: Flags {
                rst: true,
                ack: false,
                psh: false,
                ..seg.flags
            },
            sack: SackBlocks::default(),
            ..seg
        }),
    ];
    let p = check_round_trip(&records).unwrap();
    assert_eq!(
        (p.slot_count(), p.odd.len(), p.odd_at.clone()),
        (2, 2, vec![1, 3])
    );
    // The record kept whole filed no SACK blocks of its own.
    assert_eq!(p.sacks.len(), 2);
}

/// With a memory limit, summary records grow to about the limit, not to the
/// next doubling past it; without one they double as a vector does.
#[test]
fn a_memory_limit_holds_the_summary_vectors_growth_to_it() {
    // Just past a doubling: 2^13 records and their places.
    let per_record = std::mem::size_of::<TraceRecord>() + std::mem::size_of::<usize>();
    let limit = (1 << 13) * per_record + 4096;
    let fill = |p: &mut Packed| {
        for i in 0..30_000u32 {
            let event = TraceEvent::CwndChanged {
                side: Side::Server,
                old: i,
                new: i + 1,
                ssthresh: 0,
            };
            p.push(SimTime(u64::from(i)), 0, &event);
            if p.heap_bytes() > limit {
                break;
            }
        }
    };
    let mut held = Packed::default();
    held.set_memory_limit(limit);
    fill(&mut held);
    assert!(held.heap_bytes() > limit, "the fill reaches the limit");
    // Past it by at most one MIN_GROWTH step of a record and its place.
    let step = MIN_GROWTH * per_record;
    assert!(held.heap_bytes() <= limit + step, "{} B", held.heap_bytes());
    let mut doubling = Packed::default();
    fill(&mut doubling);
    // The doubling went to 2^14 records at once: twice the limit.
    assert!(
        doubling.heap_bytes() >= 2 * limit - 8192,
        "{} B",
        doubling.heap_bytes()
    );
    // The same records either way.
    assert_eq!(held.summary(), doubling.summary());
}
