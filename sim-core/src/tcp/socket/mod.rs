//! A TCP endpoint as a poll-style state machine (sans-IO).
//!
//! The simulator feeds it segments and timeouts and asks it what to send:
//!
//! ```text
//!   handle_segment(now, seg) ─┐                 ┌─► poll_transmit(now) → Option<Segment>
//!   handle_timeout(now) ──────┼─► Socket state ─┤
//!   app_write(bytes) ─────────┘                 └─► poll_timeout() → Option<SimTime>
//! ```
//!
//! Both directions live in one socket, as in Linux: the send half (cwnd,
//! the retransmission queue with its SACK scoreboard, RACK, PRR, pacing, the
//! RTO) and the receive half (rcv_nxt, the out-of-order queue and SACK blocks,
//! the advertised window, delayed ACK).
//!
//! Loss recovery follows `tcp_ack` → `tcp_fastretrans_alert` →
//! `tcp_cong_control`: SACK blocks tag the scoreboard, RACK marks segments
//! lost (FACK on kernels before RACK), the first loss enters Recovery
//! (ssthresh from the algorithm, PRR sizing what is sent), and lost segments
//! are retransmitted before new data. Without SACK, duplicate ACKs stand in
//! for SACKed segments and the head is marked lost (NewReno). An RTO marks
//! everything not SACKed lost.
//!
//! The code is split as Linux splits it:
//!
//! | module          | Linux                           | what                                          |
//! | --------------- | ------------------------------- | --------------------------------------------- |
//! | `input`         | tcp_input.c                     | handshake, `tcp_ack`, `tcp_data_queue`         |
//! | `handshake`     | tcp_timer.c, inet_connection_sock.c, tcp_minisocks.c | SYN and SYN-ACK timers, giving the handshake up, cwnd and RTT after it |
//! | `output`        | tcp_output.c                    | `tcp_write_xmit`, retransmissions, probes, ACKs |
//! | `receive`       | tcp_input.c, tcp.c              | `tcp_data_queue`, delayed ACK, `tcp_cleanup_rbuf` |
//! | `timers`        | tcp_timer.c                     | the timer table and what each timer does       |
//! | `congestion`    | tcp_input.c, tcp_cong.c         | the calls into the algorithm, recovery, undo   |
//! | `loss_probe`    | tcp_output.c, tcp_input.c       | the tail-loss probe: its timer, probe and ACKs |
//! | `frto`          | tcp_input.c                     | F-RTO: was a timeout spurious?                  |
//! | `app`           | tcp.c                           | the application's writes and reads             |
//! | `reset`         | tcp_input.c                     | a RST arrives: `tcp_reset`, or a challenge ACK |

mod app;
mod congestion;
mod frto;
mod gso;
mod handshake;
mod input;
mod loss_probe;
mod output;
mod receive;
mod reset;
#[cfg(test)]
mod tests;
mod timers;

use self::congestion::{CwndUsage, TracedCc};
use self::timers::TimerTable;
use super::GiveUp;
use super::ack_policy::AckPolicy;
use super::fack::Fack;
use super::frto::FrtoState;
use super::info::{Counters, RecvInfo, SendInfo, TcpInfo};
use super::ooo_queue::OooQueue;
use super::pacing::Pacer;
use super::push::PushMarks;
use super::rack::Rack;
use super::rate::RateEstimator;
use super::reader::Reader;
use super::receive_window::ReceiveWindow;
use super::recovery::Prr;
use super::rtt::RttEstimator;
use super::scoreboard::Scoreboard;
use super::send_buffer::SendBuffer;
use super::tlp::TailLossProbe;
use crate::cc::{Algorithm, CaState, ControlBlock};
use crate::config::{HostConfig, Nagle};
use crate::segment::Side;
use crate::time::{SimDuration, SimTime};
use crate::timer_wheel::{Hz, TimerWheel};

/// What holds a small segment back although cwnd and the window allow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hold {
    /// Nagle's rule: wait for the ACK of data in flight (`tcp_nagle_check`).
    Nagle,
    /// `TCP_CORK`: wait for a full segment or the uncork.
    Cork,
}

impl Hold {
    pub fn name(self) -> &'static str {
        match self {
            Hold::Nagle => "nagle",
            Hold::Cork => "cork",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Listen,
    SynSent,
    SynReceived,
    Established,
}

/// Our SYN (or SYN-ACK): whether one is due, when they left, and how often
/// they had to be resent.
#[derive(Clone, Copy, Debug)]
struct Syn {
    /// A SYN goes out at the next `poll_transmit`.
    pending: bool,
    /// When the first SYN left, if one has: `tcp_write_timeout` counts from
    /// it (`retrans_stamp`, set by `tcp_connect`), and an ACK echoing its
    /// timestamp shows it arrived (the request's `snt_synack`).
    first_sent_at: Option<SimTime>,
    /// When the last SYN left: the handshake's RTT sample is measured from it.
    sent_at: SimTime,
    /// SYNs sent again, by the timer or for a retried SYN (`req->num_retrans`;
    /// the connection's `total_retrans` starts with them).
    retransmits: u32,
    /// Expiries of the SYN's timer (`icsk_retransmits` in SYN-SENT,
    /// `req->num_timeout` in SYN-RECV).
    timeouts: u32,
}

/// The handshake's limits and the era's rules for it (from `HostConfig`).
#[derive(Clone, Copy, Debug)]
struct HandshakeRules {
    /// `net.ipv4.tcp_syn_retries`.
    syn_retries: u32,
    /// `net.ipv4.tcp_synack_retries`.
    synack_retries: u32,
    /// `tcp_syn_linear_timeouts` (6.5+; 0 before).
    syn_linear_timeouts: u32,
    /// `tcp_try_undo_spurious_syn` (5.4+).
    spurious_syn_undo: bool,
    /// `tcp_oow_rate_limited` (4.0+).
    oow_rate_limit: bool,
}

/// Zero-window probing (tcp_timer.c `tcp_probe_timer`). Its deadline is the
/// `Persist` entry of the timer table.
#[derive(Clone, Copy, Debug)]
struct ZeroWindowProbe {
    /// Probes sent since the last ACK arrived (`icsk_probes_out`).
    probes_out: u32,
    /// Empty probes sent since the window last opened or a probe carried
    /// data: the doublings of the probe interval (`icsk_backoff`). Linux
    /// shares it with the RTO's backoff; the two never run at once here.
    probe_backoff: u32,
    /// Probes sent over the connection's life, for the trace.
    probes_total: u32,
    /// A probe goes out at the next `poll_transmit`.
    probe_pending: bool,
    /// The host's tick and timer wheel: the probe timer is a jiffies timer
    /// (`icsk_retransmit_timer`), placed by the wheel like the delayed ACK's.
    hz: Hz,
    wheel: TimerWheel,
}

impl Default for ZeroWindowProbe {
    fn default() -> Self {
        ZeroWindowProbe {
            probes_out: 0,
            probe_backoff: 0,
            probes_total: 0,
            probe_pending: false,
            hz: Hz::DEFAULT,
            wheel: TimerWheel::Cascading,
        }
    }
}

/// In-order segments gathered into one GRO skb so far.
#[derive(Clone, Copy, Debug)]
struct GroSkb {
    /// `skb->len`.
    len: u32,
    /// `gso_size`: the first segment's payload.
    gso_size: u32,
    psh: bool,
}

#[derive(Clone)]
pub struct Socket {
    side: Side,
    state: State,
    mss: u32,
    /// Every deadline the socket waits for, by kind.
    timers: TimerTable,

    // ---- send half ----
    snd_una: u64,
    snd_nxt: u64,
    /// Highest sequence ever sent: below it, a send is a retransmission.
    snd_max: u64,
    /// Sequence number after the last byte the application wrote.
    write_end: u64,
    sbuf: SendBuffer,
    cork: bool,
    /// Corked: partial segments wait (TCP_CORK, `TCP_NAGLE_CORK`).
    corked: bool,
    /// Why the last attempt to send stopped short of unsent data that was
    /// ready: Nagle's rule or `TCP_CORK` holding a sub-MSS segment.
    held: Option<Hold>,
    /// The peer's advertised window, in bytes.
    snd_wnd: u64,
    /// End of the last sub-MSS segment sent (`snd_sml`, for Minshall's Nagle check).
    snd_sml: u64,
    /// Which segments carry PSH.
    push: PushMarks,
    nagle: Nagle,
    cb: ControlBlock,
    cc: Algorithm,
    /// Segments sent and not yet cumulatively acknowledged, with SACK state.
    board: Scoreboard,
    /// SACK was negotiated.
    sack_ok: bool,
    rack: Rack,
    /// Loss detection by the forward-most SACK instead of RACK, on a host
    /// without RACK (`Behaviour::rack` off: kernels before 4.4).
    fack: Option<Fack>,
    rate: RateEstimator,
    pacer: Pacer,
    /// Pacing applies: `fq`, or an algorithm that needs it.
    pacing: bool,
    /// The pacing rate and algorithm mode last written to the trace.
    traced: TracedCc,
    /// Segments retransmitted over the connection's life (`tcpi_total_retrans`).
    total_retrans: u64,
    /// Segments and bytes sent and received, for `TCP_INFO`.
    counters: Counters,
    /// cwnd and ssthresh before the timeout, to restore if it proves
    /// spurious (`tcp_init_undo`: prior_cwnd, prior_ssthresh).
    undo: Option<(u32, u32)>,
    /// The peer's latest timestamp to echo (`ts_recent`).
    ts_recent: u64,
    /// Windowed minimum RTT (`tcp_min_rtt`; Linux's window is 5 minutes,
    /// longer than any run here, so a plain minimum).
    min_rtt: Option<SimDuration>,
    /// `tcp_cwnd_validate` bookkeeping: was cwnd the limit in this window?
    cwnd_usage: CwndUsage,
    rtt: RttEstimator,
    /// The destination's cached RTT and variance (`tcp_init_metrics`),
    /// which seed the RTO once the handshake completes (before 3.12 srtt
    /// and rttvar themselves: `cached_rtt_seeds_estimator`).
    cached_rtt: Option<(SimDuration, SimDuration)>,
    /// `Behaviour::cached_rtt_seeds_estimator`.
    cached_rtt_seeds_estimator: bool,
    /// When the first retransmission of the current loss episode left (`retrans_stamp`).
    retrans_stamp: Option<SimTime>,
    /// Timeouts in a row (`icsk_retransmits`).
    retransmits: u32,
    /// PRR's bookkeeping while in Recovery.
    prr: Option<Prr>,
    /// Recovery or Loss ends when snd_una reaches this (`high_seq`).
    high_seq: u64,
    /// The tail-loss probe's episode (`tlp_high_seq`).
    tlp: TailLossProbe,
    /// F-RTO judging the latest timeout (`tp->frto`).
    frto: FrtoState,
    initcwnd: u32,
    slow_start_after_idle: bool,
    /// When data was last sent (`lsndtime`).
    lsndtime: Option<SimTime>,
    /// Slow-start flight the next data segment belongs to: one more than the
    /// newest flight whose ACK released it.
    next_flight: u32,
    syn: Syn,
    handshake: HandshakeRules,
    /// When this socket last answered an out-of-window segment without data,
    /// a SYN or a zero-window probe (`last_oow_ack_time`).
    last_oow_ack_time: Option<SimTime>,
    probe: ZeroWindowProbe,
    /// `net.ipv4.tcp_retries2`: unanswered probes or retransmissions before giving up.
    retries2: u32,
    /// What `tcp_write_timeout` measures an episode of timeouts from:
    /// Linux's `retrans_stamp` as `retransmits_timed_out` reads it, the
    /// latest send of the segment the episode's first timeout resent.
    write_timeout_from: SimTime,
    /// Given up (`tcp_write_err`), and which limit did it: the socket sends
    /// nothing more.
    gave_up: Option<GiveUp>,

    // ---- receive half ----
    rcv_nxt: u64,
    /// `rcv_wup`: rcv_nxt when we last sent an ACK.
    rcv_wup: u64,
    rwin: ReceiveWindow,
    /// An ACK goes out at the next `poll_transmit` (`ICSK_ACK_NOW`).
    ack_now: bool,
    /// Receive offload: the segment being handled is not its GRO skb's last
    /// (set by the world, which sees the next arrival), and what the skb
    /// has gathered so far.
    gro_more: bool,
    gro: Option<GroSkb>,
    /// Out-of-order data held until the hole before it is filled.
    ooo: OooQueue,
    acks: AckPolicy,
    /// `tp->rcv_tstamp`: when the last acceptable ACK arrived.
    rcv_tstamp: SimTime,
    app_received: u64,
    reader: Reader,
}

impl Socket {
    fn new(side: Side, state: State, cfg: &HostConfig) -> Self {
        let mss = cfg.sender.mss;
        Socket {
            side,
            state,
            mss,
            timers: TimerTable::default(),
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            write_end: 1,
            cork: cfg.sender.cork,
            corked: false,
            held: None,
            sbuf: SendBuffer::new(&cfg.sender, &cfg.behaviour, 1),
            snd_wnd: 0,
            snd_sml: 0,
            push: PushMarks::new(1),
            nagle: cfg.sender.nagle,
            cb: ControlBlock {
                mss,
                ..ControlBlock::new(cfg.sender.initcwnd)
            },
            cc: {
                let mut cc = cfg.sender.congestion_control.clone();
                cc.set_hystart_rules(cfg.behaviour.hystart);
                cc
            },
            board: Scoreboard::default(),
            sack_ok: cfg.sender.sack,
            rack: Rack::default(),
            fack: (!cfg.behaviour.rack).then(Fack::default),
            rate: RateEstimator::default(),
            pacer: Pacer::default(),
            pacing: cfg.sender.fq || cfg.sender.congestion_control.needs_pacing(),
            traced: TracedCc::default(),
            min_rtt: None,
            total_retrans: 0,
            counters: Counters::default(),
            undo: None,
            ts_recent: 0,
            cwnd_usage: CwndUsage::default(),
            rtt: RttEstimator::default(),
            cached_rtt: None,
            cached_rtt_seeds_estimator: cfg.behaviour.cached_rtt_seeds_estimator,
            retrans_stamp: None,
            retransmits: 0,
            prr: None,
            high_seq: 0,
            tlp: TailLossProbe::new(cfg.behaviour.tlp),
            frto: FrtoState::new(cfg.behaviour.frto),
            initcwnd: cfg.sender.initcwnd,
            slow_start_after_idle: cfg.sender.slow_start_after_idle,
            lsndtime: None,
            next_flight: 1,
            syn: Syn {
                pending: side == Side::Client,
                first_sent_at: None,
                sent_at: SimTime::ZERO,
                retransmits: 0,
                timeouts: 0,
            },
            handshake: HandshakeRules {
                syn_retries: cfg.sender.syn_retries,
                synack_retries: cfg.sender.synack_retries,
                syn_linear_timeouts: cfg.behaviour.syn_linear_timeouts,
                spurious_syn_undo: cfg.behaviour.spurious_syn_undo,
                oow_rate_limit: cfg.behaviour.oow_rate_limit,
            },
            last_oow_ack_time: None,
            probe: ZeroWindowProbe {
                hz: cfg.behaviour.hz,
                wheel: cfg.behaviour.timer_wheel,
                ..ZeroWindowProbe::default()
            },
            retries2: cfg.sender.retries2,
            write_timeout_from: SimTime::ZERO,
            gave_up: None,
            rcv_nxt: 0,
            rcv_wup: 0,
            rwin: ReceiveWindow::new(&cfg.receiver, &cfg.behaviour, mss, side == Side::Client),
            ack_now: false,
            gro_more: false,
            gro: None,
            ooo: OooQueue::default(),
            rcv_tstamp: SimTime::ZERO,
            acks: AckPolicy::new(
                cfg.receiver.delayed_ack.clone(),
                cfg.receiver.quickack,
                cfg.behaviour.ack_pushed_full_segment,
            )
            .with_pingpong_thresh(cfg.behaviour.pingpong_thresh)
            .with_timer(
                cfg.behaviour.hz,
                cfg.behaviour.timer_wheel,
                cfg.behaviour.delack_max_cap,
            ),
            app_received: 0,
            reader: Reader::for_receiver(&cfg.receiver),
        }
    }

    /// Receive offload: the next arrival continues the GRO skb the segment
    /// about to be handled belongs to ([`crate::config::ReceiverConfig::gro_window`]).
    pub fn set_gro_more(&mut self, more: bool) {
        self.gro_more = more;
    }

    /// Bytes the GRO skb being gathered holds so far.
    pub fn gro_len(&self) -> u32 {
        self.gro.map_or(0, |g| g.len)
    }

    /// An active opener: its first `poll_transmit` is the SYN.
    pub fn connect(cfg: &HostConfig) -> Self {
        Socket::new(Side::Client, State::SynSent, cfg)
    }

    /// A passive opener waiting for a SYN.
    pub fn listen(cfg: &HostConfig) -> Self {
        Socket::new(Side::Server, State::Listen, cfg)
    }

    pub fn side(&self) -> Side {
        self.side
    }

    pub fn is_established(&self) -> bool {
        self.state == State::Established
    }

    /// Congestion window in segments.
    pub fn cwnd(&self) -> u32 {
        self.cb.cwnd
    }

    pub fn ssthresh(&self) -> u32 {
        self.cb.ssthresh
    }

    /// Segments sent and not yet acknowledged (`packets_out`).
    pub fn packets_out(&self) -> u32 {
        self.board.packets_out()
    }

    /// Segments the network holds (`tcp_packets_in_flight`).
    pub fn in_flight(&self) -> u32 {
        self.board.in_flight()
    }

    /// `sk_pacing_rate` in bytes per second (0 when not paced).
    pub fn pacing_rate(&self) -> u64 {
        if self.pacing { self.cb.pacing_rate } else { 0 }
    }

    /// The congestion-control algorithm's mode (BBR's state machine).
    pub fn cc_mode(&self) -> Option<&'static str> {
        self.cc.mode()
    }

    /// `icsk_ca_state`.
    pub fn ca_state(&self) -> CaState {
        self.cb.ca_state
    }

    /// Payload bytes the application has read.
    pub fn app_received(&self) -> u64 {
        self.app_received
    }

    /// Payload bytes written and acknowledged by the peer.
    pub fn bytes_acked(&self) -> u64 {
        self.snd_una.saturating_sub(1)
    }

    /// What the queued data is charged now (`sk_wmem_queued`).
    fn wmem_queued(&self) -> u64 {
        self.sbuf
            .wmem_queued(self.write_end.saturating_sub(self.snd_una))
    }

    /// The send side's buffer and the peer's window now: `TCP_INFO`'s part
    /// of it, read without the rest ([`Self::info`]).
    pub fn send_info(&self) -> SendInfo {
        SendInfo {
            sndbuf: self.sbuf.sndbuf,
            wmem_queued: self.wmem_queued(),
            snd_wnd: self.snd_wnd,
        }
    }

    /// The socket's `TCP_INFO` now.
    pub fn info(&self) -> TcpInfo {
        let (ato_ns, last_data_sent_ns, last_data_recv_ns) = self.acks.info_times();
        TcpInfo {
            counters: self.counters,
            bytes_acked: self.bytes_acked(),
            total_retrans: self.total_retrans,
            cwnd: self.cb.cwnd,
            ssthresh: (self.cb.ssthresh < crate::cc::TCP_INFINITE_SSTHRESH)
                .then_some(self.cb.ssthresh),
            in_flight: self.in_flight(),
            srtt_ns: self.rtt.srtt().map_or(0, |d| d.0),
            rttvar_ns: self.rtt.rttvar().0,
            rto_ns: self.rtt.rto().0,
            pacing_rate: self.pacing_rate(),
            snd_wnd: self.snd_wnd,
            sndbuf: self.sbuf.sndbuf,
            wmem_queued: self.wmem_queued(),
            notsent_bytes: match self.sbuf.gso {
                Some(_) => self.gso_unsent(),
                None => self.write_end.saturating_sub(self.snd_nxt),
            },
            ato_ns,
            last_data_sent_ns,
            last_data_recv_ns,
            last_ack_recv_ns: self.rcv_tstamp.0,
            cc: self.cc.get_info(&self.cb),
        }
    }

    /// The receive side's buffer and unread bytes now.
    pub fn recv_info(&self) -> RecvInfo {
        RecvInfo {
            rcvbuf: self.rwin.rcvbuf(),
            unread: self.unread(),
            rmem_alloc: self.rwin.rmem_alloc(),
        }
    }

    /// Segments retransmitted so far (`tcpi_total_retrans`).
    pub fn total_retrans(&self) -> u64 {
        self.total_retrans
    }

    pub fn srtt(&self) -> Option<SimDuration> {
        self.rtt.srtt()
    }

    /// Bytes the application has written that the send buffer has not taken yet.
    pub fn app_backlog(&self) -> u64 {
        self.sbuf.backlog
    }

    /// `sk_sndbuf` now.
    pub fn sndbuf(&self) -> u64 {
        self.sbuf.sndbuf
    }

    /// What `tcp_update_metrics` reads when this connection closes.
    pub fn closing(&self) -> super::metrics::Closing {
        super::metrics::Closing {
            srtt_ns: self.rtt.srtt().map(|d| d.0),
            rttvar_ns: self.rtt.rttvar().0,
            cwnd: self.cb.cwnd,
            ssthresh: self.cb.ssthresh,
            backed_off: self.rtt.backoff() > 0,
            recovering: self.cb.ca_state != CaState::Open,
        }
    }

    /// `tcp_init_metrics`: start with a cached ssthresh.
    pub fn set_initial_ssthresh(&mut self, ssthresh: u32) {
        self.cb.ssthresh = ssthresh.min(self.cb.cwnd_clamp).max(2);
    }

    /// `tcp_init_metrics`: the destination's cached RTT and variance, which
    /// set the first RTO when the handshake completes (see
    /// `RttEstimator::seed_rto`; before 3.12, `seed_estimator`).
    pub fn set_cached_rtt(&mut self, rtt: SimDuration, rttvar: SimDuration) {
        self.cached_rtt = Some((rtt, rttvar));
    }

    /// A sub-MSS segment Nagle's rule or `TCP_CORK` is holding back now, and
    /// its length.
    pub fn held(&self) -> Option<(Hold, u64)> {
        let h = self.held?;
        Some((h, (self.write_end - self.snd_nxt).min(self.mss as u64)))
    }

    /// The connection was given up (`tcp_write_err`): it sends nothing more.
    pub fn is_aborted(&self) -> bool {
        self.gave_up.is_some()
    }

    /// Which limit made this host give the connection up, if one did.
    pub fn gave_up(&self) -> Option<GiveUp> {
        self.gave_up
    }

    /// Bytes received and not yet read by the application.
    pub fn unread(&self) -> u64 {
        self.rwin.unread()
    }
}
