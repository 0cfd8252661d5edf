//! `{{#quiz}}` … `{{/quiz}}`: questions with an explanation for every answer.
//!
//! ```text
//! {{#quiz}}
//! title = "Slow start"                      # optional
//! [[question]]
//! text = "Why does the first flight stop at 10 segments? (Markdown)"
//! kind = "choice"
//! [[question.option]]
//! text = "initcwnd is 10"
//! correct = true
//! why = "Linux starts every connection at `TCP_INIT_CWND` = 10 (Markdown)."
//! [[question.option]]
//! text = "The receive window is full"
//! why = "The client advertised 64 KiB, far more than 10 segments."
//!
//! [[question]]
//! text = "How many round trips does 512 KiB take at 7 ms?"
//! kind = "number"
//! answer = { widget = "slow-start", args = "preset=seed-7ms", metric = "round_trips" }
//! # answer = 6                                # …or a number written here
//! tolerance = 0                               # absolute; or tolerance_pct = 10
//! unit = "round trips"
//! why = "Flights of 10, 20, 40, 80 and 160 segments… (Markdown)"
//! {{/quiz}}
//! ```
//!
//! A choice question needs two or more options, at least one of them
//! correct, each with its `why`: a wrong answer explains the misconception
//! (mdbook-quiz's habit). A number question's simulated answer is the run
//! of that widget at those settings, computed here by the simulator; the
//! page carries it (`data-answer`) for `theme/teach.js` to check against.

use super::{Block, Ctx, markdown, markdown_inline, measure, toml_body};
use crate::render::escape;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Body {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    question: Vec<Question>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum QKind {
    Choice,
    Number,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Question {
    text: String,
    kind: QKind,
    #[serde(default)]
    option: Vec<Opt>,
    #[serde(default)]
    answer: Option<Answer>,
    #[serde(default)]
    tolerance: Option<f64>,
    #[serde(default)]
    tolerance_pct: Option<f64>,
    #[serde(default)]
    unit: Option<String>,
    #[serde(default)]
    why: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Opt {
    text: String,
    #[serde(default)]
    correct: bool,
    why: String,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Answer {
    Number(f64),
    Simulated {
        widget: String,
        #[serde(default)]
        args: String,
        metric: String,
    },
}

/// A number question's answer, checked: the value, the tolerance either side
/// and where the value came from.
struct Numeric {
    value: f64,
    tolerance: f64,
    /// `simulated` for a run's figure, else `given`.
    source: &'static str,
}

/// A question's correct answer in words, for the instructor sheet.
pub struct Answered {
    pub question: String,
    pub answer: String,
}

/// Reads and checks a quiz's body; errors name the question.
fn read(b: &Block) -> Result<(Body, Vec<Option<Numeric>>), String> {
    let body: Body = toml_body(b)?;
    if body.question.is_empty() {
        return Err("a quiz has one or more `[[question]]`".into());
    }
    let mut numbers = Vec::new();
    for (i, q) in body.question.iter().enumerate() {
        let at = |e: String| format!("question {} (\"{}\"): {e}", i + 1, short(&q.text));
        numbers.push(check(q).map_err(at)?);
    }
    Ok((body, numbers))
}

fn short(text: &str) -> String {
    let t = text.trim();
    match t.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &t[..at]),
        None => t.to_string(),
    }
}

fn check(q: &Question) -> Result<Option<Numeric>, String> {
    match q.kind {
        QKind::Choice => {
            if q.answer.is_some() || q.tolerance.is_some() || q.tolerance_pct.is_some() {
                return Err(
                    "a choice question takes `[[question.option]]`s, not `answer` or a tolerance"
                        .into(),
                );
            }
            if q.option.len() < 2 {
                return Err("a choice question has two or more `[[question.option]]`".into());
            }
            if !q.option.iter().any(|o| o.correct) {
                return Err("no option is `correct = true`".into());
            }
            if let Some(o) = q.option.iter().find(|o| o.why.trim().is_empty()) {
                return Err(format!("option \"{}\" has an empty `why`", short(&o.text)));
            }
            Ok(None)
        }
        QKind::Number => {
            if !q.option.is_empty() {
                return Err("a number question has no options: give `answer`".into());
            }
            if q.why.as_deref().is_none_or(|w| w.trim().is_empty()) {
                return Err("a number question explains its answer: add `why = \"…\"`".into());
            }
            let (value, source) = match &q.answer {
                None => {
                    return Err("a number question needs `answer = 6` or `answer = { widget = …, args = …, metric = … }`".into());
                }
                Some(Answer::Number(v)) => (*v, "given"),
                Some(Answer::Simulated {
                    widget,
                    args,
                    metric,
                }) => (simulate(widget, args, metric)?, "simulated"),
            };
            if !value.is_finite() {
                return Err("the answer is not a number".into());
            }
            let tolerance = match (q.tolerance, q.tolerance_pct) {
                (Some(_), Some(_)) => {
                    return Err("give `tolerance` or `tolerance_pct`, not both".into());
                }
                (Some(t), None) => t,
                (None, Some(p)) => value.abs() * p / 100.0,
                (None, None) => 0.0,
            };
            if !(tolerance >= 0.0 && tolerance.is_finite()) {
                return Err("the tolerance is a number of 0 or more".into());
            }
            Ok(Some(Numeric {
                value,
                tolerance,
                source,
            }))
        }
    }
}

/// A widget's run at `args`, as the page would start it, read at `metric`.
fn simulate(widget: &str, args: &str, metric: &str) -> Result<f64, String> {
    let d = crate::directive::parse(&format!("{widget} {args}")).map_err(|e| match e.key {
        Some(k) => format!("the answer's widget, `{k}`: {}", e.message),
        None => format!("the answer's widget: {}", e.message),
    })?;
    if d.predict.is_some() {
        return Err("the answer's args place a plain widget, without `predict`".into());
    }
    let known = measure::known();
    if !known.contains(&metric) {
        return Err(format!(
            "unknown result `{metric}` (known: {})",
            known.join(", ")
        ));
    }
    let r = measure::widget_run(d.widget, &d.args)?;
    r.get(metric)
        .ok_or_else(|| format!("the run reports no `{metric}` (did the transfer complete?)"))
}

/// A number as the page shows an answer: whole numbers without a point,
/// others to three significant decimals at most.
pub fn number_text(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round())
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

pub fn render(b: &Block, ctx: &mut Ctx) -> Result<String, String> {
    let (body, numbers) = read(b)?;
    let id = ctx.next_id("quiz");
    let n = id.trim_start_matches("quiz-").to_string();
    let title = body
        .title
        .clone()
        .unwrap_or_else(|| match body.question.len() {
            1 => "One question".to_string(),
            k => format!("{k} questions"),
        });
    ctx.item(&id, &format!("Quiz {n}: {title}"));
    let mut out = format!(
        "\n<form class=\"tw-quiz\" id=\"{id}\" data-item=\"{id}\" aria-labelledby=\"{id}-title\" novalidate>\n\
         <p class=\"tw-quiz-title\" id=\"{id}-title\"><span class=\"tw-kit-tag\">Quiz {n}</span> {}</p>\n",
        escape(&title)
    );
    for (qi, (q, num)) in body.question.iter().zip(&numbers).enumerate() {
        let qid = format!("{id}-q{}", qi + 1);
        let kind = match q.kind {
            QKind::Choice => "choice",
            QKind::Number => "number",
        };
        out.push_str(&format!(
            "<fieldset class=\"tw-question\" id=\"{qid}\" data-kind=\"{kind}\">\n\
             <legend><span class=\"tw-q-num\">{}.</span> {}</legend>\n",
            qi + 1,
            markdown_inline(&q.text)
        ));
        match num {
            None => {
                out.push_str("<div class=\"tw-options\">\n");
                for (oi, o) in q.option.iter().enumerate() {
                    let oid = format!("{qid}-o{}", oi + 1);
                    out.push_str(&format!(
                        "<div class=\"tw-option\"><input type=\"radio\" name=\"{qid}\" id=\"{oid}\" value=\"{oi}\"{correct}> <label for=\"{oid}\">{text}</label>\n\
                         <div class=\"tw-why\" hidden>{why}</div></div>\n",
                        correct = if o.correct { " data-correct" } else { "" },
                        text = markdown_inline(&o.text),
                        why = markdown(&o.why),
                    ));
                }
                out.push_str("</div>\n");
            }
            Some(num) => {
                let unit = q.unit.as_deref().unwrap_or("");
                out.push_str(&format!(
                    "<p class=\"tw-number\"><label for=\"{qid}-in\">Your answer</label> <input type=\"number\" step=\"any\" inputmode=\"decimal\" id=\"{qid}-in\" name=\"{qid}\" data-answer=\"{}\" data-tolerance=\"{}\" data-source=\"{}\"> {}</p>\n\
                     <div class=\"tw-why\" hidden><p class=\"tw-answer\">The answer: <strong>{}{}</strong>{}.</p>{}</div>\n",
                    num.value,
                    num.tolerance,
                    num.source,
                    escape(unit),
                    number_text(num.value),
                    if unit.is_empty() { String::new() } else { format!(" {}", escape(unit)) },
                    if num.source == "simulated" {
                        " (the simulator's figure, computed when this book was built)"
                    } else {
                        ""
                    },
                    markdown(q.why.as_deref().unwrap_or("")),
                ));
            }
        }
        out.push_str("<p class=\"tw-q-status\" aria-live=\"polite\"></p>\n</fieldset>\n");
    }
    out.push_str(
        "<p class=\"tw-quiz-actions\"><button type=\"submit\">Check</button> \
         <button type=\"button\" class=\"tw-quiz-all\">Show all explanations</button></p>\n\
         <p class=\"tw-quiz-status\" role=\"status\" aria-live=\"polite\"></p>\n</form>\n",
    );
    Ok(out)
}

/// Each question with its correct answer(s) in words, for the instructor sheet.
pub fn answers(b: &Block) -> Result<Vec<Answered>, String> {
    let (body, numbers) = read(b)?;
    Ok(body
        .question
        .iter()
        .zip(numbers)
        .map(|(q, num)| {
            let answer = match num {
                None => {
                    let right: Vec<String> = (q.option.iter())
                        .filter(|o| o.correct)
                        .map(|o| markdown_inline(&o.text))
                        .collect();
                    right.join("; ")
                }
                Some(n) => {
                    let unit = q.unit.as_deref().map(escape).unwrap_or_default();
                    let tol = if n.tolerance > 0.0 {
                        format!(" ± {}", number_text(n.tolerance))
                    } else {
                        String::new()
                    };
                    let how = if n.source == "simulated" {
                        " (simulated)"
                    } else {
                        ""
                    };
                    format!("{}{tol} {unit}{how}", number_text(n.value))
                }
            };
            Answered {
                question: markdown_inline(&q.text),
                answer,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(body: &str) -> Block<'_> {
        Block {
            name: "quiz",
            args_text: "",
            body,
            line: 1,
        }
    }

    fn render_text(body: &str) -> Result<(String, Ctx), String> {
        let mut ctx = Ctx::default();
        let html = render(&block(body), &mut ctx)?;
        Ok((html, ctx))
    }

    const CHOICE: &str = r#"
title = "Slow start"
[[question]]
text = "Why does the first flight stop at **10** segments?"
kind = "choice"
[[question.option]]
text = "initcwnd is 10"
correct = true
why = "Linux starts at `TCP_INIT_CWND`."
[[question.option]]
text = "The receive window"
why = "The client offered far more."
"#;

    #[test]
    fn a_choice_question_explains_every_option_and_marks_the_right_one() {
        let (html, ctx) = render_text(CHOICE).unwrap();
        assert!(html.contains("<form class=\"tw-quiz\" id=\"quiz-1\" data-item=\"quiz-1\""));
        assert!(html.contains("<legend><span class=\"tw-q-num\">1.</span> Why does the first flight stop at <strong>10</strong> segments?</legend>"), "{html}");
        assert_eq!(html.matches("type=\"radio\" name=\"quiz-1-q1\"").count(), 2);
        assert_eq!(html.matches(" data-correct>").count(), 1);
        assert!(html.contains("<label for=\"quiz-1-q1-o1\">initcwnd is 10</label>"));
        assert!(html.contains(
            "<div class=\"tw-why\" hidden><p>Linux starts at <code>TCP_INIT_CWND</code>.</p>"
        ));
        assert!(html.contains("role=\"status\" aria-live=\"polite\""));
        assert_eq!(
            ctx.items,
            [("quiz-1".to_string(), "Quiz 1: Slow start".to_string())]
        );
    }

    #[test]
    fn a_simulated_number_answer_is_the_simulators() {
        let body = r#"
[[question]]
text = "How many round trips?"
kind = "number"
answer = { widget = "slow-start", args = "preset=seed-7ms", metric = "round_trips" }
unit = "round trips"
why = "Count the flights."
"#;
        let (html, ctx) = render_text(body).unwrap();
        let spec = widget_catalogue::widget("slow-start").unwrap();
        let args = vec![("preset".to_string(), "seed-7ms".to_string())];
        let rt = measure::widget_run(spec, &args)
            .unwrap()
            .get("round_trips")
            .unwrap();
        assert!(
            html.contains(&format!(
                "data-answer=\"{rt}\" data-tolerance=\"0\" data-source=\"simulated\""
            )),
            "{html}"
        );
        assert!(html.contains(&format!(
            "The answer: <strong>{} round trips</strong>",
            number_text(rt)
        )));
        assert_eq!(ctx.items[0].1, "Quiz 1: One question");
        let a = answers(&block(body)).unwrap();
        assert_eq!(
            a[0].answer,
            format!("{} round trips (simulated)", number_text(rt))
        );
    }

    #[test]
    fn a_relative_tolerance_is_a_share_of_the_answer() {
        let body = "[[question]]\ntext = \"q\"\nkind = \"number\"\nanswer = 200\ntolerance_pct = 10\nwhy = \"w\"\n";
        let (html, _) = render_text(body).unwrap();
        assert!(
            html.contains("data-answer=\"200\" data-tolerance=\"20\" data-source=\"given\""),
            "{html}"
        );
    }

    #[test]
    fn malformed_quizzes_name_the_question_and_the_problem() {
        let e = |b: &str| render_text(b).err().unwrap();
        let none_right = CHOICE.replace("correct = true", "correct = false");
        let msg = e(&none_right);
        assert!(msg.starts_with("question 1 (\"Why does the first flight stop at **10**…\"): no option is `correct = true`"), "{msg}");
        let no_why = CHOICE.replace("why = \"The client offered far more.\"", "");
        assert!(e(&no_why).contains("missing field `why`"), "{}", e(&no_why));
        let msg = e("[[question]]\ntext = \"q\"\nkind = \"number\"\nwhy = \"w\"\n");
        assert!(
            msg.contains("question 1") && msg.contains("needs `answer"),
            "{msg}"
        );
        let msg = e(
            "[[question]]\ntext = \"q\"\nkind = \"number\"\nanswer = { widget = \"slow-start\", args = \"rtt=9s\", metric = \"round_trips\" }\nwhy = \"w\"\n",
        );
        assert!(msg.contains("`rtt`"), "{msg}");
        let msg = e(
            "[[question]]\ntext = \"q\"\nkind = \"number\"\nanswer = { widget = \"slow-start\", metric = \"flights\" }\nwhy = \"w\"\n",
        );
        assert!(msg.contains("unknown result `flights`"), "{msg}");
        let msg = e("[[question]]\ntext = \"q\"\nkind = \"number\"\nanswer = 3\n");
        assert!(msg.contains("add `why"), "{msg}");
        let msg = e("[[question]]\ntext = \"q\"\nkind = \"essay\"\n");
        assert!(msg.contains("in its body"), "{msg}");
        assert!(e("").contains("one or more `[[question]]`"));
    }
}
