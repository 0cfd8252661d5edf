//! Congestion control, split the way Linux splits it.
//!
//! The socket owns the control block ([`ControlBlock`]: cwnd and ssthresh in
//! segments, as `ss -i` reports them) and calls hooks named after
//! `struct tcp_congestion_ops` (include/net/tcp.h). An algorithm never writes
//! ssthresh itself: `ssthresh()` returns the value and the socket stores it, as
//! `tcp_enter_loss` / `tcp_init_cwnd_reduction` do.
//!
//! Algorithms are chosen by their kernel names and dispatched through
//! [`Algorithm`], one module each. This first slice has Reno; CUBIC and BBR join
//! behind the same interface.

mod reno;
pub mod slow_start;

pub use reno::Reno;

use std::fmt;
use std::str::FromStr;

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
    /// `.ssthresh`: the slow-start threshold to use after a loss. Returns, never writes.
    fn ssthresh(&self, cb: &ControlBlock) -> u32;
    /// `.cong_avoid`: grow cwnd for `acked` newly acknowledged segments.
    fn cong_avoid(&mut self, cb: &mut ControlBlock, acked: u32);
    /// `.undo_cwnd`: cwnd to restore when a loss turns out to be spurious.
    fn undo_cwnd(&self, cb: &ControlBlock) -> u32 {
        cb.cwnd
    }
}

/// The algorithms the simulator knows, by kernel name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    Reno(Reno),
}

impl Algorithm {
    pub fn by_name(name: &str) -> Result<Self, UnknownAlgorithm> {
        match name {
            "reno" => Ok(Algorithm::Reno(Reno)),
            other => Err(UnknownAlgorithm(other.to_string())),
        }
    }

    fn ops(&self) -> &dyn CongestionOps {
        match self {
            Algorithm::Reno(r) => r,
        }
    }

    fn ops_mut(&mut self) -> &mut dyn CongestionOps {
        match self {
            Algorithm::Reno(r) => r,
        }
    }

    pub fn name(&self) -> &'static str {
        self.ops().name()
    }
    pub fn ssthresh(&self, cb: &ControlBlock) -> u32 {
        self.ops().ssthresh(cb)
    }
    pub fn cong_avoid(&mut self, cb: &mut ControlBlock, acked: u32) {
        self.ops_mut().cong_avoid(cb, acked)
    }
}

impl Default for Algorithm {
    fn default() -> Self {
        Algorithm::Reno(Reno)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownAlgorithm(pub String);

impl fmt::Display for UnknownAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown congestion control `{}` (known: reno)", self.0)
    }
}

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::by_name(s)
    }
}
