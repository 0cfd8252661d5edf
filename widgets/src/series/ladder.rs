//! The ladder diagram's data: every segment of one connection with its send
//! and arrival times, and the countdowns that explain the gaps between them
//! (delayed-ACK timers, Nagle and cork holds).
//!
//! ```text
//!   client                server
//!     │ ── SYN ──────────▶ │
//!     │ ◀────────── SYN-ACK│
//!     │ ── seq 1:301 ────▶ │┃ delayed ACK: armed when data arrives,
//!    ┃│                    │┃ ends at its deadline (the timer fires)
//!    ┃│ Nagle: 1000 B held │┃ or earlier, when the host sends an ACK
//!    ┃│ ◀─────── ack 301 ─ │
//!     │ ── seq 301:1301 ─▶ │  a hold ends with the host's next data segment
//! ```
//!
//! Only flow 0 is read: a ladder shows one connection, and multi-flow
//! scenarios run identical connections side by side.
//!
//! Built once per run; a frame then finds what it needs by binary search on
//! time, so runs of 100,000 segments stay cheap to animate.

use super::table::Table;
use sim_core::segment::{Flags, SackBlocks, Segment, Side};
use sim_core::sim::RunResult;
use sim_core::trace::TraceEvent;

/// Rows the data table holds at most; a long run's table says it is cut short.
pub const TABLE_MAX_ROWS: usize = 2000;

/// One transmission of a segment: one arrow of the ladder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transmission {
    pub from: Side,
    pub sent_ns: u64,
    /// When it reached the peer; `None` when the path dropped it.
    pub arrives_ns: Option<u64>,
    /// Relative sequence numbers: the segment covers `seq..end` (a SYN or
    /// FIN takes one number), as `tcpdump` prints `seq 1:1449`.
    pub seq: u64,
    pub end: u64,
    /// Payload bytes.
    pub len: u32,
    /// The cumulative acknowledgement, when the ACK flag is set.
    pub ack: Option<u64>,
    /// The receive window this segment advertises, in bytes (scaled).
    pub wnd: u64,
    pub flags: Flags,
    pub sack: SackBlocks,
    pub retransmit: bool,
    /// Sent by the persist timer to probe a zero window.
    pub probe: bool,
    /// The window differs in a way worth printing: it is zero, or it
    /// reopens after a zero window.
    pub window_news: bool,
}

impl Transmission {
    pub fn to(&self) -> Side {
        self.from.peer()
    }

    pub fn is_data(&self) -> bool {
        self.len > 0
    }

    pub fn dropped(&self) -> bool {
        self.arrives_ns.is_none()
    }

    /// The header flags as `tcpdump` names them, space-separated: `SYN`,
    /// `SYN ACK`, `ACK`, `FIN ACK`.
    pub fn flags_text(&self) -> String {
        let f = self.flags;
        let names: Vec<&str> = [
            (f.syn, "SYN"),
            (f.fin, "FIN"),
            (f.rst, "RST"),
            (f.ack, "ACK"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        names.join(" ")
    }

    /// The short text written along the arrow: `SYN`, `SYN-ACK`,
    /// `seq 1:1449`, `ack 1449`, `ack 1449 win 0`, `retx seq 1:1449`,
    /// `RST seq 1449`.
    pub fn label(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if self.retransmit {
            parts.push("retx".into());
        }
        if self.probe {
            parts.push("probe".into());
        }
        if self.flags.rst {
            // A host with no socket for the segment it answers: the whole
            // message is the flag (and the sequence number it must carry).
            parts.push(format!("RST seq {}", self.seq));
            return parts.join(" ");
        }
        if self.flags.syn {
            parts.push(if self.flags.ack { "SYN-ACK" } else { "SYN" }.into());
        } else if self.flags.fin {
            parts.push("FIN".into());
        }
        if self.len > 0 {
            parts.push(format!("seq {}:{}", self.seq, self.seq + self.len as u64));
        } else if self.probe {
            // Linux's window probe: no data, a sequence number already acknowledged.
            parts.push(format!("seq {}", self.seq));
        } else if !self.flags.syn
            && !self.flags.fin
            && let Some(ack) = self.ack
        {
            parts.push(format!("ack {ack}"));
        }
        if self.window_news {
            parts.push(format!("win {}", self.wnd));
        }
        if let Some(&(start, end)) = self.sack.as_slice().first() {
            let more = if self.sack.as_slice().len() > 1 {
                "…"
            } else {
                ""
            };
            parts.push(format!("SACK {start}:{end}{more}"));
        }
        parts.join(" ")
    }
}

/// What a countdown waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountdownKind {
    /// The receiver's delayed-ACK timer (RFC 1122 4.2.3.2; Linux `tcp_send_delayed_ack`).
    DelayedAck,
    /// Nagle's algorithm holds a small segment while earlier data is unacknowledged.
    Nagle,
    /// `TCP_CORK` holds a partial segment.
    Cork,
}

impl CountdownKind {
    pub fn name(self) -> &'static str {
        match self {
            CountdownKind::DelayedAck => "delayed ACK",
            CountdownKind::Nagle => "Nagle",
            CountdownKind::Cork => "cork",
        }
    }

    fn is_hold(self) -> bool {
        !matches!(self, CountdownKind::DelayedAck)
    }
}

/// How a countdown ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The delayed-ACK timer reached its deadline.
    Fired,
    /// The host sent an ACK-carrying segment before the deadline (a second
    /// full segment, or the ACK riding on data), which cancels the timer.
    Cancelled,
    /// The host sent data: the hold is over.
    Released,
    /// Replaced by a new timer or hold on the same host.
    Superseded,
    /// Still running when the run stopped: a timer ends at its deadline, a
    /// hold at the end of the run.
    RunEnded,
}

/// A delayed-ACK timer or a send hold on one host.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timer {
    pub side: Side,
    pub kind: CountdownKind,
    pub start_ns: u64,
    pub end_ns: u64,
    /// The delayed-ACK timer's deadline (it may end earlier, see [`Ending`]).
    pub deadline_ns: Option<u64>,
    /// Bytes a hold keeps back (0 for timers).
    pub bytes: u64,
    pub ending: Ending,
}

impl Timer {
    /// Whether the countdown is running at `t_ns` (started, not yet ended).
    pub fn runs_at(&self, t_ns: f64) -> bool {
        self.start_ns as f64 <= t_ns && t_ns < self.end_ns as f64
    }
}

/// A countdown running at some instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Countdown {
    pub timer: Timer,
    /// Time left: to the deadline for a delayed-ACK timer (what the timer
    /// itself counts down), to the release for a hold.
    pub remaining_ns: f64,
}

impl Countdown {
    /// `"delayed ACK"`, `"Nagle"`, `"cork"`.
    pub fn title(&self) -> &'static str {
        self.timer.kind.name()
    }

    /// `"23.4 ms"` for a timer, `"1000 B held"` for a hold.
    pub fn detail(&self) -> String {
        if self.timer.kind.is_hold() {
            format!("{} B held", self.timer.bytes)
        } else {
            format!("{} ms", crate::units::fixed(self.remaining_ns / 1e6, 1))
        }
    }

    /// One line for the widget's text: `"client: delayed ACK 23.4 ms"`,
    /// `"client: Nagle: 1000 B held"`.
    pub fn text(&self) -> String {
        let sep = if self.timer.kind.is_hold() { ":" } else { "" };
        format!(
            "{}: {}{sep} {}",
            self.timer.side.name(),
            self.title(),
            self.detail()
        )
    }
}

/// The ladder of flow 0 of one run.
#[derive(Clone, Debug, Default)]
pub struct Ladder {
    /// Every transmission, in the order sent (so by send time).
    pub segments: Vec<Transmission>,
    /// Every timer and hold, by start time.
    pub timers: Vec<Timer>,
    /// Indices into `timers` for each (side, timer or hold) lane; within a
    /// lane countdowns never overlap, so start and end times both ascend.
    lanes: [Vec<u32>; 4],
    /// When the exchange is over: the last send, arrival or ✕, or the end
    /// of a countdown (but not past the end of the run).
    pub end_ns: u64,
    /// The longest a segment spent between its sender and its receiver (for
    /// a drop, until its ✕), so a frame knows how far back to look.
    pub max_transit_ns: u64,
    /// Propagation delay client → server and server → client: where a
    /// dropped segment's ✕ goes (half way).
    pub one_way_ns: [u64; 2],
    /// Per-packet records the trace did not keep (its budget ran out).
    pub truncated: bool,
}

fn slot(side: Side) -> usize {
    match side {
        Side::Client => 0,
        Side::Server => 1,
    }
}

fn lane(side: Side, kind: CountdownKind) -> usize {
    slot(side) * 2 + kind.is_hold() as usize
}

impl Ladder {
    /// Reads flow 0's segments, timers and holds from the run's trace.
    pub fn from_run(run: &RunResult) -> Self {
        let path = &run.scenario.path;
        let mut reader = Reader {
            ladder: Ladder {
                one_way_ns: [path.delay_forward.0, path.delay_reverse.0],
                truncated: run.trace.skipped() > 0,
                ..Ladder::default()
            },
            run_end: run.outcome.at().0,
            open_delack: [None; 2],
            open_hold: [None; 2],
            probe_pending: [None; 2],
            last_wnd: [None; 2],
        };
        for rec in run.trace.flow_records(0) {
            let t = rec.time.0;
            match rec.event {
                TraceEvent::SegmentSent {
                    seg,
                    retransmit,
                    arrives,
                    ..
                } => reader.sent(t, &seg, retransmit, arrives.map(|a| a.0)),
                TraceEvent::ZeroWindowProbe { side, .. } => {
                    reader.probe_pending[slot(side)] = Some(t)
                }
                TraceEvent::DelayedAckArmed { side, deadline } => {
                    reader.delack_armed(t, side, deadline.0)
                }
                TraceEvent::SendHeld {
                    side,
                    reason,
                    bytes,
                } => reader.held(t, side, reason, bytes),
                _ => {}
            }
        }
        reader.finish()
    }

    /// The countdowns running at `t_ns`, client's first, each host's
    /// delayed-ACK timer before its hold.
    pub fn timers_at(&self, t_ns: f64) -> Vec<Countdown> {
        self.timer_slots_at(t_ns).into_iter().flatten().collect()
    }

    /// One slot per lane that runs a countdown at some time in the run, in
    /// the order of [`Ladder::timers_at`], with the countdown running at
    /// `t_ns` if any. The slots are the same at every instant, so a text
    /// that keeps room for each never reflows as countdowns come and go.
    pub fn timer_slots_at(&self, t_ns: f64) -> Vec<Option<Countdown>> {
        let used = self.lanes.iter().filter(|lane| !lane.is_empty());
        used.map(|lane| {
            let i = lane.partition_point(|&i| self.timers[i as usize].start_ns as f64 <= t_ns);
            let timer = self.timers[lane[i.checked_sub(1)?] as usize];
            let until = timer.deadline_ns.unwrap_or(timer.end_ns);
            timer.runs_at(t_ns).then_some(Countdown {
                timer,
                remaining_ns: until as f64 - t_ns,
            })
        })
        .collect()
    }

    /// The timers and holds that overlap `[from_ns, to_ns)`, by lane.
    pub fn timers_between(&self, from_ns: f64, to_ns: f64) -> impl Iterator<Item = &Timer> + '_ {
        self.lanes.iter().flat_map(move |lane| {
            let first =
                lane.partition_point(|&i| (self.timers[i as usize].end_ns as f64) <= from_ns);
            lane[first..]
                .iter()
                .map(|&i| &self.timers[i as usize])
                .take_while(move |t| (t.start_ns as f64) < to_ns)
        })
    }

    /// Index of the first segment sent at or after `t_ns` (so segments
    /// `..i` were sent before it).
    pub fn sent_before(&self, t_ns: f64) -> usize {
        self.segments.partition_point(|s| (s.sent_ns as f64) < t_ns)
    }

    /// Index past the last segment sent at or before `t_ns`.
    pub fn sent_by(&self, t_ns: f64) -> usize {
        self.segments
            .partition_point(|s| (s.sent_ns as f64) <= t_ns)
    }

    /// Every segment as a row: the accessible alternative to the diagram.
    pub fn table(&self) -> Table {
        let n = self.segments.len();
        let ms = |ns: u64| crate::units::fixed(ns as f64 / 1e6, 3);
        let rows = self
            .segments
            .iter()
            .take(TABLE_MAX_ROWS)
            .map(|s| {
                let mut notes: Vec<String> = Vec::new();
                if s.retransmit {
                    notes.push("retransmission".into());
                }
                if s.probe {
                    notes.push("zero-window probe".into());
                }
                if !s.sack.is_empty() {
                    let blocks: Vec<String> = s
                        .sack
                        .as_slice()
                        .iter()
                        .map(|(a, b)| format!("{a}:{b}"))
                        .collect();
                    notes.push(format!("SACK {}", blocks.join(" ")));
                }
                vec![
                    ms(s.sent_ns),
                    format!("{} → {}", s.from.name(), s.to().name()),
                    s.flags_text(),
                    format!("{}:{}", s.seq, s.end),
                    s.ack.map_or(String::new(), |a| a.to_string()),
                    s.wnd.to_string(),
                    s.arrives_ns.map_or("dropped".into(), ms),
                    notes.join("; "),
                ]
            })
            .collect();
        let mut caption =
            format!("Every segment of the connection, in the order sent ({n} segments");
        if n > TABLE_MAX_ROWS {
            caption.push_str(&format!("; the first {TABLE_MAX_ROWS} shown"));
        }
        caption.push(')');
        if self.truncated {
            caption.push_str("; the simulator's trace kept only part of this long run");
        }
        Table {
            caption,
            headers: [
                "sent (ms)",
                "from → to",
                "flags",
                "seq:end",
                "ack",
                "window (bytes)",
                "arrives (ms)",
                "notes",
            ]
            .map(String::from)
            .to_vec(),
            rows,
        }
    }
}

/// Ends a countdown at `t`: a delayed-ACK timer never outlives its
/// deadline (reaching it means it fired).
fn close_timer(timer: &mut Timer, t: u64, ending: Ending) {
    match timer.deadline_ns {
        Some(deadline) if t >= deadline => {
            timer.end_ns = deadline;
            timer.ending = Ending::Fired;
        }
        _ => {
            timer.end_ns = t;
            timer.ending = ending;
        }
    }
}

/// A ladder being read from a trace, with what is still open on each side
/// (indexed by [`slot`]).
struct Reader {
    ladder: Ladder,
    run_end: u64,
    /// The open delayed-ACK timer and hold of each side (indices into `timers`).
    open_delack: [Option<usize>; 2],
    open_hold: [Option<usize>; 2],
    /// When a zero-window probe is due to be sent.
    probe_pending: [Option<u64>; 2],
    /// The window the side last advertised.
    last_wnd: [Option<u64>; 2],
}

impl Reader {
    /// A segment leaves at `t`: an ACK ends the sender's delayed-ACK timer,
    /// data ends its hold.
    fn sent(&mut self, t: u64, seg: &Segment, retransmit: bool, arrives_ns: Option<u64>) {
        let ladder = &mut self.ladder;
        let s = slot(seg.from);
        if seg.flags.ack
            && let Some(i) = self.open_delack[s].take()
        {
            close_timer(&mut ladder.timers[i], t, Ending::Cancelled);
        }
        if seg.len > 0
            && let Some(i) = self.open_hold[s].take()
        {
            close_timer(&mut ladder.timers[i], t, Ending::Released);
        }
        let probe = self.probe_pending[s].take() == Some(t);
        let window_news = seg.wnd == 0 || self.last_wnd[s] == Some(0);
        self.last_wnd[s] = Some(seg.wnd);
        let transit = match arrives_ns {
            Some(a) => a - t,
            None => ladder.one_way_ns[s] / 2,
        };
        ladder.max_transit_ns = ladder.max_transit_ns.max(transit);
        ladder.end_ns = ladder.end_ns.max(arrives_ns.unwrap_or(t + transit));
        ladder.segments.push(Transmission {
            from: seg.from,
            sent_ns: t,
            arrives_ns,
            seq: seg.seq,
            end: seg.end_seq(),
            len: seg.len,
            ack: seg.flags.ack.then_some(seg.ack),
            wnd: seg.wnd,
            flags: seg.flags,
            sack: seg.sack,
            retransmit,
            probe,
            window_news,
        });
    }

    /// Starts `timer` at `t`, superseding the one of its kind its side
    /// still has open.
    fn open(&mut self, t: u64, timer: Timer) {
        let s = slot(timer.side);
        let open = if timer.kind.is_hold() {
            &mut self.open_hold[s]
        } else {
            &mut self.open_delack[s]
        };
        if let Some(i) = open.take() {
            close_timer(&mut self.ladder.timers[i], t, Ending::Superseded);
        }
        *open = Some(self.ladder.timers.len());
        self.ladder.timers.push(timer);
    }

    /// `side` arms its delayed-ACK timer, superseding one still running.
    fn delack_armed(&mut self, t: u64, side: Side, deadline_ns: u64) {
        self.open(
            t,
            Timer {
                side,
                kind: CountdownKind::DelayedAck,
                start_ns: t,
                end_ns: deadline_ns,
                deadline_ns: Some(deadline_ns),
                bytes: 0,
                ending: Ending::RunEnded,
            },
        );
    }

    /// `side` holds `bytes` back (Nagle or cork), superseding a hold still
    /// open; it lasts until data is sent, or the run ends.
    fn held(&mut self, t: u64, side: Side, reason: &str, bytes: u64) {
        self.open(
            t,
            Timer {
                side,
                kind: if reason == "cork" {
                    CountdownKind::Cork
                } else {
                    CountdownKind::Nagle
                },
                start_ns: t,
                end_ns: self.run_end.max(t),
                deadline_ns: None,
                bytes,
                ending: Ending::RunEnded,
            },
        );
    }

    fn finish(self) -> Ladder {
        let Reader {
            mut ladder,
            run_end,
            open_delack,
            ..
        } = self;
        // A timer still open fired at its deadline if the run lasted that
        // long, and is otherwise left running to it; a hold still open lasts
        // to the end of the run (as pushed), both marked `RunEnded`.
        for i in open_delack.into_iter().flatten() {
            let timer = &mut ladder.timers[i];
            if timer.end_ns <= run_end {
                timer.ending = Ending::Fired;
            }
        }
        for (i, timer) in ladder.timers.iter().enumerate() {
            ladder.lanes[lane(timer.side, timer.kind)].push(i as u32);
            ladder.end_ns = ladder.end_ns.max(timer.end_ns.min(run_end));
        }
        ladder
    }
}
