//! Prints what every widget preset shows, computed natively by the same code
//! the browser runs: `cargo run -p tcp-widgets --example presets`.

use tcp_widgets::params::preset_values;
use tcp_widgets::run_view::{RunView, SlowStartParams, trace_hash};

fn main() {
    for spec in widget_spec::WIDGETS {
        println!("{} — {}", spec.name, spec.title);
        for preset in spec.presets {
            let values = preset_values(spec, preset.name).expect("declared preset");
            let params = SlowStartParams::from_values(spec, &values);
            let run = RunView::simulate(&params);
            let hash = trace_hash(&params).map_or("none".to_string(), |h| format!("{h:016x}"));
            let done = run
                .summary
                .completion
                .map_or("not finished".to_string(), |t| {
                    format!("{:.2} ms", t.as_millis_f64())
                });
            let flights: Vec<String> = run
                .summary
                .flights
                .iter()
                .map(|f| f.bytes.to_string())
                .collect();
            println!(
                "  {:<14} {:>10}  {} round trips  hash {hash}  flights: {}",
                preset.name,
                done,
                run.summary.round_trips(),
                flights.join(" ")
            );
        }
    }
}
