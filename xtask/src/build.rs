//! Building the site: the widget bundle (`crate::wasm`), KaTeX's stylesheet
//! and fonts, then `mdbook build` into `book/`, then the bundle's ceiling
//! (`crate::bundle`), which fails the build when it is over.
//!
//! Generated files go to `src/generated/` (git-ignored), which mdBook copies
//! into the site like any other non-Markdown file in `src/`.

use crate::sh::{self, Result};
use crate::tools::{self, Need};
use flate2::Compression;
use flate2::write::GzEncoder;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

pub fn run() -> Result<Vec<Transfer>> {
    tools::ensure(Need::Build)?;
    all()
}

/// Everything after the tools: widgets, KaTeX assets, the book, the size report.
/// Fails when the bundle is over its ceiling or links a banned function.
pub fn all() -> Result<Vec<Transfer>> {
    let report = site()?;
    crate::bundle::check(&sh::root().join("book"))?;
    Ok(report)
}

/// The site, with its size report but not the bundle's ceiling (`serve`
/// warns about that instead of refusing to serve).
pub fn site() -> Result<Vec<Transfer>> {
    preprocessor_compiling_beside(inputs)?;
    book()?;
    let report = page_transfer("slow-start.html")?;
    print_transfer("slow-start.html", &report);
    Ok(report)
}

/// Everything `mdbook build` reads that is generated: the preset values,
/// the widget bundle and KaTeX's assets (`serve` runs this, then lets
/// `mdbook serve` build the book once).
pub fn inputs() -> Result {
    preset_values()?;
    widgets()?;
    katex_assets()
}

/// Runs `work` while the book's preprocessor compiles in a second process,
/// into the target folder and profile `book.toml`'s `cargo run` uses, so
/// that `mdbook build` finds it built. The wasm build spends long stretches
/// on one core (fat LTO in one codegen unit, then wasm-opt); the
/// preprocessor's compile fills the other.
pub fn preprocessor_compiling_beside(work: impl FnOnce() -> Result) -> Result {
    let mut c = sh::cmd("cargo");
    c.args(["build", "--quiet", "--locked", "--profile", "tools"])
        .arg("--target-dir")
        .arg(sh::root().join("target/tools-build"))
        .args(["--package", "mdbook-widgets"]);
    println!(
        "$ cargo build --quiet --locked --profile tools --target-dir target/tools-build --package mdbook-widgets (beside the widgets)"
    );
    let mut child = c
        .spawn()
        .map_err(|e| format!("could not start the preprocessor's build: {e}"))?;
    let done = work();
    let status = child.wait().map_err(|e| e.to_string())?;
    done?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "the preprocessor (widgets/preprocessor) did not compile ({status})"
        ))
    }
}

/// The widget bundle and the files around it in `src/embed/`.
pub fn widgets() -> Result {
    crate::wasm::build()?;
    crate::embed::build()
}

pub fn generated() -> PathBuf {
    sh::root().join("src/generated")
}

/// Writes `src/generated/NAME`, which a page includes.
pub fn write_generated(name: &str, text: &str) -> Result {
    let dir = generated();
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    write_if_changed(&dir.join(name), text.as_bytes())
}

/// The catalogue's presets' values, generated from `scenarios/` and checked
/// in (`widget_catalogue::generate`): rewritten here when a scenario
/// changed, so the wasm built next has them.
pub fn preset_values() -> Result {
    let parse = |text: &str| {
        sim_core::scenario_file::parse(text)
            .map(|(_, scenario)| scenario)
            .map_err(|e| e.to_string())
    };
    let text = widget_catalogue::generate::preset_values(&parse)?;
    write_if_changed(
        &widget_catalogue::generate::preset_values_path(),
        text.as_bytes(),
    )
}

/// The appendices' generated parts, from the tables in code: the widgets'
/// parameter list ("Embedding a widget") and the Linux knobs reference.
pub fn appendix_pages() -> Result {
    write_generated(
        "widget-parameters.md",
        &widget_catalogue::reference::markdown(),
    )?;
    write_generated(
        "linux-knobs.md",
        &widget_catalogue::knob_reference::markdown(),
    )
}

/// Copies KaTeX's CSS and fonts from the npm package whose version matches the
/// KaTeX that mdbook-katex renders with, so the site needs no CDN.
pub fn katex_assets() -> Result {
    let dist = sh::root().join("xtask/npm/node_modules/katex/dist");
    let out = generated().join("katex");
    fs::create_dir_all(out.join("fonts")).map_err(|e| e.to_string())?;
    copy_if_changed(&dist.join("katex.min.css"), &out.join("katex.min.css"))?;
    for entry in fs::read_dir(dist.join("fonts")).map_err(|e| format!("KaTeX fonts: {e}"))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path
            .extension()
            .is_some_and(|e| e == "woff2" || e == "woff")
        {
            copy_if_changed(&path, &out.join("fonts").join(path.file_name().unwrap()))?;
        }
    }
    Ok(())
}

fn copy_if_changed(from: &Path, to: &Path) -> Result {
    let new = fs::read(from).map_err(|e| format!("reading {}: {e}", from.display()))?;
    write_if_changed(to, &new)
}

/// Writes only when the content differs, so `mdbook serve` does not rebuild for nothing.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> Result {
    if fs::read(path).ok().as_deref() == Some(bytes) {
        return Ok(());
    }
    fs::write(path, bytes).map_err(|e| format!("writing {}: {e}", path.display()))
}

pub fn book() -> Result {
    let mut c = sh::cmd("mdbook");
    c.args(["build", "--dest-dir", "book"]);
    sh::run(c)?;
    minify_theme_scripts(&sh::root().join("book/theme"))
}

/// The teaching kit's script and the widgets' loader (`theme/teach.js`,
/// `theme/widgets-loader.js`, readable in the repository) through terser in
/// the built book, as the embed scripts are (`crate::embed`): every page
/// loads them, and they count toward the widget bytes. mdBook names them
/// `teach-<hash>.js` and `widgets-loader-<hash>.js`; the hash stays the
/// source's, so it still changes when the script does. `mdbook serve`
/// serves them unminified.
fn minify_theme_scripts(dir: &Path) -> Result {
    let entries = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let Some(source) = ["teach", "widgets-loader"]
            .into_iter()
            .find(|s| name.starts_with(s) && name.ends_with(".js"))
        else {
            continue;
        };
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let min = crate::embed::minify(&format!("{source}.js"), &text)?;
        fs::write(&path, min).map_err(|e| format!("writing {}: {e}", path.display()))?;
    }
    Ok(())
}

/// One file a page loads.
pub struct Transfer {
    pub path: String,
    pub raw: usize,
    pub gzip: usize,
}

/// gzip at the best compression, as a server would send it (and as the
/// self-contained embeds carry the wasm).
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::best());
    enc.write_all(bytes).expect("in-memory write");
    enc.finish().expect("in-memory gzip")
}

/// The JS and wasm a page transfers: its `<script src>` files plus the widget
/// bundle the loader imports.
pub fn page_transfer(page: &str) -> Result<Vec<Transfer>> {
    let book = sh::root().join("book");
    let html =
        fs::read_to_string(book.join(page)).map_err(|e| format!("reading book/{page}: {e}"))?;
    let mut files: Vec<String> = html
        .split("<script src=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .map(|s| s.split('?').next().unwrap_or(s).to_string())
        .collect();
    files.extend(crate::bundle::LOADER_FILES.iter().map(|f| f.to_string()));
    let mut out = Vec::new();
    for f in files {
        let bytes = fs::read(book.join(&f)).map_err(|e| format!("book/{f}: {e}"))?;
        out.push(Transfer {
            raw: bytes.len(),
            gzip: gzip(&bytes).len(),
            path: f,
        });
    }
    Ok(out)
}

pub fn print_transfer(page: &str, files: &[Transfer]) {
    println!("\nJS + wasm transferred by {page}:");
    println!("  {:<48} {:>10} {:>10}", "file", "raw", "gzip");
    let (mut raw, mut gz, mut wraw, mut wgz) = (0, 0, 0, 0);
    for t in files {
        println!("  {:<48} {:>10} {:>10}", t.path, t.raw, t.gzip);
        raw += t.raw;
        gz += t.gzip;
        if t.path.starts_with("embed/")
            || t.path.contains("widgets-loader")
            || t.path.starts_with("theme/teach")
        {
            wraw += t.raw;
            wgz += t.gzip;
        }
    }
    println!(
        "  {:<48} {:>10} {:>10}",
        "widget loader + bundle", wraw, wgz
    );
    println!(
        "  {:<48} {:>10} {:>10}",
        "total (with mdBook's own scripts)", raw, gz
    );
}
