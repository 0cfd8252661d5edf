//! Each preset's values, from `preset_values.rs`: generated from the
//! preset's scenario file, read with the widget's own `values_of`, and
//! checked in. `tests/preset_values_fresh.rs` regenerates it and fails when
//! it was stale, so a preset cannot drift from the case
//! `tcpsim run scenarios/FILE` prints.

use crate::spec::WidgetSpec;

/// A preset's name and its value for every parameter, in `params` order.
type PresetValues = (&'static str, &'static [f64]);

// Generated: rustfmt leaves it as the generator writes it.
#[rustfmt::skip]
#[path = "preset_values.rs"]
mod generated;
use generated::PRESET_VALUES;

impl WidgetSpec {
    /// A preset's value for every parameter, in `params` order, base units.
    pub fn preset_values(&self, preset: &str) -> Option<&'static [f64]> {
        let (_, presets) = PRESET_VALUES.iter().find(|(w, _)| *w == self.name)?;
        let (_, values) = presets.iter().find(|(p, _)| *p == preset)?;
        Some(values)
    }
}

/// A widget's preset notes as its words carry them (`notes` in
/// [`crate::words::script`]): one line per preset with notes, its name, a
/// tab, the notes. Read by [`note_in`].
pub fn notes_attribute(spec: &WidgetSpec) -> String {
    let lines: Vec<String> = spec
        .presets
        .iter()
        .filter(|p| !p.notes.is_empty())
        .map(|p| format!("{}\t{}", p.name, p.notes))
        .collect();
    lines.join("\n")
}

/// The rest of a widget's own words the wasm leaves out (`prose!`), as its
/// words carry them (`text` in [`crate::words::script`]): its title (key
/// `title`), each parameter's help (`help.NAME`), each preset's title
/// (`preset.NAME`) and every view's title and description (`view.NAME`,
/// `view-description.NAME`, from `VIEW_WORDS`), one line each, key, tab,
/// text. Read with [`note_in`].
pub fn text_attribute(spec: &WidgetSpec) -> String {
    let mut lines = vec![format!("title\t{}", spec.title)];
    lines.extend(
        spec.params
            .iter()
            .map(|p| format!("help.{}\t{}", p.name, p.help)),
    );
    lines.extend(
        spec.presets
            .iter()
            .map(|p| format!("preset.{}\t{}", p.name, p.title)),
    );
    for (name, title, description) in crate::VIEW_WORDS {
        lines.push(format!("view.{name}\t{title}"));
        lines.push(format!("view-description.{name}\t{description}"));
    }
    lines.join("\n")
}

/// `s` safe inside HTML text and quoted attribute values.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The notes of `preset` in a [`notes_attribute`] value, if it has any; or
/// the text of `key` in a [`text_attribute`] value.
pub fn note_in<'a>(attribute: &'a str, preset: &str) -> Option<&'a str> {
    attribute
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .find(|(name, _)| *name == preset)
        .map(|(_, notes)| notes)
}

#[cfg(test)]
mod tests {
    use crate::WIDGETS;

    #[test]
    fn every_presets_notes_read_back_from_the_page_attribute() {
        for w in WIDGETS {
            let attribute = super::notes_attribute(w);
            for p in w.presets {
                // A tab or a line break would split the line.
                assert!(!p.notes.contains(['\t', '\n']), "{}/{}", w.name, p.name);
                let read = super::note_in(&attribute, p.name);
                assert_eq!(read.unwrap_or(""), p.notes, "{}/{}", w.name, p.name);
            }
        }
        // The rest of the words read back too.
        for w in WIDGETS {
            let attribute = super::text_attribute(w);
            assert_eq!(super::note_in(&attribute, "title"), Some(w.title));
            for p in w.params {
                assert!(
                    !p.help.contains(['\t', '\n']) && !p.help.is_empty(),
                    "{}",
                    p.name
                );
                let key = format!("help.{}", p.name);
                assert_eq!(super::note_in(&attribute, &key), Some(p.help), "{}", w.name);
            }
            for p in w.presets {
                assert!(
                    !p.title.contains(['\t', '\n']) && !p.title.is_empty(),
                    "{}",
                    p.name
                );
                let key = format!("preset.{}", p.name);
                assert_eq!(
                    super::note_in(&attribute, &key),
                    Some(p.title),
                    "{}",
                    w.name
                );
            }
        }
        for (name, title, description) in crate::VIEW_WORDS {
            let attribute = super::text_attribute(&WIDGETS[0]);
            assert_eq!(
                super::note_in(&attribute, &format!("view.{name}")),
                Some(*title)
            );
            let key = format!("view-description.{name}");
            assert_eq!(super::note_in(&attribute, &key), Some(*description));
            assert!(!title.is_empty() && !description.contains(['\t', '\n']));
        }
        // Notes written bare would ship in the wasm again.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/widgets");
        let mut paths = vec![std::path::PathBuf::from(dir)];
        while let Some(path) = paths.pop() {
            if path.is_dir() {
                paths.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                !text.contains("notes: \""),
                "{}: write preset notes as `notes: crate::prose!(\"…\")`",
                path.display()
            );
            assert!(
                !text.contains("title: \""),
                "{}: write titles as `title: crate::prose!(\"…\")`",
                path.display()
            );
            assert!(
                !text.contains("scenario: \""),
                "{}: write preset files as `scenario: crate::native!(\"…\")`",
                path.display()
            );
        }
        assert_eq!(super::note_in("a\tone\nb\ttwo", "b"), Some("two"));
        assert_eq!(super::note_in("a\tone", "c"), None);
        assert_eq!(super::note_in("", "a"), None);
    }

    #[test]
    fn every_preset_value_is_a_valid_parameter() {
        for w in WIDGETS {
            for p in w.presets {
                let values = w
                    .preset_values(p.name)
                    .unwrap_or_else(|| panic!("{}/{}: no values", w.name, p.name));
                // The generated file (preset_values.rs) gives a value for every parameter, each in range.
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
