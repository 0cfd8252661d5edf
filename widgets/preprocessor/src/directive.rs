//! Finding and checking `{{#widget NAME key=value ...}}` in a chapter.

use widget_catalogue::WidgetSpec;

/// A directive found in a chapter, already checked against the widget table.
#[derive(Clone, Debug)]
pub struct Directive {
    pub widget: &'static WidgetSpec,
    pub args: Vec<(String, String)>,
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
    let mut args: Vec<(String, String)> = Vec::new();
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(DirectiveError {
                key: Some(word.to_string()),
                message: "expected key=value".into(),
            });
        };
        if args.iter().any(|(k, _)| k == key) {
            return Err(DirectiveError {
                key: Some(key.to_string()),
                message: "given twice".into(),
            });
        }
        widget.check(key, value).map_err(|e| DirectiveError {
            key: Some(e.key),
            message: e.message,
        })?;
        args.push((key.to_string(), value.to_string()));
    }
    widget.check_together(&args).map_err(|e| DirectiveError {
        key: Some(e.key),
        message: e.message,
    })?;
    Ok(Directive { widget, args })
}

/// One piece of a chapter after scanning: text to keep, or a directive.
#[derive(Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    Text(&'a str),
    /// The directive's full text (for messages) and its inside.
    Directive {
        source: &'a str,
        body: &'a str,
        line: usize,
    },
}

/// Splits a chapter into text and directives, leaving alone directives inside
/// fenced code blocks or inline code, and `\{{#widget ...}}` (escaped, kept
/// without the backslash, as mdBook does for `\{{#include}}`).
pub fn scan(content: &str) -> Result<Vec<Piece<'_>>, (usize, String)> {
    let mut pieces = Vec::new();
    let mut fence: Option<&str> = None;
    let mut offset = 0;
    for (lineno, line) in content.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
            pieces.push(Piece::Text(line));
            offset += line.len();
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            pieces.push(Piece::Text(line));
            offset += line.len();
            continue;
        }
        scan_line(line, lineno + 1, &mut pieces)?;
        offset += line.len();
    }
    let _ = offset;
    Ok(pieces)
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
