//! Connections a host has closed: what a segment that reaches a closed
//! socket meets, and when closing ends the run.
//!
//! A host that gives up (`tcp_write_err`) or is reset (`tcp_reset`) closes
//! its socket at once (`tcp_done`) and tells the peer nothing. The `Socket`
//! stays in its flow, for the reports; to the network it is gone:
//!
//! ```text
//!   segment ─► closed socket ─► tcp_v4_rcv finds none ─► no_tcp_socket ─► RST back
//!                                                        (never for a RST)
//! ```
//!
//! Whether the run then ends is the scenario's choice (`AfterGiveUp`): at
//! the first close, as the runs that ask how long a host waits need; or
//! once both ends of a connection are closed, so that the survivor's next
//! segment draws its RST and the reader sees what the application meets.

use super::Outcome;
use super::world::{Event, World};
use crate::config::AfterGiveUp;
use crate::link::Admission;
use crate::segment::{Segment, Side};
use crate::tcp::GiveUp;
use crate::tcp::no_socket::tcp_v4_send_reset;
use crate::time::SimTime;
use crate::trace::TraceEvent;

impl World {
    /// `seg` reached `to`'s closed socket on `flow`: answered with a RST
    /// (`no_tcp_socket` → `tcp_v4_send_reset`), sent by `to` at once.
    ///
    /// One exception: a listener that forgot a request (`SynAckRetries`)
    /// still listens, and takes a retried SYN as a new request; the model
    /// opens no second request, so that SYN is dropped unanswered.
    pub(super) fn no_tcp_socket(&mut self, now: SimTime, flow: u16, to: Side, seg: &Segment) {
        let forgotten =
            self.flows[flow as usize].socket(to).gave_up() == Some(GiveUp::SynAckRetries);
        if forgotten && seg.flags.syn && !seg.flags.ack {
            return;
        }
        let Some(mut rst) = tcp_v4_send_reset(seg) else {
            return;
        };
        rst.id = self.next_id;
        self.next_id += 1;
        // The path treats it as any packet: the queue, random loss and
        // outages apply (a drop list names only a socket's segments).
        let (link, lane) = match to {
            Side::Client => (&mut self.uplink, 0),
            Side::Server => (&mut self.downlink, 1),
        };
        let (departs, arrives) = match link.offer(now, rst.wire_bytes(), false) {
            Admission::Accepted { departs, arrives } => (Some(departs), Some(arrives)),
            Admission::Dropped => (None, None),
            Admission::Lost { departs } => (departs, None),
        };
        self.trace.set_flow(flow);
        self.trace.push(
            now,
            TraceEvent::SegmentSent {
                seg: rst,
                flight: 0,
                retransmit: false,
                departs,
                arrives,
            },
        );
        match arrives {
            Some(at) => {
                let event = Event::Arrive {
                    flow,
                    to: to.peer(),
                    seg: rst,
                };
                self.queue.push_in_order(lane, at, event);
            }
            None => self
                .trace
                .push(now, TraceEvent::SegmentDropped { seg: rst }),
        }
    }

    /// How the run ends now that `side` of `flow` has acted, if a closed
    /// connection ends it: with [`AfterGiveUp::End`], the first host (flow
    /// by flow, client first) that gave its connection up; with
    /// [`AfterGiveUp::Continue`], this flow once both its ends are closed,
    /// the outcome `side`'s, the end closed last.
    #[inline(always)]
    pub(super) fn closed_outcome(
        &mut self,
        now: SimTime,
        flow: u16,
        side: Side,
        after: AfterGiveUp,
    ) -> Option<Outcome> {
        let (side, reason) = match after {
            AfterGiveUp::End => self.gave_up()?,
            AfterGiveUp::Continue => {
                let f = &mut self.flows[flow as usize];
                if !(f.client.is_aborted() && f.server.is_aborted()) {
                    return None;
                }
                (side, f.socket(side).gave_up()?)
            }
        };
        Some(Outcome::Aborted {
            at: now,
            side,
            reason,
        })
    }
}
