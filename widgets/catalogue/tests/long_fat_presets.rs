//! The long-fat widget's presets, each run as the page runs it (its values
//! through the widget's `scenario`), pinned on the figure its chapter
//! ("Long fat networks: CUBIC vs BBR") tells. The path is seed 003's:
//! 110 Mbit/s (one socket's ceiling in the source) × 210 ms, a BDP of
//! 2,887,500 bytes. The seed's own CUBIC and BBR cases and the ten flows are
//! pinned in sim-core/tests/seed_003_lfn.rs.
//!
//! Several tests cut the run to fewer than 30 s where the behaviour is
//! established by then (the suite's time; the figures hold to the end).

use sim_core::analysis::flow_totals;
use sim_core::config::Scenario;
use sim_core::sim::{self, RunResult};
use sim_core::tcp::info::TcpInfo;
use sim_core::time::SimDuration;
use sim_core::trace::TraceEvent;
use widget_catalogue::widgets::long_fat::WIDGET;

const BASE_RTT_NS: u64 = 210_000_000;
const RATE_BPS: f64 = 110e6;

fn preset(name: &str, secs: u64) -> RunResult {
    let mut s: Scenario = WIDGET.scenario_of(WIDGET.preset_values(name).unwrap());
    s.time_limit = SimDuration::from_secs(secs);
    sim::run(&s).unwrap()
}

/// Flow `flow`'s samples: time (ns) and the server's `TCP_INFO`.
fn samples(r: &RunResult, flow: u16) -> Vec<(u64, TcpInfo)> {
    r.trace
        .flow_records(flow)
        .filter_map(|x| match x.event {
            TraceEvent::Sample { info, .. } => Some((x.time.0, info)),
            _ => None,
        })
        .collect()
}

/// Flow `flow`'s bit rate over the run, Mbit/s.
fn mbit(r: &RunResult, flow: usize) -> f64 {
    flow_totals(r)[flow].bitrate / 1e6
}

/// Bufferbloat: with no random loss CUBIC grows into the 2-BDP queue, and
/// the RTT it measures is the base plus the queue it built. What CUBIC has
/// in flight beyond one BDP waits in the queue, draining at the bottleneck
/// rate (each 1448-byte payload is a 1500-byte packet on the wire), so
/// srtt ≈ 210 ms + (in flight − BDP) / rate, and more than twice the base.
#[test]
fn cubic_fills_a_deep_queue_and_the_rtt_follows() {
    let r = preset("deep-queue-cubic", 20);
    let (_, info) = *samples(&r, 0).last().unwrap();
    let wire_bytes = info.in_flight as f64 * 1500.0;
    let queued_ns = (wire_bytes - RATE_BPS / 8.0 * 0.21) / (RATE_BPS / 8.0) * 1e9;
    let expected = BASE_RTT_NS as f64 + queued_ns;
    assert!(
        (info.srtt_ns as f64 / expected - 1.0).abs() < 0.05,
        "srtt {} ms, expected {:.0} ms from {} segments in flight",
        info.srtt_ns / 1_000_000,
        expected / 1e6,
        info.in_flight
    );
    assert!(info.srtt_ns > 2 * BASE_RTT_NS, "{} ns", info.srtt_ns);
    // HyStart leaves slow start near one BDP (the ACK train of a round
    // passes half the RTT), and CUBIC's growth from there overflows the
    // queue within the run: the only losses are the queue's.
    let f = &flow_totals(&r)[0];
    assert!(f.retransmits > 0, "the queue overflowed");
    assert_eq!(r.downlink.lost, 0, "no random loss");
}

/// BBR on the same queue keeps the RTT near the base once Drain has emptied
/// what Startup queued: every sample after 5 s within 25 % of 210 ms (its
/// ProbeBW phase at gain 1.25 adds a quarter of a BDP for one round trip).
#[test]
fn bbr_keeps_the_deep_queue_nearly_empty() {
    let r = preset("deep-queue-bbr", 20);
    let late: Vec<u64> = samples(&r, 0)
        .into_iter()
        .filter(|(t, _)| *t >= 5_000_000_000)
        .map(|(_, i)| i.srtt_ns)
        .collect();
    let worst = *late.iter().max().unwrap();
    assert!(worst < BASE_RTT_NS * 5 / 4, "srtt up to {worst} ns");
    assert!(mbit(&r, 0) > 0.8 * 110.0, "{:.1} Mbit/s", mbit(&r, 0));
}

/// BBR v1 in a 0.1-BDP queue: its cwnd of two BDP estimates and its 1.25
/// probing overflow a queue that holds a tenth of one, every cycle, and it
/// does not slow down for the losses. Thousands of retransmissions where
/// the deep queue had none, at nearly the same rate.
#[test]
fn bbr_v1_retransmits_heavily_in_a_shallow_queue() {
    let shallow = preset("shallow-queue-bbr", 10);
    let deep = preset("deep-queue-bbr", 10);
    let (s, d) = (&flow_totals(&shallow)[0], &flow_totals(&deep)[0]);
    assert_eq!(d.retransmits, 0);
    assert!(s.retransmits > 1000, "{} retransmissions", s.retransmits);
    assert!(
        s.bitrate > 0.9 * d.bitrate,
        "{} vs {}",
        s.bitrate,
        d.bitrate
    );
}

/// 0.1 % random loss: CUBIC, which cuts its window to 70 % on every loss
/// and needs seconds at 210 ms to regain it, collapses far below 50 Mbit/s;
/// BBR, whose model has no loss in it, stays above it.
#[test]
fn random_loss_collapses_cubic_and_not_bbr() {
    let cubic = mbit(&preset("loss-0.1pct-cubic", 15), 0);
    let bbr = mbit(&preset("loss-0.1pct-bbr", 15), 0);
    assert!(cubic < 20.0, "CUBIC {cubic:.1} Mbit/s");
    assert!(bbr > 50.0, "BBR {bbr:.1} Mbit/s");
}

/// A CUBIC and a BBR flow in a 1-BDP queue: BBR v1 takes most of the line.
/// Flow 0 runs CUBIC (it traces no mode), flow 1 BBR.
#[test]
fn bbr_v1_crowds_out_cubic_in_a_one_bdp_queue() {
    let r = preset("cubic-and-bbr", 30);
    let modes = |f: u16| {
        r.trace
            .flow_records(f)
            .filter(|x| matches!(x.event, TraceEvent::CcMode { .. }))
            .count()
    };
    assert_eq!(modes(0), 0, "flow 0 is CUBIC");
    assert!(modes(1) > 2, "flow 1 is BBR");
    let (cubic, bbr) = (mbit(&r, 0), mbit(&r, 1));
    assert!(bbr > 3.0 * cubic, "CUBIC {cubic:.1}, BBR {bbr:.1} Mbit/s");
    assert!(cubic + bbr > 0.85 * 110.0, "together {:.1}", cubic + bbr);
}

/// The widget's settings reach the scenario: flows, the mix, the qdisc and
/// where loss hits.
#[test]
fn the_new_controls_reach_the_scenario() {
    use sim_core::config::LossDirection;
    let spec = &WIDGET;
    let mut values = spec.preset_values("seed-003-cubic").unwrap().to_vec();
    let set = |values: &mut Vec<f64>, name: &str, text: &str| {
        let i = spec.params.iter().position(|p| p.name == name).unwrap();
        values[i] = spec.params[i].parse(text).unwrap();
    };
    set(&mut values, "flows", "4");
    set(&mut values, "cc", "cubic+bbr");
    set(&mut values, "qdisc", "fq");
    set(&mut values, "loss_in", "acks");
    let s = spec.scenario_of(&values);
    assert_eq!(s.flows, 4);
    assert_eq!(s.flow_congestion_control.len(), 2);
    assert!(s.server.sender.fq);
    assert_eq!(s.path.loss_direction, LossDirection::Acks);
    assert!(s.path.loss > 0.0);
    set(&mut values, "loss_in", "none");
    assert_eq!(spec.scenario_of(&values).path.loss, 0.0);
}

/// The presets' files give the queue as `queue_bdp`: each preset reads it
/// back in BDPs (2, or 0.1 for the shallow queue), and a queue in BDPs
/// follows the rate and RTT sliders where one in bytes stays put.
#[test]
fn the_queue_is_read_and_set_in_bdps() {
    use widget_catalogue::widgets::long_fat::{BANDWIDTH, QUEUE, QUEUE_BDP, QUEUE_IN, RTT};
    let index = |name: &str| WIDGET.params.iter().position(|p| p.name == name).unwrap();
    let (unit, bdps) = (index(QUEUE_IN.spec.name), index(QUEUE_BDP.spec.name));
    for (preset, expect) in [
        ("seed-003-cubic", 2.0),
        ("shallow-queue-bbr", 0.1),
        ("ten-flows", 2.0),
    ] {
        let v = WIDGET.preset_values(preset).unwrap();
        assert_eq!((v[unit], v[bdps]), (1.0, expect), "{preset}");
    }
    let mut v = WIDGET.preset_values("seed-003-cubic").unwrap().to_vec();
    assert_eq!(WIDGET.scenario_of(&v).path.queue_bytes, 5_775_000);
    v[index(BANDWIDTH.spec.name)] = 55e6;
    v[index(RTT.spec.name)] = 105e6;
    // A quarter of the BDP, still two of them.
    assert_eq!(WIDGET.scenario_of(&v).path.queue_bytes, 1_443_750);
    v[unit] = 0.0;
    assert_eq!(
        WIDGET.scenario_of(&v).path.queue_bytes,
        v[index(QUEUE.spec.name)] as u64,
        "in bytes: the queue slider's value"
    );
    let spec = &QUEUE_BDP.spec;
    assert_eq!(spec.format(0.1), "0.1 BDP");
    assert_eq!(spec.parse("0.5BDP"), Ok(0.5));
    assert_eq!(spec.parse(" 2 "), Ok(2.0));
    assert!(spec.parse("32").is_err(), "beyond 16 BDP");
    assert_eq!(spec.typed_text(2.0), "2BDP");
    assert_eq!(spec.parse(&spec.typed_text(0.123)), Ok(0.123));
}
