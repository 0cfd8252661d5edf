//! The congestion control's own state on the long-fat widget's charts: BBR's
//! BDP estimate and ProbeBW gain phases on the cwnd chart and its min_rtt on
//! the RTT chart; CUBIC's W_max and curve after each loss. Set
//! `LFN_SVG_DIR` to write the charts of three presets there as SVG.

use tcp_widgets::kit::model::Model;
use tcp_widgets::kit::scenario;
use tcp_widgets::kit::views::{self, View};
use tcp_widgets::palette::Palette;
use tcp_widgets::series::cc_state::GainPhase;
use widget_catalogue::widget;

fn preset(name: &str) -> Model {
    let spec = widget("long-fat").unwrap();
    let values = tcp_widgets::params::preset_values(spec, name).unwrap();
    Model::from_run(&sim_core::sim::run(&scenario::build(spec, &values)).unwrap())
}

fn svg(m: &Model, view: View) -> String {
    views::svg(view, m, m.end_ns, &Palette::default(), 900, view.height())
}

#[test]
fn bbr_shows_its_bdp_estimate_gain_phases_and_min_rtt() {
    let m = preset("seed-003-bbr");
    let cc = &m.window.cc;
    // 110 Mbit/s × 210 ms of 1448-byte segments: about 1,990 (payload
    // rate a little under the line's).
    assert!((1_800.0..2_000.0).contains(&cc.max_bdp), "{}", cc.max_bdp);
    let ups = cc.phases.iter().filter(|p| p.1 == GainPhase::Up).count();
    let downs = cc.phases.iter().filter(|p| p.1 == GainPhase::Down).count();
    // One up-probe per 8-phase cycle, about 1.7 s at 210 ms: ~15 in 30 s.
    assert!((10..=20).contains(&ups), "{ups} up-probes");
    assert!(downs + 1 >= ups, "{downs} drains");
    let window = svg(&m, View::Window);
    for text in [
        "BDP estimate (max_bw × min_rtt)",
        "ProbeBW gain 1.25",
        "gain 0.75",
    ] {
        assert!(window.contains(text), "{text}");
    }
    assert!(!window.contains("W_max"));
    assert!(svg(&m, View::Rtt).contains("BBR min_rtt"));
}

#[test]
fn cubic_after_a_loss_shows_w_max_and_its_curve() {
    let m = preset("loss-0.1pct-cubic");
    let epochs = &m.window.cc.epochs;
    assert!(epochs.len() >= 5, "{} epochs", epochs.len());
    for e in epochs {
        // The curve starts at the cwnd the epoch began with (W_max − C·K³,
        // within a segment of the kernel's integers), and ends at the next
        // reduction.
        let at_start = m.window.at(e.start_ns).cwnd as f64;
        assert!(
            (e.w(e.start_ns) - at_start).abs() < 2.0,
            "{e:?}: cwnd {at_start}"
        );
        assert!(e.end_ns > e.start_ns);
        assert!(
            m.window.at(e.end_ns).cwnd < m.window.at(e.end_ns - 1.0).cwnd || e.end_ns >= m.end_ns
        );
    }
    let window = svg(&m, View::Window);
    assert!(window.contains("W_max") && window.contains("cubic W(t)"));
    assert!(!window.contains("BDP estimate"));
    assert!(!svg(&m, View::Rtt).contains("min_rtt"));
}

/// Writes the window and RTT charts of the three presets the issue names.
#[test]
fn export_svgs_when_asked() {
    let Ok(dir) = std::env::var("LFN_SVG_DIR") else {
        return;
    };
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["seed-003-cubic", "seed-003-bbr", "loss-0.1pct-cubic"] {
        let m = preset(name);
        for (view, tag) in [(View::Window, "cwnd"), (View::Rtt, "rtt")] {
            std::fs::write(format!("{dir}/{name}-{tag}.svg"), svg(&m, view)).unwrap();
        }
    }
}
