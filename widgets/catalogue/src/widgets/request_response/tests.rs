//! Each preset's key figure at packet level: which segment Nagle holds, how
//! long the delayed-ACK timer waits, and the quick-ACK first exchange.

use super::*;
use sim_core::analysis::summarize;
use sim_core::segment::Side;
use sim_core::sim::{self, RunResult};
use sim_core::trace::TraceEvent;

fn run(values: &Values) -> RunResult {
    sim::run(&scenario(values)).expect("valid scenario")
}

fn preset(name: &str) -> RunResult {
    let values = WIDGET.preset_values(name).expect("a preset");
    sim::run(&WIDGET.scenario_of(values)).expect("valid scenario")
}

/// A scenario file the chapter's seed table runs, not a preset.
fn file(name: &str) -> RunResult {
    let path = format!("{}/../../scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let (_, s) = sim_core::scenario_file::parse(&text).unwrap();
    sim::run(&s).expect("valid scenario")
}

/// Each exchange's time, request written to reply read, in ms.
fn exchanges_ms(run: &RunResult) -> Vec<f64> {
    summarize(run)
        .transfers
        .iter()
        .map(|t| t.duration().as_millis_f64())
        .collect()
}

/// `(side, reason, bytes)` of every hold, in order.
fn holds(run: &RunResult) -> Vec<(Side, &'static str, u64)> {
    run.trace
        .records()
        .filter_map(|r| match r.event {
            TraceEvent::SendHeld {
                side,
                reason,
                bytes,
            } => Some((side, reason, bytes)),
            _ => None,
        })
        .collect()
}

/// How long each delayed-ACK timer of `side` that fired waited, in ms: the
/// timers whose deadline is when `side` sent a bare ACK (a timer a reply
/// overtook is stopped, its ACK on the reply).
fn delack_waits_ms(run: &RunResult, side: Side) -> Vec<f64> {
    let bare_acks: Vec<_> = run
        .trace
        .records()
        .filter_map(|r| match r.event {
            TraceEvent::SegmentSent { seg, .. } if seg.from == side && seg.len == 0 => {
                Some(r.time)
            }
            _ => None,
        })
        .collect();
    run.trace
        .records()
        .filter_map(|r| match r.event {
            TraceEvent::DelayedAckArmed { side: s, deadline }
                if s == side && bare_acks.contains(&deadline) =>
            {
                Some(deadline.since(r.time).as_millis_f64())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn by_default_the_first_exchange_is_quick_and_the_other_nine_wait_for_the_timer() {
    let r = run(&Values::defaults(WIDGET.params));
    let ms = exchanges_ms(&r);
    assert_eq!(ms.len(), 10);
    // 1 ms RTT. First: the header, ACKed at once (quick-ACK mode), then the
    // body, then the reply: two round trips.
    assert!((2.0..2.1).contains(&ms[0]), "{ms:?}");
    // Then the server is in ping-pong mode: its ACK of the header waits for
    // the timer (40 jiffies from the header's jiffy, run one tick past it by
    // today's wheel), and the body with it: two round trips and 40–41 ms.
    for later in &ms[1..] {
        assert!((42.0..=43.1).contains(later), "{ms:?}");
    }
    // Nagle holds the 1000-byte body, on the client, once per exchange.
    let h = holds(&r);
    assert_eq!(h.len(), 10, "{h:?}");
    assert!(h.iter().all(|&hold| hold == (Side::Client, "nagle", 1000)));
    // The server's timer: nine of them, each more than 40 ms and at most one
    // jiffy more (calc_index never runs a timer early).
    let waits = delack_waits_ms(&r, Side::Server);
    assert_eq!(waits.len(), 9, "{waits:?}");
    assert!(waits.iter().all(|w| *w > 40.0 && *w <= 41.0), "{waits:?}");
}

#[test]
fn one_write_tcp_nodelay_tcp_cork_or_quickack_each_remove_the_wait() {
    let fixes: [fn(&mut Values); 4] = [
        |v| v.set(FORM, Form::OneWrite),
        |v| v.set(NAGLE, NagleChoice(Nagle::Off)),
        |v| v.set(CORK, Switch::On),
        |v| v.set(QUICKACK, Switch::On),
    ];
    for (i, fix) in fixes.iter().enumerate() {
        let mut v = Values::defaults(WIDGET.params);
        fix(&mut v);
        let ms = exchanges_ms(&run(&v));
        assert!(ms.iter().all(|&t| t < 3.0), "fix {i}: {ms:?}");
    }
}

#[test]
fn classic_nagle_holds_the_88_byte_tail_of_100000_bytes_for_the_200ms_timer() {
    let r = preset("seed-100000-classic");
    // The server holds the reply's tail, 100,000 − 69 × 1448 = 88 bytes.
    let h = holds(&r);
    assert_eq!(h.len(), 20, "{h:?}");
    assert!(h.iter().all(|&hold| hold == (Side::Server, "nagle", 88)));
    // The client's fixed timer waits 200 ms for the 69th segment's ACK.
    let waits = delack_waits_ms(&r, Side::Client);
    assert_eq!(waits.len(), 20, "{waits:?}");
    assert!(waits.iter().all(|&w| w == 200.0), "{waits:?}");
    assert!(exchanges_ms(&r).iter().all(|&t| t > 200.0));
    // 99,900 bytes: 68 full segments, ACKed in pairs; the tail never waits.
    let r = preset("seed-99900-classic");
    assert!(holds(&r).iter().all(|&(_, _, bytes)| bytes == 1436));
    assert!(exchanges_ms(&r).iter().all(|&t| t < 20.0));
}

#[test]
fn linux_sends_the_88_byte_tail_at_once() {
    // Minshall: the tail is held only behind an earlier short segment.
    let r = preset("seed-100000-linux");
    assert!(holds(&r).is_empty(), "{:?}", holds(&r));
    let (a, b) = (
        exchanges_ms(&preset("seed-99900-linux")),
        exchanges_ms(&r),
    );
    assert!(a.iter().zip(&b).all(|(x, y)| (y - x).abs() < 0.1), "{a:?} {b:?}");
}

#[test]
fn a_1600_byte_request_waits_only_under_classic_nagle() {
    let linux = preset("seed-1600-one-write");
    assert!(holds(&linux).is_empty());
    assert!(exchanges_ms(&linux).iter().all(|&t| t < 1.1));
    let classic = preset("seed-1600-one-write-classic");
    // The 1600 − 1448 = 152-byte tail waits for the ACK of the full segment.
    let h = holds(&classic);
    assert!(h.iter().all(|&hold| hold == (Side::Client, "nagle", 152)), "{h:?}");
    let ms = exchanges_ms(&classic);
    assert!(ms[0] < 2.1, "quick-ACK mode: {ms:?}");
    assert!(ms[1..].iter().all(|&t| t > 40.0), "{ms:?}");
}

#[test]
fn a_300kb_body_after_a_small_header_is_not_held_on_linux() {
    // The full segments that follow the header make the server ACK it
    // (two segments unacknowledged), so the body's short tail goes at once.
    let r = preset("seed-300k-header-body");
    assert!(holds(&r).is_empty(), "{:?}", holds(&r));
    assert!(exchanges_ms(&r).iter().all(|&t| t < 12.0));
}

#[test]
fn the_default_tells_the_story_on_every_kernel_era_but_5_5() {
    for era in Kernel::ALL {
        let mut v = Values::defaults(WIDGET.params);
        v.set(KERNEL, era);
        let ms = exchanges_ms(&run(&v));
        let stalled: Vec<bool> = ms.iter().map(|&t| t > 35.0).collect();
        if era == Kernel::V5_5 {
            // TCP_PINGPONG_THRESH 3: three quick replies before the server
            // turns interactive; its timer firing ends ping-pong mode, and
            // the count starts again from the reply it let go.
            let every_third: Vec<bool> = (0..10).map(|i| i % 3 == 0 && i > 0).collect();
            assert_eq!(stalled, every_third, "{ms:?}");
        } else {
            assert!(!stalled[0] && stalled[1..].iter().all(|&s| s), "{era:?}: {ms:?}");
        }
    }
}

#[test]
fn against_linux_delayed_acks_the_88_byte_tail_waits_40ms_not_200ms() {
    let r = file("seed-000-100000-classic-40ms.toml");
    let waits = delack_waits_ms(&r, Side::Client);
    assert!(!waits.is_empty());
    assert!(waits.iter().all(|w| (39.0..=40.0).contains(w)), "{waits:?}");
    // Every hold is of the 88-byte tail, and the exchanges that waited took
    // the timer's 40 ms more than the 99,900-byte ones.
    assert!(holds(&r).iter().all(|&hold| hold == (Side::Server, "nagle", 88)));
    let slow = exchanges_ms(&r);
    let fast = exchanges_ms(&file("seed-000-99900-classic-40ms.toml"));
    let stalled = slow.iter().filter(|&&t| t > 40.0).count();
    assert!(stalled >= 18, "{slow:?}");
    assert!(fast.iter().filter(|&&t| t > 40.0).count() <= 1, "{fast:?}");
}
