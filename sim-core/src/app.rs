//! The applications on the two hosts: a client that sends requests and a
//! server that answers them, possibly several times with idle gaps between.
//!
//! ```text
//!  transfer k starts (at connect, then every `gap`, or `think` after k-1 completed)
//!    request non-empty: client writes the request ─► server, once it has all
//!                       of it, writes the response
//!    request empty:     server writes the response at once (a push)
//!  transfer k completes when the client has read its whole response
//! ```
//!
//! The state machine only decides; the world performs the writes (pumping TCP
//! after each, as a real application's separate `write()` calls would) and
//! schedules the next start.

use crate::config::{Pacing, RequestResponse};
use crate::segment::Side;
use crate::tcp::Socket;
use crate::time::SimTime;

/// Something the world must do for the applications.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `more`: further writes of the same message follow (what TCP_CORK or
    /// MSG_MORE let TCP know).
    Write { side: Side, bytes: u64, more: bool },
    /// Start transfer `index` at `at`.
    StartLater { index: u32, at: SimTime },
    /// Transfer `index`, started at `started`, has been read in full.
    Complete { index: u32, started: SimTime },
}

#[derive(Clone)]
pub struct AppState {
    cfg: RequestResponse,
    started: Vec<SimTime>,
    responded: u32,
    done: u32,
    /// A transfer has started but its connection is still being set up.
    awaiting_connection: bool,
    /// `responded` and `done` when the current connection was opened: byte
    /// counts restart with each connection.
    resp_base: u32,
    done_base: u32,
    /// A transfer due on a new connection while the last one still runs:
    /// the model has one connection per flow, so it waits for that one to
    /// complete (a client with one worker).
    deferred: Option<u32>,
}

impl AppState {
    pub fn new(cfg: RequestResponse) -> Self {
        AppState {
            cfg,
            started: Vec::new(),
            responded: 0,
            done: 0,
            awaiting_connection: false,
            resp_base: 0,
            done_base: 0,
            deferred: None,
        }
    }

    /// A transfer has started and not yet been read in full.
    pub fn busy(&self) -> bool {
        self.done < self.started.len() as u32
    }

    /// Holds transfer `index` until the one in progress completes.
    pub fn defer(&mut self, index: u32) {
        self.deferred = Some(index);
    }

    /// The transfer held by [`AppState::defer`], once nothing is in progress.
    pub fn take_deferred(&mut self) -> Option<u32> {
        if self.busy() {
            return None;
        }
        self.deferred.take()
    }

    /// Every transfer has completed.
    pub fn finished(&self) -> bool {
        self.done >= self.cfg.repeat
    }

    /// Which host writes first: the client if there is a request, else the server.
    fn first_writer(&self) -> Side {
        if self.cfg.request.is_empty() {
            Side::Server
        } else {
            Side::Client
        }
    }

    fn writes(side: Side, parts: &[u64]) -> impl Iterator<Item = Action> + '_ {
        let n = parts.len();
        parts
            .iter()
            .enumerate()
            .map(move |(i, &bytes)| Action::Write {
                side,
                bytes,
                more: i + 1 < n,
            })
    }

    /// Transfer `index` begins now; its first write waits if its connection is
    /// not `connected` yet (a new connection per transfer).
    pub fn start(&mut self, index: u32, now: SimTime, connected: bool) -> Vec<Action> {
        debug_assert_eq!(
            index as usize,
            self.started.len(),
            "transfers start in order"
        );
        self.started.push(now);
        let mut actions = Vec::new();
        if let Pacing::Every(gap) = self.cfg.pacing
            && index + 1 < self.cfg.repeat
        {
            actions.push(Action::StartLater {
                index: index + 1,
                at: now + gap,
            });
        }
        if connected {
            actions.extend(self.first_writes());
        } else {
            self.awaiting_connection = true;
        }
        actions
    }

    /// The writes that open a transfer: the request, or the pushed response.
    fn first_writes(&mut self) -> Vec<Action> {
        if self.cfg.request.is_empty() {
            self.responded += 1;
            Self::writes(Side::Server, &self.cfg.response).collect()
        } else {
            Self::writes(Side::Client, &self.cfg.request).collect()
        }
    }

    /// A new connection replaces the old one: its byte counts start from zero.
    pub fn on_reconnect(&mut self) {
        self.resp_base = self.responded;
        self.done_base = self.done;
    }

    /// What the applications do in reaction to the sockets' state now.
    pub fn poll(&mut self, now: SimTime, client: &Socket, server: &Socket) -> Vec<Action> {
        let mut actions = Vec::new();
        let ready = match self.first_writer() {
            Side::Client => client.is_established(),
            Side::Server => server.is_established(),
        };
        if self.started.is_empty() && ready {
            actions.extend(self.start(0, now, true));
        } else if self.awaiting_connection && ready {
            self.awaiting_connection = false;
            actions.extend(self.first_writes());
        }
        let request = self.cfg.request_bytes();
        while !self.cfg.request.is_empty()
            && self.responded < self.started.len() as u32
            && server.app_received() >= request * ((self.responded - self.resp_base) as u64 + 1)
        {
            self.responded += 1;
            actions.extend(Self::writes(Side::Server, &self.cfg.response));
        }
        let response = self.cfg.response_bytes();
        while self.done < self.responded
            && client.app_received() >= response * ((self.done - self.done_base) as u64 + 1)
        {
            actions.push(Action::Complete {
                index: self.done,
                started: self.started[self.done as usize],
            });
            self.done += 1;
            if let Pacing::After(think) = self.cfg.pacing
                && self.done < self.cfg.repeat
            {
                actions.push(Action::StartLater {
                    index: self.done,
                    at: now + think,
                });
            }
        }
        actions
    }
}
