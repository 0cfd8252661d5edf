//! The widgets' integration tests, one module per file beside this one,
//! built as one test binary (each file was a binary of its own, linking the
//! widgets, the simulator and yew again). `cargo test -p tcp-widgets --test
//! integration long_runs::` runs one file's.

mod common;
mod settings;

mod annotations;
mod budget;
mod buffer_view;
mod cc_views;
mod charts;
mod connections_view;
mod draw_svg;
mod extremes;
mod idle_restart;
mod kit;
mod ladder;
mod long_fat_buffers;
mod long_fat_views;
mod long_runs;
mod no_debug_text;
mod path_view;
