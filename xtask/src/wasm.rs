//! The widget wasm, built one way everywhere (`build`, `serve`, `test`,
//! `bench`):
//!
//! 1. `cargo build --profile wasm --target wasm32-unknown-unknown` (in
//!    `target/wasm-build`): the compiler the repository pins
//!    (`rust-toolchain.toml`), no extra flags and no extra environment, so
//!    switching between the commands recompiles nothing that did not change.
//! 2. The `wasm-bindgen` CLI at exactly Cargo.lock's version (installed by
//!    `crate::tools`): the JavaScript glue.
//! 3. The families of functions that must stay out of the wasm
//!    (`crate::banned::BANNED`), read from its name section.
//! 4. npm's binaryen `wasm-opt`, then short import names (`crate::imports`).
//!
//! wasm-pack did steps 1 and 2 only, and cost a multi-minute install.

use crate::sh::{self, Result};
use std::fs;
use std::path::{Path, PathBuf};

/// The widget crate's library, as cargo names its wasm.
const CRATE: &str = "tcp-widgets";
const TARGET: &str = "wasm32-unknown-unknown";
/// The Cargo profile the wasm alone is built with (see the workspace's
/// Cargo.toml: size first, `panic = "abort"`).
pub const PROFILE: &str = "wasm";
/// Its own target folder: cargo locks a target folder for a whole build, and
/// `cargo xtask test` builds the site while `cargo test` runs in `target/`.
const TARGET_DIR: &str = "target/wasm-build";

/// Where wasm-bindgen leaves the wasm and its JavaScript glue.
pub fn pkg() -> PathBuf {
    sh::root().join("target/wasm-pkg")
}

/// Builds the widget bundle: the wasm into `src/embed/`, the glue into
/// [`pkg`] for `crate::embed` to wrap.
pub fn build() -> Result {
    let root = sh::root();
    let mut cargo = sh::cmd("cargo");
    cargo.args([
        "build",
        "--locked",
        "--package",
        CRATE,
        "--lib",
        "--profile",
        PROFILE,
        "--target",
        TARGET,
    ]);
    cargo.arg("--target-dir").arg(root.join(TARGET_DIR));
    sh::run(cargo)?;
    let linked = root
        .join(TARGET_DIR)
        .join(TARGET)
        .join(PROFILE)
        .join("tcp_widgets.wasm");
    let pkg = pkg();
    let out = root.join("src/embed");
    let wasm = out.join("tcp_widgets_bg.wasm");
    let glue = pkg.join("tcp_widgets.js");
    let named = pkg.join("tcp_widgets_bg.wasm");
    // wasm-opt takes most of a minute: when cargo's wasm is the one the
    // outputs were made from, by the same steps, they stand. The check of
    // banned functions runs every time (it takes milliseconds).
    let input = read(&linked)?;
    let stamp = pkg.join("input.wasm");
    let steps = pkg.join("steps.txt");
    let same_steps = fs::read_to_string(&steps).ok() == Some(steps_text());
    let made = [&wasm, &glue, &named].iter().all(|p| p.exists());
    if same_steps && made && read(&stamp).ok() == Some(input.clone()) {
        crate::banned::check_functions(&read(&named)?)?;
        println!("xtask: the wasm is unchanged; keeping {}", wasm.display());
        return Ok(());
    }
    // The outputs are about to change: until they are all made from this
    // input, no stamp may say they were (a build that fails half way, on a
    // banned function say, leaves bindgen's output of the failing wasm,
    // which the next build must not take for the stamped one's).
    let _ = fs::remove_file(&stamp);
    let mut bindgen = sh::cmd("wasm-bindgen");
    bindgen
        .arg(&linked)
        .args(BINDGEN_FLAGS)
        .args(["--out-name", "tcp_widgets", "--out-dir"])
        .arg(&pkg);
    sh::run(bindgen)?;
    crate::banned::check_functions(&read(&named)?)?;
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    optimise(&named, &wasm)?;
    // The glue goes inside embed/tcp-widget.js (`crate::embed`), with the
    // same short import names as the wasm.
    let glue_text = String::from_utf8(read(&glue)?).map_err(|e| format!("glue: {e}"))?;
    let (short_wasm, short_glue) = crate::imports::shorten(&read(&wasm)?, &glue_text)?;
    fs::write(&wasm, short_wasm).map_err(|e| format!("writing {}: {e}", wasm.display()))?;
    fs::write(&glue, short_glue).map_err(|e| format!("writing {}: {e}", glue.display()))?;
    fs::write(&stamp, &input).map_err(|e| format!("writing {}: {e}", stamp.display()))?;
    fs::write(&steps, steps_text()).map_err(|e| format!("writing {}: {e}", steps.display()))
}

/// What turns cargo's wasm into the bundle, for the stamp that lets an
/// unchanged wasm skip them: a change of flags, of the banned families, of
/// the tools' versions (Cargo.lock, xtask's npm lockfile) or of the import
/// renaming makes the next build redo them.
fn steps_text() -> String {
    use std::hash::{Hash, Hasher};
    let mut tools = std::hash::DefaultHasher::new();
    for file in [
        "Cargo.lock",
        "xtask/npm/package-lock.json",
        "xtask/src/imports.rs",
    ] {
        fs::read(sh::root().join(file)).ok().hash(&mut tools);
    }
    format!(
        "wasm-bindgen {}; check_functions {:?}; wasm-opt {}; tools {:x}",
        BINDGEN_FLAGS.join(" "),
        crate::banned::BANNED
            .iter()
            .map(|(f, _)| *f)
            .collect::<Vec<_>>(),
        WASM_OPT_FLAGS.join(" "),
        tools.finish()
    )
}

const BINDGEN_FLAGS: &[&str] = &["--target", "no-modules", "--no-typescript"];

/// npm's binaryen `wasm-opt` flags.
///
/// `--low-memory-unused`: Rust's wasm keeps its stack in the first MiB,
/// growing down from 1 MiB, and its data above; the low 1 KiB would be
/// touched only by a stack 1 MiB deep, so binaryen may fold constant
/// offsets into addresses (1.4 KB gzip).
/// `--converge`: -Oz again until the size stops falling (1.2 KB gzip).
/// `--flatten --rereloop` first: binaryen flattens the code and rebuilds
/// its control flow with the Relooper, which the -Oz runs after it shrink
/// further than they shrink rustc's own structure (1.3 KB gzip; flatten
/// alone grows it). `--strip-target-features`: browsers do not read that
/// section (0.1 KB). `--strip-debug` drops the name section, which
/// `crate::banned::check_functions` has read by then.
/// `--merge-similar-functions` before all: functions that differ only in
/// constants (generic copies, mostly yew's and the views') become one with
/// a parameter (1.4 KB gzip; -Oz does not run it, and run after the other
/// passes it finds nothing). The simulator's own code barely changes (0.1 KB
/// of a harness of it alone), and that harness's run time did not move.
const WASM_OPT_FLAGS: &[&str] = &[
    "--merge-similar-functions",
    "--flatten",
    "--rereloop",
    "-Oz",
    "-Oz",
    "--converge",
    "--low-memory-unused",
    "--strip-debug",
    "--strip-producers",
    "--strip-target-features",
];

/// npm's binaryen `wasm-opt` (Debian's is too old for Rust's wasm features),
/// with [`WASM_OPT_FLAGS`].
fn optimise(from: &Path, to: &Path) -> Result {
    let wasm_opt = sh::root().join("xtask/npm/node_modules/.bin/wasm-opt");
    let mut opt = sh::cmd(wasm_opt.to_str().unwrap());
    opt.args(WASM_OPT_FLAGS).arg(from).arg("-o").arg(to);
    sh::run(opt)
}

fn read(p: &Path) -> Result<Vec<u8>> {
    fs::read(p).map_err(|e| format!("reading {}: {e}", p.display()))
}
