//! Property tests of the GSO send buffer (`SendSkbs::Gso`) over random
//! hosts of the eras that have it: whatever the buffer, the lowat, the
//! algorithm, the loss and the writes (several, chunked, corked), every byte
//! arrives, and the unsent bytes stay
//! under `TCP_NOTSENT_LOWAT` plus one skb: a new skb is taken only while
//! fewer than the lowat are unsent, and the one being filled holds at most a
//! size goal (65160 bytes at MSS 1448) (`tcp_sendmsg_locked`,
//! `tcp_stream_memory_free`).

use proptest::prelude::*;
use sim_core::cc::Algorithm;
use sim_core::config::{ChunkedWrites, HostSettings, Kernel, PathConfig, Scenario};
use sim_core::sim;
use sim_core::time::SimDuration;
use sim_core::trace::TraceEvent;

/// The largest size goal: 45 × 1448 (`tcp_xmit_size_goal`).
const MAX_GOAL: u64 = 65_160;

#[derive(Debug, Clone)]
struct Case {
    scenario: Scenario,
    lowat: u64,
}

fn case() -> impl Strategy<Value = Case> {
    (
        (
            10_000_000u64..1_000_000_000,
            1_000u64..100_000,
            0.0f64..0.02,
        ),
        prop::sample::select(vec![
            Kernel::V3_10,
            Kernel::V4_18,
            Kernel::V5_5,
            Kernel::Today,
        ]),
        prop::option::of(4_096u64..300_000),
        prop::option::of(1_024u32..300_000),
        prop::sample::select(vec!["cubic", "reno", "bbr"]),
        (
            prop::collection::vec(1u64..1_000_000, 1..4),
            prop::option::of(1u64..100_000),
            any::<bool>(),
        ),
    )
        .prop_map(
            |((rate, rtt_us, loss), kernel, sndbuf, lowat, cc, (writes, chunk, cork))| {
                let mut server = HostSettings::for_kernel(kernel);
                server.set_tcp_congestion_control(Algorithm::by_name(cc).unwrap());
                if let Some(b) = sndbuf {
                    server.set_so_sndbuf(b);
                }
                if let Some(l) = lowat {
                    server.set_tcp_notsent_lowat_option(l);
                }
                server.set_tcp_cork(cork);
                let mut scenario = Scenario {
                    path: PathConfig {
                        loss,
                        ..PathConfig::symmetric(rate, SimDuration::from_micros(rtt_us))
                    },
                    server: server.finish().unwrap(),
                    time_limit: SimDuration::from_secs(600),
                    sample_interval: SimDuration::from_millis(1),
                    ..Scenario::default()
                };
                scenario.app.response = writes;
                scenario.app.server_writes = chunk.map(|size| ChunkedWrites {
                    size,
                    cost: SimDuration::from_micros(10),
                });
                Case {
                    scenario,
                    lowat: lowat.map_or(u32::MAX as u64, |l| l as u64),
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn every_byte_arrives_and_unsent_bytes_stay_under_the_lowat_and_one_skb(c in case()) {
        let run = sim::run(&c.scenario).unwrap();
        prop_assert!(run.outcome.completed_at().is_some(), "did not complete");
        for r in run.trace.records() {
            if let TraceEvent::Sample { info, .. } = r.event {
                prop_assert!(info.notsent_bytes < c.lowat + MAX_GOAL,
                    "{} unsent at {:?}", info.notsent_bytes, r.time);
            }
        }
        let delivered = run.trace.records().filter_map(|r| match r.event {
            TraceEvent::Sample { delivered, .. } => Some(delivered),
            _ => None,
        }).max().unwrap_or(0);
        prop_assert_eq!(delivered, c.scenario.app.response_bytes());
    }
}
