//! What the applications on the two hosts do: a request and its response,
//! each a list of `write()` calls, repeated with a gap or think time, written
//! whole or through an RPC framework's transfer buffer.

use crate::time::SimDuration;

/// Request and response: the client writes the request, the server answers
/// once the whole request has arrived (with no request, the server pushes the
/// response as soon as the connection is up). Each is a list of `write()`
/// calls made back to back (an HTTP header, then its body), because where one
/// write ends decides what Nagle may hold back. The exchange happens `repeat`
/// times on the same connection, paced by [`Pacing`].
#[derive(Clone, Debug, PartialEq)]
pub struct RequestResponse {
    pub request: Vec<u64>,
    pub response: Vec<u64>,
    pub repeat: u32,
    pub pacing: Pacing,
    /// Open a new connection for each exchange (and close the last one), rather
    /// than reusing one.
    pub new_connection: bool,
    /// How each side's application hands its writes to the socket: whole
    /// (`None`), or through an RPC framework's fixed-size buffer.
    pub client_writes: Option<ChunkedWrites>,
    pub server_writes: Option<ChunkedWrites>,
    /// `ip tcp_metrics flush all` on the server just before it accepts this
    /// connection (counting from 1; with a connection per exchange).
    pub tcp_metrics_flush_before: Option<u32>,
}

/// An RPC framework's transfer buffer (seed 002's `transbuf`): every write of
/// the application reaches the socket as `write()` calls of at most `size`
/// bytes, each made `cost` after the previous one returned. See [`crate::writer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkedWrites {
    pub size: u64,
    /// The framework's work per chunk (copying, encoding, the system call).
    pub cost: SimDuration,
}

/// When the next exchange of a repeated transfer starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pacing {
    /// This long after the previous one started (a timer-driven push: write, sleep, write).
    Every(SimDuration),
    /// This long after the previous one completed (a request loop with think time).
    After(SimDuration),
}

impl RequestResponse {
    pub fn request_bytes(&self) -> u64 {
        self.request.iter().sum()
    }
    pub fn response_bytes(&self) -> u64 {
        self.response.iter().sum()
    }
}
