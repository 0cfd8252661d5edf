//! `cargo xtask check-wikis` (issue 24): the widgets inside real wiki engines.
//!
//! Builds two small sites that embed the book's widgets, from exactly pinned
//! packages, then runs `tests/wikis.test.mjs` on them and the book:
//! - MkDocs with the Material theme (`tests/wikis/mkdocs/`), from PyPI into a
//!   venv at `target/wikis/venv` (`requirements.txt` pins every package);
//! - VitePress (`tests/wikis/vitepress/`), from npm with `npm ci`.
//!
//! The sites go to `target/wikis/out/{mkdocs,vitepress}`. With `BOOK_DIR` set
//! the book there is used as it is (e.g. right after `cargo xtask test`);
//! otherwise the book is built into `book/` first, as `bench` does.

use crate::build;
use crate::sh::{self, Result};
use crate::tools::{self, CHROMIUM, Need};
use std::fs;
use std::path::{Path, PathBuf};

pub fn run() -> Result {
    tools::ensure(Need::Everything)?;
    let book = match std::env::var_os("BOOK_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => {
            build::all()?;
            sh::root().join("book")
        }
    };
    check(&book)
}

/// Builds both sites and runs the tests against them and the built `book`
/// (`cargo xtask test` calls this after its own browser tests).
pub fn check(book: &Path) -> Result {
    let started = std::time::Instant::now();
    let root = sh::root();
    let out = root.join("target/wikis/out");
    mkdocs(&out.join("mkdocs"))?;
    vitepress(&out.join("vitepress"))?;
    let mut node = sh::cmd("node");
    node.args(["--test", "tests/wikis.test.mjs"])
        .env("WIKIS_DIR", &out)
        .env("BOOK_DIR", book)
        .env("CHROMIUM", CHROMIUM);
    sh::run(node)?;
    println!(
        "\nxtask: the widgets work in both wiki engines ({:.0} s)",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn mkdocs(out: &Path) -> Result {
    let site = sh::root().join("tests/wikis/mkdocs");
    let venv = venv(&site.join("requirements.txt"))?;
    let mut c = sh::cmd(venv.join("bin/mkdocs").to_str().unwrap());
    // --strict: a warning (a broken link, a missing file) fails the check.
    c.args(["build", "--strict", "--clean", "--site-dir"])
        .arg(out)
        .arg("--config-file")
        .arg(site.join("mkdocs.yml"))
        // Material 9.7+ prints a banner about MkDocs 2.0 on every build.
        .env("NO_MKDOCS_2_WARNING", "1");
    sh::run(c)
}

/// The venv with exactly the pinned packages, installed again only when the
/// requirements file differs from the copy kept in the venv at its install.
fn venv(requirements: &Path) -> Result<PathBuf> {
    let venv = sh::root().join("target/wikis/venv");
    let installed = venv.join("installed-requirements.txt");
    let want = fs::read(requirements).map_err(|e| format!("{}: {e}", requirements.display()))?;
    if fs::read(&installed).ok().as_ref() == Some(&want) {
        return Ok(venv);
    }
    println!(
        "xtask: installing MkDocs and Material into {}",
        venv.display()
    );
    if !venv.join("bin/python").exists() {
        // Debian's python3 makes venvs only with python3-venv (ensurepip).
        let can_venv = sh::which("python3").is_some()
            && sh::cmd("python3")
                .args(["-c", "import ensurepip, venv"])
                .output()
                .is_ok_and(|o| o.status.success());
        if !can_venv {
            tools::apt_install(&["python3", "python3-venv"], "Python with venv, for MkDocs")?;
        }
        let mut c = sh::cmd("python3");
        c.args(["-m", "venv"]).arg(&venv);
        sh::run(c)?;
    }
    let pip = venv.join("bin/pip");
    let mut c = sh::cmd(pip.to_str().unwrap());
    // --no-deps: the file lists the whole closure, so nothing unpinned can
    // come in; `pip check` then proves the closure is complete.
    c.args([
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-deps",
        "-r",
    ])
    .arg(requirements);
    sh::run(c)?;
    let mut c = sh::cmd(pip.to_str().unwrap());
    c.args(["check", "--disable-pip-version-check"]);
    sh::run(c)?;
    fs::write(&installed, want).map_err(|e| format!("{}: {e}", installed.display()))?;
    Ok(venv)
}

fn vitepress(out: &Path) -> Result {
    const SITE: &str = "tests/wikis/vitepress";
    tools::npm_ci(SITE)?;
    let site = sh::root().join(SITE);
    let mut c = sh::cmd(site.join("node_modules/.bin/vitepress").to_str().unwrap());
    c.args(["build", "docs", "--outDir"])
        .arg(out)
        .current_dir(&site);
    sh::run(c)
}
