//! # tcp-widgets: the book's interactive simulations
//!
//! Yew components that run `sim-core` in the browser and draw with plotters.
//! The book's pages contain placeholders (`<div class="tcp-widget"
//! data-widget="slow-start" data-rtt="7ms" ...>`, written by the
//! `mdbook-widgets` preprocessor); [`mount_all`] finds them and mounts the
//! named widget with the placeholder's parameters as its starting values.

pub mod draw;
pub mod figure;
pub mod kit;
pub mod palette;
pub mod params;
pub mod series;
mod slider;
mod theme;

use wasm_bindgen::prelude::*;

/// The trace hash of a preset's run, in hex (`"none"` for an unknown widget or
/// preset), so a test can check the browser simulates bit-for-bit what the
/// native build does.
#[wasm_bindgen]
pub fn preset_trace_hash(widget: &str, preset: &str) -> String {
    let Some(spec) = widget_catalogue::widget(widget) else {
        return "none".into();
    };
    let Some(values) = params::preset_values(spec, preset) else {
        return "none".into();
    };
    match kit::scenario::trace_hash(spec, &values) {
        Some(h) => format!("{h:016x}"),
        None => "none".into(),
    }
}

/// Runs benchmark scenario `name` (`"c"`: 30 s of CUBIC at 1 Gbit/s and
/// 210 ms with 1e-4 loss; `"d"`: the same with BBR) and returns
/// `"EVENTS HASH DELIVERED TRACE_BYTES"` (the trace hash in hex, delivered
/// bytes, heap bytes the trace holds), or
/// `"none"` for an unknown name. `cargo xtask bench` times it in Chromium; the
/// browser tests compare the hash with the native run's.
#[wasm_bindgen]
pub fn benchmark(name: &str) -> String {
    let Some(scenario) = sim_core::benchmarks::by_name(name) else {
        return "none".into();
    };
    match sim_core::sim::run(&scenario) {
        Ok(run) => format!(
            "{} {:016x} {} {}",
            run.events,
            run.trace.hash(),
            sim_core::analysis::flow_totals(&run)
                .iter()
                .map(|f| f.delivered)
                .sum::<u64>(),
            run.trace.heap_bytes()
        ),
        Err(_) => "none".into(),
    }
}

/// Runs benchmark scenario `name` and returns the hash of its records as
/// read back from the trace's packed storage, in hex (`"none"` for an unknown
/// name). The browser tests compare it with [`benchmark`]'s hash, so the
/// packing is checked in wasm too. Apart from `benchmark` so that the
/// readback is not in its timing.
#[wasm_bindgen]
pub fn benchmark_readback(name: &str) -> String {
    sim_core::benchmarks::by_name(name)
        .and_then(|s| sim_core::sim::run(&s).ok())
        .map_or("none".into(), |run| {
            format!("{:016x}", run.trace.readback_hash())
        })
}

/// Mounts every widget placeholder on the page that is not mounted yet and
/// returns how many it mounted.
#[wasm_bindgen]
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
#[wasm_bindgen]
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
    let from_url = kit::url_state::read(&kit::browser::query(), &id, spec);
    if !from_url.pairs.is_empty() {
        pairs = from_url.pairs;
    }
    let mut initial = params::initial(spec, &pairs);
    initial.notes.splice(0..0, from_url.notes);
    // What stood in for the widget until now (the loading line) goes; the
    // figure stays for print.
    if let Ok(loading) = el.query_selector_all(".tcp-widget-loading") {
        for i in 0..loading.length() {
            if let Some(n) = loading.item(i)
                && let Some(parent) = n.parent_node()
            {
                let _ = parent.remove_child(&n);
            }
        }
    }
    let Some(live) = el
        .owner_document()
        .and_then(|d| d.create_element("div").ok())
    else {
        return false;
    };
    live.set_class_name("tw-live");
    if el.append_child(&live).is_err() {
        return false;
    }
    let props = kit::widget::Props {
        id: id.into(),
        spec,
        initial,
        start_ns: from_url.t_ns,
    };
    yew::Renderer::<kit::widget::Widget>::with_root_and_props(live, props).render();
    true
}
