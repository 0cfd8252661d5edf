//! Why a host's connection ended undelivered: a limit a sysctl sets, or the
//! peer's RST, so that a run that ends undelivered always says what ended it.
//!
//! ```text
//!   reason            sysctl (default)             who     what the application sees
//!   SynRetries        tcp_syn_retries (6)          client  connect() fails, ETIMEDOUT
//!   SynAckRetries     tcp_synack_retries (5)       server  nothing: the request is forgotten
//!   Retries2          tcp_retries2 (15)            either  ETIMEDOUT after 924.6 s of retries
//!   ZeroWindowProbes  tcp_retries2 (15)            sender  ETIMEDOUT after 15 unanswered probes
//!   Reset             none: the peer's RST         either  ECONNRESET on its next call
//! ```

/// A limit that made a host give its connection up (`tcp_write_err`, or the
/// listener dropping a request in `reqsk_timer_handler`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GiveUp {
    /// The SYN went unanswered: `tcp_syn_retries` retransmissions (plus
    /// `tcp_syn_linear_timeouts` on 6.5+), or as long as that many doublings
    /// of the 1 s initial RTO take (`tcp_write_timeout`: 127 s).
    SynRetries,
    /// The SYN-ACK went unanswered `tcp_synack_retries` times: the listener
    /// forgets the request without a RST (`reqsk_timer_handler`, 63 s).
    SynAckRetries,
    /// Retransmissions went unacknowledged for as long as `tcp_retries2`
    /// doublings of `TCP_RTO_MIN` take (`retransmits_timed_out`: 924.6 s).
    Retries2,
    /// `tcp_retries2` zero-window probes in a row went unanswered
    /// (`tcp_probe_timer`); a receiver that answers keeps the sender waiting
    /// for ever (RFC 1122 4.2.2.17).
    ZeroWindowProbes,
    /// An acceptable RST arrived (`tcp_reset`): the peer had no socket for
    /// the connection any more (it had given up silently, `tcp_done`), so
    /// its kernel answered our segment with a RST (`tcp_v4_send_reset`).
    /// No limit of ours: the application's next call fails with ECONNRESET.
    Reset,
}

impl GiveUp {
    /// The sysctl whose limit was reached; none for a reset by the peer.
    pub fn sysctl(self) -> Option<&'static str> {
        match self {
            GiveUp::SynRetries => Some("net.ipv4.tcp_syn_retries"),
            GiveUp::SynAckRetries => Some("net.ipv4.tcp_synack_retries"),
            GiveUp::Retries2 | GiveUp::ZeroWindowProbes => Some("net.ipv4.tcp_retries2"),
            GiveUp::Reset => None,
        }
    }

    /// The error the application's next call on the socket returns
    /// (`sk->sk_err`), if it has a socket: the listener's application never
    /// saw a forgotten request.
    pub fn errno(self) -> Option<&'static str> {
        match self {
            GiveUp::SynAckRetries => None,
            GiveUp::SynRetries | GiveUp::Retries2 | GiveUp::ZeroWindowProbes => Some("ETIMEDOUT"),
            GiveUp::Reset => Some("ECONNRESET"),
        }
    }

    /// A short name for reports (`tcpsim`'s JSON, the widgets).
    pub fn name(self) -> &'static str {
        match self {
            GiveUp::SynRetries => "syn-retries",
            GiveUp::SynAckRetries => "synack-retries",
            GiveUp::Retries2 => "retries2",
            GiveUp::ZeroWindowProbes => "zero-window-probes",
            GiveUp::Reset => "reset",
        }
    }

    /// What happened, in a sentence a reader can be shown.
    pub fn describe(self) -> &'static str {
        match self {
            GiveUp::SynRetries => {
                "the client's SYN was never answered: connect() failed after tcp_syn_retries"
            }
            GiveUp::SynAckRetries => {
                "the server's SYN-ACK was never acknowledged: it forgot the connection after tcp_synack_retries"
            }
            GiveUp::Retries2 => {
                "retransmissions went unacknowledged for as long as tcp_retries2 allows: the connection timed out"
            }
            GiveUp::ZeroWindowProbes => {
                "tcp_retries2 zero-window probes in a row went unanswered: the connection timed out"
            }
            GiveUp::Reset => {
                "the peer answered with a RST, having no connection any more: reset by peer (ECONNRESET)"
            }
        }
    }
}
