//! The parts of a widget that are text, not drawing: the readouts under the
//! views, the text panels (iperf3, `ss`, tcp_metrics, settings) and a chart's
//! data table. Each reads one run's [`Model`] at the time cursor.

use super::model::Model;
use crate::series::table::Table;
use crate::units::TimeUnit;
use yew::prelude::*;

/// Completion, round trips, retransmissions and bytes per flight (the flights
/// not yet sent at the cursor greyed). Times are in `unit`, the widget's
/// (the clock's, and both sides' of a comparison).
pub fn readouts(m: &Model, t: f64, unit: TimeUnit) -> Html {
    // To 10 µs in ms, to 1 ms in s.
    let decimals = if unit == TimeUnit::S { 3 } else { 2 };
    let completion = match m.summary.completion {
        Some(c) => unit.format(c.0 as f64, decimals),
        None => format!("not finished after {}", unit.format(m.end_ns, decimals)),
    };
    let sent = m
        .summary
        .flights
        .iter()
        .filter(|f| f.start.0 as f64 <= t)
        .count();
    // A long run has thousands of flights; the readout lists the first ones.
    const SHOWN: usize = 40;
    let flights = m
        .summary
        .flights
        .iter()
        .take(SHOWN)
        .enumerate()
        .map(|(i, f)| {
            let class = if i < sent {
                "tw-flight"
            } else {
                "tw-flight tw-pending"
            };
            let sep = if i > 0 { " · " } else { "" };
            html! { <>{ sep }<span class={class}>{ f.bytes }</span></> }
        });
    let more = m.summary.flights.len().saturating_sub(SHOWN);
    // Flights are counted from packet records; say where those end.
    let (flights_label, trips_label) = match m.path.packets_until_ns {
        Some(t) => (
            format!(
                "Bytes per flight (until {}, where the trace stopped storing packets)",
                unit.format(t as f64, decimals)
            ),
            format!(
                "Round trips of data (until {})",
                unit.format(t as f64, decimals)
            ),
        ),
        None => ("Bytes per flight".into(), "Round trips of data".into()),
    };
    // Repeated transfers: each one's time (the completion runs across the gaps).
    let transfers = &m.summary.transfers;
    let transfers =
        (transfers.len() > 1).then(|| super::exchanges::times(transfers, &m.ladder.timers));
    html! {
        <dl class="tw-readouts">
            <div><dt>{ "Completion time" }</dt><dd data-readout="completion">{ completion }</dd></div>
            <div><dt>{ trips_label }</dt><dd data-readout="round-trips">{ m.summary.round_trips() }</dd></div>
            <div><dt>{ "Retransmissions" }</dt><dd data-readout="retransmissions">{ m.summary.retransmissions }</dd></div>
            if let Some(times) = transfers {
                <div class="tw-wide"><dt>{ "Transfers" }</dt><dd data-readout="transfers">{ times }</dd></div>
            }
            <div class="tw-wide"><dt>{ flights_label }</dt><dd data-readout="flights">
                { for flights }
                if more > 0 { { format!(" … and {more} more") } }
            </dd></div>
        </dl>
    }
}

pub fn text_panels(m: &Model, t: f64) -> Html {
    let settings = m
        .settings
        .iter()
        .map(|(k, v)| html! { <div><dt>{ k.clone() }</dt><dd>{ v.clone() }</dd></div> });
    // The cache's history up to the cursor: each close as `ip tcp_metrics
    // show` prints the entry then, each open with what it took.
    let lines: Vec<&str> = (m.tcp_metrics.iter())
        .take_while(|(at, _)| *at <= t)
        .map(|(_, line)| line.as_str())
        .collect();
    let metrics = if lines.is_empty() {
        "(no entries: metrics are saved when a connection closes)".to_string()
    } else {
        lines.join("\n")
    };
    html! {
        <div class="tw-panels">
            <details><summary>{ "iperf3 report" }</summary><pre data-panel="iperf">{ m.iperf_until(t).join("\n") }</pre></details>
            <details><summary>{ "ss -tmi" }</summary><pre data-panel="ss">{ m.ss_at(t) }</pre></details>
            <details><summary>{ "ip tcp_metrics show" }</summary><pre data-panel="tcp-metrics">{ metrics }</pre></details>
            <details><summary>{ "Settings in effect" }</summary><dl class="tw-settings" data-panel="settings">{ for settings }</dl></details>
        </div>
    }
}

pub fn table_html(t: &Table) -> Html {
    let head = t
        .headers
        .iter()
        .map(|h| html! { <th scope="col">{ h.clone() }</th> });
    let rows = t.rows.iter().map(|r| {
        html! { <tr>{ for r.iter().map(|c| html! { <td>{ c.clone() }</td> }) }</tr> }
    });
    html! {
        <div class="tw-table-scroll">
            <table><caption>{ t.caption.clone() }</caption><thead><tr>{ for head }</tr></thead><tbody>{ for rows }</tbody></table>
        </div>
    }
}
