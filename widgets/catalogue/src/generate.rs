//! `src/preset_values.rs`, generated: each preset's values, read from the
//! scenario file it names with its widget's own `values_of`, the same code
//! the catalogue ships. The file is checked in (the golden-file pattern), so
//! the crate has no build script: `cargo xtask build` and `serve` write it
//! when a scenario changes, and `tests/preset_values_fresh.rs` fails when
//! the checked-in copy is stale (and writes the fresh one).
//!
//! The scenario parser is the caller's (`sim_core::scenario_file::parse`):
//! the catalogue itself is built without it, for the wasm.

use crate::WIDGETS;
use sim_core::config::Scenario;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Where the generated file lives.
pub fn preset_values_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/preset_values.rs")
}

/// The repository's `scenarios/` folder.
pub fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

/// The text of `preset_values.rs`, from the scenario files in
/// [`scenarios_dir`] parsed by `parse`. Fails naming the preset and its
/// file when one does not parse (with the parser's message, which names the
/// key at fault), or when `values_of` leaves a parameter unread.
pub fn preset_values(parse: &dyn Fn(&str) -> Result<Scenario, String>) -> Result<String, String> {
    let dir = scenarios_dir();
    let mut out = String::from(
        "// Generated from `scenarios/` by widget_catalogue::generate (run\n\
         // `cargo xtask build`, or `cargo test -p widget-catalogue`): each\n\
         // preset's values, in its widget's `params` order. Do not edit.\n\
         \n\
         use super::PresetValues;\n\
         \n\
         pub(super) const PRESET_VALUES: &[(&str, &[PresetValues])] = &[\n",
    );
    for w in WIDGETS {
        let _ = writeln!(out, "    (\n        {:?},\n        &[", w.name);
        for p in w.presets {
            let path = dir.join(p.scenario);
            let text = std::fs::read_to_string(&path)
                .map_err(|e| format!("preset {}: {}: {e}", p.name, path.display()))?;
            let scenario =
                parse(&text).map_err(|e| format!("preset {}: {}: {e}", p.name, path.display()))?;
            let values = (w.values_of)(&scenario);
            if let Some(param) = values.first_unread() {
                return Err(format!(
                    "preset {}: widget {}'s values_of reads nothing for `{param}`",
                    p.name, w.name
                ));
            }
            let _ = writeln!(out, "            // {}", p.scenario);
            let _ = writeln!(out, "            ({:?}, &{:?}),", p.name, values.base());
        }
        out.push_str("        ],\n    ),\n");
    }
    out.push_str("];\n");
    Ok(out)
}
