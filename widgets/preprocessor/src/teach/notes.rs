//! `{{#notes time="5 min"}}` … `{{/notes}}`: instructor notes for a section.
//!
//! The body is Markdown: the timing, the answers to expect, the
//! misconceptions to listen for. Readers never see it; presenter mode
//! (`theme/teach.js`, the menu bar's button or the `p` key) shows every
//! note with a timing summary for the page, and the chapter's instructor
//! sheet ([`super::sheet`]) collects them for printing.

use super::{Block, Ctx, markdown};
use crate::render::escape;

/// A note's time: the text as written and its minutes.
#[derive(Clone, Debug, PartialEq)]
pub struct Time {
    pub text: String,
    pub minutes: f64,
}

/// Reads `time="5 min"` (also `90 s`, `1 h`, `1.5 min`) from the opening tag.
pub fn time(b: &Block) -> Result<Time, String> {
    let args = b.args()?;
    if let Some((k, _)) = args.iter().find(|(k, _)| k != "time") {
        return Err(format!("`{k}`: notes take only `time=\"5 min\"`"));
    }
    let text = args
        .into_iter()
        .find(|(k, _)| k == "time")
        .map(|(_, v)| v)
        .ok_or("notes say how long the section takes: `{{#notes time=\"5 min\"}}`")?;
    let bad = || format!("`time=\"{text}\"`: write a number and min, s or h, like \"5 min\"");
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .ok_or_else(bad)?;
    let n: f64 = t[..split].parse().map_err(|_| bad())?;
    let minutes = match t[split..].trim() {
        "min" | "mins" | "minute" | "minutes" => n,
        "s" | "sec" | "seconds" => n / 60.0,
        "h" | "hour" | "hours" => n * 60.0,
        _ => return Err(bad()),
    };
    Ok(Time {
        text: t.to_string(),
        minutes,
    })
}

/// Minutes as the timing summary prints them: `7.5 min`, `12 min`.
pub fn minutes_text(m: f64) -> String {
    format!(
        "{} min",
        super::quiz::number_text((m * 10.0).round() / 10.0)
    )
}

pub fn render(b: &Block, ctx: &mut Ctx) -> Result<String, String> {
    let t = time(b)?;
    if b.body.trim().is_empty() {
        return Err("the notes are empty".into());
    }
    let id = ctx.next_id("notes");
    Ok(format!(
        "\n<aside class=\"tw-notes-instructor\" id=\"{id}\" data-minutes=\"{}\" aria-label=\"Instructor notes, {}\">\n\
         <p class=\"tw-notes-head\"><span class=\"tw-kit-tag\">Instructor notes</span> <span class=\"tw-notes-time\">{}</span></p>\n\
         {}</aside>\n",
        t.minutes,
        escape(&t.text),
        escape(&t.text),
        markdown(b.body),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block<'a>(args: &'a str, body: &'a str) -> Block<'a> {
        Block {
            name: "notes",
            args_text: args,
            body,
            line: 1,
        }
    }

    #[test]
    fn notes_carry_their_time_and_render_their_markdown() {
        let html = render(
            &block(
                " time=\"5 min\"",
                "Expect **6**.\n\n- Misconception: bandwidth.\n",
            ),
            &mut Ctx::default(),
        )
        .unwrap();
        assert!(
            html.contains("<aside class=\"tw-notes-instructor\" id=\"notes-1\" data-minutes=\"5\"")
        );
        assert!(html.contains("<span class=\"tw-notes-time\">5 min</span>"));
        assert!(html.contains("<p>Expect <strong>6</strong>.</p>"));
        assert!(html.contains("<li>Misconception: bandwidth.</li>"));
    }

    #[test]
    fn times_read_in_minutes() {
        let m = |t: &str| time(&block(&format!(" time=\"{t}\""), "x")).map(|t| t.minutes);
        assert_eq!(m("5 min"), Ok(5.0));
        assert_eq!(m("90 s"), Ok(1.5));
        assert_eq!(m("1 h"), Ok(60.0));
        assert_eq!(m("2.5min"), Ok(2.5));
        assert!(m("soon").unwrap_err().contains("like \"5 min\""));
        assert!(m("5 days").is_err());
        assert_eq!(minutes_text(7.5), "7.5 min");
    }

    #[test]
    fn notes_without_a_time_fail() {
        let e = render(&block("", "x"), &mut Ctx::default()).unwrap_err();
        assert!(
            e.contains("time=\\\"5 min\\\"") || e.contains("time=\"5 min\""),
            "{e}"
        );
        let e = render(&block(" minutes=5", "x"), &mut Ctx::default()).unwrap_err();
        assert!(e.contains("`minutes`"), "{e}");
    }
}
