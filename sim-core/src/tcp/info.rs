//! What `getsockopt(TCP_INFO)` reports, as far as the model has it: the
//! readings iperf3 takes every interval and `ss -tin` prints.
//!
//! The counters are kept by the socket as it sends and receives, so periodic
//! samples of them stay exact on runs long enough for the trace to stop
//! storing packet records.

/// Counters the socket keeps over its life (`tcp_sock`'s `segs_out`,
/// `data_segs_out`, `bytes_sent`, `bytes_retrans`, `segs_in`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub segs_out: u64,
    pub data_segs_out: u64,
    /// Payload bytes sent, retransmissions included (`tcpi_bytes_sent`).
    pub bytes_sent: u64,
    pub bytes_retrans: u64,
    pub segs_in: u64,
}

impl Counters {
    /// One segment went out with `len` payload bytes.
    pub fn on_send(&mut self, len: u32, retransmit: bool) {
        self.segs_out += 1;
        if len > 0 {
            self.data_segs_out += 1;
            self.bytes_sent += len as u64;
            if retransmit {
                self.bytes_retrans += len as u64;
            }
        }
    }

    pub fn on_receive(&mut self) {
        self.segs_in += 1;
    }
}

/// One reading of a socket.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpInfo {
    pub counters: Counters,
    /// Bytes the peer has acknowledged (`tcpi_bytes_acked`).
    pub bytes_acked: u64,
    /// Segments retransmitted (`tcpi_total_retrans`).
    pub total_retrans: u64,
    pub cwnd: u32,
    /// `None` while still the initial "infinite" value.
    pub ssthresh: Option<u32>,
    /// Segments in flight (`tcp_packets_in_flight`).
    pub in_flight: u32,
    /// 0 before the first RTT sample.
    pub srtt_ns: u64,
    pub rttvar_ns: u64,
    pub rto_ns: u64,
    /// `sk_pacing_rate`, bytes per second (0: not paced).
    pub pacing_rate: u64,
    /// The window the peer advertised, in bytes (`tcpi_snd_wnd`).
    pub snd_wnd: u64,
    /// Send buffer: its size (`sk_sndbuf`), what the queued skbs are charged
    /// (`sk_wmem_queued`), and the bytes written but not yet sent
    /// (`tcpi_notsent_bytes`).
    pub sndbuf: u64,
    pub wmem_queued: u64,
    pub notsent_bytes: u64,
    /// `tcpi_ato`: the delayed-ACK estimate, 0 before any data arrived.
    pub ato_ns: u64,
    /// When this socket last sent data (`tp->lsndtime`), received data
    /// (`icsk_ack.lrcvtime`) and received an ACK (`tp->rcv_tstamp`), in ns
    /// since the start; 0: never. `ss` prints how long ago (`lastsnd:`,
    /// `lastrcv:`, `lastack:`).
    pub last_data_sent_ns: u64,
    pub last_data_recv_ns: u64,
    pub last_ack_recv_ns: u64,
    /// The congestion-control module's own state (`.get_info`).
    pub cc: crate::cc::CcInfo,
}

impl TcpInfo {
    /// New data bytes sent, retransmissions left out: how far `snd_nxt` is
    /// past the first data byte (`tcpi_bytes_sent − tcpi_bytes_retrans`).
    pub fn new_bytes_sent(&self) -> u64 {
        self.counters
            .bytes_sent
            .saturating_sub(self.counters.bytes_retrans)
    }

    /// Data sent and not yet acknowledged, `snd_nxt − snd_una`, from the
    /// counters alone (SACKed and lost segments still count).
    pub fn outstanding_bytes(&self) -> u64 {
        self.new_bytes_sent().saturating_sub(self.bytes_acked)
    }

    /// The sending side's buffer and the peer's window, of this reading.
    pub fn send_info(&self) -> SendInfo {
        SendInfo {
            sndbuf: self.sndbuf,
            wmem_queued: self.wmem_queued,
            snd_wnd: self.snd_wnd,
        }
    }
}

/// The sending side of a socket: its buffer (`sk_sndbuf`), what its queued
/// skbs are charged (`sk_wmem_queued`) and the window the peer advertised
/// (`tcpi_snd_wnd`): the three limits a writer meets besides cwnd.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SendInfo {
    pub sndbuf: u64,
    pub wmem_queued: u64,
    pub snd_wnd: u64,
}

/// The receiving side of a socket: its buffer (`sk_rcvbuf`), the bytes
/// received that the application has not read yet, and what they are
/// charged (`sk_rmem_alloc`, truesize: `ss -m`'s `r`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecvInfo {
    pub rcvbuf: u64,
    pub unread: u64,
    pub rmem_alloc: u64,
}
