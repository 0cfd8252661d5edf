//! The views of one run a widget can show, drawn on any plotters backend
//! (canvas in the page, SVG for export and for native tests).

use super::detail::Stretch;
use super::model::Model;
use crate::draw::backend::{Backend, SvgWriter};
use crate::draw::time_axis::TimeAxis;
use crate::draw::{
    buffer_chart, connections_chart, ladder, path_view, rtt_chart, throughput_chart, tsg_chart,
    window_chart,
};
use crate::palette::Palette;
use crate::series::table::Table;
use plotters::coord::Shift;
use plotters::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Path,
    Ladder,
    Window,
    Tsg,
    Throughput,
    Rtt,
    Buffers,
    Connections,
}

impl View {
    pub const ALL: [View; 8] = [
        View::Path,
        View::Window,
        View::Tsg,
        View::Ladder,
        View::Throughput,
        View::Rtt,
        View::Buffers,
        View::Connections,
    ];
    /// The views a chart slot offers (the path view has its own place).
    pub const CHARTS: [View; 7] = [
        View::Window,
        View::Tsg,
        View::Ladder,
        View::Throughput,
        View::Rtt,
        View::Buffers,
        View::Connections,
    ];

    /// Short name, used in URLs, file names and element ids.
    pub fn name(self) -> &'static str {
        match self {
            View::Path => "path",
            View::Ladder => "ladder",
            View::Window => "cwnd",
            View::Tsg => "tsg",
            View::Throughput => "throughput",
            View::Rtt => "rtt",
            View::Buffers => "buffers",
            View::Connections => "connections",
        }
    }

    pub fn from_name(name: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The view's title: see `widget_catalogue::VIEW_WORDS` (on wasm
    /// `""`: the words file has it, `kit::page_text`).
    pub fn title(self) -> &'static str {
        widget_catalogue::view_words(self.name()).0
    }

    /// What a screen reader hears for the canvas (as [`title`](Self::title)).
    pub fn description(self) -> &'static str {
        widget_catalogue::view_words(self.name()).1
    }

    /// Height in CSS pixels at normal size.
    pub fn height(self) -> u32 {
        match self {
            View::Path => 170,
            View::Ladder => 340,
            _ => 240,
        }
    }

    /// The view's numbers as a table.
    pub fn table(self, m: &Model) -> Table {
        match self {
            View::Path => m.path.table(),
            View::Ladder => m.ladder.table(),
            View::Window => m.window.table(),
            View::Tsg => m.tsg.table(),
            View::Throughput => m.throughput.table(),
            View::Rtt => m.rtt.table(),
            View::Buffers => m.buffers.table(),
            View::Connections => m.connections.table(),
        }
    }
}

/// The chart panels' views when a page does not choose them.
pub const DEFAULT_SLOTS: [View; 2] = [View::Window, View::Tsg];

/// The chart panels for a page's `views=` names, over [`DEFAULT_SLOTS`]: the
/// first name sets the first panel, the second the second; a name that is
/// no view leaves its panel's default.
pub fn slots(names: &[&str]) -> [View; 2] {
    let mut slots = DEFAULT_SLOTS;
    for (slot, name) in slots.iter_mut().zip(names) {
        *slot = View::from_name(name).unwrap_or(*slot);
    }
    slots
}

/// The top of `view`'s y axis for `m` alone (NaN for the path view and the
/// ladder, which have none to share). The connection rows' y axis is the
/// connections; what they share is their time axis (from each open).
pub fn y_top(view: View, m: &Model) -> f64 {
    match view {
        View::Path | View::Ladder => f64::NAN,
        View::Connections => connections_chart::x_top(&m.connections),
        View::Window => window_chart::y_top(&m.window),
        View::Tsg => tsg_chart::y_top(&m.tsg),
        View::Throughput => throughput_chart::y_top(&m.throughput),
        View::Rtt => rtt_chart::y_top(&m.rtt),
        View::Buffers => buffer_chart::y_top(&m.buffers),
    }
}

/// The axes `view` is drawn on: time from 0 to `end_ns` and y from 0 to
/// `y_top` (NaN: the chart's own choice). Compared runs share both, so the
/// two charts read against each other.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axes {
    pub end_ns: f64,
    pub y_top: f64,
}

/// Draws `view` of `m` at `t_ns` on `axes` (the run's own, or the ones both
/// compared runs share). `scale` multiplies type and line widths (device
/// pixels per CSS pixel, times the presenter factor).
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    view: View,
    m: &Model,
    t_ns: f64,
    axes: Axes,
    pal: &Palette,
    scale: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    draw_with(area, view, m, None, t_ns, axes, Look::default(), pal, scale).map(|_| ())
}

/// How the reader chose to look at the charts, beyond the axes: shared by
/// every side, kept in the link.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Look {
    /// The cwnd chart's y axis is log₂ (`cwnd-scale=log`).
    pub log_cwnd: bool,
}

/// [`draw`] as the reader chose to look (`look`); returns where the view
/// put time on the canvas, for the pointer. The path view and the ladder
/// read from `stretch` (the packets replayed around the cursor where `m`
/// stored none, see `kit::detail`) when it covers `t_ns`.
#[allow(clippy::too_many_arguments)]
pub fn draw_with<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    view: View,
    m: &Model,
    stretch: Option<&Stretch>,
    t_ns: f64,
    axes: Axes,
    look: Look,
    pal: &Palette,
    scale: f64,
) -> Result<TimeAxis, DrawingAreaErrorKind<DB::ErrorType>> {
    // Predict mode's axis may end before the run: its end is the answer.
    let end = if pal.hide_future {
        axes.end_ns
    } else {
        axes.end_ns.max(m.end_ns)
    };
    let top = axes.y_top;
    let stretch = stretch.filter(|s| s.covers(t_ns));
    match view {
        View::Path => {
            let path = stretch.map_or(&m.path, |s| &s.path);
            path_view::draw(area, path, t_ns, pal, scale)?;
            let (w, h) = area.dim_in_pixel();
            let (x0, x1) = path_view::lane_px(w as f64, h as f64, scale);
            Ok(TimeAxis {
                from_px: x0,
                to_px: x1,
                from_ns: 0.0,
                to_ns: m.path.downlink.delay_ns as f64,
                vertical: false,
                relative: true,
            })
        }
        View::Ladder => {
            let ladder = stretch.map_or(&m.ladder, |s| &s.ladder);
            let drawn = ladder::draw(area, ladder, t_ns, pal, scale)?;
            Ok(TimeAxis {
                from_px: drawn.rows_px.0,
                to_px: drawn.rows_px.1,
                from_ns: drawn.window_ns.0,
                to_ns: drawn.window_ns.1,
                vertical: true,
                relative: false,
            })
        }
        View::Window => {
            window_chart::draw_scaled(area, &m.window, t_ns, end, top, pal, scale, look.log_cwnd)
        }
        View::Tsg => tsg_chart::draw(area, &m.tsg, t_ns, end, top, pal, scale),
        View::Throughput => throughput_chart::draw(area, &m.throughput, t_ns, end, top, pal, scale),
        View::Rtt => rtt_chart::draw(area, &m.rtt, t_ns, end, top, pal, scale),
        View::Buffers => buffer_chart::draw(area, &m.buffers, t_ns, end, top, pal, scale),
        View::Connections => connections_chart::draw(area, &m.connections, t_ns, top, pal, scale),
    }
}

/// The view as an SVG document, `w`×`h` pixels. Drawn through [`Backend`],
/// as the page's canvases are, so the wasm holds one copy of the drawing.
pub fn svg(view: View, m: &Model, t_ns: f64, pal: &Palette, w: u32, h: u32) -> String {
    svg_with(view, m, t_ns, Look::default(), pal, w, h)
}

/// [`svg`] as the reader looks at it (`look`): what an export writes.
pub fn svg_with(
    view: View,
    m: &Model,
    t_ns: f64,
    look: Look,
    pal: &Palette,
    w: u32,
    h: u32,
) -> String {
    let mut out = String::new();
    {
        let backend = Backend::Svg(SvgWriter::new(&mut out, (w, h)));
        let area = backend.into_drawing_area();
        let axes = Axes {
            end_ns: m.end_ns,
            y_top: f64::NAN,
        };
        let _ = draw_with(&area, view, m, None, t_ns, axes, look, pal, 1.0);
        let _ = area.present();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pages_views_fill_the_panels_in_order_over_the_defaults() {
        assert_eq!(slots(&[]), DEFAULT_SLOTS);
        assert_eq!(slots(&["rtt"]), [View::Rtt, View::Tsg]);
        assert_eq!(
            slots(&["ladder", "throughput"]),
            [View::Ladder, View::Throughput]
        );
        assert_eq!(slots(&["nonsense", "rtt"]), [View::Window, View::Rtt]);
    }

    #[test]
    fn the_pages_view_names_are_the_chart_panels_views() {
        let names: Vec<&str> = View::CHARTS.iter().map(|v| v.name()).collect();
        assert_eq!(names, widget_catalogue::VIEW_NAMES);
    }
}
