//! Predict first: `{{#widget NAME … predict="question" answer=METRIC}}`.
//!
//! The widget starts with its results hidden (`data-predict`, see
//! `tcp_widgets::kit::widget::predict`); above it the reader commits an
//! answer, a number in the metric's unit or one of `choices=`, then plays.
//! When the run has played through, the widget reveals its results and
//! `theme/teach.js` sets the reader's answer beside the simulated one. The
//! correct answer is never in the page: it is the run's `data-results`.
//!
//! `choices="4 or fewer: round_trips <= 4 | 5 or 6: round_trips >= 5 and round_trips <= 6 | 7 or more: round_trips >= 7"`:
//! each choice is a label and a condition over the run's results; the
//! choices whose condition the run meets are right. Without `choices` the
//! answer is a number, compared with the metric.

use super::goal::Goal;
use super::{Ctx, measure};
use crate::render::escape;

#[derive(Clone, Debug, PartialEq)]
pub struct Predict {
    pub question: String,
    pub metric: String,
    /// The unit the answer is typed in (the metric's, unless `unit=` says).
    pub unit: String,
    pub choices: Vec<(String, Goal)>,
}

/// The keys a widget directive takes for a prediction (not the widget's parameters).
pub const KEYS: &[&str] = &["predict", "answer", "unit", "choices"];

/// Takes the prediction keys out of a widget directive's pairs.
pub fn take(args: &mut Vec<(String, String)>) -> Result<Option<Predict>, (String, String)> {
    let mut get = |k: &str| {
        let i = args.iter().position(|(key, _)| key == k)?;
        Some(args.remove(i).1)
    };
    let question = get("predict");
    let (answer, unit, choices) = (get("answer"), get("unit"), get("choices"));
    let Some(question) = question else {
        if let Some(k) = [("answer", &answer), ("unit", &unit), ("choices", &choices)]
            .iter()
            .find_map(|(k, v)| v.as_ref().map(|_| *k))
        {
            return Err((
                k.into(),
                "only a prediction takes it: add `predict=\"…\"`".into(),
            ));
        }
        return Ok(None);
    };
    let known = measure::known();
    let metric = answer.ok_or((
        "predict".to_string(),
        "say which result answers it: `answer=round_trips` (one of the run's results)".to_string(),
    ))?;
    if !known.contains(&metric.as_str()) {
        return Err((
            "answer".into(),
            format!("unknown result `{metric}` (known: {})", known.join(", ")),
        ));
    }
    let mut parsed = Vec::new();
    for choice in choices.iter().flat_map(|c| c.split('|')) {
        let (label, cond) = choice.split_once(':').ok_or((
            "choices".to_string(),
            format!("`{}`: write `label: condition`", choice.trim()),
        ))?;
        let goal = Goal::parse(cond, &known).map_err(|e| ("choices".to_string(), e))?;
        parsed.push((label.trim().to_string(), goal));
    }
    if parsed.len() == 1 {
        return Err((
            "choices".into(),
            "one choice is no choice: give two or more".into(),
        ));
    }
    Ok(Some(Predict {
        question,
        unit: unit.unwrap_or_else(|| measure::unit(&metric).to_string()),
        metric,
        choices: parsed,
    }))
}

/// The box above a predict-first widget.
pub fn render(p: &Predict, widget_id: &str, ctx: &mut Ctx) -> String {
    let id = ctx.next_id("predict");
    ctx.item(&id, &format!("Prediction: {}", p.question));
    let form = if p.choices.is_empty() {
        format!(
            "<label>Your answer: <input type=\"number\" step=\"any\" inputmode=\"decimal\" name=\"answer\" required> {}</label>",
            escape(&p.unit)
        )
    } else {
        let options: String = (p.choices.iter().enumerate())
            .map(|(i, (label, goal))| {
                format!(
                    "<label class=\"tw-choice\"><input type=\"radio\" name=\"answer\" value=\"{i}\" data-goal=\"{}\" required> {}</label>",
                    escape(&goal.to_json()),
                    escape(label)
                )
            })
            .collect();
        format!("<fieldset><legend>Your answer</legend>{options}</fieldset>")
    };
    format!(
        "\n<form class=\"tw-predict\" id=\"{id}\" data-item=\"{id}\" data-for=\"{widget_id}\" data-metric=\"{metric}\" data-unit=\"{unit}\" aria-labelledby=\"{id}-q\">\n\
         <p class=\"tw-predict-q\" id=\"{id}-q\"><span class=\"tw-kit-tag\">Predict</span> {question}</p>\n\
         {form}\n\
         <p class=\"tw-predict-actions\"><button type=\"submit\">Commit my answer</button> <button type=\"button\" class=\"tw-predict-skip\">Skip</button></p>\n\
         <p class=\"tw-predict-result\" role=\"status\" aria-live=\"polite\">Commit an answer, then press play in the simulation below: its results stay hidden until it has run.</p>\n\
         </form>\n",
        metric = escape(&p.metric),
        unit = escape(&p.unit),
        question = escape(&p.question),
    )
}
