//! `tcpsim`: run a scenario file and print what happened.
//!
//! ```text
//! tcpsim run scenarios/seed-004-7ms.toml              # JSON summary
//! tcpsim run FILE --format csv                        # cwnd, ssthresh, in flight, rwnd over time
//! tcpsim run FILE --format trace                      # every packet, tcpdump-like
//! tcpsim run FILE --format iperf --interval 1s        # iperf3-style per-interval report
//! tcpsim run FILE --format ss                         # the server socket as `ss -tin` shows it
//! tcpsim run FILE --format tcp-metrics                # the server's cache, as `ip tcp_metrics show`
//! tcpsim run FILE --kernel 4.18                       # both hosts run another kernel era
//! tcpsim schema                                       # JSON Schema of scenario files
//! ```
//!
//! A file that cannot be used gets a message naming the file and the key, and
//! exit status 2; never a panic.

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;
use sim_core::analysis::summarize;
use sim_core::config::Kernel;
use sim_core::report;
use sim_core::scenario_file;
use sim_core::sim::{self, Outcome};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "tcpsim",
    version,
    about = "Deterministic TCP simulator that follows Linux"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a scenario file.
    Run {
        file: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
        /// Report interval for `--format iperf`, e.g. "1s", "100ms".
        #[arg(long, default_value = "1s")]
        interval: String,
        /// Both hosts run this kernel, whatever the file says: "today" (6.18),
        /// "5.5", "4.18", "3.10" or "2.6.32". Its defaults come first, then the
        /// file's sysctls, socket options and routes.
        #[arg(long, value_parser = Kernel::parse)]
        kernel: Option<Kernel>,
    },
    /// Print the JSON Schema of scenario files.
    Schema,
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Json,
    Csv,
    /// One row per flow per `sample_interval`: TCP_INFO and buffer use.
    Samples,
    Iperf,
    Ss,
    TcpMetrics,
    Trace,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Schema => {
            let schema = serde_json::to_string_pretty(&scenario_file::json_schema())
                .expect("schema serialises");
            emit(&(schema + "\n"))
        }
        Command::Run {
            file,
            format,
            interval,
            kernel,
        } => match run(&file, format, &interval, kernel) {
            Ok(text) => emit(&text),
            Err(message) => {
                eprintln!("tcpsim: {}: {message}", file.display());
                ExitCode::from(2)
            }
        },
    }
}

/// Writes the output. A reader that stops early (`tcpsim ... | head`) is not an
/// error; anything else is reported, never a panic.
fn emit(text: &str) -> ExitCode {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tcpsim: writing the output: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(
    file: &PathBuf,
    format: Format,
    interval: &str,
    kernel: Option<Kernel>,
) -> Result<String, String> {
    let interval =
        sim_core::units::parse_duration(interval).map_err(|e| format!("--interval: {e}"))?;
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let mut spec = scenario_file::read(&text).map_err(|e| e.to_string())?;
    if let Some(k) = kernel {
        spec.set_kernel(k);
    }
    let scenario = spec.to_scenario().map_err(|e| e.to_string())?;
    let result = sim::run(&scenario).map_err(|e| e.to_string())?;
    Ok(match format {
        Format::Csv => report::csv_series(&result),
        Format::Samples => report::csv_samples(&result),
        Format::Trace => report::trace_lines(&result),
        Format::Iperf => report::iperf(&result, interval),
        Format::Ss => report::ss_line(&result),
        Format::TcpMetrics => report::tcp_metrics_show(&result),
        Format::Json => {
            let s = summarize(&result);
            let (outcome, at) = match result.outcome {
                Outcome::Completed { at } => ("completed", at),
                Outcome::TimeLimit { at } => ("time-limit", at),
                Outcome::EventLimit { at } => ("event-limit", at),
                Outcome::Aborted { at, .. } => ("aborted", at),
            };
            let mut v = json!({
                "format": 1,
                "name": spec.name,
                "outcome": outcome,
                "end_ms": at.as_millis_f64(),
                "completion_ms": s.completion.map(|t| t.as_millis_f64()),
                "round_trips": s.round_trips(),
                "flights": s.flights.iter().map(|f| json!({
                    "index": f.index, "segments": f.segments, "bytes": f.bytes, "start_ms": f.start.as_millis_f64(),
                })).collect::<Vec<_>>(),
                "transfers": s.transfers.iter().map(|t| json!({
                    "index": t.index, "bytes": t.bytes,
                    "started_ms": t.started.as_millis_f64(), "finished_ms": t.finished.as_millis_f64(),
                    "duration_ms": t.duration().as_millis_f64(),
                })).collect::<Vec<_>>(),
                "data_segments": s.data_segments,
                "retransmissions": s.retransmissions,
                "drops": s.drops,
                "final_cwnd": s.final_cwnd,
                "flows": sim_core::analysis::flow_totals(&result).iter().map(|f| json!({
                    "flow": f.flow,
                    "delivered_bytes": f.delivered,
                    "bitrate_mbps": f.bitrate / 1e6,
                    "retransmissions": f.retransmits,
                })).collect::<Vec<_>>(),
                "events": result.events,
                "trace_records": result.trace.len(),
                "trace_hash": format!("{:016x}", result.trace.hash()),
            });
            if let Some((side, reason)) = result.outcome.gave_up() {
                // Which limit ended the run: only when one did, so that other
                // runs' output stays as it was.
                v["gave_up"] = json!({
                    "side": side.name(),
                    "reason": reason.name(),
                    "sysctl": reason.sysctl(),
                    "description": reason.describe(),
                });
            }
            serde_json::to_string_pretty(&v).expect("JSON value serialises") + "\n"
        }
    })
}
