//! The long-fat chapter's views (issue 23): BBR's mode band under the cwnd
//! chart, read from the trace's `CcMode` records, and the throughput chart's
//! per-flow lines and their sum, read from every flow's samples.

use plotters::prelude::*;
use sim_core::trace::TraceEvent;
use tcp_widgets::draw::{throughput_chart, window_chart};
use tcp_widgets::kit::model::Model;
use tcp_widgets::palette::Palette;

mod settings;

fn run(settings: &[(&str, &str)]) -> sim_core::sim::RunResult {
    settings::run("long-fat", settings)
}

/// The server's mode changes in flow 0's trace, in order.
fn traced_modes(r: &sim_core::sim::RunResult) -> Vec<(f64, &'static str)> {
    r.trace
        .flow_records(0)
        .filter_map(|x| match x.event {
            TraceEvent::CcMode { mode, .. } => Some((x.time.0 as f64, mode)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_band_follows_every_mode_change_the_trace_records() {
    let r = run(&[("preset", "seed-003-bbr"), ("duration", "12s")]);
    let m = Model::from_run(&r);
    let traced = traced_modes(&r);
    assert_eq!(m.window.modes, traced);
    let names: Vec<_> = traced.iter().map(|m| m.1).collect();
    assert_eq!(&names[..3], ["startup", "drain", "probe_bw"], "{names:?}");
    // The table says the mode in force at each change of the windows.
    let table = m.window.table();
    assert_eq!(table.headers.last().unwrap(), "BBR mode");
    assert_eq!(m.window.mode_at(traced[1].0), "drain");
    assert_eq!(m.window.mode_at(traced[1].0 - 1.0), "startup");
    assert_eq!(m.window.mode_at(-1.0), "");
}

#[test]
fn cubic_has_no_band() {
    let m = Model::from_run(&run(&[("preset", "seed-003-cubic"), ("duration", "3s")]));
    assert!(m.window.modes.is_empty());
    assert_ne!(m.window.table().headers.last().unwrap(), "BBR mode");
}

/// Whether the SVG has a text element reading exactly `text`.
fn has_text(svg: &str, text: &str) -> bool {
    svg.contains(&format!(">\n{text}\n</text>"))
}

fn svg_of(m: &Model, chart: &str) -> String {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 240)).into_drawing_area();
        let pal = Palette::default();
        match chart {
            "cwnd" => window_chart::draw(&root, &m.window, m.end_ns, m.end_ns, f64::NAN, &pal, 1.0)
                .unwrap(),
            _ => throughput_chart::draw(
                &root,
                &m.throughput,
                m.end_ns,
                m.end_ns,
                f64::NAN,
                &pal,
                1.0,
            )
            .map(|_| ())
            .unwrap(),
        }
    }
    svg
}

#[test]
fn the_band_names_the_modes_it_has_room_for() {
    let bbr = Model::from_run(&run(&[("preset", "seed-003-bbr"), ("duration", "12s")]));
    let svg = svg_of(&bbr, "cwnd");
    // ProbeBW lasts seconds: named. (Drain lasts a few round trips.)
    assert!(has_text(&svg, "ProbeBW"), "no ProbeBW label");
    assert!(has_text(&svg, "Startup"), "no Startup label");
    let cubic = Model::from_run(&run(&[("preset", "seed-003-cubic"), ("duration", "3s")]));
    assert!(!has_text(&svg_of(&cubic, "cwnd"), "Startup"));
}

/// Each flow's bytes per interval add up to what that flow's client read
/// (its last sample), and the chart gets a line per other flow and the sum.
#[test]
fn the_throughput_chart_carries_every_flow_and_their_sum() {
    let r = run(&[("preset", "cubic-and-bbr"), ("duration", "8s")]);
    let m = Model::from_run(&r);
    let t = &m.throughput;
    assert_eq!(t.flows.len(), 2);
    for (f, bytes) in t.flows.iter().enumerate() {
        let read = r
            .trace
            .flow_summary(f as u16)
            .filter_map(|x| match x.event {
                TraceEvent::Sample { delivered, .. } => Some(delivered),
                _ => None,
            })
            .last()
            .unwrap();
        assert_eq!(bytes.iter().sum::<u64>(), read, "flow {f}");
    }
    let sum: u64 = (0..t.bytes.len()).map(|i| t.sum(i)).sum();
    assert_eq!(sum, t.flows[0].iter().chain(&t.flows[1]).sum::<u64>());
    assert!(t.max_mbps() >= t.rate(t.sum(t.bytes.len() / 2)));
    let svg = svg_of(&m, "throughput");
    assert!(
        has_text(&svg, "all flows") && has_text(&svg, "other flows"),
        "legend"
    );
    // One flow: no lines, no sum column.
    let one = Model::from_run(&run(&[("preset", "seed-003-cubic"), ("duration", "3s")]));
    assert!(one.throughput.flows.is_empty());
    assert!(!has_text(&svg_of(&one, "throughput"), "all flows"));
}
