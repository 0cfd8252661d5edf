//! F-RTO: telling a spurious retransmission timeout from a real one.
//!
//! A timeout is spurious when nothing was lost and the ACKs were only late (a
//! delay spike longer than the RTO). After the timeout the sender resends the
//! first segment as usual; when the ACK of it comes, F-RTO sends *new* data
//! instead of the next retransmissions, and the ACK after that decides:
//!
//! ```text
//!   RTO ──► resend snd_una ──ACK advances──► new data (RFC 5682 step 2b)
//!                                  │
//!            next ACK (S)ACKs data never resent, sent before the timeout?
//!               yes: spurious ──► 3.10+: undo (cwnd and ssthresh restored)
//!                                 2.6.32: rate-halve to ssthresh (no undo)
//!               no (SACK or duplicate ACK): the loss was real ──► go-back-N
//! ```
//!
//! Two implementations, as [`Frto`] names them: RFC 5682's
//! (`tcp_enter_loss`, `tcp_process_loss`, 3.10 and later, `tcp_frto = 2`),
//! and the RFC 4138 one of 2.6.32 (`tcp_enter_frto`, `tcp_process_frto`) with
//! its default `tcp_frto_response = 0`: on a spurious timeout it keeps the
//! halved ssthresh and enters CWR, where `tcp_cwnd_down` takes one segment
//! off cwnd every second ACK.
//!
//! This module decides; the socket acts (`socket/congestion.rs`).

use super::ack_flags::AckFlags;
use crate::config::Frto;

/// What RFC 5682 F-RTO makes of an ACK in the Loss state (`tcp_process_loss`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossAck {
    /// Step 3b: never-retransmitted data was (S)ACKed, so not everything was
    /// lost: undo the timeout (`tcp_try_undo_loss(sk, true)`).
    Spurious,
    /// Step 2b: high_seq = snd_nxt; send new data (REXMIT_NEW) if `send`,
    /// else F-RTO ends.
    NewData { send: bool },
    /// Conventional loss recovery goes on.
    Proceed,
}

/// What 2.6.32's RFC 4138 F-RTO makes of an ACK (`tcp_process_frto`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rfc4138Ack {
    /// Waiting for the first ACK that advances: send nothing new (cwnd =
    /// min(cwnd, in flight)).
    Hold,
    /// Step 2: two new segments (cwnd = in flight + 2).
    SendTwo,
    /// The loss was real: conventional recovery (`tcp_enter_frto_loss`),
    /// with cwnd = in flight + `allowed`.
    Real { allowed: u32 },
    /// The timeout was spurious: the response.
    Spurious,
    /// Neither progress nor a duplicate (a window update): nothing.
    Ignore,
}

/// 2.6.32's response to a spurious timeout: CWR with rate halving
/// (`tcp_enter_cwr`, `tcp_cwnd_down`) until snd_una passes `high_seq`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateHalving {
    pub high_seq: u64,
    /// `snd_cwnd_cnt`: ACKs counted towards the next decrement.
    cnt: u32,
}

impl RateHalving {
    /// `tcp_cwnd_down`: on an ACK that made progress, every second one takes
    /// one segment off cwnd while cwnd is above `floor` (`tcp_cwnd_min`); and
    /// cwnd never exceeds what is in flight plus one.
    pub fn cwnd_down(&mut self, cwnd: u32, floor: u32, in_flight: u32, progress: bool) -> u32 {
        if !progress {
            return cwnd;
        }
        let decr = self.cnt + 1;
        self.cnt = decr & 1;
        let mut cwnd = cwnd;
        if decr >> 1 > 0 && cwnd > floor {
            cwnd -= decr >> 1;
        }
        cwnd.min(in_flight + 1)
    }
}

/// One sender's F-RTO state.
#[derive(Clone, Debug)]
pub struct FrtoState {
    variant: Frto,
    /// `tp->frto` (RFC 5682), or `frto_counter` (RFC 4138: 1 until the first
    /// ACK that advances, 2 after the new data): 0 when no timeout is judged.
    counter: u8,
    /// RFC 4138 `frto_highmark`: what was sent before the timeout.
    highmark: u64,
    /// `REXMIT_NEW`: on this ACK new data goes before any retransmission.
    pub rexmit_new: bool,
    /// 2.6.32's CWR after a spurious timeout.
    pub cwr: Option<RateHalving>,
    /// 2.6.32's `frto_cwnd`: `tcp_process_frto` set cwnd on this ACK, so
    /// congestion avoidance leaves it.
    pub cwnd_held: bool,
    /// This ACK made progress as `tcp_cwnd_down` counts it.
    pub progress: bool,
}

impl FrtoState {
    pub fn new(variant: Frto) -> Self {
        FrtoState {
            variant,
            counter: 0,
            highmark: 0,
            rexmit_new: false,
            cwr: None,
            cwnd_held: false,
            progress: false,
        }
    }

    /// A new ACK: what the last one asked of the sender is done.
    pub fn begin_ack(&mut self) {
        self.rexmit_new = false;
        self.cwnd_held = false;
    }

    pub fn variant(&self) -> Frto {
        self.variant
    }

    /// A timeout is being judged.
    pub fn active(&self) -> bool {
        self.counter > 0
    }

    /// F-RTO gives up on this timeout (`tp->frto = 0`).
    pub fn stop(&mut self) {
        self.counter = 0;
        self.rexmit_new = false;
    }

    /// RFC 4138 is judging a timeout: the sender is not in Loss yet as 2.6.32
    /// sees it (no timestamp undo, no loss marks of its own).
    pub fn rfc4138_trial(&self) -> bool {
        self.variant == Frto::Rfc4138 && self.active()
    }

    /// Data sent before the timeout ends here: the mark the "never
    /// retransmitted" flags are measured against (`high_seq` for RFC 5682,
    /// `frto_highmark` for RFC 4138); `None` outside a trial.
    pub fn mark(&self, high_seq: u64) -> Option<u64> {
        match self.variant {
            _ if !self.active() => None,
            Frto::Rfc4138 => Some(self.highmark),
            _ => Some(high_seq),
        }
    }

    /// `tcp_enter_loss` (RFC 5682, sec. 3.1 step 1): judge this timeout if it
    /// starts a new episode (`new_recovery`: the sender was not already in
    /// Recovery or Loss) or repeats one (`icsk_retransmits` before it > 0).
    pub fn on_timeout_rfc5682(&mut self, new_recovery: bool, repeated: bool) {
        self.rexmit_new = false;
        self.cwr = None;
        self.counter = (self.variant == Frto::Rfc5682 && (new_recovery || repeated)) as u8;
    }

    /// `tcp_use_frto` and `tcp_enter_frto` (2.6.32). With SACK every timeout
    /// is judged; without, only if nothing but the head was ever resent
    /// (`head_only_resent`). `recovering` (Recovery or Loss, or a timeout
    /// still being judged) with data sent before it outstanding keeps the
    /// older `high_seq` as the mark (RFC 4138 Appendix B).
    pub fn on_timeout_rfc4138(
        &mut self,
        sack: bool,
        head_only_resent: bool,
        recovering: bool,
        high_seq: u64,
        snd_una: u64,
        snd_nxt: u64,
    ) {
        self.rexmit_new = false;
        self.cwr = None;
        if self.variant != Frto::Rfc4138 || !(sack || head_only_resent) {
            self.counter = 0;
            return;
        }
        self.highmark = if sack && (self.active() || recovering) && high_seq > snd_una {
            high_seq
        } else {
            snd_nxt
        };
        self.counter = 1;
    }

    /// RFC 5682 (`tcp_process_loss`), after the timestamp undo was tried.
    /// `recovered`: snd_una reached high_seq; `new_data_sent`: snd_nxt is
    /// past high_seq (step 2b already sent new data); `can_send_new`: data is
    /// waiting and the peer's window has room past snd_nxt.
    pub fn on_loss_ack(
        &mut self,
        f: &AckFlags,
        recovered: bool,
        new_data_sent: bool,
        can_send_new: bool,
    ) -> LossAck {
        if self.variant != Frto::Rfc5682 || !self.active() {
            return LossAck::Proceed;
        }
        if f.orig_sack_acked {
            self.stop();
            return LossAck::Spurious;
        }
        if new_data_sent {
            if f.data_sacked || f.pure_dupack() {
                // Step 3a: the loss was real.
                self.stop();
            }
        } else if f.una_advanced && !recovered {
            if can_send_new {
                self.rexmit_new = true;
                return LossAck::NewData { send: true };
            }
            self.stop();
            return LossAck::NewData { send: false };
        }
        LossAck::Proceed
    }

    /// RFC 4138 with 2.6.32's SACK enhancement (`tcp_process_frto`), on an
    /// ACK while a timeout is judged; `sack` when the peer SACKs;
    /// `can_send_new`: new data could go once cwnd allows (`tcp_may_send_now`).
    pub fn on_rfc4138_ack(
        &mut self,
        f: &AckFlags,
        snd_una: u64,
        in_flight: u32,
        sack: bool,
        can_send_new: bool,
    ) -> Rfc4138Ack {
        if self.variant != Frto::Rfc4138 || !self.active() {
            return Rfc4138Ack::Ignore;
        }
        let first = self.counter == 1;
        let verdict = if snd_una >= self.highmark {
            // Everything sent before the timeout is ACKed.
            Rfc4138Ack::Real {
                allowed: if first { 2 } else { 3 },
            }
        } else if !sack {
            // The basic algorithm: any duplicate means loss.
            if !f.forward_progress() && f.not_dup {
                Rfc4138Ack::Ignore
            } else if !f.una_advanced {
                Rfc4138Ack::Real {
                    allowed: if first { 0 } else { 3 },
                }
            } else if first {
                Rfc4138Ack::SendTwo
            } else {
                Rfc4138Ack::Spurious
            }
        } else if !f.una_advanced && first {
            // SACK variant: wait for the first cumulative ACK.
            if in_flight == 0 {
                Rfc4138Ack::Real { allowed: 2 }
            } else {
                Rfc4138Ack::Hold
            }
        } else if !first && (!f.forward_progress() || (f.data_sacked && !f.only_orig_sacked)) {
            if !f.forward_progress() && f.not_dup {
                Rfc4138Ack::Ignore
            } else {
                Rfc4138Ack::Real { allowed: 3 }
            }
        } else if first {
            Rfc4138Ack::SendTwo
        } else {
            Rfc4138Ack::Spurious
        };
        let verdict = match verdict {
            // Nothing new can go: conventional recovery after all.
            Rfc4138Ack::SendTwo if !can_send_new => Rfc4138Ack::Real { allowed: 2 },
            v => v,
        };
        self.cwnd_held = verdict != Rfc4138Ack::Spurious;
        match verdict {
            Rfc4138Ack::SendTwo => {
                self.counter = 2;
                self.rexmit_new = true;
            }
            Rfc4138Ack::Real { .. } => self.stop(),
            Rfc4138Ack::Spurious => self.stop(),
            Rfc4138Ack::Hold | Rfc4138Ack::Ignore => {}
        }
        verdict
    }

    /// The spurious timeout's response (`tcp_ratehalving_spur_to_response`):
    /// CWR until snd_una passes `high_seq` (snd_nxt now).
    pub fn enter_cwr(&mut self, high_seq: u64) {
        self.cwr = Some(RateHalving { high_seq, cnt: 0 });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn advancing() -> AckFlags {
        AckFlags {
            una_advanced: true,
            not_dup: true,
            ..AckFlags::default()
        }
    }

    fn judging() -> FrtoState {
        let mut f = FrtoState::new(Frto::Rfc5682);
        f.on_timeout_rfc5682(true, false);
        f
    }

    #[test]
    fn rfc5682_judges_a_first_timeout_and_a_repeated_one_not_one_in_recovery() {
        assert!(judging().active());
        let mut f = FrtoState::new(Frto::Rfc5682);
        f.on_timeout_rfc5682(false, false);
        assert!(!f.active());
        f.on_timeout_rfc5682(false, true);
        assert!(f.active());
        let mut off = FrtoState::new(Frto::Off);
        off.on_timeout_rfc5682(true, false);
        assert!(!off.active());
    }

    #[test]
    fn rfc5682_sends_new_data_on_the_first_ack_then_an_original_acked_proves_it_spurious() {
        let mut f = judging();
        assert_eq!(
            f.on_loss_ack(&advancing(), false, false, true),
            LossAck::NewData { send: true }
        );
        assert!(f.rexmit_new);
        let orig = AckFlags {
            orig_sack_acked: true,
            ..advancing()
        };
        assert_eq!(f.on_loss_ack(&orig, false, true, true), LossAck::Spurious);
        assert!(!f.active());
    }

    #[test]
    fn rfc5682_a_sack_or_dupack_after_the_new_data_means_the_loss_was_real() {
        let mut f = judging();
        f.on_loss_ack(&advancing(), false, false, true);
        let sack = AckFlags {
            data_sacked: true,
            ..AckFlags::default()
        };
        assert_eq!(f.on_loss_ack(&sack, false, true, true), LossAck::Proceed);
        assert!(!f.active());
        // With nothing new to send, F-RTO ends at step 2b.
        let mut f = judging();
        assert_eq!(
            f.on_loss_ack(&advancing(), false, false, false),
            LossAck::NewData { send: false }
        );
        assert!(!f.active());
    }

    fn rfc4138() -> FrtoState {
        let mut f = FrtoState::new(Frto::Rfc4138);
        f.on_timeout_rfc4138(true, false, false, 0, 1, 14_481);
        f
    }

    #[test]
    fn rfc4138_waits_for_a_cumulative_ack_sends_two_then_the_next_ack_decides() {
        let mut f = rfc4138();
        let sack = AckFlags {
            data_sacked: true,
            ..AckFlags::default()
        };
        assert_eq!(f.on_rfc4138_ack(&sack, 1, 1, true, true), Rfc4138Ack::Hold);
        assert_eq!(
            f.on_rfc4138_ack(&advancing(), 1449, 0, true, true),
            Rfc4138Ack::SendTwo
        );
        assert_eq!(
            f.on_rfc4138_ack(&advancing(), 2897, 2, true, true),
            Rfc4138Ack::Spurious
        );
        // A SACK of the new data instead: the loss was real.
        let mut f = rfc4138();
        f.on_rfc4138_ack(&advancing(), 1449, 0, true, true);
        assert_eq!(
            f.on_rfc4138_ack(&sack, 1449, 2, true, true),
            Rfc4138Ack::Real { allowed: 3 }
        );
        // Nothing new to send at the first ACK: conventional recovery.
        let mut f = rfc4138();
        assert_eq!(
            f.on_rfc4138_ack(&advancing(), 1449, 0, true, false),
            Rfc4138Ack::Real { allowed: 2 }
        );
    }

    #[test]
    fn rate_halving_takes_one_segment_every_second_ack_down_to_the_floor() {
        let mut r = RateHalving {
            high_seq: 0,
            cnt: 0,
        };
        let mut cwnd = 10;
        let mut seen = vec![];
        for _ in 0..6 {
            cwnd = r.cwnd_down(cwnd, 7, 20, true);
            seen.push(cwnd);
        }
        assert_eq!(seen, [10, 9, 9, 8, 8, 7]);
        assert_eq!(r.cwnd_down(7, 7, 20, true), 7);
        assert_eq!(r.cwnd_down(7, 7, 20, true), 7);
        // Never more than in flight + 1.
        assert_eq!(r.cwnd_down(7, 2, 3, false), 7);
        assert_eq!(r.cwnd_down(7, 2, 3, true), 4);
    }
}
