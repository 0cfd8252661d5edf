//! What held each exchange of a request loop: Nagle's hold on a sender, a
//! receiver's delayed-ACK timer that ran out, both, or nothing. Read off
//! the ladder's countdowns (the trace's `SendHeld` and `DelayedAckArmed`
//! records), and drawn under "Details" as one bar per exchange, its length
//! the exchange's time and its colour the reason:
//!
//! ```text
//!   1st  ▇              nagle        (held one round trip, for a quick ACK)
//!   2nd  ▇▇▇▇▇▇▇▇▇▇▇▇   both         (held until the 40 ms timer ran out)
//! ```

use crate::series::ladder::{CountdownKind, Ending, Timer};
use crate::units::TimeUnit;
use sim_core::analysis::TransferTiming;
use yew::{Html, html};

/// What held one exchange.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    Nothing,
    /// A sub-MSS segment waited for an ACK (`tcp_nagle_check`).
    Nagle,
    /// A delayed-ACK timer ran to its deadline (`tcp_delack_timer`).
    DelayedAck,
    Both,
}

impl Held {
    /// The name the page's CSS and tests read (`data-held`).
    pub fn name(self) -> &'static str {
        match self {
            Held::Nothing => "none",
            Held::Nagle => "nagle",
            Held::DelayedAck => "delayed-ack",
            Held::Both => "both",
        }
    }
}

/// For each exchange, the holds and timers that began within it. A timer a
/// reply or a second segment cancelled held nothing; a hold counts however
/// it ended (the ACK, or enough data).
pub fn held(transfers: &[TransferTiming], timers: &[Timer]) -> Vec<Held> {
    transfers
        .iter()
        .map(|t| {
            let within = |timer: &&Timer| {
                t.started.0 <= timer.start_ns && timer.start_ns < t.finished.0
            };
            let nagle = timers
                .iter()
                .filter(within)
                .any(|x| x.kind == CountdownKind::Nagle);
            let delack = timers
                .iter()
                .filter(within)
                .any(|x| x.kind == CountdownKind::DelayedAck && x.ending == Ending::Fired);
            match (nagle, delack) {
                (true, true) => Held::Both,
                (true, false) => Held::Nagle,
                (false, true) => Held::DelayedAck,
                (false, false) => Held::Nothing,
            }
        })
        .collect()
}

/// One bar per exchange, as wide as its time against the slowest.
pub fn bars(transfers: &[TransferTiming], timers: &[Timer]) -> Html {
    let longest = transfers.iter().map(|t| t.duration().0).max().unwrap_or(0).max(1);
    // One element each (the bar is its CSS `::before`, `--w` long): the
    // bundle pays for every element a view builds.
    let rows = transfers.iter().zip(held(transfers, timers)).map(|(t, h)| {
        let d = t.duration().0;
        let width = format!("--w:{}%", (d * 100 / longest).max(1));
        html! { <li data-held={h.name()} style={width}>{ TimeUnit::Ms.format(d as f64, 2) }</li> }
    });
    html! { <ol class="tw-exchanges" data-readout="exchanges">{ for rows }</ol> }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::time::SimTime;

    fn timer(kind: CountdownKind, start_ns: u64, ending: Ending) -> Timer {
        Timer {
            side: sim_core::segment::Side::Server,
            kind,
            start_ns,
            end_ns: start_ns + 10,
            deadline_ns: None,
            bytes: 0,
            ending,
        }
    }

    fn exchange(index: u32, started: u64, finished: u64) -> TransferTiming {
        TransferTiming {
            index,
            bytes: 1000,
            started: SimTime(started),
            finished: SimTime(finished),
        }
    }

    #[test]
    fn each_exchange_takes_the_holds_and_fired_timers_that_began_in_it() {
        let t = [
            exchange(0, 0, 100),
            exchange(1, 100, 200),
            exchange(2, 200, 300),
            exchange(3, 300, 400),
        ];
        let timers = [
            timer(CountdownKind::Nagle, 10, Ending::Released),
            timer(CountdownKind::Nagle, 100, Ending::Released),
            timer(CountdownKind::DelayedAck, 150, Ending::Fired),
            timer(CountdownKind::DelayedAck, 210, Ending::Fired),
            // A timer the reply cancelled held nothing; a cork is not Nagle.
            timer(CountdownKind::DelayedAck, 310, Ending::Cancelled),
            timer(CountdownKind::Cork, 320, Ending::Released),
        ];
        assert_eq!(
            held(&t, &timers),
            [Held::Nagle, Held::Both, Held::DelayedAck, Held::Nothing]
        );
    }
}
