//! The path between client and server: one bottleneck each way, with a
//! propagation delay, a drop-tail queue and seeded random loss.

use super::DEFAULT_QUEUE_BYTES;
use crate::time::SimDuration;

/// The path between client and server: one bottleneck each way.
#[derive(Clone, Debug, PartialEq)]
pub struct PathConfig {
    pub rate_bps: u64,
    /// Propagation delay client → server.
    pub delay_forward: SimDuration,
    /// Propagation delay server → client.
    pub delay_reverse: SimDuration,
    /// Drop-tail queue capacity in bytes, each direction.
    pub queue_bytes: u64,
    /// Probability that a packet is lost on the way, each direction (seeded).
    pub loss: f64,
    /// Random loss happens only before this time (a lossy episode); `None`: always.
    pub loss_until: Option<SimDuration>,
}

impl PathConfig {
    /// A symmetric path with the given round-trip propagation delay.
    pub fn symmetric(rate_bps: u64, rtt: SimDuration) -> Self {
        let half = SimDuration(rtt.0 / 2);
        PathConfig {
            rate_bps,
            delay_forward: half,
            delay_reverse: SimDuration(rtt.0 - half.0),
            queue_bytes: DEFAULT_QUEUE_BYTES,
            loss: 0.0,
            loss_until: None,
        }
    }

    pub fn rtt(&self) -> SimDuration {
        self.delay_forward + self.delay_reverse
    }
}
