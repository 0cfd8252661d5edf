//! What is worth saying on a chart, found in the run's trace: "cwnd doubles
//! here", "HyStart exits", "loss → fast recovery", "limited by the receive
//! window", "idle restart", and on the time-sequence graph one RTT bracketed.
//!
//! Nothing here knows a preset: each note is derived from records
//! (`CwndChanged`, `FastRetransmit`, `RtoFired`, `CcMode`, data segments
//! and the ACKs that reach the server), so a reader who moves a slider sees
//! the notes move with the run. The drawing code (`draw::annotations`)
//! decides where the labels go; this module decides which notes a run has,
//! and keeps only the most telling few ([`MAX_NOTES`]), as a chart with a
//! label on every step says nothing.
//!
//! Times are the records' own (ns), so a test can find each note's record.

use sim_core::cc::TCP_INFINITE_SSTHRESH;
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;

/// Notes a chart shows at most.
pub const MAX_NOTES: usize = 5;

/// RTT brackets on the time-sequence graph: the first round trips.
pub const TSG_ROUNDS: usize = 2;

/// What a note says, in order of how much it tells (first: most).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The retransmission timer fired (`tcp_enter_loss`): cwnd falls to 1.
    Rto,
    /// A loss found by SACK/RACK or three duplicate ACKs: fast recovery
    /// (`tcp_enter_recovery`), cwnd cut to ssthresh by PRR.
    FastRecovery,
    /// HyStart set ssthresh to cwnd before any loss (`hystart_update`).
    HyStartExit,
    /// cwnd reached an ssthresh already set (`tcp_in_slow_start` turns false).
    SlowStartEnd,
    /// BBR left startup (`bbr_check_drain`).
    StartupEnd,
    /// The sender went idle longer than the RTO and restarted from a small
    /// window (`tcp_cwnd_restart`).
    IdleRestart,
    /// Data out reached the peer's advertised window while cwnd allowed more.
    ReceiveWindowLimited,
    /// cwnd doubled over one round trip (slow start, RFC 5681 §3.1).
    Doubling,
    /// One round trip, from a flight's first segment to the next flight's.
    RoundTrip,
}

impl Kind {
    /// What the note says where its full label does not fit (a phone).
    pub fn short(self) -> &'static str {
        match self {
            Kind::Rto => "RTO",
            Kind::FastRecovery => "loss",
            Kind::HyStartExit => "HyStart exit",
            Kind::SlowStartEnd => "ssthresh reached",
            Kind::StartupEnd => "startup ends",
            Kind::IdleRestart => "idle restart",
            Kind::ReceiveWindowLimited => "rwnd limit",
            Kind::Doubling => "×2 per RTT",
            Kind::RoundTrip => "RTT",
        }
    }
}

/// One note on a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Annotation {
    pub kind: Kind,
    /// Where it points (ns): the record that shows it.
    pub t_ns: f64,
    /// For a note about a span (a round trip): where the span ends (ns).
    pub end_ns: Option<f64>,
    /// The value it points at, in the chart's unit (segments on the cwnd
    /// chart, bytes of sequence space on the time-sequence graph).
    pub y: f64,
    pub label: String,
}

/// The notes for the cwnd chart, the most telling [`MAX_NOTES`] in time order.
pub fn cwnd_notes(run: &RunResult) -> Vec<Annotation> {
    let mut notes = Vec::new();
    let mut found = |n: Annotation| {
        // One of each kind: the first is the one the reader meets.
        if !notes.iter().any(|m: &Annotation| m.kind == n.kind) {
            notes.push(n);
        }
    };
    let w = Walk::of(run);
    for n in w.events {
        found(n);
    }
    if let Some(n) = doubling(&w.flights, &w.cwnd) {
        found(n);
    }
    // At most one note per kind: a few items, sorted by insertion (the
    // library's sorts would add kilobytes to the wasm for each order).
    insertion_sort(&mut notes, |a, b| a.kind < b.kind);
    notes.truncate(MAX_NOTES);
    insertion_sort(&mut notes, |a, b| a.t_ns < b.t_ns);
    notes
}

/// The notes for the time-sequence graph: the first [`TSG_ROUNDS`] round
/// trips, each from a flight's first segment to the next flight's, at the
/// height of the first flight's last byte.
pub fn tsg_notes(run: &RunResult) -> Vec<Annotation> {
    let w = Walk::of(run);
    w.flights
        .windows(2)
        .take(TSG_ROUNDS)
        .map(|p| Annotation {
            kind: Kind::RoundTrip,
            t_ns: p[0].t_ns,
            end_ns: Some(p[1].t_ns),
            y: p[0].top as f64,
            label: "1 RTT".into(),
        })
        .collect()
}

/// The first segment of one slow-start flight.
#[derive(Clone, Copy, Debug)]
struct Flight {
    t_ns: f64,
    /// The highest byte this flight sent (relative sequence space).
    top: u64,
}

/// One pass over flow 0's records: cwnd over time, flight starts, and the
/// events that are notes in themselves.
struct Walk {
    /// `(time, cwnd)` at each change, from the initial window at 0.
    cwnd: Vec<(f64, u32)>,
    flights: Vec<Flight>,
    events: Vec<Annotation>,
}

impl Walk {
    fn of(run: &RunResult) -> Walk {
        let mss = run.scenario.server.sender.mss.max(1) as u64;
        let initcwnd = run.scenario.server.sender.initcwnd;
        let mut w = Walk {
            cwnd: vec![(0.0, initcwnd)],
            flights: Vec::new(),
            events: Vec::new(),
        };
        let mut cwnd = initcwnd;
        let mut ssthresh = TCP_INFINITE_SSTHRESH;
        // When the last loss event was (a cwnd change then is its doing).
        let mut loss_at = f64::NEG_INFINITY;
        let (mut snd_una, mut snd_nxt, mut rwnd) = (0u64, 0u64, u64::MAX);
        let mut flight_no = 0;
        // Fast recovery ends by setting cwnd to ssthresh: not the end of a slow start.
        let mut in_fast_recovery = false;
        for r in run.trace.flow_records(0) {
            let t = r.time.0 as f64;
            match r.event {
                TraceEvent::CwndChanged {
                    side: Side::Server,
                    old,
                    new,
                    ssthresh: st,
                } => {
                    let after_loss = t == loss_at;
                    if st < TCP_INFINITE_SSTHRESH && ssthresh >= TCP_INFINITE_SSTHRESH {
                        if !after_loss && old == new {
                            w.events.push(note(
                                Kind::HyStartExit,
                                t,
                                new,
                                format!("HyStart exits slow start (cwnd {new})"),
                            ));
                        }
                    } else if st < TCP_INFINITE_SSTHRESH
                        && !after_loss
                        && !in_fast_recovery
                        && old < st
                        && new >= st
                    {
                        w.events.push(note(
                            Kind::SlowStartEnd,
                            t,
                            new,
                            format!("slow start ends at ssthresh {st}"),
                        ));
                    }
                    if new < old && !after_loss && snd_nxt == snd_una && snd_nxt > 0 {
                        w.events.push(note(
                            Kind::IdleRestart,
                            t,
                            new,
                            format!("idle restart: cwnd {old} → {new}"),
                        ));
                    }
                    cwnd = new;
                    ssthresh = st;
                    w.cwnd.push((t, new));
                }
                TraceEvent::FastRetransmit {
                    side: Side::Server, ..
                } => {
                    loss_at = t;
                    in_fast_recovery = true;
                    w.events.push(note(
                        Kind::FastRecovery,
                        t,
                        cwnd,
                        "loss → fast recovery".into(),
                    ));
                }
                TraceEvent::RtoFired {
                    side: Side::Server, ..
                } => {
                    loss_at = t;
                    in_fast_recovery = false;
                    w.events.push(note(
                        Kind::Rto,
                        t,
                        cwnd,
                        "RTO: cwnd → 1, slow start again".into(),
                    ));
                }
                TraceEvent::CcMode {
                    side: Side::Server,
                    mode: "drain",
                } => w
                    .events
                    .push(note(Kind::StartupEnd, t, cwnd, "BBR leaves startup".into())),
                TraceEvent::SegmentSent {
                    seg,
                    flight,
                    retransmit: false,
                    ..
                } if seg.from == Side::Server && seg.len > 0 => {
                    let end = seg.seq + seg.len as u64;
                    snd_nxt = snd_nxt.max(end);
                    if flight > flight_no && ssthresh >= TCP_INFINITE_SSTHRESH {
                        flight_no = flight;
                        w.flights.push(Flight { t_ns: t, top: end });
                    } else if flight == flight_no
                        && let Some(f) = w.flights.last_mut()
                    {
                        f.top = f.top.max(end);
                    }
                    // Sent up to the peer's window (less than a segment of
                    // it left) while cwnd had room for at least two more.
                    let out = snd_nxt.saturating_sub(snd_una);
                    if rwnd < u64::MAX && out + mss > rwnd && (cwnd as u64) * mss >= out + 2 * mss {
                        let segs = (out / mss) as u32;
                        w.events.push(note(
                            Kind::ReceiveWindowLimited,
                            t,
                            segs,
                            format!("limited by the receive window ({} KB)", rwnd / 1000),
                        ));
                    }
                }
                TraceEvent::SegmentReceived {
                    to: Side::Server,
                    seg,
                } if seg.flags.ack && !seg.flags.syn => {
                    snd_una = snd_una.max(seg.ack);
                    rwnd = seg.wnd;
                }
                _ => {}
            }
            // Keep the first of each kind only: a long run would otherwise
            // keep a note per send while the receive window holds it.
            if let Some(n) = w.events.last()
                && w.events[..w.events.len() - 1]
                    .iter()
                    .any(|m| m.kind == n.kind)
            {
                w.events.pop();
            }
        }
        // A loss recorded after a cwnd change at the same instant made that
        // change: it was no exit from slow start, and no idle restart.
        let losses: Vec<f64> = (w.events.iter())
            .filter(|n| matches!(n.kind, Kind::Rto | Kind::FastRecovery))
            .map(|n| n.t_ns)
            .collect();
        w.events.retain(|n| {
            !matches!(
                n.kind,
                Kind::HyStartExit | Kind::SlowStartEnd | Kind::IdleRestart
            ) || !losses.contains(&n.t_ns)
        });
        w
    }
}

fn note(kind: Kind, t_ns: f64, y: u32, label: String) -> Annotation {
    Annotation {
        kind,
        t_ns,
        end_ns: None,
        y: y as f64,
        label,
    }
}

/// cwnd in effect just before `t_ns` (before any change at `t_ns` itself).
fn cwnd_before(cwnd: &[(f64, u32)], t_ns: f64) -> u32 {
    let i = cwnd.partition_point(|p| p.0 < t_ns);
    cwnd[i.saturating_sub(1)].1
}

/// The last round of slow start over which cwnd doubled: from flight k's
/// first segment to flight k+1's, cwnd went from c to about 2c (the ACKs
/// of flight k−1 arrive as flight k leaves, each raising cwnd by one
/// segment: `tcp_slow_start`). The last such round is the one a linear
/// axis shows best.
fn doubling(flights: &[Flight], cwnd: &[(f64, u32)]) -> Option<Annotation> {
    flights.windows(2).rev().find_map(|p| {
        let (a, b) = (cwnd_before(cwnd, p[0].t_ns), cwnd_before(cwnd, p[1].t_ns));
        let ratio = b as f64 / a.max(1) as f64;
        (1.75..=2.25).contains(&ratio).then(|| Annotation {
            kind: Kind::Doubling,
            t_ns: p[0].t_ns,
            end_ns: Some(p[1].t_ns),
            y: b as f64,
            label: format!("cwnd doubles in one RTT: {a} → {b}"),
        })
    })
}

/// Sorts a handful of items, stable, by `less`.
pub(crate) fn insertion_sort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && less(&v[j], &v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cwnd_before_a_change_is_the_value_held_until_then() {
        let c = [(0.0, 10), (5.0, 11), (5.0, 12), (9.0, 20)];
        assert_eq!(cwnd_before(&c, 5.0), 10);
        assert_eq!(cwnd_before(&c, 6.0), 12);
        assert_eq!(cwnd_before(&c, 100.0), 20);
    }

    #[test]
    fn the_last_round_that_doubled_is_chosen() {
        let flights = [0.0, 10.0, 20.0, 30.0].map(|t| Flight { t_ns: t, top: 0 });
        let cwnd = [(0.0, 10), (10.0, 20), (20.0, 40), (30.0, 45)];
        let n = doubling(&flights, &cwnd).expect("a doubling");
        // Before 10: 10, before 20: 20, before 30: 40; the last is 20 → 40.
        assert_eq!((n.t_ns, n.end_ns), (20.0, Some(30.0)));
        assert!(n.label.ends_with("20 → 40"), "{}", n.label);
    }
}
