//! mdBook's Rust Playground: its addresses stay in `book.js` while no page
//! can send code there.

use std::fs;
use std::path::Path;

use super::report::{Problem, Report};
use super::{files_under, relative};
use crate::sh::Result;

/// The Rust Playground addresses in mdBook's own `book.js`. It sends code
/// there only from code blocks marked `playground`, and `book.toml` turns
/// those off (`[output.html.playground] runnable = false`); the addresses stay
/// in the script. They are allowed only while no page has such a block, and a
/// page that has one is a problem in itself.
const PLAYGROUND: &[&str] = &[
    "https://play.rust-lang.org/meta/crates",
    "https://play.rust-lang.org/evaluate.json",
];

pub(super) fn allow_dormant_playground(book_dir: &Path, report: &mut Report) -> Result {
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
