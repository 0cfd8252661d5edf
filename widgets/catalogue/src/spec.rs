//! A widget's entry in the catalogue: its name, its parameters, its presets,
//! and the two functions that tie its values to a `sim_core` scenario. Each
//! widget module (`src/widgets/`) declares one.

use crate::param::ParamSpec;
use crate::values::Values;
use sim_core::config::Scenario;

/// A one-click case: a scenario file in the repository's `scenarios/`
/// folder. Its values are read from that file when the crate is built
/// ([`WidgetSpec::preset_values`]), so a preset is always the case
/// `tcpsim run scenarios/FILE` prints.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub name: &'static str,
    /// What the preset menu shows.
    pub title: &'static str,
    /// The scenario file in `scenarios/` this preset loads. Written
    /// `native!("…")`: only native code opens it; the wasm gets `""`.
    pub scenario: &'static str,
    /// What an instructor might say about the case, shown in presenter mode
    /// only. Written `prose!("…")`: the page carries it, not the wasm.
    pub notes: &'static str,
}

#[derive(Clone, Copy, Debug)]
pub struct WidgetSpec {
    pub name: &'static str,
    pub title: &'static str,
    pub params: &'static [ParamSpec],
    pub presets: &'static [Preset],
    /// The controls shown when a directive names none (`controls=`): the
    /// few the widget is about; every other one waits behind "More
    /// settings", so the figure reads as one idea, not an instrument panel.
    pub primary: &'static [&'static str],
    /// The values that describe a scenario: how the preset generator (tests/preset_values_fresh.rs) reads each
    /// preset's values from its file.
    pub values_of: fn(&Scenario) -> Values,
    /// The scenario the values describe (before the kit adds its sampling
    /// and trace budget).
    pub scenario: fn(&Values) -> Scenario,
}

// Specs are static tables: two are the same when they name the same thing.
// (UI components need `PartialEq` on their props to skip needless re-renders.)
impl PartialEq for WidgetSpec {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl WidgetSpec {
    pub fn param(&self, name: &str) -> Option<&'static ParamSpec> {
        self.params.iter().find(|p| p.name == name)
    }

    pub fn preset(&self, name: &str) -> Option<&'static Preset> {
        self.presets.iter().find(|p| p.name == name)
    }

    pub fn param_names(&self) -> Vec<&'static str> {
        self.params.iter().map(|p| p.name).collect()
    }

    pub fn preset_names(&self) -> Vec<&'static str> {
        self.presets.iter().map(|p| p.name).collect()
    }

    /// The scenario `values` (one per parameter, in `params` order, base
    /// units) describe.
    pub fn scenario_of(&self, values: &[f64]) -> Scenario {
        (self.scenario)(&Values::new(self.params, values.to_vec()))
    }
}

/// What the wasm has in place of a widget's `values_of` (see
/// [`native_fn!`](crate::native_fn)): the widget never reads a scenario
/// back into values; the preset generator does, natively.
#[cfg(target_arch = "wasm32")]
pub fn native_only(_: &Scenario) -> Values {
    unreachable!("values_of runs in native code only")
}
