//! Presets take their slider values from the scenario files they name (the
//! build script of `widget-catalogue`). This checks the other half: that those
//! sliders rebuild exactly the scenario in the file, so the file sets nothing
//! the widget cannot show, and a chapter's one-click preset and
//! `tcpsim run scenarios/FILE` simulate the same case.

use tcp_widgets::params::preset_values;

#[test]
fn each_preset_simulates_exactly_its_scenario_file() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    for spec in widget_catalogue::WIDGETS {
        for preset in spec.presets {
            let text = std::fs::read_to_string(dir.join(preset.scenario))
                .unwrap_or_else(|e| panic!("{}: {}: {e}", preset.name, preset.scenario));
            let (_, from_file) = sim_core::scenario_file::parse(&text).unwrap();
            let values = preset_values(spec, preset.name).unwrap();
            let from_widget = tcp_widgets::builders::scenario(spec, &values);
            assert_eq!(
                from_widget, from_file,
                "preset {} vs {}",
                preset.name, preset.scenario
            );
        }
    }
}
