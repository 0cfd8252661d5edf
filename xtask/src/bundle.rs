//! The widget bundle's contract, enforced by `cargo xtask build`:
//!
//! - the whole-book core widget bundle (every JS and wasm file that any
//!   book page loads for its widgets and teaching kit, each counted once,
//!   gzip -9) stays under [`CEILING`];
//! - no function of a banned family is linked into the wasm
//!   (`crate::banned`, checked as the wasm is built).
//!
//! This module is the one place the bundle is measured: `cargo xtask bench`
//! prints the figure this writes to `target/bench/bundle.json`, and checks
//! that the browser loaded no widget file this measure missed.

use crate::build::gzip;
use crate::sh::{self, Result};
use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The whole book's widget JS and wasm, gzip -9, at most. A ceiling, not a
/// target: it was raised from 300,000 B so that the simulator's hot paths
/// can have the data structures their sizes need (a `BTreeMap`, a priority
/// queue) instead of being traded for bytes.
pub const CEILING: usize = 320_000;

/// Files the widgets' loader fetches itself (beside the `<script src>` of
/// each page): the element with its glue, the wasm, and the widgets' words.
pub const LOADER_FILES: &[&str] = &[
    "embed/tcp-widget.js",
    "embed/tcp_widgets_bg.wasm",
    crate::embed::WORDS_FILE,
];

/// A widget file, as the bench counts them: the bundle, the loader and the
/// teaching kit's script every page includes.
pub fn is_widget_file(path: &str) -> bool {
    let script = path.ends_with(".js") || path.ends_with(".wasm");
    script
        && (path.starts_with("embed/")
            || path.starts_with("theme/widgets-loader")
            || path.starts_with("theme/teach"))
}

/// One file of the bundle.
pub struct File {
    pub path: String,
    pub raw: usize,
    pub gzip: usize,
}

/// Every widget file any page of the built book at `book` loads, with its
/// size: each page's widget `<script src>` files, and [`LOADER_FILES`] for a
/// page with a widget placeholder. `print.html` shows build-time figures
/// only (the loader stops there), and `embed/` holds the embed forms, whose
/// files are the same ones.
pub fn files(book: &Path) -> Result<Vec<File>> {
    let mut paths = BTreeSet::new();
    for page in pages(book, book)? {
        let html = fs::read_to_string(&page).map_err(|e| format!("{}: {e}", page.display()))?;
        let dir = page.parent().expect("a page is in a folder");
        for src in html.split("<script src=\"").skip(1) {
            let src = src.split('"').next().unwrap_or("");
            let src = src.split(['?', '#']).next().unwrap_or(src);
            if src.contains("://") {
                continue; // check-output fails those
            }
            if let Some(path) = relative(book, &dir.join(src))
                && is_widget_file(&path)
            {
                paths.insert(path);
            }
        }
        // A page's own script may add a widget file itself (the embedding
        // appendix adds the frames' resizer): `path_to_root + "embed/…"`,
        // relative to the book's root.
        for src in html.split("path_to_root + \"").skip(1) {
            let src = src.split('"').next().unwrap_or("");
            if let Some(path) = relative(book, &book.join(src))
                && is_widget_file(&path)
            {
                paths.insert(path);
            }
        }
        let name = page.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name != "print.html" && html.contains("class=\"tcp-widget\"") {
            paths.extend(LOADER_FILES.iter().map(|f| f.to_string()));
        }
    }
    paths
        .into_iter()
        .map(|path| {
            let bytes = fs::read(book.join(&path)).map_err(|e| format!("book/{path}: {e}"))?;
            Ok(File {
                raw: bytes.len(),
                gzip: gzip(&bytes).len(),
                path,
            })
        })
        .collect()
}

/// The book's pages, `embed/` left out.
fn pages(book: &Path, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            if path != book.join("embed") {
                out.extend(pages(book, &path)?);
            }
        } else if path.extension().is_some_and(|e| e == "html") {
            out.push(path);
        }
    }
    Ok(out)
}

/// `path` relative to `book`, with `..` resolved; `None` outside it.
fn relative(book: &Path, path: &Path) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for c in path.strip_prefix(book).ok()?.components() {
        match c {
            Component::Normal(p) => parts.push(p.to_str()?.to_string()),
            Component::ParentDir => {
                parts.pop()?;
            }
            _ => {}
        }
    }
    Some(parts.join("/"))
}

/// Measures the whole-book bundle of `book`, writes it to
/// `target/bench/bundle.json`, prints it, and fails over [`CEILING`].
pub fn check(book: &Path) -> Result {
    check_into(book, &sh::root().join("target/bench"), CEILING)
}

/// [`check`], writing `bundle.json` into `out`, against `ceiling`.
fn check_into(book: &Path, out: &Path, ceiling: usize) -> Result {
    let files = files(book)?;
    let (raw, gz) = files
        .iter()
        .fold((0, 0), |(r, g), f| (r + f.raw, g + f.gzip));
    println!(
        "\nwhole-book core widget bundle (every widget JS and wasm file any page loads, gzip -9):"
    );
    for f in &files {
        println!("  {:<48} {:>10} {:>10}", f.path, f.raw, f.gzip);
    }
    let verdict = if gz <= ceiling { "under" } else { "OVER" };
    println!(
        "  {:<48} {raw:>10} {gz:>10}  ({verdict} the ceiling of {ceiling} B)",
        "total"
    );
    fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let rows: Vec<String> = (files.iter())
        .map(|f| {
            format!(
                "{{\"path\":\"{}\",\"raw\":{},\"gzip\":{}}}",
                f.path, f.raw, f.gzip
            )
        })
        .collect();
    let json = format!(
        "{{\"ceiling_gzip\":{ceiling},\"raw\":{raw},\"gzip\":{gz},\"files\":[{}]}}\n",
        rows.join(",")
    );
    fs::write(out.join("bundle.json"), json).map_err(|e| format!("bundle.json: {e}"))?;
    if gz > ceiling {
        return Err(format!(
            "the whole-book widget bundle is {gz} B gzip, over its ceiling of {ceiling} B \
             ({} B over): see the table above for each file",
            gz - ceiling
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widget_files_are_the_embed_folder_the_loader_and_the_teaching_kit() {
        assert!(is_widget_file("embed/tcp-widget.js"));
        assert!(is_widget_file("embed/tcp_widgets_bg.wasm"));
        assert!(is_widget_file("theme/widgets-loader-0a1b.js"));
        assert!(is_widget_file("theme/teach-0a1b.js"));
        assert!(!is_widget_file("book-abc.js"));
        assert!(!is_widget_file("embed/tcp-widget.css"));
    }

    /// A built book in a temporary folder: two pages, one with a widget;
    /// `wasm` bytes of incompressible data as the wasm.
    fn book_with(wasm: usize) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bundle-test-{}-{wasm}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for sub in ["embed", "theme", "sub"] {
            fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let script = |src: &str| format!("<script src=\"{src}\"></script>");
        let page = format!(
            "{}{}<div class=\"tcp-widget\" data-widget=\"x\"></div>",
            script("theme/teach-1.js"),
            script("book.js")
        );
        fs::write(dir.join("chapter.html"), page).unwrap();
        let nested = script("../theme/widgets-loader-1.js")
            + "<script>s.src = path_to_root + \"embed/frames-1.js\";</script>";
        fs::write(dir.join("sub/other.html"), nested).unwrap();
        // Not counted: embed/ pages are the embed forms, whose files the
        // loader's list holds.
        fs::write(dir.join("embed/page.html"), script("embed/unused.js")).unwrap();
        let mut noise = Vec::with_capacity(wasm);
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..wasm {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            noise.push(x as u8);
        }
        fs::write(dir.join("embed/tcp_widgets_bg.wasm"), noise).unwrap();
        for f in ["theme/teach-1.js", "theme/widgets-loader-1.js", "book.js"] {
            fs::write(dir.join(f), "var a = 1;").unwrap();
        }
        for f in [
            "embed/tcp-widget.js",
            "embed/frames-1.js",
            crate::embed::WORDS_FILE,
        ] {
            fs::write(dir.join(f), "var b = 2;").unwrap();
        }
        dir
    }

    #[test]
    fn the_bundle_is_every_widget_file_any_page_loads_once() {
        let book = book_with(1000);
        let paths: Vec<String> = files(&book).unwrap().into_iter().map(|f| f.path).collect();
        assert_eq!(
            paths,
            [
                "embed/frames-1.js",
                "embed/tcp-widget-words.en.js",
                "embed/tcp-widget.js",
                "embed/tcp_widgets_bg.wasm",
                "theme/teach-1.js",
                "theme/widgets-loader-1.js"
            ]
        );
        fs::remove_dir_all(book).unwrap();
    }

    #[test]
    fn a_bundle_over_its_ceiling_fails_naming_its_size() {
        let book = book_with(50_000);
        let out = book.join("out");
        let err = check_into(&book, &out, 40_000).unwrap_err();
        assert!(err.contains("over its ceiling of 40000 B"), "{err}");
        let gzip: usize = files(&book).unwrap().iter().map(|f| f.gzip).sum();
        assert!(gzip > 50_000, "incompressible: {gzip}");
        assert!(err.contains(&format!("is {gzip} B gzip")), "{err}");
        let json = fs::read_to_string(out.join("bundle.json")).unwrap();
        assert!(json.contains(&format!("\"gzip\":{gzip}")), "{json}");
        assert!(check_into(&book, &out, 60_000).is_ok());
        fs::remove_dir_all(book).unwrap();
    }

    #[test]
    fn script_paths_resolve_against_their_page() {
        let book = Path::new("/b");
        assert_eq!(
            relative(book, Path::new("/b/sub/../theme/teach.js")).as_deref(),
            Some("theme/teach.js")
        );
        assert_eq!(relative(book, Path::new("/b/../x.js")), None);
    }
}
