//! What the socket sends next (tcp_output.c), one segment per `poll_transmit`:
//!
//! ```text
//!   the SYN or SYN-ACK, while one is due          tcp_connect / tcp_make_synack
//!   else, established:
//!     a tail-loss probe, when the timer chose one tcp_send_loss_probe
//!     the lowest lost segment                     tcp_xmit_retransmit_queue
//!       (after new data, when F-RTO asks for it: REXMIT_NEW)
//!     new data: cwnd, the peer's window, Nagle    tcp_write_xmit
//!       or TCP_CORK, then pacing must allow it
//!     a zero-window probe, when the timer asked   tcp_write_wakeup
//!     a bare ACK, when one is due                 tcp_send_ack
//! ```
//!
//! Every segment after the SYN carries the ACK fields (`stamp_ack`), so data
//! also sends any pending ACK.

use super::timers::Timer;
use super::{Hold, Socket, State};
use crate::cc::CwndEvent;
use crate::config::Nagle;
use crate::segment::{Flags, SackBlocks, Segment};
use crate::tcp::scoreboard::{TxRate, TxSeg};
use crate::time::SimTime;

impl Socket {
    /// Next segment to put on the wire, if any. The caller assigns `id`.
    /// Returns the segment and, for data, its flight number and whether it is
    /// a retransmission.
    pub fn poll_transmit(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        let out = self.next_segment(now);
        match &out {
            Some((seg, _, retransmit)) => self.counters.on_send(seg.len, *retransmit),
            // The end of `tcp_write_xmit`'s loop.
            None if std::mem::take(&mut self.tlp.schedule_due) => {
                self.tcp_schedule_loss_probe(now, false);
            }
            None => {}
        }
        out
    }

    fn next_segment(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        self.held = None;
        if self.gave_up.is_some() {
            return None;
        }
        if self.syn.pending {
            return Some(self.tcp_send_syn(now));
        }
        if self.state == State::Established {
            if let Some(out) = self.tcp_send_pending_probe(now) {
                return Some(out);
            }
            // With GSO skbs, the end of a push resumes a write that stopped
            // to push, or that the push's space check woke.
            loop {
                if let Some(out) = self.tcp_xmit(now) {
                    return Some(out);
                }
                if !self.tcp_push_done() {
                    break;
                }
            }
        }
        if self.probe.probe_pending && self.state == State::Established {
            return Some(self.tcp_send_probe0(now));
        }
        if self.ack_now && self.state == State::Established {
            return Some((self.segment(self.snd_nxt, 0), 0, false));
        }
        None
    }

    /// Lost segments first, then new data (`tcp_xmit_recovery`,
    /// `tcp_write_xmit`). When F-RTO asks for new data (`REXMIT_NEW`), new
    /// data first, and no retransmission with it.
    fn tcp_xmit(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        if self.frto.rexmit_new {
            let out = self.tcp_write_xmit(now);
            if out.is_some() || self.snd_nxt > self.high_seq {
                return out;
            }
            // None could go: F-RTO gives up on this timeout.
            self.frto.stop();
        }
        if let Some(out) = self.tcp_xmit_retransmit_queue(now) {
            return Some(out);
        }
        self.tcp_write_xmit(now)
    }

    /// Our SYN (`tcp_connect`) or SYN-ACK (`tcp_make_synack`, which echoes
    /// the SYN's timestamp): the window is never scaled in it.
    fn tcp_send_syn(&mut self, now: SimTime) -> (Segment, u32, bool) {
        self.syn.pending = false;
        let mut seg = self.blank(0);
        seg.flags.syn = true;
        seg.wnd = self.rwin.syn_window(self.rcv_nxt);
        if self.state == State::SynReceived {
            seg.flags.ack = true;
            seg.ack = self.rcv_nxt;
            seg.ts_ecr = self.ts_recent;
        }
        self.snd_nxt = 1;
        self.snd_max = self.snd_max.max(1);
        let retransmit = self.on_syn_sent(now);
        (seg, 0, retransmit)
    }

    /// Resends the lowest lost segment, if cwnd and the peer's window allow
    /// (`tcp_xmit_retransmit_queue`, `__tcp_retransmit_skb`).
    fn tcp_xmit_retransmit_queue(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        let lost = self.board.next_retransmit()?;
        if self.board.in_flight() >= self.cb.cwnd {
            return None;
        }
        // Resend what was sent, cut at the window's edge; with the window
        // shut, the head still goes (it doubles as a window probe).
        let wnd_end = self.snd_una + self.snd_wnd;
        if lost.seq >= wnd_end && lost.seq != self.snd_una {
            return None;
        }
        if lost.end > wnd_end && wnd_end > lost.seq {
            self.board.split(lost.end, wnd_end);
        }
        let lost = self.board.next_retransmit()?;
        if self.tcp_pacing_check(now) {
            return None;
        }
        let len = (lost.end - lost.seq) as u32;
        let stamp = self.tcp_skb_sent(now, len);
        let seg_state = self.board.retransmitted(lost.end, now, stamp)?;
        if let Some(fack) = &mut self.fack {
            fack.on_retransmit(seg_state.end, self.snd_nxt);
        }
        let seg = self.segment(seg_state.seq, len);
        if let Some(p) = &mut self.prr {
            p.prr_out += 1;
        }
        self.total_retrans += 1;
        if self.board.front().is_some_and(|h| h.end == lost.end) {
            self.tcp_reset_xmit_timer(now);
        }
        self.retrans_stamp.get_or_insert(now);
        Some((seg, seg_state.flight, true))
    }

    /// The next new data segment that cwnd, the peer's window, Nagle and
    /// pacing allow (`tcp_write_xmit`). Asked on every poll, so the common
    /// answer, no unsent data (no `tcp_send_head`), is inlined.
    #[inline]
    fn tcp_write_xmit(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        if self.snd_nxt >= self.write_end {
            return None;
        }
        self.tcp_write_xmit_head(now)
    }

    /// `tcp_write_xmit` with unsent data: whether its head may go now.
    #[inline(never)]
    fn tcp_write_xmit_head(&mut self, now: SimTime) -> Option<(Segment, u32, bool)> {
        // tcp_cwnd_test.
        if self.board.in_flight() >= self.cb.cwnd {
            self.tcp_cwnd_validate(true);
            return None;
        }
        let len = self.next_len();
        // tcp_snd_wnd_test: the segment must fit inside the peer's window. (Linux
        // with TSO can also cut a large buffer at the window edge to the byte,
        // `tcp_mss_split_point`; the simulator sends whole segments only.)
        if !self.tcp_snd_wnd_test() {
            self.tcp_check_probe_timer(now);
            return None;
        }
        // tcp_nagle_test.
        if len < self.mss as u64
            && (self.corked || (self.packets_out() > 0 && self.tcp_nagle_check()))
        {
            self.held = Some(if self.corked { Hold::Cork } else { Hold::Nagle });
            return None;
        }
        if self.tcp_pacing_check(now) {
            return None;
        }
        let out = self.tcp_send_new_segment(now, len);
        // "Send one loss probe per tail loss episode": armed when the burst
        // ends (`poll_transmit` has nothing more to send at `now`).
        self.tlp.schedule_due = true;
        Some(out)
    }

    /// Sends `len` bytes of new data (what `tcp_write_xmit` does once a
    /// segment may go).
    pub(super) fn tcp_send_new_segment(&mut self, now: SimTime, len: u64) -> (Segment, u32, bool) {
        let seq = self.snd_nxt;
        let seg = self.segment(seq, len as u32);
        if len < self.mss as u64 {
            // tcp_minshall_update.
            self.snd_sml = seq + len;
        }
        let flight = self.next_flight;
        self.acks.on_data_sent(now);
        if let Some(p) = &mut self.prr {
            p.prr_out += 1;
        }
        if self.board.is_empty() {
            self.cc.cwnd_event(&mut self.cb, CwndEvent::TxStart, now);
        }
        self.cc.cwnd_event(&mut self.cb, CwndEvent::DataSent, now);
        if self.sbuf.gso.is_some() {
            self.tcp_tso_packets(now, seq + len, false);
        }
        self.tcp_event_new_data_sent(now, seq, len, flight);
        let limited = self.packets_out() >= self.cb.cwnd;
        self.tcp_cwnd_validate(limited);
        (seg, flight, false)
    }

    /// A zero-window probe (`tcp_write_wakeup`): if the window has any room,
    /// send as much new data as fits; otherwise an already-acknowledged
    /// sequence number with no data, which the receiver must answer with an ACK
    /// carrying its current window.
    fn tcp_write_wakeup(&mut self, now: SimTime) -> (Segment, u32, bool) {
        let room = (self.snd_una + self.snd_wnd).saturating_sub(self.snd_nxt);
        let len = room.min(self.next_len());
        if len > 0 {
            let seq = self.snd_nxt;
            let seg = self.segment(seq, len as u32);
            let flight = self.next_flight;
            if self.sbuf.gso.is_some() {
                self.tcp_tso_packets(now, seq + len, true);
            }
            self.tcp_event_new_data_sent(now, seq, len, flight);
            return (seg, flight, false);
        }
        (self.segment(self.snd_una.saturating_sub(1), 0), 0, false)
    }

    /// `tcp_send_probe0`: the probe the persist timer asked for, then what
    /// follows from it. A probe that carried data hands over to the
    /// retransmission timer armed as the data left (`icsk_backoff` and
    /// `icsk_probes_out` back to 0); an empty one is counted, backs the next
    /// interval off, and arms the persist timer for it (`tcp_probe0_when`).
    fn tcp_send_probe0(&mut self, now: SimTime) -> (Segment, u32, bool) {
        self.probe.probe_pending = false;
        let out = self.tcp_write_wakeup(now);
        if self.packets_out() > 0 {
            self.probe.probes_out = 0;
            self.probe.probe_backoff = 0;
        } else {
            self.probe.probes_out += 1;
            self.probe.probe_backoff = (self.probe.probe_backoff + 1).min(self.retries2);
            self.reset_probe_timer(now, self.tcp_probe0_when());
        }
        out
    }

    /// `tcp_event_new_data_sent`: new data of `len` bytes at `seq` left; it
    /// joins the retransmission queue, snd_nxt advances, and the RTO runs.
    fn tcp_event_new_data_sent(&mut self, now: SimTime, seq: u64, len: u64, flight: u32) {
        let stamp = self.tcp_skb_sent(now, len as u32);
        self.board
            .push(TxSeg::new(seq, seq + len, flight, now, stamp));
        self.snd_nxt += len;
        self.snd_max = self.snd_max.max(self.snd_nxt);
        if self.timers.get(Timer::LossProbe).is_some() {
            // The probe gives way to the RTO until `tcp_write_xmit` has
            // scheduled it again (`tcp_rearm_rto`).
            self.tcp_rearm_rto_linux(now);
        } else if self.timers.get(Timer::Rto).is_none() {
            self.tcp_reset_xmit_timer(now);
        }
        if self.sbuf.gso.is_some() {
            self.tcp_packet_sent();
        }
    }

    /// Stamps a data transmission for rate sampling (`tcp_rate_skb_sent`) and
    /// pacing (`tcp_update_skb_after_send`), and notes when data was last sent.
    pub(super) fn tcp_skb_sent(&mut self, now: SimTime, len: u32) -> TxRate {
        let stamp = self.rate.on_send(now, self.board.packets_out());
        let rate = self.pacing_rate();
        self.pacer.on_send(now, len, rate);
        self.lsndtime = Some(now);
        stamp
    }

    /// `tcp_pacing_check`: pacing holds data back until its slot; returns true
    /// while it does, with the pacing timer armed for the slot.
    pub(super) fn tcp_pacing_check(&mut self, now: SimTime) -> bool {
        if !self.pacing {
            return false;
        }
        let ready = self.pacer.ready_at();
        if ready > now {
            self.timers.set(Timer::Pacing, ready);
            true
        } else {
            false
        }
    }

    /// Bytes of the next segment to send, if any data is waiting.
    pub(super) fn next_len(&self) -> u64 {
        self.write_end
            .saturating_sub(self.snd_nxt)
            .min(self.mss as u64)
    }

    /// The next segment fits in the peer's window (`tcp_snd_wnd_test`).
    pub(super) fn tcp_snd_wnd_test(&self) -> bool {
        self.snd_nxt + self.next_len() <= self.snd_una + self.snd_wnd
    }

    /// Nagle's rule for a sub-MSS segment while data is in flight
    /// (`tcp_nagle_check`).
    pub(super) fn tcp_nagle_check(&self) -> bool {
        match self.nagle {
            Nagle::Off => false,
            // `tcp_minshall_check`: an earlier small segment is still unacknowledged.
            Nagle::Minshall => self.snd_sml > self.snd_una,
            Nagle::Classic => true,
        }
    }

    /// A segment after the SYN: `len` bytes at `seq` (none for a bare ACK),
    /// with the ACK fields filled in. Always inlined: built in place in its
    /// caller's return value, the segment is not copied on its way out (as a
    /// call, and the compiler's choice went either way, a long run cost 2 %
    /// more instructions).
    #[inline(always)]
    pub(super) fn segment(&mut self, seq: u64, len: u32) -> Segment {
        let mut seg = self.blank(seq);
        seg.len = len;
        seg.flags.psh = len > 0 && self.push.psh(seq, seq + len as u64);
        self.stamp_ack(&mut seg);
        seg
    }

    /// Fills in the ACK fields every segment after the SYN carries, and notes
    /// that any pending ACK has now been sent (an ACK rides free on data:
    /// `tcp_event_ack_sent`).
    fn stamp_ack(&mut self, seg: &mut Segment) {
        seg.flags.ack = true;
        seg.ack = self.rcv_nxt;
        let (wnd, chosen) = self.rwin.advertise(self.rcv_nxt, self.acks.rcv_mss());
        if chosen.low_space {
            self.acks.clear_quick();
        }
        seg.wnd = wnd;
        seg.ts_ecr = self.ts_recent;
        // `blank` left the option empty, as it stays unless data waits out
        // of order: most segments then skip building and copying an empty one.
        if self.sack_ok && self.ooo.has_sack_blocks() {
            seg.sack = self.ooo.sack_blocks();
        }
        self.ack_now = false;
        self.acks.on_ack_sent();
        self.rcv_wup = self.rcv_nxt;
    }

    fn blank(&self, seq: u64) -> Segment {
        Segment {
            id: 0,
            from: self.side,
            seq,
            len: 0,
            ack: 0,
            wnd: 0,
            flags: Flags::default(),
            sack: SackBlocks::default(),
            ts_val: 0,
            ts_ecr: 0,
        }
    }
}
