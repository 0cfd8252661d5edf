//! `cargo xtask check-output [DIR]`: checks the built site (`book/` by
//! default) for what a reader's browser would do behind their back.
//!
//! - No load from another host: every `src=`, `srcset=`, `poster=`,
//!   `<link href=>`, `<object data=>`, `<form action=>`, CSS `url()` and
//!   `@import`, and script `fetch()` / `import` / `new Worker()` /
//!   `importScripts()` / `.src =` must stay on the site. Reading links
//!   (`<a href>`) to other hosts are fine: the reader chooses to follow them.
//! - Every HTML page under 1 MB.
//! - Every embed form of every widget exists: `embed/<name>.html` (iframe
//!   page), `embed/<name>.standalone.html` (one self-contained file) and the
//!   shared `embed/tcp-widget.js` (custom element).
//!
//! It reports every problem it finds, not just the first, so one run shows
//! all that needs fixing.

use std::fmt;
use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use html5gum::{DefaultEmitter, StartTag, State, Token, Tokenizer};
use regex::Regex;

use crate::sh::Result;

/// Largest HTML page allowed, in bytes. "Under 1 MB" read as the decimal
/// megabyte (1,000,000 bytes), the stricter of the two readings.
const MAX_PAGE_BYTES: u64 = 1_000_000;

/// File types that can make a browser load something. Fonts, images other
/// than SVG and wasm are only ever loaded, never load anything themselves.
const SCANNED_EXTENSIONS: &[&str] = &["html", "css", "js", "mjs", "svg"];

/// The custom-element script every widget's embed shares.
const SHARED_EMBED_SCRIPT: &str = "embed/tcp-widget.js";

pub fn run(book_dir: &Path) -> Result {
    if !book_dir.is_dir() {
        return Err(format!(
            "{} is not a directory: build the site first (cargo xtask build)",
            book_dir.display()
        ));
    }
    let mut report = Report::default();
    for path in files_under(book_dir)? {
        check_file(book_dir, &path, &mut report)?;
    }
    check_embeds(book_dir, &mut report);
    allow_dormant_playground(book_dir, &mut report)?;
    println!("{}", report.summary(book_dir));
    report.into_result(book_dir)
}

/// The Rust Playground addresses in mdBook's own `book.js`. It sends code
/// there only from code blocks marked `playground`, and `book.toml` turns
/// those off (`[output.html.playground] runnable = false`); the addresses stay
/// in the script. They are allowed only while no page has such a block, and a
/// page that has one is a problem in itself.
const PLAYGROUND: &[&str] = &[
    "https://play.rust-lang.org/meta/crates",
    "https://play.rust-lang.org/evaluate.json",
];

fn allow_dormant_playground(book_dir: &Path, report: &mut Report) -> Result {
    for path in files_under(book_dir)? {
        if path.extension().is_some_and(|e| e == "html") {
            let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            if text.contains("class=\"playground\"") {
                report.problems.push(Problem {
                    file: relative(book_dir, &path),
                    line: None,
                    what: "has a runnable Rust Playground block, which would send code to play.rust-lang.org".into(),
                });
            }
        }
    }
    report.problems.retain(|p| {
        !(p.file.starts_with("book-")
            && p.file.ends_with(".js")
            && PLAYGROUND.iter().any(|u| p.what.ends_with(u)))
    });
    Ok(())
}

/// What the check found: counts for the summary, and every problem.
#[derive(Default)]
struct Report {
    files_scanned: usize,
    pages: usize,
    largest_page: Option<(String, u64)>,
    embeds_found: usize,
    embeds_expected: usize,
    problems: Vec<Problem>,
}

/// One problem, in one file of the site.
struct Problem {
    file: String,
    line: Option<usize>,
    what: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.what),
            None => write!(f, "{}: {}", self.file, self.what),
        }
    }
}

impl Report {
    fn summary(&self, book_dir: &Path) -> String {
        let largest = match &self.largest_page {
            Some((file, bytes)) => format!("{file} ({bytes} bytes)"),
            None => "none".to_string(),
        };
        format!(
            "check-output: {}: {} HTML pages checked, {} files scanned, largest page {largest}, \
             embed files found {} of {}",
            book_dir.display(),
            self.pages,
            self.files_scanned,
            self.embeds_found,
            self.embeds_expected,
        )
    }

    fn into_result(self, book_dir: &Path) -> Result {
        if self.problems.is_empty() {
            return Ok(());
        }
        let list: Vec<String> = self.problems.iter().map(|p| format!("  {p}")).collect();
        Err(format!(
            "the built site in {} has {} problem(s):\n{}",
            book_dir.display(),
            self.problems.len(),
            list.join("\n")
        ))
    }
}

/// Every file under `dir`, sorted so reports come out in the same order.
fn files_under(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("could not list {}: {e}", dir.display()))?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<std::io::Result<_>>()
        .map_err(|e| format!("could not list {}: {e}", dir.display()))?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files.extend(files_under(&path)?);
        } else {
            files.push(path);
        }
    }
    Ok(files)
}

fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

fn check_file(book_dir: &Path, path: &Path, report: &mut Report) -> Result {
    let ext = extension(path);
    if !SCANNED_EXTENSIONS.contains(&ext.as_str()) {
        return Ok(());
    }
    let name = relative(book_dir, path);
    let bytes = fs::read(path).map_err(|e| format!("could not read {}: {e}", path.display()))?;
    report.files_scanned += 1;
    if ext == "html" {
        check_page_size(&name, bytes.len() as u64, report);
    }
    let text = String::from_utf8_lossy(&bytes);
    let findings = match ext.as_str() {
        "css" => scan_css(&text),
        "js" | "mjs" => scan_js(&text),
        // SVG is markup too: the same attributes load the same way.
        _ => scan_html(&text),
    };
    for finding in findings {
        report.problems.push(Problem {
            file: name.clone(),
            line: Some(line_of(&text, finding.at)),
            what: finding.what,
        });
    }
    Ok(())
}

fn relative(book_dir: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(book_dir).unwrap_or(path);
    rel.to_string_lossy().replace('\\', "/")
}

fn check_page_size(name: &str, bytes: u64, report: &mut Report) {
    report.pages += 1;
    if report.largest_page.as_ref().is_none_or(|(_, b)| bytes > *b) {
        report.largest_page = Some((name.to_string(), bytes));
    }
    if let Some(what) = page_size_problem(bytes) {
        report.problems.push(Problem {
            file: name.to_string(),
            line: None,
            what,
        });
    }
}

fn page_size_problem(bytes: u64) -> Option<String> {
    (bytes >= MAX_PAGE_BYTES).then(|| {
        format!("page is {bytes} bytes of HTML; every page must be under {MAX_PAGE_BYTES}")
    })
}

/// The files every widget's embed forms need, with what each one is.
fn expected_embeds() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for name in widget_catalogue::widget_names() {
        files.push((
            format!("embed/{name}.html"),
            format!("iframe embed page of widget {name}"),
        ));
        files.push((
            format!("embed/{name}.standalone.html"),
            format!("self-contained single-file embed of widget {name}"),
        ));
    }
    files.push((
        SHARED_EMBED_SCRIPT.to_string(),
        "custom-element script shared by every widget's embed".to_string(),
    ));
    files
}

fn check_embeds(book_dir: &Path, report: &mut Report) {
    for (file, what) in expected_embeds() {
        report.embeds_expected += 1;
        if book_dir.join(&file).is_file() {
            report.embeds_found += 1;
        } else {
            report.problems.push(Problem {
                file,
                line: None,
                what: format!("missing ({what})"),
            });
        }
    }
}

/// 1-based line of a byte offset.
fn line_of(text: &str, at: usize) -> usize {
    let end = at.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// A load from another host found in a text, at a byte offset into it.
#[derive(Debug, Clone, PartialEq)]
struct Finding {
    at: usize,
    what: String,
}

impl Finding {
    fn new(at: usize, context: &str, url: &str) -> Self {
        Finding {
            at,
            what: format!("{context} loads from another host: {}", url.trim()),
        }
    }

    fn shifted(self, by: usize) -> Self {
        Finding {
            at: self.at + by,
            ..self
        }
    }
}

// ---------------------------------------------------------------------------
// URLs

/// Schemes that never reach a network host: inline data, blank pages and
/// same-page objects.
const LOCAL_SCHEMES: &[&str] = &["data", "about", "blob", "javascript"];

/// Whether a browser loading `url` from a page of this site would contact
/// another host: any URL with a scheme (`https:`, `ws:`, …) other than the
/// local ones, or a protocol-relative `//host/…`. Relative paths stay on the
/// site.
fn names_other_host(url: &str) -> bool {
    // Browsers strip surrounding whitespace and drop tabs and newlines
    // anywhere in a URL, so `ht\ntps://` is still `https://`.
    let url: String = url
        .trim()
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    // `\` counts as `/` in http(s) URLs, so `\\host` is protocol-relative too.
    if url.len() >= 2 && url.chars().take(2).all(|c| c == '/' || c == '\\') {
        return true;
    }
    match scheme(&url) {
        Some(s) => !LOCAL_SCHEMES.contains(&s.to_ascii_lowercase().as_str()),
        None => false,
    }
}

fn scheme(url: &str) -> Option<&str> {
    let colon = url.find(':')?;
    let s = &url[..colon];
    let mut chars = s.chars();
    let first_ok = chars.next()?.is_ascii_alphabetic();
    let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    (first_ok && rest_ok).then_some(s)
}

/// The URLs of a `srcset`: candidates are "URL [descriptor]" separated by
/// commas, and a URL may itself contain commas (`data:` URLs do).
fn srcset_urls(value: &str) -> Vec<&str> {
    let mut urls = Vec::new();
    let mut rest = value;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ',');
        if rest.is_empty() {
            return urls;
        }
        let end = rest
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let url = &rest[..end];
        urls.push(url.trim_end_matches(','));
        let after = &rest[end..];
        rest = if url.ends_with(',') {
            after
        } else {
            after.find(',').map_or("", |k| &after[k + 1..])
        };
    }
}

// ---------------------------------------------------------------------------
// HTML and SVG

/// How an element's text content is read: as script, as CSS, or not at all.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Content {
    Js,
    /// An import map or speculation rules: JSON whose URL strings the
    /// browser loads.
    UrlJson,
    Css,
    /// Text the browser neither runs nor loads from (`<title>`, a
    /// `<script type="application/json">` data block, …).
    Inert,
}

/// Elements whose content is not markup, with the tokenizer state that
/// reads it and what that content is. `<noscript>` is deliberately absent:
/// with scripting off a browser parses and loads what is inside it, so it is
/// scanned as markup.
fn raw_text_element(tag: &StartTag<usize>) -> Option<(State, Content)> {
    match tag.name.as_slice() {
        b"script" => Some((State::ScriptData, script_content(tag))),
        b"style" => Some((State::RawText, Content::Css)),
        b"textarea" | b"title" => Some((State::RcData, Content::Inert)),
        b"xmp" | b"iframe" | b"noembed" | b"noframes" => Some((State::RawText, Content::Inert)),
        b"plaintext" => Some((State::PlainText, Content::Inert)),
        _ => None,
    }
}

fn script_content(tag: &StartTag<usize>) -> Content {
    let kind = attr(tag, b"type")
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    match kind.as_str() {
        "" | "module" => Content::Js,
        "importmap" | "speculationrules" => Content::UrlJson,
        k if k.contains("javascript") || k.contains("ecmascript") => Content::Js,
        // A data block: the browser does not run it.
        _ => Content::Inert,
    }
}

fn attr(tag: &StartTag<usize>, name: &[u8]) -> Option<String> {
    tag.attributes
        .get(name)
        .map(|v| String::from_utf8_lossy(v).into_owned())
}

/// Finds loads from another host in an HTML (or SVG) document: in URL
/// attributes, inline `<style>` and `style=""`, inline scripts and `on…=`
/// handlers.
fn scan_html(html: &str) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut tokenizer = Tokenizer::new_with_emitter(html, DefaultEmitter::<usize>::new_with_span());
    // The raw-text element we are inside: where its text starts, what it is.
    let mut inside: Option<(usize, Content)> = None;
    while let Some(Ok(token)) = tokenizer.next() {
        match token {
            Token::StartTag(tag) => {
                found.extend(scan_tag(&tag));
                // `<script …/>` is an empty element in SVG (XML); HTML
                // ignores the slash, but no page of ours relies on that.
                if let Some((state, content)) = raw_text_element(&tag).filter(|_| !tag.self_closing)
                {
                    // html5gum leaves state switching to its user.
                    tokenizer.set_state(state);
                    inside = Some((tag.span.end, content));
                }
            }
            Token::EndTag(end) => {
                if let Some((start, content)) = inside.take() {
                    // Raw text is copied verbatim, so the source slice is
                    // exactly the element's content, at its real offset.
                    let text = html.get(start..end.span.start).unwrap_or_default();
                    found.extend(
                        scan_content(text, content)
                            .into_iter()
                            .map(|f| f.shifted(start)),
                    );
                }
            }
            _ => {}
        }
    }
    found
}

fn scan_content(text: &str, content: Content) -> Vec<Finding> {
    match content {
        Content::Js => scan_js(text),
        Content::UrlJson => scan_json_urls(text),
        Content::Css => scan_css(text),
        Content::Inert => Vec::new(),
    }
}

/// The attributes of one start tag.
fn scan_tag(tag: &StartTag<usize>) -> Vec<Finding> {
    let name = String::from_utf8_lossy(&tag.name);
    let mut found = Vec::new();
    for (key, value) in &tag.attributes {
        let key = String::from_utf8_lossy(key);
        let text = String::from_utf8_lossy(value);
        let at = tag.span.start;
        let context = format!("<{name} {key}>");
        match attribute_role(&name, &key) {
            Role::Url => {
                if names_other_host(&text) {
                    found.push(Finding::new(at, &context, &text));
                }
            }
            Role::UrlList(split) => {
                for url in split(&text) {
                    if names_other_host(url) {
                        found.push(Finding::new(at, &context, url));
                    }
                }
            }
            // Offsets inside a decoded attribute value are not source
            // offsets; report the tag's line.
            Role::Css => found.extend(scan_css(&text).into_iter().map(|f| Finding { at, ..f })),
            Role::Js => found.extend(scan_js(&text).into_iter().map(|f| Finding { at, ..f })),
            Role::Other => {}
        }
    }
    found
}

/// What an attribute's value is, as far as loading goes.
enum Role {
    /// A URL the browser fetches (or submits to) by itself.
    Url,
    /// Several such URLs, split by the function.
    UrlList(fn(&str) -> Vec<&str>),
    Css,
    Js,
    Other,
}

fn attribute_role(element: &str, attribute: &str) -> Role {
    match attribute {
        "src" | "poster" | "background" | "manifest" | "formaction" => Role::Url,
        "srcset" | "imagesrcset" => Role::UrlList(srcset_urls),
        // `ping` sends a request to each URL when the link is followed.
        "ping" => Role::UrlList(|v| v.split_ascii_whitespace().collect()),
        "data" if element == "object" => Role::Url,
        "action" if element == "form" => Role::Url,
        // `<a>`/`<area>` are reading links: the reader chooses to follow
        // them. On every other element (`<link>`, `<base>`, SVG `<image>`,
        // `<use>`, `<script>`…) an href is loaded or changes what is.
        "href" | "xlink:href" if !matches!(element, "a" | "area") => Role::Url,
        "style" => Role::Css,
        a if a.starts_with("on") && a.len() > 2 => Role::Js,
        _ => Role::Other,
    }
}

// ---------------------------------------------------------------------------
// CSS

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
fn scan_css(css: &str) -> Vec<Finding> {
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

/// `text` with the byte ranges replaced by spaces (newlines kept), so
/// offsets and line numbers stay those of the original.
fn blank(text: &str, ranges: &[Range<usize>]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for range in ranges {
        for b in &mut bytes[range.clone()] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    // Ranges start and end on ASCII delimiters, so whole characters are
    // replaced and the result is still UTF-8.
    String::from_utf8(bytes).expect("blanking whole comments and strings keeps UTF-8")
}

// ---------------------------------------------------------------------------
// JavaScript

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
fn scan_js(js: &str) -> Vec<Finding> {
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
fn scan_json_urls(json: &str) -> Vec<Finding> {
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

/// A script's code with its comments and the contents of its string
/// literals blanked out (quotes kept), and where those contents are.
struct JsLayout {
    code: String,
    strings: Vec<Range<usize>>,
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
fn lex_js(src: &str) -> JsLayout {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(findings: &[Finding]) -> Vec<String> {
        findings
            .iter()
            .map(|f| f.what.rsplit(": ").next().unwrap_or_default().to_string())
            .collect()
    }

    #[test]
    fn classifies_urls() {
        for other in [
            "https://cdn.example/x.css",
            "http://x",
            "HTTPS://X",
            "//cdn.example/x.js",
            "\\\\cdn.example/x.js",
            " https://x ",
            "ht\ntps://x",
            "ws://x",
            "wss://x/socket",
            "ftp://x",
        ] {
            assert!(names_other_host(other), "{other:?} names another host");
        }
        for local in [
            "x.css",
            "./x.css",
            "../fonts/a.woff2",
            "/abs/path.js",
            "#frag",
            "?q=1",
            "data:image/png;base64,AAAA",
            "DATA:text/css,a",
            "about:blank",
            "blob:https://site/uuid",
            "",
            "/",
        ] {
            assert!(!names_other_host(local), "{local:?} stays on the site");
        }
    }

    #[test]
    fn srcset_candidates() {
        assert_eq!(
            srcset_urls("a.png 1x, https://cdn/b.png 2x"),
            ["a.png", "https://cdn/b.png"]
        );
        assert_eq!(
            srcset_urls("data:image/png;base64,AA,BB 1x,c.png"),
            ["data:image/png;base64,AA,BB", "c.png"]
        );
    }

    #[test]
    fn html_reading_link_to_another_host_is_allowed() {
        let html = r#"<p>See <a href="https://www.rfc-editor.org/rfc/rfc6928">RFC 6928</a>
            and <area href="https://example.com/map"></p>"#;
        assert_eq!(scan_html(html), []);
    }

    #[test]
    fn html_stylesheet_from_a_cdn_is_flagged() {
        let found = scan_html("<head>\n<link rel=stylesheet href=https://cdn.example/k.css>");
        assert_eq!(urls(&found), ["https://cdn.example/k.css"]);
        assert!(found[0].what.contains("<link href>"), "{found:?}");
        assert_eq!(line_of("<head>\n<link", found[0].at), 2);
    }

    #[test]
    fn html_site_links_are_allowed() {
        let html = r##"<link rel="icon" href="favicon-de23e50b.svg">
            <link rel="stylesheet" href="css/general.css">
            <script src="book.js"></script><iframe src="toc.html"></iframe>
            <iframe src="about:blank"></iframe><img src="data:image/png;base64,AAAA">
            <svg xmlns="http://www.w3.org/2000/svg"><use href="#icon"/></svg>"##;
        assert_eq!(scan_html(html), []);
    }

    #[test]
    fn html_every_loading_attribute_is_checked() {
        let html = r#"<script src="//cdn.example/a.js"></script>
            <img srcset="a.png 1x, https://cdn.example/b.png 2x">
            <video poster="https://cdn.example/c.png"></video>
            <object data="https://cdn.example/d.swf"></object>
            <form action="https://forms.example/e"></form>
            <link rel="modulepreload" href="https://cdn.example/f.js">
            <base href="https://cdn.example/">
            <svg><image href="https://cdn.example/g.png"/></svg>"#;
        assert_eq!(
            urls(&scan_html(html)),
            [
                "//cdn.example/a.js",
                "https://cdn.example/b.png",
                "https://cdn.example/c.png",
                "https://cdn.example/d.swf",
                "https://forms.example/e",
                "https://cdn.example/f.js",
                "https://cdn.example/",
                "https://cdn.example/g.png",
            ]
        );
    }

    #[test]
    fn html_data_attributes_and_actions_elsewhere_are_not_urls() {
        let html = r#"<div data="https://x" data-src="https://y" action="https://z"></div>"#;
        assert_eq!(scan_html(html), []);
    }

    #[test]
    fn html_inline_css_and_scripts_are_checked() {
        let html = "<style>\n@import 'https://cdn.example/a.css';\n</style>\n\
            <div style=\"background: url(https://cdn.example/b.png)\"></div>\n\
            <script>\nconst ok = 'https://example.com/not-loaded';\nfetch(\"https://api.example/c\");\n</script>\n\
            <button onclick=\"fetch('https://api.example/d')\"></button>";
        let found = scan_html(html);
        assert_eq!(
            urls(&found),
            [
                "https://cdn.example/a.css",
                "https://cdn.example/b.png",
                "https://api.example/c",
                "https://api.example/d",
            ]
        );
        let lines: Vec<usize> = found.iter().map(|f| line_of(html, f.at)).collect();
        assert_eq!(lines, [2, 4, 7, 9]);
    }

    #[test]
    fn html_script_text_is_not_markup() {
        // Inside a script, `<link …>` in a comment is script text, not a tag.
        let html = r#"<script>// <link rel=stylesheet href="https://cdn.example/a.css">
            const t = 1 < 2;</script><p>ok</p>"#;
        assert_eq!(scan_html(html), []);
    }

    #[test]
    fn html_data_blocks_are_inert_but_import_maps_load() {
        let html = r#"<script type="application/json">{"u": "https://example.com/x"}</script>
            <script type="importmap">{"imports": {"k": "https://esm.example/k.js"}}</script>"#;
        assert_eq!(urls(&scan_html(html)), ["https://esm.example/k.js"]);
    }

    #[test]
    fn html_noscript_content_is_checked() {
        let html = r#"<noscript><img src="https://tracker.example/p.gif"></noscript>"#;
        assert_eq!(urls(&scan_html(html)), ["https://tracker.example/p.gif"]);
    }

    #[test]
    fn html_comments_are_not_loads() {
        assert_eq!(scan_html(r#"<!-- <link href="https://x/a.css"> -->"#), []);
    }

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

    #[test]
    fn page_size_limit() {
        assert_eq!(page_size_problem(999_999), None);
        let problem = page_size_problem(1_200_000).expect("1.2 MB is too big");
        assert!(problem.contains("1200000 bytes"), "{problem}");
    }

    /// A throwaway book directory, removed when dropped.
    struct TempBook(PathBuf);

    impl TempBook {
        fn new(tag: &str) -> Self {
            let dir = std::env::temp_dir()
                .join(format!("xtask-check-output-{tag}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(dir.join("embed")).expect("temp dir");
            TempBook(dir)
        }

        fn write(&self, name: &str, text: &str) {
            fs::write(self.0.join(name), text).expect("write temp file");
        }

        fn with_embeds(self) -> Self {
            for (file, _) in expected_embeds() {
                self.write(&file, "<!doctype html><p>embed</p>");
            }
            self
        }
    }

    impl Drop for TempBook {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn clean_book_passes() {
        let book = TempBook::new("clean").with_embeds();
        book.write(
            "index.html",
            r#"<link rel="stylesheet" href="a.css"><a href="https://example.com">read</a>"#,
        );
        book.write("a.css", "b { background: url(data:image/png;base64,AA) }");
        run(&book.0).expect("a clean book passes");
    }

    #[test]
    fn every_problem_is_reported() {
        let book = TempBook::new("problems").with_embeds();
        fs::remove_file(book.0.join(SHARED_EMBED_SCRIPT)).expect("remove");
        let big = format!("<p>{}</p>", "x".repeat(1_200_000));
        book.write("big.html", &big);
        book.write(
            "a.css",
            "\n\nb { background: url(https://cdn.example/b.png) }",
        );
        book.write("c.js", "fetch('https://api.example/c')");
        book.write("font.woff2", "url(https://not-scanned.example/)");
        let err = run(&book.0).expect_err("problems fail the check");
        for expected in [
            "a.css:3: CSS url() loads from another host: https://cdn.example/b.png",
            "big.html: page is 1200007 bytes",
            "c.js:1: fetch() loads from another host: https://api.example/c",
            "embed/tcp-widget.js: missing",
            "has 4 problem(s)",
        ] {
            assert!(err.contains(expected), "{expected:?} not in:\n{err}");
        }
        assert!(!err.contains("not-scanned"), "{err}");
    }

    #[test]
    fn missing_embeds_are_listed_per_widget() {
        let book = TempBook::new("embeds");
        let err = run(&book.0).expect_err("no embeds");
        for name in widget_catalogue::widget_names() {
            assert!(
                err.contains(&format!("embed/{name}.html: missing")),
                "{err}"
            );
            assert!(
                err.contains(&format!("embed/{name}.standalone.html: missing")),
                "{err}"
            );
        }
        assert!(err.contains("embed/tcp-widget.js: missing"), "{err}");
    }
}
