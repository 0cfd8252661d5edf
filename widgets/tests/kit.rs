//! The widget kit's model and views, natively: one run drawn by every view at
//! several cursors, the text panels read at the cursor, and extreme inputs.

use tcp_widgets::kit::model::Model;
use tcp_widgets::kit::scenario;
use tcp_widgets::kit::views::{self, View};
use tcp_widgets::palette::Palette;
use widget_catalogue::widget;

fn model(values: &[f64]) -> Model {
    let s = scenario::build(widget("slow-start").unwrap(), values);
    Model::from_run(&sim_core::sim::run(&s).unwrap())
}

fn defaults() -> Vec<f64> {
    widget("slow-start")
        .unwrap()
        .params
        .iter()
        .map(|p| p.default)
        .collect()
}

#[test]
fn every_view_draws_at_every_cursor_without_error() {
    let m = model(&defaults());
    for view in View::ALL {
        for t in [0.0, m.end_ns / 3.0, m.end_ns, m.end_ns * 2.0, f64::NAN] {
            let svg = views::svg(view, &m, t, &Palette::default(), 640, view.height());
            assert!(svg.starts_with("<svg"), "{view:?} at {t}");
            assert!(svg.len() > 500, "{view:?} at {t} drew something");
        }
        let table = view.table(&m);
        assert!(!table.headers.is_empty(), "{view:?} has a data table");
        assert!(!table.rows.is_empty(), "{view:?} table has rows");
    }
}

/// The export draws through `draw::backend::Backend`, the enum that keeps one
/// copy of the drawing code in the wasm; it must write exactly what the SVG
/// backend writes on its own.
#[test]
fn the_one_backend_draws_the_svg_the_svg_backend_draws() {
    use plotters::prelude::{IntoDrawingArea, SVGBackend};
    let m = model(&defaults());
    let pal = Palette::default();
    for view in View::ALL {
        for t in [0.0, m.end_ns / 3.0, m.end_ns] {
            let (w, h) = (640, view.height());
            let mut direct = String::new();
            {
                let area = SVGBackend::with_string(&mut direct, (w, h)).into_drawing_area();
                views::draw(
                    &area,
                    view,
                    &m,
                    t,
                    views::Axes {
                        end_ns: m.end_ns,
                        y_top: f64::NAN,
                    },
                    &pal,
                    1.0,
                )
                .unwrap();
                area.present().unwrap();
            }
            assert_eq!(
                views::svg(view, &m, t, &pal, w, h),
                direct,
                "{view:?} at {t}"
            );
        }
    }
}

#[test]
fn panels_read_the_run_at_the_cursor() {
    let m = model(&defaults());
    // Before the server's socket is connected, ss has no socket to show:
    // it says so, where it used to print one of zeros ("cwnd:0 rto:0").
    let established = m.path.established_ns.expect("connected") as f64;
    for t in [0.0, established - 1.0] {
        let ss = m.ss_at(t);
        assert!(ss.starts_with("(no connection yet"), "{ss}");
        assert!(!ss.contains("cwnd:") && !ss.contains("rto:"), "{ss}");
    }
    let ss = m.ss_at(established + 1e6);
    assert!(ss.contains("bytes_sent:") && !ss.contains("rto:0 "), "{ss}");
    // The iperf intervals (a tenth of the run, about 5 ms) have edges that
    // differ at their precision.
    for line in m
        .iperf_lines
        .iter()
        .skip(1)
        .take_while(|l| !l.starts_with('-'))
    {
        let edges = line[6..].split(" sec").next().unwrap();
        let (a, b) = edges.split_once('-').unwrap();
        assert_ne!(a.trim(), b.trim(), "{line}");
    }
    // At the end, ss reports the whole 512 KiB response sent.
    assert!(
        m.ss_at(m.end_ns).contains("bytes_sent:524288"),
        "{}",
        m.ss_at(m.end_ns)
    );
    assert!(
        m.ss_at(m.end_ns)
            .contains(&format!("cwnd:{}", m.cwnd_at(m.end_ns)))
    );
    // The iperf table grows with the cursor and ends with its summary.
    let early = m.iperf_until(0.0).len();
    let late = m.iperf_until(m.end_ns).len();
    assert_eq!(early, 1, "header only at t = 0");
    assert_eq!(late, m.iperf_lines.len());
    assert!(m.iperf_until(m.end_ns / 2.0).len() > early);
    assert!(
        m.settings
            .iter()
            .any(|(k, v)| k == "initcwnd (route)" && v == "10")
    );
}

#[test]
fn the_samples_are_fine_enough_for_the_buffer_bars() {
    // Twenty per 7 ms round trip: 350 µs apart.
    let s = scenario::build(widget("slow-start").unwrap(), &defaults());
    assert_eq!(s.sample_interval.0, 350_000);
}

#[test]
fn extreme_values_give_a_model_every_view_can_draw() {
    let spec = widget("slow-start").unwrap();
    for pick in [0.0, 1.0] {
        let values: Vec<f64> = spec.params.iter().map(|p| p.from_position(pick)).collect();
        let m = model(&values);
        assert!(m.end_ns > 0.0);
        for view in View::ALL {
            let svg = views::svg(
                view,
                &m,
                m.end_ns / 2.0,
                &Palette::default(),
                360,
                view.height(),
            );
            assert!(svg.starts_with("<svg"));
        }
    }
}
