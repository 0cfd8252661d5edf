//! The congestion control's own state over time, from the periodic samples'
//! `TcpInfo::cc` (what Linux's `.get_info` exports), flow 0:
//!
//! - BBR: its model's BDP, max_bw × min_rtt, in segments (`bbr_bdp`, what
//!   its cwnd target of 2·BDP is built from), its min_rtt estimate, and
//!   ProbeBW's gain phase (pacing gain 1.25 up-probe, 0.75 drain, 1 cruise).
//! - CUBIC: each epoch after a loss, with W_max and K: the curve
//!   `W(t) = origin + C·(t − K)³` from the epoch's start (`bictcp_update`)
//!   to the first cwnd reduction after the last sample that shows it (the
//!   next loss).
//!
//! Per-sample state rather than a trace record per epoch or phase: the
//! samples are not hashed field by field (golden hashes stay), and in the
//! widgets they are taken every RTT/20 (`kit::scenario`), so a phase change
//! is placed at most that late; an epoch's start is exact (the socket
//! exports it), but an epoch shorter than a sample interval is not seen.

use super::bins::Binned;
use super::window::WindowPoint;
use sim_core::cc::CcInfo;
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;

/// ProbeBW's phase by its pacing gain (`bbr_pacing_gain[]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GainPhase {
    /// Not in ProbeBW, or at gain 1 (cruising).
    Cruise,
    /// 1.25: probing for more bandwidth.
    Up,
    /// 0.75: draining the queue the probe built.
    Down,
}

/// One CUBIC epoch: from `start_ns` (K and W(t) count from here) until
/// `end_ns`, the next cwnd reduction or the run's end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubicEpoch {
    pub start_ns: f64,
    pub end_ns: f64,
    /// `last_max_cwnd` (segments).
    pub w_max: u32,
    /// The curve's plateau (segments): W_max unless cwnd was already above it.
    pub origin: u32,
    /// K (s), from `bic_K` in 2^-10 s.
    pub k_s: f64,
}

impl CubicEpoch {
    /// The kernel's curve at `t_ns` (segments): `bictcp_update`'s target,
    /// C = 410/1024 (`cube_rtt_scale`), as real numbers.
    pub fn w(&self, t_ns: f64) -> f64 {
        let t = (t_ns - self.start_ns) / 1e9 - self.k_s;
        self.origin as f64 + 410.0 / 1024.0 * t * t * t
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct CcState {
    /// BBR's BDP estimate (segments) at each sample; empty for others.
    pub bdp: Binned,
    /// ProbeBW's phase from each change on (time ns).
    pub phases: Vec<(f64, GainPhase)>,
    /// CUBIC's epochs after a loss (W_max known), in time order.
    pub epochs: Vec<CubicEpoch>,
    /// Largest BDP estimate (segments), for the y axis.
    pub max_bdp: f64,
}

impl CcState {
    /// Reads flow 0's samples; `points` (the cwnd changes) end each epoch.
    pub fn from_run(run: &RunResult, end_ns: f64, points: &[WindowPoint]) -> Self {
        let mss = run.scenario.server.sender.mss.max(1) as f64;
        let mut s = CcState::default();
        let mut bdp = Vec::new();
        // Each epoch with the last sample that showed it.
        let mut epochs: Vec<(CubicEpoch, f64)> = Vec::new();
        for r in run.trace.flow_summary(0) {
            let TraceEvent::Sample { info, .. } = r.event else {
                continue;
            };
            let t = r.time.0 as f64;
            match info.cc {
                CcInfo::Bbr {
                    bw,
                    min_rtt_us,
                    pacing_gain,
                    ..
                } => {
                    let segs = bw as f64 * rtt_ns(min_rtt_us) / 1e9 / mss;
                    s.max_bdp = s.max_bdp.max(if segs.is_finite() { segs } else { 0.0 });
                    bdp.push((t, segs, segs));
                    // Gains of 1.25 and 0.75 are ProbeBW's alone (`bbr_update_gains`:
                    // Startup 2.89, Drain 0.35, ProbeRTT and a policed ProbeBW 1).
                    let phase = match pacing_gain {
                        320 => GainPhase::Up,
                        192 => GainPhase::Down,
                        _ => GainPhase::Cruise,
                    };
                    if s.phases.last().map_or(GainPhase::Cruise, |p| p.1) != phase {
                        s.phases.push((t, phase));
                    }
                }
                CcInfo::Cubic {
                    epoch_start_ns: Some(start),
                    w_max,
                    k,
                    origin_point,
                } if w_max > 0 => {
                    let start = start as f64;
                    match epochs.last_mut() {
                        Some((e, seen)) if e.start_ns == start => *seen = t,
                        _ => epochs.push((
                            CubicEpoch {
                                start_ns: start,
                                end_ns,
                                w_max,
                                origin: origin_point,
                                k_s: k as f64 / 1024.0,
                            },
                            t,
                        )),
                    }
                }
                _ => {}
            }
        }
        s.bdp = Binned::build(end_ns, bdp);
        // An epoch ends where cwnd next falls after its last sample.
        for (mut e, seen) in epochs {
            let i = points.partition_point(|p| p.t_ns <= seen).max(1);
            e.end_ns = points[i..]
                .iter()
                .zip(&points[i - 1..])
                .find(|(p, prev)| p.cwnd < prev.cwnd)
                .map_or(end_ns, |(p, _)| p.t_ns);
            s.epochs.push(e);
        }
        s
    }

    /// ProbeBW's phase at `t_ns`.
    pub fn phase_at(&self, t_ns: f64) -> GainPhase {
        let i = self.phases.partition_point(|p| p.0 <= t_ns);
        i.checked_sub(1)
            .map_or(GainPhase::Cruise, |i| self.phases[i].1)
    }
}

/// `bbr_min_rtt` in ns; NaN (no line) before the first RTT sample (`~0U`).
fn rtt_ns(min_rtt_us: u32) -> f64 {
    if min_rtt_us == u32::MAX {
        f64::NAN
    } else {
        min_rtt_us as f64 * 1e3
    }
}

/// BBR's min_rtt estimate (ns) at each sample of flow 0, for the RTT chart;
/// empty for other algorithms.
pub fn bbr_min_rtt(run: &RunResult, end_ns: f64) -> Binned {
    // Collected first: `Binned::build` over a `Vec`, as for the BDP, is one
    // copy of it in the wasm.
    let mut items = Vec::new();
    for r in run.trace.flow_summary(0) {
        if let TraceEvent::Sample { info, .. } = r.event
            && let CcInfo::Bbr { min_rtt_us, .. } = info.cc
        {
            items.push((r.time.0 as f64, rtt_ns(min_rtt_us), rtt_ns(min_rtt_us)));
        }
    }
    Binned::build(end_ns, items)
}
