//! `{{#seed-table}}` … `{{/seed-table}}`: a seed case's figures three ways.
//!
//! ```text
//! {{#seed-table}}
//! [[row]]
//! figure = "512 KiB at 7 ms: first SYN to the last byte read"
//! reported = "63 ms (first SYN to last ACK, with the close)"
//! scenario = "seed-004-512k-7ms.toml"
//! metric = "completion_ms"
//! why = "The capture also counts the close … (Markdown)"
//! {{/seed-table}}
//! ```
//!
//! "Simulated" runs the case's scenario file as `tcpsim run FILE` does, in
//! the kernels the seed measured; "today" runs it again as
//! `tcpsim run FILE --kernel today`. Both at build time, so the table follows
//! the simulator's code; the reported figure is the seed's words.

use super::{Block, markdown_inline, measure, toml_body};
use crate::render::escape;
use serde::Deserialize;
use sim_core::config::Kernel;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Body {
    #[serde(default)]
    caption: Option<String>,
    row: Vec<Row>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    figure: String,
    reported: String,
    scenario: String,
    metric: String,
    why: String,
}

/// A simulated figure as the page prints it, in its metric's unit.
pub fn format_value(metric: &str, v: f64) -> String {
    let unit = if metric.starts_with("flight:") {
        "bytes"
    } else {
        measure::unit(metric)
    };
    match unit {
        "ms" => format!("{v:.1} ms"),
        "Mbit/s" => format!("{v:.1} Mbit/s"),
        "RTT" => format!("{v:.1} RTT"),
        "" => format!("{v}"),
        u => format!("{} {u}", v.round()),
    }
}

pub fn render(b: &Block, root: &Path) -> Result<String, String> {
    let body: Body = toml_body(b)?;
    let dir = measure::scenario_dir(root);
    let known = measure::known();
    let mut out = String::from("\n<div class=\"tw-seed-table\">\n");
    if let Some(c) = &body.caption {
        out.push_str(&format!(
            "<p class=\"tw-seed-caption\">{}</p>\n",
            markdown_inline(c)
        ));
    }
    out.push_str(
        "<table>\n<thead><tr><th>Figure</th><th>Reported by the source</th>\
         <th>Simulated, the source's setting</th><th>Simulated, today's kernel</th>\
         <th>Why they differ</th></tr></thead>\n<tbody>\n",
    );
    for (i, row) in body.row.iter().enumerate() {
        let at = |e: String| format!("row {}: {e}", i + 1);
        if !measure::is_known(&row.metric) {
            return Err(at(format!(
                "unknown metric `{}` (known: {}, flight:N)",
                row.metric,
                known.join(", ")
            )));
        }
        let seed = measure::scenario_run(&dir, &row.scenario, None).map_err(at)?;
        let today = measure::scenario_run(&dir, &row.scenario, Some(Kernel::Today)).map_err(at)?;
        let seed_kernels = seed.kernels.clone();
        let seed_v = measure::get(&seed, &row.metric).map_err(at)?;
        let today_v = measure::get(&today, &row.metric).map_err(at)?;
        out.push_str(&format!(
            "<tr><td>{}<br><span class=\"tw-kernels\"><code>{file}</code></span></td><td>{}</td>\
             <td>{}<br><span class=\"tw-kernels\">{seed_kernels}</span></td>\
             <td>{}<br><span class=\"tw-kernels\">Linux {today_name}</span></td><td>{}</td></tr>\n",
            markdown_inline(&row.figure),
            markdown_inline(&row.reported),
            escape(&format_value(&row.metric, seed_v)),
            escape(&format_value(&row.metric, today_v)),
            markdown_inline(&row.why),
            file = escape(&row.scenario),
            today_name = Kernel::TODAY_VERSION,
        ));
    }
    out.push_str("</tbody>\n</table>\n</div>\n");
    Ok(out)
}
