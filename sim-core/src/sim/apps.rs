//! The applications' side of the world: carrying out what they decide
//! (writes, later starts, completed transfers), one `write()` at a time, and
//! the chunked writer of an RPC framework.

use super::flow::slot;
use super::world::{Event, World};
use crate::app::Action;
use crate::segment::Side;
use crate::time::SimTime;
use crate::trace::TraceEvent;
use crate::writer::Step;

impl World {
    /// Carries out what the applications of `flow` decided.
    pub(super) fn perform(&mut self, now: SimTime, flow: u16, actions: Vec<Action>) {
        self.trace.set_flow(flow);
        for action in actions {
            match action {
                Action::Write { side, bytes, more }
                    if self.flows[flow as usize].writers[slot(side)].is_some() =>
                {
                    if let Some((w, _)) = &mut self.flows[flow as usize].writers[slot(side)] {
                        w.enqueue(bytes, more);
                    }
                    self.drive_writer(now, flow, side);
                }
                Action::Write { side, bytes, more } => self.write(now, flow, side, bytes, more),
                Action::StartLater { index, at } => {
                    self.queue.push(at, Event::AppStart { flow, index })
                }
                Action::Complete { index, started } => {
                    self.trace.push(
                        now,
                        TraceEvent::TransferComplete {
                            index,
                            bytes: self.app_bytes,
                            started,
                        },
                    );
                    if self.new_connection {
                        self.close(now, flow);
                        // A transfer that came due meanwhile starts now.
                        if let Some(next) = self.flows[flow as usize].apps.take_deferred() {
                            self.start_transfer(now, flow, next);
                        }
                    }
                }
            }
        }
    }

    /// One `write()` call by `side`'s application, and whatever TCP sends at once.
    pub(super) fn write(&mut self, now: SimTime, flow: u16, side: Side, bytes: u64, more: bool) {
        self.trace.set_flow(flow);
        self.writes += 1;
        // Disjoint fields, borrowed directly: moving the trace out and back
        // with `mem::take` copied it twice per call.
        self.flows[flow as usize]
            .socket(side)
            .app_write(now, bytes, more, &mut self.trace);
        self.pump(now, flow, side);
    }

    /// Lets `side`'s chunked writer make every `write()` it can at `now`, and
    /// queues its wake-up for the next chunk.
    pub(super) fn drive_writer(&mut self, now: SimTime, flow: u16, side: Side) {
        let f = flow as usize;
        loop {
            let blocked = self.flows[f].socket(side).app_backlog() > 0;
            let Some((writer, wake)) = &mut self.flows[f].writers[slot(side)] else {
                return;
            };
            match writer.step(now, blocked) {
                Step::Write { bytes, more } => self.write(now, flow, side, bytes, more),
                Step::WakeAt(t) => {
                    if *wake != Some(t) {
                        *wake = Some(t);
                        self.queue.push(t, Event::AppWrite { flow, side });
                    }
                    return;
                }
                Step::Wait => return,
            }
        }
    }
}
