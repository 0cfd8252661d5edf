use super::*;

const MS: u64 = 1_000_000;
const US: u64 = 1_000;

fn cb(cwnd: u32) -> ControlBlock {
    ControlBlock {
        cwnd,
        ..ControlBlock::new(10)
    }
}

/// An ACK at `t_us` µs with a sample of `delay_us` and a minimum of
/// `delay_min_us`, inside the round that ends at 1,000,000.
fn ack(t_us: u64, delay_us: u64, delay_min_us: u64) -> HyStartAck {
    HyStartAck {
        now: SimTime(t_us * US),
        snd_una: 10,
        snd_nxt: 1_000_000,
        delay_us,
        delay_min_us,
        paced: false,
        pacing_rate: 0,
    }
}

/// A HyStart of `rules` whose round began at time 0.
fn started(rules: HyStartRules) -> HyStart {
    let mut h = HyStart::new(rules);
    h.reset(SimTime::ZERO, 1_000_000);
    h
}

/// When (µs) a train of ACKs `gap_us` apart, from the round's start, ends
/// slow start; `None` if it does not within 100 ACKs.
fn train_ends_at(
    h: &mut HyStart,
    gap_us: u64,
    f: impl Fn(HyStartAck) -> HyStartAck,
) -> Option<u64> {
    let mut c = cb(100);
    for i in 1..=100u64 {
        let a = f(ack(i * gap_us, 4_000, 4_000));
        h.update(&mut c, &a);
        if h.found.is_some() {
            assert_eq!(h.found, Some(Found::AckTrain));
            assert_eq!(c.ssthresh, 100, "ssthresh = cwnd");
            return Some(i * gap_us);
        }
    }
    None
}

#[test]
fn below_16_segments_hystart_does_nothing() {
    for rules in [HyStartRules::Ms16, HyStartRules::Ms8, HyStartRules::Us] {
        let mut h = started(rules);
        let mut c = cb(15);
        h.update(&mut c, &ack(60_000, 100_000, 1_000));
        assert_eq!(h.found, None, "{rules:?}");
    }
}

#[test]
fn today_an_unpaced_train_ends_slow_start_past_half_of_delay_min_plus_ack_delay() {
    // 4 ms minimum RTT; pacing rate 100 MB/s: ack_delay = 65536·4 / 100e6 s
    // = 2.6 ms, capped at 1 ms. Threshold (4000 + 1000) / 2 = 2500 µs: the
    // ACK at 2600 µs (> 2500) ends it; the one at 2500 does not.
    let rate = |a: HyStartAck| HyStartAck {
        pacing_rate: 100_000_000,
        ..a
    };
    assert_eq!(
        train_ends_at(&mut started(HyStartRules::Us), 100, rate),
        Some(2_600)
    );
    // Without a pacing rate yet, no allowance: 4000 / 2 = 2000.
    assert_eq!(
        train_ends_at(&mut started(HyStartRules::Us), 100, |a| a),
        Some(2_100)
    );
}

#[test]
fn today_a_paced_train_must_last_the_whole_min_rtt_plus_ack_delay() {
    // sk_pacing_status != SK_PACING_NONE (fq, or BBR-style internal pacing):
    // the threshold is not halved, 4000 + 1000 = 5000 µs.
    let paced = |a: HyStartAck| HyStartAck {
        paced: true,
        pacing_rate: 100_000_000,
        ..a
    };
    assert_eq!(
        train_ends_at(&mut started(HyStartRules::Us), 100, paced),
        Some(5_100)
    );
    // The allowance shrinks as the rate grows: at 1 GB/s, 262 µs.
    assert_eq!(hystart_ack_delay(1_000_000_000), 262);
    assert_eq!(hystart_ack_delay(0), 0);
}

#[test]
fn before_5_7_the_train_is_counted_in_whole_milliseconds_past_half_the_min_rtt() {
    // delay_min 4 ms = 32 eighths; >> 4 = 2 ms. The clock is jiffies (ms):
    // ACKs 100 µs apart pass "> 2 ms" at 3 ms, whatever pacing does.
    for rules in [HyStartRules::Ms16, HyStartRules::Ms8] {
        let paced = |a: HyStartAck| HyStartAck { paced: true, ..a };
        assert_eq!(
            train_ends_at(&mut started(rules), 100, paced),
            Some(3_000),
            "{rules:?}"
        );
    }
}

#[test]
fn a_gap_between_acks_breaks_the_train() {
    // ACKs 3 ms apart (over the 2 ms delta): never a train.
    for rules in [HyStartRules::Ms8, HyStartRules::Us] {
        let mut h = started(rules);
        let mut c = cb(100);
        for i in 1..=5u64 {
            h.update(&mut c, &ack(i * 3_000, 10_000, 10_000));
        }
        assert_eq!(h.found, None, "{rules:?}");
    }
}

/// The ninth sample of `sample_us` (after eight of them, 10 ms apart, no
/// train) ends slow start?
fn delay_found(rules: HyStartRules, sample_us: u64, delay_min_us: u64) -> bool {
    let mut h = started(rules);
    let mut c = cb(100);
    for i in 1..=9u64 {
        h.update(&mut c, &ack(i * 10_000, sample_us, delay_min_us));
        if i < 9 {
            assert_eq!(h.found, None);
        }
    }
    h.found == Some(Found::Delay)
}

#[test]
fn the_delay_margin_is_an_eighth_of_the_min_rtt_from_4_to_16_ms_since_4_x() {
    // 40 ms: margin clamp(5, 4, 16) = 5 ms; the round's least sample must
    // exceed 45 ms (in eighths of a ms before 5.7: 360).
    for rules in [HyStartRules::Ms8, HyStartRules::Us] {
        assert!(!delay_found(rules, 45_000, 40_000), "{rules:?}");
        assert!(delay_found(rules, 45_200, 40_000), "{rules:?}");
    }
    // 200 ms: 25 ms, clamped to 16.
    assert!(delay_found(HyStartRules::Us, 216_001, 200_000));
    assert!(!delay_found(HyStartRules::Us, 216_000, 200_000));
}

#[test]
fn on_3_10_the_margin_is_a_sixteenth_so_the_4_ms_floor_holds_to_64_ms() {
    // 40 ms: 40/16 = 2.5 ms, floored at 4: over 44 ms ends it (44.2 does;
    // 4.x and later need over 45).
    assert!(delay_found(HyStartRules::Ms16, 44_200, 40_000));
    assert!(!delay_found(HyStartRules::Ms8, 44_200, 40_000));
}

#[test]
fn today_the_delay_test_keeps_the_least_sample_of_the_whole_round() {
    // Eight samples at 50 ms then one at 41 ms (min 40 ms, margin 5): the
    // round's least is 41, under 45, so no exit on 5.7+ ... but before 5.7
    // only the first eight count, and 50 > 45 ends slow start.
    let run = |rules| {
        let mut h = started(rules);
        let mut c = cb(100);
        for i in 1..=8u64 {
            h.update(&mut c, &ack(i * 10_000, 50_000, 40_000));
        }
        h.update(&mut c, &ack(90_000, 41_000, 40_000));
        h.found
    };
    assert_eq!(run(HyStartRules::Us), None);
    assert_eq!(run(HyStartRules::Ms8), Some(Found::Delay));
}

#[test]
fn today_a_round_starts_in_hystart_update_even_below_16_segments() {
    // 25c1a9ca53db: the round check comes before the low-window test.
    let mut h = HyStart::new(HyStartRules::Us);
    let mut c = cb(12);
    let a = HyStartAck {
        snd_una: 5_000,
        snd_nxt: 20_000,
        ..ack(7_000, 4_000, 4_000)
    };
    h.update(&mut c, &a);
    assert_eq!((h.end_seq, h.round_start), (20_000, 7_000));
}

#[test]
fn before_5_7_the_round_starts_in_cong_avoid() {
    // The ACK past end_seq is judged against the old round first; the round
    // restarts only when cong_avoid runs, from the same ACK's snd_nxt.
    let mut h = started(HyStartRules::Ms8);
    let mut c = cb(100);
    let past = HyStartAck {
        snd_una: 1_000_001,
        snd_nxt: 3_000_000,
        ..ack(1_000, 4_000, 4_000)
    };
    h.update(&mut c, &past);
    assert_eq!(h.end_seq, 1_000_000);
    h.on_slow_start_ack(SimTime(1_000 * US));
    assert_eq!((h.end_seq, h.round_start), (3_000_000, 1));
    // On 5.7+ the cong_avoid hook does nothing.
    let mut t = started(HyStartRules::Us);
    t.last_seqs = (2_000_000, 3_000_000);
    t.on_slow_start_ack(SimTime(MS));
    assert_eq!(t.end_seq, 1_000_000);
}
