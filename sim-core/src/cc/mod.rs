//! Congestion control, split the way Linux splits it.
//!
//! The socket owns the control block ([`ControlBlock`]: cwnd and ssthresh in
//! segments, as `ss -i` reports them) and calls hooks named after
//! `struct tcp_congestion_ops` (include/net/tcp.h). An algorithm never writes
//! ssthresh itself: `ssthresh()` returns the value and the socket stores it, as
//! `tcp_enter_loss` / `tcp_init_cwnd_reduction` do.
//!
//! Algorithms are chosen by their kernel names and dispatched through
//! [`Algorithm`], one module each: Reno and CUBIC (the Linux default); BBR
//! joins behind the same interface.

mod cubic;
pub mod hystart;
mod reno;
pub mod slow_start;

pub use cubic::{Cubic, cubic_root};
pub use reno::Reno;

use crate::time::{SimDuration, SimTime};
use std::fmt;
use std::str::FromStr;

/// Congestion-avoidance states an algorithm is told about (`tcp_ca_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaState {
    Open,
    /// Fast recovery after duplicate ACKs.
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
}

/// `TCP_INFINITE_SSTHRESH` (include/net/tcp.h): a new connection has no ssthresh yet.
pub const TCP_INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

impl ControlBlock {
    pub fn new(initcwnd: u32) -> Self {
        ControlBlock {
            cwnd: initcwnd,
            ssthresh: TCP_INFINITE_SSTHRESH,
            cwnd_cnt: 0,
            cwnd_clamp: u32::MAX / 2,
            cwnd_limited: true,
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
    /// `.cwnd_event`.
    fn cwnd_event(&mut self, _event: CwndEvent, _now: SimTime) {}
    /// `.undo_cwnd`: cwnd to restore when a loss turns out to be spurious.
    fn undo_cwnd(&self, cb: &ControlBlock) -> u32 {
        cb.cwnd
    }
}

/// The algorithms the simulator knows, by kernel name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    Reno(Reno),
    Cubic(Cubic),
}

impl Algorithm {
    pub fn by_name(name: &str) -> Result<Self, UnknownAlgorithm> {
        match name {
            "reno" => Ok(Algorithm::Reno(Reno)),
            "cubic" => Ok(Algorithm::Cubic(Cubic::default())),
            other => Err(UnknownAlgorithm(other.to_string())),
        }
    }

    fn ops(&self) -> &dyn CongestionOps {
        match self {
            Algorithm::Reno(r) => r,
            Algorithm::Cubic(c) => c,
        }
    }

    fn ops_mut(&mut self) -> &mut dyn CongestionOps {
        match self {
            Algorithm::Reno(r) => r,
            Algorithm::Cubic(c) => c,
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
    pub fn cwnd_event(&mut self, event: CwndEvent, now: SimTime) {
        self.ops_mut().cwnd_event(event, now)
    }
    pub fn undo_cwnd(&self, cb: &ControlBlock) -> u32 {
        self.ops().undo_cwnd(cb)
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
            "unknown congestion control `{}` (known: reno, cubic)",
            self.0
        )
    }
}

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::by_name(s)
    }
}
