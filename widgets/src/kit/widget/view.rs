//! The widget's HTML, read from its state: the header (title, preset,
//! tools and the "Data & export" menu), the notes and overlays, the
//! controls (the few shown first, the rest behind "More settings"), the
//! transport (play, steps, speed, clock, scrubber), the headline, the
//! choice of chart panels and each side's column of views, with its
//! readouts and text panels behind "Details" (`menus`). What the canvases
//! show is drawn by the component (see `kit::views`), not here.

use super::export::LinkStatus;
use super::keys;
use super::menus;
use super::state::{Msg, State};
use super::{Msg as WidgetMsg, Widget};
use crate::kit::compare::{self, SIDE_NAMES};
use crate::kit::headline::Headline;
use crate::kit::page_text::PageText;
use crate::kit::panels;
use crate::kit::side::Side;
use crate::kit::transport::{SPEEDS, Step};
use crate::kit::views::View;
use crate::params::Note;
use crate::slider::Slider;
use crate::units::TimeUnit;
use sim_core::decimal::parse_f64;
use web_sys::HtmlSelectElement;
use widget_catalogue::WidgetSpec;
use yew::html::Scope;
use yew::prelude::*;

/// What the view reads.
pub struct Ui<'a> {
    pub spec: &'static WidgetSpec,
    /// The placeholder's id, unique on the page; prefixes control ids.
    pub id: &'a str,
    pub state: &'a State,
    pub link: &'a Scope<Widget>,
    /// Each side's canvases: the path view's and the two chart panels'.
    pub canvases: &'a [[NodeRef; 3]],
    /// The field holding the link when the clipboard refused it.
    pub link_field: &'a NodeRef,
    /// The widget's words its page carries (titles, help, notes).
    pub page: &'a PageText,
}

/// The whole widget; `root` is its outer element (keys, full screen, theme).
pub fn widget(ui: &Ui, root: NodeRef) -> Html {
    let s = ui.state;
    let comparing = s.compare.is_some();
    let root_class = classes!(
        "tw-root",
        s.presenter.then_some("tw-presenter"),
        s.busy().then_some("tw-busy"),
        comparing.then_some("tw-comparing")
    );
    let onkeydown = ui.link.batch_callback(|e: KeyboardEvent| {
        keys::key_action(&e).map(|a| WidgetMsg::from(Msg::Key(a)))
    });
    html! {
        <div class={root_class} ref={root} {onkeydown} tabindex="-1">
            // What the reader sets, then what the run shows: one above the
            // other on a page, side by side in presenter mode (widgets.css),
            // so that a 16:9 screen holds the path view, a chart and the
            // clock at once.
            <div class="tw-setup">
                { header(ui) }
                { speaker_notes(ui) }
                { link_status(ui) }
                if !s.notes.is_empty() {
                    <ul class="tw-notes" role="status">{ for s.notes.iter().map(|n| html! { <li>{ n.text.clone() }</li> }) }</ul>
                }
                { help(ui) }
                { controls(ui) }
            </div>
            <div class="tw-stage">
                { transport(ui) }
                { run_status(ui) }
                { headline(ui) }
                <div class="tw-slot-choice">{ slot_select(ui, 0) }{ slot_select(ui, 1) }</div>
                if comparing {
                    <div class="tw-compare">{ side_column(ui, 0) }{ side_column(ui, 1) }</div>
                } else {
                    { side_column(ui, 0) }
                }
            </div>
        </div>
    }
}

/// The headline of a predict widget before the reveal (see `predict`).
const HIDDEN: &str = "Result hidden: predict it, then play the run to the end";

/// The run's result in one line, once it is in (see `kit::headline`); in
/// compare mode, what differs between the two runs. The line is there
/// while runs simulate too, empty, so that nothing under it moves.
fn headline(ui: &Ui) -> Html {
    let s = ui.state;
    let models: Vec<_> = s.sides.iter().filter_map(|s| s.model.as_ref()).collect();
    let unit = TimeUnit::for_span(s.clock.end_ns);
    match models[..] {
        // While runs simulate, the views may show the beginning of the new
        // ones (`side`'s preview): no result yet.
        _ if s.busy() => html! { <p class="tw-headline" aria-hidden="true"></p> },
        // Predict mode: the result waits for the reader's guess and the run.
        _ if s.predict.hidden() => html! {
            <p class="tw-headline" data-readout="headline">{ HIDDEN }</p>
        },
        [a, b] => html! {
            <p class="tw-headline tw-compare-headline" data-readout="compare">{ compare::headline(a, b) }</p>
        },
        [m] if s.compare.is_none() => html! {
            <p class="tw-headline" data-readout="headline">{ Headline::of(m).text(unit) }</p>
        },
        _ => html! { <p class="tw-headline" aria-hidden="true"></p> },
    }
}

/// What "Copy link" did: "Link copied.", or the link in a read-only field
/// (the component selects it) for the reader to copy by hand.
fn link_status(ui: &Ui) -> Html {
    match &ui.state.status {
        None => Html::default(),
        Some(LinkStatus::Copied) => {
            html! { <p class="tw-status" role="status">{ "Link copied." }</p> }
        }
        Some(LinkStatus::CopyByHand(url)) => {
            // Focusing it again selects it all again.
            let onfocus = Callback::from(|e: FocusEvent| {
                let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                input.select();
            });
            html! {
                <p class="tw-status" role="status">
                    <label>{ "Copy this link: " }
                        <input type="text" class="tw-link-field" readonly=true value={url.clone()} ref={ui.link_field.clone()} {onfocus} />
                    </label>
                </p>
            }
        }
    }
}

/// Title, preset menu and the tools (link, samples, presenter, help).
fn header(ui: &Ui) -> Html {
    let (s, link) = (ui.state, ui.link);
    let presets = ui.spec.presets.iter().enumerate().map(|(i, pr)| {
        html! { <option value={pr.name} selected={s.preset == Some(pr.name)}>{ format!("{}. {}", i + 1, ui.page.preset_title(pr)) }</option> }
    });
    let on_preset = link.callback(|e: Event| {
        let sel: HtmlSelectElement = e.target_unchecked_into();
        Msg::Preset(sel.value())
    });
    html! {
        <div class="tw-header">
            <span class="tw-title">{ compare::title(ui.page.title(ui.spec), ui.spec, s.compare) }</span>
            <label class="tw-preset">{ "Preset " }
                <select onchange={on_preset} aria-label="Preset (keys 1–9)" disabled={s.predict.hidden()}>
                    <option value="" selected={s.preset.is_none()} disabled=true>{ "custom" }</option>
                    { for presets }
                </select>
            </label>
            <span class="tw-tools">
                <button onclick={link.callback(|_| WidgetMsg::CopyLink)} title="Copy a link to exactly this state">{ "Copy link" }</button>
                if !s.predict.hidden() { { menus::export_menu(ui) } }
                <button class="tw-presenter-button" onclick={link.callback(|_| Msg::Presenter)} aria-pressed={s.presenter.to_string()} title="Presenter mode (f)">{ "Present" }</button>
                <button onclick={link.callback(|_| Msg::Help(true))} aria-label="Keyboard shortcuts (?)">{ "?" }</button>
            </span>
        </div>
    }
}

/// The preset's speaker notes, for the instructor at the projector only.
/// The words file carries them (`kit::page_text`), not the wasm: a widget
/// embedded elsewhere has none.
fn speaker_notes(ui: &Ui) -> Html {
    let s = ui.state;
    let (Some(preset), true) = (s.preset.and_then(|p| ui.spec.preset(p)), s.presenter) else {
        return Html::default();
    };
    match ui.page.notes(preset) {
        Some(notes) => html! {
            <aside class="tw-speaker-notes" aria-label="Speaker notes">
                <strong>{ "Notes: " }</strong>{ notes.to_string() }
            </aside>
        },
        None => Html::default(),
    }
}

/// The keyboard shortcuts overlay, when open.
fn help(ui: &Ui) -> Html {
    if !ui.state.help {
        return Html::default();
    }
    let rows = keys::HELP
        .iter()
        .map(|(k, d)| html! { <tr><th scope="row"><kbd>{ *k }</kbd></th><td>{ *d }</td></tr> });
    html! {
        <div class="tw-help" role="dialog" aria-label="Keyboard shortcuts">
            <table><caption>{ "Keyboard shortcuts (with the widget focused)" }</caption>{ for rows }</table>
            <button onclick={ui.link.callback(|_| Msg::Help(false))}>{ "Close" }</button>
        </div>
    }
}

/// One slider per parameter; two for the compared one, side A's and B's.
/// The ones the page shows first (`State::shown`) come first; the others
/// wait behind "More settings".
fn controls(ui: &Ui) -> Html {
    let (s, link) = (ui.state, ui.link);
    let prefix = |k: usize| format!("{} · ", SIDE_NAMES[k]);
    let sliders = ui.spec.params.iter().enumerate().map(|(i, param)| {
        let on_change = link.callback(move |v| Msg::Set(i, v));
        let on_note = link.callback(move |text| Msg::Note(Note::about(i, text)));
        let control_id = format!("{}-{}", ui.id, param.name);
        let help = AttrValue::from(ui.page.help(param).to_string());
        match s.compare {
            Some((c, vs)) if c == i => html! {
                <div class="tw-compared">
                    <Slider id={control_id.clone()} spec={param} help={help.clone()} value={s.values[i]} {on_change} on_note={on_note.clone()} prefix={prefix(0)} />
                    <Slider id={format!("{control_id}-{}", compare::side_key(1))} spec={param} help={help.clone()} value={vs} on_change={link.callback(Msg::SetVs)} on_note={on_note.clone()} prefix={prefix(1)} />
                </div>
            },
            _ => html! { <Slider id={control_id} spec={param} {help} value={s.values[i]} {on_change} on_note={on_note.clone()} /> },
        }
    });
    let (mut shown, mut more) = (Vec::new(), Vec::new());
    for (i, slider) in sliders.enumerate() {
        if s.shown.get(i).copied().unwrap_or(true) {
            shown.push(slider);
        } else {
            more.push(slider);
        }
    }
    let n = more.len();
    // One fieldset, so that predict mode turns every control off at once.
    html! {
        <fieldset class="tw-lock" disabled={s.predict.hidden()}>
            <div class="tw-controls">{ for shown }</div>
            if n > 0 {
                <details class="tw-more">
                    <summary>{ format!("More settings ({n})") }</summary>
                    <div class="tw-controls">{ for more }</div>
                </details>
            }
        </fieldset>
    }
}

/// Play, the steps, restart, speed, the clock and cwnd readouts, and the
/// scrubber under them.
fn transport(ui: &Ui) -> Html {
    let (s, link) = (ui.state, ui.link);
    // Before a prediction the cursor stays put (see `predict`).
    let busy = s.busy() || s.predict.locked();
    let t = s.clock.t_ns;
    // Predict mode spans a time that does not tell the run's end.
    let end = s.span_ns().max(1.0);
    // Both ends of the clock in one unit, the run's (see `units`).
    let unit = TimeUnit::for_span(end);
    let on_speed = link.callback(|e: Event| {
        let sel: HtmlSelectElement = e.target_unchecked_into();
        Msg::Speed(parse_f64(&sel.value()).unwrap_or(0.01))
    });
    let speeds = SPEEDS.iter().map(|(v, label)| {
        html! { <option value={crate::units::shortest(*v)} selected={(s.clock.speed - v).abs() < 1e-12}>{ *label }</option> }
    });
    let on_scrub = link.callback(move |e: InputEvent| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        Msg::Seek(parse_f64(&input.value()).unwrap_or(0.0) / 1000.0 * end)
    });
    // Both labels are in the button, the other one hidden, so that it is as
    // wide playing as paused and nothing after it moves.
    let (label, other, name) = if s.clock.playing {
        ("❚❚ Pause", "▶ Play", "Pause (space)")
    } else {
        ("▶ Play", "❚❚ Pause", "Play (space)")
    };
    let play = html! {
        <button class="tw-play" disabled={busy && !s.clock.playing} onclick={link.callback(|_| Msg::PlayPause)} aria-label={name}>
            <span>{ label }</span><span class="tw-ghost" aria-hidden="true">{ other }</span>
        </button>
    };
    // The clock keeps the width of its last time, the cwnd readout that of
    // five digits, so that neither pushes the transport onto another line.
    let end_text = if s.predict.hidden() {
        "?".to_string()
    } else {
        unit.format(end, 3)
    };
    let clock_ch = format!("t = {end_text} / {end_text}").chars().count();
    let cwnd = s.cwnd_readout();
    let cwnd_ch = reserved_ch(&cwnd, 5);
    html! {
        <>
            <div class="tw-transport">
                { play }
                <button onclick={link.callback(|_| Msg::Step(Step::Event))} disabled={busy} title="Step to the next event (s)">{ "Next event" }</button>
                <button onclick={link.callback(|_| Msg::Step(Step::Ack))} disabled={busy} title="Step to the next ACK (a)">{ "Next ACK" }</button>
                <button onclick={link.callback(|_| Msg::Step(Step::RoundTrip))} disabled={busy} title="Step one round trip">{ "+1 RTT" }</button>
                <button class="tw-restart" onclick={link.callback(|_| Msg::Restart)} title="Restart (r)">{ "⟲ Restart" }</button>
                <label class="tw-speed">{ "Speed " }<select onchange={on_speed} aria-label="Playback speed">{ for speeds }</select></label>
                <span class="tw-clock" data-readout="clock" style={format!("min-width: {clock_ch}ch")}>{ format!("t = {} / {end_text}", unit.format(t, 3)) }</span>
                <span class="tw-cwnd-now" data-readout="cwnd" style={format!("min-width: {cwnd_ch}ch")}>{ cwnd }</span>
            </div>
            <input type="range" class="tw-scrubber" min="0" max="1000" step="1" aria-label="Time cursor"
                aria-valuetext={unit.format(t, 3)}
                value={crate::units::shortest(((t / end) * 1000.0).round())} oninput={on_scrub} disabled={busy} />
        </>
    }
}

/// The runs that failed, and a line that is always there, so that nothing
/// under it moves: the progress of slow runs while they simulate, else the
/// timers at the cursor, each in a slot of its own that stays when the
/// timer stops (see `Ladder::timer_slots_at`).
fn run_status(ui: &Ui) -> Html {
    let s = ui.state;
    let errors = s.sides.iter().filter_map(Side::error).map(|e| {
        html! { <div class="tw-notes" role="alert">{ format!("Cannot simulate: {e}") }</div> }
    });
    let line = if s.progress_shown() {
        let done = s.progress();
        html! {
            <div class="tw-progress" role="status">
                { "Simulating… " }
                <progress max="1" value={crate::units::fixed(done, 3)}>{ format!("{} %", crate::units::fixed(done * 100.0, 0)) }</progress>
            </div>
        }
    } else {
        let slots = s.countdowns().into_iter().map(|c| match c {
            Some(text) => html! { <span class="tw-countdown">{ text }</span> },
            None => html! { <span class="tw-countdown"></span> },
        });
        html! { <p class="tw-countdowns" data-readout="countdowns">{ for slots }</p> }
    };
    html! {
        <>
            { for errors }
            <div class="tw-run-status">{ line }</div>
        </>
    }
}

/// The width (in `ch`) a readout needs at most as its numbers grow: its
/// text with every number `digits` digits long, or longer where it is.
fn reserved_ch(text: &str, digits: usize) -> usize {
    let mut width = 0;
    let mut run = 0;
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            run += 1;
        } else {
            if run > 0 {
                width += run.max(digits);
                run = 0;
            }
            width += 1;
        }
    }
    width - 1
}

/// The menu choosing chart panel `slot`'s view.
fn slot_select(ui: &Ui, slot: usize) -> Html {
    let options = View::CHARTS.iter().map(|v| {
        html! { <option value={v.name()} selected={ui.state.slots[slot] == *v}>{ ui.page.view_title(*v).to_string() }</option> }
    });
    let on = ui.link.callback(move |e: Event| {
        let sel: HtmlSelectElement = e.target_unchecked_into();
        Msg::Slot(slot, View::from_name(&sel.value()).unwrap_or(View::Window))
    });
    html! { <label class="tw-slot">{ format!("Panel {} ", slot + 1) }<select onchange={on} aria-label={format!("View in panel {}", slot + 1)}>{ for options }</select></label> }
}

/// Side `k`'s column: the path view, the two chart panels, the readouts and
/// the text panels; in compare mode under the side's label.
fn side_column(ui: &Ui, k: usize) -> Html {
    let s = ui.state;
    let body = html! {
        <>
            { view_panel(ui, k, 0, View::Path) }
            <div class="tw-slots">
                <div>{ view_panel(ui, k, 1, s.slots[0]) }</div>
                <div>{ view_panel(ui, k, 2, s.slots[1]) }</div>
            </div>
            { menus::details(ui, k) }
        </>
    };
    if s.compare.is_none() {
        return body;
    }
    let label = s.side_label(ui.spec, k);
    html! {
        <section class="tw-side" data-side={compare::side_key(k)} aria-label={label.clone()}>
            <h4 class="tw-side-title">{ label }</h4>
            { body }
        </section>
    }
}

/// Panel `slot` of side `k` showing `view`: its canvas, the path view's
/// legend, and the data table when open.
fn view_panel(ui: &Ui, k: usize, slot: usize, view: View) -> Html {
    let open = ui.state.tables[slot];
    let table = ui.state.sides[k]
        .model
        .as_ref()
        .filter(|_| open)
        .map(|m| panels::table_html(&view.table(m)));
    let legend = (view == View::Path).then(flight_legend);
    html! {
        <figure class={classes!("tw-view", format!("tw-view-{}", view.name()))} aria-label={ui.page.view_title(view).to_string()}>
            { super::canvas::canvas(ui.link, ui.canvases[k][slot].clone(), ui.state, (k, slot), view, ui.page.view_description(view)) }
            // Its downloads and data table are in "Data & export" (`menus`).
            if let Some(legend) = legend {
                <figcaption class="tw-view-tools">{ legend }</figcaption>
            }
            { table.unwrap_or_default() }
        </figure>
    }
}

/// The key to the path view's colours: data segments take their flight's
/// colour (the seven Okabe–Ito colours, repeating), ACKs that of the flight they acknowledge.
fn flight_legend() -> Html {
    let swatches = crate::palette::SERIES.iter().enumerate().map(|(i, c)| {
        html! {
            <span class="tw-swatch" style={format!("background: rgb({}, {}, {})", c.0, c.1, c.2)}
                title={format!("flight {}", i + 1)}></span>
        }
    });
    html! {
        <span class="tw-legend" data-legend="flights">
            { "Flights 1–7, then again: " }{ for swatches }{ " · ACKs in the colour of the flight they acknowledge · ✕ drop" }
        </span>
    }
}

#[cfg(test)]
mod tests {
    use super::reserved_ch;

    #[test]
    fn readouts_keep_room_for_numbers_as_long_as_they_get() {
        assert_eq!(reserved_ch("cwnd 10", 5), "cwnd 12345".len());
        assert_eq!(reserved_ch("cwnd 1234567", 5), "cwnd 1234567".len());
        assert_eq!(
            reserved_ch("A cwnd 10 · B cwnd 14", 5),
            "A cwnd 12345 · B cwnd 12345".chars().count()
        );
        assert_eq!(reserved_ch("", 5), 0);
    }
}
