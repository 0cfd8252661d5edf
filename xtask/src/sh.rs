//! Running commands, with the tool directories on PATH and errors that say
//! which command failed.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

pub type Result<T = ()> = std::result::Result<T, String>;

/// The repository root (xtask lives one level below it).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}

/// Where `cargo install` puts binaries: `$CARGO_INSTALL_ROOT/bin`, else `$CARGO_HOME/bin`, else `~/.cargo/bin`.
pub fn cargo_bin_dir() -> PathBuf {
    if let Some(r) = env::var_os("CARGO_INSTALL_ROOT") {
        return PathBuf::from(r).join("bin");
    }
    if let Some(h) = env::var_os("CARGO_HOME") {
        return PathBuf::from(h).join("bin");
    }
    PathBuf::from(env::var_os("HOME").unwrap_or_default()).join(".cargo/bin")
}

/// PATH with the cargo bin directory first, so freshly installed tools are found.
pub fn path_env() -> std::ffi::OsString {
    let mut dirs = vec![cargo_bin_dir()];
    if let Some(p) = env::var_os("PATH") {
        dirs.extend(env::split_paths(&p));
    }
    env::join_paths(dirs).expect("PATH entries are valid")
}

pub fn cmd(program: &str) -> Command {
    let mut c = Command::new(program);
    c.env("PATH", path_env()).current_dir(root());
    c
}

/// Runs a command to completion, echoing it; fails with its exit status.
pub fn run(mut c: Command) -> Result {
    let shown = std::iter::once(c.get_program())
        .chain(c.get_args())
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    println!("$ {shown}");
    let status = c
        .status()
        .map_err(|e| format!("could not start `{shown}`: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{shown}` failed ({status})"))
    }
}

/// Runs a command and returns its trimmed stdout, or `None` if it cannot run or fails.
pub fn output(program: &str, args: &[&str]) -> Option<String> {
    let out = cmd(program).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Looks a program up on our PATH.
pub fn which(program: &str) -> Option<PathBuf> {
    env::split_paths(&path_env())
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}
