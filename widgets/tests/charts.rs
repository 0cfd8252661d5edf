//! The four linked charts of one run (window, time-sequence graph,
//! throughput, RTT): their data checked against the seeds' real runs and the
//! trace, and their drawing checked as SVG, including the primitive budget
//! that keeps 30 s at 1 Gbit/s drawable at 60 frames a second.

mod common;
use common::svg;
use plotters::prelude::*;
use sim_core::analysis;
use sim_core::segment::Side;
use sim_core::sim::{RunResult, run};
use sim_core::trace::TraceEvent;
use tcp_widgets::draw::{rtt_chart, throughput_chart, tsg_chart, window_chart};
use tcp_widgets::palette::{Palette, SERIES};
use tcp_widgets::series::rtt::RttSeries;
use tcp_widgets::series::table::Table;
use tcp_widgets::series::throughput::ThroughputSeries;
use tcp_widgets::series::tsg::TsgSeries;
use tcp_widgets::series::window::WindowSeries;

fn run_file(name: &str) -> RunResult {
    let path = format!("{}/../scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (_, scenario) = sim_core::scenario_file::parse(&text).expect("scenario parses");
    run(&scenario).expect("scenario runs")
}

fn seed_004() -> RunResult {
    run_file("seed-004-512k-7ms.toml")
}

fn seed_001() -> RunResult {
    run_file("seed-001-receiver-stops-reading.toml")
}

fn seed_003() -> RunResult {
    run_file("seed-003-lfn-cubic.toml")
}

/// Benchmark case c: 30 s of CUBIC at 1 Gbit/s and 210 ms.
fn case_c() -> RunResult {
    run(&sim_core::benchmarks::by_name("c").expect("case c")).expect("case c runs")
}

const MSS: u64 = 1448;

/// Elements drawn (every SVG tag but the root).
fn elements(svg: &str) -> usize {
    svg.match_indices('<')
        .filter(|(i, _)| svg[i + 1..].starts_with(|c: char| c.is_ascii_alphabetic()))
        .count()
        - 1
}

/// Vertices of all polylines.
fn vertices(svg: &str) -> usize {
    svg.split("points=\"")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].split_whitespace().count())
        .sum()
}

/// Vertices of polylines stroked in `colour`.
fn vertices_in(svg: &str, colour: RGBColor) -> usize {
    let stroke = format!(
        "stroke=\"#{:02X}{:02X}{:02X}\"",
        colour.0, colour.1, colour.2
    );
    svg.split("<polyline")
        .skip(1)
        .filter(|e| e.contains(&stroke))
        .map(|e| {
            let p = &e[e.find("points=\"").unwrap() + 8..];
            p[..p.find('"').unwrap()].split_whitespace().count()
        })
        .sum()
}

/// A minimal RFC 4180 reader, to check the CSV export round-trips.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    rows
}

fn assert_table_is_sound(t: &Table, units: &[&str]) {
    assert!(!t.caption.is_empty());
    assert!(t.rows.len() <= 2000, "{} rows", t.rows.len());
    for u in units {
        assert!(
            t.headers.iter().any(|h| h.contains(u)),
            "no header with {u}: {:?}",
            t.headers
        );
    }
    assert!(t.rows.iter().all(|r| r.len() == t.headers.len()));
    let parsed = parse_csv(&t.to_csv());
    assert_eq!(parsed[0], t.headers);
    assert_eq!(&parsed[1..], &t.rows[..]);
}

// ---- window ------------------------------------------------------------

#[test]
fn the_window_starts_at_initcwnd_and_doubles_each_round_trip() {
    let run = &seed_004();
    let w = WindowSeries::from_run(run);
    assert_eq!(w.points[0].cwnd, 10);
    assert_eq!(w.points[0].t_ns, 0.0);
    // cwnd when each flight starts: 11, 21, 42, 81, 161 (the flight's first
    // ACK has already added one): about double every round trip.
    let flights = analysis::flights(&run.trace, Side::Server);
    let at_start: Vec<u32> = flights[1..]
        .iter()
        .map(|f| w.at(f.start.0 as f64).cwnd)
        .collect();
    for pair in at_start.windows(2) {
        let ratio = pair[1] as f64 / pair[0] as f64;
        assert!(
            (1.8..=2.2).contains(&ratio),
            "cwnd at flight starts: {at_start:?}"
        );
    }
    // The first flight is all outstanding the moment it is sent.
    assert_eq!(w.at(flights[0].start.0 as f64).outstanding_bytes, 14_480);
}

#[test]
fn the_window_reaches_the_cwnd_the_trace_records() {
    let run = &seed_004();
    let w = WindowSeries::from_run(run);
    let traced_max = run
        .trace
        .records()
        .filter_map(|r| match r.event {
            TraceEvent::CwndChanged {
                side: Side::Server,
                new,
                ..
            } => Some(new),
            _ => None,
        })
        .max()
        .unwrap();
    assert_eq!(w.points.iter().map(|p| p.cwnd).max(), Some(traced_max));
    assert_eq!(
        w.points.last().map(|p| p.cwnd),
        analysis::summarize(run).final_cwnd
    );
    assert_eq!(w.max_segments, traced_max as f64);
}

#[test]
fn outstanding_stays_within_cwnd_and_ends_at_what_was_sent_but_not_acked() {
    let run = &seed_004();
    let w = WindowSeries::from_run(run);
    for p in &w.points {
        assert!(
            w.outstanding_segments(p) <= p.cwnd as f64,
            "{p:?}: more outstanding than cwnd"
        );
    }
    // The run ends when the client has read the last byte, before the last
    // ACKs are back: what is still outstanding is what the TSG shows unacked.
    let t = TsgSeries::from_run(run);
    let sent = t.segments.iter().map(|s| s.end).max().unwrap();
    let acked = t.acks.iter().map(|a| a.ack).max().unwrap();
    assert!(sent > acked);
    assert_eq!(w.at(w.end_ns).outstanding_bytes, sent - acked);
    assert!(w.points.iter().any(|p| p.outstanding_bytes >= 160 * MSS));
}

#[test]
fn infinite_ssthresh_is_absent_until_a_loss_sets_it() {
    let w = WindowSeries::from_run(&seed_004());
    assert!(w.points.iter().all(|p| p.ssthresh.is_none()));
    assert!(w.table().rows.iter().all(|r| r[2].is_empty()));
    let lossy = WindowSeries::from_run(&seed_003());
    let first = lossy
        .points
        .iter()
        .position(|p| p.ssthresh.is_some())
        .unwrap();
    assert!(first > 0);
    assert!(
        lossy.points[first..]
            .iter()
            .all(|p| p.ssthresh.unwrap() < 100_000)
    );
    assert!(lossy.max_segments < 100_000.0, "no 2^31 on the y axis");
}

// ---- time-sequence graph -------------------------------------------------

#[test]
fn the_tsg_has_a_point_per_data_segment_and_flags_every_retransmission() {
    for run in [&seed_004(), &seed_003()] {
        let t = TsgSeries::from_run(run);
        let s = analysis::summarize(run);
        assert_eq!(t.segments.len() as u64, s.data_segments);
        assert_eq!(t.retransmissions() as u64, s.retransmissions);
    }
    let lossy = TsgSeries::from_run(&seed_003());
    assert!(lossy.retransmissions() > 0);
    assert!(lossy.drops() > 0, "seed 003 loses data segments");
    assert!(lossy.acks.iter().any(|a| !a.sack.is_empty()), "SACK blocks");
}

#[test]
fn the_ack_line_climbs_to_the_whole_response() {
    let t = TsgSeries::from_run(&seed_004());
    assert!(t.acks.windows(2).all(|w| w[0].ack <= w[1].ack));
    let last = t.segments.iter().map(|s| s.end).max().unwrap();
    assert_eq!(last, 1 + 512 * 1024, "relative: the first data byte is 1");
    // By the end the server has heard ACKs for the first four flights
    // (14480 + 28960 + 57920 + 115840 bytes after byte 1); the client has
    // read everything before the last flights' ACKs are back.
    let acked = t.acks.last().unwrap().ack;
    assert!((1 + 217_200..last).contains(&acked), "{acked}");
    assert_eq!(t.zero_windows().count(), 0);
    assert_eq!(t.drops(), 0);
}

#[test]
fn a_receiver_that_stops_reading_shows_zero_windows() {
    let t = TsgSeries::from_run(&seed_001());
    let zero: Vec<_> = t.zero_windows().collect();
    assert!(!zero.is_empty());
    // Every zero window sits on the ACK line: the window edge is the ACK.
    assert!(zero.iter().all(|a| a.window_edge() == a.ack));
    let table = t.table();
    assert!(table.rows.iter().any(|r| r[5].contains("zero window")));
}

// ---- throughput ------------------------------------------------------------

#[test]
fn throughput_intervals_sum_to_the_bytes_delivered() {
    let th = ThroughputSeries::from_run(&seed_004());
    assert_eq!(th.total_bytes(), 512 * 1024);
    let n = th.bytes.len();
    assert!((40..=70).contains(&n), "{n} intervals");
    let mantissa = th.interval_ns / 10u64.pow(th.interval_ns.ilog10());
    assert!([1, 2, 5].contains(&mantissa), "{} ns", th.interval_ns);
    // Never faster than the bottleneck (1 Gbit/s).
    assert!(th.max_mbps() <= 1000.0 + 1e-9, "{}", th.max_mbps());
}

#[test]
fn retransmissions_do_not_count_twice_in_throughput() {
    let run = &seed_003();
    let th = ThroughputSeries::from_run(run);
    // Distinct bytes received: the highest byte the client has acknowledged
    // (minus the SYN) is a lower bound, the highest byte sent an upper one.
    let t = TsgSeries::from_run(run);
    let acked = t.acks.iter().map(|a| a.ack).max().unwrap() - 1;
    let sent = t.segments.iter().map(|s| s.end).max().unwrap() - 1;
    let total = th.total_bytes();
    assert!(
        acked <= total && total <= sent,
        "{acked} <= {total} <= {sent}"
    );
    let all_bytes: u64 = t
        .segments
        .iter()
        .filter(|s| !s.dropped)
        .map(|s| s.end - s.seq)
        .sum();
    assert!(total < all_bytes, "retransmitted bytes arrive twice");
}

// ---- RTT -------------------------------------------------------------------

#[test]
fn rtt_samples_are_never_below_the_path_round_trip() {
    let r = RttSeries::from_run(&seed_004());
    assert!(r.samples.len() > 100);
    assert!(r.samples.iter().all(|s| s.sample_ns >= 7_000_000));
    assert!(r.samples.iter().all(|s| s.srtt_ns >= 7_000_000));
    assert!(r.max_ns < 20e6, "no queueing to speak of: {}", r.max_ns);
}

// ---- tables -------------------------------------------------------------------

#[test]
fn tables_have_units_in_their_headers_and_round_trip_as_csv() {
    let run = &seed_004();
    assert_table_is_sound(
        &WindowSeries::from_run(run).table(),
        &[
            "time (ms)",
            "cwnd (segments)",
            "ssthresh (segments)",
            "(bytes)",
        ],
    );
    assert_table_is_sound(&TsgSeries::from_run(run).table(), &["time (ms)", "(bytes)"]);
    assert_table_is_sound(
        &ThroughputSeries::from_run(run).table(),
        &["(ms)", "(bytes)", "(Mbit/s)"],
    );
    assert_table_is_sound(
        &RttSeries::from_run(run).table(),
        &["time (ms)", "srtt (ms)"],
    );
}

#[test]
fn long_runs_decimate_their_tables_and_say_so() {
    let run = &seed_003();
    let w = WindowSeries::from_run(run).table();
    assert!(w.rows.len() <= 2000 && w.rows.len() > 1000);
    assert!(w.caption.contains("decimated"), "{}", w.caption);
    let t = TsgSeries::from_run(run);
    let table = t.table();
    assert!(table.rows.len() <= 2000);
    // Every retransmission survives the decimation.
    let listed = table
        .rows
        .iter()
        .filter(|r| r[5].contains("retransmission"))
        .count();
    assert_eq!(listed, t.retransmissions());
    assert_table_is_sound(&table, &["time (ms)"]);
}

// ---- drawing -------------------------------------------------------------------

/// One run's four series, built once and drawn at will.
struct Charts {
    win: WindowSeries,
    tsg: TsgSeries,
    thr: ThroughputSeries,
    rtt: RttSeries,
}

impl Charts {
    fn new(run: &RunResult) -> Self {
        Charts {
            win: WindowSeries::from_run(run),
            tsg: TsgSeries::from_run(run),
            thr: ThroughputSeries::from_run(run),
            rtt: RttSeries::from_run(run),
        }
    }

    fn draw(&self, w: u32, h: u32, cursor: f64, scale: f64) -> [String; 4] {
        let pal = Palette::default();
        let end = self.win.end_ns;
        [
            svg(w, h, |r| {
                window_chart::draw(r, &self.win, cursor, end, f64::NAN, &pal, scale).unwrap()
            }),
            svg(w, h, |r| {
                tsg_chart::draw(r, &self.tsg, cursor, end, f64::NAN, &pal, scale).unwrap()
            }),
            svg(w, h, |r| {
                throughput_chart::draw(r, &self.thr, cursor, end, f64::NAN, &pal, scale).unwrap()
            }),
            svg(w, h, |r| {
                rtt_chart::draw(r, &self.rtt, cursor, end, f64::NAN, &pal, scale).unwrap()
            }),
        ]
    }
}

fn draw_all(run: &RunResult, w: u32, h: u32, cursor: f64, scale: f64) -> [String; 4] {
    Charts::new(run).draw(w, h, cursor, scale)
}

#[test]
fn every_chart_labels_its_axes_and_has_a_legend() {
    let run = &seed_004();
    let [win, tsg, thr, rtt] = draw_all(run, 800, 300, 30e6, 1.0);
    for (svg, labels) in [
        (
            &win,
            &[
                "time (ms)",
                "window (segments)",
                "cwnd",
                "ssthresh",
                "outstanding",
            ][..],
        ),
        (
            &tsg,
            &[
                "time (ms)",
                "sequence number (kB, relative)",
                "data sent",
                "ACK",
                "receive window",
            ],
        ),
        (
            &thr,
            &[
                "time (ms)",
                "throughput (Mbit/s)",
                "delivered per 1 ms",
                "bottleneck rate",
            ],
        ),
        (&rtt, &["time (ms)", "RTT (ms)", "RTT sample", "srtt"]),
    ] {
        for l in labels {
            assert!(svg.contains(l), "missing {l:?}");
        }
    }
    let lossy = draw_all(&seed_003(), 800, 300, 10e9, 1.0);
    assert!(
        lossy[0].contains("time (s)"),
        "30 s runs are labelled in seconds"
    );
    assert!(lossy[1].contains("retransmission") && lossy[1].contains("SACK blocks"));
    let zero = draw_all(&seed_001(), 800, 300, 1e9, 1.0);
    assert!(zero[1].contains("zero window"));
    // On a phone the RTT legend's names are short, so they fit the canvas.
    let [.., narrow_rtt] = draw_all(run, 340, 240, 30e6, 1.0);
    assert!(narrow_rtt.contains("\nsrtt\n") && narrow_rtt.contains("\nsample\n"));
    assert!(!narrow_rtt.contains("smoothed"));
}

#[test]
fn the_cursor_splits_colour_from_the_faint_rest() {
    let run = &seed_004();
    let charts = Charts::new(run);
    let early = charts.draw(800, 300, 12e6, 1.0);
    let late = charts.draw(800, 300, 50e6, 1.0);
    // The cwnd and data lines (blue) hold more vertices the later the cursor.
    for i in [0, 1] {
        let (a, b) = (
            vertices_in(&early[i], SERIES[0]),
            vertices_in(&late[i], SERIES[0]),
        );
        assert!(a < b, "chart {i}: {a} vs {b} vertices in colour");
    }
    // Throughput: a blue bar per non-empty interval complete by the cursor,
    // plus the legend's; none 0.5 ms in.
    let fill = format!(
        "fill=\"#{:02X}{:02X}{:02X}\"",
        SERIES[0].0, SERIES[0].1, SERIES[0].2
    );
    let none = charts.draw(800, 300, 0.5e6, 1.0);
    assert_eq!(none[2].matches(&fill).count(), 1);
    let thr = &charts.thr;
    let complete = (0..thr.bytes.len())
        .filter(|&i| thr.bytes[i] > 0 && thr.start_ns(i + 1) <= 45e6)
        .count();
    assert!(complete > 3);
    let mid = charts.draw(800, 300, 45e6, 1.0);
    assert_eq!(mid[2].matches(&fill).count(), complete + 1);
}

#[test]
fn narrow_canvases_get_fewer_tick_labels() {
    let run = &seed_004();
    let texts = |s: &String| s.matches("<text").count();
    let wide = draw_all(run, 1200, 300, 30e6, 1.0);
    let narrow = draw_all(run, 360, 300, 30e6, 1.0);
    for (w, n) in wide.iter().zip(&narrow) {
        assert!(texts(n) < texts(w), "{} vs {}", texts(n), texts(w));
    }
}

#[test]
fn presenter_scale_thickens_lines_and_fonts() {
    let run = &seed_004();
    let normal = draw_all(run, 800, 300, 30e6, 1.0);
    let big = draw_all(run, 2000, 750, 30e6, 2.5);
    // cwnd: 2.5 CSS px, so 3 device px at scale 1 and 6 at scale 2.5.
    assert!(normal[0].contains("stroke-width=\"3\""));
    assert!(big[0].contains("stroke-width=\"6\""));
    let fonts = |s: &str| {
        s.split("font-size=\"")
            .skip(1)
            .map(|f| f[..f.find('"').unwrap()].parse::<f64>().unwrap())
            .fold(0.0, f64::max)
    };
    assert_eq!(fonts(&big[0]), 2.5 * fonts(&normal[0]), "12 px × 2.5");
}

#[test]
fn case_c_draws_in_a_few_thousand_primitives() {
    let charts = Charts::new(&case_c());
    let t = &charts.tsg;
    assert!(t.segments.len() > 150_000, "{} segments", t.segments.len());
    assert!(t.acks.len() > 90_000, "{} ACKs", t.acks.len());
    let end = t.end_ns;
    for (w, h, scale) in [(1200, 400, 1.0), (3000, 1000, 2.5), (360, 240, 1.0)] {
        for cursor in [0.0, end / 3.0, end] {
            for (i, svg) in charts.draw(w, h, cursor, scale).iter().enumerate() {
                let (e, v) = (elements(svg), vertices(svg));
                assert!(
                    e < 2000,
                    "chart {i} at {w}px, cursor {cursor}: {e} elements"
                );
                assert!(
                    v < 16_000,
                    "chart {i} at {w}px, cursor {cursor}: {v} vertices"
                );
            }
        }
    }
}

/// The legend sits in a strip above the plot, where it hides no data, in
/// rows that fit the canvas, at every scale and width. (That the y axis'
/// tick labels clear its title is tested in the browser, whose fonts are
/// the readers': tests/chart-layout.test.mjs.)
#[test]
fn the_legend_is_above_the_plot() {
    use tcp_widgets::draw::chart_frame::{self as frame, Frame, Key, YAxis};
    let pal = Palette::default();
    let number = |s: &str, attr: &str| -> f64 {
        let at = s.find(&format!("{attr}=\"")).expect(attr) + attr.len() + 2;
        s[at..s[at..].find('"').unwrap() + at].parse().unwrap()
    };
    for scale in [1.0, 2.0] {
        for width in [360, 800] {
            let mut plot_top = 0;
            let out = svg(width, 300, |root| {
                let f = Frame::new(root, &pal, scale);
                let fmt = |v: &f64| format!("{v:.0}");
                let y = YAxis {
                    desc: "window (segments)",
                    max: 14_400.0,
                    fmt: &fmt,
                };
                let entries = [
                    ("cwnd", Key::Line(f.line(SERIES[0], 2.0))),
                    ("ssthresh", Key::Dashed(f.line(SERIES[5], 1.5))),
                    ("outstanding (snd_nxt − snd_una)", Key::Line(f.faint(1.0))),
                    ("delivered per 10 ms", Key::Bar(SERIES[2].filled())),
                ];
                let chart = frame::chart(root, &f, 1e9, y, &entries).unwrap();
                plot_top = chart.plotting_area().get_pixel_range().1.start;
            });
            let texts: Vec<&str> = out.split("<text").skip(1).collect();
            for label in ["cwnd", "ssthresh", "snd_nxt", "delivered per 10 ms"] {
                let t = texts.iter().find(|t| t.contains(label)).expect(label);
                assert!(
                    (number(t, "y") as i32) < plot_top,
                    "scale {scale}, {width} px: {label:?} is drawn in the plot"
                );
            }
        }
    }
}
