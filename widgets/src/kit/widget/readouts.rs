//! What the transport line reads at the time cursor: cwnd and the running
//! timers, per side in compare mode. Read from the finished runs' models,
//! never from the state machine's transitions (`state`).

use super::state::State;
use crate::kit::compare::SIDE_NAMES;

impl State {
    /// cwnd at the cursor, per side in compare mode ("A cwnd 10 · B cwnd 14").
    pub fn cwnd_readout(&self) -> String {
        let t = self.clock.t_ns;
        let comparing = self.compare.is_some();
        self.sides
            .iter()
            .enumerate()
            .filter_map(|(k, s)| {
                let m = s.model.as_ref()?;
                Some(if comparing {
                    format!("{} cwnd {}", SIDE_NAMES[k], m.cwnd_at(t))
                } else {
                    format!("cwnd {}", m.cwnd_at(t))
                })
            })
            .collect::<Vec<_>>()
            .join(" · ")
    }

    /// The timers at the cursor, one slot per timer any side runs at some
    /// time (`None` where it is not running now), prefixed with their side
    /// in compare mode ("A: …"). The slots stay while the cursor moves, so
    /// the line that shows them keeps its size as timers come and go.
    pub fn countdowns(&self) -> Vec<Option<String>> {
        let t = self.clock.t_ns;
        let comparing = self.compare.is_some();
        self.sides
            .iter()
            .enumerate()
            .filter_map(|(k, s)| Some((k, s.model.as_ref()?)))
            .flat_map(|(k, m)| {
                let prefix = if comparing {
                    format!("{}: ", SIDE_NAMES[k])
                } else {
                    String::new()
                };
                m.ladder
                    .timer_slots_at(t)
                    .into_iter()
                    .map(move |c| c.map(|c| format!("{prefix}{}", c.text())))
            })
            .collect()
    }
}
