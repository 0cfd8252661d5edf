//! The tail-loss probe on the socket: arming the probe timer in the RTO's
//! place, sending the probe, and what its ACKs do (tcp_output.c
//! `tcp_schedule_loss_probe`, `tcp_send_loss_probe`; tcp_input.c
//! `tcp_set_xmit_timer`, `tcp_process_tlp_ack`). The rules themselves are
//! in `tcp::tlp`.
//!
//! ```text
//!   tcp_write_xmit sent data ─────────────► tcp_schedule_loss_probe(advancing_rto = false)
//!   tcp_ack: new data ACKed ──────────────► tcp_set_xmit_timer: the PTO, else the RTO
//!   PTO fires ──► tcp_send_loss_probe ────► the probe at the next poll_transmit,
//!                                           then a full RTO from now
//!   tcp_ack ──────────────────────────────► tcp_process_tlp_ack
//! ```
//!
//! Where `tcp_ack` does these differs by kernel, and so does the cwnd after
//! the ACK: 6.x processes the probe's ACK before loss detection and re-arms
//! the timer after it; 4.14 to 5.x re-arm before loss detection; 3.10 reduces
//! cwnd after congestion avoidance has grown it.
//!
//! Simplifications: a retransmitted probe always leaves (Linux skips it while
//! the original is still in the sending host's queue,
//! `skb_still_in_host_queue`), and the timer is not pushed back by the
//! pacing delay (`tcp_reset_xmit_timer`'s `pace_delay`).

use super::timers::Timer;
use super::{Socket, State};
use crate::cc::{CaState, Kind, TCP_INFINITE_SSTHRESH};
use crate::config::Tlp;
use crate::segment::Segment;
use crate::tcp::ack_flags::AckFlags;
use crate::tcp::tlp::{OnTimeout, Probe, ProbeChoice, TlpAck, probe_timeout};
use crate::time::{JIFFY_NS, SimDuration, SimTime};
use crate::trace::{Trace, TraceEvent};

impl Socket {
    /// `tcp_schedule_loss_probe`: arms the probe timer in the RTO's place, if
    /// this kernel probes now. `advancing_rto`: an ACK just advanced, so the
    /// RTO would run a full `icsk_rto` from now; otherwise from the oldest
    /// outstanding segment (`tcp_rto_delta_us`). Returns whether it armed it.
    pub(super) fn tcp_schedule_loss_probe(&mut self, now: SimTime, advancing_rto: bool) -> bool {
        let variant = self.tlp.variant();
        if variant == Tlp::Off
            || self.state != State::Established
            || self.board.is_empty()
            || !self.sack_ok
            || self.cb.ca_state != CaState::Open
        {
            return false;
        }
        let Some(pto) = probe_timeout(variant, self.rtt.srtt(), self.packets_out()) else {
            return false;
        };
        let at = if variant == Tlp::V3_10 {
            // 3.10 probes only in place of a pending RTO, and only when cwnd
            // or the application limits sending; the RTO's deadline caps it.
            let Some(rto_at) = self.timers.get(Timer::Rto) else {
                return false;
            };
            if self.cb.cwnd > self.board.in_flight() && self.snd_nxt < self.write_end {
                return false;
            }
            let at = now + pto;
            if at > rto_at && rto_at > now {
                rto_at
            } else {
                at
            }
        } else {
            // Never later than the RTO. (Linux rounds this cap up to a tick
            // too; the model's RTO is not in ticks, so neither is the cap.)
            let rto_delta = if advancing_rto {
                Some(self.rtt.rto())
            } else {
                self.tcp_rto_delta(now)
            };
            now + rto_delta.map_or(pto, |d| pto.min(d))
        };
        self.timers.set(Timer::LossProbe, at);
        true
    }

    /// `tcp_rto_delta_us`: how far in the future the RTO of the oldest
    /// outstanding segment lies, if it does.
    fn tcp_rto_delta(&self, now: SimTime) -> Option<SimDuration> {
        let at = self.board.front()?.sent_at + self.rtt.rto();
        (at > now).then(|| at.since(now))
    }

    /// `tcp_rearm_rto` as 4.14 and later have it: with the probe pending, the
    /// RTO goes back to where the oldest segment's would fire (at least a
    /// tick from now); otherwise a full RTO from now. Nothing outstanding:
    /// no timer.
    pub(super) fn tcp_rearm_rto_linux(&mut self, now: SimTime) {
        if self.board.is_empty() {
            self.tcp_rearm_rto(now, false);
        } else if self.timers.get(Timer::LossProbe).is_some() {
            self.tcp_rearm_rto_from_head(now);
        } else {
            self.tcp_reset_xmit_timer(now);
        }
    }

    /// The RTO where the oldest outstanding segment's would fire, at least a
    /// tick from now (`tcp_rearm_rto` with the probe pending).
    fn tcp_rearm_rto_from_head(&mut self, now: SimTime) {
        let delta = self.tcp_rto_delta(now).unwrap_or(SimDuration(JIFFY_NS));
        self.timers.set(Timer::Rto, now + delta);
    }

    /// `tcp_set_xmit_timer`: the probe timer if it may run, else the RTO.
    fn tcp_set_xmit_timer(&mut self, now: SimTime) {
        if !self.tcp_schedule_loss_probe(now, true) {
            self.tcp_rearm_rto_linux(now);
        }
    }

    /// The probe timer fired (`tcp_send_loss_probe`): choose the probe, which
    /// the next `poll_transmit` sends, or re-arm the RTO.
    pub(super) fn tcp_send_loss_probe(&mut self, now: SimTime, trace: &mut Trace) {
        self.timers.stop(Timer::LossProbe);
        if self.state != State::Established || self.board.is_empty() {
            return;
        }
        if self.cb.ca_state != CaState::Open {
            // Recovery began from the reorder timer, which in Linux holds the
            // probe's slot: no probe was pending there, only the RTO.
            self.tcp_rearm_rto_from_head(now);
            return;
        }
        let wnd_end = self.snd_una + self.snd_wnd;
        let unsent = self.snd_nxt < self.write_end;
        let fits_window = self.tcp_snd_wnd_test();
        let choice = ProbeChoice {
            unsent,
            fits_window,
            // `tcp_write_xmit` checks pacing (and arms its timer) only for
            // a segment it would send.
            paced: unsent && fits_window && self.tcp_pacing_check(now),
            last: self
                .board
                .back()
                .map(|s| (s.seq, s.end))
                .filter(|&(seq, _)| seq < wnd_end || seq == self.snd_una),
        };
        match self.tlp.on_timeout(choice) {
            OnTimeout::Send(probe) => {
                let seq = match probe {
                    Probe::NewData => self.snd_nxt,
                    Probe::Retransmit { seq, .. } => seq,
                };
                self.tlp.set_pending(probe);
                trace.push(
                    now,
                    TraceEvent::LossProbe {
                        side: self.side,
                        seq,
                    },
                );
            }
            OnTimeout::RearmFromHead => self.tcp_rearm_rto_from_head(now),
            OnTimeout::RearmFull => self.tcp_reset_xmit_timer(now),
        }
    }

    /// Sends the probe the timer chose, if one is waiting: new data whatever
    /// cwnd says, or the last segment again (not marked lost, not counted in
    /// `retrans_out`: `__tcp_retransmit_skb`). Then the episode opens and a
    /// full RTO runs from now.
    pub(super) fn tcp_send_pending_probe(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        let probe = self.tlp.take_pending()?;
        let out = match probe {
            Probe::NewData => {
                let len = self.next_len();
                (len > 0).then(|| self.tcp_send_new_segment(now, len))
            }
            Probe::Retransmit { .. } => {
                let last = *self.board.back()?;
                let len = (last.end - last.seq) as u32;
                let stamp = self.tcp_skb_sent(now, len);
                self.board.resent_in_place(last.end, now, stamp);
                self.total_retrans += 1;
                Some((self.segment(last.seq, len), last.flight, true))
            }
        };
        if out.is_some() {
            self.tlp.on_probe_sent(probe, self.snd_nxt);
        }
        self.tcp_reset_xmit_timer(now);
        out
    }

    /// `tcp_process_tlp_ack`: an ACK during a probe episode. (The caller
    /// records the cwnd change with the ACK's.)
    pub(super) fn tcp_process_tlp_ack(&mut self, f: &AckFlags) {
        if self.tlp.in_episode() && self.tlp.on_ack(f, self.mss) == TlpAck::Repaired {
            self.tcp_tlp_cwnd_reduction();
        }
    }

    /// The probe repaired a loss: one reduction, done at once
    /// (`tcp_init_cwnd_reduction`, CWR, `tcp_end_cwnd_reduction`,
    /// `tcp_try_keep_open`). ssthresh comes from the algorithm; cwnd drops to
    /// it, except for an algorithm that sets cwnd itself (BBR); the state is
    /// Open again. (Linux's Disorder, when SACKed or retransmitted segments
    /// remain, is Open here.)
    fn tcp_tlp_cwnd_reduction(&mut self) {
        self.high_seq = self.snd_nxt;
        self.cb.cwnd_cnt = 0;
        self.cb.ssthresh = self.cc.ssthresh(&self.cb);
        let sets_own_cwnd = self.cc.kind() == Kind::Bbr;
        if !sets_own_cwnd && self.cb.ssthresh < TCP_INFINITE_SSTHRESH {
            self.cb.cwnd = self.cb.ssthresh;
        }
    }

    /// `tcp_ack` before loss detection: 4.14+ look at the probe's ACK here,
    /// and 4.14 to 5.x re-arm the timer here (`tcp_set_xmit_timer`).
    pub(super) fn tlp_before_loss_detection(&mut self, now: SimTime, f: &AckFlags) {
        let variant = self.tlp.variant();
        if matches!(variant, Tlp::TwoJiffies | Tlp::TwoMs) {
            self.tcp_process_tlp_ack(f);
        }
        if variant == Tlp::TwoJiffies && f.una_advanced {
            self.tcp_set_xmit_timer(now);
        }
    }

    /// `tcp_ack` after loss detection. 6.x re-arm the timer here unless RACK
    /// armed its reorder timer on this ACK, which takes Linux's one slot; a
    /// pending probe then gives way to the RTO.
    pub(super) fn tlp_after_loss_detection(
        &mut self,
        now: SimTime,
        una_advanced: bool,
        reorder_armed: bool,
    ) {
        let variant = self.tlp.variant();
        if !matches!(variant, Tlp::TwoJiffies | Tlp::TwoMs) {
            return;
        }
        if reorder_armed {
            if self.timers.get(Timer::LossProbe).is_some() {
                self.tcp_rearm_rto_linux(now);
            } else if una_advanced && variant == Tlp::TwoMs {
                self.tcp_reset_xmit_timer(now);
            }
        } else if una_advanced && variant == Tlp::TwoMs {
            self.tcp_set_xmit_timer(now);
        }
    }

    /// `tcp_ack` after congestion avoidance: where 3.10 looks at the probe's ACK.
    pub(super) fn tlp_after_cong_control(&mut self, f: &AckFlags) {
        if self.tlp.variant() == Tlp::V3_10 {
            self.tcp_process_tlp_ack(f);
        }
    }

    /// The timers at the end of `tcp_ack`: without TLP, the RTO as RFC 6298
    /// has it (`tcp_rearm_rto`). 3.10 re-arms the RTO when data was ACKed
    /// and then tries the probe in its place; later kernels did it above.
    pub(super) fn tcp_rearm_xmit_timer(&mut self, now: SimTime, una_advanced: bool) {
        match self.tlp.variant() {
            Tlp::Off => self.tcp_rearm_rto(now, una_advanced),
            Tlp::V3_10 => {
                if una_advanced || self.board.is_empty() {
                    self.tcp_rearm_rto_linux(now);
                }
                self.tcp_schedule_loss_probe(now, false);
            }
            Tlp::TwoJiffies | Tlp::TwoMs => {
                if self.board.is_empty() {
                    self.tcp_rearm_rto(now, false);
                }
            }
        }
    }
}
