//! Generates each widget's preset table from the scenario files it names.
//!
//! `presets/list.rs` names the files; `presets/from_scenario.rs` says which
//! slider reads which setting. The output, `$OUT_DIR/presets.rs`, is included
//! by `src/lib.rs`. A file that does not parse fails the build with its name
//! and the key at fault, as `tcpsim run` would report it.

#[path = "presets/from_scenario.rs"]
mod from_scenario;
#[path = "presets/list.rs"]
mod list;

use std::fmt::Write;
use std::path::Path;

fn main() {
    println!("cargo::rerun-if-changed=presets");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut widgets: Vec<&str> = list::PRESET_SOURCES.iter().map(|p| p.widget).collect();
    widgets.sort_unstable();
    widgets.dedup();
    let mut out = String::new();
    for widget in widgets {
        let _ = writeln!(
            out,
            "/// Generated from `widgets/catalogue/presets` and `scenarios/`.\npub const {}_PRESETS: &[Preset] = &[",
            widget.to_uppercase().replace('-', "_")
        );
        for p in list::PRESET_SOURCES.iter().filter(|p| p.widget == widget) {
            let path = dir.join(p.scenario);
            println!("cargo::rerun-if-changed={}", path.display());
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("preset {}: {}: {e}", p.name, path.display()));
            let (_, scenario) = sim_core::scenario_file::parse(&text)
                .unwrap_or_else(|e| panic!("preset {}: {}: {e}", p.name, path.display()));
            let values = from_scenario::slider_values(widget, &scenario)
                .unwrap_or_else(|| panic!("no slider mapping for widget {widget}"));
            let values: Vec<String> = values
                .iter()
                .map(|(k, v)| format!("({k:?}, {v:?})"))
                .collect();
            let _ = writeln!(
                out,
                "    Preset {{ name: {:?}, title: {:?}, scenario: {:?}, values: &[{}], notes: {:?} }},",
                p.name,
                p.title,
                p.scenario,
                values.join(", "),
                p.notes
            );
        }
        out.push_str("];\n");
    }
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("presets.rs");
    std::fs::write(dest, out).unwrap();
}
