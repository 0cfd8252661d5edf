//! The world: every flow's sockets and applications, the bottleneck link each
//! way that all of them share, the event queue and the trace, and what one
//! event does to them.

use super::Outcome;
use super::drops::DropList;
use super::flow::{Flow, open, slot};
use crate::config::{AfterGiveUp, Direction, HostConfig, PathConfig, Scenario};
use crate::event_queue::EventQueue;
use crate::link::{Admission, Link, LinkConfig};
use crate::segment::{Segment, Side};
use crate::tcp::GiveUp;
use crate::tcp::info::TcpInfo;
use crate::tcp::metrics::TcpMetrics;
use crate::time::{SimDuration, SimTime};
use crate::trace::{Trace, TraceEvent};
use crate::writer::ChunkedWriter;

/// What the event queue holds: the world's own events, in time order.
#[derive(Clone)]
pub(super) enum Event {
    Arrive {
        flow: u16,
        to: Side,
        seg: Segment,
    },
    Timer {
        flow: u16,
        side: Side,
    },
    /// The applications of `flow` start transfer `index`.
    AppStart {
        flow: u16,
        index: u32,
    },
    /// Every flow's progress is sampled into the trace.
    Sample,
    /// `side`'s chunked writer (an RPC framework's buffer) has its next chunk ready.
    AppWrite {
        flow: u16,
        side: Side,
    },
}

/// The event-queue lane holding the arrivals at `to`: one per link, whose
/// deliveries keep the order it accepted them in.
fn arrival_lane(to: Side) -> usize {
    match to {
        Side::Server => 0,
        Side::Client => 1,
    }
}

/// `gro_max_size`: the most one GRO skb gathers.
const GRO_MAX_SIZE: u32 = 65_536;

#[derive(Clone)]
pub(super) struct World {
    pub(super) queue: EventQueue<Event>,
    pub(super) flows: Vec<Flow>,
    pub(super) uplink: Link,
    pub(super) downlink: Link,
    pub(super) trace: Trace,
    pub(super) next_id: u64,
    /// Bytes of one response, for the transfer records.
    pub(super) app_bytes: u64,
    /// Settings for new sockets (after the handshake's negotiation).
    pub(super) hosts: (HostConfig, HostConfig),
    pub(super) new_connection: bool,
    /// The server's tcp_metrics cache: one per destination, so every flow
    /// (all to the same client) shares it.
    pub(super) metrics: TcpMetrics,
    pub(super) seed: u64,
    /// Each flow's algorithm, if the scenario sets them (`open`).
    pub(super) flow_cc: Vec<crate::cc::Kind>,
    /// The scenario's drop list, with what it has counted so far.
    pub(super) drops: DropList,
    /// Connections each flow has opened so far (1: its first).
    pub(super) opened: Vec<u32>,
    /// Random loss on the first this many connections only.
    pub(super) loss_connections: Option<u32>,
    /// `ip tcp_metrics flush all` before this connection opens.
    pub(super) flush_before: Option<u32>,
    /// Whether a give-up ends the run (`closed.rs`).
    pub(super) after_give_up: AfterGiveUp,
    /// The applications' `write()` calls so far (the budget counts them
    /// with the events: 1-byte writes need no event).
    pub(super) writes: u64,
}

/// One direction of the path as a link; `delay`, `seed` and whether random
/// loss applies differ by direction.
fn link(p: &PathConfig, direction: Direction, delay: SimDuration, seed: u64) -> Link {
    Link::new(LinkConfig {
        rate_bps: p.rate_bps,
        delay,
        queue_bytes: p.queue_bytes,
        loss: p.loss_in(direction),
        loss_until: p.loss_until.map(|d| SimTime::ZERO + d),
        outages: (p.outages_in(direction).into_iter())
            .map(|(from, until)| (SimTime::ZERO + from, SimTime::ZERO + until))
            .collect(),
        position: p.loss_position,
        seed,
    })
}

impl World {
    /// The world at time zero: every flow's client has sent its SYN (and,
    /// with a connection per exchange, its first request is under way), and
    /// the first sample is queued. `scenario` has been validated.
    pub(super) fn new(scenario: &Scenario) -> World {
        let negotiated = negotiate_options(scenario);
        let p = &scenario.path;
        let hosts = (negotiated.client.clone(), negotiated.server.clone());
        let flows = (0..scenario.flows as u16)
            .map(|i| {
                let (client, server) =
                    open(&hosts, &scenario.flow_congestion_control, scenario.seed, i);
                Flow::new(client, server, &scenario.app)
            })
            .collect();
        let mut w = World {
            queue: EventQueue::new(),
            flows,
            uplink: link(
                p,
                Direction::Acks,
                p.delay_forward,
                scenario.seed.wrapping_mul(2),
            ),
            downlink: link(
                p,
                Direction::Data,
                p.delay_reverse,
                scenario.seed.wrapping_mul(2).wrapping_add(1),
            ),
            trace: Trace::with_packet_budget(scenario.trace_packet_budget),
            next_id: 0,
            app_bytes: scenario.app.response_bytes(),
            hosts,
            new_connection: scenario.app.new_connection,
            metrics: TcpMetrics::default(),
            seed: scenario.seed,
            flow_cc: scenario.flow_congestion_control.clone(),
            drops: DropList::new(&p.drops, scenario.flows),
            opened: vec![1; scenario.flows as usize],
            loss_connections: p.loss_connections,
            flush_before: scenario.app.tcp_metrics_flush_before,
            after_give_up: scenario.after_give_up,
            writes: 0,
        };
        let now = SimTime::ZERO;
        for flow in 0..scenario.flows as u16 {
            if w.new_connection {
                // With a connection per exchange, the first exchange starts at connect.
                let actions = w.flows[flow as usize].apps.start(0, now, false);
                w.perform(now, flow, actions);
            }
            w.pump(now, flow, Side::Client);
        }
        w.queue.push(now + scenario.sample_interval, Event::Sample);
        w
    }

    /// Whether a popped event is only queue bookkeeping, not an event of the
    /// model: a timer entry superseded or moved later (see `timer_due`), a
    /// chunked writer's wake-up that was replaced.
    ///
    /// This, `handle` and `settle` run for every event and are always inlined
    /// into `Simulation::advance`, as when they were one loop: as calls they
    /// cost a long run about 1.5 % more instructions.
    #[inline(always)]
    pub(super) fn is_stale(&mut self, now: SimTime, event: &Event) -> bool {
        match *event {
            Event::Timer { flow, side } => !self.timer_due(now, flow, side),
            Event::AppWrite { flow, side } => {
                let writer = &mut self.flows[flow as usize].writers[slot(side)];
                match writer {
                    Some((_, wake)) if *wake == Some(now) => {
                        *wake = None;
                        false
                    }
                    _ => true,
                }
            }
            _ => false,
        }
    }

    /// Acts on one event of the model at `now`; how the run ends, if it ends
    /// with this event.
    #[inline(always)]
    pub(super) fn handle(
        &mut self,
        now: SimTime,
        event: Event,
        sample_interval: SimDuration,
    ) -> Option<Outcome> {
        // The segment is read where the queue left it, not moved out first:
        // one copy less of it for every arrival.
        let (flow, side) = match event {
            Event::Arrive { flow, to, ref seg } => {
                self.trace.set_flow(flow);
                self.trace
                    .push(now, TraceEvent::SegmentReceived { to, seg: *seg });
                let sock = self.flows[flow as usize].socket(to);
                if sock.is_aborted() {
                    // Closed: to the network, the socket is gone.
                    self.no_tcp_socket(now, flow, to, seg);
                    return None;
                }
                let more = self.gro_continues(now, flow, to, seg);
                let sock = self.flows[flow as usize].socket(to);
                sock.set_gro_more(more);
                sock.handle_segment(now, seg, &mut self.trace);
                (flow, to)
            }
            Event::AppStart { flow, index } => {
                if self.new_connection && self.flows[flow as usize].apps.busy() {
                    // Opening the next connection now would abandon the
                    // transfer still running on this one.
                    self.flows[flow as usize].apps.defer(index);
                    return None;
                }
                self.start_transfer(now, flow, index);
                return None;
            }
            Event::Sample => {
                self.sample(now);
                self.queue.push(now + sample_interval, Event::Sample);
                return None;
            }
            Event::AppWrite { flow, side } => {
                self.drive_writer(now, flow, side);
                (flow, side)
            }
            Event::Timer { flow, side } => {
                self.trace.set_flow(flow);
                self.flows[flow as usize]
                    .socket(side)
                    .handle_timeout(now, &mut self.trace);
                (flow, side)
            }
        };
        self.settle(now, flow, side)
    }

    /// After `side` of `flow` took in an event: the applications act on what
    /// changed, then both sockets send what they now may.
    #[inline(always)]
    fn settle(&mut self, now: SimTime, flow: u16, side: Side) -> Option<Outcome> {
        let f = &mut self.flows[flow as usize];
        let actions = f.apps.poll(now, &f.client, &f.server);
        // Nearly always nothing. (`perform` would set the trace's flow;
        // nothing is recorded before `pump` sets it.)
        if !actions.is_empty() {
            self.perform(now, flow, actions);
        }
        if self.finished() {
            return Some(Outcome::Completed { at: now });
        }
        if let Some(outcome) = self.closed_outcome(now, flow, side, self.after_give_up) {
            return Some(outcome);
        }
        self.pump(now, flow, side);
        self.pump(now, flow, side.peer());
        // An ACK may have made room for a blocked chunked write.
        for s in [Side::Client, Side::Server] {
            if self.flows[flow as usize].writers[slot(s)].is_some() {
                self.drive_writer(now, flow, s);
            }
        }
        None
    }

    /// Sends everything `side` of `flow` is ready to send, then re-arms its timer.
    pub(super) fn pump(&mut self, now: SimTime, flow: u16, side: Side) {
        self.trace.set_flow(flow);
        // Each link delivers in the order it accepts (FIFO, fixed delay),
        // so its arrivals can wait in their own in-order lane.
        let link = match side {
            Side::Client => &mut self.uplink,
            Side::Server => &mut self.downlink,
        };
        let lane = arrival_lane(side.peer());
        // The flow is looked up once: the loop below runs for every segment.
        let fl = &mut self.flows[flow as usize];
        let sock = fl.socket(side);
        // The segment is stamped where `poll_transmit` left it, then copied
        // into the records that carry it.
        while let Some((ref mut seg, flight, retransmit)) = sock.poll_transmit(now) {
            seg.id = self.next_id;
            seg.ts_val = now.0;
            self.next_id += 1;
            let seg = &*seg;
            let listed = !self.drops.is_empty() && self.drops.matches(flow, side, seg, retransmit);
            let (departs, arrives) = match link.offer(now, seg.wire_bytes(), listed) {
                Admission::Accepted { departs, arrives } => (Some(departs), Some(arrives)),
                Admission::Dropped => (None, None),
                Admission::Lost { departs } => (departs, None),
            };
            self.trace.push(
                now,
                TraceEvent::SegmentSent {
                    seg: *seg,
                    flight,
                    retransmit,
                    departs,
                    arrives,
                },
            );
            match arrives {
                Some(at) => self.queue.push_in_order(
                    lane,
                    at,
                    Event::Arrive {
                        flow,
                        to: side.peer(),
                        seg: *seg,
                    },
                ),
                None => self
                    .trace
                    .push(now, TraceEvent::SegmentDropped { seg: *seg }),
            }
        }
        let held = sock.held();
        let wanted = sock.poll_timeout();
        if held.is_some() != fl.held[slot(side)] {
            fl.held[slot(side)] = held.is_some();
            if let Some((hold, bytes)) = held {
                let reason = hold.name();
                self.trace.push(
                    now,
                    TraceEvent::SendHeld {
                        side,
                        reason,
                        bytes,
                    },
                );
            }
        }
        let queued = &mut fl.timer_queued[slot(side)];
        if let Some(t) = wanted
            && queued.is_none_or(|q| t < q)
        {
            *queued = Some(t);
            self.queue.push(t, Event::Timer { flow, side });
        }
    }

    /// A `Timer` event for `side` popped at `now`: is the socket's timer due?
    /// If not, the entry was superseded by an earlier one, or the deadline
    /// moved later and is queued again here.
    #[inline]
    pub(super) fn timer_due(&mut self, now: SimTime, flow: u16, side: Side) -> bool {
        let f = &mut self.flows[flow as usize];
        if f.timer_queued[slot(side)] != Some(now) {
            return false;
        }
        f.timer_queued[slot(side)] = None;
        match f.socket(side).poll_timeout() {
            Some(t) if t <= now => true,
            Some(later) => {
                f.timer_queued[slot(side)] = Some(later);
                self.queue.push(later, Event::Timer { flow, side });
                false
            }
            None => false,
        }
    }

    /// Receive offload (GRO) at `to`: whether the next segment its link
    /// delivers continues the skb `seg` is in: in order right after it, with
    /// data, for the same connection, within the host's `gro_window`, and
    /// the skb not yet 64 KB (`gro_max_size`); PSH and FIN end an skb
    /// (`tcp_gro_receive` flushes on them).
    fn gro_continues(&self, now: SimTime, flow: u16, to: Side, seg: &Segment) -> bool {
        let window = match to {
            Side::Client => self.hosts.0.receiver.gro_window,
            Side::Server => self.hosts.1.receiver.gro_window,
        };
        if window.0 == 0 || seg.len == 0 || seg.flags.psh || seg.flags.fin {
            return false;
        }
        matches!(
            self.queue.peek_lane(arrival_lane(to)),
            Some((t, Event::Arrive { flow: f, to: t2, seg: next }))
                if *f == flow
                    && *t2 == to
                    && next.len > 0
                    && next.seq == seg.end_seq()
                    && t.since(now) <= window
                    && {
                        let fl = &self.flows[flow as usize];
                        let sock = if to == Side::Client { &fl.client } else { &fl.server };
                        sock.gro_len() + seg.len + next.len <= GRO_MAX_SIZE
                    }
        )
    }

    /// Transfer `index` of `flow` begins: on a new connection if each
    /// transfer has its own.
    pub(super) fn start_transfer(&mut self, now: SimTime, flow: u16, index: u32) {
        let connected = !self.new_connection;
        if self.new_connection {
            self.reconnect(now, flow);
        }
        let actions = self.flows[flow as usize].apps.start(index, now, connected);
        self.perform(now, flow, actions);
    }

    /// Closes the connection and opens a new one (the client sends a SYN now).
    /// Segments of the old connection still in the network reach sockets that
    /// ignore them, as a closed port's would be answered and forgotten.
    pub(super) fn reconnect(&mut self, now: SimTime, flow: u16) {
        let f = flow as usize;
        self.drops.on_reconnect(flow);
        self.opened[f] += 1;
        let n = self.opened[f];
        if self.flush_before == Some(n) {
            self.metrics.flush(now);
        }
        if self.loss_connections.is_some_and(|last| n > last) {
            self.uplink.stop_random_loss();
            self.downlink.stop_random_loss();
        }
        // The new connection starts from what the last one saved
        // (tcp_init_metrics; the kernel runs it when the handshake
        // completes, which changes nothing the cache holds).
        let (client, mut server) = open(&self.hosts, &self.flow_cc, self.seed, flow);
        let cached = self.metrics.open(n, self.hosts.1.metrics, now);
        if let Some(ssthresh) = cached.ssthresh {
            server.set_initial_ssthresh(ssthresh);
        }
        if cached.rtt_ns > 0 {
            server.set_cached_rtt(SimDuration(cached.rtt_ns), SimDuration(cached.rttvar_ns));
        }
        let fl = &mut self.flows[f];
        fl.earlier.0 += fl.client.app_received();
        fl.earlier.1 += fl.server.info().total_retrans;
        fl.client = client;
        fl.server = server;
        fl.timer_queued = [None, None];
        fl.held = [false, false];
        for (w, wake) in fl.writers.iter_mut().flatten() {
            // A new connection starts with nothing half-written.
            *w = ChunkedWriter::new(w.config());
            *wake = None;
        }
        fl.apps.on_reconnect();
        self.pump(now, flow, Side::Client);
    }

    /// The server closes connection `flow`'s current connection, whose
    /// transfer has just completed: `tcp_update_metrics`. The model closes
    /// when the client has read the last byte, without the FIN exchange, so
    /// the server's state lacks the ACKs of the last half round trip.
    pub(super) fn close(&mut self, now: SimTime, flow: u16) {
        let f = flow as usize;
        let closing = self.flows[f].server.closing();
        self.metrics
            .save(self.opened[f], &closing, self.hosts.1.metrics, now);
    }

    /// Each flow's `TCP_INFO`-like reading, as iperf3 takes it every interval.
    pub(super) fn sample(&mut self, now: SimTime) {
        for (i, f) in self.flows.iter().enumerate() {
            self.trace.set_flow(i as u16);
            let info = f.server.info();
            self.trace.push(
                now,
                TraceEvent::Sample {
                    // Totals over the flow's connections, as the trace
                    // promises (a new connection counts from 0 again).
                    delivered: f.earlier.0 + f.client.app_received(),
                    info: TcpInfo {
                        total_retrans: f.earlier.1 + info.total_retrans,
                        ..info
                    },
                    client: f.client.recv_info(),
                    client_send: f.client.send_info(),
                    server_recv: f.server.recv_info(),
                },
            );
        }
    }

    pub(super) fn finished(&self) -> bool {
        self.flows.iter().all(|f| f.apps.finished())
    }

    /// The first host (flow by flow, client first) that gave its connection
    /// up, and the limit that made it.
    pub(super) fn gave_up(&self) -> Option<(Side, GiveUp)> {
        self.flows.iter().find_map(|f| {
            let side = |s: Side, sock: &crate::tcp::Socket| sock.gave_up().map(|r| (s, r));
            side(Side::Client, &f.client).or_else(|| side(Side::Server, &f.server))
        })
    }
}

/// What the handshake settles: window scaling is used only when both SYNs
/// offer it (RFC 7323 §2.2); otherwise both sides advertise unscaled windows.
fn negotiate_options(scenario: &Scenario) -> Scenario {
    let mut s = scenario.clone();
    if !(s.client.receiver.window_scaling && s.server.receiver.window_scaling) {
        s.client.receiver.wscale = 0;
        s.server.receiver.wscale = 0;
    }
    // SACK likewise needs SACK-permitted in both SYNs (RFC 2018 §2).
    let sack = s.client.sender.sack && s.server.sender.sack;
    s.client.sender.sack = sack;
    s.server.sender.sack = sack;
    s
}
