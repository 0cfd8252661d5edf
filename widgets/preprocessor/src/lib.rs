//! `mdbook-widgets`: the book's preprocessor for `{{#widget NAME key=value ...}}`.
//!
//! Each directive becomes a placeholder element carrying its parameters as
//! `data-*` attributes, plus a `<noscript>` note; the widget bundle mounts into
//! it in the browser. A directive naming an unknown widget or parameter, or a
//! value out of range, fails `mdbook build` with the chapter, the directive
//! and the bad key.

pub mod directive;
pub mod render;

use directive::Piece;
use mdbook_preprocessor::book::{Book, BookItem};
use mdbook_preprocessor::errors::{Error, Result};
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

pub struct Widgets;

impl Preprocessor for Widgets {
    fn name(&self) -> &str {
        "widgets"
    }

    fn run(&self, _ctx: &PreprocessorContext, mut book: Book) -> Result<Book> {
        let mut errors: Vec<String> = Vec::new();
        book.for_each_mut(|item| {
            if let BookItem::Chapter(ch) = item {
                let where_ = ch
                    .source_path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| ch.name.clone());
                match expand(&ch.content) {
                    Ok(text) => ch.content = text,
                    Err(e) => errors.push(format!("{where_}:{e}")),
                }
            }
        });
        if errors.is_empty() {
            Ok(book)
        } else {
            Err(Error::msg(errors.join("\n")))
        }
    }

    fn supports_renderer(&self, _renderer: &str) -> Result<bool> {
        Ok(true)
    }
}

/// Replaces every directive in a chapter; the error says `LINE: directive: problem`.
pub fn expand(content: &str) -> std::result::Result<String, String> {
    let pieces = directive::scan(content).map_err(|(line, msg)| format!("{line}: {msg}"))?;
    let mut out = String::with_capacity(content.len());
    let mut index = 0;
    for piece in pieces {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Directive { source, body, line } => {
                let d = directive::parse(body).map_err(|e| match e.key {
                    Some(key) => format!("{line}: in `{source}`, parameter `{key}`: {}", e.message),
                    None => format!("{line}: in `{source}`: {}", e.message),
                })?;
                index += 1;
                if index == 1 {
                    out.push_str(render::PRELOAD);
                }
                out.push_str(&render::placeholder(&d, index));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chapter_gets_numbered_placeholders() {
        let out =
            expand("# T\n\n{{#widget slow-start}}\n\ntext\n\n{{#widget slow-start rtt=1ms}}\n")
                .unwrap();
        assert!(out.contains(r#"id="slow-start-1""#));
        assert!(out.contains(r#"id="slow-start-2" data-widget="slow-start" data-rtt="1ms""#));
        assert!(!out.contains("{{#widget"));
        // The bundle is preloaded once, before the first placeholder.
        assert_eq!(out.matches("compileStreaming(").count(), 1);
        assert!(out.find("modulepreload") < out.find("slow-start-1"));
        assert!(!expand("# No widget\n").unwrap().contains("<script>"));
    }

    #[test]
    fn errors_carry_line_directive_and_key() {
        let e = expand("# T\n\n{{#widget slow-start rtt=9s}}\n").unwrap_err();
        assert!(
            e.starts_with("3: in `{{#widget slow-start rtt=9s}}`, parameter `rtt`:"),
            "{e}"
        );
    }
}
