//! What held each exchange of a request loop: Nagle's hold on a sender, a
//! receiver's delayed-ACK timer that ran out, both, or nothing. Read off
//! the ladder's countdowns (the trace's `SendHeld` and `DelayedAckArmed`
//! records), and shown in the "Transfers" readout under "Details", each
//! exchange's time marked with its reason:
//!
//! ```text
//!   1st 2.02 ms · 2nd 41.98 ms · ...
//!   nagle         both               (sky blue; blue and orange stripes)
//! ```

use super::headline::transfer_time;
use crate::series::ladder::{CountdownKind, Ending, Timer};
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
    /// The class the page's CSS and tests read.
    pub fn class(self) -> &'static str {
        match self {
            Held::Nothing => "tw-held-none",
            Held::Nagle => "tw-held-nagle",
            Held::DelayedAck => "tw-held-delayed-ack",
            Held::Both => "tw-held-both",
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
            let within =
                |timer: &&Timer| t.started.0 <= timer.start_ns && timer.start_ns < t.finished.0;
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

/// Each exchange's time ("2nd 41.98 ms"), in a span whose class says what
/// held it (`tw-held-nagle`, ...), as the flights readout marks its flights:
/// the page colours them, and the text reads as the plain list.
pub fn times(transfers: &[TransferTiming], timers: &[Timer]) -> Html {
    let held = held(transfers, timers);
    let rows = transfers.iter().zip(held).enumerate().map(|(i, (t, h))| {
        let sep = if i > 0 { " · " } else { "" };
        html! { <>{ sep }<span class={h.class()}>{ transfer_time(i, t.duration().0 as f64) }</span></> }
    });
    html! { <>{ for rows }</> }
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
