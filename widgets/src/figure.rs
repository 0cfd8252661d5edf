//! A widget's starting state as a static SVG figure, drawn natively when the
//! book is built (by `mdbook-widgets`) for print, for readers without
//! JavaScript, and as the placeholder until the widget loads.
//!
//! It is the same run the widget starts with (same scenario builder, same
//! simulator) drawn by the same chart code, on plotters' SVG backend instead
//! of a canvas, in the light palette so it reads on white paper. The time
//! cursor stands at the end of the run: a printed page cannot play.
//!
//! Layout: the widget's two chart panels stacked (one column reads at phone
//! width and on paper), each under a one-line heading. In compare mode the
//! runs alternate per view (A's cwnd, B's cwnd, A's TSG, B's TSG) so the pair
//! to compare sits one above the other on one time axis.

use crate::kit::compare;
use crate::kit::model::Model;
use crate::kit::scenario;
use crate::kit::views::{self, View};
use crate::palette::Palette;
use crate::params::Initial;
use plotters::prelude::*;
use widget_catalogue::WidgetSpec;

/// The picture's width in px, about a wide chapter column's; narrower
/// columns (and paper) scale the whole picture down.
pub const WIDTH: u32 = 640;
/// Drawn as on a screen with 1.25 device pixels per CSS pixel: plotters'
/// SVG backend writes type at 1/1.24 of the size the canvas shows, and this
/// brings the labels back to the widget's 12 px (the charts then lay out as
/// on a 512 px canvas, still wider than their narrow layout).
const SCALE: f64 = 1.25;
/// The heading line above each panel, in CSS px before [`SCALE`].
const HEADING: f64 = 24.0;

fn scaled(v: f64) -> u32 {
    (v * SCALE).round() as u32
}

/// A drawn figure and what the page needs to embed it.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub svg: String,
    pub width: u32,
    pub height: u32,
    /// Each panel's heading, top to bottom (for the image's text alternative).
    pub headings: Vec<String>,
}

/// The values each side simulates, with the side's label: one side, or two
/// in compare mode, exactly as the widget runs them.
fn sides(spec: &WidgetSpec, initial: &Initial) -> Vec<(String, Vec<f64>)> {
    let (values, compare) = (&initial.values, initial.compare);
    (0..compare::side_count(compare))
        .map(|k| {
            (
                compare::side_label(spec, values, compare, k),
                compare::side_values(values, compare, k),
            )
        })
        .collect()
}

/// Simulates `initial` (both runs in compare mode) and draws its chart
/// panels at the end of the run. Deterministic: equal inputs give equal bytes.
pub fn render(spec: &WidgetSpec, initial: &Initial) -> Result<Figure, String> {
    let mut runs = Vec::new();
    for (label, values) in sides(spec, initial) {
        let run = sim_core::sim::run(&scenario::build(spec, &values))
            .map_err(|e| format!("cannot simulate{}: {e}", suffix(&label)))?;
        runs.push((label, Model::from_run(&run)));
    }
    // One time axis for all panels, as the widget's compared runs share one.
    let end = runs.iter().map(|(_, m)| m.end_ns).fold(0.0, f64::max);
    let mut panels: Vec<(String, View, &Model)> = Vec::new();
    for view in views::slots(&initial.views) {
        for (label, model) in &runs {
            let heading = if label.is_empty() {
                view.title().to_string()
            } else {
                format!("{label} — {}", view.title())
            };
            panels.push((heading, view, model));
        }
    }
    let heading_h = scaled(HEADING);
    // The widget's own panel heights, also for the four panels of compare
    // mode: the charts place their legends for that height.
    let panel_h = |v: &View| scaled(v.height() as f64);
    let height = panels.iter().map(|(_, v, _)| heading_h + panel_h(v)).sum();
    let pal = Palette::default();
    // Each panel is its own SVG document, nested in the figure's: the charts
    // end their drawing with `present()`, which closes an SVG backend's
    // document, so two panels cannot share one.
    let mut svg = format!(
        "<svg width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\" xmlns=\"http://www.w3.org/2000/svg\">\n"
    );
    let mut top = 0;
    for (heading, view, model) in &panels {
        let h = heading_h + panel_h(view);
        // And one y axis per view, as the widget's compared runs share.
        let axes = views::Axes {
            end_ns: end,
            y_top: runs
                .iter()
                .map(|(_, m)| views::y_top(*view, m))
                .fold(f64::NAN, f64::max),
        };
        let panel = panel_svg(heading, (*view, model, axes), (WIDTH, h), heading_h, &pal)?;
        let panel = panel
            .strip_prefix("<svg ")
            .ok_or("the SVG backend wrote no <svg> element")?;
        svg.push_str(&format!("<svg x=\"0\" y=\"{top}\" {panel}"));
        top += h;
    }
    svg.push_str("</svg>\n");
    Ok(Figure {
        svg: merge_polylines(&svg),
        width: WIDTH,
        height,
        headings: panels.into_iter().map(|(h, _, _)| h).collect(),
    })
}

/// One panel as an SVG document of `size`: the heading on a strip
/// `heading_h` high, and under it the view of the model on `axes`, the
/// cursor at the end of the time axis.
fn panel_svg(
    heading: &str,
    (view, model, axes): (View, &Model, views::Axes),
    size: (u32, u32),
    heading_h: u32,
    pal: &Palette,
) -> Result<String, String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.fill(&pal.bg).map_err(err)?;
        let font = ("sans-serif", 13.0 * SCALE)
            .into_font()
            .style(FontStyle::Bold)
            .color(&pal.fg);
        let at = (scaled(8.0) as i32, scaled(7.0) as i32);
        root.draw_text(heading, &font, at).map_err(err)?;
        let chart = root
            .clone()
            .shrink((0, heading_h), (size.0, size.1 - heading_h));
        views::draw(&chart, view, model, axes.end_ns, axes, pal, SCALE).map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Merges runs of adjacent, identically styled, opaque `<polyline>`s into one
/// `<path>` with a subpath each. Dashed lines arrive as one polyline per dash
/// (a ladder diagram has thousands); merged, the file is several times
/// smaller and paints the same: same order, same stroke, and overlaps of
/// opaque strokes look alike in one path or many.
fn merge_polylines(svg: &str) -> String {
    const OPEN: &str = "<polyline ";
    const POINTS: &str = " points=\"";
    const CLOSE: &str = "\"/>";
    let mut out = String::with_capacity(svg.len());
    // The open run: the shared attributes and the subpaths so far.
    let mut run: Option<(&str, String)> = None;
    let flush = |out: &mut String, run: &mut Option<(&str, String)>| {
        if let Some((attrs, d)) = run.take() {
            out.push_str(&format!("<path {attrs} d=\"{d}\"/>\n"));
        }
    };
    for line in svg.lines() {
        let parsed = line
            .strip_prefix(OPEN)
            .and_then(|rest| rest.strip_suffix(CLOSE))
            .and_then(|rest| rest.split_once(POINTS))
            .filter(|(attrs, _)| {
                attrs.contains("opacity=\"1\"") && attrs.contains("fill=\"none\"")
            });
        match parsed {
            Some((attrs, points)) => {
                if run.as_ref().is_some_and(|(a, _)| *a != attrs) {
                    flush(&mut out, &mut run);
                }
                let d = &mut run.get_or_insert_with(|| (attrs, String::new())).1;
                // After `M`, further pairs are implicit line-tos.
                d.push('M');
                d.push_str(points.trim());
            }
            None => {
                flush(&mut out, &mut run);
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    flush(&mut out, &mut run);
    out
}

fn suffix(label: &str) -> String {
    if label.is_empty() {
        String::new()
    } else {
        format!(" ({label})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::initial;

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn compare_mode_stacks_both_runs_per_view() {
        let spec = widget_catalogue::widget("slow-start").unwrap();
        let init = initial(spec, &pairs(&[("compare", "initcwnd"), ("vs", "100")]));
        let f = render(spec, &init).unwrap();
        assert_eq!(f.headings.len(), 4);
        assert!(
            f.headings[0].starts_with("A · initcwnd = 10 — cwnd"),
            "{:?}",
            f.headings
        );
        assert!(
            f.headings[1].starts_with("B · initcwnd = 100 — cwnd"),
            "{:?}",
            f.headings
        );
        assert_eq!(f.height, 4 * (scaled(HEADING) + scaled(240.0)));
    }

    /// The y tick labels of each panel (the numbers drawn right-aligned).
    fn y_ticks(svg: &str) -> Vec<Vec<String>> {
        svg.split("<svg x=\"0\"")
            .skip(1)
            .map(|panel| {
                panel
                    .split("<text")
                    .filter(|t| t.contains("text-anchor=\"end\""))
                    .map(|t| {
                        t[t.find('>').unwrap() + 1..t.find('<').unwrap()]
                            .trim()
                            .to_string()
                    })
                    .collect()
            })
            .collect()
    }

    /// Compared runs read against each other: both cwnd panels (and both
    /// time-sequence panels) run to the same top, that of the higher run.
    #[test]
    fn compared_runs_share_each_charts_y_axis() {
        let spec = widget_catalogue::widget("slow-start").unwrap();
        let init = initial(spec, &pairs(&[("compare", "size"), ("vs", "4MiB")]));
        let f = render(spec, &init).unwrap();
        let ticks = y_ticks(&f.svg);
        assert_eq!(ticks.len(), 4, "{:?}", f.headings);
        assert!(ticks[0].len() > 2, "{:?}", ticks[0]);
        assert_eq!(ticks[0], ticks[1], "cwnd: A's axis and B's");
        assert_eq!(ticks[2], ticks[3], "time-sequence: A's axis and B's");
    }

    #[test]
    fn adjacent_polylines_of_one_style_become_one_path() {
        let svg = "<svg>\n\
            <polyline fill=\"none\" opacity=\"1\" stroke=\"#000\" stroke-width=\"1\" points=\"1,2 3,4 \"/>\n\
            <polyline fill=\"none\" opacity=\"1\" stroke=\"#000\" stroke-width=\"1\" points=\"5,6 7,8 \"/>\n\
            <polyline fill=\"none\" opacity=\"1\" stroke=\"#F00\" stroke-width=\"1\" points=\"0,0 1,1 \"/>\n\
            <polyline fill=\"none\" opacity=\"0.5\" stroke=\"#F00\" stroke-width=\"1\" points=\"2,2 3,3 \"/>\n\
            <text>x</text>\n\
            <polyline fill=\"none\" opacity=\"1\" stroke=\"#000\" stroke-width=\"1\" points=\"9,9 8,8 \"/>\n\
            </svg>\n";
        assert_eq!(
            merge_polylines(svg),
            "<svg>\n\
             <path fill=\"none\" opacity=\"1\" stroke=\"#000\" stroke-width=\"1\" d=\"M1,2 3,4M5,6 7,8\"/>\n\
             <path fill=\"none\" opacity=\"1\" stroke=\"#F00\" stroke-width=\"1\" d=\"M0,0 1,1\"/>\n\
             <polyline fill=\"none\" opacity=\"0.5\" stroke=\"#F00\" stroke-width=\"1\" points=\"2,2 3,3 \"/>\n\
             <text>x</text>\n\
             <path fill=\"none\" opacity=\"1\" stroke=\"#000\" stroke-width=\"1\" d=\"M9,9 8,8\"/>\n\
             </svg>\n"
        );
    }
}
