//! The scenario file reference (the book's appendix) names every key the
//! reader accepts. The reader's serde structs deny unknown fields and the
//! JSON Schema is generated from them (`cli.rs` keeps the committed copy equal
//! to it), so the schema's property names are exactly the accepted keys.
#![cfg(feature = "cli")]

use serde_json::Value;
use std::collections::BTreeSet;

/// Every property name anywhere in the schema.
fn keys(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Object(props)) = map.get("properties") {
                out.extend(props.keys().cloned());
            }
            map.values().for_each(|x| keys(x, out));
        }
        Value::Array(items) => items.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

/// The words inside `code spans` of the appendix (`[[path.drop]]` gives
/// `path` and `drop`).
fn code_words(markdown: &str) -> BTreeSet<String> {
    markdown
        .split('`')
        .skip(1)
        .step_by(2)
        .flat_map(|span| span.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_appendix_names_every_key_the_reader_accepts() {
    let mut accepted = BTreeSet::new();
    keys(
        sim_core::scenario_file::json_schema().as_value(),
        &mut accepted,
    );
    for new in [
        "loss_direction",
        "loss_position",
        "drop",
        "segment",
        "seq",
        "ack",
        "transmission",
    ] {
        assert!(accepted.contains(new), "the schema lists `{new}`");
    }
    let appendix = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../src/appendix-scenarios.md"),
    )
    .unwrap();
    let documented = code_words(&appendix);
    let missing: Vec<_> = accepted.difference(&documented).collect();
    assert!(
        missing.is_empty(),
        "keys missing from src/appendix-scenarios.md: {missing:?}"
    );
}
