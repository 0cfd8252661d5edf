//! Each preset's values, written by `build.rs`: it parses the preset's
//! scenario file and reads it with the widget's own `values_of`, so a preset
//! cannot drift from the case `tcpsim run scenarios/FILE` prints.

use crate::spec::WidgetSpec;

/// A preset's name and its value for every parameter, in `params` order.
type PresetValues = (&'static str, &'static [f64]);

// `PRESET_VALUES`: each widget's name and its presets' values.
include!(concat!(env!("OUT_DIR"), "/preset_values.rs"));

impl WidgetSpec {
    /// A preset's value for every parameter, in `params` order, base units.
    pub fn preset_values(&self, preset: &str) -> Option<&'static [f64]> {
        let (_, presets) = PRESET_VALUES.iter().find(|(w, _)| *w == self.name)?;
        let (_, values) = presets.iter().find(|(p, _)| *p == preset)?;
        Some(values)
    }
}

#[cfg(test)]
mod tests {
    use crate::WIDGETS;

    #[test]
    fn every_preset_value_is_a_valid_parameter() {
        for w in WIDGETS {
            for p in w.presets {
                let values = w
                    .preset_values(p.name)
                    .unwrap_or_else(|| panic!("{}/{}: no values", w.name, p.name));
                // The build script gives a value for every parameter, each in range.
                assert_eq!(values.len(), w.params.len(), "{}/{}", w.name, p.name);
                for (param, &v) in w.params.iter().zip(values) {
                    assert!(
                        param.min <= v && v <= param.max,
                        "{}/{}: {} = {} is outside {} to {}",
                        w.name,
                        p.name,
                        param.name,
                        param.format(v),
                        param.format(param.min),
                        param.format(param.max)
                    );
                }
            }
        }
    }
}
