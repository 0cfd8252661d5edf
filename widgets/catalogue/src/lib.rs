//! The contract between the book and the widgets: the widgets' catalogue.
//!
//! Every widget is one module in `src/widgets/`: its parameters (with units,
//! ranges and defaults), its presets, and the two functions that join its
//! values to a `sim_core` scenario (`values_of` and `scenario`), held in its
//! [`WidgetSpec`]. The mdBook preprocessor validates `{{#widget NAME
//! key=value ...}}` directives against this table at build time, the widgets
//! build their sliders, clamp their input and make their scenario from it at
//! run time, and the build script reads the presets' values from their
//! scenario files with the same modules, so none of them can disagree about
//! what a parameter means.

/// Text only a page shows, never the widget's own code: a preset's speaker
/// notes; the widget's title, its presets' titles and its parameters' help.
/// Native code (the preprocessor, xtask, tests) keeps the text; the wasm
/// gets `""`, and the widget reads the words from its page instead
/// (`data-preset-notes` and `data-widget-text`, see [`notes_attribute`] and
/// [`text_attribute`]). Every widget's notes in every page's wasm cost about
/// 2 KB of its gzip with two widgets, and grew with each widget; the titles
/// and help of five widgets cost 2.7 KB more. A page now carries only its
/// own widgets' words.
#[cfg(not(target_arch = "wasm32"))]
#[macro_export]
macro_rules! prose {
    ($text:expr) => {
        $text
    };
}

/// See the native definition: on wasm the text is left out.
#[cfg(target_arch = "wasm32")]
#[macro_export]
macro_rules! prose {
    ($text:expr) => {{
        // Named, so a parameter passed through is not unused.
        let _ = $text;
        ""
    }};
}

/// Data only native code reads, never the widget's own: a preset's scenario
/// file name (the build script, the preprocessor and the tests open the
/// file; the wasm has the values it holds, see `presets.rs`). Native code
/// keeps the text; the wasm gets `""`, as with [`prose!`].
#[cfg(not(target_arch = "wasm32"))]
#[macro_export]
macro_rules! native {
    ($text:expr) => {
        $text
    };
}

/// See the native definition: on wasm the text is left out.
#[cfg(target_arch = "wasm32")]
#[macro_export]
macro_rules! native {
    ($text:expr) => {
        ""
    };
}

/// A function only native code calls, never the widget's own: a widget's
/// `values_of`, which the build script runs on each preset's scenario file
/// (the wasm has the values it read, see `presets.rs`). Native code gets the
/// function; the wasm gets [`spec::native_only`], so the function and what
/// only it uses stay out of the bundle (about 1.5 KB of its gzip).
#[cfg(not(target_arch = "wasm32"))]
#[macro_export]
macro_rules! native_fn {
    ($f:path) => {
        $f as _
    };
}

/// See the native definition: on wasm the function is left out.
#[cfg(target_arch = "wasm32")]
#[macro_export]
macro_rules! native_fn {
    ($f:path) => {{
        // Named, so it is not dead code; never made a pointer, so not linked.
        let _ = $f;
        $crate::spec::native_only
    }};
}

mod check;
pub mod knob_reference;
mod param;
mod presets;
pub mod reference;
mod spec;
pub mod values;
pub mod widgets;

pub use param::{Kind, ParamError, ParamSpec};
pub use presets::{escape_html, note_in, notes_attribute, page_text_element, text_attribute};
pub use spec::{Preset, WidgetSpec};
pub use values::{Param, Values};
pub use widgets::WIDGETS;

/// The views a widget can show, by the names `views=` and the URL use.
pub const VIEW_NAMES: &[&str] = &[
    "cwnd",
    "tsg",
    "ladder",
    "throughput",
    "rtt",
    "buffers",
    "connections",
];

/// Parameters every widget accepts besides its own.
/// `compare=PARAM vs=VALUE` shows two runs side by side that differ only in
/// PARAM (the widget's value against VALUE); `views=tsg,rtt` picks the charts;
/// `controls=rtt,initcwnd` the controls shown before "More settings";
/// `cwnd-scale=log` draws the cwnd chart's y axis logarithmic.
pub const COMMON_KEYS: &[&str] = &["preset", "compare", "vs", "views", "controls", "cwnd-scale"];

/// The values `cwnd-scale=` takes: the cwnd chart's y axis.
pub const CWND_SCALES: &[&str] = &["linear", "log"];

pub fn widget(name: &str) -> Option<&'static WidgetSpec> {
    WIDGETS.iter().find(|w| w.name == name)
}

pub fn widget_names() -> Vec<&'static str> {
    WIDGETS.iter().map(|w| w.name).collect()
}
