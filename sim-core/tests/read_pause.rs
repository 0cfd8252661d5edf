//! Seed 001's case 6 with a reader that comes back: the receiving
//! application stops reading at 10 ms and reads again at 6010 ms. Its buffer
//! fills, it advertises a zero window, the sender probes on the persist timer
//! (`tcp_probe_timer`); the read that empties the buffer makes the receiver
//! announce the window (`tcp_cleanup_rbuf`, or its answer to the next probe),
//! and the transfer goes on.
#![cfg(feature = "scenario-file")]

mod common;
use common::*;
use sim_core::analysis::summarize;
use sim_core::config::Kernel;
use sim_core::segment::Side;
use sim_core::time::{SimDuration, SimTime};

const STOP: SimTime = SimTime(10_000_000);
const RESUME: SimTime = SimTime(6_010_000_000);

/// The file's case, on its kernel (3.10) or with both hosts on `kernel`.
fn run_on(kernel: Option<Kernel>) -> sim_core::sim::RunResult {
    let mut text = scenario_text("seed-001-receiver-pauses.toml");
    if let Some(k) = kernel {
        text = text.replace("kernel = \"3.10\"", &format!("kernel = \"{}\"", k.name()));
    }
    run(&sim_core::scenario_file::parse(&text).unwrap().1)
}

#[test]
fn the_window_closes_during_the_pause_and_reopens_after_it_in_both_eras() {
    for kernel in [None, Some(Kernel::Today)] {
        let r = run_on(kernel);
        let client = sent_by(&r, Side::Client);
        // A zero window while the application is away, and none before it left.
        let shut = client
            .iter()
            .find(|(_, s, _)| s.wnd == 0 && !s.flags.syn)
            .expect("a zero window")
            .0;
        assert!(shut > STOP && shut < RESUME, "{kernel:?}: shut at {shut:?}");
        // Nothing reopens it while the application is away.
        assert!(
            client
                .iter()
                .all(|(t, s, _)| *t <= shut || *t >= RESUME || s.wnd == 0),
            "{kernel:?}"
        );
        // The sender probed the closed window, with backoff.
        let probes = probe_times(&r, Side::Server);
        assert!(probes.len() >= 4, "{kernel:?}: {probes:?} shut {shut:?}");
        assert!(probes.iter().all(|t| *t > STOP), "{kernel:?}");
        // After the read the window opens, no later than the probe after it.
        let open = client
            .iter()
            .find(|(t, s, _)| *t >= RESUME && s.wnd > 0)
            .expect("reopened")
            .0;
        let next_probe = probes.iter().find(|t| **t >= RESUME).copied();
        assert!(
            next_probe.is_none_or(|p| open <= p + SimDuration::from_millis(7)),
            "{kernel:?}"
        );
        // And the transfer completes after it.
        let done = summarize(&r).completion.expect("completes");
        assert!(done > RESUME, "{kernel:?}");
    }
}

/// On 3.10, the read that empties the full buffer sends the window update
/// itself, at the moment of the read (`tcp_cleanup_rbuf`: the window it can
/// now offer is at least twice the one it last advertised, zero).
#[test]
fn on_3_10_the_read_sends_the_window_update_at_once() {
    let r = run_on(None);
    let open = sent_by(&r, Side::Client)
        .into_iter()
        .find(|(t, s, _)| *t >= RESUME && s.wnd > 0)
        .unwrap()
        .0;
    assert_eq!(open, RESUME);
}
