//! A small `SO_SNDBUF` on today's kernel (6.18): what `ss -tmi` shows
//! (`w`, `sk_wmem_queued`, against `tb`, `sk_sndbuf`), how much is in flight
//! per round trip, and the rate, for `SO_SNDBUF` 8, 16, 32 and 64 KiB on
//! seed 000's path: 100 Mbit/s, 20 ms, a 1-BDP (250 KB) drop-tail queue,
//! CUBIC, an 8 MiB response written in one `write()`.
//!
//! The kernel's rules, and what follows from them:
//!
//! - `sk_setsockopt`: `sk_sndbuf` = 2 × the value asked (`wmem_max` is 4 MiB
//!   on 6.18, so nothing is capped): `tb` 16384, 32768, 65536, 131072.
//! - `tcp_sendmsg_locked` checks `sk_stream_memory_free` (`w < tb`) only for a
//!   new skb. It fills the tail skb to the size goal (`tcp_xmit_size_goal`:
//!   65535 − 321 → 45 × 1448 = 65160 bytes, the peer's window being large);
//!   when that skb is the send head `tcp_push_one` sends one TSO packet and
//!   the loop tops the tail up again, unchecked, and pushes again, until
//!   `tcp_write_xmit` sends nothing more. Here that is TCP Small Queues
//!   (`tcp_small_queue_check`): a packet waits while `sk_wmem_alloc` (1 + the
//!   truesize the device holds) passes 2 × its truesize. The loop copies
//!   far faster than a device completes a packet, so the first packet of a
//!   run goes, the second (1 + t ≤ 2t), and the third, cut already, waits
//!   (1 + 2t > 2t). The loop tops the tail up after each of the three cuts;
//!   the held packet is then the send head, not the tail, so the copy asks
//!   for a new skb, which `w` past `tb` refuses.
//! - So each time it wakes the writer adds a size-goal skb (45 segments)
//!   and three TSO packets' worth of top-ups, 3 × P segments, where P is
//!   `tcp_tso_autosize`'s 1 ms of `sk_pacing_rate` (120 % of cwnd / srtt):
//!   with cwnd at least 150 (slow start grows it to twice the flight,
//!   `tcp_is_cwnd_limited`) and srtt at most 29 ms, 1.2 × 150 × 1448 / 0.029
//!   = 9.0 MB/s, 8.8 KB a millisecond: P ≥ 6; with cwnd under 350 (twice
//!   the largest flight, 60 + 105) and srtt over 20 ms, P ≤ 20.
//! - Every byte copied is charged one for one (`skb_copy_to_page_nocache`),
//!   every skb a 960-byte head (6.3+ `skb_small_head_cache`: 384 + 256 +
//!   320), including each one `tso_fragment` cuts; an ACK frees whole skbs
//!   (`tcp_clean_rtx_queue`) and the paged bytes of a partly ACKed one
//!   (`tcp_trim_head`). So `w` = unacknowledged + unsent payload + 960 per skb.
//! - The writer sleeps until `sk_stream_write_space` finds `tb − w ≥ w / 2`
//!   (`w ≤ 2/3 · tb`: 10922, 21845, 43690, 87381), after any ACK and any
//!   transmission on 6.x (`tcp_check_space`).
//!
//! A cycle, then, for `f` segments in flight at the wake (2/3 · tb less the
//! heads: about 6, 13, 27 and 55): the writer puts N = 45 + 3P ≥ 63
//! segments out at once, and wakes again when N more are acknowledged, the
//! `f` old ones first: 20 ms + (N − f) / 8.33 ms later (100 Mbit/s carries
//! 8.33 segments of 1500 bytes a millisecond). That is at least 63 × 1448
//! × 8 bits in 26.8, 26.0, 24.3 and 21.0 ms: 27.2, 28.1, 30.0 and 34.8
//! Mbit/s, and at most (P = 20, N = 105) 38.1, 39.2, 41.4 and 46.8 Mbit/s.
//! One skb per wake (the model's earlier rule) got 20.9, 21.7, 23.4 and
//! 42.4 Mbit/s. cwnd (past N + f) limits nothing; without TSQ (a device
//! that hands skbs back at once, as netem's orphaning does) the loop would
//! fill it, and the rate would be cwnd's.

use sim_core::analysis::summarize;
use sim_core::config::{HostSettings, Kernel, PathConfig, Scenario};
use sim_core::sim::{self, RunResult};
use sim_core::tcp::info::TcpInfo;
use sim_core::time::{SimDuration, SimTime};
use sim_core::trace::TraceEvent;

const MSS: u64 = 1448;
/// The size goal: 45 segments (`tcp_xmit_size_goal`).
const GOAL: u64 = 45 * MSS;
/// Truesize of a today's skb without its payload.
const HEAD: u64 = 960;
/// The response, written in one `write()`.
const TOTAL: u64 = 8 << 20;

/// `SO_SNDBUF` in KiB and the `sk_sndbuf` (`ss` `tb`) it gives.
const SIZES: [(u64, u64); 4] = [(8, 16_384), (16, 32_768), (32, 65_536), (64, 131_072)];

/// Seed 000's case 4 on today's kernel with `SO_SNDBUF` = `kib` KiB, an
/// 8 MiB response, sampled every millisecond.
fn case(kib: u64) -> Scenario {
    let mut server = HostSettings::for_kernel(Kernel::Today);
    server.set_so_sndbuf(kib * 1024);
    let mut path = PathConfig::symmetric(100_000_000, SimDuration::from_millis(20));
    // queue_bdp = 1: 100 Mbit/s × 20 ms.
    path.queue_bytes = 250_000;
    let mut s = Scenario {
        path,
        client: HostSettings::for_kernel(Kernel::Today).finish().unwrap(),
        server: server.finish().unwrap(),
        sample_interval: SimDuration::from_millis(1),
        ..Scenario::default()
    };
    s.app.request = vec![200];
    s.app.response = vec![TOTAL];
    s
}

/// The server's `TCP_INFO` every millisecond.
fn samples(r: &RunResult) -> Vec<(SimTime, TcpInfo)> {
    r.trace
        .records()
        .filter_map(|x| match x.event {
            TraceEvent::Sample { info, .. } => Some((x.time, info)),
            _ => None,
        })
        .collect()
}

/// Payload in the send queue: sent and not acknowledged, and not sent.
fn queued(i: &TcpInfo) -> u64 {
    i.outstanding_bytes() + i.notsent_bytes
}

/// Samples from 300 ms (past slow start) while the writer still has more
/// than a size goal to hand over: it is either copying or asleep in
/// `sk_stream_wait_memory`.
fn busy(s: &[(SimTime, TcpInfo)]) -> Vec<(SimTime, TcpInfo)> {
    s.iter()
        .filter(|(t, i)| *t >= SimTime(300_000_000) && i.bytes_acked + queued(i) + GOAL < TOTAL)
        .copied()
        .collect()
}

#[test]
fn sk_sndbuf_is_twice_so_sndbuf() {
    for (kib, tb) in SIZES {
        let r = sim::run(&case(kib)).unwrap();
        for (_, i) in samples(&r) {
            assert_eq!(i.sndbuf, tb, "SO_SNDBUF {kib} KiB");
        }
    }
}

#[test]
fn every_queued_skb_is_charged_its_payload_and_a_960_byte_head() {
    // w − payload is the heads: a whole number of 960-byte skbs, at least one
    // while anything is queued.
    for (kib, _) in SIZES {
        let r = sim::run(&case(kib)).unwrap();
        for (t, i) in busy(&samples(&r)) {
            let heads = i.wmem_queued - queued(&i);
            assert!(
                heads >= HEAD && heads.is_multiple_of(HEAD),
                "{kib} KiB at {t:?}: w {} for {} bytes",
                i.wmem_queued,
                queued(&i)
            );
        }
    }
}

#[test]
fn the_writer_is_never_seen_asleep_with_w_at_two_thirds_of_tb() {
    // sk_stream_write_space wakes it at tb − w ≥ w >> 1 (and w < tb), and the
    // woken writer takes a new skb at once, so no sample finds w that low.
    for (kib, tb) in SIZES {
        let r = sim::run(&case(kib)).unwrap();
        let busy = busy(&samples(&r));
        assert!(busy.len() > 500, "{kib} KiB: {} samples", busy.len());
        for (t, i) in busy {
            let w = i.wmem_queued;
            let writeable = w < tb && tb - w >= w >> 1;
            assert!(!writeable, "{kib} KiB at {t:?}: w {w} of tb {tb}");
        }
    }
}

/// Each 50 ms of the busy samples (a cycle is 21 to 27 ms): the largest
/// `w` and flight in it.
fn peaks(busy: &[(SimTime, TcpInfo)]) -> Vec<(u64, u32)> {
    busy.chunks(50)
        .filter(|w| w.len() == 50)
        .map(|w| {
            let most_w = w.iter().map(|(_, i)| i.wmem_queued).max().unwrap();
            let most_flight = w.iter().map(|(_, i)| i.in_flight).max().unwrap();
            (most_w, most_flight)
        })
        .collect()
}

#[test]
fn ss_shows_w_well_past_tb_every_cycle() {
    // w at the wake is more than 2/3 · tb less what the waking ACK freed
    // (two 2-segment packets at most, 7712); the writer adds a size-goal skb
    // (65160 + 960) and tops up at least three 2-segment packets (8688)
    // before the new skb it asks for is refused: each cycle's peak is at
    // least 2/3 · tb + 67096 = 78018, 88941, 110786, 154477 (4.8, 2.7, 1.7
    // and 1.2 × tb). One skb per wake stayed under that.
    for (kib, tb) in SIZES {
        let r = sim::run(&case(kib)).unwrap();
        let floor = 2 * tb / 3 - 7712 + GOAL + HEAD + 3 * 2 * MSS;
        for (most_w, _) in peaks(&busy(&samples(&r))) {
            assert!(most_w >= floor, "{kib} KiB: w peaks at {most_w} < {floor}");
            assert!(most_w > tb, "{kib} KiB: {most_w}");
        }
    }
}

#[test]
fn at_most_one_skb_is_ever_unsent() {
    // A second unsent skb would need sk_stream_memory_free with the tail
    // full, and the tail fills only after a size goal and the top-ups have
    // joined what the wake left: w ≥ 78018, 88941, 110786, 154477, past
    // every tb here, so it is refused.
    for (kib, _) in SIZES {
        let r = sim::run(&case(kib)).unwrap();
        for (t, i) in busy(&samples(&r)) {
            assert!(
                i.notsent_bytes <= GOAL,
                "{kib} KiB at {t:?}: {}",
                i.notsent_bytes
            );
        }
    }
}

#[test]
fn each_wake_puts_more_than_one_skb_in_flight_and_cwnd_never_fills() {
    // Peak flight per cycle: f + 45 + 3P ≥ f + 63 segments, past what one
    // size-goal skb per wake allows, (2/3 · tb + 65160 + 960) / 1448 = 53,
    // 60, 75, 106: f is 2/3 · tb less the waking ACK's 7712 bytes and the
    // heads of f's packets (10 at most, 9600), so 63 beats 45.7 + 12 by
    // about 5 segments. And TSQ, not cwnd, ends each run: the flight never
    // reaches cwnd.
    for (kib, tb) in SIZES {
        let r = sim::run(&case(kib)).unwrap();
        let busy = busy(&samples(&r));
        let one_skb_per_wake = ((2 * tb / 3 + GOAL + HEAD) / MSS) as u32;
        let peaks = peaks(&busy);
        assert!(peaks.len() > 20, "{kib} KiB: {} windows", peaks.len());
        for (_, flight) in peaks {
            assert!(flight > one_skb_per_wake, "{kib} KiB: peak flight {flight}");
        }
        for (t, i) in &busy {
            assert!(i.in_flight < i.cwnd, "{kib} KiB at {t:?}: cwnd full");
        }
    }
}

#[test]
fn the_rate_is_what_a_size_goal_and_three_packets_per_wake_give() {
    // Between the cycle's rate with P = 6 and with P = 20 (module docs),
    // where one skb per wake gave 20.9 to 23.4 Mbit/s for 8 to 32 KiB.
    let bounds = [(27.2, 38.1), (28.1, 39.2), (30.0, 41.4), (34.8, 46.8)];
    for ((kib, _), (least, most)) in SIZES.into_iter().zip(bounds) {
        let r = sim::run(&case(kib)).unwrap();
        let secs = summarize(&r).transfers[0].duration().as_secs_f64();
        let mbit = TOTAL as f64 * 8.0 / secs / 1e6;
        assert!(
            (least..=most).contains(&mbit),
            "{kib} KiB: {mbit:.1} Mbit/s, not {least} to {most}"
        );
    }
}
