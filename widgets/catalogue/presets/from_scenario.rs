// What a widget's sliders read from a parsed scenario file, in base units
// (ns, bit/s, bytes, segments). Used by the build script to turn each preset's
// scenario file into slider values; the widgets' tests check that the sliders
// then rebuild exactly the scenario the file describes.

use sim_core::config::Scenario;

/// `None` for a widget that has no presets yet.
pub fn slider_values(widget: &str, s: &Scenario) -> Option<Vec<(&'static str, f64)>> {
    match widget {
        "slow-start" => Some(vec![
            (
                "rtt",
                (s.path.delay_forward.0 + s.path.delay_reverse.0) as f64,
            ),
            ("bandwidth", s.path.rate_bps as f64),
            ("mss", s.server.sender.mss as f64),
            ("initcwnd", s.server.sender.initcwnd as f64),
            ("size", s.app.response_bytes() as f64),
            ("rwnd", s.client.receiver.syn_window as f64),
            ("rcvbuf", s.client.receiver.rcvbuf as f64),
        ]),
        "long-fat" => Some(vec![
            (
                "cc",
                // The order of `CONGESTION_CONTROLS` in `src/catalogue.rs`;
                // the presets test fails if the two disagree.
                ["reno", "cubic", "bbr"]
                    .iter()
                    .position(|n| *n == s.server.sender.congestion_control.name())?
                    as f64,
            ),
            (
                "rtt",
                (s.path.delay_forward.0 + s.path.delay_reverse.0) as f64,
            ),
            ("bandwidth", s.path.rate_bps as f64),
            ("loss", s.path.loss),
            ("queue", s.path.queue_bytes as f64),
            ("wmem", s.server.sender.sndbuf_max as f64),
            ("rmem", s.client.receiver.rcvbuf_max as f64),
            ("duration", s.time_limit.0 as f64),
        ]),
        _ => None,
    }
}
