//! The widget bundle, for the book and for embedding: the files `book/embed/`
//! holds, assembled from wasm-bindgen's output and `widgets/embed/`.
//!
//! - `tcp_widgets_bg.wasm`: the simulator and widgets (written by
//!   `build::widgets`).
//! - `tcp-widget.js`: the `<tcp-widget>` custom element, with its shadow
//!   root's own rules (embed.css) and wasm-bindgen's glue inside it; it
//!   fetches the wasm from beside itself. Form (b), and what the book's own
//!   pages load.
//! - `tcp-widget.css`: the widgets' stylesheet (theme/widgets.css), which
//!   the element links into its shadow root; on the book's pages it links
//!   the book's own copy instead, and a self-contained file has it inline.
//! - `<widget>.html`: a page for an iframe, reading its settings from its
//!   query string and telling the parent its height. Form (a).
//! - `<widget>.standalone.html`: the same page with everything inline,
//!   the wasm included (gzipped, base64), for opening from disk or for hosts
//!   that take only inline content. Form (c).
//!
//! - `tcp_widgets_wasm.js`: the gzipped wasm (base64) as a classic script,
//!   which `tcp-widget.js` loads instead of the wasm on `file://`, where
//!   Chromium refuses to fetch a `.wasm` file.
//! - `tcp-widget-words.en.js`: the widgets' words (titles, help, notes,
//!   view names; `widget_catalogue::words`), which `tcp-widget.js` loads
//!   before any widget mounts, on every page; inline in a self-contained
//!   file. One file per language.
//! - `frame.js`: the iframe page's start-up script.
//! - `tcp-widget-frames.js`: for the page that holds the iframes: sizes them
//!   to their widgets and passes on the page's colour scheme.
//!
//! The scripts are minified with terser, the stylesheet inside
//! `tcp-widget.js` with csso (both pinned in `xtask/npm`): before, the glue,
//! the element and the stylesheet were about a quarter of what a page
//! transfers.
//!
//! Written to `src/embed/` (git-ignored) so that mdBook copies them into the
//! site, and `mdbook serve` keeps them.

use crate::build::{gzip, write_if_changed as write};
use crate::sh::{self, Result};
use base64::Engine;
use std::fs;
use std::path::Path;
use widget_catalogue::words::js_string;

/// The widgets' words (`crate::words`), beside the wasm.
pub const WORDS_FILE: &str = "embed/tcp-widget-words.en.js";

pub fn build() -> Result {
    let root = sh::root();
    crate::build::appendix_pages()?;
    let out = root.join("src/embed");
    let sources = root.join("widgets/embed");
    let glue = without_script_src(&read(&crate::wasm::pkg().join("tcp_widgets.js"))?)?;
    let wasm = fs::read(out.join("tcp_widgets_bg.wasm")).map_err(|e| format!("wasm: {e}"))?;
    // The widgets' stylesheet is a file of its own (a book page has it
    // already); the element carries only embed.css, its shadow root's rules.
    let widgets_css = minify_css(&read(&root.join("theme/widgets.css"))?)?;
    let css = minify_css(&read(&sources.join("embed.css"))?)?;
    let element = read(&sources.join("element.js"))?
        .replacen("/*@CSS@*/\"\"", &js_string(&css), 1)
        .replacen("/*@GLUE@*/", &glue, 1);
    let element = minify("tcp-widget.js", &element)?;
    let frame = minify("frame.js", &read(&sources.join("frame.js"))?)?;
    let frames = minify("frames.js", &read(&sources.join("frames.js"))?)?;
    let page = read(&sources.join("page.html"))?;
    let inline_wasm = format!(
        "window.tcpWidgetsWasmGzip = {};\n",
        js_string(&base64::engine::general_purpose::STANDARD.encode(gzip(&wasm)))
    );
    write(&out.join("tcp_widgets_wasm.js"), inline_wasm.as_bytes())?;
    write(&out.join("tcp-widget.js"), element.as_bytes())?;
    write(&out.join("frame.js"), frame.as_bytes())?;
    write(&out.join("tcp-widget-frames.js"), frames.as_bytes())?;
    write(&out.join("tcp-widget.css"), widgets_css.as_bytes())?;
    let words = widget_catalogue::words::script("en", widget_catalogue::WIDGETS);
    let words_file = sh::root().join("src").join(WORDS_FILE);
    write(&words_file, words.as_bytes())?;
    let mut sizes = vec![
        (
            "tcp-widget.js",
            "the `<tcp-widget>` element: code and styles",
            element.len(),
            gzip(element.as_bytes()).len(),
        ),
        (
            "tcp_widgets_bg.wasm",
            "the simulator and widgets, compiled to WebAssembly",
            wasm.len(),
            gzip(&wasm).len(),
        ),
        (
            "tcp_widgets_wasm.js",
            "the same wasm inside a script (see below)",
            inline_wasm.len(),
            gzip(inline_wasm.as_bytes()).len(),
        ),
        (
            "tcp-widget.css",
            "the widgets' stylesheet, which `<tcp-widget>` links into its shadow root",
            widgets_css.len(),
            gzip(widgets_css.as_bytes()).len(),
        ),
        (
            "tcp-widget-words.en.js",
            "the widgets' words (titles, help, notes, view names), which the element loads beside the wasm",
            words.len(),
            gzip(words.as_bytes()).len(),
        ),
        (
            "frame.js",
            "the iframe page's start-up script",
            frame.len(),
            gzip(frame.as_bytes()).len(),
        ),
        (
            "tcp-widget-frames.js",
            "sizes the iframes (a) on the page that holds them",
            frames.len(),
            gzip(frames.as_bytes()).len(),
        ),
    ];
    for w in widget_catalogue::WIDGETS {
        let fill = |scripts: &str, boot: &str| {
            page.replace("@NAME@", w.name)
                .replace("@TITLE@", w.title)
                .replace("@SCRIPTS@", scripts)
                .replace("@FRAME@", boot)
        };
        let linked = fill(
            "<script src=\"tcp-widget.js\"></script>",
            "<script src=\"frame.js\"></script>",
        );
        write(&out.join(format!("{}.html", w.name)), linked.as_bytes())?;
        if w.name == widget_catalogue::WIDGETS[0].name {
            sizes.push((
                "<widget>.html",
                "the iframe page (a), one per widget",
                linked.len(),
                gzip(linked.as_bytes()).len(),
            ));
        }
        let own_words = widget_catalogue::words::script("en", std::slice::from_ref(w));
        let inline = fill(
            &format!(
                "<script>{}</script>\n<script>{}</script>\n<script>{}</script>\n<script>{}</script>",
                inline_script(&inline_wasm)?,
                inline_script(&format!(
                    "window.tcpWidgetsCss = {};",
                    js_string(&widgets_css)
                ))?,
                inline_script(&own_words)?,
                inline_script(&element)?
            ),
            &format!("<script>{}</script>", inline_script(&frame)?),
        );
        write(
            &out.join(format!("{}.standalone.html", w.name)),
            inline.as_bytes(),
        )?;
        if w.name == widget_catalogue::WIDGETS[0].name {
            sizes.push((
                "<widget>.standalone.html",
                "the self-contained file (c), one per widget",
                inline.len(),
                gzip(inline.as_bytes()).len(),
            ));
        }
    }
    crate::build::write_generated("embed-files.md", &size_table(&sizes))
}

/// wasm-bindgen's glue without its `script_src`: it resolves the running
/// script's URL at load, to find the wasm when it is given none. The
/// element always gives it one (`wasmSource` in element.js), and in an
/// `<iframe srcdoc>` or a blob: document, where a self-contained file is
/// shown, that resolving threw (`Failed to construct 'URL'`) and no widget
/// started. A glue without the statement (a new wasm-bindgen) fails the build.
fn without_script_src(glue: &str) -> Result<String> {
    const RESOLVE: &str =
        "script_src = new URL(document.currentScript.src, location.href).toString();";
    if !glue.contains(RESOLVE) {
        return Err(format!(
            "wasm-bindgen's glue no longer has `{RESOLVE}`: see embed::without_script_src"
        ));
    }
    Ok(glue.replacen(RESOLVE, "", 1))
}

/// The "Hosting the files" table of the embedding appendix: each file of
/// `embed/` with its size as built, raw and gzip -9 (the first widget's
/// pages stand for every widget's).
fn size_table(files: &[(&str, &str, usize, usize)]) -> String {
    let kb = |n: usize| {
        let k = n as f64 / 1000.0;
        if k < 10.0 {
            format!("{k:.1} KB")
        } else {
            format!("{k:.0} KB")
        }
    };
    let mut out = String::from("| File | What it is | Size (raw / gzip) |\n| --- | --- | --- |\n");
    for (name, what, raw, gz) in files {
        out.push_str(&format!(
            "| `{name}` | {what} | {} / {} |\n",
            kb(*raw),
            kb(*gz)
        ));
    }
    out
}

/// `js` through terser: compressed, local names shortened, and ASCII only
/// (escapes instead of other characters, so a page in another encoding
/// reads the strings right). `name` names the file in `target/wasm-pkg/`
/// that holds the unminified script.
pub fn minify(name: &str, js: &str) -> Result<String> {
    let dir = crate::wasm::pkg();
    let (full, min) = (dir.join(name), dir.join(format!("{name}.min")));
    fs::write(&full, js).map_err(|e| format!("writing {}: {e}", full.display()))?;
    let terser = sh::root().join("xtask/npm/node_modules/.bin/terser");
    let mut c = sh::cmd(terser.to_str().unwrap());
    c.arg(&full)
        .args(["--compress", "--mangle", "--format", "ascii_only=true"])
        .arg("-o")
        .arg(&min);
    sh::run(c)?;
    read(&min)
}

/// The widget stylesheet through csso without restructuring: comments and
/// spaces go, values get their shortest spelling, every rule stays where it
/// was written.
fn minify_css(css: &str) -> Result<String> {
    let full = crate::wasm::pkg().join("widgets.css");
    fs::write(&full, css).map_err(|e| format!("writing {}: {e}", full.display()))?;
    const SCRIPT: &str = "const css = require('fs').readFileSync(process.argv[1], 'utf8'); \
        process.stdout.write(require('csso').minify(css, { restructure: false }).css);";
    let out = sh::cmd("node")
        .current_dir(sh::root().join("xtask/npm"))
        .args(["-e", SCRIPT])
        .arg(&full)
        .output()
        .map_err(|e| format!("could not start node for csso: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "csso failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("csso wrote no UTF-8: {e}"))
}

fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))
}

/// Script text to inline in HTML: it must not contain `</script` (which would
/// end the element early) or `<!--` (which changes how it is parsed).
fn inline_script(js: &str) -> Result<&str> {
    let lower = js.to_ascii_lowercase();
    if lower.contains("</script") || lower.contains("<!--") {
        return Err("a script to inline contains `</script` or `<!--`".into());
    }
    Ok(js)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_scripts_cannot_close_their_element() {
        let s = js_string("a\"b\\c\n</style></script>");
        assert!(inline_script(&format!("var x = {s};")).is_ok());
        assert!(inline_script("x = '</SCRIPT>'").is_err());
    }
}
