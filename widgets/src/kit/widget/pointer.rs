//! Direct manipulation: press on a chart and drag, and the time cursor
//! follows the pointer (mouse, pen or finger); hover, and a readout says
//! what the chart shows under it.
//!
//! Each view says where it put time when it was drawn (`draw::time_axis`),
//! and the pointer reads that, so pixel and time agree to the pixel with
//! what is on the canvas. A drag keeps the axis it started on: the ladder
//! scrolls with the cursor on long exchanges, and a map that moved under
//! the finger would make the cursor run away from it.
//!
//! ```text
//!   pointerdown ──► capture, pause, seek to the time under it (charts, ladder)
//!   pointermove ──► pressed: drag (seek, not saved); else: hover readout
//!   pointerup   ──► seek once more, saved to the link
//! ```
//!
//! The path view has no time axis, but its wire is one: a packet crosses
//! it in the one-way delay. Dragging it moves time by the delay dragged,
//! so the packets follow the finger.

use super::Widget;
use crate::draw::time_axis::TimeAxis;
use crate::kit::model::Model;
use crate::kit::views::View;
use sim_core::units::Within;
use web_sys::{HtmlCanvasElement, PointerEvent};
use yew::html::Scope;
use yew::prelude::*;

/// What the pointer did on one canvas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Down,
    Move,
    Up,
    /// Left the canvas (or the browser took the pointer back, to scroll).
    Leave,
}

/// A pointer event on canvas `slot` of side `k`, where it happened in the
/// canvas's device pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Input {
    pub k: usize,
    pub slot: usize,
    pub phase: Phase,
    pub x: f64,
    pub y: f64,
    /// `x` as a fraction of the canvas's width, where the readout goes.
    pub fx: f64,
    /// The pointer has a button down (or a finger on the glass).
    pub pressed: bool,
}

/// What the widget does about an input.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Nothing,
    /// Start a drag: pause, and move the cursor here (ns).
    Start(f64),
    /// Move the cursor here while dragging (not yet saved to the link).
    Drag(f64),
    /// The drag ended here: keep it (and write the link).
    End(f64),
    /// The pointer hovers over side `k`'s panel `slot` at this time (ns),
    /// this fraction of the way across; `None`: it left.
    Hover(Option<Hover>),
}

/// Where the pointer hovers: side, panel, the time under it (ns), and how
/// far across the canvas it is (0 to 1).
pub type Hover = (usize, usize, f64, f64);

/// A drag under way.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Drag {
    k: usize,
    slot: usize,
    axis: TimeAxis,
    start_px: f64,
    start_t: f64,
    last_t: f64,
}

/// The pointer's state across events: a drag in progress, if any.
#[derive(Debug, Default)]
pub struct Pointer {
    drag: Option<Drag>,
}

impl Pointer {
    /// What `i` does, on a canvas whose view put time on `axis` (if it has
    /// been drawn), with the cursor at `t_ns`.
    pub fn input(&mut self, i: Input, axis: Option<TimeAxis>, t_ns: f64) -> Outcome {
        let along = |a: &TimeAxis| if a.vertical { i.y } else { i.x };
        match (i.phase, self.drag) {
            (Phase::Down, _) => {
                let Some(axis) = axis else {
                    return Outcome::Nothing;
                };
                let t = if axis.relative {
                    t_ns
                } else {
                    axis.time_at(along(&axis))
                };
                self.drag = Some(Drag {
                    k: i.k,
                    slot: i.slot,
                    axis,
                    start_px: along(&axis),
                    start_t: t,
                    last_t: t,
                });
                Outcome::Start(t)
            }
            (Phase::Move, Some(mut d)) if i.pressed && (d.k, d.slot) == (i.k, i.slot) => {
                let t = if d.axis.relative {
                    d.start_t + (along(&d.axis) - d.start_px) * d.axis.ns_per_px()
                } else {
                    d.axis.time_at(along(&d.axis))
                };
                d.last_t = t;
                self.drag = Some(d);
                Outcome::Drag(t)
            }
            (Phase::Up | Phase::Leave, Some(d)) => {
                self.drag = None;
                Outcome::End(d.last_t)
            }
            (Phase::Move, _) => {
                self.drag = None;
                match axis.filter(|a| !a.relative) {
                    Some(a) => Outcome::Hover(Some((i.k, i.slot, a.time_at(along(&a)), i.fx))),
                    None => Outcome::Nothing,
                }
            }
            (Phase::Leave, None) => Outcome::Hover(None),
            (Phase::Up, None) => Outcome::Nothing,
        }
    }
}

/// What the readout says about `view` of `m` at `t_ns` (the time under
/// the pointer): the time, and the values drawn there.
pub fn readout(view: View, m: &Model, t_ns: f64, unit: crate::units::TimeUnit) -> String {
    let t = unit.format(t_ns.within(0.0, m.end_ns), 3);
    match view {
        View::Window => {
            let p = m.window.at(t_ns);
            let ssthresh = p.ssthresh.map_or("∞".to_string(), |s| s.to_string());
            let out = m.window.outstanding_segments(p);
            let out = if out.is_nan() {
                String::new()
            } else {
                format!(" · outstanding {}", crate::units::fixed(out, 0))
            };
            format!("{t}: cwnd {} · ssthresh {ssthresh}{out}", p.cwnd)
        }
        View::Tsg => {
            let tsg = &m.tsg;
            let sent = tsg.segments[..tsg.segments.partition_point(|s| s.t_ns <= t_ns)]
                .iter()
                .map(|s| s.end)
                .max()
                .unwrap_or(0);
            let acked = tsg.acks[..tsg.acks.partition_point(|a| a.t_ns <= t_ns)]
                .last()
                .map_or(0, |a| a.ack);
            format!("{t}: sent to {} · ACKed to {}", kb(sent), kb(acked))
        }
        View::Throughput => {
            let th = &m.throughput;
            let i = (t_ns / th.interval_ns.max(1) as f64) as usize;
            match i < th.bytes.len() {
                true => format!("{t}: {} Mbit/s", crate::units::fixed(th.mbps(i), 1)),
                false => t,
            }
        }
        View::Rtt => {
            let rtt = &m.rtt;
            let sample = rtt.samples[..rtt.samples.partition_point(|p| p.t_ns <= t_ns)].last();
            match (sample, rtt.srtt_at(t_ns)) {
                // Past the stored samples: srtt alone, as the readings give it.
                (_, srtt) if rtt.samples_until_ns.is_some_and(|u| t_ns > u) && srtt > 0 => {
                    format!("{t}: srtt {}", unit.format(srtt as f64, 3))
                }
                (Some(p), _) => format!(
                    "{t}: RTT {} · srtt {}",
                    unit.format(p.sample_ns as f64, 3),
                    unit.format(p.srtt_ns as f64, 3)
                ),
                (None, _) => t,
            }
        }
        View::Buffers => match m.buffers.at(t_ns) {
            Some(p) => format!(
                "{t}: sndbuf {} · queued {} · window {} · unread {}",
                kb(p.send.sndbuf),
                kb(p.send.wmem_queued),
                kb(p.send.snd_wnd),
                kb(p.recv.unread)
            ),
            None => t,
        },
        View::Connections => {
            let rows = &m.connections.rows;
            match rows.partition_point(|r| r.opened_ns <= t_ns) {
                0 => t,
                k => format!(
                    "{t}: connection {k} of {} · cwnd {}",
                    rows.len(),
                    m.window.at(t_ns).cwnd
                ),
            }
        }
        View::Path | View::Ladder => t,
    }
}

/// Bytes of sequence space as kB.
fn kb(bytes: u64) -> String {
    format!("{} kB", crate::units::fixed(bytes as f64 / 1e3, 1))
}

/// The canvas's pointer handlers, sending [`Input`]s for side `k`'s panel `slot`.
pub struct Handlers {
    pub down: Callback<PointerEvent>,
    pub moved: Callback<PointerEvent>,
    pub up: Callback<PointerEvent>,
    pub leave: Callback<PointerEvent>,
}

impl Handlers {
    pub fn new(link: &Scope<Widget>, k: usize, slot: usize) -> Handlers {
        let make = |phase: Phase| {
            link.batch_callback(move |e: PointerEvent| {
                input_of(&e, k, slot, phase).map(super::Msg::Pointer)
            })
        };
        Handlers {
            down: make(Phase::Down),
            moved: make(Phase::Move),
            up: make(Phase::Up),
            leave: make(Phase::Leave),
        }
    }
}

/// The input an event makes, in the canvas's device pixels (its backing
/// store is sized to them: see `sized_backend`).
fn input_of(e: &PointerEvent, k: usize, slot: usize, phase: Phase) -> Option<Input> {
    // The target, not the current target: yew listens on the page's root
    // and hands that on as the current target. A canvas has no children, so
    // its events are its own.
    let canvas: HtmlCanvasElement = e.target()?.dyn_into().ok()?;
    if phase == Phase::Down {
        if e.button() != 0 {
            return None;
        }
        // Moves keep coming here when the pointer leaves the canvas; a
        // synthetic pointer has no capture to take, which is fine.
        let _ = canvas.set_pointer_capture(e.pointer_id());
        // No text selection or focus change: this press is a drag.
        e.prevent_default();
    }
    let (cw, ch) = (canvas.client_width().max(1), canvas.client_height().max(1));
    Some(Input {
        k,
        slot,
        phase,
        x: e.offset_x() as f64 * canvas.width() as f64 / cw as f64,
        fx: e.offset_x() as f64 / cw as f64,
        y: e.offset_y() as f64 * canvas.height() as f64 / ch as f64,
        pressed: e.buttons() & 1 == 1,
    })
}

use wasm_bindgen::JsCast;

/// Writes where `axis` put time on `canvas` into its `data-time-axis`
/// (CSS pixels along the axis from the canvas's edge, then ns: "from to
/// from_ns to_ns"), so that a page, and the browser tests, can tell which
/// time is under a point without the drawing's margins.
pub fn publish(canvas: &HtmlCanvasElement, axis: Option<&TimeAxis>, ratio: f64) {
    let text = axis.map(|a| {
        let r = if ratio > 0.0 { ratio } else { 1.0 };
        format!(
            "{} {} {} {}",
            crate::units::fixed(a.from_px / r, 1),
            crate::units::fixed(a.to_px / r, 1),
            crate::units::fixed(a.from_ns, 0),
            crate::units::fixed(a.to_ns, 0)
        )
    });
    let _ = canvas.set_attribute("data-time-axis", text.as_deref().unwrap_or(""));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(relative: bool) -> TimeAxis {
        TimeAxis {
            from_px: 100.0,
            to_px: 500.0,
            from_ns: 0.0,
            to_ns: 40e6,
            vertical: false,
            relative,
        }
    }

    fn at(phase: Phase, x: f64, pressed: bool) -> Input {
        Input {
            k: 0,
            slot: 1,
            phase,
            x,
            y: 0.0,
            fx: 0.5,
            pressed,
        }
    }

    #[test]
    fn a_drag_on_a_chart_seeks_to_the_time_under_the_pointer() {
        let mut p = Pointer::default();
        let a = Some(axis(false));
        assert_eq!(
            p.input(at(Phase::Down, 300.0, true), a, 0.0),
            Outcome::Start(20e6)
        );
        assert_eq!(
            p.input(at(Phase::Move, 400.0, true), a, 20e6),
            Outcome::Drag(30e6)
        );
        // The map is the one the drag started on, whatever is drawn since.
        assert_eq!(
            p.input(at(Phase::Move, 200.0, true), None, 30e6),
            Outcome::Drag(10e6)
        );
        assert_eq!(
            p.input(at(Phase::Up, 200.0, false), a, 10e6),
            Outcome::End(10e6)
        );
        assert_eq!(
            p.input(at(Phase::Move, 500.0, false), a, 10e6),
            Outcome::Hover(Some((0, 1, 40e6, 0.5)))
        );
    }

    #[test]
    fn the_readout_says_what_each_chart_shows_under_the_pointer() {
        let spec = widget_catalogue::widget("slow-start").unwrap();
        let values: Vec<f64> = spec.params.iter().map(|p| p.default).collect();
        let run = sim_core::sim::run(&crate::kit::scenario::build(spec, &values)).unwrap();
        let m = Model::from_run(&run);
        let unit = crate::units::TimeUnit::for_span(m.end_ns);
        let t = m.end_ns / 2.0;
        let cwnd = readout(View::Window, &m, t, unit);
        assert!(cwnd.contains(&format!("cwnd {}", m.cwnd_at(t))), "{cwnd}");
        assert!(readout(View::Tsg, &m, t, unit).contains("ACKed to"));
        assert!(readout(View::Rtt, &m, t, unit).contains("srtt"));
        assert!(readout(View::Throughput, &m, t, unit).ends_with("Mbit/s"));
        assert_eq!(readout(View::Path, &m, t, unit), unit.format(t, 3));
    }

    #[test]
    fn a_drag_on_the_wire_moves_time_by_the_distance_dragged() {
        let mut p = Pointer::default();
        let a = Some(axis(true));
        // A press does not seek: the wire has no "time under it".
        assert_eq!(
            p.input(at(Phase::Down, 300.0, true), a, 5e6),
            Outcome::Start(5e6)
        );
        // A quarter of the wire is a quarter of the one-way delay.
        assert_eq!(
            p.input(at(Phase::Move, 400.0, true), a, 5e6),
            Outcome::Drag(15e6)
        );
        assert_eq!(
            p.input(at(Phase::Move, 400.0, false), a, 15e6),
            Outcome::Nothing
        );
    }
}
