//! The contract between the book and the widgets: the widgets' catalogue.
//!
//! Every widget is one module in `src/widgets/`: its parameters (with units,
//! ranges and defaults), its presets, and the two functions that join its
//! values to a `sim_core` scenario (`values_of` and `scenario`), held in its
//! [`WidgetSpec`]. The mdBook preprocessor validates `{{#widget NAME
//! key=value ...}}` directives against this table at build time, the widgets
//! build their sliders, clamp their input and make their scenario from it at
//! run time, and the preset generator (`tests/preset_values_fresh.rs`) reads the presets' values from their
//! scenario files with the same modules, so none of them can disagree about
//! what a parameter means.

/// Words a reader reads, never the widget's own code: a preset's speaker
/// notes; the widget's title, its presets' titles and its parameters' help.
/// Native code (the preprocessor, xtask, tests) keeps the text; the wasm
/// gets `""`, and the widget reads the words from the words file beside the
/// wasm instead ([`words::script`], one per language). In the wasm, every
/// widget's notes cost about 2 KB of its gzip with two widgets, and the
/// titles and help of five widgets 2.7 KB more; and a translated edition
/// needs them per language.
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
/// file name (the preset generator, the preprocessor and the tests open the
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
/// `values_of`, which the preset generator runs on each preset's scenario file
/// (the wasm has the values it read, see `presets.rs`). Native code gets the
/// function; the wasm gets `spec::native_only`, so the function and what
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
#[cfg(not(target_arch = "wasm32"))]
pub mod generate;
pub mod knob_reference;
mod param;
mod presets;
pub mod reference;
mod spec;
pub mod values;
pub mod widgets;
#[cfg(not(target_arch = "wasm32"))]
pub mod words;

pub use param::{Kind, ParamError, ParamSpec};
pub use presets::{escape_html, note_in, notes_attribute, text_attribute};
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

/// Every view's name, title (its panel menu, its figure's label) and the
/// description a screen reader hears for its canvas. Words only: the wasm
/// gets `""` (`prose!`) and reads them from the
/// words file ([`text_attribute`], keys `view.NAME` and `view-description.NAME`).
pub const VIEW_WORDS: &[(&str, &str, &str)] = &[
    (
        "path",
        crate::prose!("Path"),
        crate::prose!(
            "Animation of data segments and ACKs between server and client, with the send buffer, the bottleneck queue and the receive buffer"
        ),
    ),
    (
        "ladder",
        crate::prose!("Ladder diagram"),
        crate::prose!(
            "Ladder diagram: each segment as an arrow between client and server, time flowing down, with delayed-ACK timers and Nagle holds"
        ),
    ),
    (
        "cwnd",
        crate::prose!("cwnd, ssthresh, in flight"),
        crate::prose!(
            "Chart of the server's congestion window, slow-start threshold and outstanding data in segments over time"
        ),
    ),
    (
        "tsg",
        crate::prose!("Time-sequence graph"),
        crate::prose!(
            "Time-sequence graph: sequence numbers sent, the ACK line and the receive-window line over time"
        ),
    ),
    (
        "throughput",
        crate::prose!("Throughput"),
        crate::prose!("Chart of the bytes the client received per interval, in Mbit/s"),
    ),
    (
        "rtt",
        crate::prose!("RTT"),
        crate::prose!("Chart of RTT samples and the smoothed RTT over time"),
    ),
    (
        "buffers",
        crate::prose!("Buffers and window"),
        crate::prose!(
            "Chart of the sender's send buffer size and queued bytes, the receiver's advertised window and its unread bytes over time, against the path's bandwidth-delay product"
        ),
    ),
    (
        "connections",
        crate::prose!("Connection by connection"),
        crate::prose!(
            "One row per connection, aligned at its opening: the server's congestion window and slow-start threshold over the connection's own time, over a bar as long as the connection took"
        ),
    ),
];

/// A view's title and description by its name (`""` for none, and on wasm).
pub fn view_words(name: &str) -> (&'static str, &'static str) {
    VIEW_WORDS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map_or(("", ""), |(_, t, d)| (t, d))
}

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
