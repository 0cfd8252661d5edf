//! The path view on the seeds' real cases: what `PathSeries::at` counts,
//! checked against the trace read independently, and what the drawing shows
//! (as SVG), including the dense case that must aggregate.

use plotters::prelude::*;
use sim_core::config::Scenario;
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::time::SimDuration;
use sim_core::trace::TraceEvent;
use tcp_widgets::draw::path_view::{self, OnPath};
use tcp_widgets::palette::{Palette, series};
use tcp_widgets::series::path::{LinkAt, PathSeries, TABLE_ROWS};
use tcp_widgets::units::bytes_alike;

fn scenario(file: &str) -> Scenario {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scenarios")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    sim_core::scenario_file::parse(&text).unwrap().1
}

fn run(s: &Scenario) -> RunResult {
    sim_core::sim::run(s).unwrap()
}

fn draw(path: &PathSeries, t_ns: f64, size: (u32, u32), scale: f64) -> (OnPath, String) {
    let mut svg = String::new();
    let on = {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        path_view::draw(&root, path, t_ns, &Palette::default(), scale).unwrap()
    };
    (on, svg)
}

/// Shapes and texts in an SVG: what a canvas would have to draw.
fn primitives(svg: &str) -> usize {
    [
        "<rect",
        "<circle",
        "<polyline",
        "<polygon",
        "<line",
        "<path",
        "<text",
    ]
    .iter()
    .map(|tag| svg.matches(tag).count())
    .sum()
}

fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// Filled, opaque rectangles of colour `c`: segments drawn one by one.
fn solid_rects(svg: &str, c: RGBColor) -> usize {
    let fill = format!("opacity=\"1\" fill=\"{}\"", hex(c));
    svg.lines()
        .filter(|l| l.starts_with("<rect") && l.contains(&fill))
        .count()
}

/// What is on one direction of the path at `t`, read straight from the
/// trace's `SegmentSent` and `SegmentDropped` records, one by one.
fn brute_force(run: &RunResult, from: Side, t: u64) -> LinkAt {
    let mut at = LinkAt::default();
    for r in run.trace.flow_records(0) {
        match r.event {
            TraceEvent::SegmentSent {
                seg,
                flight,
                departs: Some(departs),
                arrives: Some(arrives),
                ..
            } if seg.from == from => {
                if r.time.0 <= t && t < departs.0 {
                    at.queued += 1;
                    at.queued_bytes += seg.wire_bytes() as u64;
                } else if departs.0 <= t && t < arrives.0 {
                    if seg.len > 0 {
                        at.data += 1;
                        let (lo, hi) = at.flights.unwrap_or((flight, flight));
                        at.flights = Some((lo.min(flight), hi.max(flight)));
                    } else {
                        at.acks += 1;
                    }
                }
            }
            TraceEvent::SegmentDropped { seg } if seg.from == from && r.time.0 <= t => {
                at.dropped += 1;
            }
            _ => {}
        }
    }
    // Flights are named only while countable (`MAX_FLIGHT_SCAN`).
    if at.data > 2_000 {
        at.flights = None;
    }
    at
}

/// The last `Sample` at or before `t`, read from the trace.
fn sample_at(run: &RunResult, t: u64) -> Option<(u64, u64, u64, u64, u64)> {
    run.trace
        .flow_records(0)
        .filter(|r| r.time.0 <= t)
        .filter_map(|r| match r.event {
            TraceEvent::Sample { info, client, .. } => Some((
                info.sndbuf,
                info.wmem_queued,
                info.notsent_bytes,
                client.rcvbuf,
                client.unread,
            )),
            _ => None,
        })
        .last()
}

fn first_data_sent(path: &PathSeries) -> u64 {
    path.downlink
        .packets()
        .iter()
        .find(|p| p.is_data())
        .expect("the server sent data")
        .sent
}

#[test]
fn the_first_flight_of_ten_is_on_the_path_half_a_millisecond_after_it_left() {
    let run = run(&scenario("seed-004-512k-7ms.toml"));
    let path = PathSeries::from_run(&run);
    let t = first_data_sent(&path) as f64 + 0.5e6;
    let (on, svg) = draw(&path, t, (640, 170), 1.0);
    assert_eq!(on.downlink.data, 10);
    assert_eq!((on.downlink.queued, on.uplink.acks), (0, 0));
    // Drawn one by one, in the first flight's colour, and counted in words.
    assert_eq!(solid_rects(&svg, series(0)), 10);
    assert!(svg.contains("flight 1 · 10 segments in flight →"), "{svg}");
}

/// Each ACK is drawn in the colour of the flight it acknowledges, so a
/// reader sees which flight's ACKs are coming back: the ACK number matched
/// against the server's data, read independently from the trace.
#[test]
fn acks_take_the_colour_of_the_flight_they_acknowledge() {
    let run = run(&scenario("seed-004-512k-7ms.toml"));
    let path = PathSeries::from_run(&run);
    // Every data end the server sent and its flight.
    let mut ends: Vec<(u64, u32)> = Vec::new();
    let mut acks: Vec<(u64, u64)> = Vec::new();
    for r in run.trace.flow_records(0) {
        if let TraceEvent::SegmentSent {
            seg,
            flight,
            arrives: Some(_),
            ..
        } = r.event
        {
            if seg.from == Side::Server && seg.len > 0 {
                ends.push((seg.seq + seg.len as u64, flight));
            } else if seg.from == Side::Client && seg.len == 0 && seg.flags.ack {
                acks.push((r.time.0, seg.ack));
            }
        }
    }
    let uplink: Vec<_> = path
        .uplink
        .packets()
        .iter()
        .filter(|p| !p.is_data() && !p.syn)
        .collect();
    assert_eq!(uplink.len(), acks.len());
    let mut flights = std::collections::BTreeSet::new();
    for (p, &(sent, ack)) in uplink.iter().zip(&acks) {
        assert_eq!(p.sent, sent);
        let want = ends
            .iter()
            .filter(|&&(end, _)| end <= ack)
            .map(|&(_, f)| f)
            .max()
            .unwrap_or(0);
        assert_eq!(p.flight, want, "ACK {ack} sent at {sent} ns");
        flights.insert(p.flight);
    }
    assert!(flights.len() >= 6, "ACKs of every flight: {flights:?}");
    // Drawn in that colour: half a round trip into the second flight's ACKs.
    let t = uplink.iter().find(|p| p.flight == 2).unwrap().departs as f64 + 1e6;
    let (on, svg) = draw(&path, t, (640, 170), 1.0);
    assert!(on.uplink.acks > 0);
    assert!(svg.contains(&hex(series(1))), "{svg}");
}

#[test]
fn a_burst_waits_in_the_queue_behind_the_segment_being_serialised() {
    // The first flight is offered at once; at 1 Gbit/s each segment takes
    // 12 us to serialise, so 1 ns later one is on the wire and nine wait.
    let run = run(&scenario("seed-004-512k-7ms.toml"));
    let path = PathSeries::from_run(&run);
    let t = first_data_sent(&path) + 1;
    let (on, svg) = draw(&path, t as f64, (640, 170), 1.0);
    assert_eq!((on.downlink.data, on.downlink.queued), (1, 9));
    assert_eq!(on.downlink, brute_force(&run, Side::Server, t));
    assert!(svg.contains("9 queued"));
    // Nine blocks in the queue box and one on the wire.
    assert_eq!(solid_rects(&svg, series(0)), 10);
    // The instant they are offered counts too (`sent ≤ t < departs`).
    let on = path.at((t - 1) as f64);
    assert_eq!((on.downlink.data, on.downlink.queued), (1, 9));
    assert_eq!(on.downlink, brute_force(&run, Side::Server, t - 1));
}

#[test]
fn counts_match_the_trace_at_every_probed_instant_of_a_lossy_queued_run() {
    // Seed 003's CUBIC flow: a 2-BDP queue that fills, and random loss.
    let run = run(&scenario("seed-003-lfn-cubic.toml"));
    let path = PathSeries::from_run(&run);
    assert!(!path.downlink.drops().is_empty(), "the case must drop");
    let end = run.outcome.at().0;
    let mut instants: Vec<u64> = (1..40).map(|i| end / 40 * i).collect();
    // Around the drops, where the queue is fullest.
    for d in path.downlink.drops().iter().take(3) {
        instants.extend([d.at - 1, d.at, d.at + 1, d.at + 5_000_000]);
    }
    let mut saw_queue = false;
    for t in instants {
        let on = path.at(t as f64);
        assert_eq!(on.downlink, brute_force(&run, Side::Server, t), "at {t} ns");
        assert_eq!(on.uplink, brute_force(&run, Side::Client, t), "at {t} ns");
        saw_queue |= on.downlink.queued > 0;
    }
    assert!(saw_queue, "some probe must find packets queued");
}

#[test]
fn a_16k_sndbuf_is_doubled_to_32k_and_stays_full() {
    let mut s = scenario("seed-000-so-sndbuf-16k.toml");
    // Fine samples (the widget takes RTT/20); a few seconds show the steady state.
    s.sample_interval = SimDuration::from_millis(1);
    s.time_limit = SimDuration::from_secs(3);
    let run = run(&s);
    let path = PathSeries::from_run(&run);
    // Between two samples: the bar holds the earlier one.
    let t = 2_000_500_000;
    let (on, svg) = draw(&path, t as f64, (640, 170), 1.0);
    let b = on.buffers.expect("sampled by now");
    assert_eq!(b.at_ns, 2_000_000_000);
    assert_eq!(
        Some((b.sndbuf, b.wmem_queued, b.notsent, b.rcvbuf, b.unread)),
        sample_at(&run, t)
    );
    assert_eq!(b.sndbuf, 32_000, "Linux doubles SO_SNDBUF");
    assert!(b.wmem_queued >= b.sndbuf, "the application keeps it full");
    // One unit and one precision for both ("32.0 / 31.2 KiB", not "32 KiB
    // / 31.2 KiB"), and why the buffer holds more than its size.
    let ([used, size], unit) = bytes_alike([b.wmem_queued, b.sndbuf]);
    let label = format!("send buffer {used} / {size} {unit}");
    assert_eq!(label, "send buffer 32.0 / 31.2 KiB");
    assert!(svg.contains(&label), "{label} in {svg}");
}

#[test]
fn a_receiver_that_stops_reading_fills_its_buffer_and_closes_the_window() {
    let mut s = scenario("seed-001-receiver-stops-reading.toml");
    s.sample_interval = SimDuration::from_millis(1);
    s.time_limit = SimDuration::from_secs(2);
    let run = run(&s);
    let path = PathSeries::from_run(&run);
    let t = 1_500_000_000;
    let (on, svg) = draw(&path, t as f64, (640, 170), 1.0);
    let b = on.buffers.unwrap();
    assert_eq!(
        Some((b.sndbuf, b.wmem_queued, b.notsent, b.rcvbuf, b.unread)),
        sample_at(&run, t)
    );
    assert!(b.unread > 0 && b.window == 0, "{b:?}");
    assert_eq!(on.downlink.data, 0, "nothing flies into a zero window");
    let ([unread, size], unit) = bytes_alike([b.unread, b.rcvbuf]);
    let label = format!("receive buffer {unread} / {size} {unit}, window 0 {unit}");
    assert!(svg.contains(&label), "{label} in {svg}");
    // Before the first sample there is nothing to show, and it says so.
    let (on, svg) = draw(&path, 0.0, (640, 170), 1.0);
    assert!(on.buffers.is_none());
    assert!(svg.contains("send buffer: no sample yet"));
}

#[test]
fn thousands_in_flight_are_drawn_as_a_band_with_a_bounded_number_of_shapes() {
    // Benchmark (c): 30 s of CUBIC at 1 Gbit/s over 210 ms.
    let run = run(&sim_core::benchmarks::by_name("c").unwrap());
    let path = PathSeries::from_run(&run);
    let (t, busiest) = path
        .buffers
        .iter()
        .map(|b| (b.at_ns as f64, path.at(b.at_ns as f64)))
        .max_by_key(|(_, on)| on.downlink.data)
        .unwrap();
    assert!(busiest.downlink.data > 5_000, "{busiest:?}");
    assert!(busiest.recorded);
    for (size, scale) in [((1200, 300), 1.0), ((2400, 600), 2.0), ((360, 200), 1.0)] {
        let (on, svg) = draw(&path, t, size, scale);
        assert_eq!(on, busiest);
        // Far fewer shapes than segments: they cannot be drawn one by one.
        let n = primitives(&svg);
        assert!(n < 2_000, "{n} shapes at {size:?}");
        assert!(n < busiest.downlink.data / 3, "{n} shapes at {size:?}");
    }
    let (_, svg) = draw(&path, t, (1200, 300), 1.0);
    let count = busiest.downlink.data.to_string();
    let grouped = format!(
        "{},{}",
        &count[..count.len() - 3],
        &count[count.len() - 3..]
    );
    assert!(svg.contains(&format!("data → {grouped} segments in flight")));
    // A quiet moment of the same run still draws segments one by one.
    let first = first_data_sent(&path) as f64 + 1e6;
    let (on, svg) = draw(&path, first, (1200, 300), 1.0);
    assert_eq!(on.downlink.data, 10);
    assert_eq!(solid_rects(&svg, series(0)), 10);
}

#[test]
fn a_drop_is_marked_at_the_queue_for_a_moment_and_counted() {
    let run = run(&sim_core::benchmarks::by_name("c").unwrap());
    let path = PathSeries::from_run(&run);
    let vermillion = format!("stroke=\"{}\"", hex(tcp_widgets::palette::SERIES[5]));
    let strokes = |svg: &str| {
        svg.lines()
            .filter(|l| l.starts_with("<polyline") && l.contains(&vermillion))
            .count()
    };
    // A ✕ (two strokes) for each direction that dropped within the last
    // half of the longest transit: ACKs are lost at random too.
    let shown = path.max_transit_ns as f64 / 2.0;
    let acks_marked = |t: f64| !path.uplink.drops_between(t - shown, t).is_empty() as usize;
    let drop = path.downlink.drops()[0].at;

    let t = drop + 1_000_000;
    let (on, svg) = draw(&path, t as f64, (640, 170), 1.0);
    assert_eq!(on.downlink.dropped, 1);
    assert_eq!(on.downlink, brute_force(&run, Side::Server, t));
    assert!(svg.contains("✕ 1 dropped"), "{svg}");
    assert_eq!(strokes(&svg), 2 * (1 + acks_marked(t as f64)));

    let t = drop as f64 - 1e6;
    let (on, svg) = draw(&path, t, (640, 170), 1.0);
    assert_eq!(on.downlink.dropped, 0);
    assert_eq!(strokes(&svg), 2 * acks_marked(t));

    // Long after, the count stays but the mark is gone.
    let t = drop as f64 + shown + 1.0;
    let (on, svg) = draw(&path, t, (640, 170), 1.0);
    let data_marked = !path.downlink.drops_between(t - shown, t).is_empty() as usize;
    assert_eq!(data_marked, 0, "the next drop is later");
    assert!(on.downlink.dropped >= 1);
    assert_eq!(strokes(&svg), 2 * acks_marked(t));
}

#[test]
fn a_phone_width_view_keeps_the_counts_and_drops_secondary_labels() {
    let run = run(&scenario("seed-004-512k-7ms.toml"));
    let path = PathSeries::from_run(&run);
    let t = first_data_sent(&path) as f64 + 0.5e6;
    // 360 CSS px, at a device-pixel ratio of 1 and of 2.
    for (size, scale) in [((360, 200), 1.0), ((720, 400), 2.0)] {
        let (_, svg) = draw(&path, t, size, scale);
        assert!(svg.contains("10 in flight →"), "{svg}");
        assert!(svg.contains("send buf: no sample yet"));
        assert!(!svg.contains("sender") && !svg.contains("segments in flight"));
    }
    let (_, narrow) = draw(&path, t, (958, 200), 2.0);
    assert!(narrow.contains("10 in flight →"), "479 CSS px is narrow");
    let (_, wide) = draw(&path, t, (960, 200), 2.0);
    assert!(wide.contains("sender") && wide.contains("flight 1 · 10 segments in flight →"));
}

#[test]
fn scale_enlarges_the_text() {
    let run = run(&scenario("seed-004-512k-7ms.toml"));
    let path = PathSeries::from_run(&run);
    let size_of = |svg: &str| -> f64 {
        let i = svg.find("font-size=\"").unwrap() + 11;
        svg[i..].split('"').next().unwrap().parse().unwrap()
    };
    let (_, one) = draw(&path, 1e6, (800, 200), 1.0);
    let (_, two) = draw(&path, 1e6, (1600, 400), 2.0);
    assert!((size_of(&two) / size_of(&one) - 2.0).abs() < 1e-6);
}

#[test]
fn the_table_lists_buffer_levels_and_stays_within_its_row_cap() {
    let mut s = scenario("seed-000-so-sndbuf-16k.toml");
    s.sample_interval = SimDuration::from_millis(1);
    let run = run(&s);
    let path = PathSeries::from_run(&run);
    let n = path.buffers.len();
    assert!(n > TABLE_ROWS, "{n} samples");
    let table = path.table();
    assert!(table.rows.len() <= TABLE_ROWS);
    let step = n.div_ceil(TABLE_ROWS);
    assert_eq!(table.rows.len(), n.div_ceil(step));
    assert!(
        table
            .caption
            .contains(&format!("one sample in {step} of {n}")),
        "{}",
        table.caption
    );
    assert!(table.rows.iter().all(|r| r.len() == table.headers.len()));
    let first = &path.buffers[0];
    assert_eq!(table.rows[0][0], format!("{:.3}", first.at_ns as f64 / 1e6));
    assert_eq!(table.rows[0][1], "32000");
    // A short run keeps every sample and says nothing of thinning.
    let short = PathSeries::from_run(&self::run(&scenario("seed-004-512k-7ms.toml"))).table();
    assert!(!short.caption.contains("one sample in"));
}

#[test]
fn past_the_trace_budget_the_view_says_its_packets_are_being_replayed() {
    let mut s = scenario("seed-004-512k-7ms.toml");
    s.trace_packet_budget = 200;
    let run = run(&s);
    assert!(run.trace.skipped() > 0);
    let path = PathSeries::from_run(&run);
    let end = path.packets_until_ns.expect("the budget ran out");
    let (on, svg) = draw(&path, end as f64 + 1.0, (640, 170), 1.0);
    assert!(!on.recorded);
    assert!(svg.contains("replaying the packets at"), "{svg}");
    // No count that would read as an empty path.
    assert!(
        !svg.contains("queued") && !svg.contains("in flight"),
        "{svg}"
    );
    let (on, svg) = draw(&path, end as f64, (640, 170), 1.0);
    assert!(on.recorded && !svg.contains("replaying"));
}

/// Every text of an SVG: (x, font size in px as drawn on a canvas, anchored
/// at its start, content). Plotters' SVG writes font sizes divided by 1.24
/// (points); a canvas draws them in px.
fn texts(svg: &str) -> Vec<(f64, f64, bool, String)> {
    let attr = |l: &str, name: &str| -> Option<String> {
        let i = l.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(l[i..].split('"').next()?.to_string())
    };
    svg.split("<text")
        .skip(1)
        .map(|t| {
            let (open, rest) = t.split_once('>').unwrap();
            let content = rest.split("</text>").next().unwrap().trim().to_string();
            (
                attr(open, "x").unwrap().parse().unwrap(),
                attr(open, "font-size").unwrap().parse::<f64>().unwrap() * 1.24,
                attr(open, "text-anchor").is_none_or(|a| a == "start"),
                content,
            )
        })
        .collect()
}

/// Whether the SVG has a text reading exactly `content`.
fn has_text(svg: &str, content: &str) -> bool {
    texts(svg).iter().any(|t| t.3 == content)
}

/// The instant `after_ns` after the first packet of `from` carrying `what`
/// started serialising.
fn after_first(
    path: &PathSeries,
    from: Side,
    what: impl Fn(&tcp_widgets::series::path::Packet) -> bool,
    after_ns: f64,
) -> f64 {
    let dir = match from {
        Side::Server => &path.downlink,
        Side::Client => &path.uplink,
    };
    dir.packets()
        .iter()
        .find(|p| what(p))
        .expect("sent")
        .departs as f64
        + after_ns
}

#[test]
fn the_handshake_is_named_segment_by_segment_not_counted_as_acks() {
    // Seed 004 (7 ms RTT): the SYN leaves at 0, the SYN-ACK at 3.5 ms, the
    // request (with the handshake's last ACK) at 7 ms.
    let run = run(&scenario("seed-004-512k-7ms.toml"));
    let path = PathSeries::from_run(&run);
    let syn = after_first(&path, Side::Client, |p| p.syn, 1e6);
    let syn_ack = after_first(&path, Side::Server, |p| p.syn, 1e6);
    let request = after_first(&path, Side::Client, |p| p.is_data(), 1e6);
    for (size, scale) in [((640, 170), 1.0), ((360, 200), 1.0)] {
        let (on, svg) = draw(&path, syn, size, scale);
        assert_eq!((on.uplink.acks, on.uplink.syns), (1, 1));
        assert!(has_text(&svg, "← SYN"), "{svg}");
        assert!(!svg.contains("ACK"), "the SYN is no ACK: {svg}");
        let (_, svg) = draw(&path, syn_ack, size, scale);
        assert!(has_text(&svg, "SYN-ACK →"), "{svg}");
        let (on, svg) = draw(&path, request, size, scale);
        assert_eq!((on.uplink.data, on.uplink.acks), (1, 0));
        assert!(has_text(&svg, "← request"), "{svg}");
    }
}

#[test]
fn one_ack_in_flight_is_one_ack_wide_and_narrow() {
    let run = run(&scenario("seed-004-512k-7ms.toml"));
    let path = PathSeries::from_run(&run);
    let t = after_first(&path, Side::Client, |p| !p.is_data() && !p.syn, 1.0);
    for (size, label) in [((640, 170), "← 1 ACK in flight"), ((360, 200), "← 1 ACK")] {
        let (on, svg) = draw(&path, t, size, 1.0);
        assert_eq!(on.uplink.acks, 1);
        assert!(has_text(&svg, label) && !svg.contains("1 ACKs"), "{svg}");
    }
}

#[test]
fn nothing_is_in_the_send_buffer_before_the_handshake_completes() {
    // Seed 003 (210 ms RTT): the server's socket is connected at 315 ms;
    // before, what it reports is its SYN-ACK's skb, not anything written.
    let mut s = scenario("seed-003-lfn-cubic.toml");
    s.sample_interval = SimDuration::from_millis(10);
    s.time_limit = SimDuration::from_millis(400);
    let run = run(&s);
    let path = PathSeries::from_run(&run);
    let established = path.established_ns.expect("connected");
    let early = path
        .buffers
        .iter()
        .find(|b| b.at_ns < established && b.wmem_queued > 0)
        .expect("the socket reports its SYN-ACK's skb before it is connected");
    for size in [(640, 170), (360, 200)] {
        let (on, svg) = draw(&path, early.at_ns as f64, size, 1.0);
        assert!(!on.established && on.buffers.is_some());
        assert!(
            texts(&svg)
                .iter()
                .any(|t| t.3.starts_with("send buf") && t.3.contains(": opening")),
            "{svg}"
        );
        // The bar is empty: no accent fill under the send label.
        let accent = format!("fill=\"{}\"", hex(Palette::default().accent));
        assert!(
            !svg.lines()
                .any(|l| l.starts_with("<rect") && l.contains(&accent)),
            "{svg}"
        );
    }
    let (on, svg) = draw(&path, established as f64 + 20e6, (640, 170), 1.0);
    assert!(on.established && !svg.contains("opening"));
}

#[test]
fn buffer_labels_show_both_sides_in_one_unit_and_precision() {
    // Seed 004 as the widget samples it: at 10.85 ms the server has written
    // more than its 85 KiB send buffer (the last skb overshoots).
    let mut s = scenario("seed-004-512k-7ms.toml");
    s.sample_interval = SimDuration::from_micros(350);
    let run = run(&s);
    let path = PathSeries::from_run(&run);
    let mut checked = 0;
    for b in path.buffers.iter().filter(|b| b.wmem_queued > 0) {
        let (_, svg) = draw(&path, b.at_ns as f64 + 1.0, (1280, 170), 1.0);
        let label = texts(&svg)
            .into_iter()
            .map(|t| t.3)
            .find(|t| t.starts_with("send buffer "))
            .unwrap();
        // "send buffer 115 / 85 KiB ...": two numbers, one unit after them.
        let words: Vec<&str> = label.split(' ').collect();
        let (used, size, unit) = (words[2], words[4], words[5].trim_end_matches(','));
        assert_eq!(words[3], "/", "{label}");
        assert!(["B", "KiB", "MiB"].contains(&unit), "{label}");
        let decimals = |n: &str| n.split('.').nth(1).map_or(0, str::len);
        assert_eq!(decimals(used), decimals(size), "{label}");
        if b.wmem_queued > b.sndbuf {
            assert!(label.contains("skb"), "says why used > size: {label}");
        }
        checked += 1;
    }
    assert!(checked > 10);
}

#[test]
fn at_phone_width_the_buffer_labels_never_run_together() {
    let mut s = scenario("seed-004-512k-7ms.toml");
    s.sample_interval = SimDuration::from_micros(350);
    let run = run(&s);
    let path = PathSeries::from_run(&run);
    for b in &path.buffers {
        // A 360 px phone leaves the canvas 300 to 340 px of it.
        for (size, scale) in [((300, 200), 1.0), ((330, 200), 1.0), ((680, 400), 2.0)] {
            let (_, svg) = draw(&path, b.at_ns as f64, size, scale);
            let all = texts(&svg);
            let find = |p: &str| {
                all.iter()
                    .find(|t| t.3.starts_with(p))
                    .unwrap_or_else(|| panic!("{p} in {svg}"))
            };
            let (send, recv) = (find("send buf"), find("recv buf"));
            // 0.56 em a character is wider than sans-serif digits and letters.
            let send_end = send.0 + send.3.chars().count() as f64 * 0.56 * send.1;
            assert!(send.2 && recv.2);
            assert!(send_end < recv.0, "{:?} runs into {:?}", send, recv);
            assert!(
                recv.0 + recv.3.chars().count() as f64 * 0.56 * recv.1 <= size.0 as f64,
                "{recv:?}"
            );
        }
    }
}

/// In presenter mode the path view is short for its type (a 165 px canvas
/// drawn at 1.8×): the ACK lane's label must still clear the buffer labels
/// under it (they were drawn over each other).
#[test]
fn at_presenter_scale_the_ack_label_clears_the_buffer_labels() {
    let run = run(&scenario("seed-004-512k-7ms.toml"));
    let path = PathSeries::from_run(&run);
    let y_of = |svg: &str, starts: &str| -> (f64, f64) {
        let t = svg
            .split("<text")
            .skip(1)
            .find(|t| {
                t.split_once('>')
                    .unwrap()
                    .1
                    .trim_start()
                    .starts_with(starts)
            })
            .unwrap_or_else(|| panic!("no text starting {starts}: {svg}"));
        let open = t.split_once('>').unwrap().0;
        let attr = |name: &str| -> f64 {
            let i = open.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            open[i..].split('"').next().unwrap().parse().unwrap()
        };
        (attr("y"), attr("font-size") * 1.24)
    };
    // Mid-run, with ACKs on their way back.
    let t = 30e6;
    for (size, scale) in [((1000, 165), 1.8), ((640, 170), 1.0)] {
        let (on, svg) = draw(&path, t, size, scale);
        assert!(on.uplink.acks > 0, "{on:?}");
        let (ack_y, ack_px) = y_of(&svg, "←");
        let (buf_y, _) = y_of(&svg, "receive buffer");
        assert!(
            ack_y + ack_px <= buf_y,
            "{size:?} × {scale}: ACK label at {ack_y} ({ack_px} px) runs into the buffer label at {buf_y}"
        );
    }
}
