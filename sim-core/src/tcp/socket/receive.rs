//! What the socket does with arriving data (tcp_input.c `tcp_data_queue`,
//! `tcp_data_queue_ofo`, `tcp_event_data_recv`, `__tcp_ack_snd_check`) and
//! when the application reads it (tcp.c `tcp_cleanup_rbuf`).
//!
//! ```text
//!   in order ─► queued, charged its truesize             tcp_queue_rcv
//!               rcv_mss, PUSHED, scaling_ratio measured   tcp_measure_rcv_mss
//!               quick ACKs, ato; the window grows         tcp_event_data_recv
//!               held data that now follows on joins it    tcp_ofo_queue
//!               ACK now or arm the delayed-ACK timer      __tcp_ack_snd_check
//!   above rcv_nxt ─► held, charged; the window grows (SACK flows on today's
//!               kernel); ACK now with SACK blocks         tcp_data_queue_ofo
//!   the application reads ─► ACK if one is due, or if the window opened
//!               at least twofold                          tcp_cleanup_rbuf
//! ```
//!
//! An application that reads at once reads right after the segment was
//! processed, as a reader woken by `sk_data_ready` does. Simplification: an
//! ACK the softirq decided to send leaves after that read, so it carries the
//! window the read reopened (Linux sends it first, then perhaps a window
//! update); the time is the same.

use super::{GroSkb, Socket, State};
use crate::config::OfoGrowth;
use crate::segment::Segment;
use crate::tcp::ack_policy::{AckDecision, Arrival, TCP_HEADER_LEN};
use crate::tcp::ooo_queue::Queued;
use crate::tcp::receive_window::GROW_MIN_LEN;
use crate::time::SimTime;
use crate::trace::{Trace, TraceEvent};

impl Socket {
    /// Data arrived (`tcp_data_queue`).
    pub(super) fn tcp_data_queue(&mut self, now: SimTime, seg: &Segment, trace: &mut Trace) {
        let end = seg.end_seq();
        if end <= self.rcv_nxt {
            // A duplicate: ACK at once so the sender learns rcv_nxt (tcp_send_dupack).
            self.acks.schedule();
            self.ack_now = true;
            return;
        }
        if seg.seq > self.rcv_nxt {
            self.tcp_data_queue_ofo(seg);
            return;
        }
        // In order (perhaps overlapping old data): take it, and everything held
        // out of order that now follows on.
        let had_ooo = !self.ooo.is_empty();
        let (new_end, ofo_truesize) = self.ooo.take_in_order(end);
        self.rcv_nxt = new_end;
        self.rwin.queue(seg.len, end, new_end, ofo_truesize);
        if had_ooo {
            self.rwin.ooo_changed(self.ooo.span_past(new_end), false);
        }
        // Receive offload: the segments of one GRO skb are queued as they
        // come; what TCP does once per skb waits for its last segment.
        let skb = match self.gro.take() {
            Some(g) => GroSkb {
                len: g.len + seg.len,
                gso_size: g.gso_size,
                psh: g.psh || seg.flags.psh,
            },
            None => GroSkb {
                len: seg.len,
                gso_size: seg.len,
                psh: seg.flags.psh,
            },
        };
        if self.gro_more && !had_ooo {
            self.gro = Some(skb);
            return;
        }
        self.tcp_event_data_recv(now, seg, skb);
        if had_ooo {
            // RFC 5681 4.2: ACK at once when a gap is filled.
            self.ack_now = true;
        }
        self.tcp_ack_snd_check(now, trace);
        if self.reader.reads_at_once() {
            let copied = self.rwin.read(now, u64::MAX);
            self.app_received += copied;
            self.tcp_cleanup_rbuf(copied);
        }
    }

    /// Out-of-order data (`tcp_data_queue_ofo`): held until the hole before
    /// it is filled, and ACKed at once with SACK blocks.
    fn tcp_data_queue_ofo(&mut self, seg: &Segment) {
        self.acks.schedule();
        self.ack_now = true;
        let truesize = self.rwin.truesize_of(seg.len);
        let grows = match self.rwin.ofo_growth() {
            OfoGrowth::Never => false,
            OfoGrowth::AllFlows => true,
            // Without SACK the sender needs true duplicate ACKs, and an ACK
            // announcing a larger window is not one.
            OfoGrowth::SackFlows => self.sack_ok,
        };
        match self.ooo.insert(seg.seq, seg.end_seq(), truesize) {
            Queued::Duplicate => {}
            Queued::Coalesced => {
                self.rwin.charge_ofo(truesize);
                if grows {
                    self.tcp_grow_window(seg.len);
                }
            }
            Queued::Inserted => {
                if grows {
                    self.tcp_grow_window(seg.len);
                }
                self.rwin.charge_ofo(truesize);
            }
        }
        self.rwin
            .ooo_changed(self.ooo.span_past(self.rcv_nxt), true);
    }

    /// `tcp_event_data_recv` for an in-order skb (one segment, or a GRO
    /// skb ending with `seg`): measure the peer's MSS from its `gso_size`
    /// (and 6.6+'s window share), adapt the delayed-ACK engine, and grow the
    /// window for skbs of 128 bytes or more.
    fn tcp_event_data_recv(&mut self, now: SimTime, seg: &Segment, skb: GroSkb) {
        let arrival = Arrival {
            len: skb.gso_size,
            header_len: TCP_HEADER_LEN + seg.sack.option_bytes(),
            psh: skb.psh,
        };
        if self.acks.measure_rcv_mss(arrival, self.mss) {
            self.rwin.measure_scaling_ratio(skb.gso_size);
        }
        self.acks.on_data_recv(now, self.rwin.rcv_wnd());
        if skb.len >= GROW_MIN_LEN {
            self.tcp_grow_window(skb.len);
        }
    }

    /// `tcp_grow_window`; a grown window grants one more quick ACK.
    fn tcp_grow_window(&mut self, len: u32) {
        if self.rwin.grow(len, self.acks.rcv_mss()) {
            self.acks.window_grew();
        }
    }

    /// `__tcp_ack_snd_check`: ACK now, or arm the delayed-ACK timer.
    fn tcp_ack_snd_check(&mut self, now: SimTime, trace: &mut Trace) {
        if self.ack_now {
            return;
        }
        let unacked = self.rcv_nxt - self.rcv_wup;
        let armed_before = self.acks.deadline();
        self.acks.set_rtt(self.rtt.rto(), self.rtt.srtt());
        let (acks, rwin) = (&mut self.acks, &self.rwin);
        // "... and right edge of window advances far enough": with unread
        // data the window may have to shrink, and then the read will ACK.
        let decision = acks.ack_snd_check(now, unacked, |acks| {
            if rwin.unread() == 0 {
                return true;
            }
            let chosen = rwin.select(acks.rcv_mss());
            if chosen.low_space {
                acks.clear_quick();
            }
            chosen.window >= rwin.rcv_wnd()
        });
        match decision {
            AckDecision::Now => self.ack_now = true,
            AckDecision::Delay(deadline) => {
                if armed_before != Some(deadline) {
                    trace.push(
                        now,
                        TraceEvent::DelayedAckArmed {
                            side: self.side,
                            deadline,
                        },
                    );
                }
            }
        }
    }

    /// `tcp_cleanup_rbuf`, after the application read `copied` bytes: send
    /// the ACK that waited for the read, or announce a window that opened
    /// at least twofold from what is left of the last one.
    pub(super) fn tcp_cleanup_rbuf(&mut self, copied: u64) {
        if self.state != State::Established || self.ack_now {
            return;
        }
        let unacked = self.rcv_nxt - self.rcv_wup;
        if self
            .acks
            .cleanup_rbuf(copied, unacked, self.rwin.rmem_alloc() == 0)
        {
            self.ack_now = true;
            return;
        }
        if copied == 0 {
            return;
        }
        if let Some((worth, chosen)) = self
            .rwin
            .update_worth_sending(self.rcv_nxt, self.acks.rcv_mss())
        {
            if chosen.low_space {
                self.acks.clear_quick();
            }
            self.ack_now = worth;
        }
    }
}
