//! The widget shell every widget is built from: controls, transport, the
//! linked views of one run under one time cursor, text panels, presets, the
//! URL state, keyboard shortcuts, presenter mode and export.
//!
//! In compare mode (`compare=PARAM vs=VALUE`) the widget runs two scenarios
//! that differ only in PARAM, side by side under one clock: every other
//! control is shared, PARAM gets one control per side, and the charts of both
//! share one time axis (see `kit::compare`).
//!
//! The component here is the glue between the page and its parts:
//!
//! ```text
//!   page event ──► Msg ──► state::State::update ──► Effects ──► apply: frames, URL, full screen
//!                   │                                              │
//!                   ├──► export (downloads, link)                  ▼
//!                   └──► draw (canvases)              view::widget (HTML) ──► rendered ──► draw
//! ```
//!
//! `state` holds the messages and the state machine (plain Rust, tested
//! natively; `effects` what a transition asks of the page), `view` the HTML (`menus` its disclosures: "Data & export",
//! "Details"), `export` the downloads and the link, `keys` the shortcuts. The component owns what only a page has: the canvases,
//! the animation frames and the theme watch.

mod canvas;
mod effects;
mod export;
pub mod keys;
mod menus;
mod pointer;
pub mod predict;
mod readouts;
pub mod state;
#[cfg(test)]
mod state_tests;
mod stray_keys;
mod view;

use super::browser::{self, ThemeWatch};
use super::url_state;
use super::views;
use crate::draw::backend::Backend;
use crate::draw::time_axis::TimeAxis;
use crate::params::Initial;
use crate::theme;
use export::{Download, LinkStatus};
use gloo_render::{AnimationFrame, request_animation_frame};
use plotters::prelude::*;
use state::{Effects, Frames, State};
use stray_keys::StrayKeys;
use web_sys::{HtmlCanvasElement, HtmlInputElement};
use widget_catalogue::WidgetSpec;
use yew::prelude::*;

/// Shown when the reader's system asks for reduced motion (the widget then
/// never plays by itself).
const REDUCED_MOTION_NOTE: &str = "Your system asks for reduced motion: the widget waits for you. Step with s (next event) or a (next ACK).";

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The placeholder's id, unique on the page; prefixes control ids and URL keys.
    pub id: AttrValue,
    pub spec: &'static WidgetSpec,
    pub initial: Initial,
    /// Where the cursor starts (from a link).
    pub start_ns: Option<f64>,
    /// Whether the widget keeps its state in the page's address (not on a
    /// host page that owns it: `url-state="off"`).
    pub writes_url: bool,
    /// Predict-first mode (`data-predict`, see `predict`).
    pub predict: bool,
}

pub enum Msg {
    /// A change of the widget's state.
    State(state::Msg),
    CopyLink,
    /// How copying the link went.
    LinkCopied(LinkStatus),
    Download(Download),
    /// The page's theme changed: draw again in its colours.
    Redraw,
    /// The pointer on a canvas (see `pointer`).
    Pointer(pointer::Input),
    /// The widget left the page: its app waits, empty, for the next mount
    /// (`kit::mount`).
    Leave,
    /// A waiting app was given the next mount's widget (its props, which
    /// may equal the last ones): it starts afresh, as a new app would.
    Arrive,
}

impl From<state::Msg> for Msg {
    fn from(m: state::Msg) -> Msg {
        Msg::State(m)
    }
}

impl From<Download> for Msg {
    fn from(d: Download) -> Msg {
        Msg::Download(d)
    }
}

pub struct Widget {
    state: State,
    /// Each side's canvases: the path view's and the two chart panels'.
    canvases: Vec<[NodeRef; 3]>,
    /// The next playback frame, while playing.
    frame: Option<AnimationFrame>,
    /// The next simulation slice, while simulating.
    slice: Option<AnimationFrame>,
    /// What the canvases show now (see [`DrawnKey`]): a render that changes
    /// none of it, e.g. a simulation slice moving the progress bar, draws
    /// nothing, which keeps each slice short.
    drawn: Option<DrawnKey>,
    /// The placeholder's id, for the performance marks.
    id: AttrValue,
    /// Redraws on a theme change, from the first render on (it needs the
    /// themed element).
    theme_watch: Option<ThemeWatch>,
    /// Keys pressed with nothing focused after the reader was in the
    /// widget, from the first render on (it needs the elements).
    stray_keys: Option<StrayKeys>,
    root: NodeRef,
    /// The field the link is shown in when the clipboard refused it.
    link_field: NodeRef,
    /// Select that field's text once it is on the page.
    select_link: bool,
    /// Where each canvas's view put time when last drawn, for the pointer.
    time_axes: Vec<[Option<TimeAxis>; 3]>,
    pointer: pointer::Pointer,
    /// The run whose figures the placeholder carries (`data-results`).
    published: Option<*const crate::kit::model::Model>,
    /// The widget's words, from the words file (`kit::page_text`).
    page: crate::kit::page_text::PageText,
    /// Left the page (`Msg::Leave`): it holds no run and shows nothing.
    left: bool,
    /// Given to a waiting app (`Msg::Arrive`): its next render is its first.
    fresh: bool,
}

impl Component for Widget {
    type Message = Msg;
    type Properties = Props;

    fn create(ctx: &Context<Self>) -> Self {
        let p = ctx.props();
        // A link's cursor would show the run before the prediction.
        let start_ns = p.start_ns.filter(|_| !p.predict);
        let mut state = State::new(&p.initial, start_ns, browser::now_ms);
        if p.predict {
            state.predict = predict::Phase::Waiting;
        }
        if browser::prefers_reduced_motion() {
            state.notes.push(REDUCED_MOTION_NOTE.into());
        }
        let effects = state.start_runs(p.spec);
        let mut w = Widget {
            canvases: state.sides.iter().map(|_| Default::default()).collect(),
            state,
            frame: None,
            slice: None,
            theme_watch: None,
            drawn: None,
            id: p.id.clone(),
            stray_keys: None,
            root: NodeRef::default(),
            link_field: NodeRef::default(),
            select_link: false,
            time_axes: Vec::new(),
            pointer: pointer::Pointer::default(),
            published: None,
            page: crate::kit::page_text::PageText::of(p.spec),
            left: false,
            fresh: false,
        };
        w.apply(ctx, effects);
        w
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        // A message sent before the widget left (a slice, a copied link) finds
        // no run: only the next mount's arrival is read.
        if self.left && !matches!(msg, Msg::Arrive) {
            return false;
        }
        let spec = ctx.props().spec;
        match msg {
            Msg::State(m) => {
                // A frame's message means that frame has fired: the next
                // one needs requesting (see `follow`).
                match m {
                    state::Msg::Slice => self.slice = None,
                    state::Msg::Frame(_) => self.frame = None,
                    _ => {}
                }
                let effects = self.state.update(spec, m);
                self.apply(ctx, effects)
            }
            Msg::CopyLink => {
                self.save_url(ctx);
                let link = ctx.link().clone();
                let copied = export::copy_link(browser::href());
                wasm_bindgen_futures::spawn_local(async move {
                    link.send_message(Msg::LinkCopied(copied.await));
                });
                false
            }
            Msg::LinkCopied(status) => {
                self.select_link = matches!(status, LinkStatus::CopyByHand(_));
                self.state.status = Some(status);
                true
            }
            Msg::Download(d) => {
                export::download(d, spec, &self.state, &self.canvases, || {
                    themed_root(&self.root)
                });
                false
            }
            Msg::Redraw => {
                // The same watch sees the page take a prediction.
                let answered =
                    themed_root(&self.root).is_some_and(|e| e.has_attribute("data-answered"));
                if answered && self.state.predict.locked() {
                    let effects = self.state.update(spec, state::Msg::Answered);
                    return self.apply(ctx, effects);
                }
                self.draw(true);
                false
            }
            Msg::Pointer(input) => self.pointer_input(ctx, input),
            Msg::Leave => {
                // Dropped: the runs' memory, the frames and the watches.
                self.state.sides.clear();
                self.canvases.clear();
                (self.frame, self.slice, self.theme_watch, self.stray_keys) =
                    (None, None, None, None);
                self.left = true;
                true
            }
            Msg::Arrive => {
                *self = <Self as Component>::create(ctx);
                self.fresh = true;
                true
            }
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first: bool) {
        if self.left {
            return;
        }
        let first = first | std::mem::take(&mut self.fresh);
        if first && let Some(themed) = themed_root(&self.root) {
            let link = ctx.link().clone();
            self.theme_watch = ThemeWatch::new(&themed, move || link.send_message(Msg::Redraw));
            if let Some(root) = self.root.cast::<web_sys::HtmlElement>() {
                let link = ctx.link().clone();
                self.stray_keys = StrayKeys::new(&themed, root, move |a| {
                    link.send_message(Msg::State(state::Msg::Key(a)))
                });
            }
            if themed.has_attribute("data-answered") {
                ctx.link().send_message(Msg::Redraw);
            }
        }
        if std::mem::take(&mut self.select_link)
            && let Some(field) = self.link_field.cast::<HtmlInputElement>()
        {
            // Focused and selected: Ctrl+C (or the menu) copies it.
            let _ = field.focus();
            field.select();
        }
        self.draw(false);
        self.publish(ctx.props().spec);
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        if self.left {
            return Html::default();
        }
        let p = ctx.props();
        let ui = view::Ui {
            spec: p.spec,
            id: &p.id,
            state: &self.state,
            link: ctx.link(),
            canvases: &self.canvases,
            link_field: &self.link_field,
            page: &self.page,
        };
        view::widget(&ui, self.root.clone())
    }
}

impl Widget {
    /// Carries out a transition's effects on the page; returns whether to
    /// re-render.
    fn apply(&mut self, ctx: &Context<Self>, effects: Effects) -> bool {
        follow(&mut self.slice, effects.slice, ctx, |_| state::Msg::Slice);
        follow(&mut self.frame, effects.frame, ctx, state::Msg::Frame);
        if effects.interactive {
            // From here the widget answers the reader. `cargo xtask bench`
            // reads this mark for time to interactive.
            browser::mark(&format!("tw-interactive:{}", ctx.props().id));
        }
        if let Some(on) = effects.fullscreen
            && let Some(el) = self.root.cast::<web_sys::Element>()
        {
            browser::fullscreen(&el, on);
        }
        if effects.save_url {
            self.save_url(ctx);
        }
        effects.render
    }

    /// Turns a pointer input into the state's messages (see `pointer`).
    fn pointer_input(&mut self, ctx: &Context<Self>, input: pointer::Input) -> bool {
        let axis = self.time_axes.get(input.k).and_then(|a| a[input.slot]);
        let outcome = self.pointer.input(input, axis, self.state.clock.t_ns);
        let msgs = match outcome {
            pointer::Outcome::Nothing => vec![],
            pointer::Outcome::Start(t) => {
                let mut m = vec![state::Msg::Hover(None), state::Msg::Drag(t)];
                if self.state.clock.playing {
                    m.insert(0, state::Msg::PlayPause);
                }
                m
            }
            pointer::Outcome::Drag(t) => vec![state::Msg::Drag(t)],
            pointer::Outcome::End(t) => vec![state::Msg::Seek(t)],
            pointer::Outcome::Hover(h) => vec![state::Msg::Hover(h)],
        };
        let mut render = false;
        for m in msgs {
            let effects = self.state.update(ctx.props().spec, m);
            render |= self.apply(ctx, effects);
        }
        render
    }

    /// Writes the state into the page URL, unless the host owns it, or the
    /// widget is off the page (a wiki swapped its page out: the address is
    /// the next page's by now).
    fn save_url(&self, ctx: &Context<Self>) {
        let p = ctx.props();
        let on_page = self.root.get().is_some_and(|n| n.is_connected());
        if !p.writes_url || !on_page {
            return;
        }
        let q = url_state::write(&browser::query(), &p.id, p.spec, &self.state.saved());
        browser::replace_query(&q);
    }

    /// Writes the figures of a complete run (side A's) and the values it
    /// ran with onto the placeholder, for the page's exercises: each new
    /// run once, and in predict mode only once revealed (`data-revealed`).
    fn publish(&mut self, spec: &WidgetSpec) {
        let s = &self.state;
        let Some(side) = s.sides.first() else { return };
        let Some(m) = side.model.as_ref().filter(|_| !side.previewing) else {
            return;
        };
        let key = Some(std::rc::Rc::as_ptr(m));
        if s.busy() || s.predict.hidden() || self.published == key {
            return;
        }
        let Some(el) = themed_root(&self.root) else {
            return;
        };
        self.published = key;
        let results = crate::kit::results::Results::of_model(m);
        let _ = el.set_attribute("data-results", &results.to_json());
        let values = crate::kit::results::values_json(spec, &s.values);
        let _ = el.set_attribute("data-values", &values);
        if s.predict == predict::Phase::Revealed {
            let _ = el.set_attribute("data-revealed", "1");
        }
    }

    /// Draws every side's views at the cursor, on one time axis, unless
    /// they already show just that and `force` is off (a theme change).
    fn draw(&mut self, force: bool) {
        let Some(themed) = themed_root(&self.root) else {
            return;
        };
        let key = DrawnKey::of(&self.state, &self.canvases);
        if !force && self.drawn.as_ref() == Some(&key) {
            return;
        }
        let new_runs = self.drawn.as_ref().is_none_or(|d| d.models != key.models);
        self.drawn = Some(key);
        let mut palette = theme::palette(&themed);
        palette.hide_future = self.state.predict.hidden();
        let ratio = theme::device_pixel_ratio();
        let scale = ratio * self.state.presenter_scale();
        let (t, end) = (self.state.clock.t_ns, key_end(&self.state));
        // Compared runs share each chart's axes: the higher top of the two.
        let shown = self.state.shown_views();
        let axes = shown.map(|view| views::Axes {
            end_ns: end,
            y_top: self
                .state
                .models()
                .map(|m| self.state.y_top(view, m))
                .fold(f64::NAN, f64::max),
        });
        let look = self.state.look;
        self.time_axes.resize(self.canvases.len(), [None; 3]);
        for ((side, canvases), time_axes) in
            (self.state.sides.iter().zip(&self.canvases)).zip(&mut self.time_axes)
        {
            let Some(model) = &side.model else { continue };
            let stretch = side.detail.at(t).map(|s| &**s);
            for (((view, axes), canvas), time_axis) in
                shown.iter().zip(axes).zip(canvases).zip(time_axes)
            {
                if let Some(canvas) = canvas.cast::<HtmlCanvasElement>()
                    && let Some(backend) = sized_backend(&canvas, ratio)
                {
                    let area = backend.into_drawing_area();
                    *time_axis = views::draw_with(
                        &area, *view, model, stretch, t, axes, look, &palette, scale,
                    )
                    .ok();
                    if let (Some(axis), Some((_, _, hover_ns, _))) =
                        (time_axis.as_ref(), self.state.hover)
                    {
                        // The instant hovered, in every view (see `draw::hover_line`).
                        let _ =
                            crate::draw::hover_line::draw(&area, axis, hover_ns, &palette, scale);
                    }
                    pointer::publish(&canvas, time_axis.as_ref(), ratio);
                }
            }
            if let Some(canvas) = canvases[0].cast::<HtmlCanvasElement>() {
                let path = stretch
                    .filter(|s| s.covers(t))
                    .map_or(&model.path, |s| &s.path);
                mark_path(&canvas, &path.at(t));
            }
        }
        if new_runs {
            // The first frame that shows new runs (their beginning, while a
            // long one still simulates: see `kit::side`'s preview), and the
            // frame that shows them whole: `cargo xtask bench` times a
            // slider change to each mark.
            browser::mark(&format!("tw-drawn:{}", self.id));
            if !self.state.busy() {
                browser::mark(&format!("tw-complete:{}", self.id));
            }
        }
    }
}

/// Everything a drawing depends on apart from the theme (a theme change
/// redraws anyway): each side's model, the views shown, the cursor, the time
/// axis, the scale and the canvases.
#[derive(PartialEq)]
struct DrawnKey {
    models: Vec<Option<*const crate::kit::model::Model>>,
    /// Each side's replayed stretch at the cursor (see `kit::detail`).
    stretches: Vec<Option<*const crate::kit::detail::Stretch>>,
    views: [views::View; 3],
    look: views::Look,
    t_ns: f64,
    /// The instant the pointer hovers over, marked in every view.
    hover_ns: Option<f64>,
    end_ns: f64,
    /// The run after the cursor is left blank (`predict`).
    hidden: bool,
    scale: f64,
    /// Each canvas's size on the page and its backing store's: a canvas yew
    /// has just made has the default backing store, and is drawn.
    sizes: Vec<(i32, i32, u32, u32)>,
}

impl DrawnKey {
    fn of(state: &State, canvases: &[[NodeRef; 3]]) -> DrawnKey {
        DrawnKey {
            models: state
                .sides
                .iter()
                .map(|s| s.model.as_ref().map(std::rc::Rc::as_ptr))
                .collect(),
            stretches: state
                .sides
                .iter()
                .map(|s| s.detail.at(state.clock.t_ns).map(std::rc::Rc::as_ptr))
                .collect(),
            views: state.shown_views(),
            look: state.look,
            t_ns: state.clock.t_ns,
            hover_ns: state.hover.map(|h| h.2),
            end_ns: key_end(state),
            hidden: state.predict.hidden(),
            scale: theme::device_pixel_ratio() * state.presenter_scale(),
            sizes: canvases
                .iter()
                .flatten()
                .filter_map(|c| c.cast::<HtmlCanvasElement>())
                .map(|c| (c.client_width(), c.client_height(), c.width(), c.height()))
                .collect(),
        }
    }
}

/// Where the charts' time axis ends: the longest run's end, or while its
/// result is hidden a span that does not tell it (`predict`).
fn key_end(state: &State) -> f64 {
    if state.predict.hidden() {
        state.span_ns()
    } else {
        state.end_ns()
    }
}

/// Writes what the path view shows at the cursor onto its canvas, for
/// scripts and tests that cannot read pixels: the data segments in flight,
/// the ACKs, the packets queued, and whether the packets there are still
/// being replayed (`kit::detail`).
fn mark_path(canvas: &HtmlCanvasElement, on: &crate::series::path::OnPath) {
    let set = |k: &str, v: String| {
        let _ = canvas.set_attribute(k, &v);
    };
    set("data-in-flight", on.downlink.data.to_string());
    set("data-acks", on.uplink.acks.to_string());
    set("data-queued", on.downlink.queued.to_string());
    set("data-replaying", (!on.recorded).to_string());
}

/// Starts, stops or keeps a stream of animation frames, each sending `msg`
/// with the frame's time. A request while a frame is pending keeps that one:
/// replacing it would cancel it, and a stream asked for on every playback
/// frame (replays, see `kit::detail`) would then never run.
fn follow(
    current: &mut Option<AnimationFrame>,
    want: Frames,
    ctx: &Context<Widget>,
    msg: fn(f64) -> state::Msg,
) {
    match want {
        Frames::Keep => {}
        Frames::Cancel => *current = None,
        Frames::Request if current.is_some() => {}
        Frames::Request => {
            let link = ctx.link().clone();
            *current = Some(request_animation_frame(move |ts| {
                link.send_message(msg(ts))
            }));
        }
    }
}

/// The element whose colours the drawings take: the placeholder
/// (`.tcp-widget`), where widgets.css sets ink and paper.
fn themed_root(root: &NodeRef) -> Option<web_sys::Element> {
    let root = root.cast::<web_sys::Element>()?;
    Some(root.closest(".tcp-widget").ok().flatten().unwrap_or(root))
}

/// Sizes the canvas backing store for the device-pixel ratio (plotters-canvas
/// does not) and wraps it for plotters.
fn sized_backend(canvas: &HtmlCanvasElement, ratio: f64) -> Option<Backend<'static>> {
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
    crate::draw::backend::CanvasDraw::new(canvas.clone()).map(Backend::Canvas)
}
