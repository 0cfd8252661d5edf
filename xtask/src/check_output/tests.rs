//! The whole check, run on throwaway book directories.

use std::fs;
use std::path::PathBuf;

use super::embeds::{SHARED_EMBED_SCRIPT, expected_embeds};
use super::run;

/// A throwaway book directory, removed when dropped.
struct TempBook(PathBuf);

impl TempBook {
    fn new(tag: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("xtask-check-output-{tag}-{}", std::process::id()));
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
