//! Prints what every widget preset shows, computed natively by the same code
//! the browser runs: `cargo run -p tcp-widgets --example presets`.

use tcp_widgets::kit::{model::Model, scenario};
use tcp_widgets::params::preset_values;

fn main() {
    for spec in widget_catalogue::WIDGETS {
        println!("{} — {}", spec.name, spec.title);
        for preset in spec.presets {
            let values = preset_values(spec, preset.name).expect("declared preset");
            let run = sim_core::sim::run(&scenario::build(spec, &values)).expect("valid preset");
            let hash = format!("{:016x}", run.trace.hash());
            let summary = Model::from_run(&run).summary;
            let done = summary.completion.map_or("not finished".to_string(), |t| {
                format!("{:.2} ms", t.as_millis_f64())
            });
            let flights: Vec<String> = summary
                .flights
                .iter()
                .map(|f| f.bytes.to_string())
                .collect();
            println!(
                "  {:<14} {:>10}  {} round trips  hash {hash}  flights: {}",
                preset.name,
                done,
                summary.round_trips(),
                flights.join(" ")
            );
        }
    }
}
