//! `tcpsim` as readers and scripts use it: every scenario file runs, bad files
//! get a message naming the file and the key with exit status 2, and the
//! committed JSON Schema matches the code.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tcpsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tcpsim"))
        .args(args)
        .output()
        .expect("tcpsim runs")
}

fn scenarios() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios")
}

fn write_temp(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("tcpsim-{}-{name}.toml", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn every_scenario_file_runs_and_reports_json() {
    let mut n = 0;
    for entry in std::fs::read_dir(scenarios()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "toml") {
            continue;
        }
        n += 1;
        let out = tcpsim(&["run", path.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // Each case's own test checks its outcome; here: a run that ends without
        // completing must say why (one case models a receiver that never reads).
        match v["outcome"].as_str().unwrap() {
            "completed" => assert!(v["completion_ms"].as_f64().unwrap() > 0.0),
            "time-limit" => assert!(v["completion_ms"].is_null()),
            "aborted" => assert!(v["gave_up"]["reason"].is_string(), "{v}"),
            other => panic!("{}: unexpected outcome {other}", path.display()),
        }
    }
    assert!(n >= 5, "found {n} scenario files");
}

#[test]
fn csv_and_trace_formats_describe_the_same_run() {
    let file = scenarios().join("seed-004-512k-7ms.toml");
    let csv = String::from_utf8(tcpsim(&["run", file.to_str().unwrap(), "--format", "csv"]).stdout)
        .unwrap();
    assert!(csv.starts_with(
        "time_ms,cwnd,ssthresh,bytes_in_flight,rwnd,srtt_ms,pacing_rate_bps,cc_mode\n"
    ));
    // The request's arrival (nothing in flight yet), then the first data segment
    // leaves at the same instant: cwnd 10, no ssthresh yet, the client's 502 x 128 window.
    let rows: Vec<&str> = csv.lines().skip(1).take(2).collect();
    assert_eq!(
        rows,
        ["10.502552,10,,0,64256,,0,", "10.502552,10,,1448,64256,,0,"]
    );
    // Once ACKs return, the smoothed RTT appears: about the 7 ms path RTT.
    let srtt: f64 = csv
        .lines()
        .filter_map(|l| l.split(',').nth(5))
        .filter(|v| !v.is_empty())
        .nth(5)
        .unwrap()
        .parse()
        .unwrap();
    assert!((7.0..7.5).contains(&srtt), "{srtt}");
    let trace =
        String::from_utf8(tcpsim(&["run", file.to_str().unwrap(), "--format", "trace"]).stdout)
            .unwrap();
    assert!(
        trace
            .lines()
            .next()
            .unwrap()
            .contains("client > server: Flags [S], seq 0:1")
    );
    assert!(trace.contains("flight 6"));
    assert!(!trace.contains("flight 7"));
}

#[test]
fn a_malformed_file_names_the_file_and_the_line() {
    let p = write_temp("malformed", "format = 1\n[path\nrate = 1\n");
    let out = tcpsim(&["run", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!("tcpsim: {}:", p.display())),
        "{err}"
    );
    assert!(err.contains("line 2"), "{err}");
}

#[test]
fn an_out_of_range_value_names_the_key_and_the_range() {
    let text = std::fs::read_to_string(scenarios().join("seed-004-initcwnd-100.toml"))
        .unwrap()
        .replace("initcwnd = 100", "initcwnd = 0");
    let p = write_temp("range", &text);
    let out = tcpsim(&["run", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("key `server.route.initcwnd`: 0 is outside the allowed range 1 to 1000"),
        "{err}"
    );
}

#[test]
fn a_run_that_gives_up_says_which_host_and_which_limit() {
    // Half the client's packets lost and one SYN retransmission allowed: with
    // this seed both SYNs are lost, and connect() fails 3 s after the first
    // (tcp_write_timeout: tcp_model_timeout(1, 1 s)).
    let text = r#"format = 1
name = "unanswered-syn"
seed = 7
[path]
rate = "1Gbit"
rtt = "7ms"
loss = 0.5
loss_direction = "acks"
[client.sysctl]
"net.ipv4.tcp_syn_retries" = 1
[app]
type = "request-response"
request = "147B"
response = "10KiB"
"#;
    let p = write_temp("gave-up", text);
    let out = tcpsim(&["run", p.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["outcome"], "aborted");
    assert_eq!(v["end_ms"], 3000.0);
    assert_eq!(v["gave_up"]["side"], "client");
    assert_eq!(v["gave_up"]["reason"], "syn-retries");
    assert_eq!(v["gave_up"]["sysctl"], "net.ipv4.tcp_syn_retries");
}

#[test]
fn a_missing_file_is_an_error_not_a_panic() {
    let out = tcpsim(&["run", "/nonexistent/scenario.toml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/scenario.toml"));
}

/// A file that is no scenario, however big or endless, is refused after
/// reading at most a mebibyte of it: never read whole first.
#[test]
fn an_endless_or_huge_file_is_refused_after_its_first_mebibyte() {
    // /dev/zero never ends: read whole, it would exhaust memory.
    let out = tcpsim(&["run", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/dev/zero: over 1024 KiB"), "{err}");
    // A file one byte over the limit, of valid TOML comments: refused on its size.
    let big = write_temp("big", &format!("#{}\n", "x".repeat(1 << 20)));
    let out = tcpsim(&["run", big.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("over 1024 KiB"));
    // Binary data (the tcpsim executable itself): not UTF-8, not a panic.
    let small_binary = std::env::temp_dir().join(format!("tcpsim-{}-bin.toml", std::process::id()));
    std::fs::write(&small_binary, [b'#', 0xff, 0xfe, b'\n']).unwrap();
    let out = tcpsim(&["run", small_binary.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not UTF-8 text (byte 1 is not)"));
}

/// `tcpsim run FILE >&-`: the output cannot be written, so the run fails
/// (exit status 1, with a message) instead of losing it with status 0.
#[test]
fn a_closed_standard_output_is_an_error() {
    let file = scenarios().join("seed-002-4mb-new-connection.toml");
    let run = |redirect: &str| {
        Command::new("sh")
            .arg("-c")
            .arg(format!("\"$0\" run \"$1\" {redirect}"))
            .arg(env!("CARGO_BIN_EXE_tcpsim"))
            .arg(&file)
            .output()
            .expect("sh runs")
    };
    let closed = run(">&-");
    assert_eq!(closed.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&closed.stderr).contains("standard output is closed"));
    // Thrown away on purpose is not closed.
    assert_eq!(run(">/dev/null").status.code(), Some(0));
}

#[test]
fn the_committed_json_schema_matches_the_code() {
    let committed = std::fs::read_to_string(scenarios().join("scenario.schema.json")).unwrap();
    let generated = String::from_utf8(tcpsim(&["schema"]).stdout).unwrap();
    assert_eq!(
        committed.trim(),
        generated.trim(),
        "regenerate with: cargo run -p sim-core --bin tcpsim -- schema > scenarios/scenario.schema.json"
    );
}

#[test]
fn the_iperf_report_adds_up_to_the_whole_transfer() {
    let file = scenarios().join("seed-000-no-window-scaling.toml");
    let out =
        String::from_utf8(tcpsim(&["run", file.to_str().unwrap(), "--format", "iperf"]).stdout)
            .unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("[ ID] Interval"));
    assert!(
        lines[1].starts_with("[  5]   0.00-1.00   sec"),
        "{}",
        lines[1]
    );
    // 20 MiB in total, whatever the intervals.
    assert!(lines.last().unwrap().contains("20.00 MBytes"), "{out}");
    // Without window scaling, each full second carries about 65535 B / 35 ms ≈ 15 Mbit/s.
    assert!(lines[3].contains("Mbits/sec"));
    let mbit: f64 = lines[3]
        .split("MBytes")
        .nth(1)
        .unwrap()
        .split("Mbits")
        .next()
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!((13.0..15.1).contains(&mbit), "{mbit}");
}

#[test]
fn the_samples_csv_has_one_row_per_sample_with_buffer_use() {
    let file = scenarios().join("seed-000-so-sndbuf-16k.toml");
    let out =
        String::from_utf8(tcpsim(&["run", file.to_str().unwrap(), "--format", "samples"]).stdout)
            .unwrap();
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header[0], "time_ms");
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    // Every 100 ms over the ~25 s transfer, plus the final reading.
    assert!(rows.len() > 240, "{} rows", rows.len());
    assert_eq!(rows[0][col("time_ms")], "100.000");
    assert!(rows.iter().all(|r| r.len() == header.len()));
    assert!(rows.iter().all(|r| r[col("sndbuf")] == "32000"));
    let last = rows.last().unwrap();
    assert_eq!(last[col("delivered_bytes")], "22000000");
}

#[test]
fn the_ss_line_describes_the_servers_socket() {
    let file = scenarios().join("seed-004-512k-7ms.toml");
    let out = String::from_utf8(tcpsim(&["run", file.to_str().unwrap(), "--format", "ss"]).stdout)
        .unwrap();
    // `skmem:(r,rb,tb,w)` first, as `ss -tmi` prints it, then the `-i` fields.
    assert!(out.starts_with("skmem:(r0,rb"), "{out}");
    assert!(out.contains(") cubic wscale:7,7 rto:"), "{out}");
    for field in [
        "mss:1448",
        "bytes_sent:524288",
        "data_segs_out:363",
        "bytes_retrans:0",
    ] {
        assert!(out.contains(field), "{field} in {out}");
    }
    // srtt is close to the 7 ms path RTT plus serialisation and queueing.
    let rtt: f64 = out
        .split("rtt:")
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((7.0..9.0).contains(&rtt), "{rtt}");
}

#[test]
fn a_reader_that_stops_early_is_not_an_error() {
    // `tcpsim run FILE --format trace | head`: stdout closes while tcpsim writes.
    use std::io::Read;
    use std::process::Stdio;
    let file = scenarios().join("seed-000-no-window-scaling.toml");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tcpsim"))
        .args(["run", file.to_str().unwrap(), "--format", "trace"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn the_kernel_flag_sets_both_hosts_era_over_the_file() {
    let file = scenarios().join("seed-004-512k-7ms.toml");
    let ss = |extra: &[&str]| {
        let mut args = vec!["run", file.to_str().unwrap(), "--format", "ss"];
        args.extend_from_slice(extra);
        let out = tcpsim(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    // Today's tcp_rmem[2] is 32 MiB (6.16): both SYNs offer scale 10, where
    // 4.18's 6 MiB needs 7.
    assert!(ss(&["--kernel", "today"]).contains(") cubic wscale:10,10 "));
    assert!(ss(&["--kernel", "4.18"]).contains(") cubic wscale:7,7 "));
    // The flag wins over the file: one that names 4.18 runs today's kernel.
    // The file's client runs 5.5 and its server 4.18: make both 4.18.
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replace("kernel = \"5.5\"", "kernel = \"4.18\"");
    let p = write_temp("kernel-flag", &text);
    let out = tcpsim(&[
        "run",
        p.to_str().unwrap(),
        "--format",
        "ss",
        "--kernel",
        "today",
    ]);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        ss(&["--kernel", "today"])
    );
}

#[test]
fn an_unknown_kernel_is_refused_with_the_known_ones() {
    let file = scenarios().join("seed-004-512k-7ms.toml");
    let out = tcpsim(&["run", file.to_str().unwrap(), "--kernel", "4.19"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`4.19` is not a kernel the simulator knows"),
        "{err}"
    );
    assert!(
        err.contains("(known: 2.6.32, 3.10, 4.18, 5.5, today)"),
        "{err}"
    );
    // The same in a file, naming the key.
    let text = std::fs::read_to_string(&file).unwrap();
    let p = write_temp(
        "kernel",
        &text.replace("kernel = \"4.18\"", "kernel = \"6.18\""),
    );
    let out = tcpsim(&["run", p.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("key `server.kernel`: `6.18` is not a kernel the simulator knows (known: 2.6.32, 3.10, 4.18, 5.5, today)"), "{err}");
}

/// 6 % loss may stall a transfer, so the estimate takes the run to last its
/// day: a sample every 500 µs for a day is 1.7e8 samples (78 GiB). The run
/// itself completes in 264 ms of simulated time.
const FINE_SAMPLES_OVER_A_DAY: &str = r#"
format = 1
name = "lossy-fine-samples"
time_limit = "86400s"
sample_interval = "500us"
[path]
rate = "100Mbit"
rtt = "10ms"
loss = 0.06
[app]
type = "request-response"
request = "100B"
response = "100KB"
"#;

#[test]
fn a_run_over_the_budget_is_refused_naming_the_keys_and_the_flags_move_the_limits() {
    let file = write_temp("over-budget", FINE_SAMPLES_OVER_A_DAY);
    let path = file.to_str().unwrap();
    let out = tcpsim(&["run", path]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "tcpsim: {path}: `sample_interval` = 500 µs and `time_limit` = 86400 s would keep about 1.7e8 samples"
        )),
        "{err}"
    );
    assert!(err.contains("over the 1 GiB memory limit"), "{err}");
    assert!(
        err.contains(
            "raise `sample_interval` or shorten `time_limit`, or pass --max-memory and --max-events"
        ),
        "{err}"
    );
    // Raising one limit is not enough: the other names itself.
    let out = tcpsim(&["run", path, "--max-memory", "128GiB"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("over the limit of 1.0e8 events"), "{err}");
    assert!(err.ends_with("or pass --max-events\n"), "{err}");
    // Raising both lets it run.
    let out = tcpsim(&["run", path, "--max-memory", "128GiB", "--max-events", "1e9"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["outcome"], "completed");
    // Lowering one refuses a seed scenario that runs by default.
    let seed = scenarios().join("seed-004-512k-7ms.toml");
    let seed = seed.to_str().unwrap();
    assert!(tcpsim(&["run", seed]).status.success());
    let out = tcpsim(&["run", seed, "--max-events", "1000"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`app.response` = 512 KiB would take about")
            && err.contains(
                "over the limit of 1000 events; lower `app.response`, or pass --max-events"
            ),
        "{err}"
    );
    let out = tcpsim(&["run", seed, "--max-memory", "1MiB"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("over the 1 MiB memory limit; lower `app.response`, or pass --max-memory")
    );
    // Bad limits are usage errors, as clap reports them (status 2 too).
    for bad in [
        ["--max-events", "0"],
        ["--max-events", "many"],
        ["--max-memory", "12XB"],
    ] {
        let out = tcpsim(&["run", seed, bad[0], bad[1]]);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(bad[0]),
            "{bad:?}"
        );
    }
    std::fs::remove_file(file).unwrap();
}
