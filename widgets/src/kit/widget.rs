//! The widget shell every widget is built from: controls, transport, the
//! linked views of one run under one time cursor, text panels, presets, the
//! URL state, keyboard shortcuts, presenter mode and export.
//!
//! A change of any control starts a new run, simulated a slice per animation
//! frame so the page never freezes (a progress bar shows after 100 ms); the
//! views then read the finished run at the cursor.
//!
//! In compare mode (`compare=PARAM vs=VALUE`) the widget runs two scenarios
//! that differ only in PARAM, side by side under one clock: every other
//! control is shared, PARAM gets one control per side, and the charts of both
//! share one time axis.

use super::browser::{self, ThemeWatch};
use super::keys::{self, Action};
use super::model::Model;
use super::panels::{self, format_time};
use super::side::Side;
use super::transport::{self, Clock, SPEEDS, Step};
use super::url_state;
use super::views::{self, DEFAULT_SLOTS, View};
use crate::params::{self, Initial};
use crate::slider::Slider;
use crate::theme;
use gloo_render::{AnimationFrame, request_animation_frame};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use widget_catalogue::WidgetSpec;
use yew::prelude::*;

/// Wall time the runs may take per frame before the page gets the frame back.
const SLICE_MS: f64 = 10.0;
/// Show the progress bar once a run has taken this long.
const PROGRESS_AFTER_MS: f64 = 100.0;
/// How long a full playback lasts when the speed is chosen for the reader.
const TARGET_PLAY_NS: f64 = 12e9;
/// Type and lines in presenter mode, relative to normal.
const PRESENTER_SCALE: f64 = 1.8;
/// Side names in compare mode.
const SIDE_NAMES: [&str; 2] = ["A", "B"];

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
    /// The compared parameter's value on side B.
    SetVs(f64),
    Note(String),
    Preset(String),
    Slot(usize, View),
    ToggleTable(usize),
    Presenter,
    Help(bool),
    /// A shortcut, already stopped from reaching mdBook (see `key_action`).
    Key(Action),
    CopyLink,
    ExportSamples(usize),
    ExportTable(usize, usize, &'static str),
    ExportPicture(usize, usize, &'static str),
    Redraw,
}

pub struct Widget {
    /// One value per parameter (side A's, and the shared ones).
    values: Vec<f64>,
    /// Compare mode: the parameter side B changes, and its value there.
    compare: Option<(usize, f64)>,
    preset: Option<&'static str>,
    notes: Vec<String>,
    /// One side, or two in compare mode.
    sides: Vec<Side>,
    /// When the current runs started (page clock, ms).
    started_ms: f64,
    clock: Clock,
    speed_chosen: bool,
    pending_seek: Option<f64>,
    interactive: bool,
    slots: [View; 2],
    /// Which panels show their data table (rendered only when open).
    tables: [bool; 3],
    presenter: bool,
    help: bool,
    status: Option<String>,
    frame: Option<AnimationFrame>,
    slice: Option<AnimationFrame>,
    _theme: Option<ThemeWatch>,
    root: NodeRef,
}

impl Widget {
    /// The values side `k` simulates.
    fn side_values(&self, k: usize) -> Vec<f64> {
        let mut v = self.values.clone();
        if k == 1
            && let Some((i, vs)) = self.compare
        {
            v[i] = vs;
        }
        v
    }

    fn busy(&self) -> bool {
        self.sides.iter().any(Side::busy)
    }

    fn start_runs(&mut self, ctx: &Context<Self>) {
        let spec = ctx.props().spec;
        for k in 0..self.sides.len() {
            let scenario = super::scenario::build(spec, &self.side_values(k));
            self.sides[k].start(&scenario);
        }
        self.started_ms = browser::now_ms();
        self.clock.pause();
        self.frame = None;
        self.request_slice(ctx);
    }

    fn request_slice(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.slice = Some(request_animation_frame(move |_| {
            link.send_message(Msg::Slice)
        }));
    }

    /// Simulates for up to `SLICE_MS`, side after side; true when all are done.
    fn simulate_slice(&mut self) -> bool {
        let deadline = browser::now_ms() + SLICE_MS;
        self.sides.iter_mut().all(|s| s.simulate_until(deadline))
    }

    /// Every side has finished: one clock over the longest run.
    fn runs_finished(&mut self, ctx: &Context<Self>) {
        let end = self.end_ns();
        self.clock = Clock::new(end, self.clock.speed);
        if !self.speed_chosen {
            self.clock.speed = transport::auto_speed(end, TARGET_PLAY_NS);
        }
        if let Some(t) = self.pending_seek.take() {
            self.clock.seek(t);
        }
        if !self.interactive && self.sides.iter().all(|s| s.model.is_some()) {
            // From here the widget answers the reader. `cargo xtask bench`
            // reads this mark for time to interactive.
            self.interactive = true;
            browser::mark(&format!("tw-interactive:{}", ctx.props().id));
        }
    }

    fn models(&self) -> impl Iterator<Item = &Rc<Model>> {
        self.sides.iter().filter_map(|s| s.model.as_ref())
    }

    fn end_ns(&self) -> f64 {
        self.models().map(|m| m.end_ns).fold(0.0, f64::max)
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

    fn themed_root(&self) -> Option<web_sys::Element> {
        let root = self.root.cast::<web_sys::Element>()?;
        // Ink and paper are set on the placeholder (`.tcp-widget`) by widgets.css.
        Some(root.closest(".tcp-widget").ok().flatten().unwrap_or(root))
    }

    fn draw(&self) {
        let Some(themed) = self.themed_root() else {
            return;
        };
        let palette = theme::palette(&themed);
        let scale = self.scale();
        let ratio = theme::device_pixel_ratio();
        let end = self.end_ns();
        for side in &self.sides {
            let Some(model) = &side.model else { continue };
            for (view, canvas) in self.shown_views().iter().zip(&side.canvases) {
                if let Some(canvas) = canvas.cast::<HtmlCanvasElement>()
                    && let Some(backend) = sized_backend(&canvas, ratio)
                {
                    let _ = views::draw(
                        &backend.into_drawing_area(),
                        *view,
                        model,
                        self.clock.t_ns,
                        end,
                        &palette,
                        scale,
                    );
                }
            }
        }
    }

    /// Writes the state into the page URL (not on every frame: on pauses,
    /// steps, seeks and changes).
    fn save_url(&self, ctx: &Context<Self>) {
        let p = ctx.props();
        let views = (self.slots != DEFAULT_SLOTS).then(|| self.slots.map(View::name));
        let q = url_state::write(
            &browser::query(),
            &p.id,
            p.spec,
            &url_state::Saved {
                preset: self.preset,
                values: &self.values,
                compare: self.compare,
                views,
                t_ns: self.clock.t_ns,
            },
        );
        browser::replace_query(&q);
    }

    fn set_preset(&mut self, ctx: &Context<Self>, name: &str) -> bool {
        let spec = ctx.props().spec;
        let Some(values) = params::preset_values(spec, name) else {
            return false;
        };
        // In compare mode a preset sets the shared values and side A's; side
        // B keeps its own value of the compared parameter.
        self.values = values;
        self.preset = spec.preset(name).map(|p| p.name);
        self.start_runs(ctx);
        self.save_url(ctx);
        true
    }

    /// Names a download: widget, side in compare mode, what, extension.
    fn file_name(&self, ctx: &Context<Self>, side: usize, what: &str, ext: &str) -> String {
        let side = if self.compare.is_some() {
            format!("-{}", SIDE_NAMES[side].to_lowercase())
        } else {
            String::new()
        };
        format!("{}{side}-{what}.{ext}", ctx.props().spec.name)
    }

    /// "cc = bbr" for side `k` in compare mode.
    fn side_label(&self, spec: &WidgetSpec, k: usize) -> String {
        let Some((i, _)) = self.compare else {
            return String::new();
        };
        let p = &spec.params[i];
        format!(
            "{} · {} = {}",
            SIDE_NAMES[k],
            p.label,
            p.format(self.side_values(k)[i])
        )
    }

    fn next_step(&self, kind: Step) -> Option<f64> {
        self.models()
            .filter_map(|m| m.steps.next(kind, self.clock.t_ns))
            .reduce(f64::min)
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

impl Component for Widget {
    type Message = Msg;
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        let p = ctx.props();
        let link = ctx.link().clone();
        let slots = views::slots(&p.initial.views);
        let sides = if p.initial.compare.is_some() { 2 } else { 1 };
        let mut w = Widget {
            values: p.initial.values.clone(),
            compare: p.initial.compare,
            preset: p.initial.preset,
            notes: p.initial.notes.clone(),
            sides: (0..sides).map(|_| Side::default()).collect(),
            started_ms: 0.0,
            clock: Clock::new(0.0, 0.01),
            speed_chosen: false,
            pending_seek: p.start_ns,
            interactive: false,
            slots,
            tables: [false; 3],
            presenter: false,
            help: false,
            status: None,
            frame: None,
            slice: None,
            _theme: ThemeWatch::new(move || link.send_message(Msg::Redraw)),
            root: NodeRef::default(),
        };
        if browser::prefers_reduced_motion() {
            w.notes.push(
                "Your system asks for reduced motion: the widget waits for you. Step with s (next event) or a (next ACK)."
                    .into(),
            );
        }
        w.start_runs(ctx);
        w
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        let spec = ctx.props().spec;
        match msg {
            Msg::Slice => {
                if !self.busy() {
                    return false;
                }
                if self.simulate_slice() {
                    self.slice = None;
                    self.runs_finished(ctx);
                } else {
                    self.request_slice(ctx);
                    // Re-render only to show the progress bar.
                    return browser::now_ms() - self.started_ms > PROGRESS_AFTER_MS;
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
                if !self.interactive || self.busy() {
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
                if !self.interactive {
                    return false;
                }
                self.clock.pause();
                self.frame = None;
                if let Some(t) = self.next_step(kind) {
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
                self.start_runs(ctx);
                self.save_url(ctx);
            }
            Msg::SetVs(v) => {
                let Some((i, vs)) = self.compare.as_mut() else {
                    return false;
                };
                let v = spec.params[*i].clamp(v);
                if *vs == v {
                    return false;
                }
                *vs = v;
                self.start_runs(ctx);
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
                self.save_url(ctx);
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
            Msg::Key(action) => {
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
            Msg::ExportSamples(side) => {
                if let Some(m) = self.sides.get(side).and_then(|s| s.model.as_ref()) {
                    browser::download_text(
                        &self.file_name(ctx, side, "samples", "csv"),
                        "text/csv",
                        &m.samples_csv,
                    );
                }
                return false;
            }
            Msg::ExportTable(side, slot, format) => {
                let (Some(m), Some(view)) = (
                    self.sides.get(side).and_then(|s| s.model.as_ref()),
                    self.shown_views().get(slot).copied(),
                ) else {
                    return false;
                };
                let table = view.table(m);
                let (text, mime) = if format == "json" {
                    (table.to_json(), "application/json")
                } else {
                    (table.to_csv(), "text/csv")
                };
                let name = self.file_name(ctx, side, view.name(), format);
                browser::download_text(&name, mime, &text);
                return false;
            }
            Msg::ExportPicture(side, slot, format) => {
                let (Some(s), Some(view)) =
                    (self.sides.get(side), self.shown_views().get(slot).copied())
                else {
                    return false;
                };
                let Some(m) = &s.model else { return false };
                let name = self.file_name(ctx, side, view.name(), format);
                let canvas = s.canvases[slot].cast::<HtmlCanvasElement>();
                if format == "png" {
                    if let Some(c) = canvas {
                        browser::download_canvas(&name, &c);
                    }
                } else if let Some(root) = self.themed_root() {
                    let (w, h) = canvas.map_or((800, view.height()), |c| {
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
        let comparing = self.compare.is_some();
        let on_note = link.callback(Msg::Note);
        let sliders = p.spec.params.iter().enumerate().map(|(i, param)| {
            let on_change = link.callback(move |v| Msg::Set(i, v));
            let control_id = format!("{id}-{}", param.name);
            match self.compare {
                Some((c, vs)) if c == i => html! {
                    <div class="tw-compared">
                        <Slider id={control_id.clone()} spec={param} value={self.values[i]} {on_change} on_note={on_note.clone()} prefix="A · " />
                        <Slider id={format!("{control_id}-b")} spec={param} value={vs} on_change={link.callback(Msg::SetVs)} on_note={on_note.clone()} prefix="B · " />
                    </div>
                },
                _ => html! { <Slider id={control_id} spec={param} value={self.values[i]} {on_change} on_note={on_note.clone()} /> },
            }
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
        let onkeydown = link.batch_callback(|e: KeyboardEvent| key_action(&e).map(Msg::Key));
        let busy = self.busy();
        let end = self.clock.end_ns.max(1.0);
        let on_scrub = link.callback(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            Msg::Seek(input.value().parse::<f64>().unwrap_or(0.0) / 1000.0 * end)
        });
        let play = if self.clock.playing {
            html! { <button class="tw-play" onclick={link.callback(|_| Msg::PlayPause)} aria-label="Pause (space)">{ "❚❚ Pause" }</button> }
        } else {
            html! { <button class="tw-play" disabled={busy} onclick={link.callback(|_| Msg::PlayPause)} aria-label="Play (space)">{ "▶ Play" }</button> }
        };
        let errors = self.sides.iter().filter_map(Side::error).map(|e| {
            html! { <div class="tw-notes" role="alert">{ format!("Cannot simulate: {e}") }</div> }
        });
        let progress = (busy && browser::now_ms() - self.started_ms > PROGRESS_AFTER_MS).then(|| {
            let done = self.sides.iter().map(|s| s.progress).sum::<f64>() / self.sides.len() as f64;
            html! {
                <div class="tw-progress" role="status">
                    { "Simulating… " }
                    <progress max="1" value={done.to_string()}>{ format!("{:.0} %", done * 100.0) }</progress>
                </div>
            }
        });
        let t = self.clock.t_ns;
        let slot_select = |slot: usize| {
            let options = View::CHARTS.iter().map(|v| {
                html! { <option value={v.name()} selected={self.slots[slot] == *v}>{ v.title() }</option> }
            });
            let on = link.callback(move |e: Event| {
                let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
                Msg::Slot(slot, View::from_name(&sel.value()).unwrap_or(View::Window))
            });
            html! { <label class="tw-slot">{ format!("Panel {} ", slot + 1) }<select onchange={on} aria-label={format!("View in panel {}", slot + 1)}>{ for options }</select></label> }
        };
        let side_html = |k: usize| self.side_html(ctx, k, t, comparing);
        let countdowns: Vec<String> = self
            .sides
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
                    .timers_at(t)
                    .into_iter()
                    .map(move |c| format!("{prefix}{}", c.text()))
            })
            .collect();
        let cwnd = self
            .sides
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
            .join(" · ");
        let help = self.help.then(|| {
            let rows = keys::HELP.iter().map(|(k, d)| html! { <tr><th scope="row"><kbd>{ *k }</kbd></th><td>{ *d }</td></tr> });
            html! {
                <div class="tw-help" role="dialog" aria-label="Keyboard shortcuts">
                    <table><caption>{ "Keyboard shortcuts (with the widget focused)" }</caption>{ for rows }</table>
                    <button onclick={link.callback(|_| Msg::Help(false))}>{ "Close" }</button>
                </div>
            }
        });
        // Speaker notes are for the instructor at the projector only.
        let speaker_notes = self
            .preset
            .and_then(|name| p.spec.preset(name))
            .filter(|pr| self.presenter && !pr.notes.is_empty())
            .map(|pr| {
                html! {
                    <aside class="tw-speaker-notes" aria-label="Speaker notes">
                        <strong>{ "Notes: " }</strong>{ pr.notes }
                    </aside>
                }
            });
        let root_class = classes!(
            "tw-root",
            self.presenter.then_some("tw-presenter"),
            busy.then_some("tw-busy"),
            comparing.then_some("tw-comparing")
        );
        let title = if comparing {
            format!(
                "{} — compare {}",
                p.spec.title,
                self.compare.map_or("", |(i, _)| p.spec.params[i].label)
            )
        } else {
            p.spec.title.to_string()
        };
        html! {
            <div class={root_class} ref={self.root.clone()} {onkeydown} tabindex="-1">
                <div class="tw-header">
                    <span class="tw-title">{ title }</span>
                    <label class="tw-preset">{ "Preset " }
                        <select onchange={on_preset} aria-label="Preset (keys 1–9)">
                            <option value="" selected={self.preset.is_none()} disabled=true>{ "custom" }</option>
                            { for presets }
                        </select>
                    </label>
                    <span class="tw-tools">
                        <button onclick={link.callback(|_| Msg::CopyLink)} title="Copy a link to exactly this state">{ "Copy link" }</button>
                        if !comparing {
                            <button onclick={link.callback(|_| Msg::ExportSamples(0))} title="Download the run's samples as CSV">{ "Samples CSV" }</button>
                        }
                        <button class="tw-presenter-button" onclick={link.callback(|_| Msg::Presenter)} aria-pressed={self.presenter.to_string()} title="Presenter mode (f)">{ "Present" }</button>
                        <button onclick={link.callback(|_| Msg::Help(true))} aria-label="Keyboard shortcuts (?)">{ "?" }</button>
                    </span>
                </div>
                { speaker_notes.unwrap_or_default() }
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
                    <span class="tw-cwnd-now" data-readout="cwnd">{ cwnd }</span>
                </div>
                <input type="range" class="tw-scrubber" min="0" max="1000" step="1" aria-label="Time cursor"
                    aria-valuetext={format_time(t)}
                    value={((t / end) * 1000.0).round().to_string()} oninput={on_scrub} disabled={busy} />
                { progress.unwrap_or_default() }
                { for errors }
                if !countdowns.is_empty() {
                    <p class="tw-countdowns" data-readout="countdowns">{ countdowns.join(" · ") }</p>
                }
                <div class="tw-slot-choice">{ slot_select(0) }{ slot_select(1) }</div>
                if comparing {
                    <div class="tw-compare">{ side_html(0) }{ side_html(1) }</div>
                } else {
                    { side_html(0) }
                }
            </div>
        }
    }
}

impl Widget {
    /// One run's column: the path view, the two chart panels, the readouts
    /// and the text panels.
    fn side_html(&self, ctx: &Context<Self>, k: usize, t: f64, comparing: bool) -> Html {
        let link = ctx.link();
        let side = &self.sides[k];
        let model = side.model.clone();
        let canvas = |slot: usize, view: View| {
            let open = self.tables[slot];
            let table_view = model
                .as_ref()
                .filter(|_| open)
                .map(|m| panels::table_html(&view.table(m)));
            let legend = (view == View::Path).then(flight_legend);
            html! {
                <figure class={classes!("tw-view", format!("tw-view-{}", view.name()))} aria-label={view.title()}>
                    <canvas class="tw-canvas" ref={side.canvases[slot].clone()} role="img"
                        aria-label={view.description()} data-view={view.name()}
                        style={format!("height: {}px", view.height())}></canvas>
                    <figcaption class="tw-view-tools">
                        { legend.unwrap_or_default() }
                        <button onclick={link.callback(move |_| Msg::ExportPicture(k, slot, "png"))} title="Download as PNG" aria-label={format!("{}: download as PNG", view.title())}>{ "PNG" }</button>
                        <button onclick={link.callback(move |_| Msg::ExportPicture(k, slot, "svg"))} title="Download as SVG" aria-label={format!("{}: download as SVG", view.title())}>{ "SVG" }</button>
                        <button onclick={link.callback(move |_| Msg::ExportTable(k, slot, "csv"))} title="Download the data as CSV" aria-label={format!("{}: download the data as CSV", view.title())}>{ "CSV" }</button>
                        <button onclick={link.callback(move |_| Msg::ExportTable(k, slot, "json"))} title="Download the data as JSON" aria-label={format!("{}: download the data as JSON", view.title())}>{ "JSON" }</button>
                        <button onclick={link.callback(move |_| Msg::ToggleTable(slot))} aria-expanded={open.to_string()} aria-label={format!("{}: data table", view.title())}>
                            { if open { "Hide data table" } else { "Data table" } }
                        </button>
                    </figcaption>
                    { table_view.unwrap_or_default() }
                </figure>
            }
        };
        let body = html! {
            <>
                { canvas(0, View::Path) }
                <div class="tw-slots">
                    <div>{ canvas(1, self.slots[0]) }</div>
                    <div>{ canvas(2, self.slots[1]) }</div>
                </div>
                { model.as_ref().map(|m| panels::readouts(m, t)).unwrap_or_default() }
                { model.as_ref().map(|m| panels::text_panels(m, t)).unwrap_or_default() }
            </>
        };
        if !comparing {
            return body;
        }
        let spec = ctx.props().spec;
        html! {
            <section class="tw-side" data-side={SIDE_NAMES[k].to_lowercase()} aria-label={self.side_label(spec, k)}>
                <h4 class="tw-side-title">
                    { self.side_label(spec, k) }
                    <button onclick={link.callback(move |_| Msg::ExportSamples(k))} title="Download this run's samples as CSV">{ "Samples CSV" }</button>
                </h4>
                { body }
            </section>
        }
    }
}

/// The key to the path view's colours: data segments take their flight's
/// colour (the seven Okabe–Ito colours, repeating), ACKs the ink colour.
fn flight_legend() -> Html {
    let swatches = crate::palette::SERIES.iter().enumerate().map(|(i, c)| {
        html! {
            <span class="tw-swatch" style={format!("background: rgb({}, {}, {})", c.0, c.1, c.2)}
                title={format!("flight {}", i + 1)}></span>
        }
    });
    html! {
        <span class="tw-legend" data-legend="flights">
            { "Flights 1–7, then again: " }{ for swatches }{ " · ACKs in ink · ✕ drop" }
        </span>
    }
}

/// What a key pressed inside the widget does, deciding there and then whether
/// the browser and mdBook see it. This must run in the event's own dispatch:
/// yew may queue a message behind a render, and by the time it is handled the
/// key would have reached mdBook's listener on `document` (←/→ change the
/// chapter, `s` opens search) or scrolled the page (space).
fn key_action(e: &KeyboardEvent) -> Option<Action> {
    let target = e
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
    let in_field = target.as_ref().is_some_and(|t| {
        let tag = t.tag_name();
        tag == "SELECT"
            || (tag == "INPUT"
                && !matches!(
                    t.get_attribute("type").as_deref(),
                    Some("range" | "checkbox")
                ))
    });
    let modifier = e.ctrl_key() || e.meta_key() || e.alt_key();
    // Keys stay in the widget: mdBook's ←/→ and `s` must not fire.
    e.stop_propagation();
    let action = keys::action(&e.key(), in_field, modifier)?;
    // A range input's own arrow keys move the slider, not the cursor.
    let on_range = target
        .as_ref()
        .is_some_and(|t| t.get_attribute("type").as_deref() == Some("range"));
    if on_range && matches!(action, Action::Scrub(_)) {
        return None;
    }
    e.prevent_default();
    Some(action)
}
