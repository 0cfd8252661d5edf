//! One TCP endpoint, modelled on Linux: the socket state machine and the
//! pieces it is built from.

pub mod ack_policy;
pub mod idle_restart;
pub mod metrics;
pub mod reader;
pub mod receive_window;
pub mod recovery;
pub mod rtt;
pub mod send_buffer;
mod socket;

pub use socket::Socket;
