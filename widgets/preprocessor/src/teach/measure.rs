//! Simulated figures at build time: a widget's run at given settings, or a
//! seed's scenario file under its own kernels and under today's, reduced to
//! the named results the browser reads from a live widget
//! (`tcp_widgets::kit::results`), by the same code.

use sim_core::config::Kernel;
use sim_core::scenario_file;
use tcp_widgets::kit::results::{METRICS, Results};
use widget_catalogue::WidgetSpec;

/// The metric names a goal may use.
pub fn known() -> Vec<&'static str> {
    METRICS.iter().map(|m| m.0).collect()
}

/// A metric's unit, as the page prints it.
pub fn unit(metric: &str) -> &'static str {
    METRICS.iter().find(|m| m.0 == metric).map_or("", |m| m.1)
}

/// The run a widget placed with `args` (a preset, values) shows when the page opens.
pub fn widget_run(spec: &'static WidgetSpec, args: &[(String, String)]) -> Result<Results, String> {
    let initial = tcp_widgets::params::initial(spec, args);
    if let Some(note) = initial.notes.first() {
        return Err(format!("{note:?}"));
    }
    run_values(spec, &initial.values)
}

/// The run for one value per parameter (base units), as the widget builds it.
/// Each is simulated once per build of the preprocessor (`run_cache`).
pub fn run_values(spec: &'static WidgetSpec, values: &[f64]) -> Result<Results, String> {
    super::run_cache::run(spec.name, values, || {
        let scenario = tcp_widgets::kit::scenario::build(spec, values);
        let run =
            sim_core::sim::run(&scenario).map_err(|e| format!("the simulation failed: {e}"))?;
        Ok(Results::of_run(&run))
    })
}

/// Where the scenario files are: `scenarios/` beside the book's `src/`.
pub fn scenario_dir(book_root: &std::path::Path) -> std::path::PathBuf {
    book_root.join("scenarios")
}

/// What a scenario file's run came to: its results, the bytes of each of
/// its flights and the kernels its hosts ran (`server 4.18, client 5.5`, or
/// one name when alike).
pub struct ScenarioRun {
    pub results: Results,
    pub flight_bytes: Vec<f64>,
    pub kernels: String,
}

/// A scenario file run as `tcpsim run FILE [--kernel K]` runs it; once per
/// build of the preprocessor and text of the file (`run_cache`).
pub fn scenario_run(
    dir: &std::path::Path,
    file: &str,
    kernel: Option<Kernel>,
) -> Result<ScenarioRun, String> {
    if file.contains('/') || file.contains('\\') || !file.ends_with(".toml") || file.contains(' ') {
        return Err(format!(
            "`{file}`: name a file in scenarios/, like seed-004-512k-7ms.toml"
        ));
    }
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut spec = scenario_file::read(&text).map_err(|e| format!("{file}: {e}"))?;
    if let Some(k) = kernel {
        spec.set_kernel(k);
    }
    let scenario = spec.to_scenario().map_err(|e| format!("{file}: {e}"))?;
    let name = |k: Option<Kernel>| k.unwrap_or(Kernel::Today).version().to_string();
    let (server, client) = (name(scenario.server.kernel), name(scenario.client.kernel));
    let kernels = if server == client {
        server
    } else {
        format!("server {server}, client {client}")
    };
    // The key: the file's name and text, and the kernel it runs under.
    let key = format!(
        "{file}:{:016x}:{}",
        crate::figures::fnv1a64(text.as_bytes()),
        kernel.map_or("file".to_string(), |k| k.version().to_string())
    );
    let figures = super::run_cache::figures(&key, &[], || {
        let run = sim_core::sim::run(&scenario)
            .map_err(|e| format!("{file}: the simulation failed: {e}"))?;
        let flights = sim_core::analysis::summarize(&run).flights;
        let mut figures = Results::of_run(&run).values().to_vec();
        figures.extend(flights.iter().map(|f| f.bytes as f64));
        Ok(figures)
    })?;
    let (Some(results), Some(flights)) = (figures.get(..18), figures.get(18..)) else {
        return Err(format!(
            "{file}: the run cache holds a run of another shape"
        ));
    };
    Ok(ScenarioRun {
        results: Results::from_values(results.try_into().expect("18 figures")),
        flight_bytes: flights.to_vec(),
        kernels,
    })
}

/// A metric's value, or an error naming what the run lacks. Besides the
/// results every widget reports, `flight:N` is the bytes of the N-th flight.
pub fn get(r: &ScenarioRun, metric: &str) -> Result<f64, String> {
    if let Some(n) = metric.strip_prefix("flight:") {
        let n: usize = n
            .parse()
            .map_err(|_| format!("`{metric}`: flight numbers start at 1"))?;
        return (n.checked_sub(1).and_then(|i| r.flight_bytes.get(i)))
            .copied()
            .ok_or_else(|| format!("the run has no flight {n}"));
    }
    r.results
        .get(metric)
        .ok_or_else(|| format!("the run reports no `{metric}` (did the transfer complete?)"))
}

/// Whether `metric` names something [`get`] can read.
pub fn is_known(metric: &str) -> bool {
    known().contains(&metric)
        || (metric.strip_prefix("flight:")).is_some_and(|n| n.parse::<usize>().is_ok_and(|n| n > 0))
}
