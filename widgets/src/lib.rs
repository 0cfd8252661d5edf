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
pub mod units;

use wasm_bindgen::prelude::*;

/// The wasm's allocator: talc in place of the standard library's dlmalloc,
/// which it replaces for single-threaded WebAssembly. It is faster on the
/// simulator's many small allocations and a few KB smaller in the bundle.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

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
    kit::mount::mount_all()
}

/// Mounts the widget a placeholder names; see [`kit::mount::mount`].
#[wasm_bindgen]
pub fn mount(el: web_sys::Element) -> bool {
    kit::mount::mount(el)
}

/// Takes a mounted widget off its placeholder; see [`kit::mount::unmount`].
#[wasm_bindgen]
pub fn unmount(el: web_sys::Element) -> bool {
    kit::mount::unmount(&el)
}

/// How many widgets are mounted on the page. The embedding tests check that
/// a page a wiki replaced leaves none behind.
#[wasm_bindgen]
pub fn live_widgets() -> u32 {
    kit::mount::live() as u32
}

/// The bytes of the wasm linear memory. It never shrinks, so the embedding
/// tests read it to check that widgets mounted and removed over and over
/// reuse what the ones before them freed.
#[wasm_bindgen]
pub fn wasm_memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        (core::arch::wasm32::memory_size(0) * 65_536) as f64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}
