//! The values of the behaviour switches ([`super::Behaviour`]): one enum per
//! switch, each with the names a scenario file's `[HOST.behaviour]` table
//! writes (`value_names!`, which other modules' switch values use too).

/// How the application's data becomes skbs on the write queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendSkbs {
    /// One skb per MSS, each charged its truesize against `sk_sndbuf` before
    /// it is queued (a device without scatter-gather; CentOS 6's kernel kept
    /// its queued skbs this small).
    PerMss,
    /// Multi-segment skbs up to the GSO size goal (`tcp_xmit_size_goal`, about
    /// 64 KB); `sk_stream_memory_free` is checked only when a new skb is
    /// needed, so `sk_wmem_queued` can run past `sk_sndbuf`.
    Gso,
}

/// How `tcp_sendmsg` allocates a write-queue skb, and `tso_fragment` the one
/// it splits off (`tcp_stream_alloc_skb`, formerly `sk_stream_alloc_skb`):
/// the head's truesize, and whether the first payload bytes go into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxSkbHead {
    /// 3.10 (`select_size` with GSO): every skb `tcp_sendmsg` allocates has a
    /// 2 KB head that holds its first 1408 payload bytes (truesize 2304 for
    /// up to 1408 bytes); skbs split off it have a 1 KB head (1280).
    Linear2k,
    /// 4.15 to 4.x (`linear_payload_sz`): only the first skb of an empty
    /// socket gets the 2 KB head; the others a 1 KB one (1280).
    FirstLinear2k,
    /// 5.x to 6.2: a kmalloc'd 1 KB head for every skb (truesize 1280).
    Kmalloc1k,
    /// 6.3 and later: heads from `skb_small_head_cache`, truesize 960.
    SmallHead,
}

/// How `tcp_write_xmit` sizes a TSO packet (`tcp_tso_segs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TsoSize {
    /// `tcp_tso_autosize` (95bd09eb2750 "tcp: TSO packets automatic sizing",
    /// 3.12; in 3.10 to 5.x): about 1 ms of the pacing rate, at least
    /// `tcp_min_tso_segs` (2), at most 64 KB.
    PacingRate,
    /// As read in 6.18: `tcp_tso_autosize` adds
    /// `gso_max_size >> (min_rtt_us >> tcp_tso_rtt_log)` (up to 64 KB more on
    /// paths under ~16 ms; "tcp: adjust TSO packet sizes based on min_rtt",
    /// 5.18), and `tcp_write_xmit`
    /// first grows a short packet from the next skb (`tcp_grow_skb`, 6.x).
    /// Versions from the commit titles, not checked against merge tags.
    MinRttGrow,
}

/// Whether the kernel has `TCP_NOTSENT_LOWAT`, and its poll-side rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotsentLowat {
    /// Before 3.12 (CentOS 6's 2.6.32): neither the option nor the sysctl.
    Absent,
    /// 3.12 to 4.x: a new skb, and a wake-up, need unsent bytes < lowat.
    Unsent,
    /// 5.x and later (`tcp_stream_memory_free(sk, wake)`): a blocked writer
    /// wakes only when unsent bytes · 2 < lowat.
    HalfUnsent,
}

/// The cap on the receive window advertised right after the handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitialRwnd {
    /// At most this many segments of the peer's MSS (`tcp_default_init_rwnd`:
    /// 10 on 2.6.32, 20 from 3.0 to 4.19; fewer above MSS 1460), unless the
    /// route's `initrwnd` says otherwise.
    Segments(u32),
    /// At most this many bytes (65535 from 4.20 until 6.10).
    Bytes(u32),
    /// The whole initial space the buffer backs: `tcp_rmem[1]` times the
    /// window share, rounded down to the MSS (6.10+, backported to 6.6.y). The
    /// SYN and SYN-ACK still carry at most 65535, unscaled.
    Unlimited,
}

/// Which connections grow their receive window on out-of-order data
/// (`tcp_data_queue_ofo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfoGrowth {
    /// Only in-order data grows it (2.6.32).
    Never,
    /// Every connection (4e4f1fc22681, 2013, until mid-2020).
    AllFlows,
    /// Only connections with SACK: without it the sender needs three
    /// duplicate ACKs, and an ACK whose window changed is not a duplicate
    /// ("tcp: grow window for OOO packets only for SACK flows", 2020).
    SackFlows,
}

/// The tail-loss probe's variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tlp {
    Off,
    /// 3.10's first version: PTO = max(2·SRTT, 10 ms), or 1.5·SRTT + 200 ms
    /// (`TCP_DELACK_MAX`) with one segment outstanding.
    V3_10,
    /// 4.14 to 6.5: PTO = 2·SRTT + 2 jiffies, or + `TCP_RTO_MIN` with one
    /// segment outstanding; never later than the RTO. As before 5.8
    /// (76be93fc0702), which the eras using it predate: a probe of new data
    /// opens no episode, only one retransmitted probe per episode.
    TwoJiffies,
    /// 6.6 and later: as [`Tlp::TwoJiffies`] with 2 ms (`TCP_TIMEOUT_MIN_US`),
    /// one probe of either kind per episode, and a D-SACK of the probe itself
    /// (`FLAG_DSACK_TLP`) to end it.
    TwoMs,
}

/// How a sender detects a spurious retransmission timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frto {
    /// No F-RTO: every timeout is taken as real.
    Off,
    /// RFC 4138 (2.6.32): a spurious timeout halves cwnd instead of undoing it.
    Rfc4138,
    /// RFC 5682 (3.10 and later, `tcp_frto = 2`): new data after the timeout;
    /// ACKs that advance without the retransmissions prove it spurious, and
    /// the reduction is undone.
    Rfc5682,
}

/// Each switch value's name, as a scenario file's `[HOST.behaviour]` table
/// writes it: `NAMES` in the order of `ALL`, with `name` and `from_name`.
macro_rules! value_names {
    ($($ty:ident { $($variant:ident = $name:literal),+ $(,)? })+) => {$(
        impl $ty {
            /// Every value, in the order of the names.
            pub const ALL: &'static [$ty] = &[$($ty::$variant),+];
            /// The values' names, in the order of `ALL`.
            pub const NAMES: &'static [&'static str] = &[$($name),+];

            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }

            pub fn from_name(name: &str) -> Option<$ty> {
                Self::ALL.iter().copied().find(|v| v.name() == name)
            }
        }
    )+};
}
pub(crate) use value_names;

value_names! {
    SendSkbs { PerMss = "per-mss", Gso = "gso" }
    Tlp { Off = "off", V3_10 = "3.10", TwoJiffies = "2-jiffies", TwoMs = "2ms" }
    Frto { Off = "off", Rfc4138 = "rfc4138", Rfc5682 = "rfc5682" }
    OfoGrowth { Never = "never", AllFlows = "all-flows", SackFlows = "sack-flows" }
    TxSkbHead {
        Linear2k = "linear-2k",
        FirstLinear2k = "first-linear-2k",
        Kmalloc1k = "kmalloc-1k",
        SmallHead = "small-head",
    }
    TsoSize { PacingRate = "pacing-rate", MinRttGrow = "min-rtt-grow" }
    NotsentLowat { Absent = "absent", Unsent = "unsent", HalfUnsent = "half-unsent" }
}

impl InitialRwnd {
    /// As `[HOST.behaviour]` writes it: `"20 segments"`, `"65535 bytes"` or
    /// `"unlimited"`.
    pub fn text(self) -> String {
        match self {
            InitialRwnd::Segments(n) => format!("{n} segments"),
            InitialRwnd::Bytes(n) => format!("{n} bytes"),
            InitialRwnd::Unlimited => "unlimited".into(),
        }
    }

    /// Reads [`InitialRwnd::text`]'s forms back.
    pub fn parse(text: &str) -> Result<InitialRwnd, String> {
        let t = text.trim();
        if t == "unlimited" {
            return Ok(InitialRwnd::Unlimited);
        }
        let (n, unit) = t.split_once(' ').unwrap_or((t, ""));
        let n: Option<u32> = n.parse().ok().filter(|n| *n > 0);
        match (n, unit.trim()) {
            (Some(n), "segments") => Ok(InitialRwnd::Segments(n)),
            (Some(n), "bytes") => Ok(InitialRwnd::Bytes(n)),
            _ => Err(format!(
                "`{text}`: write \"N segments\", \"N bytes\" or \"unlimited\""
            )),
        }
    }
}
