//! Colours: the page's theme for ink and paper, a colour-blind-safe set for series.
//!
//! mdBook's five themes set CSS variables on `<html>` (`--fg`, `--bg`,
//! `--links`, ...). Reading them at draw time means a theme switch shows on
//! the next frame with no extra wiring.

use plotters::style::RGBColor;
use sim_core::decimal::parse_f64;
use sim_core::units::Within;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    pub bg: RGBColor,
    pub fg: RGBColor,
    pub muted: RGBColor,
    pub grid: RGBColor,
    pub accent: RGBColor,
    /// Not a colour: the charts leave the run after the time cursor blank
    /// instead of faint (predict-first mode, where it is the answer).
    pub hide_future: bool,
}

/// Okabe & Ito's eight colours, distinguishable with every common colour-vision
/// deficiency; flights cycle through the seven that are not black.
pub const SERIES: [RGBColor; 7] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(230, 159, 0),   // orange
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(213, 94, 0),    // vermillion
    RGBColor(240, 228, 66),  // yellow
];

pub fn series(i: usize) -> RGBColor {
    SERIES[i % SERIES.len()]
}

impl Default for Palette {
    /// mdBook's "light" theme.
    fn default() -> Self {
        Palette {
            bg: RGBColor(255, 255, 255),
            fg: RGBColor(0, 0, 0),
            muted: RGBColor(110, 110, 110),
            grid: RGBColor(225, 225, 225),
            accent: RGBColor(65, 131, 196),
            hide_future: false,
        }
    }
}

/// `a` moved a fraction `t` of the way to `b`.
pub fn mix(a: RGBColor, b: RGBColor, t: f64) -> RGBColor {
    let m = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * t).round() as u8;
    RGBColor(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

impl Palette {
    /// Builds a palette from the theme's foreground, background and link colours.
    pub fn from_theme(fg: RGBColor, bg: RGBColor, accent: RGBColor) -> Self {
        Palette {
            bg,
            fg,
            muted: mix(fg, bg, 0.45),
            grid: mix(fg, bg, 0.85),
            accent,
            hide_future: false,
        }
    }
}

/// `s.trim_end_matches("deg")` as a loop of `strip_suffix`, without core's
/// substring searcher (2 KB of wasm).
fn trim_deg(mut s: &str) -> &str {
    while let Some(t) = s.strip_suffix("deg") {
        s = t;
    }
    s
}

/// Parses `#rgb`, `#rrggbb`, `rgb(r, g, b)` / `rgba(...)` and `hsl(h, s%, l%)`:
/// the forms mdBook's theme variables and computed styles use.
pub fn parse_css_color(text: &str) -> Option<RGBColor> {
    let t = text.trim();
    if let Some(inner) = t
        .strip_prefix("hsla(")
        .or_else(|| t.strip_prefix("hsl("))
        .and_then(|s| s.strip_suffix(')'))
    {
        let parts: Vec<f64> = inner
            .split([',', ' ', '/'])
            .filter(|s| !s.is_empty())
            .take(3)
            .map(|s| parse_f64(trim_deg(s.trim()).trim_end_matches('%')))
            .collect::<Option<_>>()?;
        return (parts.len() == 3)
            .then(|| hsl_to_rgb(parts[0], parts[1] / 100.0, parts[2] / 100.0));
    }
    if let Some(hex) = t.strip_prefix('#') {
        let v = |s: &str| u8::from_str_radix(s, 16).ok();
        return match hex.len() {
            3 => {
                let d: Vec<u8> = hex
                    .chars()
                    .map(|c| c.to_digit(16).map(|d| d as u8 * 17))
                    .collect::<Option<_>>()?;
                Some(RGBColor(d[0], d[1], d[2]))
            }
            6 | 8 => Some(RGBColor(v(&hex[0..2])?, v(&hex[2..4])?, v(&hex[4..6])?)),
            _ => None,
        };
    }
    let inner = t
        .strip_prefix("rgba(")
        .or_else(|| t.strip_prefix("rgb("))?
        .strip_suffix(')')?;
    let parts: Vec<u8> = inner
        .split([',', ' ', '/'])
        .filter(|s| !s.is_empty())
        .take(3)
        .map(|s| parse_f64(s.trim()).map(|f| f.within(0.0, 255.0) as u8))
        .collect::<Option<_>>()?;
    (parts.len() == 3).then(|| RGBColor(parts[0], parts[1], parts[2]))
}

/// CSS Color 4's HSL → sRGB conversion.
fn hsl_to_rgb(h: f64, s: f64, l: f64) -> RGBColor {
    let (s, l) = (s.within(0.0, 1.0), l.within(0.0, 1.0));
    // Floored remainders by hand: `%` on f64 would bring libm's fmod.
    let h = h - 360.0 * (h / 360.0).floor();
    let f = |n: f64| {
        let k = n + h / 30.0;
        let k = k - 12.0 * (k / 12.0).floor();
        let a = s * l.min(1.0 - l);
        let v = l - a * (k - 3.0).min(9.0 - k).within(-1.0, 1.0);
        (v * 255.0).round() as u8
    };
    RGBColor(f(0.0), f(8.0), f(4.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_colours_parse_in_the_forms_browsers_return() {
        assert_eq!(parse_css_color("#fff"), Some(RGBColor(255, 255, 255)));
        assert_eq!(parse_css_color(" #1f1f1f "), Some(RGBColor(31, 31, 31)));
        assert_eq!(parse_css_color("rgb(1, 2, 3)"), Some(RGBColor(1, 2, 3)));
        assert_eq!(
            parse_css_color("rgba(10 20 30 / 0.5)"),
            Some(RGBColor(10, 20, 30))
        );
        assert_eq!(
            parse_css_color("hsl(0, 0%, 100%)"),
            Some(RGBColor(255, 255, 255))
        );
        assert_eq!(
            parse_css_color("hsl(0, 100%, 50%)"),
            Some(RGBColor(255, 0, 0))
        );
        // mdBook's navy background: hsl(226, 23%, 11%) ≈ rgb(22, 25, 35)
        assert_eq!(
            parse_css_color("hsl(226, 23%, 11%)"),
            Some(RGBColor(22, 25, 35))
        );
        assert_eq!(parse_css_color("color(display-p3 1 0 0)"), None);
    }
}
