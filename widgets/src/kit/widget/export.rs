//! What a reader takes away from a widget: a run's samples as CSV, a view's
//! data as CSV or JSON, its picture as PNG (the canvas as drawn) or SVG
//! (drawn again, in the page's colours), and a link to exactly this state.
//! Each fails quietly, as the page services under it do, except the link,
//! which is shown to copy by hand when the clipboard refuses it.

use super::state::State;
use crate::kit::browser;
use crate::kit::compare;
use crate::kit::views;
use crate::theme;
use web_sys::HtmlCanvasElement;
use widget_catalogue::WidgetSpec;
use yew::NodeRef;

/// A download a button offers, of side `k` (0 outside compare mode).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Download {
    /// Side `k`'s run as time series, one row per sample
    /// (`tcpsim --format samples`).
    Samples(usize),
    /// The data table of side `k`'s panel `slot`, as "csv" or "json".
    Table(usize, usize, &'static str),
    /// The picture of side `k`'s panel `slot`, as "png" or "svg".
    Picture(usize, usize, &'static str),
}

/// Names a download: widget, side in compare mode, what, extension
/// (`long-fat-b-cwnd.csv`).
pub fn file_name(spec: &WidgetSpec, comparing: bool, k: usize, what: &str, ext: &str) -> String {
    let side = if comparing {
        format!("-{}", compare::side_key(k))
    } else {
        String::new()
    };
    format!("{}{side}-{what}.{ext}", spec.name)
}

/// Offers `d` as a download. `canvases` are each side's (path view, chart
/// panels); `themed` finds the element whose colours an SVG takes.
pub fn download(
    d: Download,
    spec: &WidgetSpec,
    state: &State,
    canvases: &[[NodeRef; 3]],
    themed: impl FnOnce() -> Option<web_sys::Element>,
) {
    let comparing = state.compare.is_some();
    match d {
        Download::Samples(k) => {
            if let Some(m) = state.sides.get(k).and_then(|s| s.model.as_ref()) {
                let name = file_name(spec, comparing, k, "samples", "csv");
                browser::download_text(&name, "text/csv", &m.samples_csv());
            }
        }
        Download::Table(k, slot, format) => {
            let (Some(m), Some(view)) = (
                state.sides.get(k).and_then(|s| s.model.as_ref()),
                state.shown_views().get(slot).copied(),
            ) else {
                return;
            };
            let table = view.table(m);
            let (text, mime) = if format == "json" {
                (table.to_json(), "application/json")
            } else {
                (table.to_csv(), "text/csv")
            };
            let name = file_name(spec, comparing, k, view.name(), format);
            browser::download_text(&name, mime, &text);
        }
        Download::Picture(k, slot, format) => {
            picture(spec, state, canvases, themed, (k, slot, format));
        }
    }
}

/// Side `k`'s panel `slot` as a PNG of its canvas, or as SVG drawn at the
/// canvas's size (at least 320×120; 800 wide without a canvas).
fn picture(
    spec: &WidgetSpec,
    state: &State,
    canvases: &[[NodeRef; 3]],
    themed: impl FnOnce() -> Option<web_sys::Element>,
    (k, slot, format): (usize, usize, &str),
) {
    let (Some(side), Some(view)) = (state.sides.get(k), state.shown_views().get(slot).copied())
    else {
        return;
    };
    let Some(m) = &side.model else { return };
    let name = file_name(spec, state.compare.is_some(), k, view.name(), format);
    let canvas = canvases
        .get(k)
        .and_then(|c| c[slot].cast::<HtmlCanvasElement>());
    if format == "png" {
        if let Some(c) = canvas {
            browser::download_canvas(&name, &c);
        }
    } else if let Some(root) = themed() {
        let (w, h) = canvas.map_or((800, view.height()), |c| {
            (
                c.client_width().max(320) as u32,
                c.client_height().max(120) as u32,
            )
        });
        let pal = theme::palette(&root);
        let svg = views::svg_with(view, m, state.clock.t_ns, state.look, &pal, w, h);
        browser::download_text(&name, "image/svg+xml", &svg);
    }
}

/// What the widget says after "Copy link".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkStatus {
    Copied,
    /// The clipboard refused: the link, for the reader to copy by hand.
    CopyByHand(String),
}

/// Copies `url` (the page's address, the state just written into it) and
/// says how that went.
pub async fn copy_link(url: String) -> LinkStatus {
    if browser::copy(&url).await {
        LinkStatus::Copied
    } else {
        LinkStatus::CopyByHand(url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_say_the_widget_the_side_and_what() {
        let spec = widget_catalogue::widget("long-fat").unwrap();
        assert_eq!(
            file_name(spec, false, 0, "samples", "csv"),
            "long-fat-samples.csv"
        );
        assert_eq!(
            file_name(spec, true, 1, "cwnd", "json"),
            "long-fat-b-cwnd.json"
        );
    }
}
