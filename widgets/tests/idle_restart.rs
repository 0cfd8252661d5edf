//! Slow start after idle in the slow-start widget (seed 004's two pushes
//! 10 s apart on one connection, case 9): the second push's first flight is
//! the cwnd `tcp_cwnd_restart` leaves, and the headline shows each push's
//! time.
//!
//! ```text
//!  server   push 1: 10, 20, 40 ... segments      idle 10 s        push 2
//!  ───────  ▮▮ ▮▮▮▮ ▮▮▮▮▮▮▮▮ ...  ▮▮▮▮▮▮▮▮▮▮▮▮  ────────────────  ?
//!           tcp_slow_start_after_idle = 1: cwnd halved once per RTO of idle
//!           time, never below min(initcwnd, cwnd)      → 10 segments again
//!           tcp_slow_start_after_idle = 0: cwnd kept   → the cwnd push 1 left
//! ```

use sim_core::analysis;
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;
use tcp_widgets::kit::headline::{Headline, transfer_times};
use tcp_widgets::kit::model::Model;

mod settings;

/// The slow-start widget's run for `key=value` settings, as a directive or
/// URL gives them.
fn run(settings: &[(&str, &str)]) -> RunResult {
    settings::run("slow-start", settings)
}

/// What the server's socket knew when the second push was written, read
/// from the trace: its cwnd, its RTO, how long it had sent no data; and the
/// second push's first flight in segments.
struct SecondPush {
    cwnd: u32,
    rto_ns: u64,
    idle_ns: u64,
    first_flight: u64,
}

fn second_push(run: &RunResult) -> SecondPush {
    let transfers = analysis::transfers(&run.trace);
    assert_eq!(transfers.len(), 2, "two pushes");
    let written = transfers[1].started;
    let (mut cwnd, mut rto_ns, mut last_data) = (None, None, None);
    for r in run.trace.flow_records(0) {
        if r.time >= written {
            break;
        }
        match r.event {
            TraceEvent::CwndChanged {
                side: Side::Server,
                new,
                ..
            } => cwnd = Some(new),
            TraceEvent::RttSample {
                side: Side::Server,
                rto_ns: rto,
                ..
            } => rto_ns = Some(rto),
            TraceEvent::SegmentSent { seg, .. } if seg.from == Side::Server && seg.len > 0 => {
                last_data = Some(r.time)
            }
            _ => {}
        }
    }
    let mss = u64::from(run.scenario.server.sender.mss);
    let flight = analysis::flights(&run.trace, Side::Server)
        .into_iter()
        .find(|f| f.start >= written)
        .expect("the second push sends");
    assert_eq!(flight.bytes % mss, 0, "full segments: {}", flight.bytes);
    SecondPush {
        cwnd: cwnd.expect("cwnd grew during the first push"),
        rto_ns: rto_ns.expect("the first push measured the RTT"),
        idle_ns: written
            .since(last_data.expect("the first push sent data"))
            .0,
        first_flight: flight.bytes / mss,
    }
}

/// `tcp_cwnd_restart` (net/ipv4/tcp_output.c), as the kernel writes it:
///
/// ```c
/// restart_cwnd = min(restart_cwnd, cwnd);       /* tcp_init_cwnd(), at most cwnd */
/// while ((delta -= inet_csk(sk)->icsk_rto) > 0 && cwnd > restart_cwnd)
///         cwnd >>= 1;
/// tcp_snd_cwnd_set(tp, max(cwnd, restart_cwnd));
/// ```
fn tcp_cwnd_restart(cwnd: u32, initcwnd: u32, idle_ns: u64, rto_ns: u64) -> u32 {
    let restart_cwnd = initcwnd.min(cwnd);
    let mut cwnd = cwnd;
    let mut delta = idle_ns as i64;
    loop {
        delta -= rto_ns as i64;
        if delta <= 0 || cwnd <= restart_cwnd {
            break;
        }
        cwnd >>= 1;
    }
    cwnd.max(restart_cwnd)
}

#[test]
fn ten_idle_seconds_send_the_second_push_from_initcwnd_again() {
    let p = second_push(&run(&[("preset", "idle-restart-on")]));
    // 10 s is about fifty RTOs of about 200 ms: far more halvings than a
    // few hundred segments need to fall back to the restart window.
    assert!(p.idle_ns > 40 * p.rto_ns, "{} vs {}", p.idle_ns, p.rto_ns);
    assert!(p.cwnd > 100, "the first push grew cwnd to {}", p.cwnd);
    assert_eq!(p.first_flight, 10, "min(initcwnd 10, cwnd {})", p.cwnd);
    assert_eq!(
        p.first_flight,
        u64::from(tcp_cwnd_restart(p.cwnd, 10, p.idle_ns, p.rto_ns))
    );
}

#[test]
fn without_slow_start_after_idle_the_second_push_starts_at_the_cwnd_the_first_left() {
    let p = second_push(&run(&[("preset", "idle-restart-off")]));
    assert!(p.cwnd > 100, "the first push grew cwnd to {}", p.cwnd);
    assert_eq!(p.first_flight, u64::from(p.cwnd));
}

#[test]
fn half_a_second_idle_halves_cwnd_once_per_rto_elapsed() {
    // About 480 ms without data at an RTO of about 205 ms: two halvings, and
    // the restart window (10) is not reached.
    let p = second_push(&run(&[("preset", "idle-restart-on"), ("gap", "500ms")]));
    let expected = tcp_cwnd_restart(p.cwnd, 10, p.idle_ns, p.rto_ns);
    assert_eq!(expected, p.cwnd >> 2, "two halvings of {}", p.cwnd);
    assert_eq!(p.first_flight, u64::from(expected));
}

#[test]
fn the_headline_shows_each_pushs_time_and_the_sysctl_makes_the_second_faster() {
    let times = |preset: &str| {
        let run = run(&[("preset", preset)]);
        let m = Model::from_run(&run);
        let durations: Vec<f64> = analysis::transfers(&run.trace)
            .iter()
            .map(|t| t.duration().0 as f64)
            .collect();
        let h = Headline::of(&m);
        assert_eq!(
            h,
            Headline::Transfers {
                durations_ns: durations.clone()
            }
        );
        let text = h.text(tcp_widgets::units::TimeUnit::S);
        assert_eq!(text, format!("Transfers: {}", transfer_times(&durations)));
        assert!(text.starts_with("Transfers: 1st ") && text.contains(" · 2nd "));
        durations
    };
    let on = times("idle-restart-on");
    let off = times("idle-restart-off");
    // The same first push; the second as slow as the first with the
    // sysctl on, and much faster with it off.
    assert_eq!(on[0], off[0]);
    assert!((on[1] - on[0]).abs() < 0.01 * on[0], "{on:?}");
    assert!(off[1] < 0.5 * on[1], "{off:?} vs {on:?}");
}

#[test]
fn ordinals_read_as_english() {
    let t = transfer_times(&[
        1e6, 2e6, 3e6, 4e6, 5e6, 6e6, 7e6, 8e6, 9e6, 10e6, 11e6, 12e6,
    ]);
    assert!(t.starts_with("1st 1.00 ms · 2nd 2.00 ms · 3rd 3.00 ms · 4th 4.00 ms"));
    assert!(
        t.ends_with("10th 10.00 ms · 11th 11.00 ms · 12th 12.00 ms"),
        "{t}"
    );
}
