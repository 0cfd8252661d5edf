//! Every widget preset is the same case as the scenario file it names, so the
//! chapters' one-click presets and `tcpsim run scenarios/FILE` agree.

use tcp_widgets::params::preset_values;
use tcp_widgets::run_view::SlowStartParams;

#[test]
fn each_preset_simulates_exactly_its_scenario_file() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
    for spec in widget_spec::WIDGETS {
        for preset in spec.presets {
            let text = std::fs::read_to_string(dir.join(preset.scenario))
                .unwrap_or_else(|e| panic!("{}: {}: {e}", preset.name, preset.scenario));
            let (_, from_file) = sim_core::scenario_file::parse(&text).unwrap();
            let values = preset_values(spec, preset.name).unwrap();
            let from_widget = SlowStartParams::from_values(spec, &values).scenario();
            assert_eq!(
                from_widget, from_file,
                "preset {} vs {}",
                preset.name, preset.scenario
            );
        }
    }
}
