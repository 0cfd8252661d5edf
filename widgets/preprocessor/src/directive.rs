//! Finding and checking `{{#widget NAME key=value ...}}` in a chapter.

use widget_catalogue::WidgetSpec;

/// A directive found in a chapter, already checked against the widget table.
#[derive(Clone, Debug)]
pub struct Directive {
    pub widget: &'static WidgetSpec,
    pub args: Vec<(String, String)>,
    /// Predict first: the results stay hidden until the reader answers
    /// (`predict="…" answer=METRIC`, see `crate::teach::predict`).
    pub predict: Option<crate::teach::predict::Predict>,
}

/// Why a directive was rejected. `key` is the offending parameter, if one is to blame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectiveError {
    pub key: Option<String>,
    pub message: String,
}

const OPEN: &str = "{{#widget";

/// Parses the inside of one directive, e.g. `slow-start rtt=7ms preset=seed-7ms`.
pub fn parse(body: &str) -> Result<Directive, DirectiveError> {
    let mut words = body.split_whitespace();
    let name = words.next().ok_or_else(|| DirectiveError {
        key: None,
        message: format!(
            "missing widget name (known: {})",
            widget_catalogue::widget_names().join(", ")
        ),
    })?;
    let widget = widget_catalogue::widget(name).ok_or_else(|| DirectiveError {
        key: None,
        message: format!(
            "unknown widget `{name}` (known: {})",
            widget_catalogue::widget_names().join(", ")
        ),
    })?;
    let rest = body.trim_start()[name.len()..].to_string();
    let mut args = split_args(&rest)?;
    let predict =
        crate::teach::predict::take(&mut args).map_err(|(key, message)| DirectiveError {
            key: Some(key),
            message,
        })?;
    for (key, value) in &args {
        widget.check(key, value).map_err(|e| DirectiveError {
            key: Some(e.key),
            message: e.message,
        })?;
    }
    widget.check_together(&args).map_err(|e| DirectiveError {
        key: Some(e.key),
        message: e.message,
    })?;
    Ok(Directive {
        widget,
        args,
        predict,
    })
}

/// One piece of a chapter after scanning: text to keep, a widget, or one of
/// the teaching kit's directives (see `crate::teach`).
#[derive(Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    Text(&'a str),
    /// A `{{#widget …}}`: the directive's full text (for messages) and its inside.
    Directive {
        source: &'a str,
        body: &'a str,
        line: usize,
    },
    /// A teaching directive: `{{#NAME args}}` alone on a line, and for a
    /// block one ([`BLOCKS`]) the lines up to `{{/NAME}}`, its body.
    Teach {
        name: &'a str,
        args: &'a str,
        body: &'a str,
        source: &'a str,
        line: usize,
    },
}

/// Teaching directives with a body, closed by `{{/NAME}}` on a line of its own.
pub const BLOCKS: &[&str] = &["exercise", "quiz", "machine", "notes", "seed-table"];
/// Teaching directives on one line.
pub const LINES: &[&str] = &["instructor-sheet"];

/// The teaching directive a line opens, if it is one: its name and the
/// text after `{{#NAME`.
fn teach_open(trimmed: &str) -> Option<(&'static str, &str)> {
    let rest = trimmed.strip_prefix("{{#")?;
    BLOCKS.iter().chain(LINES).find_map(|name| {
        let after = rest.strip_prefix(name)?;
        (after.starts_with(' ') || after.starts_with("}}")).then_some((*name, after))
    })
}

/// Splits a chapter into text and directives, leaving alone directives inside
/// fenced code blocks or inline code, and `\{{#widget ...}}` (escaped, kept
/// without the backslash, as mdBook does for `\{{#include}}`).
pub fn scan(content: &str) -> Result<Vec<Piece<'_>>, (usize, String)> {
    let mut pieces = Vec::new();
    let mut fence: Option<&str> = None;
    let lines: Vec<&str> = content.split_inclusive('\n').collect();
    let mut offsets = Vec::with_capacity(lines.len() + 1);
    let mut at = 0;
    for l in &lines {
        offsets.push(at);
        at += l.len();
    }
    offsets.push(at);
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
            pieces.push(Piece::Text(line));
            i += 1;
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            pieces.push(Piece::Text(line));
            i += 1;
            continue;
        }
        if let Some((name, after)) = teach_open(trimmed) {
            let lineno = i + 1;
            let Some(close) = after.find("}}") else {
                return Err((
                    lineno,
                    format!(
                        "`{}` is not closed with `}}}}` on the same line",
                        trimmed.trim_end()
                    ),
                ));
            };
            if !after[close + 2..].trim().is_empty() {
                return Err((
                    lineno,
                    format!(
                        "`{{{{#{name}{}}}}}` must stand on a line of its own",
                        &after[..close]
                    ),
                ));
            }
            let source = trimmed[..3 + name.len() + close + 2].trim_end();
            let args = &after[..close];
            if !BLOCKS.contains(&name) {
                pieces.push(Piece::Teach {
                    name,
                    args,
                    body: "",
                    source,
                    line: lineno,
                });
                i += 1;
                continue;
            }
            let end_tag = format!("{{{{/{name}}}}}");
            let Some(end) = (i + 1..lines.len()).find(|&j| lines[j].trim() == end_tag) else {
                return Err((
                    lineno,
                    format!("`{source}` has no `{end_tag}` line to close it"),
                ));
            };
            let body = &content[offsets[i + 1]..offsets[end]];
            pieces.push(Piece::Teach {
                name,
                args,
                body,
                source,
                line: lineno,
            });
            i = end + 1;
            continue;
        }
        scan_line(line, i + 1, &mut pieces)?;
        i += 1;
    }
    Ok(pieces)
}

/// Splits `key=value key="a value with spaces"` into pairs. A value in
/// double quotes runs to the next double quote (no escapes: the text is a
/// sentence, and `&quot;` is there for a quote inside).
pub fn split_args(s: &str) -> Result<Vec<(String, String)>, DirectiveError> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut rest = s.trim_start();
    while !rest.is_empty() {
        let word_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let Some(eq) = rest[..word_end].find('=') else {
            return Err(DirectiveError {
                key: Some(rest[..word_end].to_string()),
                message: "expected key=value".into(),
            });
        };
        let key = &rest[..eq];
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            let Some(close) = quoted.find('"') else {
                return Err(DirectiveError {
                    key: Some(key.to_string()),
                    message: "the quoted value has no closing `\"`".into(),
                });
            };
            (&quoted[..close], &quoted[close + 1..])
        } else {
            let end = after.find(char::is_whitespace).unwrap_or(after.len());
            (&after[..end], &after[end..])
        };
        if out.iter().any(|(k, _)| k == key) {
            return Err(DirectiveError {
                key: Some(key.to_string()),
                message: "given twice".into(),
            });
        }
        out.push((key.to_string(), value.to_string()));
        rest = next.trim_start();
    }
    Ok(out)
}

fn scan_line<'a>(
    line: &'a str,
    lineno: usize,
    pieces: &mut Vec<Piece<'a>>,
) -> Result<(), (usize, String)> {
    let mut rest = line;
    let mut in_code = false;
    let mut text_start = 0;
    let mut i = 0;
    let bytes = line.as_bytes();
    while i < bytes.len() {
        if bytes[i] == b'`' {
            in_code = !in_code;
            i += 1;
            continue;
        }
        if !in_code && bytes[i..].starts_with(OPEN.as_bytes()) {
            if i > 0 && bytes[i - 1] == b'\\' {
                // Escaped: keep the directive text, drop the backslash.
                pieces.push(Piece::Text(&line[text_start..i - 1]));
                text_start = i;
                i += OPEN.len();
                continue;
            }
            let Some(close) = line[i..].find("}}") else {
                return Err((
                    lineno,
                    format!(
                        "`{}` is not closed with `}}}}` on the same line",
                        line[i..].trim_end()
                    ),
                ));
            };
            let source = &line[i..i + close + 2];
            if !line[..i].trim().is_empty() || !line[i + close + 2..].trim().is_empty() {
                return Err((
                    lineno,
                    format!("`{source}` must stand on a line of its own"),
                ));
            }
            pieces.push(Piece::Text(&line[text_start..i]));
            pieces.push(Piece::Directive {
                source,
                body: &line[i + OPEN.len()..i + close],
                line: lineno,
            });
            i += close + 2;
            text_start = i;
            continue;
        }
        i += 1;
    }
    rest = &rest[text_start..];
    pieces.push(Piece::Text(rest));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_directive_parses_with_its_arguments() {
        let d = parse(" slow-start rtt=7ms preset=seed-7ms").unwrap();
        assert_eq!(d.widget.name, "slow-start");
        assert_eq!(
            d.args,
            vec![
                ("rtt".into(), "7ms".into()),
                ("preset".into(), "seed-7ms".into())
            ]
        );
    }

    #[test]
    fn an_unknown_widget_is_rejected_with_the_known_names() {
        let e = parse("slow-stat").unwrap_err();
        assert!(
            e.message.contains("unknown widget `slow-stat`") && e.message.contains("slow-start")
        );
    }

    #[test]
    fn an_unknown_key_is_named() {
        let e = parse("slow-start rttt=7ms").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("rttt"));
    }

    #[test]
    fn controls_name_the_widgets_parameters() {
        let d = parse("slow-start controls=rtt,initcwnd").unwrap();
        assert_eq!(d.args, [("controls".into(), "rtt,initcwnd".into())]);
        let e = parse("slow-start controls=rtt,colour").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("controls"));
        assert!(
            e.message.contains("unknown control `colour`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn an_out_of_range_value_is_named_with_the_range() {
        let e = parse("slow-start initcwnd=500").unwrap_err();
        assert_eq!(e.key.as_deref(), Some("initcwnd"));
        assert!(e.message.contains("1 to 100"));
    }

    #[test]
    fn a_repeated_key_or_bare_word_is_rejected() {
        assert_eq!(
            parse("slow-start rtt=1ms rtt=2ms").unwrap_err().message,
            "given twice"
        );
        assert_eq!(
            parse("slow-start fast").unwrap_err().key.as_deref(),
            Some("fast")
        );
    }

    #[test]
    fn directives_in_code_are_left_alone() {
        let text = "```\n{{#widget nope}}\n```\nuse `{{#widget nope}}` like this\n";
        let pieces = scan(text).unwrap();
        assert!(pieces.iter().all(|p| matches!(p, Piece::Text(_))));
    }

    #[test]
    fn an_escaped_directive_stays_as_text_without_its_backslash() {
        let pieces = scan("\\{{#widget slow-start}}\n").unwrap();
        let text: String = pieces
            .iter()
            .map(|p| if let Piece::Text(t) = p { *t } else { "" })
            .collect();
        assert_eq!(text, "{{#widget slow-start}}\n");
    }

    #[test]
    fn non_ascii_text_around_directives_is_kept_intact() {
        let text = "10 × 1448 = 14480 bytes — “quoted” ⟲\n{{#widget slow-start}}\nlog₂ 37.2\n";
        let pieces = scan(text).unwrap();
        let kept: String = pieces
            .iter()
            .map(|p| if let Piece::Text(t) = p { *t } else { "<W>" })
            .collect();
        assert_eq!(
            kept,
            "10 × 1448 = 14480 bytes — “quoted” ⟲\n<W>\nlog₂ 37.2\n"
        );
    }

    proptest::proptest! {
        #[test]
        fn scanning_any_text_never_panics(text in "(\\PC|\n|\\{\\{#widget |`|}}){0,200}") {
            let _ = scan(&text);
        }
    }

    #[test]
    fn a_directive_inside_a_paragraph_is_an_error() {
        let e = scan("see {{#widget slow-start}} here\n").unwrap_err();
        assert_eq!(e.0, 1);
        assert!(e.1.contains("line of its own"));
    }
}
