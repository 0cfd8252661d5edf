//! Placeholders to live widgets and back: what a page (the book's loader,
//! the `<tcp-widget>` element) calls.
//!
//! A wiki that swaps its content without reloading (MkDocs Material's
//! instant navigation, VitePress) removes a widget's element while the page
//! lives on, so every mounted widget is kept here with its app handle and
//! [`unmount`] ends it: the component drops its run, its animation frames
//! and its theme watch, and the memory its runs held is freed for the next
//! one.
//!
//! The app itself is kept for the next mount, not destroyed: yew never frees
//! an app's root (each of its event handlers is a closure it forgets, which
//! holds the root and all it refers to), so a new app per mount leaked about
//! 6.5 KB of wasm memory each time. An app whose widget left waits, empty,
//! in [`IDLE`], and the next mount moves it into its placeholder and gives
//! it its widget (`Msg::Arrive` starts it afresh, as a new app would):
//! memory then stays at what the most widgets mounted at once need.

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use yew::AppHandle;

use super::widget::{Msg, Props, Widget};
use super::{browser, url_state};
use crate::params;

/// An app and the `.tw-live` element it renders into.
type App = (web_sys::Element, AppHandle<Widget>);

thread_local! {
    /// Each mounted placeholder and its app, in mounting order.
    static APPS: RefCell<Vec<(web_sys::Element, App)>> = const { RefCell::new(Vec::new()) };
    /// Apps whose widget left, for the next mounts (see the top of this file).
    static IDLE: RefCell<Vec<App>> = const { RefCell::new(Vec::new()) };
}

/// Mounts every widget placeholder on the page that is not mounted yet and
/// returns how many it mounted.
pub fn mount_all() -> u32 {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return 0;
    };
    let Ok(nodes) = doc.query_selector_all(".tcp-widget[data-widget]:not([data-mounted])") else {
        return 0;
    };
    let mut mounted = 0;
    for i in 0..nodes.length() {
        let Some(el) = nodes
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        else {
            continue;
        };
        if mount(el) {
            mounted += 1;
        }
    }
    mounted
}

/// Mounts the widget a placeholder names (`data-widget`, its parameters as
/// `data-*` attributes) into a new `.tw-live` child, and returns whether it
/// did. The placeholder may sit in a shadow root (the `<tcp-widget>` element).
/// The build-time figure stays in the placeholder, hidden by CSS once
/// `data-mounted` is set, because print media show it instead of the live
/// widget. An unknown widget name gets a visible error box instead of a
/// blank space; a placeholder already mounted is left alone.
///
/// `data-url-state="off"`: the widget never writes the page's address (for
/// hosts whose router owns it); it still opens a link's state.
///
/// `data-predict="METRIC"`: the result stays hidden until the page sets
/// `data-answered` and the reader has played the run through (see
/// `widget::predict`); a link's state cannot skip that.
pub fn mount(el: web_sys::Element) -> bool {
    if el.has_attribute("data-mounted") {
        return false;
    }
    let _ = el.set_attribute("data-mounted", "1");
    let name = el.get_attribute("data-widget").unwrap_or_default();
    let Some(spec) = widget_catalogue::widget(&name) else {
        // Text, never HTML: the name came from the page.
        el.set_text_content(Some(&format!(
            "Unknown widget “{}”. Known widgets: {}.",
            name.chars().take(40).collect::<String>(),
            widget_catalogue::widget_names().join(", ")
        )));
        let _ = el.set_attribute("class", "tcp-widget tw-error");
        return false;
    };
    let mut pairs = Vec::new();
    let keys = widget_catalogue::COMMON_KEYS.iter().copied();
    for key in keys.chain(spec.params.iter().map(|p| p.name)) {
        if let Some(v) = el.get_attribute(&format!("data-{key}")) {
            pairs.push((key.to_string(), v));
        }
    }
    let id = el.id();
    let id = if id.is_empty() {
        format!("{name}-1")
    } else {
        id
    };
    // A link's state replaces the page's: it is written whole (its preset
    // and every value that differs from it), as the reader shared it.
    let from_url = url_state::read(&browser::query_for_here(), &id, spec);
    // Which controls show is the page's layout, not the reader's state: a
    // link's own `controls` wins, but a link without one keeps the page's.
    let controls = (from_url.pairs.iter().chain(&pairs))
        .find(|(k, _)| k == "controls")
        .cloned();
    let state: Vec<_> = (from_url.pairs.into_iter())
        .filter(|(k, _)| k != "controls")
        .collect();
    if !state.is_empty() {
        pairs = state;
    }
    pairs.retain(|(k, _)| k != "controls");
    pairs.extend(controls);
    let mut initial = params::initial(spec, &pairs);
    initial
        .notes
        .splice(0..0, from_url.notes.into_iter().map(params::Note::from));
    // What stood in for the widget until now (the loading line) goes; the
    // figure stays for print.
    remove_all(&el, ".tcp-widget-loading");
    let props = Props {
        id: id.into(),
        spec,
        initial,
        start_ns: from_url.t_ns,
        writes_url: el.get_attribute("data-url-state").as_deref() != Some("off"),
        predict: el.has_attribute("data-predict"),
    };
    let (live, waiting) = IDLE.with_borrow_mut(Vec::pop).unzip();
    let Some(live) = live.or_else(|| {
        let live = el.owner_document()?.create_element("div").ok()?;
        live.set_class_name("tw-live");
        Some(live)
    }) else {
        return false;
    };
    if el.append_child(&live).is_err() {
        // The waiting app stays for the next mount.
        if let Some(app) = waiting {
            IDLE.with_borrow_mut(|idle| idle.push((live, app)));
        }
        return false;
    }
    let app = match waiting {
        Some(mut app) => {
            app.update(props);
            app.send_message(Msg::Arrive);
            (live, app)
        }
        None => {
            let app = yew::Renderer::<Widget>::with_root_and_props(live.clone(), props).render();
            (live, app)
        }
    };
    APPS.with_borrow_mut(|apps| apps.push((el, app)));
    true
}

/// Ends the widget mounted on placeholder `el` (its app waits in [`IDLE`]),
/// removes what it drew and clears `data-mounted`, so that mounting it
/// again starts afresh.
/// Returns whether a widget was mounted there.
pub fn unmount(el: &web_sys::Element) -> bool {
    // Out of the list before destroying: the component's drop code must find
    // the list free.
    let app = APPS.with(|apps| {
        let mut apps = apps.borrow_mut();
        let i = apps.iter().position(|(e, _)| e == el)?;
        Some(apps.remove(i).1)
    });
    let Some((live, app)) = app else {
        return false;
    };
    // The widget lets go of its run, its frames and watches; the app waits
    // for the next mount.
    app.send_message(Msg::Leave);
    live.remove();
    IDLE.with_borrow_mut(|idle| idle.push((live, app)));
    let _ = el.remove_attribute("data-mounted");
    true
}

/// How many widgets are mounted.
pub fn live() -> usize {
    APPS.with(|apps| apps.borrow().len())
}

fn remove_all(el: &web_sys::Element, selector: &str) {
    if let Ok(nodes) = el.query_selector_all(selector) {
        for i in 0..nodes.length() {
            if let Some(n) = nodes.item(i)
                && let Some(parent) = n.parent_node()
            {
                let _ = parent.remove_child(&n);
            }
        }
    }
}
