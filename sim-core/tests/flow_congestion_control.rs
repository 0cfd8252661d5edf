//! Per-flow congestion control (`Scenario::flow_congestion_control`), as an
//! application's `setsockopt(TCP_CONGESTION)` gives one socket an algorithm
//! other than `net.ipv4.tcp_congestion_control`: a CUBIC and a BBR flow can
//! share one bottleneck.
#![cfg(feature = "scenario-file")]

mod common;
use common::*;
use sim_core::cc::Kind;
use sim_core::config::{PathConfig, Scenario};
use sim_core::time::SimDuration;
use sim_core::trace::TraceEvent;

/// Two flows over 20 Mbit/s × 40 ms for 3 s.
fn two_flows(list: Vec<Kind>) -> Scenario {
    let mut s = Scenario {
        path: PathConfig::symmetric(20_000_000, SimDuration::from_millis(40)),
        flows: 2,
        time_limit: SimDuration::from_secs(3),
        flow_congestion_control: list,
        ..Scenario::default()
    };
    s.app.response = vec![1 << 30];
    s
}

/// The modes BBR traced for `flow` (CUBIC and Reno trace none).
fn modes(s: &Scenario, flow: u16) -> Vec<&'static str> {
    let r = run(s);
    r.trace
        .flow_records(flow)
        .filter_map(|x| match x.event {
            TraceEvent::CcMode { mode, .. } => Some(mode),
            _ => None,
        })
        .collect()
}

#[test]
fn each_flow_runs_its_own_entry_of_the_list() {
    let s = two_flows(vec![Kind::Cubic, Kind::Bbr]);
    assert!(modes(&s, 0).is_empty(), "flow 0 runs CUBIC");
    let bbr = modes(&s, 1);
    assert_eq!(&bbr[..2], ["startup", "drain"], "flow 1 runs BBR: {bbr:?}");
}

#[test]
fn the_list_repeats_over_more_flows_and_an_empty_list_keeps_the_default() {
    let mut s = two_flows(vec![Kind::Bbr]);
    assert!(!modes(&s, 0).is_empty() && !modes(&s, 1).is_empty());
    s.flow_congestion_control.clear();
    // The model host's default is CUBIC.
    assert!(modes(&s, 0).is_empty() && modes(&s, 1).is_empty());
}

#[test]
fn a_scenario_file_names_the_algorithms_and_rejects_unknown_ones() {
    let text = |list: &str| {
        format!(
            "format = 1\nflows = 2\nflow_congestion_control = {list}\n\
             [path]\nrate = \"10Mbit\"\nrtt = \"20ms\"\n[app]\ntype = \"request-response\"\n\
             request = \"100B\"\nresponse = \"1MB\"\n"
        )
    };
    let (_, s) = sim_core::scenario_file::parse(&text("[\"cubic\", \"bbr\"]")).unwrap();
    assert_eq!(s.flow_congestion_control, [Kind::Cubic, Kind::Bbr]);
    let e = sim_core::scenario_file::parse(&text("[\"vegas\"]")).unwrap_err();
    assert!(e.to_string().contains("flow_congestion_control"), "{e}");
    assert!(e.to_string().contains("vegas"), "{e}");
}
