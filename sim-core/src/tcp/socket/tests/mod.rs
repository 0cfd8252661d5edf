//! The socket driven one segment at a time, with no link and no peer socket:
//! each test feeds the segments a peer would send (`send!`) and checks, field
//! by field, what the socket answers (`recv!`, `recv_nothing!`).
//!
//! The socket under test is the server, established by [`established`]:
//!
//! ```text
//!   t = 0      peer ──SYN───────────────────► socket
//!              peer ◄──SYN-ACK (win 65160)─── socket
//!   t = 10 ms  peer ──ACK (win 256 KiB)─────► socket   srtt 10 ms, RTO 210 ms
//! ```
//!
//! Its configuration ([`host`]) keeps the numbers readable: Reno (whose
//! cwnd arithmetic is tcp_cong.c's plain one), and window scale 0, so the
//! window it advertises is `tcp_select_initial_window`'s 65160 bytes to the
//! byte (45 segments of 1448: a listener counts the peer's MSS without the
//! timestamp option). Expected values come from Linux's rules, cited at each
//! test.

use super::Socket;
use crate::cc::Algorithm;
use crate::config::HostConfig;
use crate::segment::{Flags, SackBlocks, Segment, Side};
use crate::time::{SimDuration, SimTime};
use crate::trace::{Trace, TraceEvent};

/// Feeds the segment the peer sends to the socket under test, at the test's clock.
macro_rules! send {
    ($tcp:expr, $seg:expr) => {
        $tcp.send(&$seg)
    };
}

/// Polls the socket once per expected segment and checks each, every field.
macro_rules! recv {
    ($tcp:expr, $($seg:expr),+ $(,)?) => {
        $( $tcp.recv($seg, false); )+
    };
}

/// Like `recv!`, for segments the socket must mark as retransmissions.
macro_rules! recv_retransmit {
    ($tcp:expr, $($seg:expr),+ $(,)?) => {
        $( $tcp.recv($seg, true); )+
    };
}

/// The socket has nothing to send.
macro_rules! recv_nothing {
    ($tcp:expr) => {
        $tcp.recv_nothing()
    };
}

mod bbr;
mod data_and_acks;
mod delayed_ack;
mod frto;
mod handshake;
mod nagle_cork;
mod packetdrill;
mod pushed_ack;
mod receive_window;
mod reset;
mod rto;
mod sack_recovery;
mod send_buffer;
mod syn_retransmission;
mod tail_loss_probe;
mod timers;
mod without_rack;
mod zero_window;

const MSS: u32 = 1448;
const MS: u64 = 1_000_000;
/// The round trip the handshake measures.
const RTT: SimDuration = SimDuration::from_millis(10);
/// What the socket under test advertises until data arrives: its SYN-ACK's
/// 65160 bytes (`tcp_select_initial_window`: 45 segments of 1448), unscaled;
/// the right edge never moves back, so its ACKs keep it.
const WND: u64 = 65_160;
/// What the peer advertises after the handshake: large enough never to limit.
const PEER_WND: u64 = 256 * 1024;

/// Sequence number of the `n`th full segment the socket sends (from 0).
fn seq(n: u64) -> u64 {
    1 + n * MSS as u64
}

/// Linux defaults, with Reno and window scale 0 (see the module docs).
fn host() -> HostConfig {
    let mut cfg = HostConfig::default();
    cfg.sender.congestion_control = Algorithm::by_name("reno").unwrap();
    cfg.receiver.wscale = 0;
    cfg
}

/// A segment from the peer: a bare ACK of our SYN, `PEER_WND` open.
fn from_peer() -> Segment {
    Segment {
        id: 0,
        from: Side::Client,
        seq: 1,
        len: 0,
        ack: 1,
        wnd: PEER_WND,
        flags: Flags {
            ack: true,
            ..Flags::default()
        },
        sack: SackBlocks::default(),
        ts_val: 0,
        ts_ecr: 0,
    }
}

/// The peer's cumulative ACK of everything before `ack`.
fn ack(ack: u64) -> Segment {
    Segment { ack, ..from_peer() }
}

/// A segment from the socket under test after its SYN: a bare ACK of the
/// peer's SYN, advertising `WND`. (The simulator stamps `id` and `ts_val`
/// when it sends; the socket leaves them 0.)
fn from_us() -> Segment {
    Segment {
        from: Side::Server,
        wnd: WND,
        ..from_peer()
    }
}

/// What a connecting socket of [`host`] offers in its SYN: 44 segments of
/// advmss 1460 (it does not know yet that timestamps will take 12 bytes).
const CLIENT_WND: u64 = 64_240;

/// The client's SYN: sequence 0, no ACK, the unscaled initial window.
fn syn() -> Segment {
    Segment {
        seq: 0,
        ack: 0,
        wnd: CLIENT_WND,
        flags: Flags {
            syn: true,
            ..Flags::default()
        },
        ..from_peer()
    }
}

/// The server's SYN-ACK: sequence 0, acknowledging the client's SYN.
fn syn_ack() -> Segment {
    Segment {
        seq: 0,
        flags: Flags {
            syn: true,
            ack: true,
            ..Flags::default()
        },
        ..from_us()
    }
}

/// The `n`th full segment of data from the socket under test (from 0).
fn full_segment(n: u64) -> Segment {
    Segment {
        seq: seq(n),
        len: MSS,
        ..from_us()
    }
}

/// The same segment with PSH set: the last of a write (`tcp_push`).
fn pushed(seg: Segment) -> Segment {
    Segment {
        flags: Flags {
            psh: true,
            ..seg.flags
        },
        ..seg
    }
}

/// `n` full segments of data from the socket under test, from the `first`th.
fn full_segments(first: u64, n: u64) -> impl Iterator<Item = Segment> {
    (first..first + n).map(full_segment)
}

/// A socket, the test's clock and the trace the socket writes.
struct Tcp {
    sock: Socket,
    now: SimTime,
    trace: Trace,
}

impl Tcp {
    fn new(sock: Socket) -> Self {
        Tcp {
            sock,
            now: SimTime::ZERO,
            trace: Trace::default(),
        }
    }

    /// Moves the clock to `ms` after the start.
    fn at_ms(&mut self, ms: u64) {
        let t = SimTime(ms * MS);
        assert!(t >= self.now, "the clock only moves forward");
        self.now = t;
    }

    fn send(&mut self, seg: &Segment) {
        self.sock.handle_segment(self.now, seg, &mut self.trace);
    }

    #[track_caller]
    fn recv(&mut self, expected: Segment, retransmit: bool) {
        match self.sock.poll_transmit(self.now) {
            Some((seg, _, r)) => {
                assert_eq!(seg, expected);
                assert_eq!(r, retransmit, "retransmission flag of {seg:?}");
            }
            None => panic!("expected {expected:?}, the socket sent nothing"),
        }
    }

    /// Every segment the socket would send now.
    fn drain(&mut self) -> Vec<Segment> {
        std::iter::from_fn(|| self.sock.poll_transmit(self.now).map(|(seg, ..)| seg)).collect()
    }

    #[track_caller]
    fn recv_nothing(&mut self) {
        if let Some((seg, ..)) = self.sock.poll_transmit(self.now) {
            panic!("expected nothing, the socket sent {seg:?}");
        }
    }

    /// Nothing to send and no timer armed: the socket waits for the peer.
    #[track_caller]
    fn assert_quiet(&mut self) {
        self.recv_nothing();
        assert_eq!(self.next_timeout(), None, "no timer armed");
    }

    /// The application writes `bytes`, the whole message.
    fn write(&mut self, bytes: u64) {
        self.sock.app_write(self.now, bytes, false, &mut self.trace);
    }

    /// The application writes `bytes` with more of the message to come.
    fn write_more(&mut self, bytes: u64) {
        self.sock.app_write(self.now, bytes, true, &mut self.trace);
    }

    /// When the socket's next timer fires, relative to now.
    fn next_timeout(&self) -> Option<SimDuration> {
        self.sock.poll_timeout().map(|t| t.since(self.now))
    }

    /// Moves the clock to the socket's next timer and lets it fire.
    #[track_caller]
    fn fire_timer(&mut self) {
        self.now = self.sock.poll_timeout().expect("a timer is armed");
        self.sock.handle_timeout(self.now, &mut self.trace);
    }

    /// Trace events the socket wrote so far.
    fn events(&self) -> Vec<TraceEvent> {
        self.trace.records().map(|r| r.event).collect()
    }
}

/// The server side of a connection `cfg` configures, after the handshake of
/// the module docs.
fn established_with(cfg: &HostConfig) -> Tcp {
    let mut tcp = Tcp::new(Socket::listen(cfg));
    send!(tcp, syn());
    recv!(tcp, syn_ack());
    tcp.at_ms(RTT.0 / MS);
    send!(tcp, from_peer());
    recv_nothing!(tcp);
    assert!(tcp.sock.is_established());
    tcp
}

/// A listener of any `cfg` after the same handshake, with the SYN-ACK it
/// sent (whatever window its kernel chose).
fn accept(cfg: &HostConfig) -> (Tcp, Segment) {
    let mut tcp = Tcp::new(Socket::listen(cfg));
    send!(tcp, syn());
    let syn_ack = tcp.drain()[0];
    tcp.at_ms(RTT.0 / MS);
    send!(tcp, from_peer());
    recv_nothing!(tcp);
    assert!(tcp.sock.is_established());
    (tcp, syn_ack)
}

/// [`established_with`] the [`host`] configuration.
fn established() -> Tcp {
    established_with(&host())
}
