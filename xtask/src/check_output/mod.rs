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
//!
//! The walk over the site and the report are here; each kind of file has its
//! scanner (`html`, `css`, `js` with its `js_lexer`), and `url` says which
//! URLs name another host. `pages`, `embeds` and `playground` are the checks
//! of the site as a whole.

mod css;
mod embeds;
mod html;
mod js;
mod js_lexer;
mod pages;
mod playground;
mod report;
#[cfg(test)]
mod tests;
mod url;

use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::sh::Result;
use css::scan_css;
use embeds::check_embeds;
use html::scan_html;
use js::scan_js;
use pages::check_page_size;
use playground::allow_dormant_playground;
use report::{Problem, Report};

/// File types that can make a browser load something. Fonts, images other
/// than SVG and wasm are only ever loaded, never load anything themselves.
const SCANNED_EXTENSIONS: &[&str] = &["html", "css", "js", "mjs", "svg"];

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

/// 1-based line of a byte offset.
fn line_of(text: &str, at: usize) -> usize {
    let end = at.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
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
