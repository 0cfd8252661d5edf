//! A widget's parameter values, read typed.
//!
//! A widget module declares each parameter as a `const` [`Param`] typed by
//! what it holds ([`Duration`], [`Rate`], [`Bytes`], [`Count`], [`Ratio`] or a
//! [`Choice`] such as `sim_core::cc::Kind`). Its scenario reads the values
//! through those constants, so a misspelt parameter does not compile and a
//! value comes back as the type the simulator takes:
//!
//! ```text
//! values.duration(RTT)   -> SimDuration      values.count(INITCWND) -> u32
//! values.bytes(SIZE)     -> u64              values.choice(CC)      -> cc::Kind
//! ```
//!
//! The kit keeps values as `f64` in base units (ns, bit/s, bytes, segments,
//! an option's index), one per parameter in the widget's `params` order;
//! [`Values`] is that list with its parameters.

use crate::param::{Kind, ParamSpec};
use sim_core::time::SimDuration;
use std::marker::PhantomData;

/// A time in nanoseconds, written `7ms`, `0.3ms`, `200us`; read as a [`SimDuration`].
#[derive(Clone, Copy, Debug)]
pub struct Duration;
/// A rate in bits per second, written `1Gbit`, `100Mbit`; read as a `u64`.
#[derive(Clone, Copy, Debug)]
pub struct Rate;
/// A size in bytes, written `512KiB`, `64240`; read as a `u64`.
#[derive(Clone, Copy, Debug)]
pub struct Bytes;
/// A whole number (segments, bytes of MSS); read as a `u32`.
#[derive(Clone, Copy, Debug)]
pub struct Count;
/// A probability, written `3e-5`, `0.00003` or `0.003%`; read as an `f64`.
#[derive(Clone, Copy, Debug)]
pub struct Ratio;
/// A number of bandwidth-delay products, written `2` or `0.5BDP`; read as
/// an `f64` (the widget turns it into bytes from its rate and RTT).
#[derive(Clone, Copy, Debug)]
pub struct Bdps;

/// What a parameter holds: how its text is read ([`Kind`]), and how its
/// value is stored as an `f64` in base units and read back.
pub trait ParamKind {
    const KIND: Kind;
    type Value;
    fn to_base(value: Self::Value) -> f64;
    fn from_base(base: f64) -> Self::Value;
}

impl ParamKind for Duration {
    const KIND: Kind = Kind::Duration;
    type Value = SimDuration;
    fn to_base(value: SimDuration) -> f64 {
        value.0 as f64
    }
    fn from_base(base: f64) -> SimDuration {
        SimDuration(base as u64)
    }
}

/// Kinds held as a whole number of base units.
macro_rules! whole_number_kind {
    ($($kind:ident => $value:ty),*) => {$(
        impl ParamKind for $kind {
            const KIND: Kind = Kind::$kind;
            type Value = $value;
            fn to_base(value: $value) -> f64 {
                value as f64
            }
            fn from_base(base: f64) -> $value {
                base as $value
            }
        }
    )*};
}

whole_number_kind!(Rate => u64, Bytes => u64, Count => u32);

/// Kinds held as the `f64` itself.
macro_rules! real_number_kind {
    ($($kind:ident => $k:expr),*) => {$(
        impl ParamKind for $kind {
            const KIND: Kind = $k;
            type Value = f64;
            fn to_base(value: f64) -> f64 {
                value
            }
            fn from_base(base: f64) -> f64 {
                base
            }
        }
    )*};
}

real_number_kind!(Ratio => Kind::Ratio, Bdps => Kind::Multiple("BDP"));

/// A choice among named options (a select, or a toggle for `off`/`on`),
/// stored as the option's index.
pub trait Choice: Copy {
    /// The options' names, as readers write them.
    const NAMES: &'static [&'static str];
    /// The option at `index` in [`Choice::NAMES`].
    fn from_index(index: usize) -> Option<Self>;
    fn index(self) -> usize;
}

impl<E: Choice> ParamKind for E {
    const KIND: Kind = Kind::Choice(E::NAMES);
    type Value = E;
    fn to_base(value: E) -> f64 {
        value.index() as f64
    }
    fn from_base(base: f64) -> E {
        // Values are clamped to the range (0 to the last option) before any
        // scenario is built from them: an index outside it is a bug.
        let index = base.max(0.0).round() as usize;
        E::from_index(index)
            .unwrap_or_else(|| panic!("option {index} of {} does not exist", E::NAMES.join("/")))
    }
}

/// The congestion control module, from sim-core's one list of algorithms.
impl Choice for sim_core::cc::Kind {
    const NAMES: &'static [&'static str] = sim_core::cc::Kind::NAMES;
    fn from_index(index: usize) -> Option<Self> {
        sim_core::cc::Kind::ALL.get(index).copied()
    }
    fn index(self) -> usize {
        self as usize
    }
}

/// The kernel era both hosts run, from sim-core's one list of eras.
impl Choice for sim_core::config::Kernel {
    const NAMES: &'static [&'static str] = &sim_core::config::Kernel::NAMES;
    fn from_index(index: usize) -> Option<Self> {
        sim_core::config::Kernel::ALL.get(index).copied()
    }
    fn index(self) -> usize {
        self as usize
    }
}

/// The client's kernel where it may differ from the server's: `same`, or
/// one of sim-core's eras (seed 004's capture: a 5.5 client, a 4.18 server).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientKernel {
    Same,
    Era(sim_core::config::Kernel),
}

impl Choice for ClientKernel {
    /// `same`, then `Kernel::NAMES` in order (a test checks they agree).
    const NAMES: &'static [&'static str] = &["same", "2.6.32", "3.10", "4.18", "5.5", "today"];
    fn from_index(index: usize) -> Option<Self> {
        match index {
            0 => Some(ClientKernel::Same),
            i => sim_core::config::Kernel::ALL
                .get(i - 1)
                .map(|&k| ClientKernel::Era(k)),
        }
    }
    fn index(self) -> usize {
        match self {
            ClientKernel::Same => 0,
            ClientKernel::Era(k) => k as usize + 1,
        }
    }
}

impl ClientKernel {
    /// The client's era when the server runs `server`.
    pub fn or(self, server: sim_core::config::Kernel) -> sim_core::config::Kernel {
        match self {
            ClientKernel::Same => server,
            ClientKernel::Era(k) => k,
        }
    }
}

/// A switch, shown as a toggle: a sysctl or option that is off (0) or on (1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switch {
    Off,
    On,
}

impl Choice for Switch {
    const NAMES: &'static [&'static str] = &["off", "on"];
    fn from_index(index: usize) -> Option<Self> {
        match index {
            0 => Some(Switch::Off),
            1 => Some(Switch::On),
            _ => None,
        }
    }
    fn index(self) -> usize {
        self as usize
    }
}

impl From<bool> for Switch {
    fn from(on: bool) -> Self {
        if on { Switch::On } else { Switch::Off }
    }
}

impl Switch {
    pub fn on(self) -> bool {
        self == Switch::On
    }
}

/// One parameter of a widget, typed by what it holds. Declared as a `const`
/// in the widget's module:
///
/// ```text
/// pub const RTT: Param<Duration> = Param::new("rtt", "RTT", "round-trip propagation delay")
///     .range(0.1 * MS, 300.0 * MS)
///     .default(7.0 * MS)
///     .log_scale();
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Param<K> {
    /// What the preprocessor, the sliders and the URL read.
    pub spec: ParamSpec,
    kind: PhantomData<K>,
}

impl<K: ParamKind> Param<K> {
    /// A parameter of kind `K`, at 0 until given a range and a default; a
    /// choice's range is every option.
    // Natively `prose!(help)` is `help`.
    #[allow(clippy::redundant_field_names)]
    pub const fn new(name: &'static str, label: &'static str, help: &'static str) -> Self {
        let max = match K::KIND {
            Kind::Choice(options) => (options.len() - 1) as f64,
            _ => 0.0,
        };
        Param {
            spec: ParamSpec {
                name,
                label,
                // The words file carries it for the wasm (`text_attribute`).
                help: crate::prose!(help),
                kind: K::KIND,
                min: 0.0,
                max,
                default: 0.0,
                log: false,
                knob: None,
            },
            kind: PhantomData,
        }
    }

    /// The allowed range, in base units.
    pub const fn range(mut self, min: f64, max: f64) -> Self {
        self.spec.min = min;
        self.spec.max = max;
        self
    }

    /// The starting value, in base units.
    pub const fn default(mut self, value: f64) -> Self {
        self.spec.default = value;
        self
    }

    /// Slide on a log scale (sizes, rates and RTTs span decades).
    pub const fn log_scale(mut self) -> Self {
        self.spec.log = true;
        self
    }

    /// The Linux knob the parameter sets, by its name in the knobs table
    /// (`sim_core::config::knobs`); the help should name it too. Only native
    /// code reads it (the reference pages and their tests): the wasm keeps
    /// `Some("")`, as `native!` leaves text out.
    pub const fn knob(mut self, name: &'static str) -> Self {
        #[cfg(target_arch = "wasm32")]
        let name = {
            let _ = name;
            ""
        };
        self.spec.knob = Some(name);
        self
    }
}

/// A widget's values, one per parameter in `params` order, in base units.
#[derive(Clone, Debug, PartialEq)]
pub struct Values {
    params: &'static [ParamSpec],
    base: Vec<f64>,
}

impl Values {
    /// `base` holds one value per parameter, in `params` order.
    pub fn new(params: &'static [ParamSpec], base: Vec<f64>) -> Self {
        assert_eq!(params.len(), base.len(), "one value per parameter");
        Values { params, base }
    }

    /// Every parameter at its default.
    pub fn defaults(params: &'static [ParamSpec]) -> Self {
        Self::new(params, params.iter().map(|p| p.default).collect())
    }

    /// No value yet (NaN, which no parameter takes): what a widget's
    /// `values_of` starts from, so that the preset generator (tests/preset_values_fresh.rs) can refuse a
    /// preset whose scenario file left a parameter unread.
    pub fn unread(params: &'static [ParamSpec]) -> Self {
        Self::new(params, vec![f64::NAN; params.len()])
    }

    /// The values in base units, in `params` order.
    pub fn base(&self) -> &[f64] {
        &self.base
    }

    /// The first parameter that was never [`set`](Self::set) after
    /// [`unread`](Self::unread).
    pub fn first_unread(&self) -> Option<&'static str> {
        let i = self.base.iter().position(|v| v.is_nan())?;
        Some(self.params[i].name)
    }

    pub fn set<K: ParamKind>(&mut self, param: Param<K>, value: K::Value) {
        let i = self.index(&param.spec);
        self.base[i] = K::to_base(value);
    }

    pub fn duration(&self, param: Param<Duration>) -> SimDuration {
        self.get(param)
    }

    /// Bits per second.
    pub fn rate(&self, param: Param<Rate>) -> u64 {
        self.get(param)
    }

    pub fn bytes(&self, param: Param<Bytes>) -> u64 {
        self.get(param)
    }

    pub fn count(&self, param: Param<Count>) -> u32 {
        self.get(param)
    }

    pub fn ratio(&self, param: Param<Ratio>) -> f64 {
        self.get(param)
    }

    pub fn bdps(&self, param: Param<Bdps>) -> f64 {
        self.get(param)
    }

    pub fn choice<E: Choice>(&self, param: Param<E>) -> E {
        self.get(param)
    }

    fn get<K: ParamKind>(&self, param: Param<K>) -> K::Value {
        K::from_base(self.base[self.index(&param.spec)])
    }

    /// Where `spec` sits in `params`. Widget modules name their parameters
    /// by constant, so a wrong one is another widget's: a bug, which the
    /// catalogue's tests (every widget's scenario at its defaults and its
    /// presets) find.
    fn index(&self, spec: &ParamSpec) -> usize {
        self.params
            .iter()
            .position(|p| p.same_as(spec))
            .unwrap_or_else(|| panic!("`{}` is not one of this widget's parameters", spec.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::widgets::long_fat::Algorithms::One;
    use crate::widgets::{long_fat, slow_start};
    use sim_core::cc;

    #[test]
    fn getters_give_the_simulators_types() {
        let mut v = Values::defaults(long_fat::WIDGET.params);
        assert_eq!(v.choice(long_fat::CC), One(cc::Kind::Cubic));
        assert_eq!(v.duration(long_fat::RTT), SimDuration(210_000_000));
        assert_eq!(v.rate(long_fat::BANDWIDTH), 110_000_000);
        assert_eq!(v.ratio(long_fat::LOSS), 3e-5);
        assert_eq!(v.bytes(long_fat::QUEUE), 5_775_000);
        v.set(long_fat::CC, One(cc::Kind::Bbr));
        assert_eq!(v.base()[0], 2.0);
        assert_eq!(v.choice(long_fat::CC), One(cc::Kind::Bbr));
        let s = Values::defaults(slow_start::WIDGET.params);
        assert_eq!(s.count(slow_start::INITCWND), 10);
    }

    #[test]
    fn a_choice_offers_exactly_the_simulators_algorithms_and_the_mix() {
        let spec = long_fat::CC.spec;
        let Kind::Choice(names) = spec.kind else {
            panic!("not a choice")
        };
        assert_eq!(&names[..3], cc::Kind::NAMES);
        assert_eq!(names[3], "cubic+bbr");
        assert_eq!((spec.min, spec.max), (0.0, 3.0));
        for kind in cc::Kind::ALL {
            assert_eq!(spec.parse(kind.name()).unwrap(), kind as usize as f64);
        }
    }

    #[test]
    fn values_of_starts_unread_and_names_what_is_left() {
        let mut v = Values::unread(long_fat::WIDGET.params);
        assert_eq!(v.first_unread(), Some("cc"));
        v.set(long_fat::CC, One(cc::Kind::Reno));
        assert_eq!(v.first_unread(), Some("rtt"));
    }

    #[test]
    #[should_panic(expected = "`rtt` is not one of this widget's parameters")]
    fn another_widgets_parameter_is_refused() {
        // Same name, another range: slow-start's RTT is not long-fat's.
        Values::defaults(long_fat::WIDGET.params).duration(slow_start::RTT);
    }
}
