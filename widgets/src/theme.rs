//! Reading the page: mdBook's theme colours and the device-pixel ratio.

use crate::palette::{Palette, parse_css_color};
use sim_core::units::Within;

/// The palette of the theme in effect for `el` (re-read at every draw, so a
/// theme switch shows at once). Ink and paper come from the element's computed
/// `color` and `background-color` (widgets.css sets them from `--fg`/`--bg`), which
/// browsers resolve to `rgb()` whatever form the theme wrote them in.
pub fn palette(el: &web_sys::Element) -> Palette {
    let fallback = Palette::default();
    let Some(window) = web_sys::window() else {
        return fallback;
    };
    let Ok(Some(style)) = window.get_computed_style(el) else {
        return fallback;
    };
    let prop = |name: &str| {
        let v = style.get_property_value(name).ok()?;
        // A transparent background would read as black: treat it as unknown.
        if v.replace(' ', "").ends_with(",0)") || v.trim() == "transparent" {
            return None;
        }
        parse_css_color(&v)
    };
    match (prop("color"), prop("background-color")) {
        (Some(fg), Some(bg)) => {
            Palette::from_theme(fg, bg, prop("--links").unwrap_or(fallback.accent))
        }
        _ => fallback,
    }
}

pub fn device_pixel_ratio() -> f64 {
    web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .within(1.0, 4.0)
}
