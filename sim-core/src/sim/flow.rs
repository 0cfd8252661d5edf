//! One connection of the world: its two sockets, the applications using
//! them, and what the event loop remembers about each side.

use crate::app::AppState;
use crate::cc::Kind;
use crate::config::{ChunkedWrites, HostConfig, RequestResponse};
use crate::segment::Side;
use crate::tcp::Socket;
use crate::time::SimTime;
use crate::writer::ChunkedWriter;

/// One connection and the two applications using it.
#[derive(Clone)]
pub(super) struct Flow {
    pub(super) client: Socket,
    pub(super) server: Socket,
    /// The earliest `Timer` event queued for each side. A deadline that moves
    /// later (the RTO, on every ACK) leaves that event queued; when it pops
    /// early it is queued again for the deadline then in force. One heap entry
    /// per expiry instead of one per ACK: re-arming on every move made a third
    /// of all events superseded timers.
    pub(super) timer_queued: [Option<SimTime>; 2],
    /// Whether each side's last pump ended with a small segment held back
    /// (Nagle or cork), so a hold is recorded once, when it begins.
    pub(super) held: [bool; 2],
    pub(super) apps: AppState,
    /// Each side's RPC-framework writer, if the scenario has one, and the
    /// time of its queued wake-up.
    pub(super) writers: [Option<(ChunkedWriter, Option<SimTime>)>; 2],
    /// What the flow's earlier connections (`new_connection`) delivered to
    /// the client application and retransmitted, so its samples stay totals
    /// when a new connection's counters start from 0 again.
    pub(super) earlier: (u64, u64),
}

/// Index of `side` in a flow's per-side arrays.
pub(super) fn slot(side: Side) -> usize {
    match side {
        Side::Client => 0,
        Side::Server => 1,
    }
}

impl Flow {
    pub(super) fn new(client: Socket, server: Socket, app: &RequestResponse) -> Self {
        let writer = |w: Option<ChunkedWrites>| w.map(|w| (ChunkedWriter::new(w), None));
        Flow {
            client,
            server,
            timer_queued: [None, None],
            held: [false, false],
            apps: AppState::new(app.clone()),
            writers: [writer(app.client_writes), writer(app.server_writes)],
            earlier: (0, 0),
        }
    }

    pub(super) fn socket(&mut self, side: Side) -> &mut Socket {
        match side {
            Side::Client => &mut self.client,
            Side::Server => &mut self.server,
        }
    }
}

/// Sockets for one connection; each flow's algorithm gets its own seed so
/// that parallel BBR flows do not start their gain cycles in lockstep. A
/// per-flow algorithm (`Scenario::flow_congestion_control`) replaces the
/// server's default before the socket exists, as an application's
/// `setsockopt(TCP_CONGESTION)` on the listener does for what it accepts.
pub(super) fn open(
    hosts: &(HostConfig, HostConfig),
    flow_cc: &[Kind],
    seed: u64,
    flow: u16,
) -> (Socket, Socket) {
    let mut server = hosts.1.clone();
    if !flow_cc.is_empty() {
        server.sender.congestion_control = flow_cc[flow as usize % flow_cc.len()].algorithm();
    }
    server
        .sender
        .congestion_control
        .reseed(seed.wrapping_mul(0x9E37_79B9).wrapping_add(flow as u64));
    (Socket::connect(&hosts.0), Socket::listen(&server))
}
