//! BBR's model on the cwnd chart: the BDP it estimates, max_bw × min_rtt in
//! segments (`bbr_bdp`), drawn as a line where cwnd is, since BBR's cwnd
//! target is 2·BDP (`bbr_cwnd_gain`) and its pacing rate max_bw × gain. In
//! the mode band, ProbeBW's gain phases: 1.25 (up-probe) and 0.75 (drain)
//! shaded over ProbeBW's colour, named where there is room; cruising at 1
//! keeps the plain colour. (min_rtt alone is on the RTT chart, in ms.)

use super::chart_frame::{Frame, Key};
use crate::palette::{SERIES, mix};
use crate::series::cc_state::GainPhase;
use plotters::coord::Shift;
use plotters::prelude::*;
use sim_core::units::Within;

/// The BDP line's width and colour.
pub const BDP_W: f64 = 1.5;
pub const BDP_COLOUR: RGBColor = SERIES[1];

/// ProbeBW's colour in the mode band (`window_chart::mode_band`).
const PROBE_BW: RGBColor = SERIES[5];

/// The up-probe darker than ProbeBW and the drain paler, in every theme
/// (the chapter says "dark for the 1.25 probe"): mixed with black and
/// white, not with the theme's text and background, which swap in a dark
/// theme.
fn phase_colour(phase: GainPhase) -> RGBColor {
    match phase {
        GainPhase::Up => mix(PROBE_BW, BLACK, 0.45),
        GainPhase::Down => mix(PROBE_BW, WHITE, 0.55),
        GainPhase::Cruise => PROBE_BW,
    }
}

/// The legend's entries: the BDP line when there is one, the two shaded
/// phases when ProbeBW ran.
pub fn keys(f: &Frame, has_bdp: bool, phases: &[(f64, GainPhase)]) -> Vec<(&'static str, Key)> {
    let mut keys = Vec::new();
    if has_bdp {
        let label = if f.narrow {
            "BDP estimate"
        } else {
            "BDP estimate (max_bw × min_rtt)"
        };
        keys.push((label, Key::Line(f.line(BDP_COLOUR, BDP_W))));
    }
    if phases.iter().any(|p| p.1 != GainPhase::Cruise) {
        for (label, phase) in [
            ("ProbeBW gain 1.25", GainPhase::Up),
            ("gain 0.75", GainPhase::Down),
        ] {
            keys.push((label, Key::Bar(phase_colour(phase).filled())));
        }
    }
    keys
}

/// Shades the gain phases over the band from `top` to `bottom` (pixels in
/// `area`), up to the cursor; `x` maps time onto the area's pixels.
#[allow(clippy::too_many_arguments)]
pub fn gain_phases<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    f: &Frame,
    x: &dyn Fn(f64) -> i32,
    (top, bottom): (i32, i32),
    phases: &[(f64, GainPhase)],
    cursor_ns: f64,
    x_end: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    for (i, &(t0, phase)) in phases.iter().enumerate() {
        if phase == GainPhase::Cruise || t0 > cursor_ns {
            continue;
        }
        let t1 = phases.get(i + 1).map_or(x_end, |p| p.0).min(cursor_ns);
        let (x0, x1) = (x(t0), x(t1.within(t0, x_end)).max(x(t0) + 1));
        area.draw(&Rectangle::new(
            [(x0, top), (x1, bottom)],
            phase_colour(phase).filled(),
        ))?;
        let label = if phase == GainPhase::Up {
            "1.25"
        } else {
            "0.75"
        };
        if x1 - x0 > f.px(8.0 * label.len() as f64) {
            area.draw(&Text::new(
                label,
                (x0 + f.px(2.0), top),
                f.font().color(&BLACK),
            ))?;
        }
    }
    Ok(())
}
