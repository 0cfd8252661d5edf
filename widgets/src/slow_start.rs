//! The `slow-start` widget: sliders for the path and the endpoints, a packet
//! animation in simulated time scaled to wall time, a live cwnd chart and the
//! transfer's readouts. The simulator runs in full whenever a value changes;
//! the animation then just moves a time cursor through the result.

use crate::draw::{cwnd_chart, path_view};
use crate::params::{self, Initial};
use crate::run_view::{RunView, SlowStartParams};
use crate::slider::Slider;
use crate::theme;
use gloo_render::{AnimationFrame, request_animation_frame};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use sim_core::units::format_bytes;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use widget_spec::WidgetSpec;
use yew::prelude::*;

/// Playback speeds: simulated seconds per wall-clock second.
const SPEEDS: &[(f64, &str)] = &[
    (1.0, "real time"),
    (0.5, "1/2"),
    (0.2, "1/5"),
    (0.1, "1/10"),
    (0.05, "1/20"),
    (0.02, "1/50"),
    (0.01, "1/100"),
];

/// Slowest speed that still plays the whole run within this much wall time.
const TARGET_PLAY_NS: f64 = 12e9;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The placeholder's id, unique on the page; prefixes the controls' ids.
    pub id: AttrValue,
    pub spec: &'static WidgetSpec,
    pub initial: Initial,
}

pub enum Msg {
    Play,
    Pause,
    Restart,
    Frame(f64),
    Set(usize, f64),
    Speed(f64),
    Preset(String),
}

pub struct SlowStart {
    values: Vec<f64>,
    preset: Option<&'static str>,
    notes: Vec<String>,
    run: Rc<RunView>,
    max_transit: f64,
    t_ns: f64,
    playing: bool,
    speed: f64,
    speed_chosen: bool,
    last_frame: Option<f64>,
    frame: Option<AnimationFrame>,
    path_canvas: NodeRef,
    chart_canvas: NodeRef,
}

impl SlowStart {
    fn params(&self, spec: &WidgetSpec) -> SlowStartParams {
        SlowStartParams::from_values(spec, &self.values)
    }

    fn resimulate(&mut self, spec: &WidgetSpec) {
        let run = RunView::simulate(&self.params(spec));
        self.max_transit = path_view::max_transit_ns(&run);
        self.run = Rc::new(run);
        self.t_ns = 0.0;
        self.last_frame = None;
        if !self.speed_chosen {
            self.speed = auto_speed(self.run.end_ns);
        }
    }

    fn schedule_frame(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.frame = Some(request_animation_frame(move |ts| {
            link.send_message(Msg::Frame(ts))
        }));
    }

    fn draw(&self) {
        let Some(canvas) = self.chart_canvas.cast::<web_sys::Element>() else {
            return;
        };
        let Ok(Some(widget)) = canvas.closest(".tcp-widget") else {
            return;
        };
        let palette = theme::palette(&widget);
        let ratio = theme::device_pixel_ratio();
        if let Some(canvas) = self.path_canvas.cast::<HtmlCanvasElement>()
            && let Some(backend) = sized_backend(&canvas, ratio)
        {
            let _ = path_view::draw(
                &backend.into_drawing_area(),
                &self.run,
                self.t_ns,
                self.max_transit,
                &palette,
                ratio,
            );
        }
        if let Some(canvas) = self.chart_canvas.cast::<HtmlCanvasElement>()
            && let Some(backend) = sized_backend(&canvas, ratio)
        {
            let _ = cwnd_chart::draw(
                &backend.into_drawing_area(),
                &self.run,
                self.t_ns,
                &palette,
                ratio,
            );
        }
    }
}

/// The slowest listed speed that still plays the whole run within
/// `TARGET_PLAY_NS` of wall time (real time if even that is longer).
fn auto_speed(end_ns: f64) -> f64 {
    SPEEDS
        .iter()
        .rev()
        .map(|(s, _)| *s)
        .find(|s| end_ns / s <= TARGET_PLAY_NS)
        .unwrap_or(1.0)
}

/// Sizes the canvas backing store for the device-pixel ratio (plotters-canvas
/// does not) and wraps it for plotters.
fn sized_backend(canvas: &HtmlCanvasElement, ratio: f64) -> Option<CanvasBackend> {
    let w = (canvas.client_width() as f64 * ratio).round() as u32;
    let h = (canvas.client_height() as f64 * ratio).round() as u32;
    if w == 0 || h == 0 {
        return None;
    }
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    CanvasBackend::with_canvas_object(canvas.clone())
}

impl Component for SlowStart {
    type Message = Msg;
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        let p = ctx.props();
        let run = RunView::simulate(&SlowStartParams::from_values(p.spec, &p.initial.values));
        SlowStart {
            values: p.initial.values.clone(),
            preset: p.initial.preset,
            notes: p.initial.notes.clone(),
            max_transit: path_view::max_transit_ns(&run),
            speed: auto_speed(run.end_ns),
            run: Rc::new(run),
            t_ns: 0.0,
            playing: false,
            speed_chosen: false,
            last_frame: None,
            frame: None,
            path_canvas: NodeRef::default(),
            chart_canvas: NodeRef::default(),
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let spec = ctx.props().spec;
        match msg {
            Msg::Play => {
                if self.t_ns >= self.run.end_ns {
                    self.t_ns = 0.0;
                }
                self.playing = true;
                self.last_frame = None;
                self.schedule_frame(ctx);
            }
            Msg::Pause => {
                self.playing = false;
                self.frame = None;
            }
            Msg::Restart => {
                self.t_ns = 0.0;
                self.last_frame = None;
                if self.playing {
                    self.schedule_frame(ctx);
                }
            }
            Msg::Frame(ts) => {
                if !self.playing {
                    return false;
                }
                if let Some(last) = self.last_frame {
                    let dt_ms = (ts - last).clamp(0.0, 100.0); // a background tab must not jump
                    self.t_ns += dt_ms * 1e6 * self.speed;
                }
                self.last_frame = Some(ts);
                if self.t_ns >= self.run.end_ns {
                    self.t_ns = self.run.end_ns;
                    self.playing = false;
                    self.frame = None;
                } else {
                    self.schedule_frame(ctx);
                }
            }
            Msg::Set(i, v) => {
                let Some(p) = spec.params.get(i) else {
                    return false;
                };
                let v = p.clamp(v);
                if self.values[i] == v {
                    return false;
                }
                self.values[i] = v;
                self.preset = None;
                self.resimulate(spec);
            }
            Msg::Speed(s) => {
                self.speed = SPEEDS
                    .iter()
                    .map(|(x, _)| *x)
                    .find(|x| (*x - s).abs() < 1e-9)
                    .unwrap_or(0.01);
                self.speed_chosen = true;
                self.last_frame = None;
            }
            Msg::Preset(name) => {
                if let Some(values) = params::preset_values(spec, &name) {
                    self.values = values;
                    self.preset = spec.preset(&name).map(|p| p.name);
                    self.resimulate(spec);
                }
            }
        }
        true
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first: bool) {
        self.draw();
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let p = ctx.props();
        let link = ctx.link();
        let id = &p.id;
        let run = &self.run;
        let sliders = p.spec.params.iter().enumerate().map(|(i, param)| {
            let on_change = link.callback(move |v| Msg::Set(i, v));
            html! { <Slider id={format!("{id}-{}", param.name)} spec={param} value={self.values[i]} {on_change} /> }
        });
        let presets = p.spec.presets.iter().map(|pr| {
            html! { <option value={pr.name} selected={self.preset == Some(pr.name)}>{ pr.title }</option> }
        });
        let on_preset = link.callback(|e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            Msg::Preset(sel.value())
        });
        let on_speed = link.callback(|e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            Msg::Speed(sel.value().parse().unwrap_or(0.01))
        });
        let speeds = SPEEDS.iter().map(|(s, label)| {
            html! { <option value={s.to_string()} selected={(self.speed - s).abs() < 1e-9}>{ *label }</option> }
        });
        // mdBook turns ←/→ into chapter navigation; keys pressed inside the widget stay here.
        let onkeydown = Callback::from(|e: KeyboardEvent| e.stop_propagation());
        let completion = match (run.summary.completion, &run.error) {
            (_, Some(e)) => format!("cannot simulate: {e}"),
            (Some(t), _) => format!("{:.2} ms", t.as_millis_f64()),
            (None, _) => format!("not finished after {:.0} s", run.end_ns / 1e9),
        };
        // Every flight of the run; those the animation has not reached yet are dimmed.
        let sent = run.flights_by(self.t_ns).len();
        let flights = run.summary.flights.iter().enumerate().map(|(i, f)| {
            let class = if i < sent {
                "tw-flight"
            } else {
                "tw-flight tw-pending"
            };
            let sep = if i > 0 { " · " } else { "" };
            html! { <>{ sep }<span class={class}>{ f.bytes }</span></> }
        });
        let play = if self.playing {
            html! { <button class="tw-play" onclick={link.callback(|_| Msg::Pause)} aria-label="Pause">{ "❚❚ Pause" }</button> }
        } else {
            html! { <button class="tw-play" onclick={link.callback(|_| Msg::Play)} aria-label="Play">{ "▶ Play" }</button> }
        };
        html! {
            <div class="tw-root" {onkeydown}>
                <div class="tw-header">
                    <span class="tw-title">{ p.spec.title }</span>
                    <label class="tw-preset">{ "Preset " }
                        <select onchange={on_preset} aria-label="Preset">
                            <option value="" selected={self.preset.is_none()} disabled=true>{ "custom" }</option>
                            { for presets }
                        </select>
                    </label>
                </div>
                if !self.notes.is_empty() {
                    <ul class="tw-notes" role="status">{ for self.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }</ul>
                }
                <div class="tw-controls">{ for sliders }</div>
                <div class="tw-transport">
                    { play }
                    <button class="tw-restart" onclick={link.callback(|_| Msg::Restart)} aria-label="Restart">{ "⟲ Restart" }</button>
                    <label class="tw-speed">{ "Speed " }<select onchange={on_speed} aria-label="Playback speed">{ for speeds }</select></label>
                    <span class="tw-clock" data-readout="clock" aria-live="off">{ format!("t = {:.3} ms", self.t_ns / 1e6) }</span>
                    <span class="tw-cwnd-now">{ format!("cwnd {}", run.cwnd_at(self.t_ns)) }</span>
                </div>
                <canvas class="tw-path" ref={self.path_canvas.clone()} role="img"
                    aria-label="Animation of data segments and ACKs between server and client"></canvas>
                <canvas class="tw-chart" ref={self.chart_canvas.clone()} role="img"
                    aria-label="Chart of the server's congestion window in segments over time"></canvas>
                <dl class="tw-readouts">
                    <div><dt>{ "Completion time" }</dt><dd data-readout="completion">{ completion }</dd></div>
                    <div><dt>{ "Round trips of data" }</dt><dd data-readout="round-trips">{ run.summary.round_trips() }</dd></div>
                    <div><dt>{ "Transfer" }</dt><dd data-readout="size">{ format_bytes(self.params(p.spec).size as u64) }</dd></div>
                    <div class="tw-wide"><dt>{ "Bytes per flight" }</dt><dd data-readout="flights">{ for flights }</dd></div>
                </dl>
            </div>
        }
    }
}
