//! The buffers along the data's way, over time, in bytes, from the periodic
//! `Sample` records (seed 001's question: *which* buffer limits a transfer):
//!
//! ```text
//!   sender                                   receiver
//!   sk_sndbuf ≥ sk_wmem_queued ──► path ──►  sk_rcvbuf ≥ unread
//!                  ▲                                  │
//!                  └──── snd_wnd (the window it advertised)
//! ```
//!
//! `sk_wmem_queued` is what the sender's queued skbs are charged (unsent and
//! in flight, overhead included); a sender that keeps it at `sk_sndbuf` is
//! held by its buffer. `snd_wnd` is the receiver's last advertised window as
//! the sender holds it; 0 means the reader fell behind. Both are drawn
//! against the path's bandwidth-delay product (rate × base RTT): a window
//! below it caps throughput at window / RTT.
//!
//! The data flows the way the run sends more bytes: server → client (a
//! query's result) or, for an upload (seed case 5), client → server.

use super::bins::Binned;
use super::run_end_ns;
use super::table::{Table, ms, table_stride};
use sim_core::sim::RunResult;
use sim_core::tcp::info::{RecvInfo, SendInfo};
use sim_core::trace::TraceEvent;

/// One reading, bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BufferPoint {
    pub t_ns: f64,
    pub send: SendInfo,
    pub recv: RecvInfo,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BufferSeries {
    pub points: Vec<BufferPoint>,
    /// Whether the data flows client → server (the readings are the
    /// client's send buffer and the server's receive buffer).
    pub upload: bool,
    /// rate × base RTT, bytes.
    pub bdp_bytes: f64,
    pub end_ns: f64,
    /// Largest reading (bytes), the BDP left out.
    pub max_bytes: f64,
    pub(crate) sndbuf: Binned,
    pub(crate) wmem_queued: Binned,
    pub(crate) window: Binned,
    pub(crate) unread: Binned,
}

impl BufferSeries {
    pub fn from_run(run: &RunResult) -> Self {
        let app = &run.scenario.app;
        let upload = app.request_bytes() > app.response_bytes();
        let points: Vec<BufferPoint> = run
            .trace
            .flow_summary(0)
            .filter_map(|r| match r.event {
                TraceEvent::Sample {
                    info,
                    client,
                    client_send,
                    server_recv,
                    ..
                } => Some(BufferPoint {
                    t_ns: r.time.0 as f64,
                    send: if upload {
                        client_send
                    } else {
                        info.send_info()
                    },
                    recv: if upload { server_recv } else { client },
                }),
                _ => None,
            })
            .collect();
        let path = &run.scenario.path;
        let rtt_s = (path.delay_forward.0 + path.delay_reverse.0) as f64 / 1e9;
        let bdp_bytes = path.rate_bps as f64 * rtt_s / 8.0;
        let end_ns = run_end_ns(run).max(points.last().map_or(0.0, |p| p.t_ns));
        let max_bytes = points
            .iter()
            .map(|p| {
                (p.send.sndbuf.max(p.send.wmem_queued))
                    .max(p.send.snd_wnd)
                    .max(p.recv.unread) as f64
            })
            .fold(0.0, f64::max);
        let binned = |v: fn(&BufferPoint) -> u64| {
            Binned::build(
                end_ns,
                points.iter().map(|p| (p.t_ns, v(p) as f64, v(p) as f64)),
            )
        };
        BufferSeries {
            sndbuf: binned(|p| p.send.sndbuf),
            wmem_queued: binned(|p| p.send.wmem_queued),
            window: binned(|p| p.send.snd_wnd),
            unread: binned(|p| p.recv.unread),
            points,
            upload,
            bdp_bytes,
            end_ns,
            max_bytes,
        }
    }

    /// The reading in force at `t_ns` (the latest at or before it).
    pub fn at(&self, t_ns: f64) -> Option<&BufferPoint> {
        let i = self.points.partition_point(|p| p.t_ns <= t_ns);
        i.checked_sub(1).map(|i| &self.points[i])
    }

    /// Who sends and who receives, for captions.
    pub fn ends(&self) -> (&'static str, &'static str) {
        if self.upload {
            ("client", "server")
        } else {
            ("server", "client")
        }
    }

    pub fn table(&self) -> Table {
        let (stride, note) = table_stride(self.points.len());
        let (tx, rx) = self.ends();
        let bdp = self.bdp_bytes.round() as u64;
        Table {
            caption: format!(
                "The {tx}'s send buffer and the window the {rx} advertised, and the {rx}'s \
                 receive buffer, at each sample (bytes); the path's BDP is {bdp} B{note}"
            ),
            headers: [
                "time (ms)",
                "sk_sndbuf",
                "sk_wmem_queued",
                "snd_wnd",
                "sk_rcvbuf",
                "unread",
            ]
            .map(String::from)
            .to_vec(),
            rows: self
                .points
                .iter()
                .step_by(stride)
                .map(|p| {
                    let mut row = vec![ms(p.t_ns)];
                    row.extend(
                        [
                            p.send.sndbuf,
                            p.send.wmem_queued,
                            p.send.snd_wnd,
                            p.recv.rcvbuf,
                            p.recv.unread,
                        ]
                        .map(|v| v.to_string()),
                    );
                    row
                })
                .collect(),
        }
    }
}
