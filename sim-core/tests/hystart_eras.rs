//! Where CUBIC's slow start ends on a 4 ms, 500 Mbit/s path with a deep
//! queue and 4 MiB responses, per era and with pacing (`fq`) on and off.
//! The ssthresh HyStart leaves is what the next transfer on the connection
//! inherits (no loss happens here), so the era's rule decides how the second
//! transfer starts.
//!
//! The rules (tcp_cubic.c `hystart_update`, unit-tested exactly in
//! `cc/hystart_tests.rs`):
//!
//! - before 5.7 the ACK-train test fires once a train of ACKs spans more
//!   than half the minimum RTT, measured on a millisecond clock; pacing
//!   spreads a flight's ACKs over the whole RTT, so with `fq` the test fires
//!   at the first round long enough to count, far too early;
//! - since 5.7 the threshold is `delay_min + hystart_ack_delay`, halved
//!   only when nothing paces (`sk_pacing_status == SK_PACING_NONE`): with
//!   `fq` slow start runs about one round longer than without.
#![cfg(feature = "scenario-file")]

mod common;
use common::run;

use sim_core::segment::Side;
use sim_core::trace::TraceEvent;

const SCENARIO: &str = r#"
format = 1
name = "hystart-500m-4ms"
[path]
rate = "500Mbit"
rtt = "4ms"
queue = "16MB"
[server]
kernel = "KERNEL"
[client]
kernel = "KERNEL"
[app]
type = "request-response"
request = "100B"
response = "4MiB"
repeat = 2
gap = "1s"
"#;

/// The first ssthresh below "infinite" the server set (HyStart's exit, as
/// nothing is lost), and the cwnd it was set at.
fn exit(kernel: &str, fq: bool) -> u32 {
    let mut text = SCENARIO.replace("KERNEL", kernel);
    if fq {
        text += "[server.sysctl]\n\"net.core.default_qdisc\" = \"fq\"\n";
    }
    let (_, s) = sim_core::scenario_file::parse(&text).unwrap();
    let r = run(&s);
    assert!(r.downlink.dropped == 0, "{kernel} fq={fq}: no loss");
    r.trace
        .records()
        .find_map(|rec| match rec.event {
            TraceEvent::CwndChanged {
                side: Side::Server,
                new,
                ssthresh,
                ..
            } if ssthresh < 1 << 20 => {
                assert_eq!(
                    new, ssthresh,
                    "{kernel} fq={fq}: HyStart sets ssthresh = cwnd"
                );
                Some(ssthresh)
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("{kernel} fq={fq}: slow start never ended"))
}

#[test]
fn today_pacing_lets_slow_start_run_about_one_round_longer() {
    let (unpaced, paced) = (exit("today", false), exit("today", true));
    // Threshold delay_min + ack_delay instead of half of it: the train must
    // last twice as long, one more doubling.
    assert!(
        paced >= unpaced * 3 / 2 && paced <= unpaced * 5 / 2,
        "unpaced {unpaced}, paced {paced}"
    );
}

#[test]
fn before_5_7_pacing_ends_slow_start_early() {
    for kernel in ["5.5", "4.18", "3.10"] {
        let (unpaced, paced) = (exit(kernel, false), exit(kernel, true));
        // A paced flight's ACKs span the whole RTT: the first round of at
        // least 16 segments whose train passes 2 ms (half of 4 ms) ends it.
        assert!(
            paced * 3 <= unpaced,
            "{kernel}: unpaced {unpaced}, paced {paced}"
        );
        assert!(paced <= 64, "{kernel}: paced exit at {paced}");
    }
}

#[test]
fn unpaced_the_eras_agree_to_within_a_round() {
    // Without pacing the train is the burst's own length at the bottleneck
    // rate; the eras' thresholds differ by the ack_delay allowance and the
    // millisecond clock, not by a round.
    let today = exit("today", false);
    for kernel in ["5.5", "4.18", "3.10"] {
        let e = exit(kernel, false);
        assert!(
            e * 2 > today && e < today * 2,
            "{kernel} {e} vs today {today}"
        );
    }
}
