//! A run's figures by name, for the book's exercises and quizzes: the page
//! reads them off the widget's placeholder (`data-results`, as JSON) and
//! the build-time preprocessor computes them natively, so a condition such
//! as `round_trips <= 4` means the same on both.
//!
//! ```text
//!   {"completion_ms":49.704,"rtts":7.1,"round_trips":6,...}   missing figures left out
//! ```
//!
//! Every figure comes from the simulator's [`Summary`] (and the bytes the
//! client read, as the headline counts them), none is computed twice.

use sim_core::analysis::Summary;
use sim_core::tcp::metrics::Entry;

/// The ssthresh an entry caches; NaN for none (no entry, or not set).
fn ssthresh(e: Option<&Option<Entry>>) -> f64 {
    match e {
        Some(Some(e)) if e.ssthresh != 0 => e.ssthresh as f64,
        _ => f64::NAN,
    }
}

/// The figures' names, in [`Results::values`]' order: what the page and
/// the wasm need of [`METRICS`] (the rest stays out of the bundle).
pub const NAMES: [&str; 18] = [
    "completion_ms",
    "rtts",
    "round_trips",
    "first_flight_bytes",
    "first_flight_segments",
    "retransmits",
    "goodput_mbps",
    "max_cwnd",
    "last_transfer_ms",
    "cached_ssthresh",
    "last_cached_ssthresh",
    "later_connections_ms",
    "all_flows_mbps",
    "max_rtt_ms",
    "slowest_exchange_ms",
    "slowest_later_exchange_ms",
    "exchange_bytes",
    "first_exchange_ms",
];

/// Each figure's name, unit and meaning, in [`Results::values`]' order.
pub const METRICS: &[(&str, &str, &str)] = &[
    (
        NAMES[0],
        "ms",
        "from the client's SYN to the client reading the last byte",
    ),
    (
        NAMES[1],
        "RTT",
        "completion time in path round-trip propagation delays",
    ),
    (NAMES[2], "round trips", "flights of data the server sent"),
    (NAMES[3], "B", "bytes in the first flight"),
    (NAMES[4], "", "segments in the first flight"),
    (NAMES[5], "", "segments the server sent again"),
    (
        NAMES[6],
        "Mbit/s",
        "bytes the client read over the completion time (or the run)",
    ),
    (
        NAMES[7],
        "segments",
        "the server's largest congestion window",
    ),
    (NAMES[8], "ms", "duration of the connection's last transfer"),
    (
        NAMES[9],
        "segments",
        "the ssthresh the server's tcp_metrics cache holds after the first connection closes",
    ),
    (
        NAMES[10],
        "segments",
        "the ssthresh the cache holds after the last connection closes",
    ),
    (
        NAMES[11],
        "ms",
        "mean duration of the transfers after the first (each on a new connection, with one per transfer)",
    ),
    (
        NAMES[12],
        "Mbit/s",
        "bytes every flow's client read over the run",
    ),
    (
        NAMES[13],
        "ms",
        "the largest smoothed RTT of the server's samples",
    ),
    (
        NAMES[14],
        "ms",
        "the longest exchange (transfer), request to reply read",
    ),
    (
        NAMES[15],
        "ms",
        "the longest exchange after the first (absent with one exchange)",
    ),
    (NAMES[16], "B", "bytes of the last exchange's reply"),
    (
        NAMES[17],
        "ms",
        "the first exchange (transfer), request to reply read",
    ),
];

/// One run's figures (see [`METRICS`]), NaN where the run has none (no
/// completion, no flight): plain numbers keep the wasm small.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub completion_ms: f64,
    pub rtts: f64,
    pub round_trips: f64,
    pub first_flight_bytes: f64,
    pub first_flight_segments: f64,
    pub retransmits: f64,
    pub goodput_mbps: f64,
    pub max_cwnd: f64,
    pub last_transfer_ms: f64,
    pub cached_ssthresh: f64,
    pub last_cached_ssthresh: f64,
    pub later_connections_ms: f64,
    pub all_flows_mbps: f64,
    pub max_rtt_ms: f64,
    pub slowest_exchange_ms: f64,
    pub slowest_later_exchange_ms: f64,
    pub exchange_bytes: f64,
    pub first_exchange_ms: f64,
}

impl Results {
    /// The figures of a run from its summary, the path's round-trip
    /// propagation delay, the run's end, the bytes the client read and the
    /// server's tcp_metrics entry after each close.
    pub fn of(
        summary: &Summary,
        rtt_ns: f64,
        end_ns: f64,
        bytes_read: u64,
        cache: &[Option<Entry>],
    ) -> Results {
        let done = summary.completion.map_or(f64::NAN, |t| t.0 as f64);
        let first = summary.flights.first();
        let span = if done.is_nan() { end_ns } else { done };
        Results {
            completion_ms: done / 1e6,
            // No path delay: no round trips to count in.
            rtts: done / rtt_ns,
            round_trips: summary.round_trips() as f64,
            first_flight_bytes: first.map_or(f64::NAN, |f| f.bytes as f64),
            first_flight_segments: first.map_or(f64::NAN, |f| f.segments as f64),
            retransmits: summary.retransmissions as f64,
            goodput_mbps: super::headline::goodput_bps(bytes_read, span) / 1e6,
            max_cwnd: summary.max_cwnd as f64,
            last_transfer_ms: (summary.transfers.last())
                .map_or(f64::NAN, |t| t.duration().0 as f64 / 1e6),
            cached_ssthresh: ssthresh(cache.first()),
            last_cached_ssthresh: ssthresh(cache.last()),
            // NaN (no figure) with a single transfer: 0 / 0.
            later_connections_ms: {
                let later = summary.transfers.iter().skip(1);
                let n = later.len() as f64;
                later.map(|t| t.duration().0 as f64 / 1e6).sum::<f64>() / n
            },
            all_flows_mbps: f64::NAN,
            max_rtt_ms: f64::NAN,
            slowest_exchange_ms: slowest_ms(&summary.transfers),
            slowest_later_exchange_ms: slowest_ms(summary.transfers.get(1..).unwrap_or(&[])),
            exchange_bytes: (summary.transfers.last()).map_or(f64::NAN, |t| t.bytes as f64),
            first_exchange_ms: slowest_ms(summary.transfers.get(..1).unwrap_or(&[])),
        }
    }

    /// The figures read from the periodic samples (`records`, every flow's):
    /// what all flows' clients read over `span_ns`, from each flow's last
    /// sample, and flow 0's largest srtt (`tcpi_rtt` as `ss` shows it).
    fn with_samples(mut self, records: &[sim_core::trace::TraceRecord], span_ns: f64) -> Results {
        use sim_core::trace::TraceEvent::Sample;
        let mut last = Vec::new();
        let mut srtt = 0;
        for r in records {
            if let Sample {
                delivered, info, ..
            } = r.event
            {
                let f = r.flow as usize;
                last.resize(last.len().max(f + 1), 0);
                last[f] = delivered;
                if f == 0 {
                    srtt = srtt.max(info.srtt_ns);
                }
            }
        }
        if !last.is_empty() {
            let read: u64 = last.iter().sum();
            self.all_flows_mbps = super::headline::goodput_bps(read, span_ns) / 1e6;
        }
        if srtt > 0 {
            self.max_rtt_ms = srtt as f64 / 1e6;
        }
        self
    }

    /// The span the goodput figures divide by: the completion, or the run.
    fn span_ns(&self, end_ns: f64) -> f64 {
        if self.completion_ms.is_nan() {
            end_ns
        } else {
            self.completion_ms * 1e6
        }
    }

    /// The figures of a widget's run, as its headline reads them.
    pub fn of_model(m: &super::model::Model) -> Results {
        let rtt = m.path.downlink.delay_ns + m.path.uplink.delay_ns;
        let r = Results::of(
            &m.summary,
            rtt as f64,
            m.end_ns,
            m.throughput.total_bytes(),
            &m.cache,
        );
        let span = r.span_ns(m.end_ns);
        r.with_samples(m.sample_records(), span)
    }

    /// The figures of a finished run (natively: the preprocessor, tests),
    /// read as a widget reads them but without building the views: an
    /// exercise's search at build time runs hundreds of these (a test
    /// checks that both ways agree).
    pub fn of_run(run: &sim_core::sim::RunResult) -> Results {
        let path = &run.scenario.path;
        let end = run.outcome.at().0 as f64;
        let r = Results::of(
            &super::model::summary_of(run),
            path.rtt().0 as f64,
            end,
            crate::series::throughput::ThroughputSeries::from_run(run).total_bytes(),
            &run.tcp_metrics.after_close,
        );
        let span = r.span_ns(end);
        r.with_samples(run.trace.summary_records(), span)
    }

    /// The figures in [`METRICS`]' order.
    pub fn values(&self) -> [f64; 18] {
        [
            self.completion_ms,
            self.rtts,
            self.round_trips,
            self.first_flight_bytes,
            self.first_flight_segments,
            self.retransmits,
            self.goodput_mbps,
            self.max_cwnd,
            self.last_transfer_ms,
            self.cached_ssthresh,
            self.last_cached_ssthresh,
            self.later_connections_ms,
            self.all_flows_mbps,
            self.max_rtt_ms,
            self.slowest_exchange_ms,
            self.slowest_later_exchange_ms,
            self.exchange_bytes,
            self.first_exchange_ms,
        ]
    }

    /// The figures back from [`Results::values`] (the build's run cache
    /// stores them so).
    pub fn from_values(v: [f64; 18]) -> Results {
        Results {
            completion_ms: v[0],
            rtts: v[1],
            round_trips: v[2],
            first_flight_bytes: v[3],
            first_flight_segments: v[4],
            retransmits: v[5],
            goodput_mbps: v[6],
            max_cwnd: v[7],
            last_transfer_ms: v[8],
            cached_ssthresh: v[9],
            last_cached_ssthresh: v[10],
            later_connections_ms: v[11],
            all_flows_mbps: v[12],
            max_rtt_ms: v[13],
            slowest_exchange_ms: v[14],
            slowest_later_exchange_ms: v[15],
            exchange_bytes: v[16],
            first_exchange_ms: v[17],
        }
    }

    /// The figure called `name` (see [`METRICS`]), if the run has it.
    pub fn get(&self, name: &str) -> Option<f64> {
        let i = NAMES.iter().position(|n| *n == name)?;
        Some(self.values()[i]).filter(|v| v.is_finite())
    }

    /// `{"completion_ms":49.704,...}`: every figure there is, as a JSON
    /// number.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        for (name, v) in NAMES.iter().zip(self.values()) {
            if v.is_finite() {
                field(&mut out, name);
                out += &crate::units::shortest(v);
            }
        }
        out + "}"
    }
}

/// The longest of `transfers`, in ms; NaN for none.
fn slowest_ms(transfers: &[sim_core::analysis::TransferTiming]) -> f64 {
    (transfers.iter().map(|t| t.duration().0).max()).map_or(f64::NAN, |ns| ns as f64 / 1e6)
}

/// `{"rtt":"7ms",...}`: each parameter's value as a link writes it (see
/// `url_state`), so that `data-rtt="7ms"` on a placeholder runs it again.
/// The text is the catalogue's (numbers, units, choice names): no quotes
/// to escape.
pub fn values_json(spec: &widget_catalogue::WidgetSpec, values: &[f64]) -> String {
    let mut out = String::new();
    for (p, v) in spec.params.iter().zip(values) {
        field(&mut out, p.name);
        out.push('"');
        out += &p.exact_text(*v);
        out.push('"');
    }
    out + "}"
}

/// Starts field `name` of a JSON object written by hand (the wasm has no
/// serde); the caller adds its value, and closes the object.
fn field(out: &mut String, name: &str) {
    out.push(if out.is_empty() { '{' } else { ',' });
    out.push('"');
    out.push_str(name);
    out.push_str("\":");
}

#[cfg(test)]
mod tests {
    #[test]
    fn from_values_gives_back_every_figure_in_order() {
        let v: [f64; 18] = std::array::from_fn(|i| i as f64 + 0.5);
        assert_eq!(Results::from_values(v).values(), v);
    }

    use super::*;
    use sim_core::analysis;

    fn seed_004() -> sim_core::sim::RunResult {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../scenarios/seed-004-512k-7ms.toml"
        ))
        .unwrap();
        let scenario = sim_core::scenario_file::parse(&text).unwrap().1;
        sim_core::sim::run(&scenario).unwrap()
    }

    #[test]
    fn the_figures_are_the_simulators_own() {
        let run = seed_004();
        let s = analysis::summarize(&run);
        let r = Results::of_run(&run);
        let done = s.completion.expect("seed 004 completes").0 as f64;
        assert_eq!(r.completion_ms, done / 1e6);
        assert_eq!(r.rtts, done / run.scenario.path.rtt().0 as f64);
        assert_eq!(r.round_trips, s.flights.len() as f64);
        assert_eq!(r.round_trips, 6.0, "512 KiB from initcwnd 10");
        assert_eq!(r.first_flight_segments, s.flights[0].segments as f64);
        assert_eq!(r.first_flight_segments, 10.0);
        assert_eq!(r.first_flight_bytes, s.flights[0].bytes as f64);
        assert_eq!(r.retransmits, s.retransmissions as f64);
        // The largest cwnd is at least the last, and the trace's own maximum.
        let trace_max = analysis::cwnd_series(&run.trace, sim_core::segment::Side::Server, 10)
            .into_iter()
            .map(|(_, c)| c)
            .max()
            .unwrap();
        assert_eq!(r.max_cwnd, trace_max as f64);
        assert!(r.max_cwnd >= s.final_cwnd.unwrap() as f64);
        let last = s.transfers.last().unwrap();
        assert_eq!(r.last_transfer_ms, last.duration().0 as f64 / 1e6);
        // 512 KiB read over the completion time.
        let want = last.bytes as f64 * 8.0 / (done / 1e9) / 1e6;
        assert!((r.goodput_mbps - want).abs() < 1e-9 * want, "{r:?}");
    }

    /// `of_run` skips the views; it must read what the page reads, also past
    /// the packets a long run's trace stored (retransmissions then come from
    /// the socket's own count).
    #[test]
    fn a_run_reads_as_its_model_reads() {
        let model_way = |run: &sim_core::sim::RunResult| {
            Results::of_model(&super::super::model::Model::from_run(run))
        };
        let run = seed_004();
        // As JSON: a figure the run lacks is NaN, which equals nothing.
        assert_eq!(Results::of_run(&run).to_json(), model_way(&run).to_json());
        let spec = widget_catalogue::widget("long-fat").unwrap();
        let values = crate::params::preset_values(spec, "seed-003-cubic").unwrap();
        let run = sim_core::sim::run(&super::super::scenario::build(spec, &values)).unwrap();
        assert!(
            run.trace.skipped() > 0,
            "the long run outgrows its packet budget"
        );
        let r = Results::of_run(&run);
        assert_eq!(r.to_json(), model_way(&run).to_json());
        assert!(
            r.retransmits > analysis::summarize(&run).retransmissions as f64,
            "{r:?}"
        );
    }

    /// The all-flows figure adds every flow's bytes read: two identical
    /// flows of a 512 KiB response read twice as much as flow 0 alone, in
    /// the same time; the largest srtt is flow 0's largest sample.
    #[test]
    fn all_flows_add_up_and_the_largest_rtt_is_a_sample() {
        let mut s = seed_004().scenario;
        s.flows = 2;
        s.time_limit = sim_core::time::SimDuration::from_millis(300);
        s.app.response = vec![1 << 30];
        let run = sim_core::sim::run(&s).unwrap();
        let r = Results::of_run(&run);
        let read = |f: u16| {
            (run.trace.summary_records().iter().rev())
                .filter(|x| x.flow == f)
                .find_map(|x| match x.event {
                    sim_core::trace::TraceEvent::Sample { delivered, .. } => Some(delivered),
                    _ => None,
                })
                .unwrap()
        };
        let want = (read(0) + read(1)) as f64 * 8.0 / 0.3 / 1e6;
        assert!(
            (r.all_flows_mbps - want).abs() < 1e-6 * want,
            "{r:?} vs {want}"
        );
        assert!(r.max_rtt_ms >= 7.0, "at least the path's 7 ms: {r:?}");
        assert_eq!(
            r.to_json(),
            Results::of_model(&super::super::model::Model::from_run(&run)).to_json()
        );
    }

    #[test]
    fn figures_read_by_name_and_as_json() {
        let r = Results::of_run(&seed_004());
        assert_eq!(r.get("round_trips"), Some(6.0));
        assert_eq!(r.get("max_cwnd"), Some(r.max_cwnd));
        assert_eq!(r.get("nonsense"), None);
        let json = r.to_json();
        assert!(json.starts_with("{\"completion_ms\":"), "{json}");
        assert!(json.contains(",\"round_trips\":6,"), "{json}");
        assert!(json.contains(",\"first_flight_segments\":10,"), "{json}");
        // One connection: no cache, no later connections; one exchange: no later exchange.
        let present = r.values().iter().filter(|v| v.is_finite()).count();
        assert_eq!(present, METRICS.len() - 4);
        assert_eq!(json.matches(':').count(), present, "{json}");
        // A run that did not complete leaves out what it has not.
        let none = Results {
            completion_ms: f64::NAN,
            rtts: f64::NAN,
            last_transfer_ms: f64::NAN,
            slowest_exchange_ms: f64::NAN,
            slowest_later_exchange_ms: f64::NAN,
            exchange_bytes: f64::NAN,
            first_exchange_ms: f64::NAN,
            ..r
        };
        assert_eq!(none.get("rtts"), None);
        let json = none.to_json();
        assert!(!json.contains("completion_ms") && !json.contains("rtts"));
        assert!(json.starts_with("{\"round_trips\":6,"), "{json}");
    }

    /// The connections widget's figures: what the first close cached, what
    /// the last left, and the later connections' mean time.
    #[test]
    fn the_cache_figures_are_the_runs_own() {
        let spec = widget_catalogue::widget("connections").unwrap();
        let values = crate::params::preset_values(spec, "lossy-first-saved").unwrap();
        let run = sim_core::sim::run(&super::super::scenario::build(spec, &values)).unwrap();
        let r = Results::of_run(&run);
        let cache = &run.tcp_metrics.after_close;
        assert_eq!(r.cached_ssthresh, cache[0].unwrap().ssthresh as f64);
        assert_eq!(r.last_cached_ssthresh, cache[3].unwrap().ssthresh as f64);
        assert!(r.last_cached_ssthresh > r.cached_ssthresh, "{r:?}");
        let t = analysis::summarize(&run).transfers;
        let mean = t[1..]
            .iter()
            .map(|t| t.duration().0 as f64 / 1e6)
            .sum::<f64>()
            / 3.0;
        assert_eq!(r.later_connections_ms, mean);
        // Today's default caches no ssthresh: no such figure.
        let values = crate::params::preset_values(spec, "lossy-first-today").unwrap();
        let run = sim_core::sim::run(&super::super::scenario::build(spec, &values)).unwrap();
        let today = Results::of_run(&run);
        assert_eq!(today.get("cached_ssthresh"), None);
        assert!(r.later_connections_ms >= 1.5 * today.later_connections_ms);
    }

    /// The default request-response run: a quick first exchange, then nine
    /// that wait for the server's delayed-ACK timer.
    #[test]
    fn the_exchange_figures_are_the_transfers_own() {
        let spec = widget_catalogue::widget("request-response").unwrap();
        let values = crate::params::initial(spec, &[]).values;
        let run = sim_core::sim::run(&super::super::scenario::build(spec, &values)).unwrap();
        let t = analysis::summarize(&run).transfers;
        let ms: Vec<f64> = t.iter().map(|x| x.duration().0 as f64 / 1e6).collect();
        let r = Results::of_run(&run);
        let later = ms[1..].iter().cloned().fold(0.0, f64::max);
        assert_eq!(r.slowest_later_exchange_ms, later);
        assert_eq!(r.slowest_exchange_ms, later.max(ms[0]));
        assert_eq!(r.first_exchange_ms, ms[0]);
        assert!(ms[0] < 3.0 && later > 35.0, "{ms:?}");
        assert_eq!(r.get("exchange_bytes"), Some(1000.0));
        // One exchange has no later ones.
        let mut one = values.clone();
        let i = spec
            .params
            .iter()
            .position(|p| p.name == "exchanges")
            .unwrap();
        one[i] = 1.0;
        let run = sim_core::sim::run(&super::super::scenario::build(spec, &one)).unwrap();
        let r = Results::of_run(&run);
        assert_eq!(r.get("slowest_later_exchange_ms"), None);
        assert_eq!(r.get("slowest_exchange_ms"), r.get("last_transfer_ms"));
    }

    #[test]
    fn values_read_as_a_link_writes_them() {
        let spec = widget_catalogue::widget("slow-start").unwrap();
        let values = crate::params::preset_values(spec, "seed-7ms").unwrap();
        let json = values_json(spec, &values);
        let rtt = spec.params.iter().position(|p| p.name == "rtt").unwrap();
        let want = format!("\"rtt\":\"{}\"", spec.params[rtt].exact_text(values[rtt]));
        assert!(json.starts_with('{') && json.contains(&want), "{json}");
        assert_eq!(json.matches("\":\"").count(), spec.params.len(), "{json}");
    }
}
