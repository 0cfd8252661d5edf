//! F-RTO on the socket: judging each retransmission timeout, and acting on
//! the verdict (tcp_input.c `tcp_enter_loss`, `tcp_process_loss`,
//! `tcp_try_undo_loss`; 2.6.32's `tcp_use_frto`, `tcp_enter_frto`,
//! `tcp_process_frto`, `tcp_enter_frto_loss`, `tcp_enter_cwr`,
//! `tcp_cwnd_down`). The rules are in `tcp::frto`.
//!
//! The model enters the Loss state on every timeout, as 3.10 and later do.
//! 2.6.32 instead left its losses unmarked and cwnd uncut while F-RTO judged
//! the timeout (the Disorder state), and marked them only once the loss
//! proved real. The segments on the wire are the same (the head again, then
//! two new segments, then go-back-N or not); where cwnd's value differs, the
//! model sets 2.6.32's: in flight + 2 for the new segments, in flight + 1
//! when the timeout proves spurious.

use super::{Socket, State};
use crate::cc::{CaState, Kind};
use crate::config::Frto;
use crate::tcp::ack_flags::AckFlags;
use crate::tcp::frto::{LossAck, Rfc4138Ack};
use crate::time::SimTime;
use crate::trace::Trace;

/// What F-RTO needs from the moment before a timeout changes anything.
#[derive(Clone, Copy, Debug)]
pub(super) struct BeforeTimeout {
    state: CaState,
    high_seq: u64,
    /// Only the head was ever retransmitted (2.6.32's `tcp_use_frto` test
    /// for peers without SACK).
    head_only_resent: bool,
}

impl Socket {
    /// Notes what F-RTO needs before the timeout marks everything lost.
    pub(super) fn frto_before_timeout(&self) -> BeforeTimeout {
        let second = self.board.iter().nth(1);
        BeforeTimeout {
            state: self.cb.ca_state,
            high_seq: self.high_seq,
            head_only_resent: self.board.retrans_out() <= 1
                && second.is_none_or(|s| !s.ever_retrans),
        }
    }

    /// After `tcp_enter_loss`: does F-RTO judge this timeout?
    pub(super) fn tcp_frto_on_timeout(&mut self, before: BeforeTimeout) {
        match self.frto.variant() {
            // `tp->frto`: a new episode, or the timeout repeats
            // (`icsk_retransmits` already counted this one here).
            Frto::Rfc5682 | Frto::Off => self
                .frto
                .on_timeout_rfc5682(before.state == CaState::Open, self.retransmits > 1),
            Frto::Rfc4138 => self.frto.on_timeout_rfc4138(
                self.sack_ok,
                before.head_only_resent,
                before.state != CaState::Open,
                before.high_seq,
                self.snd_una,
                self.snd_nxt,
            ),
        }
    }

    /// What the "sent before the timeout" flags are measured against, while
    /// F-RTO judges a timeout in the Loss state.
    pub(super) fn frto_mark(&self) -> Option<u64> {
        if self.cb.ca_state != CaState::Loss {
            return None;
        }
        self.frto.mark(self.high_seq)
    }

    /// F-RTO's part of `tcp_ack`, after the timestamp undo was tried.
    pub(super) fn tcp_frto_ack(&mut self, now: SimTime, f: &AckFlags, trace: &mut Trace) {
        // `tcp_cwnd_down` counts ACKs with progress, a D-SACK, or (without
        // SACK) duplicates.
        self.frto.progress =
            f.forward_progress() || f.dsack.is_some() || (!self.sack_ok && !f.not_dup);
        if self.cb.ca_state != CaState::Loss || !self.frto.active() {
            return;
        }
        match self.frto.variant() {
            Frto::Rfc5682 => self.tcp_process_loss(now, f, trace),
            Frto::Rfc4138 => self.tcp_process_frto(f),
            Frto::Off => {}
        }
    }

    /// New data is waiting and the peer's window has room past snd_nxt.
    fn can_send_new(&self) -> bool {
        self.write_end > self.snd_nxt && self.snd_una + self.snd_wnd > self.snd_nxt
    }

    /// `tcp_process_loss`'s F-RTO steps (RFC 5682 sec. 3.1).
    fn tcp_process_loss(&mut self, now: SimTime, f: &AckFlags, trace: &mut Trace) {
        let recovered = self.snd_una >= self.high_seq;
        let new_data_sent = self.snd_nxt > self.high_seq;
        let can_send_new = self.can_send_new();
        match self
            .frto
            .on_loss_ack(f, recovered, new_data_sent, can_send_new)
        {
            // `tcp_try_undo_loss(sk, true)`.
            LossAck::Spurious => {
                self.retransmits = 0;
                self.tcp_undo_cwnd_reduction(now, trace);
            }
            LossAck::NewData { .. } => self.high_seq = self.snd_nxt,
            LossAck::Proceed => {}
        }
    }

    /// 2.6.32's `tcp_process_frto` (RFC 4138 with SACK, `tcp_frto_response` 0).
    fn tcp_process_frto(&mut self, f: &AckFlags) {
        let in_flight = self.board.in_flight();
        let can_send_new = self.can_send_new();
        match self
            .frto
            .on_rfc4138_ack(f, self.snd_una, in_flight, self.sack_ok, can_send_new)
        {
            Rfc4138Ack::Hold => self.cb.cwnd = self.cb.cwnd.min(in_flight).max(1),
            Rfc4138Ack::SendTwo => self.cb.cwnd = in_flight + 2,
            Rfc4138Ack::Real { allowed } => self.tcp_enter_frto_loss(allowed),
            Rfc4138Ack::Spurious => self.tcp_ratehalving_spur_to_response(),
            Rfc4138Ack::Ignore => {}
        }
    }

    /// `tcp_enter_frto_loss`: the loss was real. Conventional recovery, with
    /// cwnd = in flight + `allowed`. After the two new segments (`allowed`
    /// 3) they and the head's retransmission count as lost too.
    fn tcp_enter_frto_loss(&mut self, allowed: u32) {
        if allowed == 3 {
            self.board.mark_all_lost();
        }
        self.cb.cwnd = self.board.in_flight() + allowed;
        self.cb.cwnd_cnt = 0;
        self.high_seq = self.snd_nxt;
    }

    /// `tcp_ratehalving_spur_to_response` → `tcp_enter_cwr(sk, 0)`: the
    /// timeout was spurious. Nothing is lost after all; ssthresh stays as the
    /// timeout set it and nothing will undo it; cwnd is cut to what is in
    /// flight + 1 and then rate-halved until what is in flight now is ACKed.
    fn tcp_ratehalving_spur_to_response(&mut self) {
        self.board.unmark_lost();
        self.tcp_set_ca_state(CaState::Open);
        self.undo = None;
        self.cb.cwnd = self.board.in_flight() + 1;
        self.cb.cwnd_cnt = 0;
        self.high_seq = self.snd_nxt;
        self.frto.enter_cwr(self.snd_nxt);
    }

    /// cwnd on an ACK while 2.6.32's F-RTO holds it: set by
    /// `tcp_process_frto` itself, or rate-halved in CWR (`tcp_cwnd_down`,
    /// floored at `tcp_cwnd_min`: ssthresh / 2 for Reno, ssthresh for CUBIC,
    /// which has no `min_cwnd`), until snd_una passes the mark
    /// (`tcp_complete_cwr`, which changes nothing with no undo marker).
    /// Returns whether it did, so that congestion avoidance does not.
    pub(super) fn tcp_frto_cwnd(&mut self) -> bool {
        if self.frto.cwnd_held {
            return true;
        }
        let Some(cwr) = &mut self.frto.cwr else {
            return false;
        };
        if self.cb.ca_state != CaState::Open || self.state != State::Established {
            // Recovery or a timeout took over.
            self.frto.cwr = None;
            return false;
        }
        if self.snd_una > cwr.high_seq {
            self.frto.cwr = None;
            return true;
        }
        let floor = match self.cc.kind() {
            Kind::Reno => self.cb.ssthresh / 2,
            _ => self.cb.ssthresh,
        };
        let in_flight = self.board.in_flight();
        self.cb.cwnd = cwr.cwnd_down(self.cb.cwnd, floor, in_flight, self.frto.progress);
        true
    }
}
