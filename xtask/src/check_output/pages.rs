//! The size limit of HTML pages, and the largest page for the summary.

use super::report::{Problem, Report};

/// Largest HTML page allowed, in bytes. "Under 1 MB" read as the decimal
/// megabyte (1,000,000 bytes), the stricter of the two readings.
const MAX_PAGE_BYTES: u64 = 1_000_000;

pub(super) fn check_page_size(name: &str, bytes: u64, report: &mut Report) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_size_limit() {
        assert_eq!(page_size_problem(999_999), None);
        let problem = page_size_problem(1_200_000).expect("1.2 MB is too big");
        assert!(problem.contains("1200000 bytes"), "{problem}");
    }
}
