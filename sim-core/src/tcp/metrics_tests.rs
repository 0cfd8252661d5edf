//! Each rule of tcp_metrics.c, on the cache alone (the packet-level tests
//! are in `tests/tcp_metrics.rs`).

use super::*;

fn closing(cwnd: u32, ssthresh: u32) -> Closing {
    Closing {
        srtt_ns: Some(100_000_000),
        rttvar_ns: 10_000_000,
        cwnd,
        ssthresh,
        backed_off: false,
        recovering: false,
    }
}

const OLD_KERNEL: MetricsConfig = MetricsConfig {
    save: true,
    save_ssthresh: true,
    seeds_estimator: false,
};
const T0: SimTime = SimTime::ZERO;

#[test]
fn current_kernels_save_rtt_and_cwnd_but_not_ssthresh() {
    let mut m = TcpMetrics::default();
    m.save(1, &closing(20, 12), MetricsConfig::default(), T0);
    let e = m.entry().unwrap();
    assert_eq!((e.rtt_ns, e.ssthresh), (100_000_000, 0));
    assert_eq!(m.initial_ssthresh(MetricsConfig::default()), None);
    let opened = m.open(2, MetricsConfig::default(), T0);
    assert_eq!(opened.ssthresh, None);
    assert_eq!(opened.rtt_ns, 100_000_000);
}

#[test]
fn with_ssthresh_saving_a_lossy_connection_leaves_a_small_ssthresh() {
    // Congestion avoidance at cwnd 20 after losses (ssthresh 12):
    // saved ssthresh = max(20 / 2, 12) = 12.
    let mut m = TcpMetrics::default();
    m.save(1, &closing(20, 12), OLD_KERNEL, T0);
    assert_eq!(m.open(2, OLD_KERNEL, T0).ssthresh, Some(12));
    // A later connection that never left slow start cannot lower it, and
    // raises it only past cwnd / 2.
    m.save(2, &closing(20, TCP_INFINITE_SSTHRESH), OLD_KERNEL, T0);
    assert_eq!(m.initial_ssthresh(OLD_KERNEL), Some(12));
    m.save(3, &closing(100, TCP_INFINITE_SSTHRESH), OLD_KERNEL, T0);
    assert_eq!(m.initial_ssthresh(OLD_KERNEL), Some(50));
}

#[test]
fn cwnd_is_averaged_in_congestion_avoidance_and_ssthresh_taken_in_recovery() {
    let mut m = TcpMetrics::default();
    // Congestion avoidance on a fresh entry: (0 + 40) / 2.
    m.save(1, &closing(40, 30), OLD_KERNEL, T0);
    assert_eq!(
        (m.entry().unwrap().cwnd, m.entry().unwrap().ssthresh),
        (20, 30)
    );
    // Closing in recovery: cwnd moves to the mean of the cached one and
    // ssthresh; ssthresh only rises.
    let mut c = closing(10, 16);
    c.recovering = true;
    m.save(2, &c, OLD_KERNEL, T0);
    assert_eq!(
        (m.entry().unwrap().cwnd, m.entry().unwrap().ssthresh),
        (18, 30)
    );
    let mut c = closing(10, 60);
    c.recovering = true;
    m.save(3, &c, OLD_KERNEL, T0);
    assert_eq!(
        (m.entry().unwrap().cwnd, m.entry().unwrap().ssthresh),
        (39, 60)
    );
}

#[test]
fn rtt_rises_at_once_and_falls_by_an_eighth_rttvar_by_a_quarter() {
    let mut m = TcpMetrics::default();
    m.save(1, &closing(20, 12), OLD_KERNEL, T0);
    // A fresh entry: |m| is the whole RTT, larger than the mdev.
    let e = *m.entry().unwrap();
    assert_eq!((e.rtt_ns, e.rttvar_ns), (100_000_000, 100_000_000));
    let mut c = closing(20, 12);
    c.srtt_ns = Some(20_000_000);
    m.save(2, &c, OLD_KERNEL, T0);
    let e = *m.entry().unwrap();
    // m = 80 ms: rtt 100 − 80/8 = 90 ms; deviation 80 ms < 100: 100 − 20/4.
    assert_eq!((e.rtt_ns, e.rttvar_ns), (90_000_000, 95_000_000));
    c.srtt_ns = Some(150_000_000);
    m.save(3, &c, OLD_KERNEL, T0);
    assert_eq!(m.entry().unwrap().rtt_ns, 150_000_000);
}

#[test]
fn a_connection_without_an_rtt_sample_resets_only_the_cached_rtt() {
    let mut m = TcpMetrics::default();
    let mut lost = closing(20, 12);
    lost.srtt_ns = None;
    // No entry: none is made.
    m.save(1, &lost, OLD_KERNEL, T0);
    assert_eq!(m.entry(), None);
    assert_eq!(m.after_close, vec![None]);
    m.save(2, &closing(20, 12), OLD_KERNEL, T0);
    let mut backed_off = closing(40, 30);
    backed_off.backed_off = true;
    let later = SimTime(5_000_000_000);
    m.save(3, &backed_off, OLD_KERNEL, later);
    let e = m.entry().unwrap();
    assert_eq!((e.rtt_ns, e.ssthresh, e.cwnd), (0, 12, 10));
    assert_eq!(e.saved_at, T0, "the stamp is not renewed");
    assert_eq!(m.open(4, OLD_KERNEL, later).rto(), None);
}

#[test]
fn an_entry_older_than_an_hour_is_reset_when_looked_up() {
    let mut m = TcpMetrics::default();
    m.save(1, &closing(20, 12), OLD_KERNEL, T0);
    let just = T0 + TCP_METRICS_TIMEOUT;
    assert_eq!(m.open(2, OLD_KERNEL, just).ssthresh, Some(12));
    let after = just + SimDuration(1);
    let opened = m.open(3, OLD_KERNEL, after);
    assert_eq!(opened, Opened::default());
    assert_eq!(m.entry().unwrap().saved_at, after);
    assert_eq!(m.show("client", after), "client age 0.000sec\n");
}

#[test]
fn the_cached_rtt_seeds_the_first_rto() {
    // 100 ms: 100 + max(200, 200) = 300 ms; 30 ms: 30 + max(60, 200).
    let o = Opened {
        ssthresh: None,
        rtt_ns: 100_000_000,
        rttvar_ns: 0,
    };
    assert_eq!(o.rto(), Some(SimDuration::from_millis(300)));
    let o = Opened {
        ssthresh: None,
        rtt_ns: 30_000_000,
        rttvar_ns: 0,
    };
    assert_eq!(o.rto(), Some(SimDuration::from_millis(230)));
}

#[test]
fn no_metrics_save_and_flush_forget_everything() {
    let mut m = TcpMetrics::default();
    let off = MetricsConfig {
        save: false,
        save_ssthresh: true,
        seeds_estimator: false,
    };
    m.save(1, &closing(20, 12), off, T0);
    assert_eq!(m.entry(), None);
    m.save(2, &closing(20, 12), OLD_KERNEL, T0);
    m.flush(T0);
    assert_eq!(m.open(3, OLD_KERNEL, T0), Opened::default());
}

#[test]
fn show_prints_like_ip_tcp_metrics() {
    let mut m = TcpMetrics::default();
    m.save(1, &closing(20, 12), OLD_KERNEL, T0);
    assert_eq!(
        m.show("client", SimTime(2_500_000_000)),
        "client age 2.500sec rtt 100000us rttvar 100000us ssthresh 12 cwnd 10\n"
    );
    assert_eq!(
        m.log.last().unwrap().1,
        "close #1: client age 0.000sec rtt 100000us rttvar 100000us ssthresh 12 cwnd 10"
    );
    m.open(2, OLD_KERNEL, T0);
    assert_eq!(
        m.log.last().unwrap().1,
        "open #2: tcp_init_metrics takes ssthresh 12, first rto 300ms"
    );
}
