//! Drawing, generic over the plotters backend: the browser draws on a canvas,
//! native tests draw the same pictures as SVG and inspect them.

pub mod backend;
pub mod chart_frame;
pub mod ladder;
pub mod path_view;
pub mod rtt_chart;
pub mod throughput_chart;
pub mod tsg_chart;
pub mod window_chart;

use plotters::prelude::{DrawingAreaErrorKind, DrawingBackend};

/// What a drawing step returns: `T`, or the backend's error.
pub type Drawn<DB, T = ()> = Result<T, DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;
