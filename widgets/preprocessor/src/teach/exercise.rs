//! `{{#exercise WIDGET args}}` … `{{/exercise}}`: a goal tied to a widget.
//!
//! ```text
//! {{#exercise slow-start preset=seed-7ms controls=initcwnd}}
//! title = "Three round trips"
//! task = "Find the smallest initcwnd that delivers 512 KiB in 3 round trips."
//! goal = "round_trips <= 3"
//! hints = ["Each flight doubles…", "…"]
//! explanation = "With initcwnd … (Markdown)"
//! search = "initcwnd"        # the simulator finds the smallest value that meets the goal
//! # order = "largest"        # …or the largest
//! # solution = { initcwnd = "26" }   # …or checks this setting
//! {{/exercise}}
//! ```
//!
//! The args place a widget as `{{#widget}}` would; `controls=` names what the
//! reader may change, and is required. At build time the simulator runs the
//! starting setting (which must not meet the goal already: there would be
//! nothing to do) and the solution (which must meet it), or searches the
//! control's range for one; a goal no setting meets fails the build. In the
//! browser `theme/teach.js` checks the goal against the widget's
//! `data-results` after each run, and "Show a solution" applies the setting.

use super::goal::Goal;
use super::{Block, Ctx, markdown, markdown_inline, measure, toml_body};
use crate::directive::{self, Directive};
use crate::render::escape;
use serde::Deserialize;
use std::collections::BTreeMap;
use widget_catalogue::{Kind, ParamSpec};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Body {
    title: String,
    task: String,
    goal: String,
    #[serde(default)]
    hints: Vec<String>,
    explanation: String,
    #[serde(default)]
    solution: Option<BTreeMap<String, String>>,
    #[serde(default)]
    search: Option<String>,
    #[serde(default)]
    order: Option<String>,
}

/// The widget an exercise places: its args are a widget directive's.
pub fn widget(b: &Block) -> Result<Directive, String> {
    let d = directive::parse(b.args_text).map_err(|e| match e.key {
        Some(k) => format!("parameter `{k}`: {}", e.message),
        None => e.message,
    })?;
    if d.predict.is_some() {
        return Err("an exercise's widget cannot also be a prediction".into());
    }
    Ok(d)
}

/// The controls a reader may use: the directive's `controls=`.
fn controls(d: &Directive) -> Result<Vec<&'static ParamSpec>, String> {
    let list = d
        .args
        .iter()
        .find(|(k, _)| k == "controls")
        .map(|(_, v)| v.as_str())
        .ok_or("an exercise names the controls the reader may use: add `controls=…`")?;
    Ok(list
        .split(',')
        .filter_map(|n| d.widget.param(n.trim()))
        .collect())
}

/// What the build found: the setting that meets the goal, as `param → text`
/// a link or an attribute reads back exactly.
struct Solved {
    setting: Vec<(&'static ParamSpec, String)>,
    /// How it was found, for the page.
    how: &'static str,
}

/// Whether every whole value of `p` is a search candidate.
fn whole(p: &ParamSpec) -> bool {
    matches!(p.kind, Kind::Count | Kind::Choice(_)) && p.max - p.min <= 1000.0
}

/// Values a search tries, in order: every whole number of a count or a
/// choice, else 200 slider positions (refined by [`refine`]).
fn candidates(p: &ParamSpec) -> Vec<f64> {
    let mut out: Vec<f64> = if whole(p) {
        (p.min as i64..=p.max as i64).map(|v| v as f64).collect()
    } else {
        (0..=200)
            .map(|i| p.from_position(f64::from(i) / 200.0))
            .collect()
    };
    out.dedup();
    out
}

/// The value nearest `missed` that still meets the goal, between a value
/// that does not (`missed`) and one that does (`met`), by bisection, each
/// value at three significant digits as a reader would type it.
fn refine(
    p: &ParamSpec,
    mut missed: f64,
    mut met: f64,
    meets_at: &dyn Fn(f64) -> Result<bool, String>,
) -> Result<f64, String> {
    for _ in 0..40 {
        let mid = p.clamp(sig3((missed + met) / 2.0));
        if mid == missed || mid == met {
            break;
        }
        if meets_at(mid)? {
            met = mid;
        } else {
            missed = mid;
        }
    }
    Ok(met)
}

/// `v` to three significant digits.
fn sig3(v: f64) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let mag = 10f64.powf(v.abs().log10().floor() - 2.0);
    (v / mag).round() * mag
}

fn solve(
    d: &Directive,
    body: &Body,
    goal: &Goal,
    allowed: &[&'static ParamSpec],
) -> Result<Solved, String> {
    let start = tcp_widgets::params::initial(d.widget, &d.args).values;
    let index = |p: &ParamSpec| d.widget.params.iter().position(|q| q.name == p.name);
    let meets = |values: &[f64]| -> Result<bool, String> {
        let r = measure::run_values(d.widget, values)?;
        Ok(goal.holds(|m| r.get(m)))
    };
    if meets(&start)? {
        return Err(format!(
            "the starting setting already meets the goal `{}`: there is nothing for the reader to do",
            body.goal
        ));
    }
    match (&body.solution, &body.search) {
        (Some(setting), None) => {
            let mut values = start.clone();
            let mut out = Vec::new();
            for (name, text) in setting {
                let p = allowed.iter().find(|p| p.name == name).ok_or_else(|| {
                    format!(
                        "the solution sets `{name}`, which is not among the exercise's controls"
                    )
                })?;
                let v = p
                    .parse(text)
                    .map_err(|e| format!("the solution's `{name}`: {}", e.message))?;
                values[index(p).unwrap_or(0)] = v;
                out.push((*p, p.exact_text(v)));
            }
            if !meets(&values)? {
                return Err(format!(
                    "the solution {setting:?} does not meet the goal `{}`",
                    body.goal
                ));
            }
            Ok(Solved {
                setting: out,
                how: "checked by the simulator when this book was built",
            })
        }
        (None, Some(name)) => {
            let p = allowed
                .iter()
                .find(|p| p.name == name.as_str())
                .ok_or_else(|| {
                    format!("`search = \"{name}\"` is not among the exercise's controls")
                })?;
            let mut tries = candidates(p);
            match body.order.as_deref() {
                None | Some("smallest") => {}
                Some("largest") => tries.reverse(),
                Some(o) => {
                    return Err(format!(
                        "`order = \"{o}\"`: use \"smallest\" or \"largest\""
                    ));
                }
            }
            let i = index(p).unwrap_or(0);
            let meets_at = |v: f64| {
                let mut values = start.clone();
                values[i] = v;
                meets(&values)
            };
            let mut missed: Option<f64> = None;
            // The scan goes in order, a batch of runs at a time, one per
            // core: a long-fat exercise tries dozens of 15 s runs, and the
            // book waits for it. Runs past the first hit are wasted, never
            // wrong: the answer is the first value in order that meets the
            // goal, as a one-at-a-time scan finds it.
            let width = std::thread::available_parallelism().map_or(1, |n| n.get());
            for batch in tries.chunks(width) {
                let met: Vec<Result<bool, String>> = std::thread::scope(|s| {
                    let runs: Vec<_> = batch
                        .iter()
                        .map(|&v| s.spawn(move || meets_at(v)))
                        .collect();
                    runs.into_iter()
                        .map(|r| {
                            r.join()
                                .unwrap_or_else(|_| Err("the simulation panicked".into()))
                        })
                        .collect()
                });
                for (&v, met) in batch.iter().zip(met) {
                    if met? {
                        // Between slider positions the boundary is finer
                        // than the scan: a reader can type any value.
                        let v = match missed {
                            Some(m) if !whole(p) => refine(p, m, v, &meets_at)?,
                            _ => v,
                        };
                        return Ok(Solved {
                            setting: vec![(*p, p.exact_text(v))],
                            how: "found by the simulator when this book was built",
                        });
                    }
                    missed = Some(v);
                }
            }
            Err(format!(
                "no value of `{name}` from {} to {} meets the goal `{}`: no reader can",
                p.format(p.min),
                p.format(p.max),
                body.goal
            ))
        }
        _ => {
            Err("give either `solution = { … }` (checked) or `search = \"CONTROL\"` (found)".into())
        }
    }
}

/// The exercise's HTML; `placeholder` is its widget's, from the caller.
pub fn render(
    b: &Block,
    ctx: &mut Ctx,
    widget_id: &str,
    placeholder: &str,
) -> Result<String, String> {
    let d = widget(b)?;
    let body: Body = toml_body(b)?;
    let goal = Goal::parse(&body.goal, &measure::known())?;
    let allowed = controls(&d)?;
    let solved = solve(&d, &body, &goal, &allowed)?;
    let id = ctx.next_id("exercise");
    let number = id.trim_start_matches("exercise-").to_string();
    ctx.item(&id, &format!("Exercise {number}: {}", body.title));
    let solution_json = {
        let pairs: Vec<String> = (solved.setting.iter())
            .map(|(p, t)| format!("\"{}\":\"{}\"", p.name, t))
            .collect();
        format!("{{{}}}", pairs.join(","))
    };
    let solution_words: Vec<String> = (solved.setting.iter())
        .map(|(p, t)| format!("{} = {}", p.label, p.format(p.parse(t).unwrap_or(0.0))))
        .collect();
    let control_names: Vec<&str> = allowed.iter().map(|p| p.label).collect();
    let hints: String = body
        .hints
        .iter()
        .enumerate()
        .map(|(i, h)| {
            format!(
                "<div class=\"tw-hint\" hidden><strong>Hint {}.</strong> {}</div>",
                i + 1,
                markdown_inline(h)
            )
        })
        .collect();
    let hint_button = if body.hints.is_empty() {
        String::new()
    } else {
        format!(
            "<button type=\"button\" class=\"tw-hint-next\">Show a hint (1 of {})</button>",
            body.hints.len()
        )
    };
    Ok(format!(
        "\n<section class=\"tw-exercise\" id=\"{id}\" data-item=\"{id}\" data-for=\"{widget_id}\" data-goal=\"{goal_json}\" data-solution=\"{solution}\" aria-labelledby=\"{id}-title\">\n\
         <p class=\"tw-exercise-title\" id=\"{id}-title\"><span class=\"tw-kit-tag\">Exercise {number}</span> {title}</p>\n\
         <div class=\"tw-exercise-task\">{task}</div>\n\
         <p class=\"tw-exercise-goal\">Goal: <strong>{goal_words}</strong>. Use: {controls}.</p>\n\
         {placeholder}\n\
         <p class=\"tw-exercise-status\" role=\"status\" aria-live=\"polite\">Not met yet: change the settings above.</p>\n\
         <div class=\"tw-exercise-hints\">{hints}{hint_button}</div>\n\
         <div class=\"tw-exercise-explanation\" hidden>{explanation}</div>\n\
         <p><button type=\"button\" class=\"tw-exercise-solve\">Show a solution</button></p>\n\
         <p class=\"tw-exercise-solution\" hidden>A setting that meets the goal: {solution_words} ({how}).</p>\n\
         </section>\n",
        goal_json = escape(&goal.to_json()),
        solution = escape(&solution_json),
        title = escape(&body.title),
        task = markdown(&body.task),
        goal_words = escape(&goal.describe()),
        controls = escape(&control_names.join(", ")),
        placeholder = placeholder.trim(),
        explanation = markdown(&body.explanation),
        solution_words = escape(&solution_words.join(", ")),
        how = solved.how,
    ))
}

/// An exercise's key for the instructor sheet ([`super::sheet`]): its
/// title, its goal in words and a setting that meets it, found or checked
/// by the simulator as [`render`] does.
pub fn key(b: &Block) -> Result<(String, String, String), String> {
    let d = widget(b)?;
    let body: Body = toml_body(b)?;
    let goal = Goal::parse(&body.goal, &measure::known())?;
    let allowed = controls(&d)?;
    let solved = solve(&d, &body, &goal, &allowed)?;
    let words: Vec<String> = (solved.setting.iter())
        .map(|(p, t)| format!("{} = {}", p.label, p.format(p.parse(t).unwrap_or(0.0))))
        .collect();
    Ok((body.title, goal.describe(), words.join(", ")))
}
