//! Presets take their values from the scenario files they name (the build
//! script reads each file with its widget's `values_of`). This checks the
//! other half: that those values rebuild exactly the scenario in the file,
//! so the file sets nothing the widget cannot show, and a chapter's
//! one-click preset and `tcpsim run scenarios/FILE` simulate the same case.

#[test]
fn each_preset_simulates_exactly_its_scenario_file() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    for spec in widget_catalogue::WIDGETS {
        for preset in spec.presets {
            let text = std::fs::read_to_string(dir.join(preset.scenario))
                .unwrap_or_else(|e| panic!("{}: {}: {e}", preset.name, preset.scenario));
            let (_, from_file) = sim_core::scenario_file::parse(&text).unwrap();
            let values = spec.preset_values(preset.name).unwrap();
            assert_eq!(
                spec.scenario_of(values),
                from_file,
                "preset {} vs {}",
                preset.name,
                preset.scenario
            );
        }
    }
}
