//! The settings a run used, by the names Linux gives them.

/// The queue's size, and in BDPs of the path (rate × RTT) to two decimals,
/// as `queue_bdp` in a scenario file gives it: "5.78 MB (2.00 BDP)".
fn queue_in_bdp(p: &crate::config::PathConfig) -> String {
    let bytes = crate::units::format_bytes(p.queue_bytes);
    // Bytes per second times microseconds: no overflow for any valid path
    // (100 Gbit/s × 10 s), and no 128-bit arithmetic in the wasm.
    let bdp = p.rate_bps / 8 * (p.rtt().0 / 1000) / 1_000_000;
    if bdp == 0 {
        return bytes;
    }
    let hundredths = (p.queue_bytes.saturating_mul(100) + bdp / 2) / bdp;
    format!("{bytes} ({}.{:02} BDP)", hundredths / 100, hundredths % 100)
}

/// The settings in effect for a run, by the names Linux gives them (sysctls,
/// socket options, route attributes) and the path's: what a widget's
/// "settings" panel lists next to its sliders.
pub fn settings(sc: &crate::config::Scenario) -> Vec<(String, String)> {
    use crate::config::{DelayedAck, Nagle};
    use crate::units::{format_bytes, format_duration, format_rate};
    let on = |b: bool| if b { "1" } else { "0" }.to_string();
    let srv = &sc.server.sender;
    let cli = &sc.client.receiver;
    let p = &sc.path;
    let mut out = vec![
        ("path rate".to_string(), format_rate(p.rate_bps)),
        ("path RTT".to_string(), format_duration(p.rtt())),
        ("bottleneck queue".to_string(), queue_in_bdp(p)),
        (
            "random loss".to_string(),
            crate::decimal_text::shortest(p.loss),
        ),
        (
            "net.ipv4.tcp_congestion_control".to_string(),
            srv.congestion_control.name().to_string(),
        ),
        ("initcwnd (route)".to_string(), srv.initcwnd.to_string()),
        ("MSS".to_string(), format!("{} B", srv.mss)),
        (
            "server sk_sndbuf".to_string(),
            if srv.sndbuf_autotune {
                format!(
                    "{} (autotuned up to {})",
                    format_bytes(srv.sndbuf),
                    format_bytes(srv.sndbuf_max)
                )
            } else {
                format!("{} (SO_SNDBUF, doubled)", format_bytes(srv.sndbuf))
            },
        ),
        (
            "client sk_rcvbuf".to_string(),
            if cli.autotune {
                format!(
                    "{} (autotuned up to {})",
                    format_bytes(cli.rcvbuf),
                    format_bytes(cli.rcvbuf_max)
                )
            } else {
                format!("{} (SO_RCVBUF, doubled)", format_bytes(cli.rcvbuf))
            },
        ),
        (
            "client SYN window".to_string(),
            format!("{} B", cli.syn_window),
        ),
        (
            "net.ipv4.tcp_window_scaling".to_string(),
            on(cli.window_scaling && sc.server.receiver.window_scaling),
        ),
        (
            "net.ipv4.tcp_sack".to_string(),
            on(srv.sack && sc.client.sender.sack),
        ),
        (
            "net.ipv4.tcp_slow_start_after_idle".to_string(),
            on(srv.slow_start_after_idle),
        ),
    ];
    for (who, s) in [("client", &sc.client.sender), ("server", srv)] {
        let nagle = match s.nagle {
            Nagle::Off => "TCP_NODELAY (Nagle off)",
            Nagle::Minshall => "Nagle on (Linux, Minshall's check)",
            Nagle::Classic => "Nagle on (classic RFC 896)",
        };
        out.push((format!("{who} Nagle"), nagle.to_string()));
        if s.cork {
            out.push((format!("{who} TCP_CORK"), "1".to_string()));
        }
    }
    for (who, r) in [("client", cli), ("server", &sc.server.receiver)] {
        let ack = match &r.delayed_ack {
            _ if r.quickack => "off (quickack)".to_string(),
            DelayedAck::Linux => "Linux (quick-ACK mode, 40 ms+ timer)".to_string(),
            DelayedAck::Fixed(d) => format!("every 2nd segment or {}", format_duration(*d)),
            DelayedAck::Off => "off".to_string(),
        };
        out.push((format!("{who} delayed ACK"), ack));
    }
    if p.loss > 0.0 || !p.drops.is_empty() {
        // Where the path loses packets, placed after "random loss".
        let at = out
            .iter()
            .position(|(k, _)| k == "random loss")
            .map_or(0, |i| i + 1);
        let mut lines = vec![
            (
                "loss direction".to_string(),
                p.loss_direction.name().to_string(),
            ),
            (
                "loss position".to_string(),
                format!("{} the bottleneck", p.loss_position.name()),
            ),
        ];
        if !p.drops.is_empty() {
            lines.push((
                "drop list".to_string(),
                format!("{} entries", p.drops.len()),
            ));
        }
        out.splice(at..at, lines);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::config::{PathConfig, Scenario};
    use crate::time::SimDuration;

    /// Seed 003's single-flow queue: two BDPs of 110 Mbit/s × 210 ms
    /// (2 × 2,887,500 bytes); a tenth of one; no delay, no BDP.
    #[test]
    fn the_queue_reads_in_bdps_too() {
        let queue = |bytes: u64, rtt_ms: u64| {
            let s = Scenario {
                path: PathConfig {
                    queue_bytes: bytes,
                    ..PathConfig::symmetric(110_000_000, SimDuration::from_millis(rtt_ms))
                },
                ..Scenario::default()
            };
            let all = super::settings(&s);
            all.into_iter()
                .find(|(k, _)| k == "bottleneck queue")
                .unwrap()
                .1
        };
        assert!(
            queue(5_775_000, 210).ends_with(" (2.00 BDP)"),
            "{}",
            queue(5_775_000, 210)
        );
        assert!(queue(288_750, 210).ends_with(" (0.10 BDP)"));
        assert!(!queue(288_750, 0).contains("BDP"));
    }
}
