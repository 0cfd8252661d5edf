//! The widget bundle's contract, enforced by `cargo xtask build`:
//!
//! - the whole-book core widget bundle (every JS and wasm file that any
//!   book page loads for its widgets and teaching kit, each counted once,
//!   gzip -9) stays under [`CEILING`];
//! - no function of a [`BANNED`] family is linked into the wasm.
//!
//! This module is the one place the bundle is measured: `cargo xtask bench`
//! prints the figure this writes to `target/bench/bundle.json`, and checks
//! that the browser loaded no widget file this measure missed.

use crate::build::gzip;
use crate::sh::{self, Result};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fs;
use std::path::{Component, Path, PathBuf};
use wasmparser::{Name, NameSectionReader, Operator, Parser, Payload};

/// The whole book's widget JS and wasm, gzip -9, at most. A ceiling, not a
/// target: it was raised from 300,000 B so that the simulator's hot paths
/// can have the data structures their sizes need (a `BTreeMap`, a priority
/// queue) instead of being traded for bytes.
pub const CEILING: usize = 320_000;

/// Families of functions that must stay out of the wasm, each matched
/// against the demangled names in the wasm's name section, with the reason.
/// The widgets format and parse numbers with their own code (`widgets/src/units.rs`,
/// `sim_core::units`), which knows the few forms a reader sees.
pub const BANNED: &[(&str, &str)] = &[
    (
        "core::fmt::float",
        "std's float formatting (`{}` or `{:.1}` on an f32/f64): it links Grisu and Dragon4, \
         about 10 KB gzip; use the widgets' own number formatting (widgets/src/units.rs)",
    ),
    (
        "core::num::flt2dec",
        "std's float-to-decimal conversion (Grisu, Dragon4), behind float formatting",
    ),
    (
        "core::num::dec2flt",
        "std's float parsing (`str::parse::<f64>`): about 6 KB gzip; parse with the \
         catalogue's own reader (widget_catalogue::param)",
    ),
];

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

/// Fails when a banned function is in `wasm` (which must still have its
/// name section), naming each one and the nearest functions of ours that
/// call it.
pub fn check_functions(wasm: &[u8]) -> Result {
    let functions = read_functions(wasm)?;
    if functions.names.is_empty() {
        return Err(
            "the widget wasm has no name section: the banned-function check needs it".into(),
        );
    }
    let found: Vec<(u32, &str)> = (functions.names.iter())
        .filter_map(|(i, name)| banned_family(name).map(|_| (*i, name.as_str())))
        .collect();
    if found.is_empty() {
        return Ok(());
    }
    let mut message = String::from("the widget wasm links functions that must stay out of it:\n");
    let mut families = BTreeSet::new();
    for (index, name) in &found {
        let family = banned_family(name).expect("found by it");
        families.insert(family);
        message.push_str(&format!("  {name}\n"));
        let callers = nearest_callers(&functions, *index);
        if !callers.is_empty() {
            message.push_str(&format!("    reached from: {}\n", callers.join(", ")));
        }
    }
    for (family, why) in BANNED.iter().filter(|(f, _)| families.contains(f)) {
        message.push_str(&format!("{family}: {why}\n"));
    }
    Err(message)
}

fn banned_family(name: &str) -> Option<&'static str> {
    BANNED
        .iter()
        .map(|(family, _)| *family)
        .find(|family| name.contains(family))
}

/// Code that is the standard library's, which a chain of calls is followed
/// through to the code of ours (or of a crate we use) that made it.
fn is_std(name: &str) -> bool {
    [
        "core::",
        "alloc::",
        "std::",
        "<core::",
        "<alloc::",
        "<std::",
        "<f64 as core",
        "<f32 as core",
        "<&",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

struct Functions {
    /// Function index → demangled name.
    names: BTreeMap<u32, String>,
    /// Function index → the functions that call it directly.
    callers: BTreeMap<u32, BTreeSet<u32>>,
}

fn read_functions(wasm: &[u8]) -> Result<Functions> {
    let err = |e: wasmparser::BinaryReaderError| format!("reading the wasm: {e}");
    let mut names = BTreeMap::new();
    let mut callers: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let mut imported = 0u32;
    let mut body = 0u32;
    for payload in Parser::new(0).parse_all(wasm) {
        match payload.map_err(err)? {
            Payload::ImportSection(reader) => {
                for import in reader.into_imports() {
                    if matches!(import.map_err(err)?.ty, wasmparser::TypeRef::Func(_)) {
                        imported += 1;
                    }
                }
            }
            Payload::CodeSectionEntry(function) => {
                let caller = imported + body;
                body += 1;
                let mut ops = function.get_operators_reader().map_err(err)?;
                while !ops.eof() {
                    if let Operator::Call { function_index } = ops.read().map_err(err)? {
                        callers.entry(function_index).or_default().insert(caller);
                    }
                }
            }
            Payload::CustomSection(section) if section.name() == "name" => {
                let reader = NameSectionReader::new(wasmparser::BinaryReader::new(
                    section.data(),
                    section.data_offset(),
                ));
                for entry in reader {
                    if let Name::Function(map) = entry.map_err(err)? {
                        for naming in map {
                            let naming = naming.map_err(err)?;
                            // `{:#}`: without the hash suffix.
                            let name = format!("{:#}", rustc_demangle::demangle(naming.name));
                            names.insert(naming.index, name);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    Ok(Functions { names, callers })
}

/// The first functions outside the standard library on the chains of direct
/// calls that lead to `index` (a call through a function pointer, such as
/// `format_args!`'s, ends a chain there).
fn nearest_callers(functions: &Functions, index: u32) -> Vec<String> {
    let mut seen = BTreeSet::from([index]);
    let mut queue = VecDeque::from([index]);
    let mut ours = Vec::new();
    while let Some(f) = queue.pop_front() {
        for &caller in functions.callers.get(&f).into_iter().flatten() {
            if !seen.insert(caller) {
                continue;
            }
            let name = functions.names.get(&caller).map_or("?", String::as_str);
            if is_std(name) {
                queue.push_back(caller);
            } else if ours.len() < 6 {
                ours.push(name.to_string());
            }
        }
    }
    ours
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
    let verdict = if gz <= CEILING { "under" } else { "OVER" };
    println!(
        "  {:<48} {raw:>10} {gz:>10}  ({verdict} the ceiling of {CEILING} B)",
        "total"
    );
    let out = sh::root().join("target/bench");
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let rows: Vec<String> = (files.iter())
        .map(|f| {
            format!(
                "{{\"path\":\"{}\",\"raw\":{},\"gzip\":{}}}",
                f.path, f.raw, f.gzip
            )
        })
        .collect();
    let json = format!(
        "{{\"ceiling_gzip\":{CEILING},\"raw\":{raw},\"gzip\":{gz},\"files\":[{}]}}\n",
        rows.join(",")
    );
    fs::write(out.join("bundle.json"), json).map_err(|e| format!("bundle.json: {e}"))?;
    if gz > CEILING {
        return Err(format!(
            "the whole-book widget bundle is {gz} B gzip, over its ceiling of {CEILING} B \
             ({} B over): see the table above for each file",
            gz - CEILING
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

    #[test]
    fn script_paths_resolve_against_their_page() {
        let book = Path::new("/b");
        assert_eq!(
            relative(book, Path::new("/b/sub/../theme/teach.js")).as_deref(),
            Some("theme/teach.js")
        );
        assert_eq!(relative(book, Path::new("/b/../x.js")), None);
    }

    /// A module of three functions, named as rustc would: `ours` calls
    /// `<f64 as Display>::fmt`, which calls std's float formatting.
    fn module_calling_float_formatting() -> Vec<u8> {
        use wasm_encoder::{
            CodeSection, Function, FunctionSection, IndirectNameMap, Instruction, Module, NameMap,
            NameSection, TypeSection,
        };
        let mut types = TypeSection::new();
        types.ty().function([], []);
        let mut functions = FunctionSection::new();
        let mut code = CodeSection::new();
        for calls in [None, Some(0), Some(1)] {
            functions.function(0);
            let mut f = Function::new([]);
            if let Some(callee) = calls {
                f.instruction(&Instruction::Call(callee));
            }
            f.instruction(&Instruction::End);
            code.function(&f);
        }
        let mut names = NameMap::new();
        // Mangled, as the linker writes them.
        names.append(
            0,
            "_ZN4core3fmt5float29float_to_decimal_common_exact17h0123456789abcdefE",
        );
        names.append(1, "_ZN4core3fmt5float52_$LT$impl$u20$core..fmt..Display$u20$for$u20$f64$GT$3fmt17h0123456789abcdefE");
        names.append(2, "_ZN11tcp_widgets5units6labels17h0123456789abcdefE");
        let mut section = NameSection::new();
        section.functions(&names);
        section.locals(&IndirectNameMap::new());
        let mut module = Module::new();
        module
            .section(&types)
            .section(&functions)
            .section(&code)
            .section(&section);
        module.finish()
    }

    #[test]
    fn a_float_formatting_call_fails_naming_the_function_and_its_caller() {
        let err = check_functions(&module_calling_float_formatting()).unwrap_err();
        assert!(
            err.contains("core::fmt::float::float_to_decimal_common_exact"),
            "{err}"
        );
        assert!(
            err.contains("reached from: tcp_widgets::units::labels"),
            "{err}"
        );
        assert!(err.contains("Grisu"), "{err}");
    }

    #[test]
    fn a_wasm_without_names_cannot_pass_the_check() {
        let empty = wasm_encoder::Module::new().finish();
        assert!(
            check_functions(&empty)
                .unwrap_err()
                .contains("no name section")
        );
    }

    #[test]
    fn float_formatting_is_a_banned_family_and_the_simulator_is_not() {
        assert_eq!(
            banned_family("core::fmt::float::float_to_decimal_common_shortest"),
            Some("core::fmt::float")
        );
        assert_eq!(
            banned_family("core::num::dec2flt::dec2flt"),
            Some("core::num::dec2flt")
        );
        assert_eq!(banned_family("sim_core::sim::Simulation::step"), None);
    }
}
