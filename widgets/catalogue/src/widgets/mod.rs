//! Every widget the book can embed, one module each. A module holds the
//! whole widget: its parameters (typed `const`s), its presets with their
//! titles, notes and scenario files, `scenario` (values → the simulated
//! scenario) and `values_of` (a scenario → values, which the preset generator
//! uses to read each preset's file), all joined in its `WIDGET` entry.
//!
//! Adding a widget: write its module (`long_fat.rs` is a complete example)
//! and add its name to the list below.

use crate::spec::WidgetSpec;
use crate::values::Param;
use sim_core::config::Kernel;

/// The Linux both hosts run, one of sim-core's eras (`Kernel::NAMES`):
/// every widget that simulates Linux hosts takes it. Its default, `today`,
/// is the host that names no kernel (`HostSettings::for_kernel_choice`),
/// which the widgets' scenarios build their hosts from.
pub const KERNEL: Param<Kernel> = Param::new(
    "kernel",
    "Kernel",
    "the Linux both hosts run: today's longterm kernel (6.18) or a seed article's, with its defaults and rules",
)
.default(Kernel::Today as usize as f64);

/// Declares each module and lists its `WIDGET`, in the order given.
macro_rules! widgets {
    ($($module:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every widget the book can embed.
        pub const WIDGETS: &[WidgetSpec] = &[$($module::WIDGET),*];
    };
}

widgets![slow_start, long_fat, connections, request_response, buffers,];

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
                // What the preset generator read from the file, the scenario built
                // from it gives back.
                assert_eq!((w.values_of)(&s).base(), values, "{}/{}", w.name, p.name);
            }
        }
    }

    #[test]
    fn the_kernel_choice_offers_every_era_and_defaults_to_today() {
        use super::KERNEL;
        use sim_core::config::{HostSettings, Kernel};
        let spec = KERNEL.spec;
        assert_eq!(spec.kind, crate::Kind::Choice(&Kernel::NAMES));
        assert_eq!(spec.format(spec.default), "today");
        assert!(
            spec.parse("4.19")
                .unwrap_err()
                .message
                .contains("2.6.32, 3.10, 4.18, 5.5, today")
        );
        for w in WIDGETS {
            assert!(w.param("kernel").is_some(), "{} has no kernel", w.name);
            // At `today` (the default) a widget's hosts are the host that
            // names no kernel: the model until the flip, so no figure moves.
            let s = (w.scenario)(&Values::defaults(w.params));
            let unnamed = HostSettings::default().derive();
            for host in [&s.client, &s.server] {
                assert_eq!(
                    (&host.behaviour, host.kernel),
                    (&unnamed.behaviour, unnamed.kernel)
                );
            }
            // Another era gives both hosts its defaults and behaviour.
            let mut values = Values::defaults(w.params);
            values.set(KERNEL, Kernel::V4_18);
            let s = (w.scenario)(&values);
            for host in [&s.client, &s.server] {
                assert_eq!(host.kernel, Some(Kernel::V4_18), "{}", w.name);
                assert_eq!(host.behaviour, Kernel::V4_18.behaviour(), "{}", w.name);
            }
            assert_eq!((w.values_of)(&s).choice(KERNEL), Kernel::V4_18);
        }
    }

    #[test]
    fn the_slow_start_widget_keeps_each_eras_tcp_rmem_ceiling() {
        use super::{KERNEL, slow_start};
        use sim_core::config::{HostSettings, Kernel};
        let mut values = Values::defaults(slow_start::WIDGET.params);
        values.set(KERNEL, Kernel::Today);
        let s = (slow_start::WIDGET.scenario)(&values);
        let unnamed = HostSettings::default().derive().receiver.rcvbuf_max;
        assert_eq!(s.client.receiver.rcvbuf_max, unnamed, "today's 32 MiB");
        values.set(KERNEL, Kernel::V2_6_32);
        let s = (slow_start::WIDGET.scenario)(&values);
        assert_eq!(s.client.receiver.rcvbuf_max, 4_194_304, "2.6.32's 4 MiB");
        assert_eq!(
            s.client.receiver.rcvbuf, 131_072,
            "the slider's tcp_rmem[1]"
        );
    }

    #[test]
    fn the_client_kernel_choice_is_same_then_every_era() {
        use crate::values::{Choice, ClientKernel};
        use sim_core::config::Kernel;
        assert_eq!(ClientKernel::NAMES[0], "same");
        assert_eq!(&ClientKernel::NAMES[1..], &Kernel::NAMES[..]);
        for (i, _) in ClientKernel::NAMES.iter().enumerate() {
            assert_eq!(ClientKernel::from_index(i).unwrap().index(), i);
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
