//! The world: two sockets, a bottleneck link each way, an application, and the
//! event loop that moves segments between them.
//!
//! ```text
//!   client socket ──► link (client→server) ──► server socket
//!        ▲                                          │
//!        └──────── link (server→client) ◄───────────┘
//! ```
//!
//! Hosts take no time to process a segment; only links and timers advance time.

use crate::app::{Action, AppState};
use crate::config::{ConfigError, Scenario};
use crate::event_queue::EventQueue;
use crate::link::{Admission, Link, LinkConfig, LinkStats};
use crate::segment::{Segment, Side};
use crate::tcp::Socket;
use crate::tcp::metrics::TcpMetrics;
use crate::time::SimTime;
use crate::trace::{Trace, TraceEvent};

/// Ceiling on events per run, far above any scenario the book uses, so that a
/// pathological setting ends with a message instead of hanging a browser tab.
pub const MAX_EVENTS: u64 = 20_000_000;

enum Event {
    Arrive {
        to: Side,
        seg: Segment,
    },
    Timer {
        side: Side,
    },
    /// The applications start transfer `index`.
    AppStart {
        index: u32,
    },
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The client read the whole response at this time.
    Completed { at: SimTime },
    /// The scenario's time limit passed first.
    TimeLimit { at: SimTime },
    /// The event budget ran out ([`MAX_EVENTS`]).
    EventLimit { at: SimTime },
    /// A host gave the connection up (tcp_retries2 exhausted).
    Aborted { at: SimTime },
}

impl Outcome {
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

struct World {
    queue: EventQueue<Event>,
    client: Socket,
    server: Socket,
    uplink: Link,
    downlink: Link,
    timer_at: [Option<SimTime>; 2],
    trace: Trace,
    next_id: u64,
    apps: AppState,
    /// Bytes of one response, for the transfer records.
    app_bytes: u64,
    /// Settings for new sockets (after the handshake's negotiation).
    hosts: (crate::config::HostConfig, crate::config::HostConfig),
    new_connection: bool,
    metrics: TcpMetrics,
}

fn slot(side: Side) -> usize {
    match side {
        Side::Client => 0,
        Side::Server => 1,
    }
}

impl World {
    fn socket(&mut self, side: Side) -> &mut Socket {
        match side {
            Side::Client => &mut self.client,
            Side::Server => &mut self.server,
        }
    }

    /// Sends everything `side` is ready to send, then re-arms its timer.
    fn pump(&mut self, now: SimTime, side: Side) {
        while let Some((mut seg, flight, retransmit)) = self.socket(side).poll_transmit(now) {
            seg.id = self.next_id;
            self.next_id += 1;
            let link = match side {
                Side::Client => &mut self.uplink,
                Side::Server => &mut self.downlink,
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
                Some(at) => self.queue.push(
                    at,
                    Event::Arrive {
                        to: side.peer(),
                        seg,
                    },
                ),
                None => self.trace.push(now, TraceEvent::SegmentDropped { seg }),
            }
        }
        let wanted = self.socket(side).poll_timeout();
        if let Some(t) = wanted
            && self.timer_at[slot(side)] != Some(t)
        {
            self.timer_at[slot(side)] = Some(t);
            self.queue.push(t, Event::Timer { side });
        }
    }

    /// Closes the connection and opens a new one (the client sends a SYN now).
    /// Segments of the old connection still in the network reach sockets that
    /// ignore them, as a closed port's would be answered and forgotten.
    fn reconnect(&mut self, now: SimTime) {
        // The server closes: tcp_update_metrics; the next connection starts
        // from what was saved (tcp_init_metrics).
        self.metrics
            .save(&self.server.closing(), self.hosts.1.metrics, now);
        self.client = Socket::connect(&self.hosts.0);
        self.server = Socket::listen(&self.hosts.1);
        if let Some(ssthresh) = self.metrics.initial_ssthresh(self.hosts.1.metrics) {
            self.server.set_initial_ssthresh(ssthresh);
        }
        self.timer_at = [None, None];
        self.apps.on_reconnect();
        self.pump(now, Side::Client);
    }

    /// Carries out what the applications decided.
    fn perform(&mut self, now: SimTime, actions: Vec<Action>) {
        for action in actions {
            match action {
                Action::Write { side, bytes, more } => {
                    let mut trace = std::mem::take(&mut self.trace);
                    self.socket(side).app_write(now, bytes, more, &mut trace);
                    self.trace = trace;
                    self.pump(now, side);
                }
                Action::StartLater { index, at } => self.queue.push(at, Event::AppStart { index }),
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
}

/// What the handshake settles: window scaling is used only when both SYNs
/// offer it (RFC 7323 §2.2); otherwise both sides advertise unscaled windows.
fn negotiate_options(scenario: &Scenario) -> Scenario {
    let mut s = scenario.clone();
    if !(s.client.receiver.window_scaling && s.server.receiver.window_scaling) {
        s.client.receiver.wscale = 0;
        s.server.receiver.wscale = 0;
    }
    s
}

/// Runs a scenario to completion (or to its time limit).
pub fn run(scenario: &Scenario) -> Result<RunResult, ConfigError> {
    scenario.validate()?;
    let negotiated = negotiate_options(scenario);
    let p = &scenario.path;
    let mut w = World {
        queue: EventQueue::new(),
        client: Socket::connect(&negotiated.client),
        server: Socket::listen(&negotiated.server),
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
        timer_at: [None, None],
        trace: Trace::with_packet_budget(scenario.trace_packet_budget),
        next_id: 0,
        apps: AppState::new(scenario.app.clone()),
        app_bytes: scenario.app.response_bytes(),
        hosts: (negotiated.client.clone(), negotiated.server.clone()),
        new_connection: scenario.app.new_connection,
        metrics: TcpMetrics::default(),
    };
    let limit = SimTime::ZERO + scenario.time_limit;
    let mut now = SimTime::ZERO;
    if w.new_connection {
        // With a connection per exchange, the first exchange starts at connect.
        let actions = w.apps.start(0, now, false);
        w.perform(now, actions);
    }
    w.pump(now, Side::Client);
    let mut events = 0u64;
    let outcome = loop {
        let Some((t, event)) = w.queue.pop() else {
            // Nothing left to happen (cannot occur while a timer is armed).
            break Outcome::TimeLimit { at: now };
        };
        if t > limit {
            break Outcome::TimeLimit { at: limit };
        }
        debug_assert!(t >= now, "simulated time went backwards");
        now = t;
        events += 1;
        if events > MAX_EVENTS {
            break Outcome::EventLimit { at: now };
        }
        let side = match event {
            Event::Arrive { to, seg } => {
                w.trace.push(now, TraceEvent::SegmentReceived { to, seg });
                let mut trace = std::mem::take(&mut w.trace);
                w.socket(to).handle_segment(now, &seg, &mut trace);
                w.trace = trace;
                to
            }
            Event::AppStart { index } => {
                let connected = !w.new_connection;
                if w.new_connection {
                    w.reconnect(now);
                }
                let actions = w.apps.start(index, now, connected);
                w.perform(now, actions);
                continue;
            }
            Event::Timer { side } => {
                if w.timer_at[slot(side)] != Some(now) {
                    continue; // superseded by a later re-arm
                }
                w.timer_at[slot(side)] = None;
                let mut trace = std::mem::take(&mut w.trace);
                w.socket(side).handle_timeout(now, &mut trace);
                w.trace = trace;
                side
            }
        };
        let actions = w.apps.poll(now, &w.client, &w.server);
        w.perform(now, actions);
        if w.apps.finished() {
            break Outcome::Completed { at: now };
        }
        if w.client.is_aborted() || w.server.is_aborted() {
            break Outcome::Aborted { at: now };
        }
        w.pump(now, side);
        w.pump(now, side.peer());
    };
    Ok(RunResult {
        scenario: scenario.clone(),
        trace: w.trace,
        outcome,
        events,
        downlink: w.downlink.stats().clone(),
        uplink: w.uplink.stats().clone(),
        tcp_metrics: w.metrics,
    })
}
