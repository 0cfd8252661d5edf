//! The buffer view on seed cases 4 and 5: which buffer the series say held
//! the transfer, checked against the samples read independently, and what
//! the chart draws (as SVG).

use sim_core::sim::RunResult;

mod common;
use sim_core::trace::TraceEvent;
use tcp_widgets::kit::model::Model;
use tcp_widgets::kit::views::{self, View};
use tcp_widgets::palette::Palette;
use tcp_widgets::series::buffers::BufferSeries;

fn run(file: &str) -> RunResult {
    common::run_file(file)
}

/// Readings taken while the bulk of the data is still being sent (after the
/// first second, before the last 10 % of the bytes).
fn busy(b: &BufferSeries, end_ns: f64) -> Vec<&tcp_widgets::series::buffers::BufferPoint> {
    b.points
        .iter()
        .filter(|p| p.t_ns > 1e9 && p.t_ns < 0.9 * end_ns)
        .collect()
}

#[test]
fn case_4s_16_kb_sndbuf_is_the_limit_the_view_shows() {
    let r = run("seed-000-so-sndbuf-16k.toml");
    let b = BufferSeries::from_run(&r);
    assert!(!b.upload);
    // 100 Mbit/s × 20 ms = 250,000 B.
    assert_eq!(b.bdp_bytes.round(), 250_000.0);
    let busy = busy(&b, b.end_ns);
    assert!(busy.len() > 10, "{} busy readings", busy.len());
    for p in busy {
        // 16 KB (16,000 B) asked, doubled and locked: the buffer never grows ...
        assert_eq!(p.send.sndbuf, 32_000, "at {} ms", p.t_ns / 1e6);
        // ... and the window the client offers is far above it: the send
        // buffer, not the receiver, holds the transfer under the BDP.
        assert!(p.send.snd_wnd as f64 > 2.0 * p.send.sndbuf as f64);
        assert!((p.send.sndbuf as f64) < b.bdp_bytes / 4.0);
        assert_eq!(p.recv.unread, 0, "the client reads at once");
    }
}

#[test]
fn the_series_are_the_samples_of_the_datas_sender_and_receiver() {
    // Download: the server's TCP_INFO and the client's receive buffer.
    let r = run("seed-000-sndbuf-autotune.toml");
    let b = BufferSeries::from_run(&r);
    let samples: Vec<_> = r
        .trace
        .flow_summary(0)
        .filter_map(|x| match x.event {
            TraceEvent::Sample { info, client, .. } => Some((info, client)),
            _ => None,
        })
        .collect();
    assert_eq!(b.points.len(), samples.len());
    for (p, (info, client)) in b.points.iter().zip(&samples) {
        assert_eq!(
            (p.send.sndbuf, p.send.wmem_queued, p.send.snd_wnd),
            (info.sndbuf, info.wmem_queued, info.snd_wnd)
        );
        assert_eq!(p.recv, *client);
    }
    // Autotuning grows the buffer past the BDP.
    let grown = b.points.iter().map(|p| p.send.sndbuf).max().unwrap();
    assert!(grown as f64 > b.bdp_bytes, "sk_sndbuf reached {grown}");
}

#[test]
fn case_5s_upload_shows_the_servers_8_kb_receive_window() {
    let r = run("seed-001-so-rcvbuf-8k-40ms.toml");
    let b = BufferSeries::from_run(&r);
    assert!(b.upload, "376 KiB go client → server");
    let sending: Vec<_> = b
        .points
        .iter()
        .filter(|p| p.send.wmem_queued > 0 && p.t_ns > 0.2e9)
        .collect();
    assert!(sending.len() > 10);
    for p in &sending {
        // SO_RCVBUF 8 KB (doubled to 16 KB): the window the server offers
        // stays a few segments, while the client's buffer holds far more.
        assert!(p.send.snd_wnd <= 16_384, "window {}", p.send.snd_wnd);
        assert_eq!(p.recv.rcvbuf, 16_384, "the server's sk_rcvbuf");
        assert!(p.send.sndbuf > 4 * p.send.snd_wnd);
    }
}

#[test]
fn the_chart_draws_its_lines_and_the_bdp_with_a_legend() {
    let r = run("seed-000-so-sndbuf-16k.toml");
    let m = Model::from_run(&r);
    let pal = Palette::default();
    let svg = views::svg(View::Buffers, &m, m.end_ns / 2.0, &pal, 720, 240);
    for label in [
        "sk_sndbuf",
        "sk_wmem_queued",
        "peer&apos;s window",
        "receiver unread",
        "BDP (rate × RTT)",
        "bytes (KB)",
    ] {
        assert!(svg.contains(label), "{label}");
    }
    assert!(svg.matches("<polyline").count() >= 5, "lines drawn");
    let narrow = views::svg(View::Buffers, &m, m.end_ns / 2.0, &pal, 340, 240);
    assert!(narrow.contains("\nsndbuf\n") && !narrow.contains("sk_wmem_queued"));
    let table = View::Buffers.table(&m);
    assert_eq!(table.headers[1], "sk_sndbuf");
    assert!(table.caption.contains("250000 B"), "{}", table.caption);
}

/// A run that stands still on purpose (a reader that never reads, an
/// outage) is sampled over its whole length, not as densely as a busy one:
/// case 6's 1800 s runs took five million samples, more than a wasm32
/// vector holds.
#[test]
fn stalled_runs_take_a_bounded_number_of_samples() {
    let spec = widget_catalogue::WIDGETS
        .iter()
        .find(|w| w.name == "buffers")
        .unwrap();
    for preset in ["stops-reading", "gone-rst", "pauses"] {
        let s = tcp_widgets::kit::scenario::build(spec, spec.preset_values(preset).unwrap());
        let r = sim_core::sim::run(&s).unwrap();
        let taken = r
            .trace
            .records()
            .filter(|x| matches!(x.event, TraceEvent::Sample { .. }))
            .count();
        assert!(taken <= 40_000, "{preset}: {taken} samples taken");
    }
}
