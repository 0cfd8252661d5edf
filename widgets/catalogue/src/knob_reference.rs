//! The book's "Linux knobs reference" appendix, written from sim-core's
//! knobs table (`sim_core::config::knobs`) and the widgets' parameters, so
//! the page cannot drift from what the scenario reader accepts or from the
//! eras' defaults. `cargo xtask build` writes it to
//! `src/generated/linux-knobs.md`, which `src/appendix-linux-knobs.md`
//! includes.

use crate::WIDGETS;
use sim_core::config::Kernel;
use sim_core::config::knobs::{ABSENT, Family, Knob, Model};
use std::fmt::Write;

/// The eras as the columns show them, newest first.
const COLUMNS: [Kernel; 5] = [
    Kernel::Today,
    Kernel::V5_5,
    Kernel::V4_18,
    Kernel::V3_10,
    Kernel::V2_6_32,
];

/// Markdown: one section per family: an overview table, then an entry per
/// knob. A host that names no kernel runs today's, the first column.
pub fn markdown() -> String {
    let mut out = String::new();
    for family in Family::ALL {
        let _ = writeln!(out, "## {}\n", family.title());
        overview(&mut out, family);
        for knob in family.knobs() {
            entry(&mut out, knob);
        }
    }
    out
}

fn overview(out: &mut String, family: Family) {
    let _ = writeln!(
        out,
        "| {} | today ({}) | scenario table |\n| --- | --- | --- |",
        match family {
            Family::Command => "command",
            _ => "name",
        },
        Kernel::TODAY_VERSION
    );
    for knob in family.knobs() {
        let _ = writeln!(
            out,
            "| [`{}`](#{}) | {} | {} |",
            knob.name,
            knob.anchor(),
            knob.default_in(Kernel::Today),
            scenario_table(knob)
        );
    }
    out.push('\n');
}

/// The overview's short form of where a scenario sets it: the host table
/// (`[HOST.sysctl]`), whose key is the knob's name; the entry gives the key.
fn scenario_table(knob: &Knob) -> String {
    match (knob.scenario_key(), knob.family.scenario_table()) {
        (Some(_), Some(table)) => format!("`[HOST.{table}]`"),
        _ => scenario(knob),
    }
}

/// Where a scenario sets it.
fn scenario(knob: &Knob) -> String {
    match (knob.scenario_key(), knob.model) {
        (Some(key), _) => format!("`{key}`"),
        (None, Model::Elsewhere(place)) => place.to_string(),
        _ => "not modelled".into(),
    }
}

fn entry(out: &mut String, knob: &Knob) {
    let _ = writeln!(
        out,
        "### `{}` {{#{}}}\n\n{}\n",
        knob.name,
        knob.anchor(),
        knob.what
    );
    let heads: Vec<String> = COLUMNS
        .iter()
        .map(|k| match k {
            Kernel::Today => format!("today ({})", Kernel::TODAY_VERSION),
            k => k.name().to_string(),
        })
        .collect();
    let _ = writeln!(
        out,
        "| {} |\n|{}",
        heads.join(" | "),
        " --- |".repeat(COLUMNS.len())
    );
    let cells: Vec<&str> = COLUMNS.iter().map(|k| knob.default_in(*k)).collect();
    let _ = writeln!(out, "| {} |\n", cells.join(" | "));
    let _ = writeln!(out, "- Read by: {}", knob.read_by);
    let shown = if knob.ss == ABSENT {
        "nowhere in `ss`"
    } else {
        knob.ss
    };
    let _ = writeln!(out, "- Its effect shows in: {shown}");
    let _ = writeln!(out, "- In a scenario: {}", scenario(knob));
    let widgets = widget_parameters(knob.name);
    if !widgets.is_empty() {
        let _ = writeln!(out, "- Widget parameters: {}", widgets.join(", "));
    }
    let chapters: Vec<String> = knob
        .chapters
        .iter()
        .map(|c| match c.file() {
            Some(file) => format!("[{}]({file})", c.title()),
            None => format!("{} (to be written)", c.title()),
        })
        .collect();
    let chapters = if chapters.is_empty() {
        "none yet".to_string()
    } else {
        chapters.join("; ")
    };
    let _ = writeln!(out, "- Chapters: {chapters}\n");
}

/// The widget parameters that set a knob: `slow-start`'s `rcvbuf`.
fn widget_parameters(knob: &str) -> Vec<String> {
    WIDGETS
        .iter()
        .flat_map(|w| {
            w.params
                .iter()
                .filter(move |p| p.knob == Some(knob))
                .map(move |p| format!("`{}`'s `{}`", w.name, p.name))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sim_core::config::knobs;

    #[test]
    fn every_knob_has_an_entry_with_every_eras_default() {
        let md = markdown();
        for knob in knobs::all() {
            let heading = format!("### `{}` {{#{}}}", knob.name, knob.anchor());
            let start = md.find(&heading).unwrap_or_else(|| panic!("{heading}"));
            let entry = &md[start..];
            let entry = &entry[..entry[4..].find("\n#").map_or(entry.len(), |i| i + 4)];
            let row: Vec<&str> = COLUMNS.iter().map(|k| knob.default_in(*k)).collect();
            assert!(
                entry.contains(&format!("| {} |", row.join(" | "))),
                "{entry}"
            );
            assert!(entry.contains(knob.read_by), "{entry}");
            assert!(entry.contains(&scenario(knob)), "{entry}");
            assert!(md.contains(&format!("[`{}`](#{})", knob.name, knob.anchor())));
        }
    }

    #[test]
    fn every_anchor_is_unique() {
        let anchors: Vec<String> = knobs::all().map(|k| k.anchor()).collect();
        for (i, a) in anchors.iter().enumerate() {
            assert!(!anchors[..i].contains(a), "{a} twice");
        }
    }

    #[test]
    fn the_page_says_where_the_model_is_not_todays_linux() {
        let md = markdown();
        if Kernel::UNNAMED.is_none() {
            assert!(
                md.contains("`net.ipv4.tcp_rmem` = 4096 131072 6291456"),
                "{md}"
            );
            assert!(md.contains("`net.core.rmem_max` = 212992"));
            assert!(!md.contains("`net.ipv4.tcp_sack` ="), "only what differs");
        } else {
            assert!(!md.contains("still runs the simulator's model"));
        }
        // A knob a widget sets names the widget's parameter.
        assert!(md.contains("`slow-start`'s `rcvbuf`"));
        assert!(md.contains("[Slow start and initcwnd](slow-start.md)"));
    }
}
