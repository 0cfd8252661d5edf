//! The check's report: its one-line summary, and every problem with the file
//! (and line) it is in.

use std::fmt;
use std::path::Path;

use crate::sh::Result;

/// What the check found: counts for the summary, and every problem.
#[derive(Default)]
pub(super) struct Report {
    pub(super) files_scanned: usize,
    pub(super) pages: usize,
    pub(super) largest_page: Option<(String, u64)>,
    pub(super) embeds_found: usize,
    pub(super) embeds_expected: usize,
    pub(super) problems: Vec<Problem>,
}

/// One problem, in one file of the site.
pub(super) struct Problem {
    pub(super) file: String,
    pub(super) line: Option<usize>,
    pub(super) what: String,
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
    pub(super) fn summary(&self, book_dir: &Path) -> String {
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

    pub(super) fn into_result(self, book_dir: &Path) -> Result {
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
