//! HTML and SVG: the attributes that load, and the inline styles and scripts,
//! read with a real tokenizer so that script text is never taken for markup.

use html5gum::{DefaultEmitter, StartTag, State, Token, Tokenizer};

use super::css::scan_css;
use super::js::{scan_js, scan_json_urls};
use super::url::{Finding, names_other_host, srcset_urls};

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
pub(super) fn scan_html(html: &str) -> Vec<Finding> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check_output::line_of;
    use crate::check_output::url::urls;

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
}
