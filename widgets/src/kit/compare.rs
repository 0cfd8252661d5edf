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

use widget_catalogue::WidgetSpec;

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

/// The widget's title: the spec's, naming the compared parameter in compare
/// mode ("Long fat network — compare Congestion control").
pub fn title(spec: &WidgetSpec, compare: Option<(usize, f64)>) -> String {
    match compare {
        Some((i, _)) => format!("{} — compare {}", spec.title, spec.params[i].label),
        None => spec.title.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(title(spec, None), spec.title);
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
            title(spec, compare),
            format!("{} — compare Congestion control", spec.title)
        );
        assert_eq!((side_key(0), side_key(1)), ("a".into(), "b".into()));
    }
}
