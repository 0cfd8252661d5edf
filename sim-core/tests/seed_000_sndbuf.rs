//! Seed 000/001, case 4: a 22 MB result over 100 Mbit/s at 20 ms RTT (BDP
//! 250 KB) from a server that set SO_SNDBUF. Measured: 16 KB → about 25 s
//! (about 16 KB per RTT, 800 KB/s); 256 KB capped by net.core.wmem_max
//! (~130 KB) → about 4 s; wmem_max raised → about 2 s of transfer.
//!
//! The model charges each queued segment its skb truesize (payload + 1280
//! bytes without segmentation offload), which is what makes a doubled 16 KB
//! buffer hold about 18 KB of payload. Tolerances: 15 % where the source gives
//! a figure ("about"), the wire time and the source's total where it gives a range.
#![cfg(feature = "scenario-file")]

mod common;
use common::*;
use sim_core::analysis::summarize;

fn secs(s: &sim_core::config::Scenario) -> f64 {
    summarize(&run(s)).transfers[0].duration().as_secs_f64()
}

#[test]
fn so_sndbuf_16k_moves_about_16kb_per_round_trip() {
    let t = secs(&scenario_file("seed-000-so-sndbuf-16k.toml"));
    assert!((t - 25.0).abs() < 0.15 * 25.0, "{t:.2} s vs about 25 s");
    // 22 MB in that time is the reported ~800 KB/s, ~16 KB per 20 ms.
    let rate = 22e6 / t;
    assert!(
        (rate - 800e3).abs() < 0.15 * 800e3,
        "{:.0} KB/s",
        rate / 1e3
    );
}

#[test]
fn a_256k_request_capped_by_wmem_max_takes_about_4s() {
    let capped = scenario_file("seed-000-so-sndbuf-256k-capped.toml");
    let t = secs(&capped);
    assert!((t - 4.0).abs() < 0.2 * 4.0, "{t:.2} s vs about 4 s");
    // The cap makes asking for 256 KB the same as asking for wmem_max.
    let mut same = capped.clone();
    same.server.sender.sndbuf = 2 * 131_071;
    same.server.sender.sndbuf_max = 2 * 131_071;
    assert_eq!(secs(&same), t);
}

#[test]
fn with_wmem_max_raised_the_buffer_covers_the_bdp() {
    // 22 MB in 1500-byte packets at 100 Mbit/s is 1.82 s on the wire; the source
    // measured about 2 s of transfer and 2.8 s in all.
    let t = secs(&scenario_file("seed-000-so-sndbuf-256k.toml"));
    assert!(t > 1.82 && t < 2.8, "{t:.2} s");
}

/// The periodic samples show why: the doubled 16 KB buffer stays charged
/// nearly full all through the transfer, while only 8 to 12 segments of
/// payload are in flight.
#[test]
fn samples_show_the_send_buffer_full_while_little_is_in_flight() {
    use sim_core::tcp::info::TcpInfo;
    use sim_core::tcp::send_buffer::truesize;
    use sim_core::trace::TraceEvent;
    let r = run(&scenario_file("seed-000-so-sndbuf-16k.toml"));
    let samples: Vec<(u64, TcpInfo)> = r
        .trace
        .records()
        .filter_map(|x| match x.event {
            TraceEvent::Sample {
                delivered, info, ..
            } => Some((delivered, info)),
            _ => None,
        })
        .collect();
    let total = r.scenario.app.response_bytes();
    // From the second sample (the first is still in slow start) until the
    // application has written its last bytes.
    let busy: Vec<&TcpInfo> = samples
        .iter()
        .skip(1)
        .filter(|(d, _)| *d + 200_000 < total)
        .map(|(_, i)| i)
        .collect();
    assert!(busy.len() > 200, "{} samples", busy.len());
    let skb = truesize(1448);
    let mut full = 0;
    for info in &busy {
        assert_eq!(info.sndbuf, 32_000, "SO_SNDBUF 16000, doubled");
        // A blocked writer is woken only once the charge falls to 2/3 of the
        // buffer (sk_stream_write_space), so it never sits lower than that.
        assert!(
            info.wmem_queued + skb > info.sndbuf * 2 / 3,
            "{} of {} charged",
            info.wmem_queued,
            info.sndbuf
        );
        full += (info.wmem_queued + skb > info.sndbuf) as usize;
        // 32,000 B at 1448 + 1280 B per segment holds at most 12 segments.
        assert!((8..=12).contains(&info.in_flight), "{}", info.in_flight);
    }
    assert!(full * 10 > busy.len() * 9, "{full} of {} full", busy.len());
}

/// Case 4 with the server's skbs cut `skbs`'s way and `SO_SNDBUF` 16 KiB
/// (sk_sndbuf 32768), all else as the seed file says.
fn case_4(skbs: sim_core::config::SendSkbs) -> sim_core::config::Scenario {
    let mut s = scenario_file("seed-000-so-sndbuf-16k.toml");
    s.server.behaviour.send_skbs = skbs;
    s.server.sender.sndbuf = 32_768;
    s.server.sender.sndbuf_max = 32_768;
    s
}

/// One skb per MSS on the seed file's hosts: completion at 26276.74336 ms
/// (26276.62336 before the receiver followed the kernel's ACK rules, issue 16;
/// the skbs, not the ACKs, set this figure).
#[test]
fn case_4s_file_one_skb_per_mss_keeps_its_figure() {
    let mut s = scenario_file("seed-000-so-sndbuf-16k.toml");
    s.server.behaviour.send_skbs = sim_core::config::SendSkbs::PerMss;
    let done = summarize(&run(&s)).completion.expect("completes");
    assert_eq!(done, sim_core::time::SimTime(26_276_743_360));
}

/// Today's kernel (GSO skbs, `tcp_sendmsg_locked`): a new skb needs
/// `wmem_queued < sk_sndbuf`, but an skb once started is filled to the size
/// goal, and each TSO packet `tcp_push_one` cuts off the unsent tail leaves
/// room to top it up again until TCP Small Queues holds a packet back: `ss`
/// shows `w` past `tb` and several times the payload per round trip. One
/// skb per MSS keeps `w` within one skb of `tb`. (The 100 ms samples:
/// about 5.3 s of transfer.)
#[test]
fn gso_skbs_queue_past_sk_sndbuf_and_send_case_4_three_times_faster() {
    use sim_core::config::SendSkbs;
    use sim_core::tcp::info::TcpInfo;
    use sim_core::trace::TraceEvent;
    // From the second sample until the last 200 KB are written.
    let samples = |r: &sim_core::sim::RunResult| -> Vec<TcpInfo> {
        r.trace
            .records()
            .filter_map(|x| match x.event {
                TraceEvent::Sample {
                    delivered, info, ..
                } if delivered + 200_000 < 22_000_000 => Some(info),
                _ => None,
            })
            .skip(1)
            .collect()
    };
    let per_mss = run(&case_4(SendSkbs::PerMss));
    let gso = run(&case_4(SendSkbs::Gso));
    let t = |r: &sim_core::sim::RunResult| summarize(r).transfers[0].duration().as_secs_f64();
    let (slow, fast) = (t(&per_mss), t(&gso));
    assert!(
        fast * 3.0 < slow,
        "{fast:.2} s on GSO skbs, {slow:.2} s per MSS"
    );
    let busy = samples(&gso);
    assert!(busy.len() > 25, "{} samples", busy.len());
    let over = busy.iter().filter(|i| i.wmem_queued > i.sndbuf).count();
    assert!(over * 2 > busy.len(), "w > tb in {over} of {}", busy.len());
    for i in samples(&per_mss) {
        assert!(i.wmem_queued < i.sndbuf + 1448 + 1280, "{}", i.wmem_queued);
    }
}

/// `TCP_NOTSENT_LOWAT` 16 KiB on today's kernel, with an autotuned buffer
/// that would otherwise hold megabytes unsent: the writer gets a new skb only
/// while fewer than 16384 bytes are unsent, and the skb it fills takes at
/// most a size goal (65160), so `notsent` never passes 16384 + 65160.
#[test]
fn notsent_lowat_keeps_unsent_bytes_within_the_lowat_and_one_skb() {
    use sim_core::config::{HostSettings, Kernel};
    use sim_core::trace::TraceEvent;
    let mut s = scenario_file("seed-000-so-sndbuf-256k.toml");
    let mut server = HostSettings::for_kernel(Kernel::Today);
    server.set_tcp_notsent_lowat_option(16 * 1024);
    s.server = server.finish().unwrap();
    let r = run(&s);
    let notsent: Vec<u64> = r
        .trace
        .records()
        .filter_map(|x| match x.event {
            TraceEvent::Sample { info, .. } => Some(info.notsent_bytes),
            _ => None,
        })
        .collect();
    let most = notsent.iter().copied().max().unwrap();
    assert!(
        most > 16_384,
        "the skb being filled passes the lowat: {most}"
    );
    assert!(most <= 16_384 + 65_160, "{most}");
    // Without the option the same host queues far more.
    let mut plain = s.clone();
    plain.server = HostSettings::for_kernel(Kernel::Today).finish().unwrap();
    let r = run(&plain);
    let most_plain = r
        .trace
        .records()
        .filter_map(|x| match x.event {
            TraceEvent::Sample { info, .. } => Some(info.notsent_bytes),
            _ => None,
        })
        .max()
        .unwrap();
    assert!(most_plain > 4 * (16_384 + 65_160), "{most_plain}");
}
