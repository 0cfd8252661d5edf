use super::model::BBR_BW_RTTS;
use super::pacing::{BBR_TSO_MAX_BYTES, rate_bytes_per_sec, tso_segs_goal};
use super::probe_bw::CYCLE_LEN;
use super::startup::BBR_FULL_BW_THRESH;
use super::*;
use std::collections::VecDeque;

const MSS: u32 = 1448;
/// 1000 segments/s in BW units: 100 segments over 100 ms = 100·2^24/100000 = 16777.216.
const BW_1K: u32 = 16777;

/// A path ACK-clocked at one segment per millisecond: each ACK delivers
/// one segment and the segment it releases is ACKed one round later
/// (`acks_per_round` ACKs on). Rate samples report `bw_pps` exactly
/// (interval = delivered / bw_pps); the sender keeps min(cwnd, cap) in flight.
struct Path {
    bbr: Bbr,
    cb: ControlBlock,
    now: SimTime,
    rtt: SimDuration,
    bw_pps: u64,
    /// `tp->delivered` when each outstanding segment was sent, oldest first.
    sent_at: VecDeque<u64>,
    flight: u32,
    cap: u32,
    app_limited: bool,
    losses: u32,
}

impl Path {
    /// 1000 segments/s over `rtt_ms`: a BDP of `rtt_ms` segments.
    fn new(seed: u64, rtt_ms: u64) -> Path {
        let mut cb = ControlBlock::new(10);
        cb.mss = MSS;
        cb.srtt = Some(SimDuration::from_millis(rtt_ms));
        let mut bbr = Bbr::with_seed(seed);
        bbr.init(&mut cb, SimTime::ZERO);
        Path {
            bbr,
            cb,
            now: SimTime::ZERO,
            rtt: SimDuration::from_millis(rtt_ms),
            bw_pps: 1000,
            sent_at: (0..rtt_ms).map(|_| 0).collect(),
            flight: 10,
            cap: u32::MAX,
            app_limited: false,
            losses: 0,
        }
    }

    fn ack_with(&mut self, tweak: impl FnOnce(&mut RateSample, &mut ControlBlock)) {
        self.now += SimDuration::from_millis(1);
        let prior_delivered = self.sent_at.pop_front().unwrap_or(0);
        self.cb.delivered += 1;
        self.sent_at.push_back(self.cb.delivered);
        let delivered = self.cb.delivered - prior_delivered;
        let mut rs = RateSample {
            now: self.now,
            prior_delivered,
            delivered,
            interval: Some(SimDuration::from_micros(
                delivered * 1_000_000 / self.bw_pps,
            )),
            rtt: Some(self.rtt),
            losses: self.losses,
            acked_sacked: 1,
            prior_in_flight: self.flight,
            is_app_limited: self.app_limited,
        };
        self.cb.in_flight = self.flight - 1;
        self.cb.app_limited = self.app_limited;
        tweak(&mut rs, &mut self.cb);
        assert!(self.bbr.cong_control(&mut self.cb, &rs));
        self.flight = self.cb.cwnd.min(self.cap);
    }

    fn ack(&mut self) {
        self.ack_with(|_, _| {});
    }

    fn acks(&mut self, n: u64) {
        for _ in 0..n {
            self.ack();
        }
    }

    fn mode(&self) -> &'static str {
        self.bbr.mode().unwrap()
    }

    /// Startup until the pipe is full, then drain to ProbeBW.
    fn in_probe_bw(seed: u64) -> Path {
        let mut p = Path::new(seed, 100);
        while p.mode() == "startup" {
            p.ack();
        }
        p.cap = 100;
        while p.mode() != "probe_bw" {
            p.ack();
        }
        p.cap = u32::MAX;
        // Let cwnd settle at its ProbeBW target.
        p.acks(300);
        p
    }
}

#[test]
fn the_kernels_constants() {
    assert_eq!(BBR_HIGH_GAIN, 739, "256 x 2885 / 1000 + 1");
    assert_eq!(BBR_DRAIN_GAIN, 88, "256 x 1000 / 2885");
    assert_eq!(BBR_CWND_GAIN, 512);
    assert_eq!(BBR_PACING_GAIN, [320, 192, 256, 256, 256, 256, 256, 256]);
    assert_eq!(BBR_BW_RTTS, 10);
    assert_eq!(BBR_FULL_BW_THRESH, 320);
    assert_eq!(BBR_TSO_MAX_BYTES, 65_215);
}

#[test]
fn pacing_rate_from_a_bandwidth() {
    // 10,000 segments/s is 10 segments per 1000 µs: 10·2^24/1000 = 167772 (from 167772.16).
    let bw = 10 * BW_UNIT / 1000;
    assert_eq!(bw, 167_772);
    // 167772 x 1448 = 242,933,856 (x 256 >> 8 unchanged) x 990,000 >> 24
    // = 14,335,186 B/s: 10,000 x 1448 x 0.99 = 14,335,200 less the scaling's truncation.
    assert_eq!(rate_bytes_per_sec(bw, 1448, BBR_UNIT), 14_335_186);
    // Startup at 1000 segments/s: 16777 x 1448 x 739 >> 8 = 70,127,335; x 990,000 >> 24.
    assert_eq!(
        rate_bytes_per_sec(BW_1K as u64, 1448, BBR_HIGH_GAIN),
        4_138_115
    );
}

#[test]
fn initial_pacing_rate_is_high_gain_times_initcwnd_over_rtt() {
    // srtt 100 ms: bw = 10·2^24/100000 = 1677; x 1448 x 739 >> 8, x 990,000 >> 24.
    let p = Path::new(0, 100);
    assert_eq!(p.cb.pacing_rate, 413_638);
    assert_eq!(p.bbr.min_rtt(), Some(SimDuration::from_millis(100)));
    // No handshake RTT: 1 ms, so 100x that (to the truncation of bw 167772).
    let mut cb = ControlBlock::new(10);
    Bbr::default().init(&mut cb, SimTime::ZERO);
    assert_eq!(cb.pacing_rate, 41_381_651);
}

#[test]
fn tso_goal_is_a_millisecond_of_data_within_1_and_the_64k_cap() {
    assert_eq!(tso_segs_goal(149_999, 1448), 1, "below 1.2 Mbit/s");
    assert_eq!(tso_segs_goal(150_000, 1448), 2);
    // 14,335,186 >> 10 = 13,999 bytes = 9 segments.
    assert_eq!(tso_segs_goal(14_335_186, 1448), 9);
    // 10 Gbit/s: capped at 65,215 bytes = 45 segments.
    assert_eq!(tso_segs_goal(1_250_000_000, 1448), 45);
}

#[test]
fn startup_paces_and_grows_cwnd_at_high_gain_up_to_its_target() {
    let mut p = Path::new(0, 100);
    p.ack();
    assert_eq!(p.mode(), "startup");
    assert_eq!(p.bbr.max_bw(), BW_1K);
    assert_eq!(p.bbr.gains(), (739, 739));
    assert_eq!(p.cb.pacing_rate, 4_138_115);
    // Each ACK grows cwnd by what it delivered, as slow start does.
    assert_eq!(p.cb.cwnd, 11);
    // (Always for the first 10 delivered, tp->delivered < TCP_INIT_CWND.)
    p.acks(9);
    // Target: ceil(16777 x 100000 x 739/256 / 2^24) = 289, + 3 x tso goal
    // (4,138,115 >> 10 = 4041 bytes: 2 segments) = 295, even: 296.
    p.cb.cwnd = 290;
    p.ack();
    assert_eq!(p.cb.cwnd, 291);
    p.acks(5);
    assert_eq!(p.cb.cwnd, 296);
    p.ack();
    assert_eq!(p.cb.cwnd, 296, "at the target growth stops...");
    p.cb.cwnd = 400;
    p.ack();
    assert_eq!(p.cb.cwnd, 400, "...but Startup never cuts cwnd");
}

#[test]
fn startup_ends_after_three_rounds_without_25_percent_growth() {
    let mut p = Path::new(0, 100);
    // Round 1 sets full_bw; rounds 2, 3 and 4 see no growth.
    p.acks(300);
    assert_eq!((p.mode(), p.bbr.full_bw_cnt), ("startup", 2));
    p.ack();
    assert_eq!(p.bbr.rtt_cnt, 4);
    assert_eq!(p.mode(), "drain");
    assert_eq!(p.bbr.gains(), (88, 739));
    assert_eq!(
        p.cb.pacing_rate, 492_766,
        "16777 x 1448 x 88/256, 1 % under"
    );
    // ssthresh = BDP 100 + 3 x 2 = 106.
    assert_eq!(p.cb.ssthresh, 106);

    // Growing 25 % a round keeps it in Startup.
    let mut p = Path::new(0, 100);
    for _ in 0..6 {
        p.acks(100);
        p.bw_pps = p.bw_pps * 5 / 4;
    }
    assert_eq!(p.mode(), "startup");
}

#[test]
fn drain_ends_once_inflight_is_down_to_bdp() {
    let mut p = Path::new(0, 100);
    p.acks(301);
    assert_eq!(p.mode(), "drain");
    // inflight(bw, 1.0) = 100 + 3 x 2 = 106: 107 after the ACK keeps draining.
    p.cap = 108;
    p.acks(2);
    assert_eq!((p.cb.in_flight, p.mode()), (107, "drain"));
    p.cap = 107;
    p.acks(2);
    assert_eq!((p.cb.in_flight, p.mode()), (106, "probe_bw"));
}

#[test]
fn windowed_max_keeps_a_sample_for_10_rounds() {
    let mut m = WindowedMax::default();
    m.update(10, 1, 100);
    for t in 2..=11 {
        m.update(10, t, 50);
        assert_eq!(m.get(), 100, "round {t}");
    }
    m.update(10, 12, 50);
    assert_eq!(m.get(), 50);
    // Falls back to the best of the rest, not the newest.
    let mut m = WindowedMax::default();
    m.update(10, 1, 100);
    m.update(10, 4, 80);
    m.update(10, 8, 60);
    m.update(10, 12, 40);
    assert_eq!(m.get(), 80);
}

#[test]
fn the_max_filter_forgets_a_rate_after_10_rounds() {
    let mut p = Path::in_probe_bw(0);
    // Rounds start every 100 ACKs; finish this one at the full rate.
    let r0 = p.bbr.rtt_cnt;
    while p.bbr.rtt_cnt == r0 {
        p.ack();
    }
    p.acks(99);
    // Half the rate from the next round on: the old max lasts 10 more rounds.
    p.bw_pps = 500;
    p.acks(1000);
    assert_eq!(p.bbr.rtt_cnt, r0 + 11);
    assert_eq!(p.bbr.max_bw(), BW_1K);
    p.ack();
    assert_eq!(p.bbr.max_bw(), BW_1K / 2, "100·2^24/200000 = 8388");
}

#[test]
fn app_limited_samples_only_count_when_they_raise_the_max() {
    let mut p = Path::in_probe_bw(0);
    p.app_limited = true;
    p.bw_pps = 500;
    p.acks(500);
    assert_eq!(p.bbr.max_bw(), BW_1K, "lower: ignored");
    p.bw_pps = 2000;
    p.ack();
    assert_eq!(
        p.bbr.max_bw(),
        2 * BW_1K,
        "higher: the path is at least that fast"
    );
}

#[test]
fn probe_bw_moves_one_phase_per_min_rtt() {
    let mut p = Path::in_probe_bw(3);
    let idx = p.bbr.cycle_idx;
    while p.bbr.cycle_idx == idx {
        p.ack();
    }
    // A phase just began; it lasts while delivered_mstamp - cycle_mstamp ≤ 100,000 µs.
    let idx = p.bbr.cycle_idx;
    p.acks(100);
    assert_eq!(p.bbr.cycle_idx, idx);
    p.ack();
    assert_eq!(p.bbr.cycle_idx, (idx + 1) % CYCLE_LEN);
}

#[test]
fn the_1_25_phase_holds_until_inflight_reaches_1_25_bdp_or_a_loss() {
    let mut p = Path::in_probe_bw(0);
    p.cap = 131;
    while p.bbr.cycle_idx != 0 {
        p.ack();
    }
    assert_eq!(p.bbr.gains(), (320, 512));
    assert_eq!(
        p.cb.pacing_rate, 1_791_876,
        "16777 x 1448 x 1.25, 1 % under"
    );
    // inflight(bw, 1.25) = ceil(16777 x 100000 x 320/256 / 2^24) = 125, + 6 = 131,
    // even 132, + 2 in this phase = 134. In the network at EDT: prior_in_flight
    // + the 2-segment burst about to leave = 133 < 134: keep probing.
    p.acks(300);
    assert_eq!(p.bbr.cycle_idx, 0);
    p.cap = 132;
    p.acks(2);
    assert_eq!(p.bbr.cycle_idx, 1, "132 + 2 ≥ 134");
    assert_eq!(p.bbr.gains(), (192, 512));

    // A loss ends the probe once a min_rtt has passed, whatever inflight.
    let mut p = Path::in_probe_bw(0);
    p.cap = 100;
    while p.bbr.cycle_idx != 0 {
        p.ack();
    }
    p.acks(150);
    assert_eq!(p.bbr.cycle_idx, 0);
    p.ack_with(|rs, _| rs.losses = 1);
    assert_eq!(p.bbr.cycle_idx, 1);
}

#[test]
fn the_0_75_phase_ends_early_once_inflight_is_down_to_bdp() {
    let mut p = Path::in_probe_bw(0);
    while p.bbr.cycle_idx != 1 {
        p.ack();
    }
    // inflight(bw, 1.0) = 100 + 6 = 106.
    p.cap = 107;
    p.acks(3);
    assert_eq!(p.bbr.cycle_idx, 1);
    p.cap = 106;
    p.acks(2);
    assert_eq!(p.bbr.cycle_idx, 2);
}

#[test]
fn probe_bw_cwnd_is_2_bdp_plus_aggregation_and_budget() {
    let mut p = Path::in_probe_bw(0);
    while p.bbr.cycle_idx != 2 {
        p.ack();
    }
    p.ack();
    // ceil(2 x 16777 x 100000 / 2^24) = 200; extra_acked: each epoch's first
    // ACK counts in full and the estimate (16777.0) trails the ACKs
    // (16777.216) by one, so 2; budget 3 x 2 = 6.
    assert_eq!(p.bbr.ack_aggregation_cwnd(), 2);
    assert_eq!(p.cb.cwnd, 208);
    assert_eq!(p.bbr.gains(), (256, 512));
    assert_eq!(p.cb.pacing_rate, 1_433_501);
}

#[test]
fn an_expired_min_rtt_enters_probe_rtt_for_200_ms_then_restores_cwnd() {
    let mut p = Path::in_probe_bw(0);
    let cwnd = p.cb.cwnd;
    // RTTs above min_rtt never refresh it.
    p.rtt = SimDuration::from_millis(110);
    let last_refresh = p.now;
    while p.mode() == "probe_bw" {
        p.ack();
    }
    assert_eq!(p.mode(), "probe_rtt");
    // Expired once the jiffy clock is past stamp + 10,000: 10.001 s at the latest.
    let waited = p.now.since(last_refresh);
    assert!(waited > SimDuration::from_secs(10), "{waited}");
    assert!(waited <= SimDuration::from_millis(10_002), "{waited}");
    assert_eq!(p.cb.cwnd, 4);
    assert_eq!(p.bbr.prior_cwnd, cwnd);
    assert_eq!(p.bbr.min_rtt(), Some(SimDuration::from_millis(110)));
    assert!(p.cb.app_limited, "ProbeRTT's samples must not count");
    // Next ACK: in flight ≤ 4, so the 200 ms start now.
    p.ack();
    let start = p.now;
    while p.mode() == "probe_rtt" {
        p.ack();
        assert_eq!(p.cb.cwnd.min(p.cb.in_flight), p.cb.in_flight.min(4));
    }
    // The round ended after 100 ms; the time ends at the first jiffy past 200 ms.
    assert_eq!(p.now.since(start), SimDuration::from_millis(201));
    assert_eq!(p.mode(), "probe_bw");
    // prior cwnd restored, then this ACK's growth towards the new target
    // (2 BDP at 110 ms: 220 + 2 + 6).
    assert_eq!(p.cb.cwnd, cwnd + 1);
}

#[test]
fn probe_rtt_also_waits_for_a_round_trip_at_4_segments() {
    // 300 ms RTT: the round takes longer than the 200 ms. App-limited
    // throughout, so Startup never judges the pipe full.
    let mut p = Path::new(0, 300);
    p.app_limited = true;
    while p.mode() != "probe_rtt" {
        p.rtt = SimDuration::from_millis(301);
        p.ack();
    }
    p.ack();
    let start = p.now;
    while p.mode() == "probe_rtt" {
        p.ack();
    }
    assert_eq!(p.now.since(start), SimDuration::from_millis(300));
    // The pipe was never found full: back to Startup.
    assert_eq!(p.mode(), "startup");
}

#[test]
fn recovery_conserves_packets_for_a_round_then_restores_cwnd() {
    let mut p = Path::in_probe_bw(0);
    while p.bbr.cycle_idx != 3 {
        p.ack();
    }
    p.ack();
    assert_eq!(p.cb.cwnd, 208);
    // tcp_enter_recovery: ssthresh, then the state.
    assert_eq!(p.bbr.ssthresh(&p.cb), p.cb.ssthresh);
    assert_eq!(p.bbr.prior_cwnd, 208);
    p.bbr.set_state(CaState::Recovery);
    p.cb.ca_state = CaState::Recovery;
    // First ACK in recovery: cwnd = in flight + acked = 150 + 1, whatever it was.
    p.ack_with(|rs, cb| {
        rs.losses = 3;
        cb.in_flight = 150;
    });
    assert_eq!(p.cb.cwnd, 151);
    // Packet conservation: one out per one delivered.
    p.cap = u32::MAX;
    p.acks(50);
    assert_eq!(p.cb.cwnd, 151);
    // A round later: grow by what is delivered (2 out per 1 in).
    p.acks(50);
    assert_eq!(p.cb.cwnd, 152);
    p.acks(10);
    assert_eq!(p.cb.cwnd, 162);
    // Recovery over: back to the saved 208 (the target caps it there).
    p.cb.ca_state = CaState::Open;
    p.bbr.set_state(CaState::Open);
    p.ack();
    assert_eq!(p.cb.cwnd, 208);
}

#[test]
fn probe_bw_never_starts_in_the_0_75_phase_and_seeds_are_deterministic() {
    let mut b = Bbr::with_seed(1);
    let mut seen = [0; CYCLE_LEN];
    for _ in 0..700 {
        b.reset_probe_bw_mode();
        seen[b.cycle_idx] += 1;
    }
    assert_eq!(seen[1], 0);
    assert!(
        seen.iter().enumerate().all(|(i, &n)| i == 1 || n > 60),
        "{seen:?}"
    );

    let run = |seed| {
        let mut p = Path::in_probe_bw(seed);
        (0..2000)
            .map(|_| {
                p.ack();
                (p.mode(), p.bbr.cycle_idx, p.cb.cwnd, p.cb.pacing_rate)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(7), run(7));
    let starts = (0..8)
        .map(|s| Path::in_probe_bw(s).bbr.cycle_idx)
        .collect::<Vec<_>>();
    assert!(starts.iter().any(|&i| i != starts[0]), "{starts:?}");
}

#[test]
fn a_policer_is_detected_from_two_lossy_intervals_at_the_same_rate() {
    // Samples claim 2000 segments/s (bursts through a full token bucket),
    // but the path delivers 1 segment per ms and drops one segment per ACK.
    let mut p = Path::in_probe_bw(0);
    p.bw_pps = 2000;
    p.acks(100);
    assert_eq!(p.bbr.bw(), 2 * BW_1K, "200·2^24/100000 = 33554.4");
    p.losses = 1;
    p.acks(400);
    assert!(p.bbr.lt.is_sampling && !p.bbr.lt.use_bw);
    assert_eq!(p.bbr.lt.bw, BW_1K, "1 segment per ms");
    p.acks(400);
    assert!(p.bbr.lt.use_bw);
    assert_eq!(p.bbr.bw(), BW_1K);
    assert_eq!(p.bbr.gains(), (256, 512), "no gain cycling while policed");
    // After 48 rounds it stops trusting lt_bw and probes again.
    p.losses = 0;
    p.acks(48 * 100);
    assert!(!p.bbr.lt.use_bw);
    assert_eq!(p.bbr.bw(), 2 * BW_1K);
}

#[test]
fn an_rto_restarts_full_pipe_detection_and_undo_resets_it() {
    let mut p = Path::in_probe_bw(0);
    assert_eq!(p.bbr.full_bw, BW_1K);
    p.bbr.set_state(CaState::Loss);
    assert_eq!((p.bbr.full_bw, p.bbr.prev_ca_state), (0, CaState::Loss));
    assert!(p.bbr.round_start && p.bbr.lt.is_sampling);
    assert_eq!(p.bbr.undo_cwnd(&p.cb), p.cb.cwnd);
    p.ack();
    assert!(!p.bbr.lt.is_sampling, "undo took effect at the next hook");
    assert_eq!(p.mode(), "probe_bw", "a full pipe stays full");
}

#[test]
fn restarting_from_idle_paces_at_the_estimate() {
    let mut p = Path::in_probe_bw(0);
    while p.bbr.cycle_idx != 0 {
        p.ack();
    }
    assert_eq!(p.cb.pacing_rate, 1_791_876);
    p.cb.app_limited = true;
    p.bbr.cwnd_event(&mut p.cb, CwndEvent::TxStart, p.now);
    assert_eq!(p.cb.pacing_rate, 1_433_501, "gain 1.0");
    assert!(p.bbr.idle_restart);
}

#[test]
fn registered_by_its_kernel_name() {
    let a = crate::cc::Algorithm::by_name("bbr").unwrap();
    assert_eq!((a.name(), a.mode()), ("bbr", Some("startup")));
    assert!(a.needs_pacing());
    assert_eq!(a.sndbuf_expand(), 3);
}

/// `bbr_get_info`: max_bw at the socket's MSS in bytes per second, the
/// min_rtt filter in µs and the gains in 1/256, as `ss -i` reads them.
#[test]
fn get_info_exports_the_model() {
    let mut p = Path::in_probe_bw(0);
    while p.bbr.cycle_idx != 2 {
        p.ack();
    }
    p.ack();
    // 16777 x 1448 x 10^6 >> 24 = 1,447,981 B/s: 1000 segments/s.
    assert_eq!(
        p.bbr.get_info(&p.cb),
        CcInfo::Bbr {
            bw: 1_447_981,
            min_rtt_us: 100_000,
            pacing_gain: 256,
            cwnd_gain: 512,
        }
    );
    assert_eq!(p.bbr.bandwidth(), 1_447_981);
    assert_eq!(p.bbr.min_rtt(), Some(SimDuration::from_millis(100)));
}
