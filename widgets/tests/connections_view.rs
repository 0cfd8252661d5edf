//! The connection rows on seed case 11: each row is one connection, read
//! independently from the trace, opened with the ssthresh the cache gave it,
//! and the chart draws a row, a bar and a label per connection.

use sim_core::segment::Side;
use sim_core::sim::RunResult;

mod common;
use sim_core::trace::TraceEvent;
use tcp_widgets::kit::model::Model;
use tcp_widgets::kit::views::{self, View};
use tcp_widgets::palette::Palette;
use tcp_widgets::series::connections::ConnectionsSeries;

fn run(file: &str) -> RunResult {
    common::run_file(file)
}

#[test]
fn each_connection_is_a_row_from_its_open_to_its_last_byte() {
    let r = run("seed-000-tcp-metrics-lossy-first-saved.toml");
    let c = ConnectionsSeries::from_run(&r);
    let opens: Vec<f64> = r
        .trace
        .records()
        .filter(|x| matches!(x.event, TraceEvent::Established { side: Side::Server }))
        .map(|x| x.time.0 as f64)
        .collect();
    let ends: Vec<f64> = r
        .trace
        .records()
        .filter(|x| matches!(x.event, TraceEvent::TransferComplete { .. }))
        .map(|x| x.time.0 as f64)
        .collect();
    assert_eq!(opens.len(), 4, "four connections");
    assert_eq!(c.rows.len(), 4);
    for (k, row) in c.rows.iter().enumerate() {
        assert_eq!(row.opened_ns, opens[k]);
        assert_eq!(row.finished_ns, Some(ends[k]));
        assert_eq!(row.points[0].dt_ns, 0.0);
        assert_eq!(row.points[0].cwnd, 10, "initcwnd at every open");
        assert!(row.points.windows(2).all(|w| w[0].dt_ns <= w[1].dt_ns));
    }
    // The lossy first connection opens with no ssthresh; the later ones
    // open with the one it left in the cache (ssthresh saving on).
    assert_eq!(c.rows[0].initial_ssthresh(), None);
    let cached = c.rows[1].initial_ssthresh().expect("cached");
    let first_close = c.rows[0].points.last().unwrap().ssthresh.unwrap();
    assert!(cached <= first_close.max(cached), "{cached}");
    assert!(cached < 100, "a small ssthresh: {cached}");
    // ... and take longer than the lossless-from-scratch figure would.
    assert!(c.longest_ns >= c.rows[1].duration_ns().unwrap());
}

#[test]
fn today_the_later_connections_open_without_a_cached_ssthresh() {
    let r = run("seed-000-tcp-metrics-lossy-first-today.toml");
    let c = ConnectionsSeries::from_run(&r);
    assert!(c.rows.len() >= 2);
    for row in &c.rows[1..] {
        assert_eq!(row.initial_ssthresh(), None);
    }
}

#[test]
fn the_chart_draws_a_row_a_bar_and_a_label_per_connection() {
    let r = run("seed-000-tcp-metrics-lossy-first-saved.toml");
    let m = Model::from_run(&r);
    let svg = views::svg(
        View::Connections,
        &m,
        m.end_ns,
        &Palette::default(),
        720,
        240,
    );
    for k in 1..=4 {
        assert!(svg.contains(&format!("\n#{k} · ")), "row {k}");
    }
    assert!(svg.contains("opened with ssthresh"));
    assert!(svg.contains("time to last byte"));
    // Before the second connection opens, only the first row is coloured.
    let early = views::svg(
        View::Connections,
        &m,
        m.connections.rows[1].opened_ns - 1.0,
        &Palette::default(),
        720,
        240,
    );
    assert!(
        early.contains("\n#1 · ") && early.contains("\n#2\n"),
        "nothing yet for #2"
    );
    let table = View::Connections.table(&m);
    assert_eq!(table.rows.len(), 4);
}

/// Compare mode draws both sides' rows on one time axis, the longer
/// side's: a row on one side reads against the same row on the other.
#[test]
fn compared_runs_share_the_rows_time_axis() {
    use plotters::prelude::IntoDrawingArea;
    use tcp_widgets::draw::backend::{Backend, SvgWriter};
    let saved = Model::from_run(&run("seed-000-tcp-metrics-lossy-first-saved.toml"));
    let today = Model::from_run(&run("seed-000-tcp-metrics-lossy-first-today.toml"));
    let (a, b) = (
        views::y_top(View::Connections, &saved),
        views::y_top(View::Connections, &today),
    );
    // The saving side's second connection crawls past the first's 3 s.
    assert!(a > 1.2 * b, "{a} vs {b}");
    let svg = |top: f64| {
        let mut out = String::new();
        {
            let area = Backend::Svg(SvgWriter::new(&mut out, (720, 240))).into_drawing_area();
            let axes = views::Axes {
                end_ns: today.end_ns,
                y_top: top,
            };
            let look = views::Look::default();
            let pal = Palette::default();
            views::draw_with(
                &area,
                View::Connections,
                &today,
                None,
                0.0,
                axes,
                look,
                &pal,
                1.0,
            )
            .unwrap();
        }
        out
    };
    // Alone, today's rows end near 3 s; on the shared axis they reach 4 s.
    assert!(!svg(f64::NAN).contains("\n4000\n"));
    assert!(svg(a.max(b)).contains("\n4000\n"));
}
