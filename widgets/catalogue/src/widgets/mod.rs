//! Every widget the book can embed, one module each. A module holds the
//! whole widget: its parameters (typed `const`s), its presets with their
//! titles, notes and scenario files, `scenario` (values → the simulated
//! scenario) and `values_of` (a scenario → values, which the build script
//! uses to read each preset's file), all joined in its `WIDGET` entry.
//!
//! Adding a widget: write its module (`long_fat.rs` is a complete example)
//! and add its name to the list below.

use crate::spec::WidgetSpec;

/// Declares each module and lists its `WIDGET`, in the order given.
macro_rules! widgets {
    ($($module:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every widget the book can embed.
        pub const WIDGETS: &[WidgetSpec] = &[$($module::WIDGET),*];
    };
}

widgets![slow_start, long_fat,];

#[cfg(test)]
mod tests {
    use super::WIDGETS;
    use crate::values::Values;

    /// Every getter a widget's `scenario` calls names one of its own
    /// parameters, with the kind it was declared with; `values_of` reads
    /// every parameter back.
    #[test]
    fn every_widget_builds_its_scenario_at_its_defaults_and_every_preset() {
        for w in WIDGETS {
            let defaults = Values::defaults(w.params);
            let s = (w.scenario)(&defaults);
            let read = (w.values_of)(&s);
            assert_eq!(read.first_unread(), None, "{}", w.name);
            for p in w.presets {
                let values = w.preset_values(p.name).unwrap();
                let s = w.scenario_of(values);
                // What the build script read from the file, the scenario built
                // from it gives back.
                assert_eq!((w.values_of)(&s).base(), values, "{}/{}", w.name, p.name);
            }
        }
    }

    #[test]
    fn widget_names_and_parameter_names_are_unique() {
        let unique = |names: Vec<&str>, whose: &str| {
            for (i, name) in names.iter().enumerate() {
                assert!(!names[..i].contains(name), "{whose}: {name} twice");
            }
        };
        unique(WIDGETS.iter().map(|w| w.name).collect(), "widgets");
        for w in WIDGETS {
            unique(w.param_names(), w.name);
            unique(w.preset_names(), w.name);
        }
    }
}
