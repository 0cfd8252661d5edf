//! The drawing code, run natively against plotters' SVG backend: the same
//! functions the browser runs on a canvas.

use plotters::prelude::*;
use tcp_widgets::draw::path_view;
use tcp_widgets::palette::Palette;
use tcp_widgets::series::path::PathSeries;
use widget_catalogue::Values;
use widget_catalogue::widgets::slow_start;

/// Draws the path view `after_ns` after the server's first data segment left,
/// returning what was on the path and the SVG.
fn path_after_first_data(after_ns: f64) -> (path_view::OnPath, String) {
    // Seed 004's defaults with a receive buffer large enough never to limit.
    let mut values = Values::defaults(slow_start::WIDGET.params);
    values.set(slow_start::RCVBUF, 16 * 1024 * 1024);
    let scenario = (slow_start::WIDGET.scenario)(&values);
    let path = PathSeries::from_run(&sim_core::sim::run(&scenario).unwrap());
    let first = path
        .downlink
        .packets()
        .iter()
        .find(|p| p.is_data())
        .unwrap();
    let t = first.sent as f64 + after_ns;
    let mut svg = String::new();
    let on = {
        let root = SVGBackend::with_string(&mut svg, (640, 170)).into_drawing_area();
        path_view::draw(&root, &path, t, &Palette::default(), 1.0).unwrap()
    };
    (on, svg)
}

#[test]
fn the_path_view_shows_the_first_flight_in_the_air() {
    // Half a millisecond after the first data segment left, the whole first
    // flight (10 segments, 120 us of serialisation) is on its way.
    let (on, svg) = path_after_first_data(0.5e6);
    assert_eq!(on.downlink.data, 10);
    assert_eq!(on.uplink.acks, 0);
    assert!(svg.contains("server") && svg.contains("client"));
    assert!(svg.contains("flight 1 · 10 segments in flight →"));
}

#[test]
fn acks_fly_back_while_the_next_flight_waits() {
    // 5 ms after the first flight left it has arrived (3.5 ms one way). Its
    // ten segments came 12 µs apart, so today's client took them in as one
    // GRO skb and acknowledged them with one ACK, now on the way back (as in
    // seed 004's capture, where one ACK answers a whole flight).
    let (on, svg) = path_after_first_data(5e6);
    assert_eq!((on.downlink.data, on.uplink.acks), (0, 1));
    assert!(svg.contains("← 1 ACK in flight"), "{svg}");
}
