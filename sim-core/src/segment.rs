//! TCP segments as the simulator moves them: header fields that matter for
//! performance, no payload bytes.
//!
//! Sequence numbers are relative and 64-bit (like `tcpdump` without `-S`, but
//! never wrapping): each side's SYN takes sequence number 0 and its first data
//! byte is 1.

/// Which end of a connection. The client opens it; in the slow-start case the
/// server sends the bulk data, as an HTTP server does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    Client,
    Server,
}

impl Side {
    pub fn peer(self) -> Side {
        match self {
            Side::Client => Side::Server,
            Side::Server => Side::Client,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Side::Client => "client",
            Side::Server => "server",
        }
    }
}

/// IPv4 (20) + TCP (20) + timestamp option (12 with padding): the 52 bytes that
/// turn a 1500-byte MTU into Linux's usual 1448-byte payload.
pub const HEADER_BYTES: u32 = 52;
/// A SYN carries MSS, SACK-permitted, timestamps and window scale: 40 bytes of TCP options.
pub const SYN_HEADER_BYTES: u32 = 60;
/// A RST sent for no socket carries no options (`tcp_v4_send_reset` builds
/// a bare header): IPv4 20 + TCP 20.
pub const RST_HEADER_BYTES: u32 = 40;

/// SACK blocks an ACK carries (RFC 2018). With the timestamp option in every
/// segment only three fit in the 40 bytes of TCP options, as in Linux
/// (`TCP_NUM_SACKS` is 4, but `tcp_established_options` trims to the space left).
pub const MAX_SACK_BLOCKS: usize = 3;

/// The SACK option: up to three `[start, end)` ranges the receiver holds above
/// its cumulative ACK, the most recently changed first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SackBlocks {
    len: u8,
    blocks: [(u64, u64); MAX_SACK_BLOCKS],
}

impl SackBlocks {
    pub fn new(blocks: &[(u64, u64)]) -> Self {
        let mut s = SackBlocks::default();
        for &b in blocks.iter().take(MAX_SACK_BLOCKS) {
            s.blocks[s.len as usize] = b;
            s.len += 1;
        }
        s
    }
    pub fn as_slice(&self) -> &[(u64, u64)] {
        &self.blocks[..self.len as usize]
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Option bytes on the wire: two NOPs, kind, length and 8 bytes per block.
    pub fn option_bytes(&self) -> u32 {
        if self.len == 0 {
            0
        } else {
            4 + 8 * self.len as u32
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags {
    pub syn: bool,
    pub ack: bool,
    pub fin: bool,
    /// PSH: the sender marks the last segment of a write, and a filled skb
    /// when it has written more than half the peer's window since the last
    /// mark (`tcp_push`, `forced_push`). Linux receivers use it to decide
    /// when to ACK on read (`tcp_measure_rcv_mss`).
    pub psh: bool,
    /// RST: the connection is refused or reset. Only a host with no socket
    /// for the segment it answers sends one here (`tcp_v4_send_reset`, see
    /// `tcp::reset`).
    pub rst: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    /// Unique per transmission (a retransmission gets a new id), so the
    /// animation can follow each packet.
    pub id: u64,
    pub from: Side,
    pub seq: u64,
    /// Payload bytes.
    pub len: u32,
    /// Cumulative acknowledgement (meaningful when `flags.ack`).
    pub ack: u64,
    /// Receive window the sender of this segment advertises, in bytes, after
    /// window scaling has been applied (what `tcpdump` shows times the scale).
    pub wnd: u64,
    pub flags: Flags,
    /// SACK blocks (only on ACKs from a receiver holding out-of-order data).
    pub sack: SackBlocks,
    /// Timestamp option (RFC 7323), in ns of simulated time: when this
    /// segment was sent, and the peer's timestamp being echoed (0: none yet).
    /// Linux uses the echo to recognise a spurious timeout (`tcp_packet_delayed`).
    pub ts_val: u64,
    pub ts_ecr: u64,
}

impl Segment {
    /// Sequence space this segment occupies (a SYN counts as one).
    pub fn seq_len(&self) -> u64 {
        self.len as u64 + self.flags.syn as u64 + self.flags.fin as u64
    }

    pub fn end_seq(&self) -> u64 {
        self.seq + self.seq_len()
    }

    /// Bytes on the wire (IP packet size), which is what a link serialises and queues.
    pub fn wire_bytes(&self) -> u32 {
        let header = if self.flags.syn {
            SYN_HEADER_BYTES
        } else if self.flags.rst {
            RST_HEADER_BYTES
        } else {
            HEADER_BYTES
        };
        header + self.sack.option_bytes() + self.len
    }

    pub fn is_data(&self) -> bool {
        self.len > 0
    }
}
