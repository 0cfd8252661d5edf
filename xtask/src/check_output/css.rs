//! CSS: `url()`, `@import` and `image-set()` targets outside comments.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::blank;
use super::url::{Finding, names_other_host};

static CSS_URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)\burl\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))"#).expect("valid regex")
});
static CSS_IMPORT_STRING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?i)@import\s+(?:"([^"]*)"|'([^']*)')"#).expect("valid regex"));
/// `image-set("a.png" 1x, …)` takes plain strings as URLs.
static CSS_IMAGE_SET: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)image-set\(([^;{}]*)").expect("valid regex"));
static CSS_STRING: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#""([^"]*)"|'([^']*)'"#).expect("valid regex"));

/// Finds `url()`, `@import` and `image-set()` targets on another host.
pub(super) fn scan_css(css: &str) -> Vec<Finding> {
    let code = blank(css, &css_comments(css));
    let mut found = Vec::new();
    for caps in CSS_URL.captures_iter(&code) {
        push_if_other_host(&mut found, &caps, "CSS url()");
    }
    for caps in CSS_IMPORT_STRING.captures_iter(&code) {
        push_if_other_host(&mut found, &caps, "CSS @import");
    }
    for set in CSS_IMAGE_SET.captures_iter(&code) {
        let args = set.get(1).expect("group 1 always matches");
        for caps in CSS_STRING.captures_iter(args.as_str()) {
            if let Some(finding) = other_host_capture(&caps, "CSS image-set()") {
                found.push(finding.shifted(args.start()));
            }
        }
    }
    found.sort_by_key(|f| f.at);
    found
}

fn push_if_other_host(found: &mut Vec<Finding>, caps: &regex::Captures<'_>, context: &str) {
    found.extend(other_host_capture(caps, context));
}

/// The first participating group of `caps` is a URL; a finding if it names
/// another host.
fn other_host_capture(caps: &regex::Captures<'_>, context: &str) -> Option<Finding> {
    let url = caps.iter().skip(1).flatten().next()?;
    let at = caps.get(0).expect("group 0 always matches").start();
    names_other_host(url.as_str()).then(|| Finding::new(at, context, url.as_str()))
}

/// `/* … */` comments, which may mention URLs without loading them.
fn css_comments(css: &str) -> Vec<Range<usize>> {
    let mut comments = Vec::new();
    let mut from = 0;
    while let Some(open) = css[from..].find("/*").map(|i| i + from) {
        let close = css[open + 2..]
            .find("*/")
            .map_or(css.len(), |i| open + 2 + i + 2);
        comments.push(open..close);
        from = close;
    }
    comments
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_output::line_of;
    use crate::check_output::url::urls;

    #[test]
    fn css_url_to_another_host_is_flagged_and_data_is_allowed() {
        let css = "a { background: url(https://cdn.example/a.png) }\n\
            b { background: url(\"//cdn.example/b.png\") }\n\
            @font-face { src: url(data:font/woff2;base64,AAAA) format('woff2'),\n\
              url(fonts/KaTeX_Main-Regular.woff2) }\n\
            c { background: url( '#grad' ) }";
        let found = scan_css(css);
        assert_eq!(
            urls(&found),
            ["https://cdn.example/a.png", "//cdn.example/b.png"]
        );
        assert_eq!(line_of(css, found[1].at), 2);
    }

    #[test]
    fn css_imports_and_image_sets_are_flagged() {
        let css = r#"@import url("https://fonts.example/a.css");
            @import 'https://fonts.example/b.css';
            @import "local.css";
            d { background: image-set("https://cdn.example/c.png" 1x, "c2.png" 2x) }"#;
        assert_eq!(
            urls(&scan_css(css)),
            [
                "https://fonts.example/a.css",
                "https://fonts.example/b.css",
                "https://cdn.example/c.png",
            ]
        );
    }

    #[test]
    fn css_comments_are_not_loads() {
        let css = "/*! KaTeX https://katex.org url(https://x/y.png) */\na { color: red }";
        assert_eq!(scan_css(css), []);
    }
}
