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
    // The figure: written into the source, copied into the built book, shown
    // by the placeholder.
    let src = html.split("<img src=\"").nth(1).expect("an <img>");
    let src = &src[..src.find('"').unwrap()];
    assert!(src.starts_with("generated/figures/slow-start-"), "{src}");
    let built = std::fs::read_to_string(dir.join("book").join(src)).unwrap();
    assert!(built.starts_with("<svg") && built.contains("time (ms)"));
    assert_eq!(
        built,
        std::fs::read_to_string(dir.join("src").join(src)).unwrap()
    );
}

#[test]
fn figures_are_rewritten_only_when_they_change_and_stale_ones_go() {
    let (ok, log, dir) = build("rebuild", "# Chapter\n\n{{#widget slow-start}}\n");
    assert!(ok, "{log}");
    let figures = dir.join("src/generated/figures");
    let listing = || {
        let mut names: Vec<String> = std::fs::read_dir(&figures)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let first = listing();
    assert_eq!(first.len(), 1, "{first:?}");
    let path = figures.join(&first[0]);
    let written = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(50));
    let rebuild = |chapter: &str| {
        std::fs::write(dir.join("src/chapter.md"), chapter).unwrap();
        let out = Command::new(mdbook())
            .arg("build")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    // Same directive, other text: the file is not touched (`mdbook serve`
    // would otherwise see a change for every build).
    rebuild("# Chapter\n\nNew text.\n\n{{#widget slow-start}}\n");
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        written
    );
    // Changed arguments: a new file, and the old one is gone from the source
    // and from the book.
    rebuild("# Chapter\n\n{{#widget slow-start rtt=20ms}}\n");
    let second = listing();
    assert_eq!(second.len(), 1, "{second:?}");
    assert_ne!(second, first);
    assert!(!dir.join("book/generated/figures").join(&first[0]).exists());
    assert!(read(&dir, "chapter.html").contains(&second[0]));
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
fn an_unknown_control_fails_the_build_naming_it() {
    let (ok, log, _) = build(
        "controls",
        "# Chapter\n\n{{#widget long-fat controls=cc,rtt,speed}}\n",
    );
    assert!(!ok, "the build must fail");
    assert!(
        log.contains("chapter.md:3"),
        "names the chapter and line: {log}"
    );
    assert!(
        log.contains("unknown control `speed`"),
        "names the control: {log}"
    );
    assert!(log.contains("bandwidth"), "lists the known ones: {log}");
}

#[test]
fn an_unknown_widget_fails_the_build() {
    let (ok, log, _) = build("unknown", "# Chapter\n\n{{#widget slow-stat}}\n");
    assert!(!ok);
    assert!(log.contains("unknown widget `slow-stat`"), "{log}");
}
