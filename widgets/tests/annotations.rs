//! Notes on the charts, found in the trace and drawn in place: each one's
//! time is a record's, the drawn label is inside the plot, and the log
//! axis ticks at powers of two.

mod common;
use common::svg;
use sim_core::segment::Side;
use sim_core::sim::{RunResult, run};
use sim_core::trace::TraceEvent;
use tcp_widgets::draw::{tsg_chart, window_chart};
use tcp_widgets::palette::Palette;
use tcp_widgets::series::annotations::{Kind, MAX_NOTES};
use tcp_widgets::series::tsg::TsgSeries;
use tcp_widgets::series::window::WindowSeries;

fn run_file(name: &str) -> RunResult {
    let path = format!("{}/../scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (_, scenario) = sim_core::scenario_file::parse(&text).expect("scenario parses");
    run(&scenario).expect("scenario runs")
}

/// The `<text>` elements' (x, y, content).
fn texts(svg: &str) -> Vec<(f64, f64, String)> {
    let attr = |s: &str, a: &str| -> f64 {
        let at = s.find(&format!(" {a}=\"")).expect(a) + a.len() + 3;
        s[at..at + s[at..].find('"').unwrap()].parse().unwrap()
    };
    svg.split("<text")
        .skip(1)
        .map(|t| {
            let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            (attr(t, "x"), attr(t, "y"), body.trim().to_string())
        })
        .collect()
}

#[test]
fn slow_start_is_annotated_with_a_doubling_whose_times_are_records() {
    let r = run_file("seed-004-512k-7ms.toml");
    let w = WindowSeries::from_run(&r);
    assert!(w.notes.len() <= MAX_NOTES);
    let d = w
        .notes
        .iter()
        .find(|n| n.kind == Kind::Doubling)
        .expect("slow start doubles cwnd");
    let end = d.end_ns.expect("a doubling spans a round trip");
    // Both ends are the first segments of two slow-start flights.
    let firsts: Vec<f64> = {
        let mut seen = 0;
        r.trace
            .flow_records(0)
            .filter_map(|rec| match rec.event {
                TraceEvent::SegmentSent { seg, flight, .. }
                    if seg.from == Side::Server && seg.len > 0 && flight > seen =>
                {
                    seen = flight;
                    Some(rec.time.0 as f64)
                }
                _ => None,
            })
            .collect()
    };
    assert!(firsts.contains(&d.t_ns), "{d:?}");
    assert!(firsts.contains(&end), "{d:?}");
    // cwnd over that round: from c to 2c, as the window series has it.
    let before = |t: f64| w.at(t - 1.0).cwnd;
    assert_eq!(d.y, before(end) as f64);
    let ratio = before(end) as f64 / before(d.t_ns) as f64;
    assert!((1.75..=2.25).contains(&ratio), "{ratio}");
    assert!(
        d.label.contains(&format!("→ {}", before(end))),
        "{}",
        d.label
    );
    // A transfer this short never loses; its notes are in time order.
    assert!(
        !w.notes
            .iter()
            .any(|n| matches!(n.kind, Kind::FastRecovery | Kind::Rto))
    );
    assert!(w.notes.windows(2).all(|p| p[0].t_ns <= p[1].t_ns));
}

#[test]
fn a_lossy_long_fat_run_notes_its_first_loss_and_its_hystart_exit() {
    let r = run_file("seed-003-lfn-cubic.toml");
    let w = WindowSeries::from_run(&r);
    let first_retransmit = r
        .trace
        .flow_records(0)
        .find_map(|rec| match rec.event {
            TraceEvent::SegmentSent {
                seg,
                retransmit: true,
                ..
            } if seg.from == Side::Server => Some(rec.time.0 as f64),
            _ => None,
        })
        .expect("the run retransmits");
    let loss = w
        .notes
        .iter()
        .find(|n| n.kind == Kind::FastRecovery)
        .expect("a loss note");
    assert_eq!(loss.t_ns, first_retransmit);
    let hystart = r.trace.flow_records(0).find_map(|rec| match rec.event {
        TraceEvent::CwndChanged {
            side: Side::Server,
            old,
            new,
            ssthresh,
        } if old == new && ssthresh < sim_core::cc::TCP_INFINITE_SSTHRESH => {
            Some(rec.time.0 as f64)
        }
        _ => None,
    });
    let note = w.notes.iter().find(|n| n.kind == Kind::HyStartExit);
    assert_eq!(note.map(|n| n.t_ns), hystart);
    assert!(w.notes.len() <= MAX_NOTES);
}

#[test]
fn the_time_sequence_graph_brackets_the_first_round_trips() {
    let r = run_file("seed-004-512k-7ms.toml");
    let tsg = TsgSeries::from_run(&r);
    assert_eq!(tsg.notes.len(), 2);
    for n in &tsg.notes {
        let rtt = n.end_ns.unwrap() - n.t_ns;
        // About the path's 7 ms round trip.
        assert!((6.5e6..8.5e6).contains(&rtt), "{rtt}");
    }
}

#[test]
fn drawn_labels_are_inside_the_plot_area() {
    let r = run_file("seed-004-512k-7ms.toml");
    let w = WindowSeries::from_run(&r);
    let tsg = TsgSeries::from_run(&r);
    let pal = Palette::default();
    for width in [800, 420] {
        let mut plot = (0.0, 0.0, 0.0, 0.0);
        let out = svg(width, 260, |root| {
            let axis =
                window_chart::draw_scaled(root, &w, w.end_ns, w.end_ns, f64::NAN, &pal, 1.0, false)
                    .unwrap();
            // The plot's left and right edges, from what the drawing says.
            plot.0 = axis.from_px;
            plot.2 = axis.to_px;
        });
        let labels: Vec<_> = texts(&out)
            .into_iter()
            .filter(|t| w.notes.iter().any(|n| n.label == t.2.replace("&gt;", ">")))
            .collect();
        assert!(
            labels.iter().any(|t| t.2.contains("doubles")),
            "{width} px: {labels:?}"
        );
        for (x, y, text) in &labels {
            assert!(*x > plot.0 && *x < plot.2, "{width} px: {text} at {x}");
            assert!(*y > 10.0 && *y < 260.0 - 36.0, "{width} px: {text} at {y}");
        }
        let out = svg(width, 260, |root| {
            tsg_chart::draw(root, &tsg, tsg.end_ns, tsg.end_ns, f64::NAN, &pal, 1.0).unwrap()
        });
        assert!(texts(&out).iter().any(|t| t.2 == "1 RTT"), "{width} px");
    }
}

#[test]
fn the_log_axis_ticks_at_powers_of_two() {
    let r = run_file("seed-004-512k-7ms.toml");
    let w = WindowSeries::from_run(&r);
    let pal = Palette::default();
    let draw = |log| {
        svg(800, 260, |root| {
            window_chart::draw_scaled(root, &w, w.end_ns, w.end_ns, f64::NAN, &pal, 1.0, log)
                .unwrap()
        })
    };
    let log = draw(true);
    let labels: Vec<String> = texts(&log).into_iter().map(|t| t.2).collect();
    for tick in ["1", "2", "4", "8", "16", "32", "64", "128"] {
        assert!(labels.iter().any(|l| l == tick), "{tick}: {labels:?}");
    }
    assert!(log.contains("log scale"));
    // Up the axis in order: each power of two above the one before.
    let ys: Vec<f64> = ["1", "2", "4", "8"]
        .iter()
        .map(|l| texts(&log).into_iter().find(|t| t.2 == *l).unwrap().1)
        .collect();
    assert!(ys.windows(2).all(|p| p[1] < p[0]), "{ys:?}");
    let linear = draw(false);
    assert!(!linear.contains("log scale"));
}

#[test]
fn a_small_receive_buffer_is_noted_where_it_holds_the_sender_back() {
    let r = run_file("slow-start-small-buffer.toml");
    let w = WindowSeries::from_run(&r);
    let n = w
        .notes
        .iter()
        .find(|n| n.kind == Kind::ReceiveWindowLimited)
        .unwrap_or_else(|| panic!("{:?}", w.notes));
    // At that instant cwnd would allow more than is out.
    let p = w.at(n.t_ns);
    assert!(p.cwnd as f64 >= n.y + 2.0, "{n:?} {p:?}");
}

#[test]
fn an_idle_connection_is_noted_where_it_restarts_from_a_small_window() {
    let r = run_file("seed-004-idle-restart-on.toml");
    let w = WindowSeries::from_run(&r);
    let n = w
        .notes
        .iter()
        .find(|n| n.kind == Kind::IdleRestart)
        .unwrap_or_else(|| panic!("{:?}", w.notes));
    // After the 10 s gap, at a record where cwnd fell.
    assert!(n.t_ns > 10e9, "{n:?}");
    assert!(r.trace.flow_records(0).any(|rec| rec.time.0 as f64 == n.t_ns
        && matches!(rec.event, TraceEvent::CwndChanged { side: Side::Server, old, new, .. } if new < old)));
    let off = WindowSeries::from_run(&run_file("seed-004-idle-restart-off.toml"));
    assert!(
        !off.notes.iter().any(|n| n.kind == Kind::IdleRestart),
        "{:?}",
        off.notes
    );
}

#[test]
fn a_bbr_run_notes_where_it_leaves_startup() {
    let r = run_file("seed-003-lfn-bbr.toml");
    let w = WindowSeries::from_run(&r);
    let drain = r.trace.flow_records(0).find_map(|rec| match rec.event {
        TraceEvent::CcMode {
            side: Side::Server,
            mode: "drain",
        } => Some(rec.time.0 as f64),
        _ => None,
    });
    let note = w.notes.iter().find(|n| n.kind == Kind::StartupEnd);
    assert_eq!(note.map(|n| n.t_ns), drain, "{:?}", w.notes);
}
