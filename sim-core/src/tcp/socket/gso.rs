//! The send side with GSO skbs (`SendSkbs::Gso`): data entering the write
//! queue (`tcp_sendmsg_locked`), TSO packets leaving it (`tcp_write_xmit`'s
//! cut, `tso_fragment`), and the space checks that wake the writer and grow
//! the buffer (`tcp_check_space`).
//!
//! The kernel interleaves copying and sending inside one `write()`: a full
//! tail skb is pushed at once when it is the send head or a push is forced,
//! and the skb its first TSO packet is cut from leaves a partly empty unsent
//! tail that the copy loop tops up, again unchecked. Here the copy loop stops
//! at those push points ([`CopyPush`]) and `poll_transmit` resumes it when
//! `tcp_write_xmit` would have returned:
//!
//! - `tcp_push_one` sends one TSO packet; the copy goes on right after it
//!   and tops the tail up to the size goal again, with no look at the
//!   buffer, and pushes it again;
//! - a forced push (`__tcp_push_pending_frames`) sends what it may;
//! - either stops at a full cwnd, the peer's window, Nagle, pacing, or TCP
//!   Small Queues (`tcp_small_queue_check`): about two packets' truesize, or
//!   1 ms of the pacing rate, handed to the device and not yet completed.
//!   Only then does the full tail send the copy to `sk_stream_memory_free`
//!   for a new skb. The loop copies far faster than any device completes a
//!   packet (`tcp_wfree`), so with cwnd open it is TSQ that ends a woken
//!   writer's run, three packets past its new skb: more than one skb each
//!   wake, far less than cwnd. The packets TSQ holds back go out once the
//!   device completes (`tcp_tsq_handler`): here at once, as an ACK's push.
//!
//! So a write ends as in the kernel with the same skbs. Not modelled:
//! autocorking, TSO deferral (`tcp_tso_should_defer`), and TSQ's cap
//! `tcp_limit_output_bytes` (reached only past about 2 Gbit/s of pacing
//! rate). Every GSO era takes the two-packet TSQ limit of 3.13 ("tcp: tsq:
//! restore minimal amount of queueing"; CentOS 7's 3.10 is assumed to carry
//! it, as Red Hat carried TSQ's dynamic limit even into 2.6.32-423).

use super::Socket;
use crate::config::TsoSize;
use crate::tcp::send_buffer::{CopyPush, Gso};
use crate::tcp::write_queue::{size_goal, tso_segs};
use crate::time::SimTime;

impl Socket {
    fn gso(&mut self) -> &mut Gso {
        self.sbuf.gso.as_mut().expect("GSO skbs")
    }

    /// `tcp_sendmsg_locked`'s copy loop, until the backlog is copied, the
    /// writer must wait for space (`wait_for_space`), or a full skb is to be
    /// pushed. Returns whether it copied anything.
    ///
    /// Asked each time a push ends, so the common answer (nothing to copy,
    /// or the writer sleeps until tcp_check_space wakes it) is inlined.
    #[inline]
    pub(super) fn tcp_sendmsg_gso(&mut self) -> bool {
        if self.sbuf.backlog == 0 || self.sbuf.blocked {
            return false;
        }
        self.tcp_sendmsg_copy(true)
    }

    /// The copy loop, going on after a push: `push_one`: whether the tail,
    /// once full, is pushed as the send head (`tcp_push_one`). After a push
    /// TSQ stopped, the packet it cut is still the send head in the kernel,
    /// so the topped-up tail is not, and the copy goes on to a new skb.
    #[inline(never)]
    fn tcp_sendmsg_copy(&mut self, push_one: bool) -> bool {
        // tcp_send_mss → tcp_xmit_size_goal.
        let goal = size_goal(self.mss, self.push.max_window());
        let mut copied = false;
        while self.sbuf.backlog > 0 && !self.sbuf.blocked {
            let mut room = self.gso().queue.tail_room(goal);
            if room > 0 && !self.gso().copied {
                // A new write filling an unsent skb: its PSH waits for this
                // write's own push.
                self.push.unmark(self.write_end);
            }
            if room == 0 {
                // Only a new skb looks at the buffer (sk_stream_memory_free).
                let unsent = self.gso_unsent();
                let wmem = self.gso().queue.wmem_queued();
                if !self.sbuf.memory_free(wmem, unsent) {
                    // wait_for_space: SOCK_NOSPACE; tcp_push marks what this
                    // write copied as pushed.
                    self.sbuf.blocked = true;
                    if self.gso().copied {
                        self.push.mark(self.write_end);
                    }
                    break;
                }
                let seq = self.write_end;
                self.gso().queue.entail(seq);
                room = goal;
            }
            let bytes = room.min(self.sbuf.backlog);
            self.gso().queue.append(bytes);
            self.gso().copied = true;
            self.sbuf.backlog -= bytes;
            self.write_end += bytes;
            copied = true;
            if self.sbuf.backlog == 0 {
                // `out:` tcp_push marks the tail pushed unless MSG_MORE.
                if !self.corked || self.push.forced_push(self.write_end) {
                    self.push.mark(self.write_end);
                }
                break;
            }
            // The tail holds the size goal now.
            if self.push.forced_push(self.write_end) {
                self.push.mark(self.write_end);
                self.gso().push = Some(CopyPush::All);
                break;
            }
            if push_one && self.gso().queue.tail_is_send_head() {
                // tcp_push_one: one TSO packet, then this loop goes on
                // (tcp_packet_sent), topping up what the packet took.
                self.gso().push = Some(CopyPush::One);
                break;
            }
        }
        copied
    }

    /// `poll_transmit` found nothing more to send: the push of an ACK
    /// (`tcp_data_snd_check`) or of a write is over. Runs the space check an
    /// ACK asked for, then resumes a write that stopped to push or was woken.
    /// Returns whether more data entered the write queue.
    pub(super) fn tcp_push_done(&mut self) -> bool {
        let Some(g) = &mut self.sbuf.gso else {
            return false;
        };
        // A push that could send nothing more (cwnd or the window full,
        // Nagle, pacing) is over: the copy goes on, to a new skb once the
        // tail is full, which needs memory.
        g.push = None;
        if std::mem::take(&mut g.space_check_due) {
            self.tcp_check_space_gso();
        }
        self.tcp_sendmsg_gso()
    }

    /// `tcp_check_space` → `tcp_new_space` (only while the writer sleeps on
    /// the buffer, `SOCK_NOSPACE`): grow an autotuned buffer if cwnd is not
    /// full (`tcp_should_expand_sndbuf`), then wake the writer if there is
    /// room (`sk_stream_write_space`).
    pub(super) fn tcp_check_space_gso(&mut self) {
        if !self.sbuf.blocked {
            return;
        }
        // Where the sent skbs end, read once for both the flight and the
        // unsent bytes: this runs after every ACK while the writer sleeps.
        // (Growing the buffer leaves the queue as it is.)
        let queue = &self.gso().queue;
        let (sent_end, wmem) = (queue.sent_end(), queue.wmem_queued());
        if self
            .sbuf
            .should_expand(self.in_flight_to(sent_end) >= self.cb.cwnd)
        {
            self.sbuf.expand(self.cb.cwnd, self.cc.sndbuf_expand());
        }
        let unsent = self.write_end - self.snd_nxt.max(sent_end);
        if self.sbuf.writeable(wmem, unsent) {
            self.sbuf.blocked = false;
        }
    }

    /// The first segment of a TSO packet left (`tcp_event_new_data_sent`):
    /// on 6.x it runs `tcp_check_space` for the packet. A push from the copy
    /// loop may be over with it: `tcp_push_one` sends this one packet, and
    /// any push stops where TSQ holds a packet back. Then
    /// `tcp_sendmsg_locked`'s loop goes on: it tops the tail skb up to the
    /// size goal again with no look at the buffer (`copy = size_goal -
    /// skb->len` > 0), and pushes it again unless TSQ stopped the push.
    pub(super) fn tcp_packet_sent(&mut self) {
        let g = self.gso();
        if !std::mem::take(&mut g.packet_started) {
            return;
        }
        let throttled = std::mem::take(&mut g.packet_throttled);
        if g.check_space_on_send {
            self.tcp_check_space_gso();
        }
        let g = self.gso();
        let over = match g.push {
            Some(CopyPush::One) => true,
            Some(CopyPush::All) => throttled,
            None => false,
        };
        if over {
            g.push = None;
            if self.sbuf.backlog > 0 && !self.sbuf.blocked {
                self.tcp_sendmsg_copy(!throttled);
            }
        }
    }

    /// `tcp_small_queue_check` for the TSO packet just cut, at `now`: it
    /// waits for the device if `sk_wmem_alloc` (what the device holds, plus
    /// the 1 it starts at) passes `max(2 · truesize, sk_pacing_rate >>
    /// sk_pacing_shift)` (shift 10: about 1 ms), unless at most one skb is
    /// sent and unacknowledged (6.x `tcp_rtx_queue_empty_or_single_skb`;
    /// 4.x asked the same of the write queue's first two skbs). Counts it
    /// as handed over.
    fn tcp_small_queue_check(&mut self, now: SimTime) -> bool {
        let rate = self.cb.pacing_rate;
        let g = self.gso();
        if g.device_at != now {
            // The device completed everything of earlier instants (tcp_wfree).
            g.device_at = now;
            g.device_bytes = 0;
        }
        let truesize = g.queue.last_sent_truesize();
        let limit = (2 * truesize).max(rate >> 10);
        // The packet is in the rtx queue already: two skbs or fewer there
        // means the queue was empty or single before it.
        let throttled = g.queue.rtx_skbs() > 2 && g.device_bytes + 1 > limit;
        g.device_bytes += truesize;
        throttled
    }

    /// `write_seq − snd_nxt` as the kernel has it: a TSO packet leaves TCP
    /// whole, while the simulator may pace its segments out one by one.
    pub(super) fn gso_unsent(&self) -> u64 {
        let g = self.sbuf.gso.as_ref().expect("GSO skbs");
        self.write_end - self.snd_nxt.max(g.queue.sent_end())
    }

    /// `tcp_packets_in_flight` as the kernel has it: the segments of a TSO
    /// packet the simulator is still pacing out count as sent.
    fn gso_in_flight(&self) -> u32 {
        let g = self.sbuf.gso.as_ref().expect("GSO skbs");
        self.in_flight_to(g.queue.sent_end())
    }

    /// `gso_in_flight` with the sent skbs ending at `sent_end`.
    fn in_flight_to(&self, sent_end: u64) -> u32 {
        let paced = sent_end.saturating_sub(self.snd_nxt);
        self.board.in_flight() + paced.div_ceil(self.mss as u64) as u32
    }

    /// An ACK was processed (`tcp_ack` → `tcp_clean_rtx_queue`): free the
    /// skbs it covers, and ask for a space check once the push it triggers is
    /// over: after every ACK on 6.x, else only if an skb was freed
    /// (`SOCK_QUEUE_SHRUNK`).
    pub(super) fn tcp_clean_write_queue(&mut self) {
        let snd_una = self.snd_una;
        let g = self.gso();
        let shrunk = g.queue.ack(snd_una);
        g.space_check_due |= shrunk || g.check_space_on_send;
    }

    /// The segment `[snd_nxt, seg_end)` is about to go: cut the write queue's
    /// skbs into TSO packets as `tcp_write_xmit` would, until one covers it.
    /// `probe`: a zero-window probe (`tcp_write_wakeup`), which sends one
    /// segment's worth.
    pub(super) fn tcp_tso_packets(&mut self, now: SimTime, seg_end: u64, probe: bool) {
        let mss = self.mss as u64;
        while let Some((start, len)) = self.gso().queue.send_head() {
            if start >= seg_end {
                break;
            }
            let quota = if probe { 1 } else { self.tso_quota() };
            let max_len = quota * mss;
            let mut len = len;
            if !probe && len < max_len && self.gso().tso_size == TsoSize::MinRttGrow {
                self.gso().queue.grow_send_head(max_len - len);
                len = self.gso().queue.send_head().map_or(len, |(_, l)| l);
            }
            let limit = self.tcp_mss_split_point(start, len, max_len);
            // The packet covers at least what the simulator sends now.
            let limit = limit.max((seg_end - start).min(len));
            self.gso().queue.transmit_send_head(limit);
            let throttled = self.tcp_small_queue_check(now);
            let g = self.gso();
            g.packet_started = true;
            g.packet_throttled = throttled;
        }
    }

    /// `tcp_cwnd_test` (at least two TSO packets per cwnd: at most half of
    /// it) bounded by `tcp_tso_segs`: the segments the next packet may carry.
    fn tso_quota(&mut self) -> u64 {
        let (cwnd, in_flight) = (self.cb.cwnd, self.gso_in_flight());
        let cwnd_quota = (cwnd / 2).max(1).min(cwnd.saturating_sub(in_flight));
        let min_rtt_us = self.min_rtt.map(|d| d.0 / 1_000);
        let segs = tso_segs(
            self.gso().tso_size,
            self.cb.pacing_rate,
            min_rtt_us,
            self.mss,
            self.cc.min_tso_segs(&self.cb),
        );
        cwnd_quota.min(segs).max(1) as u64
    }

    /// `tcp_mss_split_point`: how much of the send head (at `start`, `len`
    /// bytes) one packet of at most `max_len` takes. The peer's window cuts
    /// it at a whole segment, as the simulator sends only whole segments; a
    /// sub-MSS end of the queue stays behind when Nagle or the cork would
    /// hold it.
    fn tcp_mss_split_point(&mut self, start: u64, len: u64, max_len: u64) -> u64 {
        let mss = self.mss as u64;
        let window = (self.snd_una + self.snd_wnd).saturating_sub(start);
        let needed = if len <= window {
            len
        } else {
            window / mss * mss
        };
        if max_len <= needed {
            return max_len;
        }
        let partial = needed % mss;
        let last = self.gso().queue.tail_is_send_head();
        if partial > 0
            && last
            && (self.corked || (self.packets_out() > 0 && self.tcp_nagle_check()))
        {
            return needed - partial;
        }
        needed
    }
}
