//! What a congestion-control module tells `TCP_INFO`'s readers about its own
//! state: Linux's `.get_info` hook, which fills `union tcp_cc_info`
//! (include/uapi/linux/inet_diag.h) for `ss -i` (`INET_DIAG_BBRINFO`) and
//! `getsockopt(TCP_CC_INFO)`.
//!
//! BBR's is the kernel's `struct tcp_bbr_info`. CUBIC has no `.get_info` in
//! Linux; the model exports the `struct bictcp` fields that fix the curve of
//! the current epoch, so a chart can draw it (`bictcp_update`).

/// One reading of the algorithm's state (`union tcp_cc_info`).
///
/// `repr(C)`: a tag of its own, not a niche `TraceEvent` would fold its own
/// discriminant into, which made every match on a trace record longer
/// (1.2 KB more wasm in the trace hash alone).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, u32)]
pub enum CcInfo {
    /// An algorithm with nothing to export (Reno, as in Linux).
    #[default]
    None,
    /// `struct tcp_bbr_info`, as `bbr_get_info` fills it.
    Bbr {
        /// `bbr_bw`: max_bw (or the policer's rate) in bytes per second.
        bw: u64,
        /// `bbr_min_rtt`: µs, `u32::MAX` before the first RTT sample.
        min_rtt_us: u32,
        /// `bbr_pacing_gain`, `bbr_cwnd_gain`: in 1/256 (`BBR_UNIT`).
        pacing_gain: u32,
        cwnd_gain: u32,
    },
    /// CUBIC's epoch (`struct bictcp`): the curve
    /// `W(t) = origin_point + C·(t − K)³` from `epoch_start`.
    Cubic {
        /// When the epoch began (the first ACK grown in avoidance after a
        /// reduction), ns since the start; `None` between a reduction and
        /// that ACK (`epoch_start == 0`).
        epoch_start_ns: Option<u64>,
        /// `last_max_cwnd`: W_max, segments (0 before any loss).
        w_max: u32,
        /// `bic_K`: K in 2^-10 s (`BICTCP_HZ`).
        k: u32,
        /// `bic_origin_point`: the curve's plateau, segments (W_max, or cwnd
        /// at the epoch's start when that was already at or above W_max).
        origin_point: u32,
    },
}
