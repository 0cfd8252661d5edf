//! JavaScript: a URL literal where the browser loads it (`fetch()`, `import`,
//! `new Worker()`, `.src =` …), and markup or CSS built from a string literal.

use std::sync::LazyLock;

use regex::Regex;

use super::css::scan_css;
use super::html::scan_html;
use super::js_lexer::lex_js;
use super::url::{Finding, names_other_host};

/// A call or statement whose string-literal argument the browser loads.
struct JsLoad {
    context: &'static str,
    /// Matched against code whose string contents are blanked; ends where
    /// the URL literal starts. A group named `key` is an earlier string
    /// argument (an HTTP method, an attribute name) that `key_is` must accept.
    pattern: Regex,
    key_is: KeyCheck,
}

type KeyCheck = fn(&str) -> bool;

/// A blanked string literal, for a `key` group.
const KEY: &str = r#"(?P<key>"[^"\n]*"|'[^'\n]*')"#;

static JS_LOADS: LazyLock<Vec<JsLoad>> = LazyLock::new(|| {
    let any: KeyCheck = |_| true;
    let loads: [(&str, String, KeyCheck); 10] = [
        // fetch() and wrappers named after it, such as mdBook's
        // fetch_with_timeout(url, …): a fetch behind a helper is still a fetch.
        ("fetch()", r"(?i)[\w$]*fetch[\w$]*\s*\(\s*".into(), any),
        ("import()", r"\bimport\s*\(\s*".into(), any),
        // `import "url"` (side effects only); the literal check
        // rejects `import x from` and `import(`.
        ("import", r"\bimport\s*".into(), any),
        (
            "import … from",
            r#"\b(?:import|export)\b[^;"'`()]*?\bfrom\s*"#.into(),
            any,
        ),
        (
            "new Worker()",
            r"\bnew\s+(?:Shared)?Worker\s*\(\s*".into(),
            any,
        ),
        ("importScripts()", r"\bimportScripts\s*\(\s*".into(), any),
        (
            "new WebSocket()",
            r"\bnew\s+(?:WebSocket|EventSource)\s*\(\s*".into(),
            any,
        ),
        ("sendBeacon()", r"\bsendBeacon\s*\(\s*".into(), any),
        // XMLHttpRequest's open("GET", url); window.open(url) has no method
        // first and is a navigation, like a link.
        (
            "XMLHttpRequest open()",
            format!(r"\.open\s*\(\s*{KEY}\s*,\s*"),
            |key| !key.is_empty() && key.chars().all(|c| c.is_ascii_alphabetic()),
        ),
        (
            "setAttribute()",
            format!(r"\bsetAttribute(?:NS)?\s*\((?:[^,()]*,)?\s*{KEY}\s*,\s*"),
            |key| is_url_attribute(key),
        ),
    ];
    loads
        .into_iter()
        .map(|(context, pattern, key_is)| JsLoad {
            context,
            pattern: Regex::new(&pattern).expect("valid regex"),
            key_is,
        })
        .collect()
});

/// Attributes and properties that, set from a script, start a load.
fn is_url_attribute(name: &str) -> bool {
    matches!(
        name,
        "src" | "srcset" | "href" | "xlink:href" | "poster" | "data" | "action"
    )
}

/// `x.src = "…"` and the like: assigning a URL property starts a load.
static JS_URL_PROPERTY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"([\w$]+)\s*\.\s*(src|srcset|poster|data|action|href)\s*=\s*").expect("valid regex")
});

/// Finds loads from another host in a script: a URL literal in a loading
/// context (see `JS_LOADS`), or markup and CSS in string literals that load
/// one. URLs in comments (licence headers, references) and in other strings
/// are not loads and are not reported.
pub(super) fn scan_js(js: &str) -> Vec<Finding> {
    let layout = lex_js(js);
    let mut found = Vec::new();
    // Contexts are matched in code only (comments and string contents
    // blanked), so prose such as a search index quoting `fetch("https://…")`
    // is not taken for a call; the literal is then read from the source.
    for load in JS_LOADS.iter() {
        found.extend(js_loads(js, &layout.code, load));
    }
    found.extend(js_url_properties(js, &layout.code));
    for string in &layout.strings {
        found.extend(scan_js_string(&js[string.clone()]).map(|f| Finding {
            at: string.start,
            ..f
        }));
    }
    found.sort_by_key(|f| f.at);
    found.dedup();
    found
}

fn js_loads(js: &str, code: &str, load: &JsLoad) -> Vec<Finding> {
    let mut found = Vec::new();
    for caps in load.pattern.captures_iter(code) {
        let key = caps.name("key").and_then(|k| literal_at(js, k.start()));
        if key.is_some_and(|k| !(load.key_is)(&k)) {
            continue;
        }
        let whole = caps.get(0).expect("group 0 always matches");
        if let Some(url) = literal_at(js, whole.end())
            && names_other_host(&url)
        {
            found.push(Finding::new(whole.start(), load.context, &url));
        }
    }
    found
}

fn js_url_properties(js: &str, code: &str) -> Vec<Finding> {
    let mut found = Vec::new();
    for caps in JS_URL_PROPERTY.captures_iter(code) {
        let (object, property) = (&caps[1], &caps[2]);
        // `location.href = …` navigates, like following a link.
        if object == "location" && property == "href" {
            continue;
        }
        let whole = caps.get(0).expect("group 0 always matches");
        if let Some(url) = literal_at(js, whole.end())
            && names_other_host(&url)
        {
            found.push(Finding::new(whole.start(), &format!(".{property} ="), &url));
        }
    }
    found
}

/// Markup or CSS built from a string literal (`innerHTML = '<link …>'`,
/// `style.background = 'url(…)'`) loads like it would in a file. Only
/// strings that start as markup or CSS count: a string that merely contains
/// some (mdBook's search index quotes the book's text, code blocks and all)
/// is data, and mdBook escapes it before display.
fn scan_js_string(raw: &str) -> impl Iterator<Item = Finding> {
    let text = unescape_js(raw);
    let start = text.trim_start();
    let mut found = Vec::new();
    if start.starts_with('<') {
        found.extend(scan_html(&text));
    } else if CSS_START.is_match(start) {
        found.extend(scan_css(&text));
    }
    found.into_iter()
}

/// A string that starts as CSS: a `url()`, `@import`, `image-set()` or a
/// declaration (`background: …`).
static CSS_START: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^(?:url\(|@import\b|(?:-webkit-)?image-set\(|[a-z-]+\s*:)")
        .expect("valid regex")
});

/// JSON (an import map, speculation rules): every string naming another
/// host is a URL the browser may load.
pub(super) fn scan_json_urls(json: &str) -> Vec<Finding> {
    lex_js(json)
        .strings
        .into_iter()
        .filter(|s| names_other_host(&unescape_js(&json[s.clone()])))
        .map(|s| Finding::new(s.start, "import map / speculation rules", &json[s]))
        .collect()
}

/// The string literal (or template literal up to its first `${`) starting
/// at `at`, with escapes resolved enough to read a URL (`https:\/\/…`).
fn literal_at(code: &str, at: usize) -> Option<String> {
    let rest = code.get(at..)?;
    let quote = rest.chars().next()?;
    if !matches!(quote, '"' | '\'' | '`') {
        return None;
    }
    let mut out = String::new();
    let mut chars = rest[1..].chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c if c == quote => break,
            '$' if quote == '`' && chars.peek() == Some(&'{') => break,
            '\n' if quote != '`' => break,
            c => out.push(c),
        }
    }
    Some(out)
}

/// Drops the backslash of every escape; good enough to read markup and URLs
/// out of a string literal (`"<img src=\"…\">"`).
fn unescape_js(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n' | 'r' | 't') => out.push(' '),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_output::url::urls;

    #[test]
    fn js_fetch_of_another_host_is_flagged() {
        let js = "fetch(\"https://x\");\nfetch('data.json');\nfetch(`https://${host}/y`);";
        let found = scan_js(js);
        assert_eq!(urls(&found), ["https://x", "https://"]);
        assert!(found[0].what.starts_with("fetch()"), "{found:?}");
    }

    #[test]
    fn js_fetch_wrappers_count_as_fetch() {
        // mdBook's playground helper.
        let js = "fetch_with_timeout('https://play.rust-lang.org/evaluate.json', {})";
        assert_eq!(
            urls(&scan_js(js)),
            ["https://play.rust-lang.org/evaluate.json"]
        );
    }

    #[test]
    fn js_licence_comments_and_plain_strings_are_not_loads() {
        let js = r#"/*!
 * mark.js v8.11.1
 * https://markjs.io/
 * Released under the MIT license https://git.io/vwTVl
 */
/*! elasticlunr - http://weixsong.github.io */
// see https://github.com/rust-lang/mdBook/issues/628 and fetch("https://x")
var doc = "https://example.com/reference"; console.log('see https://x');
var ns = "http://www.w3.org/2000/svg";"#;
        assert_eq!(scan_js(js), []);
    }

    #[test]
    fn js_slashes_in_strings_and_regexes_do_not_start_comments() {
        let js = r#"var a = "//"; var r = /\/*/g; var q = /[/*]/; x = 4 / 2 / 1;
fetch("https://api.example/after");"#;
        assert_eq!(urls(&scan_js(js)), ["https://api.example/after"]);
    }

    #[test]
    fn js_module_and_worker_loads_are_flagged() {
        let js = r#"import "https://esm.example/side.js";
import x, { y } from "https://esm.example/x.js";
import{z}from"//esm.example/z.js";
export * from 'https://esm.example/e.js';
import("https://esm.example/lazy.js");
import("./local.js");
new Worker("//cdn.example/w.js"); importScripts('https://cdn.example/s.js');
new WebSocket("wss://live.example/"); navigator.sendBeacon("https://stats.example/");
xhr.open("GET", "https://api.example/x"); window.open("https://example.com/read");"#;
        assert_eq!(
            urls(&scan_js(js)),
            [
                "https://esm.example/side.js",
                "https://esm.example/x.js",
                "//esm.example/z.js",
                "https://esm.example/e.js",
                "https://esm.example/lazy.js",
                "//cdn.example/w.js",
                "https://cdn.example/s.js",
                "wss://live.example/",
                "https://stats.example/",
                "https://api.example/x",
            ]
        );
    }

    #[test]
    fn js_url_properties_and_attributes_are_flagged_but_navigation_is_not() {
        let js = r#"img.src = 'https://cdn.example/a.png';
link.setAttribute("href", "https://cdn.example/b.css");
location.href = "https://example.com/elsewhere";
if (a.href == "https://x") {}"#;
        assert_eq!(
            urls(&scan_js(js)),
            ["https://cdn.example/a.png", "https://cdn.example/b.css"]
        );
    }

    #[test]
    fn js_markup_and_css_in_strings_are_checked() {
        let js = r#"el.innerHTML = '<link rel="stylesheet" href="https://cdn.example/a.css">';
el.innerHTML = '<a href="https://example.com/read">read</a>';
el.innerHTML = "<img src=\"https://cdn.example/b.png\">";
el.style.background = "url(https://cdn.example/c.png)";"#;
        assert_eq!(
            urls(&scan_js(js)),
            [
                "https://cdn.example/a.css",
                "https://cdn.example/b.png",
                "https://cdn.example/c.png",
            ]
        );
    }

    #[test]
    fn js_text_in_strings_is_data_not_code() {
        // mdBook's search index: the book's text, code blocks included, in
        // one string that is parsed as JSON and shown escaped.
        let js = r#"window.search = JSON.parse('{"doc": "call fetch(\"https://api.example/x\") or add <script src=\"https://cdn.example/w.js\"></script> and url(https://cdn.example/i.png)"}');
var help = "img.src = 'https://cdn.example/y.png'";"#;
        assert_eq!(scan_js(js), []);
    }

    #[test]
    fn js_template_interpolations_are_code() {
        let js =
            "const s = `a ${ {k: 1}.k } b ${fetch(\"https://api.example/t\")} c`; // https://x";
        assert_eq!(urls(&scan_js(js)), ["https://api.example/t"]);
    }
}
