//! The JSON Schema of scenario files (`tcpsim schema`, committed as
//! `scenarios/scenario.schema.json`), generated from the serde structs in
//! `sections.rs` and their doc comments.

use super::ScenarioFile;

/// The JSON Schema of scenario files.
pub fn json_schema() -> schemars::Schema {
    schemars::schema_for!(ScenarioFile)
}
