//! Congestion control and loss recovery around the algorithm's hooks: what
//! tcp_input.c and tcp_cong.c do before and after they call
//! `struct tcp_congestion_ops`.
//!
//! ```text
//!       loss seen (RACK, FACK or dupacks;        snd_una ≥ high_seq
//!       or RACK's reorder timer)
//!   Open ───────────────────────────────► Recovery ───────────────► Open
//!    │        tcp_enter_recovery: ssthresh    (PRR sizes cwnd;      (cwnd = ssthresh:
//!    │        from the algorithm, PRR starts   lost segments first)  tcp_end_cwnd_reduction)
//!    │ RTO
//!    └──────► Loss ── snd_una ≥ high_seq ──► Open
//!     tcp_enter_loss: all lost,  │ an ACK proves the timeout spurious:
//!     cwnd = in flight + 1       └ tcp_try_undo_loss restores cwnd and ssthresh
//! ```
//!
//! On every ACK the algorithm hears `pkts_acked`, then either sets cwnd and
//! the pacing rate itself (`cong_control`, BBR), or cwnd follows PRR in
//! Recovery, or `cong_avoid` grows it (`tcp_cong_control`), each told what
//! the ACK newly delivered. An algorithm with `cong_control` owns cwnd in
//! Recovery too: no PRR, and no cwnd = ssthresh when it ends.

use super::input::Prior;
use super::timers::Timer;
use super::{Socket, State};
use crate::cc::{AckSample, CaState, ControlBlock, TCP_INFINITE_SSTHRESH};
use crate::tcp::fack::Fack;
use crate::tcp::idle_restart::cwnd_restart;
use crate::tcp::rack::{Rack, TCP_REORDERING};
use crate::tcp::rate::SampleBuilder;
use crate::tcp::recovery::Prr;
use crate::time::{SimDuration, SimTime};
use crate::trace::{Trace, TraceEvent};

/// `tcp_cwnd_validate` bookkeeping: was cwnd the limit in the last window?
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct CwndUsage {
    /// Most segments in flight in this window (`max_packets_out`).
    max_packets_out: u32,
    /// The window ends when snd_una passes this (`cwnd_usage_seq`).
    cwnd_usage_seq: u64,
    /// cwnd was what stopped sending (`is_cwnd_limited`).
    is_cwnd_limited: bool,
}

/// What the trace was last told about the algorithm: its mode and the pacing rate.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct TracedCc {
    pacing: u64,
    mode: Option<&'static str>,
}

impl Socket {
    /// `tcp_slow_start_after_idle_check`: a sender with nothing in flight that
    /// has been idle for longer than the RTO restarts from a smaller window.
    pub(super) fn tcp_slow_start_after_idle_check(&mut self, now: SimTime, trace: &mut Trace) {
        let Some(last) = self.lsndtime else { return };
        if !self.slow_start_after_idle || self.packets_out() > 0 || self.state != State::Established
        {
            return;
        }
        let idle = now.since(last);
        let rto = self.rtt.rto();
        if idle <= rto {
            return;
        }
        let old = self.cb.cwnd;
        cwnd_restart(&mut self.cb, self.initcwnd, idle, rto);
        self.trace_cwnd(now, old, trace);
    }

    /// `tcp_set_ca_state`: tells the algorithm when the state changes.
    pub(super) fn tcp_set_ca_state(&mut self, state: CaState) {
        if self.cb.ca_state != state {
            self.cb.ca_state = state;
            self.cc.set_state(state);
        }
    }

    /// The algorithm hears of the ACK (`pkts_acked`, called from
    /// `tcp_clean_rtx_queue`); progress ends the loss episode, if any.
    pub(super) fn tcp_pkts_acked(
        &mut self,
        now: SimTime,
        acked: u32,
        una_advanced: bool,
        rtt: Option<SimDuration>,
        trace: &mut Trace,
    ) {
        let ssthresh_before = self.cb.ssthresh;
        if acked > 0 || una_advanced {
            let ack = AckSample {
                now,
                rtt,
                snd_una: self.snd_una,
                snd_nxt: self.snd_nxt,
                paced: self.pacing,
                pacing_rate: self.cb.pacing_rate,
            };
            self.cc.pkts_acked(&mut self.cb, &ack);
            self.retrans_stamp = None;
            self.retransmits = 0;
        }
        if self.cb.ssthresh != ssthresh_before {
            // HyStart ended slow start: record the new ssthresh with cwnd.
            self.push_cwnd(now, self.cb.cwnd, trace);
        }
    }

    /// `tcp_fastretrans_alert`: leave Recovery or Loss once `high_seq` is
    /// acknowledged; otherwise find lost segments and enter Recovery at the first.
    pub(super) fn tcp_fastretrans_alert(
        &mut self,
        now: SimTime,
        una_advanced: bool,
        trace: &mut Trace,
    ) {
        if self.cb.ca_state != CaState::Open && self.snd_una >= self.high_seq {
            if self.cb.ca_state == CaState::Recovery {
                self.tcp_end_cwnd_reduction();
            }
            if !self.sack_ok {
                self.board.reset_reno_sacks();
            }
            self.tcp_set_ca_state(CaState::Open);
        }
        if self.sack_ok && self.fack.is_some() {
            self.tcp_fack_mark_lost();
        } else if self.sack_ok {
            self.tcp_rack_mark_lost(now, false);
        } else {
            // `tcp_newreno_mark_lost`: the head is lost after `reordering`
            // duplicate ACKs, and again after each partial ACK in Recovery.
            let open = self.cb.ca_state == CaState::Open;
            if (open && self.board.sacked_out() >= TCP_REORDERING)
                || (self.cb.ca_state == CaState::Recovery && una_advanced)
            {
                self.board.mark_head_lost();
            }
        }
        if self.cb.ca_state == CaState::Open && self.board.lost_out() > 0 {
            self.tcp_enter_recovery(now, trace);
        }
    }

    /// Loss detection without RACK (2.6.32, 3.10): lost retransmissions, then
    /// FACK's threshold (`tcp_mark_lost_retrans` from `tcp_sacktag_write_queue`,
    /// then `tcp_update_scoreboard`). Not in Loss: after a timeout those
    /// kernels only retransmit until the ACKs reach `high_seq`.
    fn tcp_fack_mark_lost(&mut self) {
        let Some(fack) = &mut self.fack else { return };
        match self.cb.ca_state {
            CaState::Loss => {}
            CaState::Recovery => {
                fack.mark_lost_retrans(&mut self.board);
                fack.update_scoreboard(&mut self.board);
            }
            CaState::Open => {
                if Fack::time_to_recover(&self.board) {
                    fack.update_scoreboard(&mut self.board);
                }
            }
        }
    }

    /// `tcp_end_cwnd_reduction`, on leaving Recovery: continue from ssthresh.
    /// Not for an algorithm with `cong_control` (BBR): Linux returns early for
    /// it, and the algorithm restores its own cwnd on the next ACK
    /// (`bbr_set_cwnd_to_recover_or_restore`).
    fn tcp_end_cwnd_reduction(&mut self) {
        let reducing = self.prr.take().is_some();
        if self.cc.has_cong_control() {
            return;
        }
        if reducing && self.cb.ssthresh < TCP_INFINITE_SSTHRESH {
            self.cb.cwnd = self.cb.ssthresh;
        }
    }

    /// `tcp_cwnd_reduction` (PRR) for an ACK, or a timer, that delivered
    /// `newly_acked_sacked` segments and marked `newly_lost` lost.
    pub(super) fn tcp_cwnd_reduction(
        &mut self,
        newly_acked_sacked: u32,
        newly_lost: u32,
        una_advanced: bool,
    ) {
        if let Some(prr) = &mut self.prr {
            self.cb.cwnd = prr.cwnd_reduction(
                self.cb.cwnd,
                self.board.in_flight(),
                self.cb.ssthresh,
                newly_acked_sacked,
                newly_lost,
                una_advanced,
            );
        }
    }

    /// RACK over the scoreboard (`tcp_rack_mark_lost`); arms the reorder timer
    /// for what is not yet due.
    pub(super) fn tcp_rack_mark_lost(&mut self, now: SimTime, force: bool) -> u32 {
        let reo_wnd = Rack::reo_wnd(
            self.cb.ca_state != CaState::Open,
            self.board.sacked_out(),
            self.min_rtt,
            self.rtt.srtt(),
        );
        let (lost, due) = self.rack.detect_loss(&mut self.board, now, reo_wnd, force);
        if let Some(due) = due {
            self.timers.set(Timer::Reorder, due);
        }
        lost
    }

    /// `tcp_enter_recovery`: ssthresh from the algorithm, PRR starts, and the
    /// lost segments go out first.
    pub(super) fn tcp_enter_recovery(&mut self, now: SimTime, trace: &mut Trace) {
        // `tcp_init_cwnd_reduction` ends a tail-loss probe's episode.
        self.tlp.end_episode();
        self.cb.ssthresh = self.cc.ssthresh(&self.cb);
        self.prr = Some(Prr::new(self.cb.cwnd));
        self.high_seq = self.snd_nxt;
        self.cb.cwnd_cnt = 0;
        self.tcp_set_ca_state(CaState::Recovery);
        let seq = self.board.next_retransmit().map_or(self.snd_una, |s| s.seq);
        trace.push(
            now,
            TraceEvent::FastRetransmit {
                side: self.side,
                seq,
            },
        );
    }

    /// `tcp_enter_loss`, on a timeout: a fresh ssthresh unless this continues
    /// a loss episode already under way; everything not SACKed is lost, and
    /// cwnd = in flight (none now) + 1.
    pub(super) fn tcp_enter_loss(&mut self, now: SimTime, trace: &mut Trace) {
        let old = self.cb.cwnd;
        if self.cb.ca_state == CaState::Open || self.snd_una >= self.high_seq {
            self.undo = Some((self.cb.cwnd, self.cb.ssthresh));
            self.cb.ssthresh = self.cc.ssthresh(&self.cb);
        }
        self.tcp_set_ca_state(CaState::Loss);
        self.prr = None;
        self.high_seq = self.snd_nxt;
        self.tlp.end_episode();
        self.board.mark_all_lost();
        self.timers.stop(Timer::Reorder);
        self.cb.cwnd = self.board.in_flight() + 1;
        self.cb.cwnd_cnt = 0;
        // Recorded even when cwnd was already 1 (unlike `trace_cwnd`),
        // so every timeout is followed by the window it left.
        self.push_cwnd(now, old, trace);
    }

    /// `tcp_try_undo_loss` with `tcp_packet_delayed`: an ACK echoing a
    /// timestamp from before the first retransmission proves the originals
    /// arrived; the timeout was spurious (the RTT had grown past the RTO, as
    /// when a queue fills). Restore cwnd and ssthresh and forget the losses.
    pub(super) fn tcp_try_undo_loss(
        &mut self,
        now: SimTime,
        ts_ecr: u64,
        retrans_stamp: Option<SimTime>,
        trace: &mut Trace,
    ) {
        if self.undo.is_none() {
            return;
        }
        if ts_ecr == 0 || retrans_stamp.is_none_or(|r| ts_ecr >= r.0) {
            return;
        }
        self.tcp_undo_cwnd_reduction(now, trace);
    }

    /// `tcp_undo_cwnd_reduction(sk, true)`, then Open: nothing is presumed
    /// lost any more, and cwnd and ssthresh come back (`undo_cwnd`, the
    /// prior ssthresh) if the timeout saved them.
    pub(super) fn tcp_undo_cwnd_reduction(&mut self, now: SimTime, trace: &mut Trace) {
        let old = self.cb.cwnd;
        if let Some((prior_cwnd, prior_ssthresh)) = self.undo.take() {
            self.cb.cwnd = self.cb.cwnd.max(self.cc.undo_cwnd(&ControlBlock {
                cwnd: prior_cwnd,
                ..self.cb.clone()
            }));
            self.cb.ssthresh = self.cb.ssthresh.max(prior_ssthresh);
        }
        self.board.unmark_lost();
        self.frto.stop();
        self.tcp_set_ca_state(CaState::Open);
        self.trace_cwnd(now, old, trace);
    }

    /// `tcp_cong_control`: the algorithm sets cwnd itself, or PRR does in
    /// Recovery, or `cong_avoid` grows it; then the pacing rate follows.
    ///
    /// Each is handed what this ACK newly delivered (`tp->delivered −
    /// prior_delivered`: segments newly SACKed, and cumulatively ACKed ones
    /// not SACKed before), not what left the queue: a cumulative ACK that
    /// ends recovery may remove many segments SACKed long ago.
    /// `data_acked` is `FLAG_DATA_ACKED` (the cumulative ACK removed data),
    /// which `tcp_may_raise_cwnd` asks of growth; `newly_lost` counts the
    /// segments this ACK marked lost (`tp->lost` across it: `rs->losses`).
    pub(super) fn tcp_cong_control(
        &mut self,
        now: SimTime,
        rs: &SampleBuilder,
        prior: &Prior,
        data_acked: bool,
        newly_lost: u32,
        una_advanced: bool,
    ) {
        let acked_sacked = (self.rate.delivered - prior.delivered) as u32;
        self.cb.delivered = self.rate.delivered;
        self.cb.in_flight = self.board.in_flight();
        let rs = self.rate.generate(
            rs,
            now,
            acked_sacked,
            newly_lost,
            prior.in_flight,
            self.min_rtt,
        );
        self.cb.app_limited = self.rate.app_limited();
        if self.cc.cong_control(&mut self.cb, &rs) {
            // The algorithm set cwnd and the pacing rate itself (BBR). It may
            // also have declared the coming samples app-limited (ProbeRTT).
            if self.cb.app_limited && !self.rate.app_limited() {
                self.rate.mark_app_limited(self.board.in_flight());
            }
        } else if self.prr.is_some() {
            self.tcp_cwnd_reduction(acked_sacked, newly_lost, una_advanced);
        } else if self.tcp_frto_cwnd() {
            // 2.6.32's F-RTO, or its CWR after a spurious timeout, set cwnd.
        } else if data_acked {
            // `tcp_may_raise_cwnd` (tp->reordering never rises here, so
            // only FLAG_DATA_ACKED counts), then `tcp_cong_avoid`.
            self.cb.cwnd_limited = self.tcp_is_cwnd_limited();
            self.cc.cong_avoid(&mut self.cb, acked_sacked, now);
        }
        self.tcp_update_pacing_rate();
    }

    /// `tcp_update_pacing_rate`, for algorithms that do not set it themselves:
    /// twice cwnd per smoothed RTT in slow start, 1.2 times after.
    pub(super) fn tcp_update_pacing_rate(&mut self) {
        // GSO skbs need it whether or not anything paces: `tcp_tso_autosize`
        // sizes TSO packets from it.
        if !(self.pacing || self.sbuf.gso.is_some()) || self.cc.needs_pacing() {
            return;
        }
        let Some(srtt) = self.rtt.srtt() else { return };
        let ratio: u64 = if self.cb.cwnd < self.cb.ssthresh / 2 {
            200
        } else {
            120
        };
        let segs = self.cb.cwnd.max(self.board.packets_out()) as u64;
        let ns = srtt.0.max(1);
        // Bytes per second: mss · segs · ratio / 100 per srtt, in 64 bits
        // when it fits (cwnd under some six million segments): a 128-bit
        // division is a call. The result is the same either way.
        let per_ns = self.mss as u128 * segs as u128 * ratio as u128 * (1_000_000_000 / 100);
        self.cb.pacing_rate = match u64::try_from(per_ns) {
            Ok(n) => n / ns,
            Err(_) => (per_ns / ns as u128) as u64,
        };
    }

    /// `tcp_is_cwnd_limited()`: in slow start, growth counts while cwnd is less
    /// than twice the most packets recently in flight.
    fn tcp_is_cwnd_limited(&self) -> bool {
        if self.cb.in_slow_start() {
            return self.cb.cwnd < 2 * self.cwnd_usage.max_packets_out;
        }
        self.cwnd_usage.is_cwnd_limited
    }

    /// `tcp_cwnd_validate()`: remember per window whether cwnd was the limit.
    pub(super) fn tcp_cwnd_validate(&mut self, is_cwnd_limited: bool) {
        let packets_out = self.packets_out();
        let usage = &mut self.cwnd_usage;
        if self.snd_una >= usage.cwnd_usage_seq
            || is_cwnd_limited
            || (!usage.is_cwnd_limited && packets_out > usage.max_packets_out)
        {
            usage.is_cwnd_limited = is_cwnd_limited;
            usage.max_packets_out = packets_out;
            usage.cwnd_usage_seq = self.snd_nxt;
        }
    }

    /// Records a cwnd change (if there was one) with the ssthresh now in force.
    pub(super) fn trace_cwnd(&self, now: SimTime, old: u32, trace: &mut Trace) {
        if self.cb.cwnd != old {
            self.push_cwnd(now, old, trace);
        }
    }

    /// Records cwnd (changed from `old` or not) with the ssthresh now in force.
    fn push_cwnd(&self, now: SimTime, old: u32, trace: &mut Trace) {
        trace.push(
            now,
            TraceEvent::CwndChanged {
                side: self.side,
                old,
                new: self.cb.cwnd,
                ssthresh: self.cb.ssthresh,
            },
        );
    }

    /// Writes the algorithm's mode and pacing rate to the trace when they
    /// change (the pacing rate when it moves by more than 1/64, to keep a
    /// rate that is recomputed on every ACK from flooding the trace).
    pub(super) fn trace_cc(&mut self, now: SimTime, trace: &mut Trace) {
        let mode = self.cc.mode();
        if mode != self.traced.mode {
            self.traced.mode = mode;
            if let Some(mode) = mode {
                trace.push(
                    now,
                    TraceEvent::CcMode {
                        side: self.side,
                        mode,
                    },
                );
            }
        }
        let rate = self.pacing_rate();
        if rate.abs_diff(self.traced.pacing) > self.traced.pacing / 64 {
            self.traced.pacing = rate;
            trace.push(
                now,
                TraceEvent::PacingRate {
                    side: self.side,
                    bytes_per_sec: rate,
                },
            );
        }
    }
}
