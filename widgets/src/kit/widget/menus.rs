//! What the widget keeps out of the way until asked: "Data & export" (every
//! download and data table, one small menu instead of fifteen buttons) and
//! each run's "Details" (the readouts and the text panels).
//!
//! Both are native `<details>`: a disclosure button for keyboards and
//! screen readers as they are, and their open state belongs to the page:
//! yew never writes `open`, so a re-render (a slider moving, a frame
//! playing) leaves a disclosure as the reader left it.

use super::export::Download;
use super::state::Msg;
use super::view::Ui;
use crate::kit::compare::SIDE_NAMES;
use crate::kit::panels;
use crate::kit::views::View;
use crate::units::TimeUnit;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The "Data & export" menu: per run and per panel (the path view and the
/// two charts) its picture (PNG, SVG), its data (CSV, JSON) and its data
/// table, then the run's samples. Escape closes it, and so does choosing.
pub fn export_menu(ui: &Ui) -> Html {
    let s = ui.state;
    let comparing = s.compare.is_some();
    let rows = (0..s.sides.len()).flat_map(|k| {
        let side = if comparing {
            format!("{} · ", SIDE_NAMES[k])
        } else {
            String::new()
        };
        let panels = s
            .shown_views()
            .into_iter()
            .enumerate()
            .map(move |(slot, view)| panel_row(ui, k, slot, view, &side));
        let samples = sample_row(ui, k, comparing);
        panels.chain(std::iter::once(samples)).collect::<Vec<_>>()
    });
    html! {
        <details class="tw-menu tw-export" onkeydown={Callback::from(close_on_escape)}>
            <summary>{ "Data & export" }</summary>
            <ul class="tw-menu-list" aria-label="Data and export">{ for rows }</ul>
        </details>
    }
}

/// Side `k`'s panel `slot` (showing `view`): its downloads, and its data
/// table shown under the panel or hidden (one switch per panel for both
/// runs of a comparison, so only on side A's row). The chart panels are
/// named by number too: both may show the same view.
fn panel_row(ui: &Ui, k: usize, slot: usize, view: View, side: &str) -> Html {
    let link = ui.link;
    let title = match slot {
        0 => format!("{side}{}", ui.page.view_title(view)),
        n => format!("{side}Panel {n}: {}", ui.page.view_title(view)),
    };
    let item = |text: &'static str, what: &str, d: Download| {
        let onclick = link.callback(move |e: MouseEvent| {
            close_menu(&e);
            d
        });
        html! { <button {onclick} aria-label={format!("{title}: {what}")}>{ text }</button> }
    };
    let table = (k == 0).then(|| {
        let open = ui.state.tables[slot];
        let onclick = link.callback(move |e: MouseEvent| {
            close_menu(&e);
            Msg::ToggleTable(slot)
        });
        html! {
            <button {onclick} aria-pressed={open.to_string()} aria-label={format!("{title}: data table")}>
                { if open { "Hide data table" } else { "Data table" } }
            </button>
        }
    });
    html! {
        <li data-export={view.name()}>
            <span class="tw-menu-what">{ title.clone() }</span>
            <span class="tw-menu-items">
                { item("PNG", "download as PNG", Download::Picture(k, slot, "png")) }
                { item("SVG", "download as SVG", Download::Picture(k, slot, "svg")) }
                { item("CSV", "download the data as CSV", Download::Table(k, slot, "csv")) }
                { item("JSON", "download the data as JSON", Download::Table(k, slot, "json")) }
                { table.unwrap_or_default() }
            </span>
        </li>
    }
}

/// Side `k`'s whole run as time series, one row per sample.
fn sample_row(ui: &Ui, k: usize, comparing: bool) -> Html {
    let title = if comparing {
        format!("{} · Run samples", SIDE_NAMES[k])
    } else {
        "Run samples".to_string()
    };
    let onclick = ui.link.callback(move |e: MouseEvent| {
        close_menu(&e);
        Download::Samples(k)
    });
    html! {
        <li data-export="samples">
            <span class="tw-menu-what">{ title.clone() }</span>
            <span class="tw-menu-items">
                <button {onclick} aria-label={format!("{title}: download as CSV")}>{ "Samples CSV" }</button>
            </span>
        </li>
    }
}

/// Side `k`'s readouts and text panels, behind "Details": the headline says
/// the run's result; these are for the reader who wants every figure.
pub fn details(ui: &Ui, k: usize) -> Html {
    let s = ui.state;
    let Some(m) = s.sides[k].model.as_deref() else {
        return Html::default();
    };
    // The beginning of a run still simulating has no result to read out,
    // nor has a run whose result the reader is to predict.
    if s.sides[k].previewing || s.predict.hidden() {
        return Html::default();
    }
    let t = s.clock.t_ns;
    html! {
        <details class="tw-details">
            <summary>{ "Details: completion, flights, iperf3, ss, settings" }</summary>
            // The clock's unit: every side's times read alike.
            { panels::readouts(m, t, TimeUnit::for_span(s.clock.end_ns)) }
            { panels::text_panels(m, t) }
        </details>
    }
}

/// Escape closes an open menu and gives the focus back to its button; the
/// key goes no further (it would leave presenter mode too).
fn close_on_escape(e: KeyboardEvent) {
    // Yew listens on the widget's root, so the menu is found from the
    // target, not `current_target`.
    let Some(menu) = menu_of(e.target()) else {
        return;
    };
    if e.key() == "Escape" && menu.has_attribute("open") {
        e.stop_propagation();
        e.prevent_default();
        close(&menu);
    }
}

/// After a choice: closes the menu the clicked item is in.
fn close_menu(e: &MouseEvent) {
    if let Some(menu) = menu_of(e.target()) {
        close(&menu);
    }
}

fn menu_of(target: Option<web_sys::EventTarget>) -> Option<web_sys::Element> {
    target?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest("details.tw-menu")
        .ok()
        .flatten()
}

fn close(menu: &web_sys::Element) {
    let _ = menu.remove_attribute("open");
    if let Ok(Some(summary)) = menu.query_selector("summary")
        && let Ok(summary) = summary.dyn_into::<web_sys::HtmlElement>()
    {
        let _ = summary.focus();
    }
}
