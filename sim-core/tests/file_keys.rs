//! A scenario file's every error names a key the reader can write in a
//! scenario file, never one the reader did not write and cannot (the
//! model's own `client.mss` for a `path.mtu` out of range, or
//! `client.rcvbuf_max` for a `tcp_rmem` in the wrong order). Files are drawn
//! with their keys at their extremes; each is read, checked against a small
//! budget, and, if it fits, run within it.
#![cfg(feature = "scenario-file")]

use proptest::prelude::*;
use sim_core::scenario_file;
use sim_core::sim::{Budget, Simulation};

/// `(section, key, values)`: a key and TOML values at and past its ends.
const KEYS: &[(&str, &str, &[&str])] = &[
    ("", "time_limit", &["\"1ms\"", "\"86400s\"", "\"0s\""]),
    ("", "sample_interval", &["\"1us\"", "\"3600s\""]),
    ("", "flows", &["1", "64", "0", "65"]),
    ("path", "rate", &["\"1kbit\"", "\"100Gbit\"", "\"0bit\""]),
    ("path", "rtt", &["\"0s\"", "\"10s\"", "\"100s\""]),
    ("path", "queue", &["\"0B\"", "\"4GiB\""]),
    ("path", "queue_bdp", &["0.0", "100.0"]),
    ("path", "loss", &["0.0", "0.5", "1.0", "-1.0"]),
    ("path", "mtu", &["575", "576", "65052", "65053", "65535"]),
    ("app", "request", &["\"0B\"", "\"1GiB\""]),
    ("app", "response", &["\"1B\"", "\"16GiB\"", "\"0B\""]),
    ("app", "repeat", &["1", "10000", "0"]),
    ("app", "server_write_buffer", &["\"1B\"", "\"1GiB\""]),
    ("server.route", "initcwnd", &["1", "1000", "0"]),
    ("client.route", "initrwnd", &["1", "1000", "0"]),
    (
        "server.sysctl",
        "\"net.ipv4.tcp_wmem\"",
        &[
            "\"4096 87380 65536\"",
            "\"4096 16384 4194304\"",
            "\"1 1 1\"",
        ],
    ),
    (
        "client.sysctl",
        "\"net.ipv4.tcp_rmem\"",
        &[
            "\"4096 87380 65536\"",
            "\"4096 131072 2147483648\"",
            "\"1 1 1\"",
        ],
    ),
    (
        "client.sysctl",
        "\"net.core.rmem_max\"",
        &["\"0\"", "\"2147483647\""],
    ),
    ("server.sockopt", "SO_SNDBUF", &["\"1B\"", "\"1GiB\""]),
    ("client.sockopt", "SO_RCVBUF", &["\"1B\"", "\"1GiB\""]),
    (
        "server.sysctl",
        "\"net.ipv4.tcp_retries2\"",
        &["1", "255", "0"],
    ),
];

/// A file with each of a random subset of [`KEYS`] at one of its values.
fn file() -> impl Strategy<Value = (String, Vec<String>)> {
    let picks: Vec<_> = KEYS
        .iter()
        .map(|(_, _, values)| prop::option::weighted(0.3, prop::sample::select(values.to_vec())))
        .collect();
    picks.prop_map(|chosen| {
        let mut sections: Vec<(&str, Vec<String>)> =
            vec![("", vec![]), ("path", vec![]), ("app", vec![])];
        let mut written = Vec::new();
        for ((section, key, _), value) in KEYS.iter().zip(chosen) {
            let Some(value) = value else { continue };
            let full = if section.is_empty() {
                key.to_string()
            } else {
                format!("{section}.{key}")
            };
            written.push(full);
            match sections.iter_mut().find(|(s, _)| s == section) {
                Some((_, lines)) => lines.push(format!("{key} = {value}")),
                None => sections.push((section, vec![format!("{key} = {value}")])),
            }
        }
        let mut text = String::from("format = 1\n");
        for (section, mut lines) in sections {
            match section {
                "path" => {
                    if !lines.iter().any(|l| l.starts_with("rate ")) {
                        lines.push("rate = \"100Mbit\"".into());
                    }
                    if !lines.iter().any(|l| l.starts_with("rtt ")) {
                        lines.push("rtt = \"10ms\"".into());
                    }
                }
                "app" => {
                    lines.push("type = \"request-response\"".into());
                    if !lines.iter().any(|l| l.starts_with("response ")) {
                        lines.push("response = \"100KiB\"".into());
                    }
                }
                _ => {}
            }
            if !section.is_empty() {
                text.push_str(&format!("[{section}]\n"));
            }
            for l in lines {
                text.push_str(&l);
                text.push('\n');
            }
        }
        (text, written)
    })
}

/// The keys a scenario file may hold that the drawn files leave to their
/// defaults: a budget refusal names them too (`time_limit` = 600 s, or the
/// receive buffer's ceiling that bounds what is in flight).
const DEFAULTED: &[&str] = &[
    "time_limit",
    "sample_interval",
    "flows",
    "app.response",
    "app.request",
    "path.rate",
    "path.rtt",
    "path.queue",
    r#"client.sysctl."net.ipv4.tcp_rmem""#,
];

const TEST_BUDGET: Budget = Budget {
    max_memory_bytes: 32 << 20,
    max_events: 100_000,
};

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn every_error_names_a_key_the_reader_wrote_or_may_write((text, written) in file()) {
        let named_ok = |k: &str| written.iter().any(|w| w == k) || DEFAULTED.contains(&k);
        let scenario = match scenario_file::parse(&text) {
            Ok((_, s)) => s,
            Err(e) => {
                // No key: a TOML error, which names the line instead.
                if let Some(key) = &e.key {
                    prop_assert!(named_ok(key), "{e}\nin\n{text}");
                } else {
                    prop_assert!(e.message.contains("line "), "{e}");
                }
                return Ok(());
            }
        };
        match TEST_BUDGET.check(&scenario) {
            Err(e) => {
                for k in &e.keys {
                    prop_assert!(named_ok(k), "{} names `{k}`\nin\n{text}", e.message);
                }
            }
            Ok(_) => {
                let mut sim = Simulation::within(&scenario, &TEST_BUDGET).unwrap();
                while !sim.advance(u64::MAX) {}
                prop_assert!(sim.work() <= TEST_BUDGET.backstop_events() + (4 << 20));
            }
        }
    }
}
