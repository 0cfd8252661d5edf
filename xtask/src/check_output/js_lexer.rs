//! Just enough of a JavaScript lexer to find comments and string literals.

use std::ops::Range;

use super::blank;

/// A script's code with its comments and the contents of its string
/// literals blanked out (quotes kept), and where those contents are.
pub(super) struct JsLayout {
    pub(super) code: String,
    pub(super) strings: Vec<Range<usize>>,
}

/// Words after which a `/` starts a regular expression, not a division.
const KEYWORDS_BEFORE_EXPRESSION: &[&str] = &[
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
];

/// Just enough of a JavaScript lexer to tell comments from strings and
/// regular expressions: `"//"` in a string is not a comment, and neither is
/// `/\/*/` in a regex. Mistakes here could only hide a real comment or code,
/// never invent a URL.
pub(super) fn lex_js(src: &str) -> JsLayout {
    let b = src.as_bytes();
    let mut comments = Vec::new();
    let mut strings = Vec::new();
    // Brace depth inside each open template `${…}`.
    let mut templates: Vec<usize> = Vec::new();
    let mut regex_allowed = true;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        i = match c {
            b'/' if next == Some(b'/') => {
                let end = find(b, i, b"\n").unwrap_or(b.len());
                comments.push(i..end);
                end
            }
            b'/' if next == Some(b'*') => {
                let end = find(b, i + 2, b"*/").map_or(b.len(), |e| e + 2);
                comments.push(i..end);
                end
            }
            b'/' if regex_allowed => {
                regex_allowed = false;
                skip_regex(b, i)
            }
            b'"' | b'\'' => {
                regex_allowed = false;
                let end = skip_string(b, i);
                let closed = end > i + 1 && b[end - 1] == c;
                strings.push(i + 1..if closed { end - 1 } else { end });
                end
            }
            b'`' => {
                regex_allowed = false;
                template_chunk(b, i + 1, &mut strings, &mut templates)
            }
            b'}' if templates.last() == Some(&0) => {
                templates.pop();
                regex_allowed = false;
                template_chunk(b, i + 1, &mut strings, &mut templates)
            }
            b'{' | b'}' => {
                if let Some(depth) = templates.last_mut() {
                    *depth = if c == b'{' { *depth + 1 } else { *depth - 1 };
                }
                // After a block, a statement may start with a regex.
                regex_allowed = true;
                i + 1
            }
            c if c.is_ascii_whitespace() => i + 1,
            c if is_identifier_byte(c) => {
                let end = (i..b.len())
                    .find(|&j| !is_identifier_byte(b[j]))
                    .unwrap_or(b.len());
                let word = &src[i..end];
                regex_allowed = KEYWORDS_BEFORE_EXPRESSION.contains(&word);
                end
            }
            b')' | b']' => {
                regex_allowed = false;
                i + 1
            }
            _ => {
                regex_allowed = true;
                i + 1
            }
        };
    }
    let mut blanked = comments;
    blanked.extend(strings.iter().cloned());
    JsLayout {
        code: blank(src, &blanked),
        strings,
    }
}

fn is_identifier_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// End (exclusive) of the quoted string starting at `start`. Stops at an
/// unescaped newline, which no valid string contains.
fn skip_string(b: &[u8], start: usize) -> usize {
    let quote = b[start];
    let mut j = start + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'\n' => return j,
            c if c == quote => return j + 1,
            _ => j += 1,
        }
    }
    b.len()
}

/// End of the regex literal starting at `start` (a `/`), flags included. If
/// the line ends first it was a division after all: step over the `/`.
fn skip_regex(b: &[u8], start: usize) -> usize {
    let mut j = start + 1;
    let mut in_class = false;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 1,
            b'\n' => return start + 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'/' if !in_class => {
                let flags = (j + 1..b.len()).find(|&k| !b[k].is_ascii_alphabetic());
                return flags.unwrap_or(b.len());
            }
            _ => {}
        }
        j += 1;
    }
    start + 1
}

/// Reads template literal text from `start` up to its closing backtick
/// (returns just after it) or a `${` (opens an interpolation and returns
/// just after it, back in code).
fn template_chunk(
    b: &[u8],
    start: usize,
    strings: &mut Vec<Range<usize>>,
    templates: &mut Vec<usize>,
) -> usize {
    let mut j = start;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'`' => {
                strings.push(start..j);
                return j + 1;
            }
            b'$' if b.get(j + 1) == Some(&b'{') => {
                strings.push(start..j);
                templates.push(0);
                return j + 2;
            }
            _ => j += 1,
        }
    }
    strings.push(start..b.len());
    b.len()
}
