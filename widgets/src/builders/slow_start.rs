//! The slow-start widget's inputs and the scenario they make: one response
//! on a new connection.

use sim_core::config::{PathConfig, Scenario};
use sim_core::time::SimDuration;

/// The slow-start widget's inputs, in base units (ns, bit/s, bytes, segments).
#[derive(Clone, Debug, PartialEq)]
pub struct SlowStartParams {
    pub rtt_ns: f64,
    pub bandwidth_bps: f64,
    pub mss: f64,
    pub initcwnd: f64,
    pub size: f64,
    pub rwnd: f64,
    pub rcvbuf: f64,
}

impl SlowStartParams {
    /// Reads the values of a widget's sliders, in `spec.params` order.
    pub fn from_values(spec: &widget_catalogue::WidgetSpec, values: &[f64]) -> Self {
        let v = |name| super::value(spec, values, name);
        SlowStartParams {
            rtt_ns: v("rtt"),
            bandwidth_bps: v("bandwidth"),
            mss: v("mss"),
            initcwnd: v("initcwnd"),
            size: v("size"),
            rwnd: v("rwnd"),
            rcvbuf: v("rcvbuf"),
        }
    }

    pub fn scenario(&self) -> Scenario {
        let mut s = Scenario {
            path: PathConfig::symmetric(self.bandwidth_bps as u64, SimDuration(self.rtt_ns as u64)),
            ..Scenario::default()
        };
        s.server.sender.mss = self.mss as u32;
        s.client.sender.mss = self.mss as u32;
        s.server.sender.initcwnd = self.initcwnd as u32;
        s.app.response = vec![self.size as u64];
        s.client.receiver.rcvbuf = self.rcvbuf as u64;
        s.client.receiver.rcvbuf_max = s.client.receiver.rcvbuf_max.max(self.rcvbuf as u64);
        // The slider sets the SYN window a client offers, but as in Linux its
        // buffer may allow less (`tcp_select_initial_window`).
        s.client.receiver.syn_window =
            (self.rwnd as u32).min(s.client.receiver.initial_window(self.mss as u32));
        s
    }
}
