//! Each widget's scenario builder: what its control values mean as a
//! `sim_core` scenario. A preset's values rebuild exactly its scenario file
//! (`tests/presets_match_scenarios.rs`).

pub mod long_fat;
pub mod slow_start;

use sim_core::config::Scenario;
use widget_catalogue::WidgetSpec;

/// The scenario `values` (in `spec.params` order, base units) describe.
pub fn scenario(spec: &WidgetSpec, values: &[f64]) -> Scenario {
    match spec.name {
        "long-fat" => long_fat::LongFatParams::from_values(spec, values).scenario(),
        _ => slow_start::SlowStartParams::from_values(spec, values).scenario(),
    }
}

/// The value of parameter `name`, or its default when `values` lacks it.
pub(crate) fn value(spec: &WidgetSpec, values: &[f64], name: &str) -> f64 {
    let i = spec.params.iter().position(|p| p.name == name);
    i.and_then(|i| values.get(i).copied())
        .unwrap_or_else(|| spec.param(name).map_or(0.0, |p| p.default))
}
