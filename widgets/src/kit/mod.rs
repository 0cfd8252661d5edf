//! The widget kit: the shell every widget is built from (controls,
//! transport, linked views, panels, presets, URL state, shortcuts, presenter
//! mode, export) and the pure logic under it, testable natively.

pub mod browser;
pub mod compare;
pub mod model;
pub mod panels;
pub mod scenario;
pub mod side;
pub mod transport;
pub mod url_state;
pub mod views;
pub mod widget;
