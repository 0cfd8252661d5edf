//! The widget kit: the shell every widget is built from (controls,
//! transport, linked views, panels, presets, URL state, shortcuts, presenter
//! mode, export) and the pure logic under it, testable natively: the
//! component in `widget/` (its state machine in `widget/state.rs`), compare
//! mode in `compare.rs`, one run per side in `side.rs` and `model.rs`.

pub mod browser;
pub mod compare;
pub mod detail;
pub mod exchanges;
pub mod headline;
pub mod model;
pub mod mount;
pub mod page_text;
pub mod panels;
pub mod results;
pub mod scenario;
pub mod side;
pub mod transport;
pub mod url_state;
pub mod views;
pub mod widget;
