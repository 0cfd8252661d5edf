//! Reading the page: mdBook's theme colours and the device-pixel ratio.

use crate::palette::{Palette, parse_css_color};

/// The palette of the theme currently on `<html>` (re-read every frame, so a
/// theme switch shows at once).
pub fn palette() -> Palette {
    let fallback = Palette::default();
    let Some(window) = web_sys::window() else { return fallback };
    let Some(html) = window.document().and_then(|d| d.document_element()) else { return fallback };
    let Ok(Some(style)) = window.get_computed_style(&html) else { return fallback };
    let var = |name: &str| style.get_property_value(name).ok().and_then(|v| parse_css_color(&v));
    match (var("--fg"), var("--bg")) {
        (Some(fg), Some(bg)) => Palette::from_theme(fg, bg, var("--links").unwrap_or(fallback.accent)),
        _ => fallback,
    }
}

pub fn device_pixel_ratio() -> f64 {
    web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).clamp(1.0, 4.0)
}
