//! No text a reader can see is made with `{:?}`: `Debug` output is a
//! developer's view (quotes, escapes, field names), and `{:?}` of a float
//! would link std's float formatting, which the build refuses
//! (`xtask/src/bundle.rs`). This test reads the source of every crate in
//! the wasm and fails on a `{:?}`/`{x:?}` outside test code, outside
//! native-only files and outside a panic's or an assertion's message (a
//! panic is a bug report, not reader text).

use std::path::{Path, PathBuf};

/// The crates compiled into the widget wasm, by their `src` folders.
const SOURCES: &[&str] = &["src", "catalogue/src", "../sim-core/src"];

/// Files compiled for native code only (`cfg(not(target_arch = "wasm32"))`
/// in their crate's lib.rs): generators that write Rust and JavaScript.
const NATIVE_ONLY: &[&str] = &["catalogue/src/generate.rs", "catalogue/src/words.rs"];

/// Macros whose message only a developer reads.
const DEVELOPER_TEXT: &[&str] = &["panic!", "assert", "unreachable!", ".expect(", "todo!"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether `line` formats with `Debug`: a `{:?}`, `{name:?}` or `{:#?}`.
fn formats_debug(line: &str) -> bool {
    line.match_indices('{').any(|(i, _)| {
        let rest = &line[i + 1..];
        let spec = &rest[..rest.find('}').unwrap_or(0)];
        spec.ends_with(":?") || spec.ends_with(":#?")
    })
}

#[test]
fn no_reader_text_is_formatted_with_debug() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in SOURCES {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "read {} files", files.len());
    let mut found = Vec::new();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy();
        let in_tests = file.components().any(|c| c.as_os_str() == "tests");
        let native = NATIVE_ONLY.iter().any(|n| file.ends_with(n));
        if in_tests || native || name == "tests.rs" || name.ends_with("_tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // Test modules sit at the end of a file.
        let end = (lines.iter())
            .position(|l| l.trim() == "#[cfg(test)]")
            .unwrap_or(lines.len());
        for (i, line) in lines[..end].iter().enumerate() {
            if line.trim_start().starts_with("//") || !formats_debug(line) {
                continue;
            }
            // The macro may open a few lines above its message.
            let context = &lines[i.saturating_sub(4)..=i];
            let developer = context
                .iter()
                .any(|l| DEVELOPER_TEXT.iter().any(|m| l.contains(m)));
            if !developer {
                found.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "`{{:?}}` in reader text, empty in the wasm:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_debug_formatting() {
    assert!(formats_debug(r#"format!("{name:?} is not")"#));
    assert!(formats_debug(r#"format!("{:?}", x)"#));
    assert!(formats_debug(r#"format!("{:#?}", x)"#));
    assert!(!formats_debug(r#"format!("{name} is {:.3}", x)"#));
    assert!(!formats_debug("let s = Scenario { a: 1 };"));
}
