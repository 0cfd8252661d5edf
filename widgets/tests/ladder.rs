//! The ladder diagram: its data read from real runs, and its drawing on
//! plotters' SVG backend (the same code the browser runs on a canvas).

use plotters::prelude::*;
use sim_core::config::{DelayedAck, Nagle, PathConfig, Scenario};
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::time::SimDuration;
use sim_core::trace::TraceEvent;
use tcp_widgets::draw::ladder::{self, LadderDrawn, MAX_ARROWS};
use tcp_widgets::palette::Palette;
use tcp_widgets::series::ladder::{CountdownKind, Ending, Ladder, TABLE_MAX_ROWS, Timer};

const MS: f64 = 1e6;

/// A scenario from the book's `scenarios/` folder.
fn scenario_file(name: &str) -> Scenario {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    sim_core::scenario_file::parse(&text)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .1
}

fn run(s: &Scenario) -> RunResult {
    sim_core::sim::run(s).expect("valid scenario")
}

fn ladder_of(name: &str) -> (RunResult, Ladder) {
    let r = run(&scenario_file(name));
    let l = Ladder::from_run(&r);
    (r, l)
}

/// Seed 004's path (1 Gbit/s, 7 ms RTT): the client writes an HTTP header
/// (300 B) and then its body (1000 B) under Linux's Nagle; the server is a
/// textbook delayed-ACK receiver with a 40 ms timer.
///
/// ```text
///   client                    server
///  7.0 │── seq 1:301 ────────┐    │
///      ┃ Nagle: 1000 B held  └──▶ │┃ 10.5 delayed ACK armed (40 ms)
///      ┃                          │┃
///      ┃                   ┌──────│┃ 50.5 the timer fires: ack 301
/// 54.0 │ ◀─────────────────┘      │
///      │── seq 301:1301 ─────┐    │   the body leaves 47 ms after the header
/// ```
fn header_then_body() -> Scenario {
    let mut s = Scenario {
        path: PathConfig::symmetric(1_000_000_000, SimDuration::from_millis(7)),
        ..Scenario::default()
    };
    s.app.request = vec![300, 1000];
    s.app.response = vec![1000];
    s.client.sender.nagle = Nagle::Minshall;
    s.server.receiver.delayed_ack = DelayedAck::Fixed(SimDuration::from_millis(40));
    s
}

fn draw_at(l: &Ladder, cursor_ns: f64) -> (LadderDrawn, String) {
    let mut svg = String::new();
    let drawn = {
        let root = SVGBackend::with_string(&mut svg, (640, 480)).into_drawing_area();
        ladder::draw(&root, l, cursor_ns, &Palette::default(), 1.0).unwrap()
    };
    (drawn, svg)
}

fn sent_records(r: &RunResult) -> Vec<(u64, sim_core::segment::Segment)> {
    r.trace
        .flow_records(0)
        .filter_map(|rec| match rec.event {
            TraceEvent::SegmentSent { seg, .. } => Some((rec.time.0, seg)),
            _ => None,
        })
        .collect()
}

#[test]
fn every_data_segment_and_ack_of_the_trace_is_on_the_ladder() {
    for name in [
        "seed-000-post-header-body.toml",
        "seed-004-512k-7ms.toml",
        "seed-001-receiver-stops-reading.toml",
    ] {
        let (r, l) = ladder_of(name);
        let sent = sent_records(&r);
        let data = sent.iter().filter(|(_, s)| s.len > 0).count();
        let acks = sent.iter().filter(|(_, s)| s.len == 0).count();
        assert_eq!(l.segments.len(), data + acks, "{name}");
        assert_eq!(
            l.segments.iter().filter(|s| s.is_data()).count(),
            data,
            "{name}"
        );
        // In the order sent, with the trace's times and sequence numbers.
        for ((t, seg), row) in sent.iter().zip(&l.segments) {
            assert_eq!(
                (*t, seg.from, seg.seq, seg.end_seq()),
                (row.sent_ns, row.from, row.seq, row.end)
            );
        }
        assert!(l.segments.windows(2).all(|w| w[0].sent_ns <= w[1].sent_ns));
        // The table has a row per segment, up to its cap.
        let table = l.table();
        assert_eq!(table.rows.len(), l.segments.len().min(TABLE_MAX_ROWS));
    }
}

#[test]
fn the_handshake_is_syn_then_syn_ack_then_ack() {
    let (_, l) = ladder_of("seed-004-512k-7ms.toml");
    let hs = &l.segments[..3];
    assert_eq!(
        hs.iter()
            .map(|s| (s.from, s.flags_text()))
            .collect::<Vec<_>>(),
        vec![
            (Side::Client, "SYN".to_string()),
            (Side::Server, "SYN ACK".to_string()),
            (Side::Client, "ACK".to_string()),
        ]
    );
    // The third segment acknowledges the server's SYN (sequence number 0).
    assert_eq!(hs[2].ack, Some(1));
    assert_eq!(
        (hs[0].label(), hs[1].label()),
        ("SYN".into(), "SYN-ACK".into())
    );
    // Each arrives one way (3.5 ms) later, and the next leaves on arrival.
    assert_eq!(hs[0].arrives_ns, Some(hs[1].sent_ns));
    assert_eq!(hs[1].arrives_ns, Some(hs[2].sent_ns));
    let table = l.table();
    assert_eq!(table.rows[0][1], "client → server");
    assert_eq!(table.rows[1][2], "SYN ACK");
    assert_eq!(table.rows[0][3], "0:1", "a SYN takes one sequence number");
}

/// The server's first delayed-ACK timer.
fn server_delayed_ack(l: &Ladder) -> Timer {
    *l.timers
        .iter()
        .find(|t| t.side == Side::Server && t.kind == CountdownKind::DelayedAck)
        .unwrap()
}

#[test]
fn a_delayed_ack_countdown_shows_the_exact_time_left_to_its_deadline() {
    let (_, l) = ladder_of("seed-000-post-header-body.toml");
    // The second POST's header reaches the server, now in ping-pong mode: it
    // arms its 40 ms timer, which fires (nothing else to send meanwhile).
    let timer = server_delayed_ack(&l);
    let deadline = timer.deadline_ns.unwrap();
    // Due 40 jiffies (HZ = 1000) after the jiffy the header arrived in
    // (tcp_send_delayed_ack: jiffies + ato), so a little under 40 ms.
    assert_eq!(deadline, (timer.start_ns / 1_000_000 + 40) * 1_000_000);
    assert_eq!(deadline - timer.start_ns, 39_475_744);
    assert_eq!(timer.ending, Ending::Fired);
    assert_eq!(timer.end_ns, deadline);
    // The timer's ACK leaves at the deadline.
    assert!(
        l.segments
            .iter()
            .any(|s| s.from == Side::Server && s.sent_ns == deadline && s.ack.is_some())
    );

    let cursor = timer.start_ns as f64 + 16_543_210.0;
    let running = l.timers_at(cursor);
    let c = running
        .iter()
        .find(|c| c.timer.kind == CountdownKind::DelayedAck)
        .unwrap();
    assert_eq!(c.timer, timer);
    assert_eq!(c.remaining_ns, deadline as f64 - cursor);
    assert_eq!(c.remaining_ns, 22_932_534.0);
    assert_eq!(c.text(), "server: delayed ACK 22.9 ms");
    // Not before it is armed, nor once it fired.
    assert!(
        l.timers_at(timer.start_ns as f64 - 1.0)
            .iter()
            .all(|c| c.timer != timer)
    );
    assert!(
        l.timers_at(deadline as f64)
            .iter()
            .all(|c| c.timer != timer)
    );

    let (drawn, svg) = draw_at(&l, cursor);
    assert!(
        svg.contains("delayed ACK") && svg.contains("22.9 ms"),
        "{svg}"
    );
    assert!(
        drawn.countdowns >= 2,
        "the server's timer and the client's hold"
    );
}

#[test]
fn a_timer_cancelled_by_a_piggybacked_ack_ends_when_it_is_armed() {
    let (_, l) = ladder_of("seed-000-post-header-body.toml");
    // The response to the second POST arrives; the client arms its timer and
    // at the same instant sends the third POST's header, whose ACK flag
    // acknowledges the response.
    let t = l
        .timers
        .iter()
        .find(|t| t.side == Side::Client && t.kind == CountdownKind::DelayedAck)
        .unwrap();
    assert_eq!(t.ending, Ending::Cancelled);
    assert_eq!(t.end_ns, t.start_ns);
    assert!(l.timers_at(t.start_ns as f64).iter().all(|c| c.timer != *t));
}

#[test]
fn nagle_holds_the_body_until_the_ack_reaches_the_client() {
    let r = run(&header_then_body());
    let l = Ladder::from_run(&r);
    let client_data: Vec<_> = l
        .segments
        .iter()
        .filter(|s| s.from == Side::Client && s.is_data())
        .collect();
    let (header, body) = (client_data[0], client_data[1]);
    assert_eq!((header.len, body.len), (300, 1000));
    let first_ack = l
        .segments
        .iter()
        .find(|s| s.from == Side::Server && s.ack.is_some_and(|a| a > 1))
        .unwrap();

    let holds: Vec<_> = l
        .timers
        .iter()
        .filter(|t| t.kind == CountdownKind::Nagle)
        .collect();
    assert_eq!(holds.len(), 1);
    let hold = holds[0];
    assert_eq!((hold.side, hold.bytes), (Side::Client, 1000));
    assert_eq!(hold.start_ns, header.sent_ns);
    // It lasts exactly until the server's ACK reaches the client, which sends
    // the body at that instant.
    assert_eq!(Some(hold.end_ns), first_ack.arrives_ns);
    assert_eq!(hold.end_ns, body.sent_ns);
    assert_eq!(hold.ending, Ending::Released);
    let held = (hold.end_ns - hold.start_ns) as f64;
    assert!((47.0 * MS..48.0 * MS).contains(&held), "{held}");

    // The server's timer is what the client waits for: armed when the
    // header arrives, fired 40 ms later with the ACK.
    let delack = l
        .timers
        .iter()
        .find(|t| t.kind == CountdownKind::DelayedAck && t.side == Side::Server)
        .unwrap();
    assert_eq!(Some(delack.start_ns), header.arrives_ns);
    assert_eq!(delack.end_ns, first_ack.sent_ns);
    assert_eq!(delack.ending, Ending::Fired);

    // Half way through, both countdowns run and are written out.
    let mid = hold.start_ns as f64 + held / 2.0;
    let texts: Vec<String> = l.timers_at(mid).iter().map(|c| c.text()).collect();
    assert_eq!(
        texts,
        vec![
            "client: Nagle: 1000 B held".to_string(),
            format!(
                "server: delayed ACK {:.1} ms",
                (delack.deadline_ns.unwrap() as f64 - mid) / MS
            ),
        ]
    );
    let (drawn, svg) = draw_at(&l, mid);
    assert_eq!(drawn.countdowns, 2);
    assert!(svg.contains("Nagle") && svg.contains("1000 B held"));
    // Once the body is on its way, no countdown runs.
    assert!(l.timers_at(body.sent_ns as f64 + 1.0).is_empty());
}

#[test]
fn timer_slots_stay_the_same_while_countdowns_come_and_go() {
    // Seed 000: the server's delayed-ACK timers come and go. One slot per
    // lane (host and kind) that ever counts down, filled only while it runs.
    let (_, l) = ladder_of("seed-000-post-header-body.toml");
    let timer = server_delayed_ack(&l);
    let before = l.timer_slots_at(timer.start_ns as f64 - 1.0);
    let during = l.timer_slots_at(timer.start_ns as f64 + 1.0);
    let after = l.timer_slots_at(timer.end_ns as f64 + 1.0);
    let mut lanes = Vec::new();
    for t in &l.timers {
        if !lanes.contains(&(t.side, t.kind)) {
            lanes.push((t.side, t.kind));
        }
    }
    assert_eq!(before.len(), lanes.len());
    assert_eq!(during.len(), before.len());
    assert_eq!(after.len(), before.len());
    assert!(during.iter().flatten().any(|c| c.timer == timer));
    assert!(before.iter().flatten().all(|c| c.timer != timer));
    // The running ones are exactly the countdowns at that instant.
    let t = timer.start_ns as f64 + 1.0;
    assert_eq!(
        during.into_iter().flatten().collect::<Vec<_>>(),
        l.timers_at(t)
    );
}

#[test]
fn the_ladder_grows_as_the_cursor_moves_on() {
    let r = run(&header_then_body());
    let l = Ladder::from_run(&r);
    assert!(l.segments.len() <= ladder::FULL_VIEW_SEGMENTS);
    let syn = l.segments[0];
    let syn_arrives = syn.arrives_ns.unwrap() as f64;
    // Before anything is sent: nothing. The SYN in flight: one arrow.
    assert_eq!(draw_at(&l, -1.0).0.arrows, 0);
    let (mid_syn, _) = draw_at(&l, syn_arrives / 2.0);
    assert_eq!((mid_syn.arrows, mid_syn.labels), (1, 1));
    // The whole exchange is on one fixed axis, whatever the cursor.
    let end = l.end_ns as f64;
    let (all, svg) = draw_at(&l, end);
    assert_eq!(all.window_ns, mid_syn.window_ns);
    assert!(all.window_ns.0 <= 0.0 && all.window_ns.1 >= end);
    assert_eq!(all.arrows, l.segments.len());
    assert!(svg.contains("SYN-ACK") && svg.contains("seq 1:301") && svg.contains("ack 301"));
    // Moving the cursor back removes arrows and labels, never adds them.
    let mut prev = all;
    for k in (0..20).rev() {
        let (d, _) = draw_at(&l, end * k as f64 / 20.0);
        assert!(d.arrows <= prev.arrows && d.labels <= prev.labels, "{k}");
        prev = d;
    }
    assert!(prev.arrows < all.arrows && prev.labels < all.labels);
}

#[test]
fn the_svg_names_the_hosts_and_the_time_axis() {
    let (_, l) = ladder_of("seed-000-post-header-body.toml");
    let (_, svg) = draw_at(&l, l.end_ns as f64);
    for text in ["client", "server", "time (ms)", "SYN"] {
        assert!(svg.contains(text), "{text}");
    }
    // Every font twice as large at scale 2 (HiDPI), on twice the pixels.
    let mut big = String::new();
    {
        let root = SVGBackend::with_string(&mut big, (1280, 960)).into_drawing_area();
        ladder::draw(&root, &l, l.end_ns as f64, &Palette::default(), 2.0).unwrap();
    }
    let sizes = |svg: &str| -> Vec<f64> {
        svg.split("font-size=\"")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap().parse().unwrap())
            .collect()
    };
    let (small, large) = (sizes(&svg), sizes(&big));
    assert!(!small.is_empty());
    assert_eq!(small.len(), large.len());
    for (a, b) in small.iter().zip(&large) {
        assert!((b / a - 2.0).abs() < 1e-9, "{a} -> {b}");
    }
}

#[test]
fn slow_start_shows_a_window_ending_at_the_cursor_with_bounded_arrows() {
    let (_, l) = ladder_of("seed-004-512k-7ms.toml");
    assert!(l.segments.len() > 300, "{} segments", l.segments.len());
    let end = l.end_ns as f64;
    for frac in [0.3, 0.5, 0.7, 0.9, 1.0] {
        let cursor = end * frac;
        let (d, _) = draw_at(&l, cursor);
        let (t0, t1) = d.window_ns;
        assert!(t0 < cursor && cursor < t1, "the cursor is in view");
        assert!(t1 - t0 < 0.5 * end, "a window, not the whole 60 ms");
        assert!(t1 - t0 >= 7.0 * MS, "at least one round trip");
        assert!(
            d.arrows > 0 && d.arrows <= MAX_ARROWS,
            "{} arrows",
            d.arrows
        );
    }
    // Early on, the window starts at the beginning of the exchange.
    let (early, _) = draw_at(&l, 2.0 * MS);
    assert!(early.window_ns.0 <= 0.0);
    assert_eq!(early.arrows, 1, "the SYN, still in flight");
}

#[test]
fn a_long_run_stays_bounded_and_cheap_per_frame() {
    // Twenty 100000-byte responses: thousands of segments, 200 ms stalls.
    let (_, l) = ladder_of("seed-000-100000-classic.toml");
    assert!(l.segments.len() > TABLE_MAX_ROWS, "{}", l.segments.len());
    let table = l.table();
    assert_eq!(table.rows.len(), TABLE_MAX_ROWS);
    assert!(table.caption.contains("first 2000"), "{}", table.caption);
    let end = l.end_ns as f64;
    for k in 1..=40 {
        let (d, _) = draw_at(&l, end * k as f64 / 40.0);
        assert!(d.arrows <= MAX_ARROWS);
        assert!(d.window_ns.1 - d.window_ns.0 < end / 4.0);
    }
}

#[test]
fn classic_nagle_waits_for_the_200_ms_delayed_ack() {
    let (_, l) = ladder_of("seed-000-100000-classic.toml");
    // The server holds each response's 88-byte tail (100000 = 69 x 1448 +
    // 88) until the client's 200 ms timer fires and its ACK arrives.
    let tails: Vec<_> = l
        .timers
        .iter()
        .filter(|t| t.side == Side::Server && t.kind == CountdownKind::Nagle)
        .collect();
    assert_eq!(tails.len(), 20, "one hold per response");
    assert!(
        tails
            .iter()
            .all(|t| t.bytes == 88 && t.ending == Ending::Released)
    );
    let fired: Vec<_> = l
        .timers
        .iter()
        .filter(|t| t.side == Side::Client && t.ending == Ending::Fired)
        .collect();
    assert!(fired.len() >= 20);
    assert!(fired.iter().all(|t| t.end_ns - t.start_ns == 200_000_000));
    // Inside the first hold, the server's countdown and the client's timer run.
    let hold = tails[0];
    let cursor = hold.start_ns as f64 + 100.0 * MS;
    let kinds: Vec<_> = l
        .timers_at(cursor)
        .iter()
        .map(|c| (c.timer.side, c.timer.kind))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (Side::Client, CountdownKind::DelayedAck),
            (Side::Server, CountdownKind::Nagle)
        ]
    );
    let (d, svg) = draw_at(&l, cursor);
    assert!(d.countdowns >= 2);
    assert!(svg.contains("88 B held"));
}

#[test]
fn a_zero_window_is_written_on_the_ack_and_probes_are_marked() {
    let (_, l) = ladder_of("seed-001-receiver-stops-reading.toml");
    let zero: Vec<_> = l
        .segments
        .iter()
        .filter(|s| s.from == Side::Client && s.wnd == 0)
        .collect();
    assert!(!zero.is_empty());
    assert!(zero.iter().all(|s| s.label().contains("win 0")));
    let probes = l.segments.iter().filter(|s| s.probe).count();
    assert!(probes >= 10, "{probes} probes");
    assert!(
        l.segments
            .iter()
            .filter(|s| s.probe)
            .all(|s| s.from == Side::Server && s.label().starts_with("probe seq "))
    );
    let table = l.table();
    assert_eq!(
        table
            .rows
            .iter()
            .filter(|r| r[7].contains("zero-window probe"))
            .count(),
        probes
    );
    // At the last probe's answer, the label is in the picture.
    let answer = zero.last().unwrap();
    let (d, svg) = draw_at(&l, answer.arrives_ns.unwrap() as f64);
    assert!(d.arrows > 0);
    assert!(svg.contains("win 0"));
    assert!(
        svg.contains("time (s)"),
        "a 30-minute run is labelled in seconds"
    );
}

#[test]
fn drops_end_in_a_cross_and_retransmissions_are_marked() {
    let mut s = Scenario {
        path: PathConfig::symmetric(10_000_000, SimDuration::from_millis(20)),
        ..Scenario::default()
    };
    s.path.loss = 0.05;
    s.seed = 3;
    s.app.response = vec![40_000];
    let l = Ladder::from_run(&run(&s));
    let dropped: Vec<_> = l.segments.iter().filter(|s| s.dropped()).collect();
    assert!(!dropped.is_empty(), "the lossy path drops something");
    assert!(l.segments.iter().any(|s| s.retransmit));
    let table = l.table();
    assert!(table.rows.iter().any(|r| r[6] == "dropped"));
    assert!(table.rows.iter().any(|r| r[7] == "retransmission"));
    // Just after the first drop's ✕ point, it is drawn.
    let first = dropped[0];
    let x_at = first.sent_ns as f64 + l.one_way_ns[first.from as usize] as f64 / 2.0;
    let (before, _) = draw_at(&l, x_at - 1.0);
    let (after, svg) = draw_at(&l, x_at);
    assert_eq!(after.drops, before.drops + 1);
    let retx_at = l.segments.iter().find(|s| s.retransmit).unwrap().sent_ns as f64;
    let (_, svg_retx) = draw_at(&l, retx_at);
    assert!(svg_retx.contains("retx"));
    assert!(svg.contains("<svg"));
}

/// The x of the SVG text `content` (its anchor).
fn text_x(svg: &str, content: &str) -> f64 {
    let open = svg
        .split("<text")
        .find_map(|t| {
            let (open, rest) = t.split_once('>')?;
            (rest.split("</text>").next()?.trim() == content).then_some(open)
        })
        .unwrap_or_else(|| panic!("no text {content}"));
    let i = open.find(" x=\"").unwrap() + 4;
    open[i..].split('"').next().unwrap().parse().unwrap()
}

#[test]
fn the_ladder_and_the_path_view_both_put_the_data_sender_on_the_left() {
    let s = scenario_file("seed-004-512k-7ms.toml");
    let r = run(&s);
    let l = Ladder::from_run(&r);
    let (_, ladder_svg) = draw_at(&l, l.end_ns as f64 / 2.0);
    let path = tcp_widgets::series::path::PathSeries::from_run(&r);
    let mut path_svg = String::new();
    {
        let root = SVGBackend::with_string(&mut path_svg, (640, 170)).into_drawing_area();
        tcp_widgets::draw::path_view::draw(&root, &path, 1e6, &Palette::default(), 1.0).unwrap();
    }
    for svg in [&ladder_svg, &path_svg] {
        assert!(text_x(svg, "server") < text_x(svg, "client"));
    }
    // The data segments run left to right on the ladder: from the server's
    // line to the client's.
    let first = l
        .segments
        .iter()
        .find(|t| t.len > 0 && t.from == Side::Server)
        .unwrap();
    assert!(first.to() == Side::Client);
}
