//! A widget's starting values: defaults, then the preset, then explicit
//! parameters (from a `{{#widget}}` directive's data attributes). Anything
//! invalid is skipped with a note the widget shows; nothing from the page is
//! ever inserted as HTML.

use sim_core::units::Within;
use widget_catalogue::WidgetSpec;

#[derive(Clone, Debug, PartialEq)]
pub struct Initial {
    /// One value per `spec.params` entry, in base units.
    pub values: Vec<f64>,
    pub preset: Option<&'static str>,
    /// Compare mode: the parameter (index) the second run changes, and its
    /// value there.
    pub compare: Option<(usize, f64)>,
    /// The chart panels' views by name (`views=`), if given.
    pub views: Vec<&'static str>,
    /// Which controls show before "More settings", one per parameter (see
    /// [`shown_controls`]).
    pub shown: Vec<bool>,
    /// The cwnd chart's y axis is logarithmic (`cwnd-scale=log`).
    pub log_cwnd: bool,
    pub notes: Vec<Note>,
}

/// A note for the reader, and the parameter (index) it is about, if any: a
/// value that was ignored, clamped or unreadable. A note about a parameter
/// goes once the reader gives that parameter a value (see
/// `kit::widget::state`), so it never outlives what it explains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub param: Option<usize>,
    pub text: String,
}

impl Note {
    /// A note about parameter `i`.
    pub fn about(i: usize, text: String) -> Note {
        Note {
            param: Some(i),
            text,
        }
    }
}

impl From<String> for Note {
    fn from(text: String) -> Note {
        Note { param: None, text }
    }
}

impl From<&str> for Note {
    fn from(text: &str) -> Note {
        text.to_string().into()
    }
}

impl std::ops::Deref for Note {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

/// A preset's values (read from its scenario file when the catalogue was built).
pub fn preset_values(spec: &WidgetSpec, name: &str) -> Option<Vec<f64>> {
    let values = spec.preset_values(name)?;
    // A test keeps every preset inside its sliders' ranges; clamping here
    // only guards against a file edited past them.
    let clamped = spec.params.iter().zip(values);
    Some(clamped.map(|(p, &v)| v.within(p.min, p.max)).collect())
}

/// Builds the starting state from `key=value` pairs (order: preset first, then the rest).
pub fn initial(spec: &'static WidgetSpec, pairs: &[(String, String)]) -> Initial {
    let mut notes = Vec::new();
    let mut preset = None;
    let mut values: Vec<f64> = spec.params.iter().map(|p| p.default).collect();
    if let Some((_, name)) = pairs.iter().find(|(k, _)| k == "preset") {
        match spec.preset(name) {
            Some(p) => {
                preset = Some(p.name);
                values = preset_values(spec, p.name).unwrap_or(values);
            }
            None => notes.push(Note::from(format!(
                "Ignored preset “{}”: no such preset.",
                shorten(name)
            ))),
        }
    }
    // What the preset (or the defaults) gives, before the explicit values.
    let base = values.clone();
    let mut views = Vec::new();
    if let Some((_, v)) = pairs.iter().find(|(k, _)| k == "views") {
        match WidgetSpec::parse_views(v) {
            Ok(v) => views = v,
            Err(e) => notes.push(format!("Ignored views: {}.", e.message).into()),
        }
    }
    let mut log_cwnd = false;
    if let Some((_, v)) = pairs.iter().find(|(k, _)| k == "cwnd-scale") {
        match spec.check("cwnd-scale", v) {
            Ok(()) => log_cwnd = v == "log",
            Err(e) => notes.push(format!("Ignored cwnd-scale: {}.", e.message).into()),
        }
    }
    let compare = compare_of(spec, pairs, &mut notes);
    for (k, v) in pairs
        .iter()
        .filter(|(k, _)| !widget_catalogue::COMMON_KEYS.contains(&k.as_str()))
    {
        let Some(i) = spec.params.iter().position(|p| p.name == k) else {
            notes.push(format!("Ignored unknown parameter “{}”.", shorten(k)).into());
            continue;
        };
        let p = &spec.params[i];
        match p.parse_unchecked(v) {
            // Out of range: clamped to the nearest end, as a slider would
            // be, with a note (the embedding appendix's promise).
            Ok(x) if x < p.min || x > p.max => {
                values[i] = p.clamp(x);
                let (to, from, until) = (p.format(values[i]), p.format(p.min), p.format(p.max));
                notes.push(Note::about(
                    i,
                    format!(
                        "Clamped {k}=“{}” to {to}: the range is {from} to {until}.",
                        shorten(v)
                    ),
                ));
            }
            Ok(x) => values[i] = x,
            Err(e) => notes.push(Note::about(
                i,
                format!(
                    "Ignored {k}=“{}”: {}; using {}.",
                    shorten(v),
                    e.message,
                    p.format(values[i])
                ),
            )),
        }
    }
    let shown = shown_controls(spec, pairs, &base, &values, compare, &mut notes);
    Initial {
        values,
        preset,
        compare,
        views,
        shown,
        log_cwnd,
        notes,
    }
}

/// The controls a widget shows before "More settings": exactly those
/// `controls=` names (the author chose them for the paragraph above the
/// figure); without it, the widget's primary ones and any that the
/// directive or a link set away from the preset, because a reader who
/// opens a shared link should see at once what differs. The compared
/// parameter is always shown: it is what the figure is about.
fn shown_controls(
    spec: &WidgetSpec,
    pairs: &[(String, String)],
    base: &[f64],
    values: &[f64],
    compare: Option<(usize, f64)>,
    notes: &mut Vec<Note>,
) -> Vec<bool> {
    let named = pairs
        .iter()
        .find(|(k, _)| k == "controls")
        .and_then(|(_, v)| match spec.parse_controls(v) {
            Ok(names) => Some(names),
            Err(e) => {
                notes.push(format!("Ignored controls: {}.", e.message).into());
                None
            }
        });
    spec.params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let chosen = match &named {
                Some(names) => names.contains(&p.name),
                None => spec.primary.contains(&p.name) || values[i] != base[i],
            };
            chosen || compare.is_some_and(|(c, _)| c == i)
        })
        .collect()
}

/// `compare=PARAM vs=VALUE`, read as the parameter's own input is.
fn compare_of(
    spec: &WidgetSpec,
    pairs: &[(String, String)],
    notes: &mut Vec<Note>,
) -> Option<(usize, f64)> {
    let get = |k: &str| pairs.iter().find(|(key, _)| key == k).map(|(_, v)| v);
    let (param, vs) = (get("compare"), get("vs"));
    if param.is_none() && vs.is_none() {
        return None;
    }
    if let Err(e) = spec.check("compare", param.map_or("", |p| p.as_str())) {
        notes.push(format!("Ignored the comparison: {}.", e.message).into());
        return None;
    }
    if let Err(e) = spec.check_together(pairs) {
        notes.push(format!("Ignored the comparison: {}: {}.", e.key, e.message).into());
        return None;
    }
    let i = spec
        .params
        .iter()
        .position(|p| Some(p.name) == param.map(|p| p.as_str()))?;
    let v = spec.params[i].parse(vs?).ok()?;
    Some((i, v))
}

/// Keeps hostile or accidental long values from flooding the note.
fn shorten(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> &'static WidgetSpec {
        widget_catalogue::widget("slow-start").unwrap()
    }

    fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
        p.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn explicit_values_override_the_preset() {
        let init = initial(
            spec(),
            &pairs(&[("size", "4MiB"), ("preset", "initcwnd-100")]),
        );
        let i = |n: &str| spec().params.iter().position(|p| p.name == n).unwrap();
        assert_eq!(init.values[i("initcwnd")], 100.0);
        assert_eq!(init.values[i("size")], 4.0 * 1024.0 * 1024.0);
        assert_eq!(init.preset, Some("initcwnd-100"));
        assert!(init.notes.is_empty());
    }

    #[test]
    fn controls_shown_are_the_named_ones_else_the_primary_and_the_changed() {
        let shown = |p: &[(&str, &str)]| -> Vec<&str> {
            let init = initial(spec(), &pairs(p));
            spec()
                .params
                .iter()
                .zip(&init.shown)
                .filter(|(_, s)| **s)
                .map(|(p, _)| p.name)
                .collect()
        };
        assert_eq!(shown(&[]), ["rtt", "initcwnd", "size"]);
        assert_eq!(shown(&[("controls", "mss,rtt")]), ["rtt", "mss"]);
        assert_eq!(
            shown(&[("preset", "seed-5ms"), ("mss", "1000")]),
            ["rtt", "mss", "initcwnd", "size"],
            "a value set away from the preset shows"
        );
        assert_eq!(
            shown(&[("controls", "rtt"), ("compare", "initcwnd"), ("vs", "30")]),
            ["rtt", "initcwnd"],
            "the compared parameter always shows"
        );
        let init = initial(spec(), &pairs(&[("controls", "rtt,<img src=x>")]));
        assert_eq!(
            init.shown,
            initial(spec(), &[]).shown,
            "a bad list is ignored whole"
        );
        assert!(init.notes[0].starts_with("Ignored controls: unknown control `<img src=x>`"));
    }

    #[test]
    fn hostile_values_are_ignored_and_out_of_range_ones_clamped_with_a_note() {
        let init = initial(
            spec(),
            &pairs(&[
                ("rtt", "<script>alert(1)</script>"),
                ("initcwnd", "1e9"),
                ("size", "100GiB"),
                ("x", "y"),
            ]),
        );
        // The unreadable and unknown values are ignored (a count takes no
        // exponent); size = 100 GiB is clamped to its maximum.
        let size = spec().params.iter().position(|p| p.name == "size").unwrap();
        let mut expected: Vec<f64> = spec().params.iter().map(|p| p.default).collect();
        expected[size] = spec().params[size].max;
        assert_eq!(init.values, expected, "{:?}", init.notes);
        assert_eq!(init.notes.len(), 4, "{:?}", init.notes);
        assert!(init.notes[0].text.starts_with("Ignored rtt="));
        assert!(init.notes[1].text.starts_with("Ignored initcwnd=“1e9”"));
        let clamped = format!(
            "Clamped size=“100GiB” to {}: the range is",
            spec().params[size].format(spec().params[size].max)
        );
        assert!(init.notes[2].text.starts_with(&clamped), "{:?}", init.notes);
        assert_eq!(init.notes[2].param, Some(size));
    }
}
