//! The long-fat-network widget's inputs and the scenario they make: one bulk
//! flow over a long, fast path for a fixed time. The buffers' autotuning
//! ceilings default to what seed 003's author raised them to; lowering them
//! shows a buffer, not congestion control, setting the rate.

use sim_core::cc::Algorithm;
use sim_core::config::{PathConfig, Scenario};
use sim_core::time::SimDuration;
use widget_catalogue::WidgetSpec;

#[derive(Clone, Debug, PartialEq)]
pub struct LongFatParams {
    /// The congestion control module by its Linux name.
    pub cc: String,
    pub rtt_ns: f64,
    pub bandwidth_bps: f64,
    pub loss: f64,
    pub queue_bytes: f64,
    /// `tcp_wmem[2]` on the server and `tcp_rmem[2]` on the client.
    pub wmem_max: f64,
    pub rmem_max: f64,
    pub duration_ns: f64,
}

impl LongFatParams {
    pub fn from_values(spec: &WidgetSpec, values: &[f64]) -> Self {
        let v = |name| super::value(spec, values, name);
        let cc = spec
            .param("cc")
            .map_or("cubic".into(), |p| p.format(v("cc")));
        LongFatParams {
            cc,
            rtt_ns: v("rtt"),
            bandwidth_bps: v("bandwidth"),
            loss: v("loss"),
            queue_bytes: v("queue"),
            wmem_max: v("wmem"),
            rmem_max: v("rmem"),
            duration_ns: v("duration"),
        }
    }

    pub fn scenario(&self) -> Scenario {
        let mut s = Scenario {
            path: PathConfig {
                loss: self.loss,
                queue_bytes: self.queue_bytes as u64,
                ..PathConfig::symmetric(self.bandwidth_bps as u64, SimDuration(self.rtt_ns as u64))
            },
            time_limit: SimDuration(self.duration_ns as u64),
            ..Scenario::default()
        };
        // A 100-byte request, then more than the time allows (as iperf3 -t).
        s.app.request = vec![100];
        s.app.response = vec![2_000_000_000];
        let server = &mut s.server.sender;
        server.congestion_control = Algorithm::by_name(&self.cc).unwrap_or_default();
        // BBR as its authors deploy it, paced by the fq qdisc (seed 003 too).
        server.fq = self.cc == "bbr";
        sim_core::benchmarks::raise_buffers_to(&mut s, self.wmem_max as u64, self.rmem_max as u64);
        s
    }
}
