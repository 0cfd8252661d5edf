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
//! tcpsim run FILE --max-memory 4GiB --max-events 1e9  # a bigger budget than the default
//! tcpsim schema                                       # JSON Schema of scenario files
//! ```
//!
//! A file that cannot be used gets a message naming the file and the key, and
//! exit status 2; never a panic. So does one whose run would not fit the
//! budget (`sim::Budget::NATIVE`: 1 GiB, 100 million events, unless
//! `--max-memory`/`--max-events` say otherwise): its cost is estimated from
//! the file before anything runs, and the message names the keys that drive it.

use clap::{Parser, Subcommand, ValueEnum};
use serde_json::json;
use sim_core::analysis::summarize;
use sim_core::config::Kernel;
use sim_core::report;
use sim_core::scenario_file;
use sim_core::sim::{self, Budget, Outcome, RunError};
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
        /// Memory the run may take, e.g. "512MiB", "2GiB" or bytes
        /// [default: 1GiB]. A run estimated to need more is refused (exit
        /// status 2) before it starts.
        #[arg(long, value_name = "SIZE", value_parser = parse_memory)]
        max_memory: Option<u64>,
        /// Events the run may take (each application write() counts as one),
        /// e.g. "5e8" or "500000000" [default: 1e8, 20 to 35 s here]. A run
        /// estimated to take more is refused (exit status 2) before it starts.
        #[arg(long, value_name = "N", value_parser = parse_count)]
        max_events: Option<u64>,
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
            max_memory,
            max_events,
        } => {
            let default = Budget::NATIVE;
            let budget = Budget {
                max_memory_bytes: max_memory.unwrap_or(default.max_memory_bytes),
                max_events: max_events.unwrap_or(default.max_events),
            };
            run_file(&file, format, &interval, kernel, &budget)
        }
    }
}

/// `tcpsim run`, its output or its message.
fn run_file(
    file: &PathBuf,
    format: Format,
    interval: &str,
    kernel: Option<Kernel>,
    budget: &Budget,
) -> ExitCode {
    match run(file, format, interval, kernel, budget) {
        Ok(text) => emit(&text),
        Err(message) => {
            eprintln!("tcpsim: {}: {message}", file.display());
            ExitCode::from(2)
        }
    }
}

/// Whether the shell started tcpsim with descriptor 1 closed. Rust's
/// runtime opens `/dev/null` read-write on a closed standard descriptor
/// before `main` (so that a file opened later cannot take its number), and
/// writes to it then succeed; a shell's `> /dev/null` opens it write-only.
/// Linux only: read from `/proc`; elsewhere the output is written as is.
fn stdout_was_closed() -> bool {
    if !cfg!(target_os = "linux") {
        return false;
    }
    let null = std::fs::read_link("/proc/self/fd/1").is_ok_and(|p| p.as_os_str() == "/dev/null");
    // `flags:` in octal; O_ACCMODE is 3, O_RDWR 2.
    let read_write = || {
        let info = std::fs::read_to_string("/proc/self/fdinfo/1").unwrap_or_default();
        info.lines()
            .find_map(|l| l.strip_prefix("flags:"))
            .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
            .is_some_and(|f| f & 3 == 2)
    };
    null && read_write()
}

/// `--max-memory`: a size with its unit ("512MiB", "2GiB") or bytes.
fn parse_memory(text: &str) -> Result<u64, String> {
    match sim_core::units::parse_bytes(text) {
        Ok(0) => Err("must be more than 0 bytes".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

/// `--max-events`: a count, plain ("500000000") or with an exponent ("5e8").
fn parse_count(text: &str) -> Result<u64, String> {
    let t = text.trim().replace('_', "");
    if let Ok(n) = t.parse::<u64>() {
        return (n > 0).then_some(n).ok_or("must be more than 0".into());
    }
    match t.parse::<f64>() {
        Ok(x) if x >= 1.0 && x < u64::MAX as f64 && x.fract() == 0.0 => Ok(x as u64),
        _ => Err(format!(
            "`{text}` is not a whole number of events (e.g. 5e8)"
        )),
    }
}

/// The most a scenario file may hold. The book's largest is under 3 KB; a
/// drop list of a few thousand packets fits many times over. Anything
/// bigger is not a scenario (`/dev/zero`, a capture or a log named by
/// mistake) and is refused after reading at most this much, never read
/// whole first.
const MAX_SCENARIO_BYTES: u64 = 1 << 20;

/// The text of a scenario file, read as a stream up to
/// [`MAX_SCENARIO_BYTES`].
fn read_scenario(file: &PathBuf) -> Result<String, String> {
    use std::io::Read;
    let f = std::fs::File::open(file).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    f.take(MAX_SCENARIO_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_SCENARIO_BYTES {
        return Err(format!(
            "over {} KiB: not a scenario file (the largest the book ships is a few KB)",
            MAX_SCENARIO_BYTES >> 10
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (byte {} is not): not a scenario file",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Writes the output. A reader that stops early (`tcpsim ... | head`) is not an
/// error; anything else is reported, never a panic. So is a closed standard
/// output (`tcpsim run FILE >&-`), where the run's output would otherwise be
/// lost with exit status 0 (see [`stdout_was_closed`]).
fn emit(text: &str) -> ExitCode {
    use std::io::Write;
    if stdout_was_closed() {
        eprintln!("tcpsim: writing the output: standard output is closed");
        return ExitCode::from(1);
    }
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
    budget: &Budget,
) -> Result<String, String> {
    let interval =
        sim_core::units::parse_duration(interval).map_err(|e| format!("--interval: {e}"))?;
    let text = read_scenario(file)?;
    let mut spec = scenario_file::read(&text).map_err(|e| e.to_string())?;
    if let Some(k) = kernel {
        spec.set_kernel(k);
    }
    let scenario = spec.to_scenario().map_err(|e| e.to_string())?;
    let result = sim::run_within(&scenario, budget).map_err(|e| match e {
        RunError::OverBudget(e) => {
            let flag = match (e.limit, e.also) {
                (_, Some(_)) => "--max-memory and --max-events",
                (sim::Limit::Memory, None) => "--max-memory",
                (sim::Limit::Events, None) => "--max-events",
            };
            format!("{e}, or pass {flag}")
        }
        RunError::Config(e) => e.to_string(),
    })?;
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
                Outcome::MemoryLimit { at } => ("memory-limit", at),
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
