//! Text reports derived from a run's trace, one output a file: the CSV time
//! series of the data sender's state and the samples CSV (`csv`), a
//! tcpdump-like listing (`tcpdump`), an iperf3-style report (`iperf`), the
//! `ss -tin` line and `ip tcp_metrics show` (`ss`), and the settings in
//! effect (`settings`). (The JSON summary is assembled by `tcpsim` from
//! [`crate::analysis::Summary`].)

mod csv;
mod iperf;
mod settings;
mod ss;
mod tcpdump;

pub use csv::{csv_samples, csv_samples_of, csv_series};
pub use iperf::iperf;
pub use settings::settings;
pub use ss::{
    established, skmem, ss_client_line, ss_line, ss_line_of, ss_no_connection, tcp_metrics_show,
};
pub use tcpdump::trace_lines;
