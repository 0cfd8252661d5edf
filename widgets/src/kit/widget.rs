//! The widget shell every widget is built from: controls, transport, the
//! linked views of one run under one time cursor, text panels, presets, the
//! URL state, keyboard shortcuts, presenter mode and export.
//!
//! A change of any control starts a new run, simulated a slice per animation
//! frame so the page never freezes (a progress bar shows after 100 ms); the
//! views then read the finished run at the cursor.

use super::browser::{self, ThemeWatch};
use super::keys::{self, Action};
use super::model::Model;
use super::transport::{self, Clock, SPEEDS, Step};
use super::url_state;
use super::views::{self, View};
use crate::params::{self, Initial};
use crate::slider::Slider;
use crate::theme;
use gloo_render::{AnimationFrame, request_animation_frame};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use sim_core::sim::Simulation;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use widget_spec::WidgetSpec;
use yew::prelude::*;

/// Wall time a run may take per frame before the page gets the frame back.
const SLICE_MS: f64 = 10.0;
/// Events simulated between clock checks.
const EVENTS_PER_CHECK: u64 = 2_000;
/// Show the progress bar once a run has taken this long.
const PROGRESS_AFTER_MS: f64 = 100.0;
/// How long a full playback lasts when the speed is chosen for the reader.
const TARGET_PLAY_NS: f64 = 12e9;
/// Type and lines in presenter mode, relative to normal.
const PRESENTER_SCALE: f64 = 1.8;

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The placeholder's id, unique on the page; prefixes control ids and URL keys.
    pub id: AttrValue,
    pub spec: &'static WidgetSpec,
    pub initial: Initial,
    /// Where the cursor starts (from a link).
    pub start_ns: Option<f64>,
}

pub enum Msg {
    Slice,
    Frame(f64),
    PlayPause,
    Step(Step),
    Restart,
    Seek(f64),
    Speed(f64),
    Set(usize, f64),
    Note(String),
    Preset(String),
    Slot(usize, View),
    ToggleTable(usize),
    Presenter,
    Help(bool),
    Key(KeyboardEvent),
    CopyLink,
    ExportSamples,
    ExportTable(usize, &'static str),
    ExportPicture(usize, &'static str),
    Redraw,
}

enum Run {
    Simulating {
        sim: Box<Simulation>,
        started_ms: f64,
    },
    Done,
    Failed(String),
}

pub struct Widget {
    values: Vec<f64>,
    preset: Option<&'static str>,
    notes: Vec<String>,
    run: Run,
    /// The last finished run, shown (dimmed) while the next one simulates.
    model: Option<Rc<Model>>,
    progress: f64,
    clock: Clock,
    speed_chosen: bool,
    pending_seek: Option<f64>,
    slots: [View; 2],
    /// Which views show their data table (rendered only when open).
    tables: [bool; 3],
    presenter: bool,
    help: bool,
    status: Option<String>,
    frame: Option<AnimationFrame>,
    slice: Option<AnimationFrame>,
    _theme: Option<ThemeWatch>,
    root: NodeRef,
    canvases: [NodeRef; 3],
}

impl Widget {
    fn start_run(&mut self, ctx: &Context<Self>) {
        let scenario = super::scenario::build(ctx.props().spec, &self.values);
        self.run = match Simulation::new(&scenario) {
            Ok(sim) => Run::Simulating {
                sim: Box::new(sim),
                started_ms: browser::now_ms(),
            },
            Err(e) => Run::Failed(e.to_string()),
        };
        self.progress = 0.0;
        self.clock.pause();
        self.frame = None;
        let link = ctx.link().clone();
        self.slice = Some(request_animation_frame(move |_| {
            link.send_message(Msg::Slice)
        }));
    }

    /// Simulates for up to `SLICE_MS`; true when the run is finished.
    fn simulate_slice(&mut self) -> bool {
        let Run::Simulating { sim, .. } = &mut self.run else {
            return true;
        };
        let t0 = browser::now_ms();
        while !sim.advance(EVENTS_PER_CHECK) {
            if browser::now_ms() - t0 > SLICE_MS {
                self.progress = sim.progress();
                return false;
            }
        }
        true
    }

    fn finish_run(&mut self) {
        let Run::Simulating { sim, .. } =
            std::mem::replace(&mut self.run, Run::Failed(String::new()))
        else {
            return;
        };
        let result = sim.finish();
        let model = Rc::new(Model::from_run(&result));
        self.clock = Clock::new(model.end_ns, self.clock.speed);
        if !self.speed_chosen {
            self.clock.speed = transport::auto_speed(model.end_ns, TARGET_PLAY_NS);
        }
        if let Some(t) = self.pending_seek.take() {
            self.clock.seek(t);
        }
        self.model = Some(model);
        self.run = Run::Done;
    }

    fn schedule_frame(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.frame = Some(request_animation_frame(move |ts| {
            link.send_message(Msg::Frame(ts))
        }));
    }

    fn shown_views(&self) -> [View; 3] {
        [View::Path, self.slots[0], self.slots[1]]
    }

    fn scale(&self) -> f64 {
        theme::device_pixel_ratio() * if self.presenter { PRESENTER_SCALE } else { 1.0 }
    }

    fn draw(&self) {
        let (Some(model), Some(root)) = (&self.model, self.root.cast::<web_sys::Element>()) else {
            return;
        };
        // Ink and paper are set on the placeholder (`.tcp-widget`) by widgets.css.
        let themed = root.closest(".tcp-widget").ok().flatten().unwrap_or(root);
        let palette = theme::palette(&themed);
        let scale = self.scale();
        let ratio = theme::device_pixel_ratio();
        for (view, canvas) in self.shown_views().iter().zip(&self.canvases) {
            if let Some(canvas) = canvas.cast::<HtmlCanvasElement>()
                && let Some(backend) = sized_backend(&canvas, ratio)
            {
                let _ = views::draw(
                    &backend.into_drawing_area(),
                    *view,
                    model,
                    self.clock.t_ns,
                    &palette,
                    scale,
                );
            }
        }
    }

    /// Writes the state into the page URL (not on every frame: on pauses,
    /// steps, seeks and changes).
    fn save_url(&self, ctx: &Context<Self>) {
        let p = ctx.props();
        let q = url_state::write(
            &browser::query(),
            &p.id,
            p.spec,
            self.preset,
            &self.values,
            self.clock.t_ns,
        );
        browser::replace_query(&q);
    }

    fn set_preset(&mut self, ctx: &Context<Self>, name: &str) -> bool {
        let spec = ctx.props().spec;
        let Some(values) = params::preset_values(spec, name) else {
            return false;
        };
        self.values = values;
        self.preset = spec.preset(name).map(|p| p.name);
        self.start_run(ctx);
        self.save_url(ctx);
        true
    }

    fn file_name(&self, ctx: &Context<Self>, what: &str, ext: &str) -> String {
        format!("{}-{what}.{ext}", ctx.props().spec.name)
    }
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

fn format_time(ns: f64) -> String {
    if ns >= 10e9 {
        format!("{:.2} s", ns / 1e9)
    } else {
        format!("{:.3} ms", ns / 1e6)
    }
}

impl Component for Widget {
    type Message = Msg;
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        let p = ctx.props();
        let link = ctx.link().clone();
        let reduced_motion = browser::prefers_reduced_motion();
        let mut w = Widget {
            values: p.initial.values.clone(),
            preset: p.initial.preset,
            notes: p.initial.notes.clone(),
            run: Run::Failed(String::new()),
            model: None,
            progress: 0.0,
            clock: Clock::new(0.0, 0.01),
            speed_chosen: false,
            pending_seek: p.start_ns,
            slots: [View::Window, View::Tsg],
            tables: [false; 3],
            presenter: false,
            help: false,
            status: None,
            frame: None,
            slice: None,
            _theme: ThemeWatch::new(move || link.send_message(Msg::Redraw)),
            root: NodeRef::default(),
            canvases: Default::default(),
        };
        if reduced_motion {
            w.notes.push(
                "Your system asks for reduced motion: the widget waits for you. Step with s (next event) or a (next ACK)."
                    .into(),
            );
        }
        w.start_run(ctx);
        w
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let spec = ctx.props().spec;
        match msg {
            Msg::Slice => {
                if !matches!(self.run, Run::Simulating { .. }) {
                    return false;
                }
                if self.simulate_slice() {
                    self.slice = None;
                    self.finish_run();
                } else {
                    let link = ctx.link().clone();
                    self.slice = Some(request_animation_frame(move |_| {
                        link.send_message(Msg::Slice)
                    }));
                    // Re-render only to show the progress bar.
                    let Run::Simulating { started_ms, .. } = &self.run else {
                        return false;
                    };
                    return browser::now_ms() - started_ms > PROGRESS_AFTER_MS;
                }
            }
            Msg::Frame(ts) => {
                if self.clock.frame(ts) {
                    self.schedule_frame(ctx);
                } else {
                    self.frame = None;
                    self.save_url(ctx);
                }
            }
            Msg::PlayPause => {
                if self.model.is_none() || !matches!(self.run, Run::Done) {
                    return false;
                }
                if self.clock.playing {
                    self.clock.pause();
                    self.frame = None;
                    self.save_url(ctx);
                } else {
                    self.clock.play();
                    self.schedule_frame(ctx);
                }
            }
            Msg::Step(kind) => {
                let Some(m) = &self.model else { return false };
                self.clock.pause();
                self.frame = None;
                if let Some(t) = m.steps.next(kind, self.clock.t_ns) {
                    self.clock.seek(t);
                }
                self.save_url(ctx);
            }
            Msg::Restart => {
                self.clock.seek(0.0);
                if self.clock.playing {
                    self.schedule_frame(ctx);
                }
                self.save_url(ctx);
            }
            Msg::Seek(t) => {
                self.clock.seek(t);
                self.save_url(ctx);
            }
            Msg::Speed(s) => {
                self.clock.set_speed(s);
                self.speed_chosen = true;
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
                self.start_run(ctx);
                self.save_url(ctx);
            }
            Msg::Note(n) => {
                self.notes.retain(|x| x != &n);
                self.notes.push(n);
                if self.notes.len() > 4 {
                    self.notes.remove(0);
                }
            }
            Msg::Preset(name) => return self.set_preset(ctx, &name),
            Msg::Slot(i, v) => {
                if let Some(s) = self.slots.get_mut(i) {
                    *s = v;
                }
            }
            Msg::ToggleTable(i) => {
                if let Some(t) = self.tables.get_mut(i) {
                    *t = !*t;
                }
            }
            Msg::Presenter => {
                self.presenter = !self.presenter;
                if let Some(el) = self.root.cast::<web_sys::Element>() {
                    browser::fullscreen(&el, self.presenter);
                }
            }
            Msg::Help(on) => self.help = on,
            Msg::Key(e) => {
                let target = e
                    .target()
                    .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
                let in_field = target.as_ref().is_some_and(|t| {
                    let tag = t.tag_name();
                    tag == "SELECT"
                        || (tag == "INPUT" && t.get_attribute("type").as_deref() != Some("range"))
                });
                let modifier = e.ctrl_key() || e.meta_key() || e.alt_key();
                // Keys stay in the widget: mdBook's ←/→ and `s` must not fire.
                e.stop_propagation();
                let Some(action) = keys::action(&e.key(), in_field, modifier) else {
                    return false;
                };
                // A range input's own arrow keys move the slider, not the cursor.
                let on_range = target
                    .as_ref()
                    .is_some_and(|t| t.get_attribute("type").as_deref() == Some("range"));
                if on_range && matches!(action, Action::Scrub(_)) {
                    return false;
                }
                e.prevent_default();
                let msg = match action {
                    Action::PlayPause => Msg::PlayPause,
                    Action::Step => Msg::Step(Step::Event),
                    Action::StepAck => Msg::Step(Step::Ack),
                    Action::Restart => Msg::Restart,
                    Action::Presenter => Msg::Presenter,
                    Action::Help => Msg::Help(!self.help),
                    Action::Escape if self.help => Msg::Help(false),
                    Action::Escape if self.presenter => Msg::Presenter,
                    Action::Escape => return false,
                    Action::Preset(i) => match spec.presets.get(i) {
                        Some(p) => Msg::Preset(p.name.to_string()),
                        None => return false,
                    },
                    Action::Scrub(d) => {
                        Msg::Seek(self.clock.t_ns + d as f64 * self.clock.end_ns / 50.0)
                    }
                };
                return <Self as Component>::update(self, ctx, msg);
            }
            Msg::CopyLink => {
                self.save_url(ctx);
                let url = browser::href();
                self.status = Some(if browser::copy(&url) {
                    "Link copied.".into()
                } else {
                    format!("Copy this link: {url}")
                });
            }
            Msg::ExportSamples => {
                if let Some(m) = &self.model {
                    browser::download_text(
                        &self.file_name(ctx, "samples", "csv"),
                        "text/csv",
                        &m.samples_csv,
                    );
                }
                return false;
            }
            Msg::ExportTable(slot, format) => {
                let (Some(m), Some(view)) = (&self.model, self.shown_views().get(slot).copied())
                else {
                    return false;
                };
                let table = view.table(m);
                let (text, mime) = if format == "json" {
                    (table.to_json(), "application/json")
                } else {
                    (table.to_csv(), "text/csv")
                };
                browser::download_text(&self.file_name(ctx, view.name(), format), mime, &text);
                return false;
            }
            Msg::ExportPicture(slot, format) => {
                let (Some(m), Some(view)) = (&self.model, self.shown_views().get(slot).copied())
                else {
                    return false;
                };
                let name = self.file_name(ctx, view.name(), format);
                if format == "png" {
                    if let Some(c) = self.canvases[slot].cast::<HtmlCanvasElement>() {
                        browser::download_canvas(&name, &c);
                    }
                } else if let Some(root) = self
                    .root
                    .cast::<web_sys::Element>()
                    .and_then(|r| r.closest(".tcp-widget").ok().flatten())
                {
                    let c = self.canvases[slot].cast::<HtmlCanvasElement>();
                    let (w, h) = c.map_or((800, view.height()), |c| {
                        (
                            c.client_width().max(320) as u32,
                            c.client_height().max(120) as u32,
                        )
                    });
                    let svg = views::svg(view, m, self.clock.t_ns, &theme::palette(&root), w, h);
                    browser::download_text(&name, "image/svg+xml", &svg);
                }
                return false;
            }
            Msg::Redraw => {
                self.draw();
                return false;
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
        let sliders = p.spec.params.iter().enumerate().map(|(i, param)| {
            let on_change = link.callback(move |v| Msg::Set(i, v));
            let on_note = link.callback(Msg::Note);
            html! { <Slider id={format!("{id}-{}", param.name)} spec={param} value={self.values[i]} {on_change} {on_note} /> }
        });
        let presets = p.spec.presets.iter().enumerate().map(|(i, pr)| {
            html! { <option value={pr.name} selected={self.preset == Some(pr.name)}>{ format!("{}. {}", i + 1, pr.title) }</option> }
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
            html! { <option value={s.to_string()} selected={(self.clock.speed - s).abs() < 1e-12}>{ *label }</option> }
        });
        let onkeydown = link.callback(Msg::Key);
        let busy = matches!(self.run, Run::Simulating { .. });
        let end = self.clock.end_ns.max(1.0);
        let on_scrub = {
            link.callback(move |e: InputEvent| {
                let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                Msg::Seek(input.value().parse::<f64>().unwrap_or(0.0) / 1000.0 * end)
            })
        };
        let play = if self.clock.playing {
            html! { <button class="tw-play" onclick={link.callback(|_| Msg::PlayPause)} aria-label="Pause (space)">{ "❚❚ Pause" }</button> }
        } else {
            html! { <button class="tw-play" disabled={busy} onclick={link.callback(|_| Msg::PlayPause)} aria-label="Play (space)">{ "▶ Play" }</button> }
        };
        let progress = match &self.run {
            Run::Simulating { started_ms, .. }
                if browser::now_ms() - started_ms > PROGRESS_AFTER_MS =>
            {
                html! {
                    <div class="tw-progress" role="status">
                        { "Simulating… " }
                        <progress max="1" value={self.progress.to_string()}>{ format!("{:.0} %", self.progress * 100.0) }</progress>
                    </div>
                }
            }
            Run::Failed(e) if !e.is_empty() => {
                html! { <div class="tw-notes" role="alert">{ format!("Cannot simulate: {e}") }</div> }
            }
            _ => html! {},
        };
        let model = self.model.clone();
        let t = self.clock.t_ns;
        let canvas = |slot: usize, view: View| {
            let open = self.tables[slot];
            let table_view = model
                .as_ref()
                .filter(|_| open)
                .map(|m| table_html(&view.table(m)));
            html! {
                <figure class={classes!("tw-view", format!("tw-view-{}", view.name()))}>
                    <canvas class="tw-canvas" ref={self.canvases[slot].clone()} role="img"
                        aria-label={view.description()} data-view={view.name()}
                        style={format!("height: {}px", view.height())}></canvas>
                    <figcaption class="tw-view-tools">
                        <button onclick={link.callback(move |_| Msg::ExportPicture(slot, "png"))} title="Download as PNG">{ "PNG" }</button>
                        <button onclick={link.callback(move |_| Msg::ExportPicture(slot, "svg"))} title="Download as SVG">{ "SVG" }</button>
                        <button onclick={link.callback(move |_| Msg::ExportTable(slot, "csv"))} title="Download the data as CSV">{ "CSV" }</button>
                        <button onclick={link.callback(move |_| Msg::ExportTable(slot, "json"))} title="Download the data as JSON">{ "JSON" }</button>
                        <button onclick={link.callback(move |_| Msg::ToggleTable(slot))} aria-expanded={open.to_string()}>
                            { if open { "Hide data table" } else { "Data table" } }
                        </button>
                    </figcaption>
                    { table_view.unwrap_or_default() }
                </figure>
            }
        };
        let slot_select = |slot: usize| {
            let options = View::CHARTS.iter().map(|v| {
                html! { <option value={v.name()} selected={self.slots[slot] == *v}>{ v.title() }</option> }
            });
            let on = link.callback(move |e: Event| {
                let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
                Msg::Slot(slot, View::from_name(&sel.value()).unwrap_or(View::Window))
            });
            html! { <label class="tw-slot">{ "View " }<select onchange={on} aria-label={format!("View in panel {}", slot + 1)}>{ for options }</select></label> }
        };
        let countdowns = model
            .as_ref()
            .map(|m| m.ladder.timers_at(t))
            .unwrap_or_default();
        let readouts = model.as_ref().map(|m| {
            let completion = match m.summary.completion {
                Some(c) => format!("{:.2} ms", c.as_millis_f64()),
                None => format!("not finished after {}", format_time(m.end_ns)),
            };
            let sent = m.summary.flights.iter().filter(|f| f.start.0 as f64 <= t).count();
            let flights = m.summary.flights.iter().enumerate().map(|(i, f)| {
                let class = if i < sent { "tw-flight" } else { "tw-flight tw-pending" };
                let sep = if i > 0 { " · " } else { "" };
                html! { <>{ sep }<span class={class}>{ f.bytes }</span></> }
            });
            html! {
                <dl class="tw-readouts">
                    <div><dt>{ "Completion time" }</dt><dd data-readout="completion">{ completion }</dd></div>
                    <div><dt>{ "Round trips of data" }</dt><dd data-readout="round-trips">{ m.summary.round_trips() }</dd></div>
                    <div><dt>{ "Retransmissions" }</dt><dd data-readout="retransmissions">{ m.summary.retransmissions }</dd></div>
                    <div class="tw-wide"><dt>{ "Bytes per flight" }</dt><dd data-readout="flights">{ for flights }</dd></div>
                </dl>
            }
        });
        let panels = model.as_ref().map(|m| {
            let settings = m.settings.iter().map(|(k, v)| html! { <div><dt>{ k.clone() }</dt><dd>{ v.clone() }</dd></div> });
            html! {
                <div class="tw-panels">
                    <details><summary>{ "iperf3 report" }</summary><pre data-panel="iperf">{ m.iperf_until(t).join("\n") }</pre></details>
                    <details><summary>{ "ss -tin" }</summary><pre data-panel="ss">{ m.ss_at(t) }</pre></details>
                    <details><summary>{ "ip tcp_metrics show" }</summary><pre data-panel="tcp-metrics">{ if m.tcp_metrics.trim().is_empty() { "(no entries: metrics are saved when a connection closes)".to_string() } else { m.tcp_metrics.clone() } }</pre></details>
                    <details><summary>{ "Settings in effect" }</summary><dl class="tw-settings" data-panel="settings">{ for settings }</dl></details>
                </div>
            }
        });
        let help = self.help.then(|| {
            let rows = keys::HELP.iter().map(|(k, d)| html! { <tr><th scope="row"><kbd>{ *k }</kbd></th><td>{ *d }</td></tr> });
            html! {
                <div class="tw-help" role="dialog" aria-label="Keyboard shortcuts">
                    <table><caption>{ "Keyboard shortcuts (with the widget focused)" }</caption>{ for rows }</table>
                    <button onclick={link.callback(|_| Msg::Help(false))}>{ "Close" }</button>
                </div>
            }
        });
        let root_class = classes!(
            "tw-root",
            self.presenter.then_some("tw-presenter"),
            busy.then_some("tw-busy")
        );
        html! {
            <div class={root_class} ref={self.root.clone()} {onkeydown} tabindex="-1">
                <div class="tw-header">
                    <span class="tw-title">{ p.spec.title }</span>
                    <label class="tw-preset">{ "Preset " }
                        <select onchange={on_preset} aria-label="Preset (keys 1–9)">
                            <option value="" selected={self.preset.is_none()} disabled=true>{ "custom" }</option>
                            { for presets }
                        </select>
                    </label>
                    <span class="tw-tools">
                        <button onclick={link.callback(|_| Msg::CopyLink)} title="Copy a link to exactly this state">{ "Copy link" }</button>
                        <button onclick={link.callback(|_| Msg::ExportSamples)} title="Download the run's samples as CSV">{ "Samples CSV" }</button>
                        <button class="tw-presenter-button" onclick={link.callback(|_| Msg::Presenter)} aria-pressed={self.presenter.to_string()} title="Presenter mode (f)">{ "Present" }</button>
                        <button onclick={link.callback(|_| Msg::Help(true))} aria-label="Keyboard shortcuts (?)">{ "?" }</button>
                    </span>
                </div>
                if let Some(s) = &self.status {
                    <p class="tw-status" role="status">{ s.clone() }</p>
                }
                if !self.notes.is_empty() {
                    <ul class="tw-notes" role="status">{ for self.notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }</ul>
                }
                { help.unwrap_or_default() }
                <div class="tw-controls">{ for sliders }</div>
                <div class="tw-transport">
                    { play }
                    <button onclick={link.callback(|_| Msg::Step(Step::Event))} disabled={busy} title="Step to the next event (s)">{ "Next event" }</button>
                    <button onclick={link.callback(|_| Msg::Step(Step::Ack))} disabled={busy} title="Step to the next ACK (a)">{ "Next ACK" }</button>
                    <button onclick={link.callback(|_| Msg::Step(Step::RoundTrip))} disabled={busy} title="Step one round trip">{ "+1 RTT" }</button>
                    <button class="tw-restart" onclick={link.callback(|_| Msg::Restart)} title="Restart (r)">{ "⟲ Restart" }</button>
                    <label class="tw-speed">{ "Speed " }<select onchange={on_speed} aria-label="Playback speed">{ for speeds }</select></label>
                    <span class="tw-clock" data-readout="clock">{ format!("t = {} / {}", format_time(t), format_time(self.clock.end_ns)) }</span>
                    <span class="tw-cwnd-now" data-readout="cwnd">{ model.as_ref().map(|m| format!("cwnd {}", m.cwnd_at(t))).unwrap_or_default() }</span>
                </div>
                <input type="range" class="tw-scrubber" min="0" max="1000" step="1" aria-label="Time cursor"
                    aria-valuetext={format_time(t)}
                    value={((t / end) * 1000.0).round().to_string()} oninput={on_scrub} disabled={busy} />
                { progress }
                if !countdowns.is_empty() {
                    <p class="tw-countdowns" data-readout="countdowns">{ countdowns.iter().map(|c| c.text()).collect::<Vec<_>>().join(" · ") }</p>
                }
                { canvas(0, View::Path) }
                <div class="tw-slots">
                    <div>{ slot_select(0) }{ canvas(1, self.slots[0]) }</div>
                    <div>{ slot_select(1) }{ canvas(2, self.slots[1]) }</div>
                </div>
                { readouts.unwrap_or_default() }
                { panels.unwrap_or_default() }
            </div>
        }
    }
}

fn table_html(t: &crate::draw::table::Table) -> Html {
    let head = t
        .headers
        .iter()
        .map(|h| html! { <th scope="col">{ h.clone() }</th> });
    let rows = t.rows.iter().map(|r| {
        html! { <tr>{ for r.iter().map(|c| html! { <td>{ c.clone() }</td> }) }</tr> }
    });
    html! {
        <div class="tw-table-scroll">
            <table><caption>{ t.caption.clone() }</caption><thead><tr>{ for head }</tr></thead><tbody>{ for rows }</tbody></table>
        </div>
    }
}
