//! The application's side of the socket (tcp.c): its writes enter the send
//! buffer (`tcp_sendmsg`), and its reads drain the receive buffer at the pace
//! it reads (`tcp_recvmsg` → `tcp_cleanup_rbuf`).

use super::Socket;
use super::timers::Timer;
use crate::time::SimTime;
use crate::trace::Trace;

impl Socket {
    /// The application writes `bytes` more; what the send buffer has no room
    /// for waits in [`Socket::app_backlog`].
    /// `more`: the application has more of this message to write; with
    /// `TCP_CORK` the socket stays corked until the last write.
    pub fn app_write(&mut self, now: SimTime, bytes: u64, more: bool, trace: &mut Trace) {
        self.tcp_slow_start_after_idle_check(now, trace);
        self.corked = self.cork && more;
        if let Some(g) = &mut self.sbuf.gso
            && self.sbuf.backlog == 0
        {
            // A new write() call: nothing of it copied yet.
            g.copied = false;
        }
        self.sbuf.backlog += bytes;
        // tcp_sendmsg → tcp_rate_check_app_limited: writing into an empty
        // pipe marks the coming rate samples as application-limited.
        let nothing_unsent = self.write_end.saturating_sub(self.snd_nxt) < self.mss as u64;
        self.rate.check_app_limited(
            nothing_unsent,
            self.board.in_flight(),
            self.cb.cwnd,
            self.board.lost_out(),
        );
        self.cb.app_limited = self.rate.app_limited();
        self.copy_from_app(true);
    }

    /// A blocked writer, woken by freed buffer space, copies what now fits.
    pub(super) fn take_from_app(&mut self) {
        self.copy_from_app(false);
    }

    /// Moves what the send buffer has room for from the application into the
    /// socket; the rest waits with the writer blocked. The copy ends with
    /// `tcp_push` (the write returns, or blocks for space), which marks PSH.
    /// With GSO skbs the copy may stop early to push a full skb;
    /// `poll_transmit` resumes it.
    fn copy_from_app(&mut self, new_write: bool) {
        if self.sbuf.gso.is_some() {
            self.tcp_sendmsg_gso();
            return;
        }
        let queued = self.write_end.saturating_sub(self.snd_una);
        let unsent = self.write_end.saturating_sub(self.snd_nxt);
        let taken = self.sbuf.accept(queued, unsent);
        if taken == 0 {
            return;
        }
        let mss = self.mss as u64;
        if new_write {
            self.push.on_new_write(self.write_end, self.snd_nxt, mss);
        }
        self.push
            .on_copy(self.write_end, self.write_end + taken, self.snd_nxt, mss);
        self.write_end += taken;
    }

    /// The application reads what its pace allows (`tcp_recvmsg`), then
    /// `tcp_cleanup_rbuf` may ACK.
    pub(super) fn app_read(&mut self, now: SimTime) {
        let want = self.reader.budget(now, self.rwin.unread());
        if want > 0 {
            let copied = self.rwin.read(now, want);
            self.app_received += copied;
            self.tcp_cleanup_rbuf(copied);
        }
        self.schedule_read(now);
    }

    /// Arms the read tick for the application's next read, or stops it when
    /// there is nothing left to read.
    pub(super) fn schedule_read(&mut self, now: SimTime) {
        match self.reader.next_tick(now, self.rwin.unread(), self.mss) {
            // Data that arrives while a late waker is on its way does not
            // put its read off.
            Some(_)
                if self.reader.wakes_late()
                    && self.timers.get(Timer::ReadTick).is_some_and(|d| d >= now) => {}
            Some(t) => self.timers.set(Timer::ReadTick, t),
            None => self.timers.stop(Timer::ReadTick),
        }
    }
}
