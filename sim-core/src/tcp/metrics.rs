//! What Linux remembers about a destination between connections
//! (net/ipv4/tcp_metrics.c): RTT, RTT variance, cwnd and ssthresh, saved when
//! a connection closes (`tcp_update_metrics`) and used by the next one
//! (`tcp_init_metrics`). `ip tcp_metrics show` prints them; `ip tcp_metrics
//! flush` forgets them.
//!
//! Since kernel 5.x `net.ipv4.tcp_no_ssthresh_metrics_save` defaults to 1, so
//! ssthresh is neither saved nor used; with it at 0 (as on older kernels) one
//! lossy connection can leave a small ssthresh that makes later connections to
//! the same host leave slow start early.

use crate::cc::TCP_INFINITE_SSTHRESH;
use crate::time::SimTime;

/// The sysctls that govern the cache, on the host that keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetricsConfig {
    /// `net.ipv4.tcp_no_metrics_save` = 0.
    pub save: bool,
    /// `net.ipv4.tcp_no_ssthresh_metrics_save` = 0 (1 is the default since 5.x).
    pub save_ssthresh: bool,
}

impl Default for MetricsConfig {
    fn default() -> Self {
        MetricsConfig {
            save: true,
            save_ssthresh: false,
        }
    }
}

/// A closing connection's state, as `tcp_update_metrics` reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Closing {
    pub srtt_ns: Option<u64>,
    pub rttvar_ns: u64,
    pub cwnd: u32,
    pub ssthresh: u32,
    /// A timeout's backoff was still in force: the RTT estimate is not trusted.
    pub backed_off: bool,
    /// In fast recovery or loss recovery rather than the Open state.
    pub recovering: bool,
}

/// One destination's entry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub rtt_ns: u64,
    pub rttvar_ns: u64,
    /// 0: not set.
    pub ssthresh: u32,
    pub cwnd: u32,
    pub saved_at: SimTime,
}

/// The cache, for the one destination the simulator's server talks to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TcpMetrics {
    entry: Option<Entry>,
}

impl TcpMetrics {
    pub fn entry(&self) -> Option<&Entry> {
        self.entry.as_ref()
    }

    /// `ip tcp_metrics flush`.
    pub fn flush(&mut self) {
        self.entry = None;
    }

    /// `tcp_update_metrics`: a connection to the destination closes.
    pub fn save(&mut self, c: &Closing, cfg: MetricsConfig, now: SimTime) {
        if !cfg.save {
            return;
        }
        let Some(srtt) = c.srtt_ns else { return };
        if c.backed_off {
            // "This session failed to estimate rtt": keep nothing from it.
            return;
        }
        let e = self.entry.get_or_insert(Entry::default());
        // RTT and variance move towards the new estimate: at once if larger,
        // by an eighth of the difference if smaller.
        e.rtt_ns = if e.rtt_ns == 0 || srtt >= e.rtt_ns {
            srtt
        } else {
            e.rtt_ns - (e.rtt_ns - srtt) / 8
        };
        e.rttvar_ns = if e.rttvar_ns == 0 || c.rttvar_ns >= e.rttvar_ns {
            c.rttvar_ns
        } else {
            e.rttvar_ns - (e.rttvar_ns - c.rttvar_ns) / 4
        };
        let in_initial_slow_start = c.ssthresh >= TCP_INFINITE_SSTHRESH;
        let in_slow_start = c.cwnd < c.ssthresh;
        if in_initial_slow_start {
            // Slow start never ended: cwnd is a lower bound; only raise what is there.
            if cfg.save_ssthresh && e.ssthresh != 0 && c.cwnd / 2 > e.ssthresh {
                e.ssthresh = c.cwnd / 2;
            }
            e.cwnd = e.cwnd.max(c.cwnd);
        } else if !in_slow_start && !c.recovering {
            // Congestion avoidance: cwnd is reliable.
            if cfg.save_ssthresh {
                e.ssthresh = (c.cwnd / 2).max(c.ssthresh);
            }
            e.cwnd = (e.cwnd + c.cwnd) / 2;
        } else {
            // Slow start after a loss: cwnd means little, ssthresh may be stale too.
            e.cwnd = (e.cwnd + c.ssthresh) / 2;
            if cfg.save_ssthresh && e.ssthresh != 0 && c.ssthresh > e.ssthresh {
                e.ssthresh = c.ssthresh;
            }
        }
        e.saved_at = now;
    }

    /// `tcp_init_metrics`: the ssthresh a new connection starts with, if any.
    pub fn initial_ssthresh(&self, cfg: MetricsConfig) -> Option<u32> {
        if !cfg.save_ssthresh {
            return None;
        }
        self.entry
            .and_then(|e| (e.ssthresh != 0).then_some(e.ssthresh))
    }

    /// `ip tcp_metrics show`, for the destination `dst`, at `now`.
    pub fn show(&self, dst: &str, now: SimTime) -> String {
        match self.entry {
            None => String::new(),
            Some(e) => {
                let mut line = format!(
                    "{dst} age {:.3}sec rtt {}us rttvar {}us",
                    now.since(e.saved_at).as_secs_f64(),
                    e.rtt_ns / 1000,
                    e.rttvar_ns / 1000
                );
                if e.ssthresh != 0 {
                    line.push_str(&format!(" ssthresh {}", e.ssthresh));
                }
                line.push_str(&format!(" cwnd {}\n", e.cwnd));
                line
            }
        }
    }
}

#[cfg(test)]
mod tests {
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
    };

    #[test]
    fn current_kernels_save_rtt_and_cwnd_but_not_ssthresh() {
        let mut m = TcpMetrics::default();
        m.save(&closing(20, 12), MetricsConfig::default(), SimTime::ZERO);
        let e = m.entry().unwrap();
        assert_eq!((e.rtt_ns, e.ssthresh), (100_000_000, 0));
        assert_eq!(m.initial_ssthresh(MetricsConfig::default()), None);
    }

    #[test]
    fn with_ssthresh_saving_a_lossy_connection_leaves_a_small_ssthresh() {
        // Congestion avoidance at cwnd 20 after losses (ssthresh 12):
        // saved ssthresh = max(20 / 2, 12) = 12.
        let mut m = TcpMetrics::default();
        m.save(&closing(20, 12), OLD_KERNEL, SimTime::ZERO);
        assert_eq!(m.initial_ssthresh(OLD_KERNEL), Some(12));
        // A later connection that never left slow start cannot lower it, and
        // raises it only past cwnd / 2.
        m.save(
            &closing(100, TCP_INFINITE_SSTHRESH),
            OLD_KERNEL,
            SimTime::ZERO,
        );
        assert_eq!(m.initial_ssthresh(OLD_KERNEL), Some(50));
    }

    #[test]
    fn no_metrics_save_and_flush_forget_everything() {
        let mut m = TcpMetrics::default();
        m.save(
            &closing(20, 12),
            MetricsConfig {
                save: false,
                save_ssthresh: true,
            },
            SimTime::ZERO,
        );
        assert_eq!(m.entry(), None);
        m.save(&closing(20, 12), OLD_KERNEL, SimTime::ZERO);
        m.flush();
        assert_eq!(m.initial_ssthresh(OLD_KERNEL), None);
    }

    #[test]
    fn show_prints_like_ip_tcp_metrics() {
        let mut m = TcpMetrics::default();
        m.save(&closing(20, 12), OLD_KERNEL, SimTime::ZERO);
        assert_eq!(
            m.show("client", SimTime(2_500_000_000)),
            "client age 2.500sec rtt 100000us rttvar 10000us ssthresh 12 cwnd 10\n"
        );
    }
}
