//! Property tests over random scenarios: whatever the settings, the simulator
//! must not panic, must keep time moving forward, must deliver exactly what was
//! written, and must never send past the receiver's advertised window.

mod common;
use proptest::prelude::*;
use sim_core::config::{PathConfig, Scenario};
use sim_core::segment::Side;
use sim_core::sim;
use sim_core::time::{SimDuration, SimTime};
use sim_core::trace::TraceEvent;

fn scenario() -> impl Strategy<Value = Scenario> {
    (
        1_000_000u64..2_000_000_000, // rate
        100u64..100_000,             // rtt in us
        3_000u64..400_000,           // queue bytes
        536u32..9000,                // mss
        1u32..100,                   // initcwnd
        1u64..400_000,               // response bytes
        1_024u32..65_535,            // syn window
        4_096u64..4_000_000,         // rcvbuf
    )
        .prop_map(|(rate, rtt_us, queue, mss, initcwnd, size, synw, rcvbuf)| {
            let mut s = Scenario {
                path: PathConfig {
                    queue_bytes: queue,
                    ..PathConfig::symmetric(rate, SimDuration::from_micros(rtt_us))
                },
                time_limit: SimDuration::from_secs(120),
                ..Scenario::default()
            };
            s.server.sender.mss = mss;
            s.client.sender.mss = mss;
            s.server.sender.initcwnd = initcwnd;
            s.app.response = vec![size];
            s.client.receiver.syn_window = synw;
            s.client.receiver.rcvbuf = rcvbuf;
            s.client.receiver.rcvbuf_max = rcvbuf.max(6 << 20);
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn runs_keep_their_invariants(s in scenario()) {
        let run = sim::run(&s).unwrap();
        let mut last = SimTime::ZERO;
        let mut right_edge = 0u64; // highest ack + window the server has heard
        // Byte ranges of response data that reached the client, merged.
        let mut got: std::collections::BTreeMap<u64, u64> = std::collections::BTreeMap::new();
        for r in run.trace.records() {
            prop_assert!(r.time >= last, "time went backwards");
            last = r.time;
            match r.event {
                TraceEvent::SegmentReceived { to: Side::Server, seg } if seg.flags.ack => {
                    right_edge = right_edge.max(seg.ack + seg.wnd);
                }
                TraceEvent::SegmentSent { seg, .. } if seg.from == Side::Server && seg.len > 0 => {
                    prop_assert!(seg.seq + seg.len as u64 <= right_edge,
                        "sent {}..{} past the window edge {}", seg.seq, seg.seq + seg.len as u64, right_edge);
                }
                TraceEvent::SegmentReceived { to: Side::Client, seg } if seg.len > 0 => {
                    let e = got.entry(seg.seq).or_insert(0);
                    *e = (*e).max(seg.seq + seg.len as u64);
                }
                _ => {}
            }
        }
        if run.outcome.completed_at().is_some() {
            // Everything from byte 1 arrived, with no gap, and nothing beyond it.
            let mut contiguous = 1u64;
            for (&start, &end) in &got {
                prop_assert!(start <= contiguous, "gap at {} before {}", contiguous, start);
                contiguous = contiguous.max(end);
            }
            prop_assert_eq!(contiguous - 1, s.app.response_bytes());
        }
    }
}
