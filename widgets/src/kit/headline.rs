//! The one result a run is about, in a sentence above the stage, so a
//! reader who moves a slider sees what changed without reading the panels:
//!
//! ```text
//!   finished     "Done in 49.70 ms = 7.1 RTT: 1.5 RTT before the first data, then 6 flights"
//!   still going  "Goodput 85.2 Mbit/s over 30.000 s (77 % of 110 Mbit/s) · 12 retransmissions"
//!   repeated     "Transfers: 1st 21.45 ms · 2nd 7.60 ms"
//! ```
//!
//! Every number is read from the run's [`Model`] (the simulator's outcome
//! and trace), never written in by hand; the readouts under "Details" show
//! the same figures in the same units. In compare mode
//! `compare::headline` sets the two runs side by side instead.

use super::model::Model;
use crate::units::TimeUnit;
use sim_core::units::format_rate;

/// What the headline says, before it is words (tested against the
/// simulator's own numbers).
#[derive(Clone, Debug, PartialEq)]
pub enum Headline {
    /// The transfer completed.
    Done {
        /// From the client's SYN to the client having read the last byte.
        completion_ns: f64,
        /// The path's round-trip propagation delay.
        rtt_ns: f64,
        /// When the server sent its first data: handshake and request.
        first_data_ns: f64,
        /// Flights of data (round trips the server sent in).
        flights: usize,
        /// Flights were counted only until the trace stopped storing packets.
        flights_cut: bool,
    },
    /// Several transfers completed (seconds apart, on one connection or
    /// new ones): each one's time, from its request (or its connection's
    /// SYN) to the client having read its last byte, which the completion
    /// time would hide behind the gaps.
    Transfers { durations_ns: Vec<f64> },
    /// The run ended (its time limit) before the transfer did.
    Running {
        /// Bytes the client read over the run, in bit/s.
        goodput_bps: f64,
        span_ns: f64,
        link_bps: f64,
        retransmissions: u64,
    },
}

impl Headline {
    pub fn of(m: &Model) -> Headline {
        let rtt_ns = (m.path.downlink.delay_ns + m.path.uplink.delay_ns) as f64;
        let transfers = &m.summary.transfers;
        match m.summary.completion {
            Some(_) if transfers.len() > 1 => Headline::Transfers {
                durations_ns: transfers.iter().map(|t| t.duration().0 as f64).collect(),
            },
            Some(done) => Headline::Done {
                completion_ns: done.0 as f64,
                rtt_ns,
                first_data_ns: m.summary.flights.first().map_or(0.0, |f| f.start.0 as f64),
                flights: m.summary.round_trips(),
                flights_cut: m.path.packets_until_ns.is_some(),
            },
            None => {
                let span_ns = m.end_ns.max(1.0);
                Headline::Running {
                    goodput_bps: goodput_bps(m.throughput.total_bytes(), span_ns),
                    span_ns,
                    link_bps: m.throughput.link_bps,
                    retransmissions: m.summary.retransmissions,
                }
            }
        }
    }

    /// The sentence, times in `unit` (the widget's clock's) with the
    /// completion readout's decimals, so the two read alike.
    pub fn text(&self, unit: TimeUnit) -> String {
        let decimals = if unit == TimeUnit::S { 3 } else { 2 };
        match *self {
            Headline::Transfers { ref durations_ns } => {
                format!("Transfers: {}", transfer_times(durations_ns))
            }
            Headline::Done {
                completion_ns,
                rtt_ns,
                first_data_ns,
                flights,
                flights_cut,
            } => {
                let done = unit.format(completion_ns, decimals);
                if rtt_ns <= 0.0 || flights == 0 {
                    return format!("Done in {done}");
                }
                let rtts = |ns: f64| crate::units::fixed(ns / rtt_ns, 1);
                let at_least = if flights_cut { "at least " } else { "" };
                let plural = if flights == 1 { "" } else { "s" };
                format!(
                    "Done in {done} = {} RTT: {} RTT before the first data, then {at_least}{flights} flight{plural} of data",
                    rtts(completion_ns),
                    rtts(first_data_ns),
                )
            }
            Headline::Running {
                goodput_bps,
                span_ns,
                link_bps,
                retransmissions,
            } => {
                let share = if link_bps > 0.0 {
                    format!(
                        " ({} % of {})",
                        crate::units::fixed(100.0 * goodput_bps / link_bps, 0),
                        format_rate(link_bps as u64)
                    )
                } else {
                    String::new()
                };
                let plural = if retransmissions == 1 { "" } else { "s" };
                format!(
                    "Goodput {} over {}{share} · {retransmissions} retransmission{plural}",
                    mbps(goodput_bps),
                    unit.format(span_ns, decimals)
                )
            }
        }
    }
}

/// Bytes the client read over `span_ns`, in bit/s (the headline's and
/// `results`' goodput).
pub fn goodput_bps(bytes: u64, span_ns: f64) -> f64 {
    bytes as f64 * 8.0 / (span_ns.max(1.0) / 1e9)
}

/// Each transfer's time by its ordinal, in ms (a transfer takes
/// milliseconds even when the run takes seconds): "1st 21.45 ms · 2nd 7.60 ms".
pub fn transfer_times(durations_ns: &[f64]) -> String {
    let mut out = String::new();
    for (i, &d) in durations_ns.iter().enumerate() {
        let sep = if i > 0 { " · " } else { "" };
        out.push_str(sep);
        out.push_str(&transfer_time(i, d));
    }
    out
}

/// The `i`-th transfer's (from 0) time: "2nd 7.60 ms".
pub fn transfer_time(i: usize, duration_ns: f64) -> String {
    let n = i + 1;
    let suffix = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix} {}", TimeUnit::Ms.format(duration_ns, 2))
}

/// A rate in Mbit/s to three significant digits ("85.2 Mbit/s"), one unit
/// whatever the rate, as the throughput chart and the compare headline use.
fn mbps(bps: f64) -> String {
    let v = bps / 1e6;
    let d = if v >= 100.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{} Mbit/s", crate::units::fixed(v, d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kit::scenario;
    use sim_core::analysis;
    use widget_catalogue::widget;

    fn run(name: &str, preset: &str, set: &[(&str, f64)]) -> (sim_core::sim::RunResult, Model) {
        let spec = widget(name).unwrap();
        let mut values = crate::params::preset_values(spec, preset).unwrap();
        for (k, v) in set {
            values[spec.params.iter().position(|p| p.name == *k).unwrap()] = *v;
        }
        let run = sim_core::sim::run(&scenario::build(spec, &values)).unwrap();
        let model = Model::from_run(&run);
        (run, model)
    }

    #[test]
    fn a_finished_transfer_reads_its_completion_and_flights_off_the_simulator() {
        let (run, m) = run("slow-start", "seed-7ms", &[]);
        let summary = analysis::summarize(&run);
        let done = run.outcome.completed_at().expect("seed 004 completes").0 as f64;
        let h = Headline::of(&m);
        let Headline::Done {
            completion_ns,
            rtt_ns,
            first_data_ns,
            flights,
            ..
        } = h
        else {
            panic!("{h:?}")
        };
        assert_eq!(completion_ns, done);
        assert_eq!(rtt_ns, run.scenario.path.rtt().0 as f64);
        assert_eq!(rtt_ns, 7e6, "seed 004's 7 ms path");
        assert_eq!(flights, summary.flights.len());
        assert_eq!(first_data_ns, summary.flights[0].start.0 as f64);
        let text = h.text(TimeUnit::Ms);
        // The completion readout's text, to the digit.
        let readout = TimeUnit::Ms.format(done, 2);
        assert!(text.starts_with(&format!("Done in {readout} = ")), "{text}");
        assert!(text.contains(&format!("{:.1} RTT:", done / 7e6)), "{text}");
        assert!(text.contains(&format!("then {flights} flights")), "{text}");
        // Slow start from initcwnd 10: 512 KiB takes six doublings' flights.
        assert_eq!(flights, 6, "{text}");
    }

    #[test]
    fn a_run_cut_by_its_time_limit_reads_goodput_and_retransmissions() {
        // Seed 003's CUBIC path for 2 s instead of 30, to keep the test quick.
        let (run, m) = run("long-fat", "seed-003-cubic", &[("duration", 2e9)]);
        assert!(run.outcome.completed_at().is_none());
        let h = Headline::of(&m);
        let Headline::Running {
            goodput_bps,
            span_ns,
            link_bps,
            retransmissions,
        } = h
        else {
            panic!("{h:?}")
        };
        assert_eq!(link_bps, 110e6);
        assert_eq!(span_ns, m.end_ns);
        assert_eq!(retransmissions, m.summary.retransmissions);
        assert!(retransmissions >= analysis::summarize(&run).retransmissions);
        // The simulator's own per-flow total (bytes the client read, from
        // its last sample) agrees with the bytes the views counted.
        let totals = &analysis::flow_totals(&run)[0];
        let sim_bps = totals.delivered as f64 * 8.0 / (span_ns / 1e9);
        assert!(
            (goodput_bps - sim_bps).abs() <= 0.01 * sim_bps,
            "{goodput_bps} vs {sim_bps}"
        );
        let text = h.text(TimeUnit::Ms);
        assert!(
            text.starts_with(&format!("Goodput {}", mbps(goodput_bps))),
            "{text}"
        );
        assert!(text.contains("of 110 Mbit/s"), "{text}");
        assert!(
            text.ends_with(&format!("· {retransmissions} retransmissions")),
            "{text}"
        );
    }

    #[test]
    fn rates_keep_three_significant_digits_in_one_unit() {
        assert_eq!(mbps(85.24e6), "85.2 Mbit/s");
        assert_eq!(mbps(412.4e6), "412 Mbit/s");
        assert_eq!(mbps(1.234e6), "1.23 Mbit/s");
    }
}
