//! The world: one or more connections (two sockets and their applications
//! each), a bottleneck link each way that all of them share, and the event
//! loop that moves segments between them.
//!
//! ```text
//!   client socket ──► link (client→server) ──► server socket
//!        ▲                                          │
//!        └──────── link (server→client) ◄───────────┘
//! ```
//!
//! Hosts take no time to process a segment; only links and timers advance time.

use crate::app::{Action, AppState};
use crate::config::ChunkedWrites;
use crate::config::{ConfigError, Scenario};
use crate::event_queue::EventQueue;
use crate::link::{Admission, Link, LinkConfig, LinkStats};
use crate::segment::{Segment, Side};
use crate::tcp::Socket;
use crate::tcp::metrics::TcpMetrics;
use crate::time::SimTime;
use crate::trace::{Trace, TraceEvent};
use crate::writer::{ChunkedWriter, Step};

/// Ceiling on events per run, far above any scenario the book uses, so that a
/// pathological setting ends with a message instead of hanging a browser tab.
pub const MAX_EVENTS: u64 = 20_000_000;

enum Event {
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

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The client read the whole response (every flow's) at this time.
    Completed { at: SimTime },
    /// The scenario's time limit passed first.
    TimeLimit { at: SimTime },
    /// The event budget ran out ([`MAX_EVENTS`]).
    EventLimit { at: SimTime },
    /// A host gave the connection up (tcp_retries2 exhausted).
    Aborted { at: SimTime },
}

impl Outcome {
    /// When the run ended.
    pub fn at(&self) -> SimTime {
        match *self {
            Outcome::Completed { at }
            | Outcome::TimeLimit { at }
            | Outcome::EventLimit { at }
            | Outcome::Aborted { at } => at,
        }
    }

    pub fn completed_at(&self) -> Option<SimTime> {
        match self {
            Outcome::Completed { at } => Some(*at),
            _ => None,
        }
    }
}

/// Everything a run produced.
pub struct RunResult {
    pub scenario: Scenario,
    pub trace: Trace,
    pub outcome: Outcome,
    pub events: u64,
    /// Server → client (the data direction in a download).
    pub downlink: LinkStats,
    pub uplink: LinkStats,
    /// The server's tcp_metrics cache for the client at the end.
    pub tcp_metrics: TcpMetrics,
}

/// One connection and the two applications using it.
struct Flow {
    client: Socket,
    server: Socket,
    /// The earliest `Timer` event queued for each side. A deadline that moves
    /// later (the RTO, on every ACK) leaves that event queued; when it pops
    /// early it is queued again for the deadline then in force. One heap entry
    /// per expiry instead of one per ACK: re-arming on every move made a third
    /// of all events superseded timers.
    timer_queued: [Option<SimTime>; 2],
    /// Whether each side's last pump ended with a small segment held back
    /// (Nagle or cork), so a hold is recorded once, when it begins.
    held: [bool; 2],
    apps: AppState,
    /// Each side's RPC-framework writer, if the scenario has one, and the
    /// time of its queued wake-up.
    writers: [Option<(ChunkedWriter, Option<SimTime>)>; 2],
}

struct World {
    queue: EventQueue<Event>,
    flows: Vec<Flow>,
    uplink: Link,
    downlink: Link,
    trace: Trace,
    next_id: u64,
    /// Bytes of one response, for the transfer records.
    app_bytes: u64,
    /// Settings for new sockets (after the handshake's negotiation).
    hosts: (crate::config::HostConfig, crate::config::HostConfig),
    new_connection: bool,
    /// The server's tcp_metrics cache: one per destination, so every flow
    /// (all to the same client) shares it.
    metrics: TcpMetrics,
    seed: u64,
}

fn slot(side: Side) -> usize {
    match side {
        Side::Client => 0,
        Side::Server => 1,
    }
}

impl Flow {
    fn new(client: Socket, server: Socket, app: &crate::config::RequestResponse) -> Self {
        let writer = |w: Option<ChunkedWrites>| w.map(|w| (ChunkedWriter::new(w), None));
        Flow {
            client,
            server,
            timer_queued: [None, None],
            held: [false, false],
            apps: AppState::new(app.clone()),
            writers: [writer(app.client_writes), writer(app.server_writes)],
        }
    }

    fn socket(&mut self, side: Side) -> &mut Socket {
        match side {
            Side::Client => &mut self.client,
            Side::Server => &mut self.server,
        }
    }
}

/// Sockets for one connection; each flow's algorithm gets its own seed so
/// that parallel BBR flows do not start their gain cycles in lockstep.
fn open(
    hosts: &(crate::config::HostConfig, crate::config::HostConfig),
    seed: u64,
    flow: u16,
) -> (Socket, Socket) {
    let mut server = hosts.1.clone();
    server
        .sender
        .congestion_control
        .reseed(seed.wrapping_mul(0x9E37_79B9).wrapping_add(flow as u64));
    (Socket::connect(&hosts.0), Socket::listen(&server))
}

impl World {
    /// Sends everything `side` of `flow` is ready to send, then re-arms its timer.
    fn pump(&mut self, now: SimTime, flow: u16, side: Side) {
        self.trace.set_flow(flow);
        let f = flow as usize;
        while let Some((mut seg, flight, retransmit)) =
            self.flows[f].socket(side).poll_transmit(now)
        {
            seg.id = self.next_id;
            seg.ts_val = now.0;
            self.next_id += 1;
            // Each link delivers in the order it accepts (FIFO, fixed delay),
            // so its arrivals can wait in their own in-order lane.
            let (link, lane) = match side {
                Side::Client => (&mut self.uplink, 0),
                Side::Server => (&mut self.downlink, 1),
            };
            let (departs, arrives) = match link.offer(now, seg.wire_bytes()) {
                Admission::Accepted { departs, arrives } => (Some(departs), Some(arrives)),
                Admission::Dropped => (None, None),
            };
            self.trace.push(
                now,
                TraceEvent::SegmentSent {
                    seg,
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
                        seg,
                    },
                ),
                None => self.trace.push(now, TraceEvent::SegmentDropped { seg }),
            }
        }
        let held = self.flows[f].socket(side).held();
        if held.is_some() != self.flows[f].held[slot(side)] {
            self.flows[f].held[slot(side)] = held.is_some();
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
        let wanted = self.flows[f].socket(side).poll_timeout();
        let queued = &mut self.flows[f].timer_queued[slot(side)];
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
    fn timer_due(&mut self, now: SimTime, flow: u16, side: Side) -> bool {
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

    /// Closes the connection and opens a new one (the client sends a SYN now).
    /// Segments of the old connection still in the network reach sockets that
    /// ignore them, as a closed port's would be answered and forgotten.
    fn reconnect(&mut self, now: SimTime, flow: u16) {
        let f = flow as usize;
        // The server closes: tcp_update_metrics; the next connection starts
        // from what was saved (tcp_init_metrics).
        self.metrics
            .save(&self.flows[f].server.closing(), self.hosts.1.metrics, now);
        let (client, mut server) = open(&self.hosts, self.seed, flow);
        if let Some(ssthresh) = self.metrics.initial_ssthresh(self.hosts.1.metrics) {
            server.set_initial_ssthresh(ssthresh);
        }
        let fl = &mut self.flows[f];
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

    /// Carries out what the applications of `flow` decided.
    fn perform(&mut self, now: SimTime, flow: u16, actions: Vec<Action>) {
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
                Action::Complete { index, started } => self.trace.push(
                    now,
                    TraceEvent::TransferComplete {
                        index,
                        bytes: self.app_bytes,
                        started,
                    },
                ),
            }
        }
    }

    /// One `write()` call by `side`'s application, and whatever TCP sends at once.
    fn write(&mut self, now: SimTime, flow: u16, side: Side, bytes: u64, more: bool) {
        self.trace.set_flow(flow);
        // Disjoint fields, borrowed directly: moving the trace out and back
        // with `mem::take` copied it twice per call.
        self.flows[flow as usize]
            .socket(side)
            .app_write(now, bytes, more, &mut self.trace);
        self.pump(now, flow, side);
    }

    /// Lets `side`'s chunked writer make every `write()` it can at `now`, and
    /// queues its wake-up for the next chunk.
    fn drive_writer(&mut self, now: SimTime, flow: u16, side: Side) {
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

    /// Each flow's `TCP_INFO`-like reading, as iperf3 takes it every interval.
    fn sample(&mut self, now: SimTime) {
        for (i, f) in self.flows.iter().enumerate() {
            self.trace.set_flow(i as u16);
            self.trace.push(
                now,
                TraceEvent::Sample {
                    delivered: f.client.app_received(),
                    info: f.server.info(),
                    client: f.client.recv_info(),
                },
            );
        }
    }

    fn finished(&self) -> bool {
        self.flows.iter().all(|f| f.apps.finished())
    }

    fn aborted(&self) -> bool {
        self.flows
            .iter()
            .any(|f| f.client.is_aborted() || f.server.is_aborted())
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

/// Runs a scenario to completion (or to its time limit).
pub fn run(scenario: &Scenario) -> Result<RunResult, ConfigError> {
    let mut sim = Simulation::new(scenario)?;
    while !sim.advance(u64::MAX) {}
    Ok(sim.finish())
}

/// A run in progress, advanced a slice at a time so that a browser can keep
/// drawing frames between slices (one `run` of a long scenario would freeze
/// the page). Slicing changes nothing: any sequence of `advance` calls gives
/// the same trace as [`run`].
pub struct Simulation {
    w: World,
    scenario: Scenario,
    limit: SimTime,
    now: SimTime,
    events: u64,
    outcome: Option<Outcome>,
    progress: f64,
}

impl Simulation {
    pub fn new(scenario: &Scenario) -> Result<Simulation, ConfigError> {
        scenario.validate()?;
        let negotiated = negotiate_options(scenario);
        let p = &scenario.path;
        let hosts = (negotiated.client.clone(), negotiated.server.clone());
        let flows = (0..scenario.flows as u16)
            .map(|i| {
                let (client, server) = open(&hosts, scenario.seed, i);
                Flow::new(client, server, &scenario.app)
            })
            .collect();
        let mut w = World {
            queue: EventQueue::new(),
            flows,
            uplink: Link::new(LinkConfig {
                rate_bps: p.rate_bps,
                delay: p.delay_forward,
                queue_bytes: p.queue_bytes,
                loss: p.loss,
                loss_until: p.loss_until.map(|d| SimTime::ZERO + d),
                seed: scenario.seed.wrapping_mul(2),
            }),
            downlink: Link::new(LinkConfig {
                rate_bps: p.rate_bps,
                delay: p.delay_reverse,
                queue_bytes: p.queue_bytes,
                loss: p.loss,
                loss_until: p.loss_until.map(|d| SimTime::ZERO + d),
                seed: scenario.seed.wrapping_mul(2).wrapping_add(1),
            }),
            trace: Trace::with_packet_budget(scenario.trace_packet_budget),
            next_id: 0,
            app_bytes: scenario.app.response_bytes(),
            hosts,
            new_connection: scenario.app.new_connection,
            metrics: TcpMetrics::default(),
            seed: scenario.seed,
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
        Ok(Simulation {
            w,
            scenario: scenario.clone(),
            limit: SimTime::ZERO + scenario.time_limit,
            now,
            events: 0,
            outcome: None,
            progress: 0.0,
        })
    }

    /// Simulated time reached so far.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Events the model has acted on so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// How the run ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// A rough share of the run done, 0 to 1, for a progress bar: the larger
    /// of the share of the time limit passed and of the response bytes read.
    /// Never goes down (a new connection per transfer restarts the socket's
    /// byte count, not the bar).
    pub fn progress(&self) -> f64 {
        if self.outcome.is_some() {
            1.0
        } else {
            self.progress
        }
    }

    fn measure_progress(&self) -> f64 {
        let by_time = self.now.0 as f64 / self.limit.0.max(1) as f64;
        let total = self.scenario.app.response_bytes()
            * self.scenario.app.repeat.max(1) as u64
            * self.scenario.flows as u64;
        let read: u64 = self.w.flows.iter().map(|f| f.client.app_received()).sum();
        let by_bytes = if total > 0 {
            read as f64 / total as f64
        } else {
            0.0
        };
        by_time.max(by_bytes).clamp(0.0, 1.0).max(self.progress)
    }

    /// Acts on up to `max_events` more events; true once the run has ended.
    pub fn advance(&mut self, max_events: u64) -> bool {
        if self.outcome.is_some() {
            return true;
        }
        let stop = self.events.saturating_add(max_events);
        let w = &mut self.w;
        let scenario = &self.scenario;
        let limit = self.limit;
        let outcome = loop {
            if self.events >= stop {
                self.progress = self.measure_progress();
                return false;
            }
            let Some((t, event)) = w.queue.pop() else {
                // Nothing left to happen (cannot occur while a timer is armed).
                break Outcome::TimeLimit { at: self.now };
            };
            if t > limit {
                break Outcome::TimeLimit { at: limit };
            }
            debug_assert!(t >= self.now, "simulated time went backwards");
            self.now = t;
            let now = t;
            let stale = match event {
                Event::Timer { flow, side } => !w.timer_due(now, flow, side),
                Event::AppWrite { flow, side } => {
                    let writer = &mut w.flows[flow as usize].writers[slot(side)];
                    match writer {
                        Some((_, wake)) if *wake == Some(now) => {
                            *wake = None;
                            false
                        }
                        _ => true,
                    }
                }
                _ => false,
            };
            if stale {
                continue; // queue bookkeeping, not an event of the model
            }
            self.events += 1;
            if self.events > MAX_EVENTS {
                break Outcome::EventLimit { at: now };
            }
            let (flow, side) = match event {
                Event::Arrive { flow, to, seg } => {
                    w.trace.set_flow(flow);
                    w.trace.push(now, TraceEvent::SegmentReceived { to, seg });
                    w.flows[flow as usize]
                        .socket(to)
                        .handle_segment(now, &seg, &mut w.trace);
                    (flow, to)
                }
                Event::AppStart { flow, index } => {
                    let connected = !w.new_connection;
                    if w.new_connection {
                        w.reconnect(now, flow);
                    }
                    let actions = w.flows[flow as usize].apps.start(index, now, connected);
                    w.perform(now, flow, actions);
                    continue;
                }
                Event::Sample => {
                    w.sample(now);
                    w.queue.push(now + scenario.sample_interval, Event::Sample);
                    continue;
                }
                Event::AppWrite { flow, side } => {
                    w.drive_writer(now, flow, side);
                    (flow, side)
                }
                Event::Timer { flow, side } => {
                    w.trace.set_flow(flow);
                    w.flows[flow as usize]
                        .socket(side)
                        .handle_timeout(now, &mut w.trace);
                    (flow, side)
                }
            };
            let f = &mut w.flows[flow as usize];
            let actions = f.apps.poll(now, &f.client, &f.server);
            w.perform(now, flow, actions);
            if w.finished() {
                break Outcome::Completed { at: now };
            }
            if w.aborted() {
                break Outcome::Aborted { at: now };
            }
            w.pump(now, flow, side);
            w.pump(now, flow, side.peer());
            // An ACK may have made room for a blocked chunked write.
            for s in [Side::Client, Side::Server] {
                if w.flows[flow as usize].writers[slot(s)].is_some() {
                    w.drive_writer(now, flow, s);
                }
            }
        };
        // A last reading however the run ended, so reports see the final totals.
        w.sample(outcome.at());
        self.outcome = Some(outcome);
        true
    }

    /// The finished run (simulating whatever is left first).
    pub fn finish(mut self) -> RunResult {
        while !self.advance(u64::MAX) {}
        let outcome = self.outcome.expect("advance ran to the end");
        RunResult {
            scenario: self.scenario,
            trace: self.w.trace,
            outcome,
            events: self.events,
            downlink: self.w.downlink.stats().clone(),
            uplink: self.w.uplink.stats().clone(),
            tcp_metrics: self.w.metrics,
        }
    }
}
