//! The parameter reference the book's "Embedding a widget" appendix shows,
//! written from the same tables the widgets and the preprocessor read, so the
//! list cannot drift from what the widgets accept. `cargo xtask build` writes
//! it to `src/generated/widget-parameters.md`, which the appendix includes.

use crate::{COMMON_KEYS, Kind, VIEW_NAMES, WIDGETS, WidgetSpec};
use sim_core::config::knobs;
use std::fmt::Write;

/// Markdown: one table per widget, then the settings every widget takes.
pub fn markdown() -> String {
    let mut out = String::new();
    for w in WIDGETS {
        widget_table(&mut out, w);
    }
    let _ = writeln!(out, "Every widget also takes:\n");
    let _ = writeln!(out, "| Name | What it does |\n| --- | --- |");
    for key in COMMON_KEYS {
        let _ = writeln!(out, "| `{key}` | {} |", common_key_help(key));
    }
    let _ = writeln!(
        out,
        "| `theme` | `light` or `dark`, for the `<tcp-widget>` element and the embed pages (the book follows its own theme) |"
    );
    out
}

fn widget_table(out: &mut String, w: &WidgetSpec) {
    let _ = writeln!(out, "**`{}`**: {}\n", w.name, w.title);
    let _ = writeln!(
        out,
        "| Name | What it sets | Range | Default |\n| --- | --- | --- | --- |"
    );
    for p in w.params {
        let range = match p.kind {
            Kind::Choice(options) => options
                .iter()
                .map(|o| format!("`{o}`"))
                .collect::<Vec<_>>()
                .join(", "),
            _ => format!("{} to {}", p.format(p.min), p.format(p.max)),
        };
        // The knob it sets, linked to its entry in the knobs appendix.
        let knob = match p.knob.and_then(knobs::named) {
            Some(k) => format!(" ([`{}`](appendix-linux-knobs.md#{}))", k.name, k.anchor()),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "| `{}` | {}: {}{knob} | {range} | {} |",
            p.name,
            p.label,
            p.help,
            p.format(p.default)
        );
    }
    let presets = w
        .presets
        .iter()
        .map(|p| format!("`{}` ({})", p.name, p.title))
        .collect::<Vec<_>>()
        .join(", ");
    let _ = writeln!(out, "\nPresets: {presets}.\n");
}

fn common_key_help(key: &str) -> String {
    match key {
        "preset" => {
            "starts from a named case (the presets above); other settings then change it".into()
        }
        "compare" => {
            "names one parameter to compare: two runs side by side that differ only in it".into()
        }
        "vs" => "the compared parameter's value in the second run (with `compare`)".into(),
        "views" => format!(
            "the two chart panels, e.g. `views=tsg,rtt` (from {})",
            VIEW_NAMES
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        "controls" => format!(
            "the controls shown, e.g. `controls=rtt,initcwnd` (parameter names, or `all`); the \
             others wait behind \"More settings\". Without it a widget shows its main ones ({}); \
             a compared parameter is always shown",
            WIDGETS
                .iter()
                .map(|w| format!(
                    "`{}`: {}",
                    w.name,
                    w.primary
                        .iter()
                        .map(|p| format!("`{p}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        "cwnd-scale" => "`log` draws the cwnd chart's y axis logarithmic (slow start is then a straight line); `linear` (the default) does not".into(),
        other => format!("`{other}`"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_and_common_key_is_listed_with_its_range() {
        let md = markdown();
        for w in WIDGETS {
            // This widget's table: from its heading to the next blank-line paragraph.
            let start = md
                .find(&format!("**`{}`**", w.name))
                .expect("widget heading");
            let section = &md[start..];
            let section = &section[..section.find("\nPresets:").expect("presets line")];
            for p in w.params {
                let row = section
                    .lines()
                    .find(|l| l.starts_with(&format!("| `{}` | {}", p.name, p.label)))
                    .unwrap_or_else(|| panic!("{}.{} missing", w.name, p.name));
                assert!(row.contains(&p.format(p.default)), "{row}");
                if !matches!(p.kind, Kind::Choice(_)) {
                    assert!(row.contains(&p.format(p.max)), "{row}");
                }
            }
            for preset in w.presets {
                assert!(md.contains(&format!("`{}`", preset.name)));
            }
        }
        for key in COMMON_KEYS {
            assert!(md.contains(&format!("| `{key}` |")), "{key}");
        }
    }

    #[test]
    fn a_parameter_names_the_knob_it_sets_and_links_its_entry() {
        for p in WIDGETS.iter().flat_map(|w| w.params) {
            let Some(name) = p.knob else { continue };
            let knob = knobs::named(name)
                .unwrap_or_else(|| panic!("{}: `{name}` is not in the knobs table", p.name));
            // The help a reader hears from the slider names it too (its last
            // part: `tcp_rmem[1]` for `net.ipv4.tcp_rmem`).
            let short = name.rsplit('.').next().unwrap();
            assert!(p.help.contains(short), "{}: {}", p.name, p.help);
            let link = format!("([`{name}`](appendix-linux-knobs.md#{}))", knob.anchor());
            assert!(markdown().contains(&link), "{link}");
        }
    }
}
