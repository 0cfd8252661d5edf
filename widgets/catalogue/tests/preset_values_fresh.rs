//! `src/preset_values.rs` is generated and checked in (the golden-file
//! pattern, see `widget_catalogue::generate`). This test generates it again
//! from `scenarios/`; when it differs from the checked-in copy it writes the
//! new one and fails, so a stale file cannot pass CI and a local
//! `cargo test` fixes it (commit the result).

use widget_catalogue::generate;

#[test]
fn preset_values_file_is_fresh() {
    let parse = |text: &str| {
        sim_core::scenario_file::parse(text)
            .map(|(_, scenario)| scenario)
            .map_err(|e| e.to_string())
    };
    let want = generate::preset_values(&parse).unwrap_or_else(|e| panic!("{e}"));
    let file = generate::preset_values_path();
    let have = std::fs::read_to_string(&file).unwrap_or_default();
    if have != want {
        std::fs::write(&file, &want).unwrap();
        panic!(
            "{} was stale and has been regenerated from scenarios/: commit it",
            file.display()
        );
    }
}
