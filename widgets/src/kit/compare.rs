//! Compare mode (`compare=PARAM vs=VALUE`): two runs that differ only in
//! PARAM, side by side under one clock. Side A simulates the widget's values;
//! side B the same values with its own value of PARAM.
//!
//! ```text
//!   values ──┬──────────────────────────► side A   "A · Congestion control = cubic"
//!            └─ values[PARAM] = VALUE ──► side B   "B · Congestion control = bbr"
//! ```
//!
//! Plain Rust, no page: the widget and the build-time figure (`figure.rs`)
//! both read their sides from here, so the two cannot drift apart.
//!
//! `compare` is the parameter side B changes (an index into `spec.params`)
//! and its value there; `None` outside compare mode.

use super::model::Model;
use widget_catalogue::WidgetSpec;

/// What one run achieved, for the headline that sets the two side by side.
struct Outcome {
    /// Bytes the client read, times 8, over the time to completion (or to
    /// the end of the run, when it did not complete).
    goodput_bps: f64,
    retransmissions: u64,
    completion_ns: Option<f64>,
}

impl Outcome {
    fn of(m: &Model) -> Outcome {
        let delivered: u64 = m.throughput.bytes.iter().sum();
        let completion_ns = m.summary.completion.map(|t| t.0 as f64);
        let span = completion_ns.unwrap_or(m.end_ns).max(1.0);
        Outcome {
            goodput_bps: delivered as f64 * 8.0 / (span / 1e9),
            retransmissions: m.summary.retransmissions,
            completion_ns,
        }
    }
}

/// The difference between the compared runs in one line, each quantity in
/// one unit for both sides: "goodput A 85.2 vs B 412 Mbit/s (B ×4.84) ·
/// retransmissions A 12 vs B 340 · finished A 3.21 s vs B 1.10 s".
pub fn headline(a: &Model, b: &Model) -> String {
    let (a, b) = (Outcome::of(a), Outcome::of(b));
    let mbps = [a.goodput_bps / 1e6, b.goodput_bps / 1e6];
    let d = decimals(mbps[0].max(mbps[1]));
    let mut line = format!(
        "goodput A {} vs B {} Mbit/s",
        crate::units::fixed(mbps[0], d),
        crate::units::fixed(mbps[1], d)
    );
    if mbps[0] > 0.0 {
        line.push_str(&format!(
            " (B ×{})",
            crate::units::fixed(mbps[1] / mbps[0], 2)
        ));
    }
    line.push_str(&format!(
        " · retransmissions A {} vs B {}",
        a.retransmissions, b.retransmissions
    ));
    let longest = a
        .completion_ns
        .unwrap_or(0.0)
        .max(b.completion_ns.unwrap_or(0.0));
    let (unit, div) = if longest >= 1e9 {
        ("s", 1e9)
    } else {
        ("ms", 1e6)
    };
    let done = |t: Option<f64>| match t {
        Some(t) => format!("{} {unit}", crate::units::fixed(t / div, 2)),
        None => "not finished".to_string(),
    };
    if a.completion_ns.is_none() && b.completion_ns.is_none() {
        line.push_str(" · neither finished");
    } else {
        line.push_str(&format!(
            " · finished A {} vs B {}",
            done(a.completion_ns),
            done(b.completion_ns)
        ));
    }
    line
}

/// Decimals that show three significant digits of a value up to `max`.
fn decimals(max: f64) -> usize {
    if max >= 100.0 {
        0
    } else if max >= 10.0 {
        1
    } else {
        2
    }
}

/// Side names in compare mode.
pub const SIDE_NAMES: [&str; 2] = ["A", "B"];

/// How many runs a widget shows: one, or two in compare mode.
pub fn side_count(compare: Option<(usize, f64)>) -> usize {
    if compare.is_some() { 2 } else { 1 }
}

/// The values side `k` simulates: `values`, and on side B its own value of
/// the compared parameter.
pub fn side_values(values: &[f64], compare: Option<(usize, f64)>, k: usize) -> Vec<f64> {
    let mut v = values.to_vec();
    if k == 1
        && let Some((i, vs)) = compare
    {
        v[i] = vs;
    }
    v
}

/// Side `k`'s name in lower case, for element data, control ids and file
/// names ("a", "b"). ASCII lower case: the names are ASCII, and Unicode's
/// case tables would cost the wasm 15 KB.
pub fn side_key(k: usize) -> String {
    SIDE_NAMES[k].to_ascii_lowercase()
}

/// "A · Congestion control = bbr": side `k`'s name and its value of the
/// compared parameter ("" outside compare mode).
pub fn side_label(
    spec: &WidgetSpec,
    values: &[f64],
    compare: Option<(usize, f64)>,
    k: usize,
) -> String {
    let Some((i, _)) = compare else {
        return String::new();
    };
    let p = &spec.params[i];
    format!(
        "{} · {} = {}",
        SIDE_NAMES[k],
        p.label,
        p.format(side_values(values, compare, k)[i])
    )
}

/// The widget's title (`title`, the spec's as its page carries it), naming
/// the compared parameter in compare mode ("Long fat network — compare
/// Congestion control").
pub fn title(title: &str, spec: &WidgetSpec, compare: Option<(usize, f64)>) -> String {
    match compare {
        Some((i, _)) => format!("{title} — compare {}", spec.params[i].label),
        None => title.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(values: &[f64]) -> Model {
        let spec = widget_catalogue::widget("slow-start").unwrap();
        let run = sim_core::sim::run(&crate::kit::scenario::build(spec, values)).unwrap();
        Model::from_run(&run)
    }

    #[test]
    fn the_headline_sets_both_runs_side_by_side_in_one_unit_each() {
        let spec = widget_catalogue::widget("slow-start").unwrap();
        let values: Vec<f64> = spec.params.iter().map(|p| p.default).collect();
        let i = spec
            .params
            .iter()
            .position(|p| p.name == "initcwnd")
            .unwrap();
        let b = side_values(&values, Some((i, 100.0)), 1);
        let line = headline(&model(&values), &model(&b));
        assert!(line.starts_with("goodput A "), "{line}");
        assert!(line.contains(" Mbit/s (B ×"), "{line}");
        assert!(line.contains("retransmissions A 0 vs B 0"), "{line}");
        // Both completion times in ms: the run is short.
        let done = &line[line.find("finished").unwrap()..];
        assert_eq!(done.matches(" ms").count(), 2, "{line}");
        // initcwnd 100 finishes sooner: B's goodput is the higher.
        let ratio: f64 = line[line.find('×').unwrap() + '×'.len_utf8()..]
            .split(')')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(ratio > 1.0, "{line}");
    }

    fn long_fat() -> &'static WidgetSpec {
        widget_catalogue::widget("long-fat").unwrap()
    }

    fn defaults(spec: &WidgetSpec) -> Vec<f64> {
        spec.params.iter().map(|p| p.default).collect()
    }

    #[test]
    fn side_b_changes_only_the_compared_parameter() {
        let spec = long_fat();
        let values = defaults(spec);
        let cc = spec.params.iter().position(|p| p.name == "cc").unwrap();
        let compare = Some((cc, 2.0));
        assert_eq!(side_count(compare), 2);
        assert_eq!(side_values(&values, compare, 0), values);
        let b = side_values(&values, compare, 1);
        assert_eq!(b[cc], 2.0);
        let changed = (0..values.len()).filter(|&i| b[i] != values[i]).count();
        assert_eq!(changed, usize::from(values[cc] != 2.0));
    }

    #[test]
    fn outside_compare_mode_there_is_one_unlabelled_side() {
        let spec = long_fat();
        let values = defaults(spec);
        assert_eq!(side_count(None), 1);
        assert_eq!(side_values(&values, None, 0), values);
        assert_eq!(side_values(&values, None, 1), values, "no side B to change");
        assert_eq!(side_label(spec, &values, None, 0), "");
        assert_eq!(title(spec.title, spec, None), spec.title);
    }

    #[test]
    fn sides_are_labelled_with_their_value_of_the_compared_parameter() {
        let spec = long_fat();
        let mut values = defaults(spec);
        let cc = spec.params.iter().position(|p| p.name == "cc").unwrap();
        values[cc] = 0.0;
        let compare = Some((cc, 2.0));
        assert_eq!(
            side_label(spec, &values, compare, 0),
            format!("A · Congestion control = {}", spec.params[cc].format(0.0))
        );
        assert_eq!(
            side_label(spec, &values, compare, 1),
            "B · Congestion control = bbr"
        );
        assert_eq!(
            title(spec.title, spec, compare),
            format!("{} — compare Congestion control", spec.title)
        );
        assert_eq!((side_key(0), side_key(1)), ("a".into(), "b".into()));
    }
}
