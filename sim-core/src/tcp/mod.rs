//! One TCP endpoint, modelled on Linux: the socket state machine and the
//! pieces it is built from.

pub mod ack_flags;
pub mod ack_policy;
pub mod fack;
pub mod frto;
pub mod give_up;
pub mod idle_restart;
pub mod info;
pub mod metrics;
pub mod no_socket;
pub mod ooo_queue;
pub mod pacing;
pub mod push;
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
pub mod write_queue;

pub use give_up::GiveUp;
pub use socket::{Hold, Socket};
