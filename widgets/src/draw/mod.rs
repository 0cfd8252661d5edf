//! Drawing, generic over the plotters backend: the browser draws on a canvas,
//! native tests draw the same pictures as SVG and inspect them.

pub mod cwnd_chart;
pub mod path_view;
