//! The long-fat-network benchmark scenarios, (c) and (d): 30 s of one flow
//! at 1 Gbit/s with a 210 ms RTT and 1e-4 random loss, socket buffers raised
//! to the path's 26 MB bandwidth-delay product so that congestion control,
//! not a buffer, sets the rate.
//!
//! Built in code rather than read from a file so that the browser benchmark
//! (which has no TOML parser in its bundle) runs exactly what `cargo bench`
//! runs; a test checks the two against the same case written as a scenario file.

use crate::cc::Algorithm;
use crate::config::{HostSettings, PAGE_SIZE, PathConfig, Scenario};
use crate::time::SimDuration;

/// 1 Gbit/s × 210 ms.
const BDP_BYTES: u64 = 26_250_000;

/// Scenario (c) with `cubic`, (d) with `bbr`.
pub fn lfn_30s(cc: Algorithm) -> Scenario {
    let mut server = HostSettings::default();
    server.set_tcp_congestion_control(cc);
    let mut client = HostSettings::default();
    raise_ceilings(
        &mut server,
        &mut client,
        SEED_003_WMEM_MAX,
        SEED_003_RMEM_MAX,
    );
    let mut s = Scenario {
        path: PathConfig {
            loss: 1e-4,
            queue_bytes: BDP_BYTES,
            ..PathConfig::symmetric(1_000_000_000, SimDuration::from_millis(210))
        },
        server: server
            .finish()
            .expect("seed 003's server settings are in range"),
        client: client
            .finish()
            .expect("seed 003's client settings are in range"),
        time_limit: SimDuration::from_secs(30),
        seed: 1,
        ..Scenario::default()
    };
    // The server pushes as soon as the connection is up, more than 30 s can carry.
    s.app.request = Vec::new();
    s.app.response = vec![10 << 30];
    s
}

// The buffers seed 003's author raised for a long fat network, on the server
// (sending) and the client (receiving):
// `net.core.wmem_max = 26214400`, `net.ipv4.tcp_wmem = "4096 87380 26214400"`,
// `net.core.rmem_max = 34952000`, `net.ipv4.tcp_rmem = "4096 87380 34952000"`.

/// Seed 003's `tcp_wmem[2]` (and `net.core.wmem_max`).
pub const SEED_003_WMEM_MAX: u64 = 26_214_400;
/// Seed 003's `tcp_rmem[2]` (and `net.core.rmem_max`).
pub const SEED_003_RMEM_MAX: u64 = 34_952_000;
/// Seed 003's `tcp_wmem[1]` and `tcp_rmem[1]`: the buffers a connection starts with.
const SEED_003_BUFFER_DEFAULT: u64 = 87_380;

/// Autotuning ceilings set as `net.ipv4.tcp_wmem = "4096 87380 <wmem_max>"` on
/// the sending host and `net.ipv4.tcp_rmem = "4096 87380 <rmem_max>"` on the
/// receiving one, with `net.core.wmem_max`/`rmem_max` raised alike as seed
/// 003's author did (they cap only `SO_*BUF`, and widen the window scale no
/// further than `tcp_rmem[2]`); `finish()` then derives the window scale and SYN window that
/// receive buffer implies, exactly as a scenario file with those sysctls is read.
///
/// The long-fat widget's hosts (BBR paced by fq, as seed 003 ran it):
///
/// ```
/// use sim_core::benchmarks::raise_ceilings;
/// use sim_core::cc::Algorithm;
/// use sim_core::config::{HostSettings, Qdisc, Scenario};
/// let (wmem_max, rmem_max) = (50_000_000, 64 << 20);
/// let mut server = HostSettings::default();
/// server.set_tcp_congestion_control(Algorithm::by_name("bbr").unwrap());
/// server.set_default_qdisc(Qdisc::Fq);
/// let mut client = HostSettings::default();
/// raise_ceilings(&mut server, &mut client, wmem_max, rmem_max);
/// let s = Scenario {
///     server: server.finish().map_err(|e| e.within("server"))?,
///     client: client.finish().map_err(|e| e.within("client"))?,
///     ..Scenario::default()
/// };
/// assert_eq!(s.client.receiver.wscale, 11, "64 MiB needs 2^11");
/// assert_eq!(s.server.sender.sndbuf_max, 50_000_000);
/// # Ok::<(), sim_core::config::ConfigError>(())
/// ```
pub fn raise_ceilings(
    sender: &mut HostSettings,
    receiver: &mut HostSettings,
    wmem_max: u64,
    rmem_max: u64,
) {
    // A ceiling below the usual starting size (the long-fat widget's
    // controls go down to 64 KiB) starts the buffer at the ceiling, as an
    // administrator who lowered one would lower the other: the kernel wants
    // min <= default <= max.
    let start = |max: u64| SEED_003_BUFFER_DEFAULT.min(max).max(PAGE_SIZE);
    sender.set_tcp_wmem([PAGE_SIZE, start(wmem_max), wmem_max.max(PAGE_SIZE)]);
    receiver.set_tcp_rmem([PAGE_SIZE, start(rmem_max), rmem_max.max(PAGE_SIZE)]);
    // The source raised net.core.*mem_max with them. Without SO_*BUF they
    // cap nothing, but the hosts keep them (and reports show them).
    sender.set_wmem_max(wmem_max);
    receiver.set_rmem_max(rmem_max);
}

/// The benchmark scenarios by the letter the benchmark report uses.
pub fn by_name(name: &str) -> Option<Scenario> {
    match name {
        "c" => Some(lfn_30s(Algorithm::by_name("cubic").ok()?)),
        "d" => Some(lfn_30s(Algorithm::by_name("bbr").ok()?)),
        _ => None,
    }
}

#[cfg(all(test, feature = "scenario-file"))]
mod tests {
    use super::*;

    /// The same case as a reader would write it.
    fn from_file(cc: &str) -> Scenario {
        let text = format!(
            r#"
format = 1
time_limit = "30s"
seed = 1
[path]
rate = "1Gbit"
rtt = "210ms"
loss = 0.0001
queue_bdp = 1.0
[server.sysctl]
"net.ipv4.tcp_congestion_control" = "{cc}"
"net.core.wmem_max" = 26214400
"net.ipv4.tcp_wmem" = "4096 87380 26214400"
[client.sysctl]
"net.core.rmem_max" = 34952000
"net.ipv4.tcp_rmem" = "4096 87380 34952000"
[app]
type = "request-response"
response = "10GiB"
"#
        );
        crate::scenario_file::parse(&text).unwrap().1
    }

    #[test]
    fn the_coded_scenarios_are_the_scenario_file() {
        assert_eq!(by_name("c").unwrap(), from_file("cubic"));
        assert_eq!(by_name("d").unwrap(), from_file("bbr"));
        assert!(by_name("e").is_none());
    }

    /// Other ceilings (the long-fat widget's buffer sliders) read as the same
    /// sysctls (with the `net.core` caps raised alike) would: a 64 MiB
    /// tcp_rmem[2] needs window scale 11.
    #[test]
    fn other_ceilings_match_the_sysctls() {
        let text = r#"
format = 1
[path]
rate = "1Gbit"
rtt = "210ms"
[server.sysctl]
"net.core.wmem_max" = 50000000
"net.ipv4.tcp_wmem" = "4096 87380 50000000"
[client.sysctl]
"net.core.rmem_max" = 67108864
"net.ipv4.tcp_rmem" = "4096 87380 67108864"
[app]
type = "request-response"
response = "1MB"
"#;
        let file = crate::scenario_file::parse(text).unwrap().1;
        let (mut server, mut client) = (HostSettings::default(), HostSettings::default());
        raise_ceilings(&mut server, &mut client, 50_000_000, 67_108_864);
        assert_eq!(server.finish().unwrap(), file.server);
        assert_eq!(client.finish().unwrap(), file.client);
        assert_eq!(file.client.receiver.wscale, 11);
    }
}
