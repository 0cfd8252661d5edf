//! A RST arrives (tcp_input.c). Only a host that has no socket for the
//! connection sends one here (`tcp::no_socket`); what the receiver does with
//! it depends on its state and on the RST's sequence number (RFC 5961 3.2,
//! which Linux follows since 3.6):
//!
//! ```text
//!   Established, SynReceived:  seq == rcv_nxt         ─► tcp_reset: the connection is gone
//!                              seq within the window  ─► a challenge ACK (the sender may be blind)
//!                              seq outside it         ─► dropped
//!   SynSent:                   ACK of our SYN         ─► tcp_reset (connect() fails: ECONNREFUSED)
//!                              anything else          ─► dropped
//!   Listen:                                           ─► dropped
//! ```
//!
//! `tcp_reset` sets the error the application's next call returns
//! (ECONNRESET once established) and closes the socket at once
//! (`tcp_done`): no FIN, no TIME-WAIT, nothing more is sent.

use super::{Socket, State};
use crate::segment::Segment;
use crate::tcp::GiveUp;
use crate::time::SimTime;
use crate::trace::{Trace, TraceEvent};

impl Socket {
    /// A segment with RST set reached this socket.
    pub(super) fn tcp_rcv_rst(&mut self, now: SimTime, seg: &Segment, trace: &mut Trace) {
        if self.gave_up.is_some() {
            // `tcp_reset` on a closed socket: nothing to do.
            return;
        }
        match self.state {
            State::Listen => {}
            // `tcp_rcv_synsent_state_process`: a RST counts only with an
            // ACK of exactly what we sent (`snd_nxt`, the SYN).
            State::SynSent => {
                if seg.flags.ack && seg.ack == self.snd_nxt {
                    self.tcp_reset(now, trace);
                }
            }
            // `tcp_validate_incoming` (`tcp_check_req`'s window check for a
            // request): step 1, `tcp_sequence`; step 2, the RST itself.
            State::SynReceived | State::Established => {
                if seg.seq == self.rcv_nxt {
                    self.tcp_reset(now, trace);
                } else if self.rst_in_window(seg.seq) && !self.tcp_oow_rate_limited(now) {
                    // `tcp_send_challenge_ack`: a RST in the window but not
                    // at rcv_nxt may be forged; a genuine sender answers
                    // the ACK with an exact RST.
                    self.ack_now = true;
                }
            }
        }
    }

    /// `tcp_sequence` for a RST (which occupies no sequence space): not
    /// below what we last acknowledged, not past the window we offered.
    fn rst_in_window(&self, seq: u64) -> bool {
        seq >= self.rcv_wup && seq <= self.rcv_nxt + self.rwin.receive_window(self.rcv_nxt)
    }

    /// `tcp_reset`: `sk_err` is set (ECONNRESET; ECONNREFUSED in SYN-SENT),
    /// the write queue purged and the socket closed (`tcp_done`). The
    /// socket sends nothing more and arms no timer.
    fn tcp_reset(&mut self, now: SimTime, trace: &mut Trace) {
        self.gave_up = Some(GiveUp::Reset);
        self.ack_now = false;
        self.probe.probe_pending = false;
        trace.push(now, TraceEvent::Reset { side: self.side });
    }
}
