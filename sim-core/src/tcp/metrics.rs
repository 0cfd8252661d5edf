//! What Linux remembers about a destination between connections
//! (net/ipv4/tcp_metrics.c): RTT, RTT variance, cwnd and ssthresh, saved when
//! a connection closes (`tcp_update_metrics`) and used by the next one
//! (`tcp_init_metrics`). `ip tcp_metrics show` prints them; `ip tcp_metrics
//! flush` forgets them. An entry not touched for `TCP_METRICS_TIMEOUT` (an
//! hour) is reset the next time it is looked up (`tcpm_check_stamp`).
//!
//! Since 5.6 `net.ipv4.tcp_no_ssthresh_metrics_save` defaults to 1, so
//! ssthresh is neither saved nor used; with it at 0 (as on older kernels) one
//! lossy connection can leave a small ssthresh that makes later connections to
//! the same host leave slow start early.
//!
//! The kernel keeps RTT scaled by 8 and variance by 4 in fixed point; the
//! model keeps both unscaled, in nanoseconds, and shows them in µs.

use crate::cc::TCP_INFINITE_SSTHRESH;
use crate::time::{SimDuration, SimTime};

/// `TCP_METRICS_TIMEOUT`: an entry older than this is reset when looked up.
pub const TCP_METRICS_TIMEOUT: SimDuration = SimDuration::from_secs(60 * 60);

/// The sysctls that govern the cache, on the host that keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetricsConfig {
    /// `net.ipv4.tcp_no_metrics_save` = 0.
    pub save: bool,
    /// `net.ipv4.tcp_no_ssthresh_metrics_save` = 0 (1 is the default since 5.6).
    pub save_ssthresh: bool,
    /// The era's `Behaviour::cached_rtt_seeds_estimator`: a new connection
    /// takes the cached RTT and variance as its srtt and rttvar (before
    /// 3.12), not only as its first RTO.
    pub seeds_estimator: bool,
}

impl Default for MetricsConfig {
    fn default() -> Self {
        MetricsConfig {
            save: true,
            save_ssthresh: false,
            seeds_estimator: false,
        }
    }
}

/// A closing connection's state, as `tcp_update_metrics` reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Closing {
    pub srtt_ns: Option<u64>,
    /// The smoothed mean deviation (`mdev_us`; the model's RTTVAR).
    pub rttvar_ns: u64,
    pub cwnd: u32,
    pub ssthresh: u32,
    /// A timeout's backoff was still in force: the RTT estimate is not trusted.
    pub backed_off: bool,
    /// In fast recovery or loss recovery rather than the Open state.
    pub recovering: bool,
}

/// One destination's entry (`struct tcp_metrics_block`); 0: not set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub rtt_ns: u64,
    pub rttvar_ns: u64,
    pub ssthresh: u32,
    pub cwnd: u32,
    /// `tcpm_stamp`: when it was last saved (or reset).
    pub saved_at: SimTime,
}

/// What `tcp_init_metrics` takes from the cache for a new connection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Opened {
    /// The cached ssthresh the connection starts with, if any.
    pub ssthresh: Option<u32>,
    /// The cached RTT (0: none), which seeds the first RTO if it is larger
    /// than the handshake's sample (before 3.12: srtt itself).
    pub rtt_ns: u64,
    /// The cached variance; before 3.12 it raises rttvar (see
    /// [`MetricsConfig::seeds_estimator`]).
    pub rttvar_ns: u64,
}

impl Opened {
    /// The first RTO the cached RTT gives, as `tcp_init_metrics` sets
    /// `icsk_rto` (if the handshake's estimate is smaller).
    pub fn rto(&self) -> Option<SimDuration> {
        (self.rtt_ns > 0).then(|| super::rtt::rto_from_cached(SimDuration(self.rtt_ns)))
    }
}

/// The cache, for the one destination the simulator's server talks to, and
/// a log of what happened to it (saves, opens, flushes), for the widget's
/// panel and the run's figures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TcpMetrics {
    entry: Option<Entry>,
    /// The entry after each connection's close (`None`: nothing cached), in
    /// order of closing.
    pub after_close: Vec<Option<Entry>>,
    /// Time and text of each event, as the panel prints them.
    pub log: Vec<(SimTime, String)>,
}

impl TcpMetrics {
    pub fn entry(&self) -> Option<&Entry> {
        self.entry.as_ref()
    }

    /// `ip tcp_metrics flush`.
    pub fn flush(&mut self, now: SimTime) {
        self.entry = None;
        self.log.push((now, "ip tcp_metrics flush all".into()));
    }

    /// The entry as `tcp_get_metrics` finds it: reset to the route's metrics
    /// (none here: all 0) if it is older than `TCP_METRICS_TIMEOUT`
    /// (`tcpm_check_stamp` → `tcpm_suck_dst`).
    fn lookup(&mut self, now: SimTime) -> Option<&mut Entry> {
        if let Some(e) = &mut self.entry
            && now.since(e.saved_at) > TCP_METRICS_TIMEOUT
        {
            *e = Entry {
                saved_at: now,
                ..Entry::default()
            };
            self.log
                .push((now, "entry older than an hour: reset".into()));
        }
        self.entry.as_mut()
    }

    /// `tcp_update_metrics`: connection `n` (1 = the first) to the
    /// destination closes at `now`.
    pub fn save(&mut self, n: u32, c: &Closing, cfg: MetricsConfig, now: SimTime) {
        self.save_entry(c, cfg, now);
        self.after_close.push(self.entry);
        let line = match self.entry {
            Some(_) if cfg.save => self.show("client", now),
            _ => String::from("(nothing saved)\n"),
        };
        self.log
            .push((now, format!("close #{n}: {}", line.trim_end())));
    }

    fn save_entry(&mut self, c: &Closing, cfg: MetricsConfig, now: SimTime) {
        if !cfg.save {
            return;
        }
        let srtt = match c.srtt_ns {
            Some(s) if !c.backed_off => s,
            // "This session failed to estimate rtt. Why? Probably, no packets
            // returned in time. Reset our results." Only the RTT, of an entry
            // that exists; nothing else, and its stamp stays.
            _ => {
                if let Some(e) = self.lookup(now) {
                    e.rtt_ns = 0;
                }
                return;
            }
        };
        if self.lookup(now).is_none() {
            // tcpm_new: a fresh entry from the route's metrics (none set).
            self.entry = Some(Entry {
                saved_at: now,
                ..Entry::default()
            });
        }
        let e = self.entry.as_mut().expect("just made");
        // m = stored − new. A larger new RTT is taken at once, a smaller one
        // by an eighth of the difference: "rtt overestimation is always
        // better than underestimation".
        let m = e.rtt_ns as i128 - srtt as i128;
        e.rtt_ns = if m <= 0 {
            srtt
        } else {
            e.rtt_ns - (m as u64 >> 3)
        };
        // The variance moves to max(|m|, mdev) at once if that is larger,
        // else by a quarter of the difference. (The kernel's `m >>= 1` only
        // rescales from srtt's ×8 to rttvar's ×4 fixed point.) On a fresh
        // entry |m| is the whole RTT, so the first rttvar saved is the RTT.
        let dev = (m.unsigned_abs() as u64).max(c.rttvar_ns);
        e.rttvar_ns = if dev >= e.rttvar_ns {
            dev
        } else {
            e.rttvar_ns - ((e.rttvar_ns - dev) >> 2)
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
            // Congestion avoidance: "cwnd is reliable".
            if cfg.save_ssthresh {
                e.ssthresh = (c.cwnd / 2).max(c.ssthresh);
            }
            e.cwnd = (e.cwnd + c.cwnd) / 2;
        } else {
            // Slow start after a loss, or recovery: "cwnd is non-sense,
            // ssthresh may be also invalid".
            e.cwnd = (e.cwnd + c.ssthresh) / 2;
            if cfg.save_ssthresh && e.ssthresh != 0 && c.ssthresh > e.ssthresh {
                e.ssthresh = c.ssthresh;
            }
        }
        e.saved_at = now;
    }

    /// `tcp_init_metrics`: what connection `n`, opening at `now`, takes
    /// from the cache. It creates no entry; an hour-old one is reset first.
    pub fn open(&mut self, n: u32, cfg: MetricsConfig, now: SimTime) -> Opened {
        let opened = match self.lookup(now) {
            None => Opened::default(),
            Some(e) => Opened {
                ssthresh: (cfg.save_ssthresh && e.ssthresh != 0).then_some(e.ssthresh),
                rtt_ns: e.rtt_ns,
                rttvar_ns: e.rttvar_ns,
            },
        };
        let mut line = format!("open #{n}: tcp_init_metrics takes ");
        match opened.ssthresh {
            Some(s) => line += &format!("ssthresh {s}"),
            None => line += "no ssthresh",
        }
        match opened.rto() {
            // Before 3.12 the cached figures become the estimator's own
            // (where they exceed the handshake's sample).
            Some(_) if cfg.seeds_estimator => {
                let ms = |ns: u64| crate::decimal_text::fixed(ns as f64 / 1e6, 1);
                line += &format!(
                    ", srtt ≥ {}ms and rttvar ≥ {}ms",
                    ms(opened.rtt_ns),
                    ms(opened.rttvar_ns)
                );
            }
            Some(rto) => line += &format!(", first rto {}ms", rto.0 / 1_000_000),
            None => line += ", no rtt",
        }
        self.log.push((now, line));
        opened
    }

    /// The ssthresh a new connection would start with, if any (what
    /// [`open`](Self::open) returns, without looking the entry up).
    pub fn initial_ssthresh(&self, cfg: MetricsConfig) -> Option<u32> {
        if !cfg.save_ssthresh {
            return None;
        }
        self.entry
            .and_then(|e| (e.ssthresh != 0).then_some(e.ssthresh))
    }

    /// `ip tcp_metrics show`, for the destination `dst`, at `now`:
    /// iproute2 prints the age in whole milliseconds, then each metric that
    /// is set (rtt and rttvar in µs).
    pub fn show(&self, dst: &str, now: SimTime) -> String {
        let Some(e) = self.entry else {
            return String::new();
        };
        let age_ms = now.since(e.saved_at).0 / 1_000_000;
        let mut line = format!("{dst} age {}.{:03}sec", age_ms / 1000, age_ms % 1000);
        if e.rtt_ns != 0 {
            line += &format!(" rtt {}us", e.rtt_ns / 1000);
        }
        if e.rttvar_ns != 0 {
            line += &format!(" rttvar {}us", e.rttvar_ns / 1000);
        }
        if e.ssthresh != 0 {
            line += &format!(" ssthresh {}", e.ssthresh);
        }
        if e.cwnd != 0 {
            line += &format!(" cwnd {}", e.cwnd);
        }
        line + "\n"
    }
}

#[cfg(test)]
#[path = "metrics_tests.rs"]
mod tests;
