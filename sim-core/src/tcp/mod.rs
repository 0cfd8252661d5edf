//! One TCP endpoint, modelled on Linux: the socket state machine and the
//! pieces it is built from.

pub mod ack_flags;
pub mod ack_policy;
pub mod frto;
pub mod idle_restart;
pub mod info;
pub mod metrics;
pub mod ooo_queue;
pub mod pacing;
pub mod rack;
pub mod rate;
pub mod reader;
pub mod receive_window;
pub mod recovery;
pub mod rtt;
pub mod scoreboard;
pub mod send_buffer;
pub mod send_order;
mod socket;
pub mod tlp;

pub use socket::{Hold, Socket};
