use super::*;

const MSS: u32 = 1448;

fn t(ms: u64) -> SimTime {
    SimTime(ms * 1_000_000)
}

/// A Linux receiver whose rcv_mss has settled on the peer's 1448 bytes.
fn linux(always_quick: bool) -> AckPolicy {
    let mut p = AckPolicy::new(DelayedAck::Linux, always_quick, false);
    p.rcv_mss = MSS;
    p
}

#[test]
fn linux_starts_with_sixteen_quick_acks() {
    let mut p = linux(false);
    // rcv_wnd 64256 / (2 x 1448) = 22, capped at TCP_MAX_QUICKACKS.
    for _ in 0..16 {
        assert_eq!(p.on_data(t(0), MSS as u64, 64_256, false), AckDecision::Now);
        p.on_ack_sent();
    }
    assert_eq!(
        p.on_data(t(0), MSS as u64, 64_256, false),
        AckDecision::Delay(t(40))
    );
}

#[test]
fn a_small_window_gives_fewer_quick_acks_but_at_least_two() {
    let mut p = linux(false);
    assert_eq!(p.on_data(t(0), 100, 2_000, false), AckDecision::Now);
    p.on_ack_sent();
    assert_eq!(p.on_data(t(0), 100, 2_000, false), AckDecision::Now);
    p.on_ack_sent();
    assert!(matches!(
        p.on_data(t(0), 100, 2_000, false),
        AckDecision::Delay(_)
    ));
}

#[test]
fn a_growing_window_keeps_acks_quick() {
    let mut p = linux(false);
    for _ in 0..40 {
        assert_eq!(p.on_data(t(0), MSS as u64, 64_256, true), AckDecision::Now);
        p.on_ack_sent();
    }
}

#[test]
fn two_full_segments_are_acked_at_once_in_every_mode() {
    for mode in [
        DelayedAck::Linux,
        DelayedAck::Fixed(SimDuration::from_millis(200)),
        DelayedAck::Off,
    ] {
        let mut p = AckPolicy::new(mode, false, false);
        p.rcv_mss = MSS;
        p.quick = 0;
        p.started = true;
        assert_eq!(
            p.on_data(t(0), 2 * MSS as u64, 64_256, false),
            AckDecision::Now
        );
    }
}

#[test]
fn windows_waits_200ms_for_a_lone_segment() {
    let mut p = AckPolicy::new(
        DelayedAck::Fixed(SimDuration::from_millis(200)),
        false,
        false,
    );
    p.rcv_mss = MSS;
    assert_eq!(
        p.on_data(t(5), MSS as u64, 64_256, true),
        AckDecision::Delay(t(205))
    );
}

#[test]
fn replying_quickly_enters_ping_pong_and_ends_quick_acks() {
    let mut p = linux(false);
    assert_eq!(p.on_data(t(0), 100, 64_256, false), AckDecision::Now);
    p.on_data_sent(t(1)); // the reply left 1 ms after the request: interactive
    assert_eq!(
        p.on_data(t(10), 100, 64_256, false),
        AckDecision::Delay(t(50))
    );
    p.on_timer();
    assert!(
        p.in_quickack_mode(),
        "a missed delayed ACK leaves ping-pong mode"
    );
}

#[test]
fn a_timer_about_to_fire_sends_the_ack_now() {
    let mut p = linux(false);
    p.started = true;
    assert_eq!(
        p.on_data(t(0), 100, 64_256, false),
        AckDecision::Delay(t(40))
    );
    // 35 ms later the timer is within ato/4 = 10 ms of firing.
    assert_eq!(p.on_data(t(35), 200, 64_256, false), AckDecision::Now);
}

#[test]
fn quickack_route_attribute_acks_everything_at_once() {
    let mut p = linux(true);
    p.started = true;
    p.pingpong = 5;
    assert_eq!(p.on_data(t(0), 100, 64_256, false), AckDecision::Now);
}

/// A policy past its quick ACKs, with the RTT estimate of a 150 ms path.
fn delaying(rto_ms: u64, srtt_ms: u64) -> AckPolicy {
    let mut p = linux(false);
    p.started = true;
    p.set_rtt(
        SimDuration::from_millis(rto_ms),
        Some(SimDuration::from_millis(srtt_ms)),
    );
    p
}

#[test]
fn back_to_back_segments_keep_ato_at_40ms() {
    let mut p = delaying(350, 150);
    for i in 0..10 {
        // 100 bytes every 5 ms: ato = ato/2 + 20 ms stays 40 ms.
        let _ = p.on_data(t(5 * i), 100, 64_256, false);
        assert_eq!(p.ato(), TCP_ATO_MIN);
    }
}

#[test]
fn a_missed_delayed_ack_doubles_ato_up_to_the_rto_and_srtt_bounds_the_timer() {
    let mut p = delaying(200, 150);
    let mut now = 0;
    let mut armed = vec![];
    for _ in 0..4 {
        // Gaps of exactly the RTO: at least ato, so arrivals leave ato alone,
        // and not over the RTO, so no quick ACKs are granted.
        now += 200;
        match p.on_data(t(now), 100, 64_256, false) {
            AckDecision::Delay(at) => armed.push(at.since(t(now)).0 / 1_000_000),
            AckDecision::Now => panic!("not in quick-ACK mode"),
        }
        p.on_timer();
        p.on_ack_sent();
    }
    // ato: 40 → 80 → 160 → 200 (the RTO); the armed timer is capped by srtt.
    assert_eq!(armed, vec![40, 80, 150, 150]);
    assert_eq!(p.ato(), SimDuration::from_millis(200));
}

#[test]
fn a_gap_shorter_than_ato_pulls_it_halfway_down() {
    let mut p = delaying(400, 300);
    let _ = p.on_data(t(0), 100, 64_256, false);
    p.ato = SimDuration::from_millis(160);
    let _ = p.on_data(t(30), 100, 64_256, false);
    // 160/2 + 30
    assert_eq!(p.ato(), SimDuration::from_millis(110));
}

#[test]
fn a_missed_ack_in_ping_pong_resets_ato() {
    let mut p = delaying(400, 300);
    p.ato = SimDuration::from_millis(160);
    p.pingpong = TCP_PINGPONG_THRESH;
    // In ping-pong the timer is capped at 200 ms (and here by srtt 300 ms).
    assert_eq!(
        p.on_data(t(1_000), 100, 64_256, false),
        AckDecision::Delay(t(1_160))
    );
    p.on_timer();
    assert_eq!(p.ato(), TCP_ATO_MIN);
    assert!(p.pingpong < TCP_PINGPONG_THRESH);
}

#[test]
fn silence_longer_than_the_rto_brings_quick_acks_back() {
    let mut p = delaying(200, 20);
    let _ = p.on_data(t(0), 100, 64_256, false);
    assert!(!p.in_quickack_mode());
    assert_eq!(
        p.on_data(t(500), 100, 64_256, false),
        AckDecision::Now,
        "tcp_event_data_recv: a gap over the RTO calls tcp_incr_quickack"
    );
}

#[test]
fn a_window_of_one_to_two_segments_gives_one_quick_ack() {
    // tcp_incr_quickack: 4000 / (2 × 1448) = 1; only a zero becomes 2.
    let mut p = linux(false);
    assert_eq!(p.on_data(t(0), 100, 4_000, false), AckDecision::Now);
    p.on_ack_sent();
    assert!(matches!(
        p.on_data(t(1), 100, 4_000, false),
        AckDecision::Delay(_)
    ));
}

#[test]
fn a_pushed_segment_caps_the_delayed_ack_at_200ms() {
    // tcp_send_delayed_ack: with ICSK_ACK_PUSHED set, max_ato is
    // TCP_DELACK_MAX (200 ms) instead of HZ/2, as in ping-pong mode.
    let mut p = delaying(1_000, 900);
    p.ato = SimDuration::from_millis(400);
    // 100 ms after the last segment: ato = 400/2 + 100 = 300 ms.
    p.lrcvtime = t(1_900);
    let short = Arrival {
        len: 100,
        header_len: TCP_HEADER_LEN,
        psh: true,
    };
    p.measure_rcv_mss(short, MSS);
    assert_eq!(
        p.on_data(t(2_000), 100, 64_256, false),
        AckDecision::Delay(t(2_200))
    );
}

#[test]
fn since_5_10_bulk_data_waits_200ms_at_most_not_hz_over_2() {
    // tcp_send_delayed_ack: outside ping-pong and without PUSHED, max_ato is
    // HZ/2 (500 ms), bounded by srtt (900 ms here, so not at all); 5.10's
    // `icsk_delack_max` (TCP_DELACK_MAX) then caps what is left at 200 ms.
    for (cap, waits) in [(false, 300), (true, 200)] {
        let mut p = delaying(1_000, 900).with_timer(Hz::DEFAULT, TimerWheel::Cascading, cap);
        p.ato = SimDuration::from_millis(400);
        // 100 ms after the last segment: ato = 400/2 + 100 = 300 ms.
        p.lrcvtime = t(1_900);
        assert_eq!(
            p.on_data(t(2_000), 100, 64_256, false),
            AckDecision::Delay(t(2_000 + waits)),
            "cap {cap}"
        );
    }
}

#[test]
fn todays_wheel_runs_a_200ms_timer_on_the_next_8_tick_boundary() {
    // 200 ticks is past level 0 (63 ticks): calc_index at level 1 gives
    // ((expires >> 3) + 1) << 3. Armed at tick 2000: expires 2200 → 2208.
    let mut p = delaying(1_000, 900).with_timer(Hz::DEFAULT, TimerWheel::RoundsUp, true);
    p.ato = SimDuration::from_millis(400);
    p.lrcvtime = t(1_900);
    assert_eq!(
        p.on_data(t(2_000), 100, 64_256, false),
        AckDecision::Delay(t(2_208))
    );
}

#[test]
fn a_repeated_short_length_without_psh_becomes_rcv_mss() {
    // tcp_measure_rcv_mss: a segment of the same short length twice, with
    // no PSH, is taken as the peer's MSS (a small path MTU); with PSH it
    // only marks the connection PUSHED, then PUSHED2.
    let mut p = AckPolicy::new(DelayedAck::Linux, false, false);
    let seg = |len, psh| Arrival {
        len,
        header_len: TCP_HEADER_LEN,
        psh,
    };
    assert!(!p.measure_rcv_mss(seg(500, false), MSS));
    assert_eq!(p.rcv_mss(), TCP_MSS_DEFAULT);
    p.measure_rcv_mss(seg(500, false), MSS);
    assert_eq!(p.rcv_mss(), 500);
    let mut p = AckPolicy::new(DelayedAck::Linux, false, false);
    p.measure_rcv_mss(seg(500, true), MSS);
    p.measure_rcv_mss(seg(500, true), MSS);
    assert_eq!(p.rcv_mss(), TCP_MSS_DEFAULT);
    assert!(p.pushed && p.pushed2);
    // A full-sized segment sets rcv_mss, and PUSHED only with the 6.6 switch.
    assert!(p.measure_rcv_mss(seg(1448, true), MSS));
    p.on_ack_sent();
    p.measure_rcv_mss(seg(1448, true), MSS);
    assert!(!p.pushed);
    let mut p = AckPolicy::new(DelayedAck::Linux, false, true);
    p.measure_rcv_mss(seg(1448, true), MSS);
    assert!(p.pushed && !p.pushed2);
}

#[test]
fn the_read_acks_what_softirq_left_or_a_drained_pushed_segment() {
    // tcp_cleanup_rbuf's first rule: an ACK is scheduled and either more
    // than rcv_mss is unacknowledged, or the read emptied the buffer
    // after PUSHED outside ping-pong (or PUSHED2 in any mode).
    let mut p = linux(false);
    p.on_data_recv(t(0), 64_256);
    assert!(p.cleanup_rbuf(2 * MSS as u64, 2 * MSS as u64, false));
    assert!(!p.cleanup_rbuf(MSS as u64, MSS as u64, true));
    p.pushed = true;
    assert!(p.cleanup_rbuf(MSS as u64, MSS as u64, true));
    assert!(
        !p.cleanup_rbuf(MSS as u64, MSS as u64, false),
        "not drained"
    );
    assert!(!p.cleanup_rbuf(0, MSS as u64, true), "nothing read");
    p.pingpong = TCP_PINGPONG_THRESH;
    assert!(!p.cleanup_rbuf(MSS as u64, MSS as u64, true));
    p.pushed2 = true;
    assert!(p.cleanup_rbuf(MSS as u64, MSS as u64, true));
    p.on_ack_sent();
    assert!(
        !p.cleanup_rbuf(MSS as u64, 2 * MSS as u64, true),
        "nothing due"
    );
}

#[test]
fn with_a_threshold_of_three_the_fourth_quick_reply_turns_the_connection_interactive() {
    // 5.1 to 5.18: tcp_event_data_sent counts the first data sent after data
    // arrived (lsndtime before lrcvtime, in jiffies) within ato of it.
    let mut p = linux(false).with_pingpong_thresh(3);
    let mut ms = 1;
    for replies in 1..=3 {
        p.on_data_recv(t(ms), 64_256);
        assert!(p.in_quickack_mode(), "after {} replies", replies - 1);
        p.on_ack_sent();
        // A second send in the same exchange does not count again.
        p.on_data_sent(t(ms + 1));
        p.on_data_sent(t(ms + 1));
        ms += 2;
    }
    assert!(!p.in_quickack_mode());
    // On a path shorter than a jiffy (loopback), each request arrives in
    // the tick of the previous reply: only the first reply counts, the
    // coarseness that sent the threshold back to 1.
    let mut p = linux(false).with_pingpong_thresh(3);
    let us = |n: u64| SimTime(t(ms).0 + n * 1_000);
    for k in 0..6 {
        p.on_data_recv(us(100 * k), 64_256);
        p.on_data_sent(us(100 * k + 50));
    }
    assert!(p.in_quickack_mode());
    // Today's threshold: one quick reply is enough.
    let mut p = linux(false);
    p.on_data_recv(t(1), 64_256);
    p.on_data_sent(t(2));
    assert!(!p.in_quickack_mode());
}
