//! Drawing, generic over the plotters backend: the browser draws on a canvas,
//! native tests draw the same pictures as SVG and inspect them.

pub mod annotations;
pub mod axis;
pub mod backend;
pub mod bbr_estimates;
pub mod buffer_chart;
mod canvas_backend;
pub mod chart_frame;
pub mod connections_chart;
pub mod cubic_curve;
pub mod hover_line;
pub mod ladder;
pub mod log_scale;
pub mod path_view;
pub mod rtt_chart;
pub mod step_lines;
mod svg_writer;
pub mod throughput_chart;
pub mod time_axis;
pub mod triangle;
pub mod tsg_chart;
pub mod window_chart;

use plotters::prelude::{DrawingAreaErrorKind, DrawingBackend};

/// What a drawing step returns: `T`, or the backend's error.
pub type Drawn<DB, T = ()> = Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

use sim_core::segment::Side;

/// The host drawn on the left in every view (the path view, the ladder):
/// the server, which sends the data, so the data flows left to right as
/// the reader reads and the ACKs come back right to left. One side for
/// all views, so a reader who looks from one to the other never has to
/// mirror the picture.
pub const LEFT_HOST: Side = Side::Server;

/// The host drawn on the right: the client, which receives the data.
pub const RIGHT_HOST: Side = Side::Client;
