//! `{{#instructor-sheet slow-start.md}}`: one printable page for the
//! instructor of a chapter.
//!
//! Reads the chapter from the book's `src/` and lists, per `##` section,
//! its notes with their time, then the answers: each prediction's question
//! with the simulated figure (its widget's starting run, computed here, as
//! the reader will see it revealed), each exercise's goal and a setting
//! that meets it, each quiz's correct answers. The page's print stylesheet
//! (`theme/teach.css`) fits it on one sheet.

use super::{Block, Ctx, exercise, markdown, markdown_inline, measure, notes, quiz, seed_table};
use crate::directive::{self, Piece};
use crate::render::escape;

/// One `##` section of the chapter, as the sheet lists it.
#[derive(Debug, Default)]
struct Section {
    title: String,
    minutes: f64,
    notes: Vec<(String, String)>,
    answers: Vec<(&'static str, String, String)>,
}

/// The chapter file a sheet names: a Markdown file in `src/`, no path.
fn chapter_file(b: &Block) -> Result<String, String> {
    let file = b.args_text.trim();
    if file.is_empty()
        || file.contains("..")
        || file.contains('\\')
        || file.starts_with('/')
        || !file.ends_with(".md")
        || file.contains(char::is_whitespace)
    {
        return Err(format!(
            "name a chapter in src/, like `{{{{#instructor-sheet slow-start.md}}}}` (got `{file}`)"
        ));
    }
    Ok(file.to_string())
}

pub fn render(b: &Block, ctx: &mut Ctx) -> Result<String, String> {
    let file = chapter_file(b)?;
    let path = ctx.root.join("src").join(&file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let sheet = build(&text).map_err(|e| format!("{file}:{e}"))?;
    let up = "../".repeat(ctx.page.matches('/').count());
    let page = file.trim_end_matches(".md").to_string() + ".html";
    Ok(sheet.html(&format!("{up}{page}")))
}

#[derive(Debug)]
struct Sheet {
    title: String,
    sections: Vec<Section>,
}

/// Reads a chapter's text into its sections' notes and answers; errors say
/// `LINE: problem`.
fn build(text: &str) -> Result<Sheet, String> {
    let pieces = directive::scan(text).map_err(|(l, m)| format!("{l}: {m}"))?;
    let mut title = String::new();
    let mut sections = vec![Section::default()];
    let mut fence = false;
    for piece in pieces {
        match piece {
            Piece::Text(t) => {
                for line in t.lines() {
                    let l = line.trim_start();
                    if l.starts_with("```") || l.starts_with("~~~") {
                        fence = !fence;
                    }
                    if fence {
                        continue;
                    }
                    if let Some(h) = l.strip_prefix("# ").filter(|_| title.is_empty()) {
                        title = heading(h);
                    } else if let Some(h) = l.strip_prefix("## ") {
                        sections.push(Section {
                            title: heading(h),
                            ..Section::default()
                        });
                    }
                }
            }
            Piece::Directive { body, line, .. } => {
                let d = directive::parse(body).map_err(|e| format!("{line}: {}", e.message))?;
                let Some(p) = &d.predict else { continue };
                let r =
                    measure::widget_run(d.widget, &d.args).map_err(|e| format!("{line}: {e}"))?;
                let value = r.get(&p.metric);
                let answer = if p.choices.is_empty() {
                    value.map_or("the run reports no figure".into(), |v| {
                        escape(&seed_table::format_value(&p.metric, v))
                    })
                } else {
                    let right: Vec<String> = (p.choices.iter())
                        .filter(|(_, g)| g.holds(|m| r.get(m)))
                        .map(|(label, _)| escape(label))
                        .collect();
                    let figure = value
                        .map(|v| format!(" ({})", escape(&seed_table::format_value(&p.metric, v))))
                        .unwrap_or_default();
                    format!("{}{figure}", right.join("; "))
                };
                let section = sections.last_mut().expect("one section at least");
                section
                    .answers
                    .push(("Predict", escape(&p.question), answer));
            }
            Piece::Teach {
                name,
                args,
                body,
                line,
                ..
            } => {
                let block = Block {
                    name,
                    args_text: args,
                    body,
                    line,
                };
                let at = |e: String| format!("{line}: {e}");
                let section = sections.last_mut().expect("one section at least");
                match name {
                    "notes" => {
                        let t = notes::time(&block).map_err(at)?;
                        section.minutes += t.minutes;
                        section.notes.push((escape(&t.text), markdown(body)));
                    }
                    "exercise" => {
                        let (title, goal, solution) = exercise::key(&block).map_err(at)?;
                        section.answers.push((
                            "Exercise",
                            format!("{} (goal: {})", escape(&title), escape(&goal)),
                            escape(&solution),
                        ));
                    }
                    "quiz" => {
                        for a in quiz::answers(&block).map_err(at)? {
                            section.answers.push(("Quiz", a.question, a.answer));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    if title.is_empty() {
        return Err("1: the chapter has no `# Title` line".into());
    }
    sections.retain(|s| !(s.notes.is_empty() && s.answers.is_empty()));
    Ok(Sheet { title, sections })
}

/// A heading's text as HTML, without a trailing `{#id}`.
fn heading(h: &str) -> String {
    let h = h.trim();
    let h = match h.rfind(" {#") {
        Some(at) if h.ends_with('}') => &h[..at],
        _ => h,
    };
    markdown_inline(h)
}

impl Sheet {
    fn html(&self, chapter_href: &str) -> String {
        let total = self.sections.iter().fold(0.0, |t, s| t + s.minutes);
        let mut out = format!(
            "\n<div class=\"tw-sheet\">\n<p class=\"tw-sheet-head\"><a href=\"{}\">{}</a> \
             <span class=\"tw-sheet-total\">Total time: {}</span></p>\n",
            escape(chapter_href),
            self.title,
            notes::minutes_text(total),
        );
        if self.sections.is_empty() {
            out.push_str(
                "<p class=\"tw-sheet-empty\">This chapter has no instructor notes, predictions, exercises or quizzes yet.</p>\n",
            );
        }
        for s in &self.sections {
            let title = if s.title.is_empty() {
                "Opening"
            } else {
                &s.title
            };
            let time = if s.minutes > 0.0 {
                format!(
                    " <span class=\"tw-sheet-time\">{}</span>",
                    notes::minutes_text(s.minutes)
                )
            } else {
                String::new()
            };
            out.push_str(&format!(
                "<section class=\"tw-sheet-section\">\n<h2 class=\"tw-sheet-h\">{title}{time}</h2>\n"
            ));
            for (time, html) in &s.notes {
                out.push_str(&format!(
                    "<div class=\"tw-sheet-notes\"><span class=\"tw-notes-time\">{time}</span>{html}</div>\n"
                ));
            }
            if !s.answers.is_empty() {
                out.push_str("<ul class=\"tw-sheet-answers\">\n");
                for (kind, q, a) in &s.answers {
                    out.push_str(&format!(
                        "<li><span class=\"tw-kit-tag\">{kind}</span> {q} <span class=\"tw-sheet-answer\">→ {a}</span></li>\n"
                    ));
                }
                out.push_str("</ul>\n");
            }
            out.push_str("</section>\n");
        }
        out.push_str("</div>\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHAPTER: &str = r#"# Slow start and `initcwnd`

Opening words.

## The first flight

{{#notes time="5 min"}}
Ask the room first. Expect **10**.
{{/notes}}

{{#widget slow-start preset=seed-7ms predict="How many round trips?" answer=round_trips}}

```
## not a heading
```

## Bigger windows {#bigger}

{{#notes time="10 min"}}
Misconception: more bandwidth helps.
{{/notes}}

{{#quiz}}
[[question]]
text = "What sets the first flight?"
kind = "choice"
[[question.option]]
text = "initcwnd"
correct = true
why = "Yes."
[[question.option]]
text = "rmem"
why = "No."
{{/quiz}}

{{#exercise slow-start preset=seed-7ms controls=initcwnd}}
title = "Four round trips"
task = "t"
goal = "round_trips <= 4"
explanation = "e"
search = "initcwnd"
{{/exercise}}
"#;

    #[test]
    fn a_sheet_lists_each_sections_notes_time_and_answers() {
        let sheet = build(CHAPTER).unwrap();
        assert_eq!(sheet.title, "Slow start and <code>initcwnd</code>");
        let titles: Vec<&str> = sheet.sections.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(titles, ["The first flight", "Bigger windows"]);
        let html = sheet.html("../slow-start.html");
        assert!(html.contains("Total time: 15 min"), "{html}");
        assert!(html.contains("The first flight <span class=\"tw-sheet-time\">5 min</span>"));
        assert!(html.contains("<p>Ask the room first. Expect <strong>10</strong>.</p>"));
        // The prediction's figure is the simulator's, for the widget's own args.
        let spec = widget_catalogue::widget("slow-start").unwrap();
        let args = vec![("preset".to_string(), "seed-7ms".to_string())];
        let rt = measure::widget_run(spec, &args)
            .unwrap()
            .get("round_trips")
            .unwrap();
        assert!(
            html.contains(&format!(
                "How many round trips? <span class=\"tw-sheet-answer\">→ {} round trips</span>",
                rt.round()
            )),
            "{html}"
        );
        assert!(html.contains(
            "What sets the first flight? <span class=\"tw-sheet-answer\">→ initcwnd</span>"
        ));
        assert!(html.contains("Four round trips (goal: round trips ≤ 4)"));
        assert!(html.contains("→ initcwnd = "), "{html}");
        assert!(html.contains("<a href=\"../slow-start.html\">"));
    }

    #[test]
    fn a_sheet_names_a_chapter_in_src_only() {
        let b = |a: &'static str| Block {
            name: "instructor-sheet",
            args_text: a,
            body: "",
            line: 1,
        };
        assert!(chapter_file(&b(" ../secret.md")).is_err());
        assert!(chapter_file(&b(" ")).is_err());
        assert!(chapter_file(&b(" slow-start.html")).is_err());
        assert_eq!(chapter_file(&b(" slow-start.md")).unwrap(), "slow-start.md");
        let mut ctx = Ctx::new("instructor/x.html", std::path::Path::new("/nonexistent"));
        let e = render(&b(" slow-start.md"), &mut ctx).unwrap_err();
        assert!(e.contains("/nonexistent/src/slow-start.md"), "{e}");
    }

    #[test]
    fn a_chapter_with_nothing_to_teach_says_so() {
        let html = build("# Plain\n\n## A section\n\nText.\n")
            .unwrap()
            .html("x.html");
        assert!(html.contains("Total time: 0 min"), "{html}");
        assert!(html.contains("no instructor notes, predictions, exercises or quizzes yet"));
    }

    #[test]
    fn a_broken_chapter_fails_the_sheet_with_its_line() {
        let e = build("# T\n\n{{#notes}}\nx\n{{/notes}}\n").unwrap_err();
        assert!(e.starts_with("3: notes say how long"), "{e}");
    }
}
