//! One row per connection of a run that opens a new connection for each
//! transfer (seed case 11, the tcp_metrics cache): the server's cwnd and
//! ssthresh over the connection's *own* time, from its handshake to the
//! client's reading of its last byte, so that rows line up at their
//! starts and a connection that began with a small cached ssthresh shows
//! its early bend under the others.
//!
//! ```text
//!   #1 ─╱‾╲_╱‾‾‾‾  (lossy)             ████████████  1.9 s
//!   #2 ─╱‾‾‾‾‾‾‾‾  ssthresh from cache ██████████████████  3.1 s
//! ```
//!
//! A connection opens when the server's handshake completes (its
//! `Established` record, where `tcp_init_metrics` has run) and ends with the
//! transfer's `TransferComplete`. Its cwnd starts at the route's initcwnd;
//! its ssthresh is the one the first change after the open reports, which
//! is what `tcp_init_metrics` took from the cache (or "infinite").

use super::table::{Table, ms};
use sim_core::cc::TCP_INFINITE_SSTHRESH;
use sim_core::segment::Side;
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;

/// A change of cwnd or ssthresh, `dt_ns` after the connection opened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowPoint {
    pub dt_ns: f64,
    pub cwnd: u32,
    /// `None` while still infinite.
    pub ssthresh: Option<u32>,
}

/// One connection.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// When the server's side opened and when the client had read the
    /// whole transfer (run time, ns); `None`: it never finished.
    pub opened_ns: f64,
    pub finished_ns: Option<f64>,
    /// The state at the open, then every change.
    pub points: Vec<RowPoint>,
}

impl Row {
    /// How long the connection took from its open (ns), if it finished.
    pub fn duration_ns(&self) -> Option<f64> {
        self.finished_ns.map(|f| f - self.opened_ns)
    }

    /// The ssthresh it opened with (what the cache gave it), if finite.
    pub fn initial_ssthresh(&self) -> Option<u32> {
        self.points.first().and_then(|p| p.ssthresh)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConnectionsSeries {
    pub rows: Vec<Row>,
    /// The longest row (ns since its open): the shared time axis.
    pub longest_ns: f64,
    /// The largest cwnd or finite ssthresh of any row (segments).
    pub max_segments: f64,
}

impl ConnectionsSeries {
    pub fn from_run(run: &RunResult) -> Self {
        let initcwnd = run.scenario.server.sender.initcwnd;
        let end_ns = super::run_end_ns(run);
        let mut rows: Vec<Row> = Vec::new();
        let mut finished: Vec<f64> = Vec::new();
        for r in run.trace.flow_summary(0) {
            let t = r.time.0 as f64;
            match r.event {
                TraceEvent::Established { side: Side::Server } => rows.push(Row {
                    opened_ns: t,
                    finished_ns: None,
                    points: vec![RowPoint {
                        dt_ns: 0.0,
                        cwnd: initcwnd,
                        ssthresh: None,
                    }],
                }),
                TraceEvent::CwndChanged {
                    side: Side::Server,
                    old,
                    new,
                    ssthresh,
                } => {
                    let Some(row) = rows.last_mut() else { continue };
                    let ssthresh = (ssthresh < TCP_INFINITE_SSTHRESH).then_some(ssthresh);
                    if row.points.len() == 1 {
                        // The first change says what the open left: cwnd
                        // before it, and the ssthresh the cache gave.
                        row.points[0] = RowPoint {
                            dt_ns: 0.0,
                            cwnd: old,
                            ssthresh,
                        };
                    }
                    row.points.push(RowPoint {
                        dt_ns: t - row.opened_ns,
                        cwnd: new,
                        ssthresh,
                    });
                }
                TraceEvent::TransferComplete { .. } => finished.push(t),
                _ => {}
            }
        }
        // The k-th transfer completes on the k-th connection.
        for (row, f) in rows.iter_mut().zip(finished) {
            row.finished_ns = Some(f);
        }
        let longest_ns = rows
            .iter()
            .map(|r| r.finished_ns.unwrap_or(end_ns) - r.opened_ns)
            .fold(0.0, f64::max);
        let max_segments = rows
            .iter()
            .flat_map(|r| &r.points)
            .map(|p| p.cwnd.max(p.ssthresh.unwrap_or(0)) as f64)
            .fold(1.0, f64::max);
        ConnectionsSeries {
            rows,
            longest_ns,
            max_segments,
        }
    }

    pub fn table(&self) -> Table {
        let opt = |v: Option<u32>| v.map_or(String::from("∞"), |v| v.to_string());
        Table {
            caption: "Each connection: when it opened, the ssthresh it opened with (from the \
                      tcp_metrics cache, or infinite), its largest cwnd and how long it took \
                      from its open to the client's read of its last byte"
                .into(),
            headers: [
                "connection",
                "opened (ms)",
                "ssthresh at open",
                "largest cwnd",
                "time (ms)",
            ]
            .map(String::from)
            .to_vec(),
            rows: self
                .rows
                .iter()
                .enumerate()
                .map(|(k, r)| {
                    let max_cwnd = r.points.iter().map(|p| p.cwnd).max().unwrap_or(0);
                    vec![
                        (k + 1).to_string(),
                        ms(r.opened_ns),
                        opt(r.initial_ssthresh()),
                        max_cwnd.to_string(),
                        r.duration_ns().map_or(String::from("unfinished"), ms),
                    ]
                })
                .collect(),
        }
    }
}
