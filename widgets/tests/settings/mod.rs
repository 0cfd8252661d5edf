//! A widget's run for `key=value` settings, as a directive or a URL gives
//! them: what the reader would see, shared by the tests that start from a
//! page's point of view.

use sim_core::sim::RunResult;
use tcp_widgets::kit::scenario;
use tcp_widgets::params::initial;

/// The run widget `name` shows for `settings`; every setting must be taken
/// (no note about an ignored value).
pub fn run(name: &str, settings: &[(&str, &str)]) -> RunResult {
    let spec = widget_catalogue::widget(name).unwrap();
    let pairs: Vec<(String, String)> = settings
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let start = initial(spec, &pairs);
    assert!(start.notes.is_empty(), "{:?}", start.notes);
    sim_core::sim::run(&scenario::build(spec, &start.values)).unwrap()
}
