//! The preprocessor inside a real `mdbook build`: a good directive becomes a
//! placeholder, a bad one fails the build with the chapter, the directive and
//! the key. Needs `mdbook` on PATH (`cargo xtask test` installs it first).

use std::path::{Path, PathBuf};
use std::process::Command;

fn preprocessor() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_mdbook-widgets"))
}

fn mdbook() -> PathBuf {
    let bin = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cargo")
        });
    let candidates = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .chain([bin.join("bin")]);
    for dir in candidates {
        let p = dir.join("mdbook");
        if p.is_file() {
            return p;
        }
    }
    panic!("mdbook is not installed: run `cargo xtask test`, which installs it");
}

/// Writes a one-chapter book using our preprocessor and builds it.
fn build(name: &str, chapter: &str) -> (bool, String, PathBuf) {
    let dir =
        std::env::temp_dir().join(format!("mdbook-widgets-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("book.toml"),
        format!(
            "[book]\ntitle = \"t\"\n\n[preprocessor.widgets]\ncommand = \"{}\"\n",
            preprocessor().display()
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("src/SUMMARY.md"),
        "# Summary\n\n- [Chapter](chapter.md)\n",
    )
    .unwrap();
    std::fs::write(dir.join("src/chapter.md"), chapter).unwrap();
    let out = Command::new(mdbook())
        .arg("build")
        .arg(&dir)
        .output()
        .expect("mdbook runs");
    let log =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    (out.status.success(), log, dir)
}

fn read(dir: &Path, file: &str) -> String {
    std::fs::read_to_string(dir.join("book").join(file)).unwrap()
}

#[test]
fn a_valid_directive_becomes_a_placeholder_in_the_built_page() {
    let (ok, log, dir) = build(
        "valid",
        "# Chapter\n\n{{#widget slow-start preset=seed-7ms rtt=5ms}}\n",
    );
    assert!(ok, "{log}");
    let html = read(&dir, "chapter.html");
    assert!(
        html.contains(r#"data-widget="slow-start" data-preset="seed-7ms" data-rtt="5ms""#),
        "{html}"
    );
    assert!(html.contains("<noscript>"));
}

#[test]
fn an_out_of_range_value_fails_the_build_naming_chapter_directive_and_key() {
    let (ok, log, _) = build(
        "range",
        "# Chapter\n\ntext\n\n{{#widget slow-start initcwnd=1000}}\n",
    );
    assert!(!ok, "the build must fail");
    assert!(
        log.contains("chapter.md:5"),
        "names the chapter and line: {log}"
    );
    assert!(
        log.contains("{{#widget slow-start initcwnd=1000}}"),
        "names the directive: {log}"
    );
    assert!(log.contains("parameter `initcwnd`"), "names the key: {log}");
}

#[test]
fn an_unknown_widget_fails_the_build() {
    let (ok, log, _) = build("unknown", "# Chapter\n\n{{#widget slow-stat}}\n");
    assert!(!ok);
    assert!(log.contains("unknown widget `slow-stat`"), "{log}");
}
