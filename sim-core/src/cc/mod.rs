//! Congestion control, split the way Linux splits it.
//!
//! The socket owns the control block ([`ControlBlock`]: cwnd and ssthresh in
//! segments, as `ss -i` reports them) and calls hooks named after
//! `struct tcp_congestion_ops` (include/net/tcp.h). An algorithm never writes
//! ssthresh itself: `ssthresh()` returns the value and the socket stores it, as
//! `tcp_enter_loss` / `tcp_init_cwnd_reduction` do.
//!
//! Algorithms are chosen by their kernel names and dispatched through
//! [`Algorithm`], one module each: Reno, CUBIC (the Linux default) and BBR v1,
//! which replaces `.cong_avoid` with `.cong_control` and paces.

mod bbr;
mod cubic;
pub mod hystart;
mod info;
mod reno;
pub mod slow_start;

pub use bbr::Bbr;
pub use cubic::{Cubic, cubic_root};
pub use info::CcInfo;
pub use reno::Reno;

use crate::time::{SimDuration, SimTime};
use std::fmt;
use std::str::FromStr;

/// Congestion-avoidance states an algorithm is told about (`tcp_ca_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaState {
    Open,
    /// Fast recovery after a detected loss (SACK/RACK or duplicate ACKs).
    Recovery,
    /// A retransmission timeout: everything outstanding is presumed lost.
    Loss,
}

/// What `.pkts_acked` learns about an ACK (`struct ack_sample` and the socket around it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckSample {
    pub now: SimTime,
    pub rtt: Option<SimDuration>,
    pub snd_una: u64,
    pub snd_nxt: u64,
    /// `sk_pacing_status != SK_PACING_NONE`: fq or the algorithm paces.
    pub paced: bool,
    /// `sk_pacing_rate` as this ACK finds it (set after the previous ACK),
    /// bytes per second.
    pub pacing_rate: u64,
}

/// A delivery-rate sample (net/ipv4/tcp_rate.c `struct rate_sample`), built by
/// the socket on every ACK and handed to `.cong_control`.
///
/// "Delivered" counts segments that reached the receiver, cumulatively ACKed
/// or SACKed (`tp->delivered`). The rate over the sample is
/// `delivered / interval`; BBR keeps the maximum of those as its bottleneck
/// bandwidth estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateSample {
    pub now: SimTime,
    /// `tp->delivered` when the newest delivered segment was sent (`prior_delivered`).
    pub prior_delivered: u64,
    /// Segments delivered over the sample's interval (`rs->delivered`).
    pub delivered: u64,
    /// `rs->interval_us`: the longer of the send and the ACK intervals. `None`
    /// when no valid sample could be taken (nothing newly delivered, or the
    /// interval was shorter than the minimum RTT, `tcp_rate_gen`).
    pub interval: Option<SimDuration>,
    /// RTT of the most recently sent segment this ACK delivered (`rs->rtt_us`);
    /// `None` for retransmitted segments (Karn).
    pub rtt: Option<SimDuration>,
    /// Segments newly marked lost while processing this ACK (`rs->losses`).
    pub losses: u32,
    /// Segments newly ACKed or SACKed by this ACK (`rs->acked_sacked`).
    pub acked_sacked: u32,
    /// Segments in flight before this ACK (`rs->prior_in_flight`).
    pub prior_in_flight: u32,
    /// The sender ran out of data at some point in the sample (`rs->is_app_limited`).
    pub is_app_limited: bool,
}

/// Events an algorithm may react to (`enum tcp_ca_event`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CwndEvent {
    /// First transmission with nothing in flight (`CA_EVENT_TX_START`).
    TxStart,
    /// Any data transmission.
    DataSent,
}

/// The part of `struct tcp_sock` congestion control reads and writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControlBlock {
    /// `snd_cwnd`: segments the sender may have in flight.
    pub cwnd: u32,
    /// `snd_ssthresh`: slow start runs while cwnd < ssthresh.
    pub ssthresh: u32,
    /// `snd_cwnd_cnt`: ACKed segments credited towards the next +1 in avoidance.
    pub cwnd_cnt: u32,
    /// `snd_cwnd_clamp`: cwnd never exceeds this.
    pub cwnd_clamp: u32,
    /// `tcp_is_cwnd_limited()`: growth only counts when cwnd was actually used.
    pub cwnd_limited: bool,
    /// `icsk_ca_state`, as the socket last set it.
    pub ca_state: CaState,
    /// `tp->delivered`: segments delivered over the connection's life.
    pub delivered: u64,
    /// `tp->app_limited != 0`: the sender ran out of data to send recently,
    /// so rate samples until it is delivered understate the path.
    pub app_limited: bool,
    /// `tcp_packets_in_flight()` now: segments the network holds.
    pub in_flight: u32,
    /// `tp->mss_cache`: payload bytes per full segment.
    pub mss: u32,
    /// Smoothed RTT (`srtt_us >> 3`), once there is a sample.
    pub srtt: Option<SimDuration>,
    /// `sk_pacing_rate` in bytes per second; 0 = not paced. Written by the
    /// socket (`tcp_update_pacing_rate`) or by an algorithm with
    /// `.cong_control`; honoured only when pacing is on (`fq`, or always for
    /// an algorithm that asks for it, as BBR does through internal pacing).
    pub pacing_rate: u64,
}

/// `TCP_INFINITE_SSTHRESH` (include/net/tcp.h): a new connection has no ssthresh yet.
pub const TCP_INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

/// `net.ipv4.tcp_min_tso_segs` default: a TSO packet carries at least 2 segments.
pub const TCP_MIN_TSO_SEGS: u32 = 2;

impl ControlBlock {
    pub fn new(initcwnd: u32) -> Self {
        ControlBlock {
            cwnd: initcwnd,
            ssthresh: TCP_INFINITE_SSTHRESH,
            cwnd_cnt: 0,
            cwnd_clamp: u32::MAX / 2,
            cwnd_limited: true,
            ca_state: CaState::Open,
            delivered: 0,
            app_limited: false,
            in_flight: 0,
            mss: 1448,
            srtt: None,
            pacing_rate: 0,
        }
    }

    /// `tcp_in_slow_start()`.
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }
}

/// Congestion-control hooks, named as in Linux's `struct tcp_congestion_ops`.
pub trait CongestionOps {
    /// Kernel name (`net.ipv4.tcp_congestion_control`).
    fn name(&self) -> &'static str;
    /// `.ssthresh`: the slow-start threshold to use after a loss. Returns it and
    /// never writes the control block's ssthresh (it may update its own state).
    fn ssthresh(&mut self, cb: &ControlBlock) -> u32;
    /// `.cong_avoid`: grow cwnd for `acked` newly acknowledged segments.
    fn cong_avoid(&mut self, cb: &mut ControlBlock, acked: u32, now: SimTime);
    /// `.pkts_acked`: an ACK arrived, with an RTT sample if one could be taken.
    fn pkts_acked(&mut self, _cb: &mut ControlBlock, _ack: &AckSample) {}
    /// `.set_state`.
    fn set_state(&mut self, _state: CaState) {}
    /// `.init`: the connection is established (the handshake's RTT sample is in `cb.srtt`).
    fn init(&mut self, _cb: &mut ControlBlock, _now: SimTime) {}
    /// `.cwnd_event`.
    fn cwnd_event(&mut self, _cb: &mut ControlBlock, _event: CwndEvent, _now: SimTime) {}
    /// `.undo_cwnd`: cwnd to restore when a loss turns out to be spurious.
    fn undo_cwnd(&self, cb: &ControlBlock) -> u32 {
        cb.cwnd
    }
    /// `.cong_control`: an algorithm that sets cwnd and the pacing rate itself
    /// from each delivery-rate sample (BBR). Returns `true` when it did, and the
    /// socket then skips `.cong_avoid` and PRR (`tcp_cong_control`).
    fn cong_control(&mut self, _cb: &mut ControlBlock, _rs: &RateSample) -> bool {
        false
    }
    /// The algorithm has `.cong_control` (`icsk_ca_ops->cong_control != NULL`):
    /// the core then leaves cwnd to it in and after recovery as well
    /// (`tcp_end_cwnd_reduction`, `tcp_rack_reo_timeout` skip their cwnd steps).
    fn has_cong_control(&self) -> bool {
        false
    }
    /// `.sndbuf_expand`: the send buffer holds this many cwnds (2 by default, BBR 3).
    fn sndbuf_expand(&self) -> u32 {
        2
    }
    /// `.min_tso_segs`: the fewest segments `tcp_tso_segs` puts in a TSO
    /// packet (`net.ipv4.tcp_min_tso_segs`, 2, unless the algorithm says).
    fn min_tso_segs(&self, _cb: &ControlBlock) -> u32 {
        TCP_MIN_TSO_SEGS
    }
    /// The algorithm paces its own sending even without `fq` (BBR sets
    /// `sk_pacing_status = SK_PACING_NEEDED`, so TCP's internal pacing runs).
    fn needs_pacing(&self) -> bool {
        false
    }
    /// A short name for the algorithm's current mode, for time series (BBR:
    /// `startup`, `drain`, `probe_bw`, `probe_rtt`); `None` for algorithms without modes.
    fn mode(&self) -> Option<&'static str> {
        None
    }
    /// `.get_info`: the algorithm's own state for `TCP_INFO`'s readers
    /// (`ss -i`'s `bbr:(...)`); nothing by default, as for Reno.
    fn get_info(&self, _cb: &ControlBlock) -> CcInfo {
        CcInfo::None
    }
}

/// The algorithms the simulator knows, by kernel name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    Reno(Reno),
    Cubic(Cubic),
    Bbr(Bbr),
}

impl Algorithm {
    pub fn by_name(name: &str) -> Result<Self, UnknownAlgorithm> {
        Kind::from_name(name)
            .map(Kind::algorithm)
            .ok_or_else(|| UnknownAlgorithm(name.to_string()))
    }

    fn ops(&self) -> &dyn CongestionOps {
        match self {
            Algorithm::Reno(r) => r,
            Algorithm::Cubic(c) => c,
            Algorithm::Bbr(b) => b,
        }
    }

    fn ops_mut(&mut self) -> &mut dyn CongestionOps {
        match self {
            Algorithm::Reno(r) => r,
            Algorithm::Cubic(c) => c,
            Algorithm::Bbr(b) => b,
        }
    }

    pub fn name(&self) -> &'static str {
        self.ops().name()
    }
    pub fn ssthresh(&mut self, cb: &ControlBlock) -> u32 {
        self.ops_mut().ssthresh(cb)
    }
    pub fn cong_avoid(&mut self, cb: &mut ControlBlock, acked: u32, now: SimTime) {
        self.ops_mut().cong_avoid(cb, acked, now)
    }
    pub fn pkts_acked(&mut self, cb: &mut ControlBlock, ack: &AckSample) {
        self.ops_mut().pkts_acked(cb, ack)
    }
    pub fn set_state(&mut self, state: CaState) {
        self.ops_mut().set_state(state)
    }
    pub fn init(&mut self, cb: &mut ControlBlock, now: SimTime) {
        self.ops_mut().init(cb, now)
    }
    pub fn cwnd_event(&mut self, cb: &mut ControlBlock, event: CwndEvent, now: SimTime) {
        self.ops_mut().cwnd_event(cb, event, now)
    }
    pub fn undo_cwnd(&self, cb: &ControlBlock) -> u32 {
        self.ops().undo_cwnd(cb)
    }
    pub fn cong_control(&mut self, cb: &mut ControlBlock, rs: &RateSample) -> bool {
        self.ops_mut().cong_control(cb, rs)
    }
    pub fn has_cong_control(&self) -> bool {
        self.ops().has_cong_control()
    }
    pub fn sndbuf_expand(&self) -> u32 {
        self.ops().sndbuf_expand()
    }
    pub fn needs_pacing(&self) -> bool {
        self.ops().needs_pacing()
    }
    pub fn min_tso_segs(&self, cb: &ControlBlock) -> u32 {
        self.ops().min_tso_segs(cb)
    }
    pub fn mode(&self) -> Option<&'static str> {
        self.ops().mode()
    }
    pub fn get_info(&self, cb: &ControlBlock) -> CcInfo {
        self.ops().get_info(cb)
    }
    /// The host's kernel's HyStart (CUBIC only).
    pub fn set_hystart_rules(&mut self, rules: hystart::HyStartRules) {
        if let Algorithm::Cubic(c) = self {
            c.hystart = hystart::HyStart::new(rules);
        }
    }
    /// Seeds an algorithm that draws random numbers (BBR's first ProbeBW
    /// phase), so that parallel flows differ yet every run is reproducible.
    pub fn reseed(&mut self, seed: u64) {
        if let Algorithm::Bbr(b) = self {
            *b = Bbr::with_seed(seed);
        }
    }
}

impl Default for Algorithm {
    /// `net.ipv4.tcp_congestion_control` as distributions ship it.
    fn default() -> Self {
        Algorithm::Cubic(Cubic::default())
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAlgorithm(pub String);

impl fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown congestion control `{}` (known: {})",
            self.0,
            Kind::NAMES.join(", ")
        )
    }
}

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::by_name(s)
    }
}

/// Which algorithm, without its state: what `net.ipv4.tcp_congestion_control`
/// chooses. [`Kind::NAMES`] is the one list of the algorithms' kernel names;
/// the widgets' congestion-control choice offers exactly these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Reno,
    Cubic,
    Bbr,
}

impl Kind {
    /// Every kind, in the order of [`Kind::NAMES`].
    pub const ALL: [Kind; 3] = [Kind::Reno, Kind::Cubic, Kind::Bbr];
    /// The kernel names (`tcp_congestion_ops.name`), in the order of [`Kind::ALL`].
    pub const NAMES: &'static [&'static str] = &["reno", "cubic", "bbr"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The kind registered under a kernel name (`tcp_ca_find`).
    pub fn from_name(name: &str) -> Option<Kind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// A new instance of the algorithm, in its initial state.
    pub fn algorithm(self) -> Algorithm {
        match self {
            Kind::Reno => Algorithm::Reno(Reno),
            Kind::Cubic => Algorithm::Cubic(Cubic::default()),
            Kind::Bbr => Algorithm::Bbr(Bbr::default()),
        }
    }
}

impl Algorithm {
    pub fn kind(&self) -> Kind {
        match self {
            Algorithm::Reno(_) => Kind::Reno,
            Algorithm::Cubic(_) => Kind::Cubic,
            Algorithm::Bbr(_) => Kind::Bbr,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_makes_the_algorithm_its_name_registers() {
        for kind in Kind::ALL {
            let algorithm = kind.algorithm();
            assert_eq!(algorithm.name(), kind.name());
            assert_eq!(algorithm.kind(), kind);
            assert_eq!(Kind::from_name(kind.name()), Some(kind));
            assert_eq!(Algorithm::by_name(kind.name()), Ok(algorithm));
        }
        assert_eq!(Kind::from_name("vegas"), None);
        assert_eq!(
            Algorithm::by_name("vegas").unwrap_err().to_string(),
            "unknown congestion control `vegas` (known: reno, cubic, bbr)"
        );
    }
}
