//! Seed 001's case 6, the capture on the server: the client stops reading,
//! its window closes, and its answers to the zero-window probes are lost.
//! The server gives up after `tcp_retries2` (15) unanswered probes
//! (`tcp_probe_timer` → `tcp_write_err`), silently; the run goes on
//! (`after_give_up = "continue"`), and the client's window update at
//! 1800 s, when its application reads again, finds no socket: the server's
//! kernel answers with a RST at the update's ACK number
//! (`tcp_v4_send_reset`), and the client resets its connection
//! (`tcp_reset`: ECONNRESET).
#![cfg(feature = "scenario-file")]

mod common;
use common::*;
use sim_core::config::{AfterGiveUp, Kernel, Scenario};
use sim_core::segment::Side;
use sim_core::sim::{Outcome, RunResult};
use sim_core::tcp::GiveUp;
use sim_core::time::{SimDuration, SimTime};
use sim_core::trace::TraceEvent;

const READS_AGAIN: SimTime = SimTime(1_800_000_000_000);

fn file_on(kernel: Option<Kernel>) -> Scenario {
    let mut text = scenario_text("seed-001-receiver-gone-rst.toml");
    if let Some(k) = kernel {
        text = text.replace("kernel = \"3.10\"", &format!("kernel = \"{}\"", k.name()));
    }
    sim_core::scenario_file::parse(&text).unwrap().1
}

/// When `side` recorded the first event `pick` matches.
fn first(run: &RunResult, pick: impl Fn(&TraceEvent) -> bool) -> SimTime {
    run.trace
        .records()
        .find(|r| pick(&r.event))
        .unwrap_or_else(|| panic!("no such record"))
        .time
}

#[test]
fn fifteen_unanswered_probes_a_silent_give_up_then_a_rst_for_the_window_update() {
    let run = run(&file_on(None));
    // The server gave up at the 16th probe timer: 15 probes unanswered
    // after the one (carrying the window's last 640 bytes) the client's
    // zero-window ACK answered at 0.39 s, before the outage.
    let probes = probe_times(&run, Side::Server);
    assert_eq!(probes.len(), 16, "{probes:?}");
    let gave_up = first(&run, |e| {
        matches!(
            e,
            TraceEvent::Aborted {
                side: Side::Server,
                ..
            }
        )
    });
    assert!(run.trace.records().any(|r| r.event
        == TraceEvent::Aborted {
            side: Side::Server,
            retries: 15
        }));
    // 0.6 s + 0.43 + 0.87 + ... + 102 s, then 120 s (TCP_RTO_MAX) each:
    // 942.03 s on exact timers. 3.10's wheel has timer slack (apply_slack):
    // a timer of 256 ticks or more may run up to 1/256 of it late, at the
    // tick where the expiry's and that limit's high bits agree, which here
    // adds 2.61 s over the 16 timers (at most 120 s / 256 = 0.47 s each).
    assert_eq!(gave_up.0 / 10_000_000, 94_464, "{gave_up:?}");
    let last = gave_up.since(*probes.last().unwrap());
    assert!(
        last >= SimDuration::from_secs(120) && last <= SimDuration::from_millis(120_000 + 468),
        "{last:?}"
    );
    // Silently: nothing from the server between the give-up and the RST.
    let server = sent_by(&run, Side::Server);
    let after: Vec<_> = server.iter().filter(|(t, ..)| *t > gave_up).collect();
    assert_eq!(after.len(), 1, "{after:?}");
    let (rst_at, rst, _) = *after[0];
    // The client's window update, the moment its application reads.
    let (update_at, update, _) = *sent_by(&run, Side::Client).last().unwrap();
    assert_eq!(update_at, READS_AGAIN);
    assert!(update.wnd > 0 && update.flags.ack && update.len == 0);
    // The RST: at the update's ACK number, no ACK, no window, sent the
    // moment the update arrives (half an RTT and its 416 ns on the wire).
    assert!(rst.flags.rst && !rst.flags.ack);
    assert_eq!((rst.seq, rst.len, rst.wnd), (update.ack, 0, 0));
    let (arrived, seg) = *received_by(&run, Side::Server).last().unwrap();
    assert_eq!((arrived, seg), (rst_at, update));
    assert_eq!(rst_at, update_at + SimDuration::from_nanos(3_500_416));
    // The client accepted it (seq == rcv_nxt) and reset its connection.
    let reset = first(&run, |e| *e == TraceEvent::Reset { side: Side::Client });
    assert!(reset > rst_at);
    assert_eq!(
        run.outcome,
        Outcome::Aborted {
            at: reset,
            side: Side::Client,
            reason: GiveUp::Reset
        }
    );
    // Few events: the browser replays it (the samples every 100 ms are most).
    assert!(run.events < 20_000, "{}", run.events);
}

/// Today's kernel tells the same story; only the probe timing may differ.
#[test]
fn todays_kernel_also_gives_up_and_resets() {
    let run = run(&file_on(Some(Kernel::Today)));
    assert!(run.trace.records().any(|r| matches!(
        r.event,
        TraceEvent::Aborted {
            side: Side::Server,
            retries: 15
        }
    )));
    assert_eq!(run.outcome.gave_up(), Some((Side::Client, GiveUp::Reset)));
    assert!(run.outcome.at() > READS_AGAIN);
}

/// Without `after_give_up = "continue"` the run ends at the give-up, as
/// every other scenario's does: the outcome is the server's limit.
#[test]
fn by_default_the_run_ends_at_the_give_up() {
    let mut s = file_on(None);
    s.after_give_up = AfterGiveUp::End;
    let run = run(&s);
    assert_eq!(
        run.outcome.gave_up(),
        Some((Side::Server, GiveUp::ZeroWindowProbes))
    );
    assert!(run.outcome.at() < SimTime::ZERO + SimDuration::from_secs(945));
    assert!(
        !run.trace
            .records()
            .any(|r| matches!(r.event, TraceEvent::Reset { .. }))
    );
}

/// Without the outage the probes are answered, nobody gives up, and the
/// read at 1800 s lets the transfer finish.
#[test]
fn with_the_answers_delivered_the_transfer_completes() {
    let mut s = file_on(None);
    s.path.outages.clear();
    let run = run(&s);
    assert!(matches!(run.outcome, Outcome::Completed { at } if at > READS_AGAIN));
}
