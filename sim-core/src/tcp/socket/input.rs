//! What an arriving segment does (tcp_input.c): the handshake and the ACK
//! (`tcp_ack`); its data goes to `receive` (`tcp_data_queue`).
//!
//! ```text
//!   handle_segment ─► a RST: `reset` (tcp_validate_incoming's step 2, tcp_reset)
//!                  ├► tcp_rcv_state_process (Listen, SynSent, SynReceived)
//!                  └► tcp_rcv_established ─► tcp_validate_incoming: a SYN or a
//!                                         │   probe gets a bare ACK (≤ 1 / 500 ms)
//!                                         ├► tcp_ack ─► tcp_ack_probe (if nothing in flight)
//!                                         │           tcp_sacktag_write_queue
//!                                         │           tcp_clean_rtx_queue
//!                                         │           tcp_ack_update_rtt
//!                                         │           tcp_pkts_acked
//!                                         │           tcp_fastretrans_alert (if dubious)
//!                                         │           tcp_cong_control
//!                                         │           tcp_check_space, tcp_rearm_rto
//!                                         └► tcp_data_queue ─► __tcp_ack_snd_check
//! ```

use std::ops::ControlFlow;

use super::timers::Timer;
use super::{Socket, State};
use crate::cc::CaState;
use crate::segment::Segment;
use crate::tcp::ack_flags::{AckFlags, dsack_block};
use crate::tcp::rate::SampleBuilder;
use crate::time::{SimDuration, SimTime};
use crate::trace::{Trace, TraceEvent};

/// `tcp_invalid_ratelimit` default (HZ/2): the least time between two answers
/// to out-of-window segments without data (`tcp_oow_rate_limited`).
const TCP_INVALID_RATELIMIT: SimDuration = SimDuration::from_millis(500);

/// What `tcp_ack` notes before the ACK changes anything (its `prior_*` locals).
pub(super) struct Prior {
    /// `prior_in_flight`.
    pub(super) in_flight: u32,
    /// `prior_delivered`.
    pub(super) delivered: u64,
    /// The loss episode's first retransmission, for `tcp_try_undo_loss`.
    pub(super) retrans_stamp: Option<SimTime>,
    /// `tp->lost` before, to count what this ACK newly marked lost.
    pub(super) lost: u64,
}

/// What the cumulative ACK removed from the retransmission queue.
#[derive(Default)]
struct Cleaned {
    /// Segments acknowledged (`pkts_acked`).
    acked: u32,
    /// The newest slow-start flight among them.
    newest_flight: u32,
    /// RTT of the newest never-retransmitted one (`seq_rtt_us`).
    seq_rtt: Option<SimDuration>,
    /// One never retransmitted, sent before F-RTO's mark (`FLAG_ORIG_SACK_ACKED`).
    orig_acked: bool,
    /// One had been retransmitted (`FLAG_RETRANS_DATA_ACKED`).
    retrans_acked: bool,
}

/// What the SACK blocks newly tagged.
#[derive(Default)]
struct Sacked {
    /// RTT of the first never-retransmitted segment among them.
    rtt: Option<SimDuration>,
    /// One never retransmitted, sent before F-RTO's mark.
    orig: bool,
}

impl Socket {
    pub fn handle_segment(&mut self, now: SimTime, seg: &Segment, trace: &mut Trace) {
        self.counters.on_receive();
        if seg.flags.rst {
            return self.tcp_rcv_rst(now, seg, trace);
        }
        if self.tcp_rcv_state_process(now, seg, trace).is_break() {
            return;
        }
        self.tcp_rcv_established(now, seg, trace);
    }

    /// The handshake (`tcp_rcv_state_process`). Continues when the segment
    /// goes on to the established path (the ACK that completes a passive
    /// open may carry data).
    fn tcp_rcv_state_process(
        &mut self,
        now: SimTime,
        seg: &Segment,
        trace: &mut Trace,
    ) -> ControlFlow<()> {
        match self.state {
            State::Listen => {
                // `tcp_conn_request`: answer a SYN with a SYN-ACK, which
                // echoes the SYN's timestamp (`tcp_openreq_init`).
                if seg.flags.syn && !seg.flags.ack {
                    self.rcv_nxt = seg.seq + 1;
                    self.rcv_wup = self.rcv_nxt;
                    self.snd_wnd = seg.wnd;
                    self.push.on_window(seg.wnd);
                    self.ts_recent = seg.ts_val;
                    self.state = State::SynReceived;
                    self.syn.pending = true;
                }
                ControlFlow::Break(())
            }
            State::SynSent => {
                // `tcp_rcv_synsent_state_process`: the SYN-ACK completes an
                // active open, and is acknowledged at once, echoing its
                // timestamp (`tcp_store_ts_recent`).
                if seg.flags.syn && seg.flags.ack && seg.ack == 1 {
                    self.rcv_nxt = seg.seq + 1;
                    self.rcv_wup = self.rcv_nxt;
                    self.snd_una = 1;
                    self.snd_wnd = seg.wnd;
                    self.push.on_window(seg.wnd);
                    self.ts_recent = seg.ts_val;
                    self.timers.stop(Timer::Rto);
                    self.tcp_init_transfer(now, seg, trace);
                    self.ack_now = true;
                }
                ControlFlow::Break(())
            }
            State::SynReceived => {
                if seg.flags.syn {
                    // `tcp_check_req`, a retried SYN: our SYN-ACK was lost, so
                    // it goes again at once, unless rate-limited.
                    if !seg.flags.ack && !self.tcp_oow_rate_limited(now) {
                        self.syn.pending = true;
                    }
                    return ControlFlow::Break(());
                }
                // `tcp_check_req`: any segment acknowledging the SYN-ACK, a
                // bare ACK or data, completes the passive open.
                if !(seg.flags.ack && seg.ack == 1) {
                    return ControlFlow::Break(());
                }
                self.snd_una = 1;
                self.timers.stop(Timer::Rto);
                self.tcp_init_transfer(now, seg, trace);
                ControlFlow::Continue(())
            }
            State::Established => ControlFlow::Continue(()),
        }
    }

    /// The handshake is complete (`tcp_finish_connect`, or the
    /// `TCP_SYN_RECV` case of `tcp_rcv_state_process`): take the SYN's RTT
    /// sample and start the transfer (`tcp_init_transfer`).
    fn tcp_init_transfer(&mut self, now: SimTime, seg: &Segment, trace: &mut Trace) {
        let old = self.cb.cwnd;
        if let Some(r) = self.syn_acknowledged(now, seg) {
            self.rtt.on_sample(r);
            self.min_rtt = Some(r);
        }
        // tcp_init_transfer → tcp_init_metrics, after the SYN's RTT sample.
        match self.cached_rtt.take() {
            Some((crtt, cvar)) if self.cached_rtt_seeds_estimator => {
                self.rtt.seed_estimator(crtt, cvar)
            }
            Some((crtt, _)) => self.rtt.seed_rto(crtt),
            None => {}
        }
        self.state = State::Established;
        self.retrans_stamp = None;
        self.retransmits = 0;
        self.rwin.start(now, self.rcv_nxt, self.rtt.srtt());
        // tcp_initialize_rcv_mss, once the window is known.
        self.acks.init_rcv_mss(self.mss, self.rwin.rcv_wnd());
        // tcp_init_buffer_space → tcp_sndbuf_expand.
        self.sbuf.expand(self.cb.cwnd, self.cc.sndbuf_expand());
        trace.push(now, TraceEvent::Established { side: self.side });
        self.trace_cwnd(now, old, trace);
        // tcp_init_transfer → tcp_init_congestion_control.
        self.cb.srtt = self.rtt.srtt();
        self.cc.init(&mut self.cb, now);
        self.tcp_update_pacing_rate();
        self.trace_cc(now, trace);
    }

    /// A segment on an established connection (`tcp_rcv_established`).
    fn tcp_rcv_established(&mut self, now: SimTime, seg: &Segment, trace: &mut Trace) {
        // A paced reader catches up first; one that wakes late reads only
        // when it wakes.
        if !self.reader.reads_at_once() && !self.reader.wakes_late() {
            self.app_read(now);
        }
        if self.tcp_validate_incoming(now, seg).is_break() {
            return;
        }
        // `tcp_replace_ts_recent`: echo the timestamp of a segment that starts
        // at or before what we last acknowledged.
        if seg.len > 0 && seg.seq <= self.rcv_wup {
            self.ts_recent = seg.ts_val;
        }
        if seg.flags.ack {
            self.tcp_ack(now, seg, trace);
        }
        if seg.len > 0 {
            self.tcp_data_queue(now, seg, trace);
            if !self.reader.reads_at_once() {
                self.schedule_read(now);
            }
        }
    }

    /// `tcp_validate_incoming`, for what reaches a synchronized socket out of
    /// window: a SYN (the peer's retried SYN, or its SYN-ACK resent because
    /// our ACK was lost) gets a challenge ACK (RFC 5961 4.2,
    /// `tcp_send_challenge_ack`); a segment without data below the window (a
    /// zero-window probe, snd_una − 1) fails `tcp_sequence` and gets an ACK
    /// carrying our window (`tcp_send_dupack`). Either answer is a bare ACK
    /// of our state, at most one per `tcp_invalid_ratelimit`, and the segment
    /// is dropped: its ACK field is not processed.
    fn tcp_validate_incoming(&mut self, now: SimTime, seg: &Segment) -> ControlFlow<()> {
        let old_probe = seg.len == 0 && seg.seq < self.rcv_wup;
        if !(seg.flags.syn || old_probe) {
            return ControlFlow::Continue(());
        }
        if !self.tcp_oow_rate_limited(now) {
            self.ack_now = true;
        }
        ControlFlow::Break(())
    }

    /// `__tcp_oow_rate_limited`: true when an answer to an out-of-window
    /// segment went less than `tcp_invalid_ratelimit` (HZ/2, 500 ms) ago;
    /// otherwise this answer is noted (`last_oow_ack_time`) and may go. Only
    /// segments without data (or with a SYN) are ever limited, and only since
    /// 4.0 (`Behaviour::oow_rate_limit`).
    pub(super) fn tcp_oow_rate_limited(&mut self, now: SimTime) -> bool {
        if !self.handshake.oow_rate_limit {
            return false;
        }
        if self
            .last_oow_ack_time
            .is_some_and(|t| now.since(t) < TCP_INVALID_RATELIMIT)
        {
            return true;
        }
        self.last_oow_ack_time = Some(now);
        false
    }

    /// The peer acknowledged up to `seg.ack` (`tcp_ack`). Inlined into
    /// `handle_segment`, its one caller, with the rest (`tcp_ack_queue`) a
    /// call: most ACKs (every data segment the receiving side gets) end
    /// before it, and so never set up its large frame.
    #[inline(always)]
    fn tcp_ack(&mut self, now: SimTime, seg: &Segment, trace: &mut Trace) {
        // Older than what was acknowledged, or beyond what was sent: ignored.
        if seg.ack < self.snd_una || seg.ack > self.snd_max.max(self.snd_nxt) {
            return;
        }
        self.rcv_tstamp = now;
        let nothing_in_flight = self.board.is_empty();
        let window_changed = self.tcp_ack_update_window(seg);
        if nothing_in_flight {
            // `no_queue`: an answer to a zero-window probe, or a window update.
            self.tcp_ack_probe(now);
        }
        let una_advanced = seg.ack > self.snd_una;
        let has_sack = self.sack_ok && !seg.sack.is_empty();
        // A duplicate ACK: nothing new acknowledged, no data, no window update.
        let dupack = !una_advanced && seg.len == 0 && !window_changed && !self.board.is_empty();
        let base = AckFlags {
            una_advanced,
            ..AckFlags::new(seg.ack, seg.len > 0 || window_changed || una_advanced)
        };
        if !una_advanced && !has_sack && !dupack {
            // Linux's `no_queue` path: a probe episode may still end here.
            self.tcp_process_tlp_ack(&base);
            return;
        }
        self.tcp_ack_queue(now, seg, trace, base, dupack, has_sack);
    }

    /// The rest of `tcp_ack`, the path its `no_queue` label skips: an ACK
    /// that advances snd_una, SACKs or is a duplicate.
    #[inline(never)]
    fn tcp_ack_queue(
        &mut self,
        now: SimTime,
        seg: &Segment,
        trace: &mut Trace,
        base: AckFlags,
        dupack: bool,
        has_sack: bool,
    ) {
        let una_advanced = base.una_advanced;
        let prior = Prior {
            in_flight: self.board.in_flight(),
            delivered: self.rate.delivered,
            retrans_stamp: self.retrans_stamp,
            lost: self.board.lost(),
        };
        let mut rs = SampleBuilder::default();

        // 1. SACK blocks, then 2. the cumulative ACK.
        let (cleaned, sack_rtt, flags) =
            self.tcp_ack_take_in(now, seg, base, dupack, prior.delivered, &mut rs);

        // 3. RTT: from the cumulative ACK, else from SACK; then the algorithm hears of it.
        self.tcp_ack_update_rtt(now, cleaned.seq_rtt.or(sack_rtt), trace);
        self.tcp_pkts_acked(now, cleaned.acked, una_advanced, cleaned.seq_rtt, trace);
        let old = self.cb.cwnd;
        let reorder_before = self.timers.get(Timer::Reorder);
        self.tlp_before_loss_detection(now, &flags);

        // 4. Loss detection and the recovery state machine (F-RTO first,
        // as `tcp_process_loss` judges a timeout before anything else).
        let dubious = self.tcp_ack_is_dubious(una_advanced, has_sack);
        if dubious
            && una_advanced
            && self.cb.ca_state == CaState::Loss
            && !self.frto.rfc4138_trial()
        {
            self.tcp_try_undo_loss(now, seg.ts_ecr, prior.retrans_stamp, trace);
        }
        self.tcp_frto_ack(now, &flags, trace);
        if dubious {
            self.tcp_fastretrans_alert(now, una_advanced, trace);
        }
        let reorder_armed = self.timers.get(Timer::Reorder) != reorder_before;
        self.tlp_after_loss_detection(now, una_advanced, reorder_armed);
        let newly_lost = (self.board.lost() - prior.lost) as u32;
        if cleaned.acked > 0 && self.prr.is_none() {
            self.next_flight = cleaned.newest_flight + 1;
        }

        // 5. Congestion control (FLAG_DATA_ACKED: the cumulative ACK removed segments).
        let data_acked = cleaned.acked > 0;
        self.tcp_cong_control(now, &rs, &prior, data_acked, newly_lost, una_advanced);
        self.tlp_after_cong_control(&flags);
        self.trace_cwnd(now, old, trace);
        self.trace_cc(now, trace);

        // 6. Send-buffer space, and the timers.
        self.tcp_check_space();
        self.tcp_rearm_xmit_timer(now, una_advanced);
    }

    /// Steps 1 and 2 of `tcp_ack`: the SACK blocks tag the scoreboard
    /// (`tcp_sacktag_write_queue`), then the cumulative ACK cleans it
    /// (`tcp_clean_rtx_queue`). Returns what was cleaned, the SACK's RTT
    /// sample, and the ACK's flags.
    fn tcp_ack_take_in(
        &mut self,
        now: SimTime,
        seg: &Segment,
        base: AckFlags,
        dupack: bool,
        prior_delivered: u64,
        rs: &mut SampleBuilder,
    ) -> (Cleaned, Option<SimDuration>, AckFlags) {
        // What F-RTO measures "sent before the timeout" against, while it judges one.
        let orig_mark = self.frto_mark();
        let blocks = if self.sack_ok {
            seg.sack.as_slice()
        } else {
            &[]
        };
        // A D-SACK block reports a duplicate and tags nothing (`tcp_check_dsack`).
        let dsack = dsack_block(blocks, seg.ack);
        let sacked_before = self.board.sacked_out();
        let sacked = if blocks.is_empty() {
            Sacked::default()
        } else {
            let tagged = &blocks[dsack.is_some() as usize..];
            self.tcp_sacktag_write_queue(now, tagged, orig_mark, rs)
        };
        let data_sacked = self.board.sacked_out() > sacked_before;
        let cleaned = if base.una_advanced {
            self.tcp_clean_rtx_queue(now, seg.ack, orig_mark, rs, prior_delivered)
        } else {
            if dupack && !self.sack_ok {
                self.tcp_add_reno_sack();
            }
            Cleaned::default()
        };
        let flags = AckFlags {
            data_sacked,
            dsack,
            // Without SACK an ACK that covers a retransmission cannot tell
            // which copy arrived (`tcp_clean_rtx_queue`).
            orig_sack_acked: sacked.orig
                || (cleaned.orig_acked && (self.sack_ok || !cleaned.retrans_acked)),
            only_orig_sacked: sacked.orig
                && orig_mark.is_some_and(|m| blocks.iter().all(|&(_, e)| e <= m)),
            retrans_data_acked: cleaned.retrans_acked,
            ..base
        };
        (cleaned, sacked.rtt, flags)
    }

    /// `tcp_ack_update_window`, and what any ACK does to zero-window probing.
    /// Returns whether the window changed.
    fn tcp_ack_update_window(&mut self, seg: &Segment) -> bool {
        let window_changed = seg.wnd != self.snd_wnd;
        self.snd_wnd = seg.wnd;
        self.push.on_window(seg.wnd);
        // Any ACK answers the probes (tcp_ack resets icsk_probes_out).
        self.probe.probes_out = 0;
        window_changed
    }

    /// `tcp_sacktag_write_queue`: tags the SACKed segments, feeding the rate
    /// sample and RACK. Notes the RTT of the first never-retransmitted one,
    /// and whether one ends by `orig_mark` (F-RTO's `FLAG_ORIG_SACK_ACKED`).
    fn tcp_sacktag_write_queue(
        &mut self,
        now: SimTime,
        blocks: &[(u64, u64)],
        orig_mark: Option<u64>,
        rs: &mut SampleBuilder,
    ) -> Sacked {
        let min_rtt = self.min_rtt;
        let mut sacked = Sacked::default();
        let (board, rate, rack) = (&mut self.board, &mut self.rate, &mut self.rack);
        board.sack(blocks, |s| {
            rate.on_delivered(rs, s, now);
            rack.advance(s.ever_retrans, s.sent_at, s.end, now, min_rtt);
            if !s.ever_retrans {
                sacked.rtt.get_or_insert(now.since(s.sent_at));
                sacked.orig |= orig_mark.is_some_and(|m| s.end <= m);
            }
        });
        sacked
    }

    /// `tcp_clean_rtx_queue`: removes what `ack` covers from the
    /// retransmission queue and advances snd_una.
    fn tcp_clean_rtx_queue(
        &mut self,
        now: SimTime,
        ack: u64,
        orig_mark: Option<u64>,
        rs: &mut SampleBuilder,
        prior_delivered: u64,
    ) -> Cleaned {
        let min_rtt = self.min_rtt;
        let mut cleaned = Cleaned::default();
        let (board, rate, rack) = (&mut self.board, &mut self.rate, &mut self.rack);
        cleaned.acked = board.ack_up_to(ack, |s| {
            cleaned.newest_flight = cleaned.newest_flight.max(s.flight);
            rate.on_delivered(rs, s, now);
            rack.advance(s.ever_retrans, s.sent_at, s.end, now, min_rtt);
            if !s.ever_retrans {
                cleaned.seq_rtt = Some(now.since(s.sent_at));
                cleaned.orig_acked |= orig_mark.is_some_and(|m| s.end <= m);
            } else {
                cleaned.retrans_acked = true;
            }
        });
        self.snd_una = ack;
        self.push.on_acked(ack);
        if self.snd_nxt < self.snd_una {
            self.snd_nxt = self.snd_una;
        }
        if !self.sack_ok {
            // All but one of these were counted as delivered by their
            // duplicate ACKs already (`tcp_remove_reno_sacks`).
            let newly = self.board.reno_acked(cleaned.acked);
            let counted = self.rate.delivered - prior_delivered;
            self.rate.delivered -= counted.saturating_sub(newly as u64);
        }
        cleaned
    }

    /// `tcp_add_reno_sack`: without SACK, a duplicate ACK stands in for one
    /// segment that left the network.
    fn tcp_add_reno_sack(&mut self) {
        let before = self.board.sacked_out();
        self.board.reno_dupack();
        self.rate.count_delivered(self.board.sacked_out() - before);
    }

    /// `tcp_ack_update_rtt`: feeds the estimator and the minimum RTT.
    fn tcp_ack_update_rtt(&mut self, now: SimTime, sample: Option<SimDuration>, trace: &mut Trace) {
        if let Some(r) = sample {
            self.rtt.on_sample(r);
            self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
            trace.push(
                now,
                TraceEvent::RttSample {
                    side: self.side,
                    sample_ns: r.0,
                    srtt_ns: self.rtt.srtt().map_or(0, |d| d.0),
                    rttvar_ns: self.rtt.rttvar().0,
                    rto_ns: self.rtt.rto().0,
                },
            );
        }
        self.cb.srtt = self.rtt.srtt();
    }

    /// `tcp_ack_is_dubious`: anything but a plain in-order ACK in the Open
    /// state goes through `tcp_fastretrans_alert`.
    fn tcp_ack_is_dubious(&self, una_advanced: bool, has_sack: bool) -> bool {
        !una_advanced || has_sack || self.cb.ca_state != CaState::Open
    }

    /// `tcp_check_space`: freed buffer may wake the writer; a grown cwnd may
    /// grow the buffer (`tcp_new_space` → `tcp_sndbuf_expand`). With GSO
    /// skbs the check waits for the push this ACK triggers (`tcp_data_snd_check`).
    fn tcp_check_space(&mut self) {
        if self.sbuf.gso.is_some() {
            self.tcp_clean_write_queue();
            return;
        }
        self.sbuf.expand(self.cb.cwnd, self.cc.sndbuf_expand());
        self.sbuf.on_acked(
            self.write_end.saturating_sub(self.snd_una),
            self.write_end.saturating_sub(self.snd_nxt),
        );
        self.take_from_app();
    }
}
