//! The drawing code, run natively against plotters' SVG backend: the same
//! functions the browser runs on a canvas.

use plotters::prelude::*;
use sim_core::segment::Side;
use tcp_widgets::draw::{cwnd_chart, path_view};
use tcp_widgets::palette::Palette;
use tcp_widgets::run_view::{RunView, SlowStartParams};

fn seed() -> RunView {
    RunView::simulate(&SlowStartParams {
        // Seed 004's defaults with a receive buffer large enough never to limit.
        rcvbuf: 16.0 * 1024.0 * 1024.0,
        ..SlowStartParams::from_values(widget_spec::widget("slow-start").unwrap(), &[])
    })
}

#[test]
fn the_cwnd_chart_draws_a_curve_and_labelled_axes() {
    let run = seed();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (640, 240)).into_drawing_area();
        cwnd_chart::draw(&root, &run, run.end_ns, &Palette::default(), 1.0).unwrap();
    }
    assert!(svg.contains("cwnd (segments)"));
    assert!(svg.contains("time (ms)"));
    assert!(svg.contains("<polyline"), "the cwnd curve is a polyline");
}

/// Draws the path view `after_ns` after the server's first data segment left,
/// returning what was on the path and the SVG.
fn path_after_first_data(after_ns: f64) -> (path_view::OnPath, String) {
    let run = seed();
    let first = run
        .transits
        .iter()
        .find(|t| t.len > 0 && t.from == Side::Server)
        .unwrap();
    let t = first.sent.0 as f64 + after_ns;
    let mut svg = String::new();
    let on = {
        let root = SVGBackend::with_string(&mut svg, (640, 150)).into_drawing_area();
        path_view::draw(
            &root,
            &run,
            t,
            path_view::max_transit_ns(&run),
            &Palette::default(),
            1.0,
        )
        .unwrap()
    };
    (on, svg)
}

#[test]
fn the_path_view_shows_the_first_flight_in_the_air() {
    // Half a millisecond after the first data segment left, the whole first
    // flight (10 segments, 120 us of serialisation) is on its way.
    let (on, svg) = path_after_first_data(0.5e6);
    assert_eq!(on.data, 10);
    assert_eq!(on.acks, 0);
    assert!(svg.contains("server") && svg.contains("client"));
}

#[test]
fn acks_fly_back_while_the_next_flight_waits() {
    // 5 ms after the first flight left it has arrived (3.5 ms one way); its
    // ten ACKs are on the way back: a Linux receiver whose window is growing
    // acknowledges every segment (quick-ACK mode).
    let (on, _) = path_after_first_data(5e6);
    assert_eq!((on.data, on.acks), (0, 10));
}
