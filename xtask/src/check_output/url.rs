//! Which URLs a browser would fetch from another host, and a finding of one
//! in a scanned text.

/// A load from another host found in a text, at a byte offset into it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Finding {
    pub(super) at: usize,
    pub(super) what: String,
}

impl Finding {
    pub(super) fn new(at: usize, context: &str, url: &str) -> Self {
        Finding {
            at,
            what: format!("{context} loads from another host: {}", url.trim()),
        }
    }

    pub(super) fn shifted(self, by: usize) -> Self {
        Finding {
            at: self.at + by,
            ..self
        }
    }
}

/// Schemes that never reach a network host: inline data, blank pages and
/// same-page objects.
const LOCAL_SCHEMES: &[&str] = &["data", "about", "blob", "javascript"];

/// Whether a browser loading `url` from a page of this site would contact
/// another host: any URL with a scheme (`https:`, `ws:`, …) other than the
/// local ones, or a protocol-relative `//host/…`. Relative paths stay on the
/// site.
pub(super) fn names_other_host(url: &str) -> bool {
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

/// The URLs of a `srcset`: candidates are "URL \[descriptor\]" separated by
/// commas, and a URL may itself contain commas (`data:` URLs do).
pub(super) fn srcset_urls(value: &str) -> Vec<&str> {
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

/// The URLs named by findings, for the scanners' tests.
#[cfg(test)]
pub(super) fn urls(findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .map(|f| f.what.rsplit(": ").next().unwrap_or_default().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
