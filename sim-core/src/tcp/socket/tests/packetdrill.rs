//! Linux's own packet-level tests, replayed: scripts from google/packetdrill
//! (`gtests/net/tcp/`, validated on Linux 6.1) with the exchange they script,
//! segment by segment, and the cwnd they assert.
//!
//! The scripts' setup (`gtests/net/tcp/common/defaults.sh`): CUBIC, SACK, RACK
//! (`tcp_recovery` = 1), reordering 3, no slow start after idle. The peer's
//! SYN offers MSS 1000 and no timestamps, so every segment carries 1000 bytes
//! and the sequence numbers below are the scripts' own (`1:1001` is the first
//! segment). The socket under test is the server, as in the scripts; the peer
//! advertises `win 320` at scale 7 (40960 bytes), which never limits.

use super::*;
use crate::cc::CaState;
use crate::timer_wheel::{Hz, TimerWheel};

/// The scripts' segment size.
const PD_MSS: u64 = 1000;

/// The server of the scripts: CUBIC, MSS 1000, no restart after idle.
fn pd_host() -> HostConfig {
    let mut cfg = host();
    cfg.sender.congestion_control = Algorithm::by_name("cubic").unwrap();
    cfg.sender.mss = PD_MSS as u32;
    cfg.sender.slow_start_after_idle = false;
    cfg
}

/// An ACK from the peer (`< . 1:1(0) ack <ack> win 320 <sack ...>`).
fn pd_ack(ack: u64, sack: &[(u64, u64)]) -> Segment {
    Segment {
        ack,
        wnd: 320 << 7,
        sack: SackBlocks::new(sack),
        ..from_peer()
    }
}

/// The handshake of the scripts, `rtt_ms` between the SYN-ACK and its ACK;
/// the clock then reads `rtt_ms`.
fn pd_established(rtt_ms: u64) -> Tcp {
    pd_established_with(&pd_host(), rtt_ms)
}

/// [`pd_established`] for a server configured as `cfg`.
fn pd_established_with(cfg: &HostConfig, rtt_ms: u64) -> Tcp {
    let mut tcp = Tcp::new(Socket::listen(cfg));
    send!(tcp, syn());
    assert!(tcp.drain().iter().any(|s| s.flags.syn));
    tcp.at_ms(rtt_ms);
    send!(tcp, pd_ack(1, &[]));
    assert!(tcp.sock.is_established());
    tcp
}

/// The data segments the socket sends now, as `(start, end)` in the scripts'
/// notation (`1:1001` is `(1, 1001)`), with whether each is a retransmission.
fn sent(tcp: &mut Tcp) -> Vec<(u64, u64, bool)> {
    std::iter::from_fn(|| tcp.sock.poll_transmit(tcp.now))
        .filter(|(s, ..)| s.len > 0)
        .map(|(s, _, rtx)| (s.seq, s.seq + s.len as u64, rtx))
        .collect()
}

/// `n` new segments of 1000 bytes from `start`.
fn new_data(start: u64, n: u64) -> Vec<(u64, u64, bool)> {
    (0..n)
        .map(|i| (start + i * PD_MSS, start + (i + 1) * PD_MSS, false))
        .collect()
}

#[track_caller]
fn assert_state(tcp: &Tcp, state: CaState, cwnd: u32, ssthresh: u32) {
    assert_eq!(tcp.sock.ca_state(), state);
    assert_eq!(
        (tcp.sock.cwnd(), tcp.sock.ssthresh()),
        (cwnd, ssthresh),
        "(cwnd, ssthresh)"
    );
}

#[test]
fn prr_ss_10pkt_lost_1_sends_one_segment_per_delivered_and_ends_recovery_at_cwnd_7() {
    // gtests/net/tcp/fast_recovery/prr-ss-10pkt-lost-1.pkt: RTT 100 ms, ten
    // segments, 1:1001 lost.
    //
    //   t (ms)  peer                      server
    //   100     ack 1                     1:10001 (10 segments)
    //   210     sack 1001:2001            (RACK: reo_wnd 25 ms, 1:1001 not due)
    //   220     sack 1001:3001
    //   230     sack 1001:4001            1:1001 again; Recovery, cwnd 7, ssthresh 7
    //   350     (write 7000)
    //   360..410 sack 1001:5001..10001    one new segment each, 10001:11001..15001:16001
    //   430     ack 10001                 16001:17001; Open, cwnd 7, ssthresh 7
    let mut tcp = pd_established(100);
    tcp.write(10_000);
    assert_eq!(sent(&mut tcp), new_data(1, 10));
    for (ms, sacked_to) in [(210, 2001), (220, 3001)] {
        tcp.at_ms(ms);
        send!(tcp, pd_ack(1, &[(1001, sacked_to)]));
        assert_eq!(sent(&mut tcp), vec![]);
    }
    tcp.at_ms(230);
    send!(tcp, pd_ack(1, &[(1001, 4001)]));
    // tcp_enter_recovery: ssthresh = CUBIC's 10 × 717 / 1024 = 7. PRR
    // (tcp_cwnd_reduction): in flight 10 − 3 SACKed − 1 lost = 6, room to
    // ssthresh 1, one segment delivered: cwnd 6 + 1 = 7.
    assert_eq!(sent(&mut tcp), vec![(1, 1001, true)]);
    assert_state(&tcp, CaState::Recovery, 7, 7);

    tcp.at_ms(350);
    tcp.write(7_000);
    assert_eq!(sent(&mut tcp), vec![]);
    for i in 0..6 {
        tcp.at_ms(360 + 10 * i);
        send!(tcp, pd_ack(1, &[(1001, 5001 + 1000 * i)]));
        assert_eq!(sent(&mut tcp), new_data(10_001 + 1000 * i, 1));
        assert_state(&tcp, CaState::Recovery, 7, 7);
    }

    // The cumulative ACK covers the retransmission: Recovery ends with cwnd =
    // ssthresh (tcp_end_cwnd_reduction), and tcp_cong_control hands CUBIC the
    // one segment this ACK newly delivered (2..10 were delivered when SACKed),
    // which does not grow cwnd.
    tcp.at_ms(430);
    send!(tcp, pd_ack(10_001, &[]));
    assert_eq!(sent(&mut tcp), new_data(16_001, 1));
    assert_state(&tcp, CaState::Open, 7, 7);

    for (ms, ack) in [(470, 12_001), (490, 14_001), (510, 16_001), (530, 17_001)] {
        tcp.at_ms(ms);
        send!(tcp, pd_ack(ack, &[]));
        assert_eq!(sent(&mut tcp), vec![]);
    }
    assert_eq!(tcp.sock.packets_out(), 0);
}

#[test]
fn prr_ss_30pkt_lost1_4_resends_one_per_sack_and_sends_seven_after_recovery() {
    // gtests/net/tcp/fast_recovery/prr-ss-30pkt-lost1_4.pkt (its header speaks
    // of 20 packets; it writes ten): RTT 10 ms, 1:4001 lost.
    //
    //   t (ms)  peer                          server
    //   10      ack 1                         1:10001
    //   20      sack 4001:5001
    //   22      sack 4001:6001
    //   22      sack 4001:7001                1:1001 again (RACK marks 1..4 lost)
    //   22      sack 4001:8001, 9001, 10001   1001:2001, 2001:3001, 3001:4001
    //   32      ack 1001, 2001, 3001 (sack 4001:10001), then ack 10001
    //   42      (write 10000)                 10001:17001 at once: cwnd 7
    let mut tcp = pd_established(10);
    tcp.write(10_000);
    assert_eq!(sent(&mut tcp), new_data(1, 10));
    tcp.at_ms(20);
    send!(tcp, pd_ack(1, &[(4001, 5001)]));
    assert_eq!(sent(&mut tcp), vec![]);
    tcp.at_ms(22);
    send!(tcp, pd_ack(1, &[(4001, 6001)]));
    assert_eq!(sent(&mut tcp), vec![]);
    send!(tcp, pd_ack(1, &[(4001, 7001)]));
    // ssthresh 7; PRR: in flight 10 − 3 − 4 = 3, room 4, one delivered: cwnd 4.
    assert_eq!(sent(&mut tcp), vec![(1, 1001, true)]);
    assert_state(&tcp, CaState::Recovery, 4, 7);
    for (i, sacked_to) in [8001, 9001, 10_001].into_iter().enumerate() {
        send!(tcp, pd_ack(1, &[(4001, sacked_to)]));
        // PRR-SS: max(prr_delivered − prr_out, 1) = 1 per SACKed segment.
        let start = 1001 + 1000 * i as u64;
        assert_eq!(sent(&mut tcp), vec![(start, start + 1000, true)]);
    }

    tcp.at_ms(32);
    for ack in [1001, 2001, 3001] {
        send!(tcp, pd_ack(ack, &[(4001, 10_001)]));
    }
    send!(tcp, pd_ack(10_001, &[]));
    // Recovery ends at cwnd = ssthresh = 7; the last ACK newly delivered one
    // segment (4), which CUBIC's cong_avoid does not turn into growth.
    assert_state(&tcp, CaState::Open, 7, 7);
    assert_eq!(sent(&mut tcp), vec![]);

    tcp.at_ms(42);
    tcp.write(10_000);
    assert_eq!(sent(&mut tcp), new_data(10_001, 7));
}

#[test]
fn fr_4pkt_fack_last_mss_resends_one_segment_when_the_reorder_timer_fires() {
    // gtests/net/tcp/fast_retransmit/fr-4pkt-fack-last-mss.pkt: RTT 100 ms,
    // four segments, 1:3001 lost; only the last one is SACKed.
    //
    //   t (ms)  peer               server
    //   100     ack 1              1:4001
    //   200     sack 3001:4001     (RACK: reo_wnd 25 ms, reorder timer)
    //   227     reorder timer      1:1001 again, and nothing else: cwnd 1
    let mut tcp = pd_established(100);
    tcp.write(4000);
    assert_eq!(sent(&mut tcp), new_data(1, 4));
    tcp.at_ms(200);
    send!(tcp, pd_ack(1, &[(3001, 4001)]));
    assert_eq!(sent(&mut tcp), vec![]);
    assert_eq!(tcp.sock.cwnd(), 10);
    // tcp_rack_detect_loss: 1:3001 are due at sent + RTT 100 + reo_wnd
    // min(min_rtt / 4, srtt) = 25 ms; the timer adds TCP_TIMEOUT_MIN (2 ms
    // since 6.6). The script, validated on 6.1 where that minimum was 2
    // jiffies and at HZ 250 every delay rounds up to 4 ms ticks, expects +40 ms.
    assert_eq!(tcp.next_timeout(), Some(SimDuration::from_millis(27)));
    tcp.fire_timer();
    // tcp_rack_reo_timeout: three segments lost, tcp_enter_recovery (ssthresh
    // 7), then one PRR step for one delivered segment with nothing in flight:
    // cwnd 0 + 1, so tcp_xmit_retransmit_queue sends one segment.
    assert_state(&tcp, CaState::Recovery, 1, 7);
    assert_eq!(sent(&mut tcp), vec![(1, 1001, true)]);
}

/// gtests/net/tcp/slow_start/slow-start-after-win-update.pkt (also in the
/// kernel's selftests) up to its third probe, on a server whose timer wheel is
/// `wheel`; returns when each probe left, in ms. RTT 100 ms, so srtt 100 ms
/// and rttvar at its floor of TCP_RTO_MIN: RTO = 100 + 200 = 300 ms.
///
///   t (ms)  peer                  server
///   100     ack 1                 1:10001 (cwnd 10)
///   200     ack 10001 win 511     10001:26001 (cwnd 20)
///   300     ack 26001 win 0       (cwnd 36); the application writes 20000
///   +.3~+.310                     probe 26000:26000
///   +.6~+.620                     probe
///   +1.2~+1.240                   probe
fn win_update_probes(wheel: TimerWheel) -> Vec<u64> {
    let mut cfg = pd_host();
    cfg.behaviour.timer_wheel = wheel;
    cfg.behaviour.hz = Hz::DEFAULT;
    let mut tcp = pd_established_with(&cfg, 100);
    tcp.write(26_000);
    assert_eq!(sent(&mut tcp), new_data(1, 10));
    assert_eq!(tcp.sock.cwnd(), 10);
    tcp.at_ms(200);
    send!(tcp, pd_ack(10_001, &[]));
    assert_eq!(tcp.sock.cwnd(), 20);
    assert_eq!(sent(&mut tcp), new_data(10_001, 16));
    tcp.at_ms(300);
    send!(
        tcp,
        Segment {
            wnd: 0,
            ..pd_ack(26_001, &[])
        }
    );
    assert_eq!(tcp.sock.cwnd(), 36);
    tcp.write_more(20_000);
    assert_eq!(sent(&mut tcp), vec![]);
    let mut probes = vec![];
    for _ in 0..3 {
        tcp.fire_timer();
        probes.push(tcp.now.0 / 1_000_000);
        let out = tcp.drain();
        assert_eq!(out.len(), 1, "{out:?}");
        assert_eq!(
            (out[0].seq, out[0].len),
            (26_000, 0),
            "a probe below snd_una"
        );
        assert_eq!(tcp.sock.cwnd(), 36);
    }
    probes
}

#[test]
fn slow_start_after_win_update_probes_one_rto_after_the_window_closed_then_backs_off() {
    // tcp_check_probe_timer arms tcp_probe0_base = max(icsk_rto, TCP_RTO_MIN)
    // when the write finds the window shut (tcp_write_xmit), so from the
    // zero-window ACK; each probe doubles the next wait (tcp_probe0_when).
    // On a wheel that runs timers on their expiry: 300, 600, 1200 ms.
    assert_eq!(
        win_update_probes(TimerWheel::Cascading),
        vec![600, 1200, 2400]
    );
}

#[test]
fn slow_start_after_win_update_probes_run_late_by_todays_wheel_granularity() {
    // The same timers on 4.8+: 300 ticks is level 1 (8-tick buckets), so
    // expiry 600 runs on ((600 >> 3) + 1) << 3 = 608; 600 ticks is level 2
    // (64): 1208 runs on 1216; 1200 ticks: 2416 runs on 2432. Each wait is
    // inside the script's tolerance (+.3~+.310, +.6~+.620, +1.2~+1.240).
    let probes = win_update_probes(TimerWheel::RoundsUp);
    assert_eq!(probes, vec![608, 1216, 2432]);
    let waits: Vec<u64> = [300]
        .iter()
        .chain(&probes)
        .collect::<Vec<_>>()
        .windows(2)
        .map(|w| w[1] - w[0])
        .collect();
    for (wait, (lo, hi)) in waits.iter().zip([(300, 310), (600, 620), (1200, 1240)]) {
        assert!((lo..=hi).contains(wait), "{waits:?}");
    }
}
