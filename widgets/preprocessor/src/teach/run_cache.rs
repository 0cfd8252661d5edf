//! The widget runs a build simulates, kept: in memory for the build (an
//! instructor sheet asks again for every run its chapter asked for, an
//! exercise's search tries a setting a prediction already ran), and on disk
//! beside this binary for the next build (`cargo xtask serve` after `test`
//! simulates nothing it already did).
//!
//! A run is a pure function of the simulator's code, the widget and its
//! values, so the disk cache is keyed by a hash of this executable (which
//! holds the simulator and the catalogue's presets): a rebuilt preprocessor
//! finds no old file, and removes the ones older builds left. Only what the
//! build computes goes in (an error is never kept), and a file it cannot
//! read, or a line it cannot parse, is simply not used.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock, PoisonError};
use tcp_widgets::kit::results::Results;

/// A widget's name and its values' bits.
type Key = (String, Vec<u64>);

struct Cache {
    /// Where this executable's runs are kept (none in unit tests: they stay
    /// hermetic).
    file: Option<PathBuf>,
    runs: BTreeMap<Key, Vec<f64>>,
    /// Whether a run was added since the file was read.
    added: bool,
}

static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();

fn cache() -> std::sync::MutexGuard<'static, Cache> {
    CACHE
        .get_or_init(|| Mutex::new(Cache::load(file())))
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

/// The run of widget `name` at `values`: kept, or `simulate`d and kept.
/// Two threads may simulate the same run at once; both get the same answer.
pub fn run(
    name: &str,
    values: &[f64],
    simulate: impl FnOnce() -> Result<Results, String>,
) -> Result<Results, String> {
    let figures = figures(name, values, || Ok(simulate()?.values().to_vec()))?;
    let figures: [f64; 18] = figures
        .try_into()
        .map_err(|_| "the run cache holds a run of another shape".to_string())?;
    Ok(Results::from_values(figures))
}

/// The figures `simulate` computes for `name` (a widget's, or a scenario
/// file's name with a hash of its text) at `values`: kept, or computed
/// and kept.
pub fn figures(
    name: &str,
    values: &[f64],
    simulate: impl FnOnce() -> Result<Vec<f64>, String>,
) -> Result<Vec<f64>, String> {
    if name.is_empty() || name.contains([' ', '\n']) {
        return Err(format!(
            "`{name}` cannot name a kept run: it must be one word"
        ));
    }
    let key: Key = (
        name.to_string(),
        values.iter().map(|v| v.to_bits()).collect(),
    );
    if let Some(v) = cache().runs.get(&key) {
        return Ok(v.clone());
    }
    let v = simulate()?;
    let mut c = cache();
    c.runs.insert(key, v.clone());
    c.added = true;
    Ok(v)
}

/// Writes the runs to disk when the build added any (whole, through a
/// temporary file, so that a build stopped half way leaves no torn file),
/// and deletes the files of other builds of the preprocessor. A cache that
/// cannot be written costs the next build time, not its result: the error
/// is a warning.
pub fn save() {
    let c = cache();
    let Some(file) = c.file.as_ref().filter(|_| c.added) else {
        return;
    };
    let text = to_text(&c.runs);
    let write = || -> std::io::Result<()> {
        let dir = file.parent().expect("the cache file is in a folder");
        std::fs::create_dir_all(dir)?;
        // A temporary file of this process's own: two builds may save at
        // once (the site and a test's `mdbook build`).
        let tmp = file.with_extension(format!("{}.tmp", std::process::id()));
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, file)?;
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path != *file && path.extension().is_some_and(|e| e == "txt") {
                let _ = std::fs::remove_file(path);
            }
        }
        Ok(())
    };
    if let Err(e) = write() {
        eprintln!(
            "mdbook-widgets: warning: cannot keep the runs in {}: {e}",
            file.display()
        );
    }
}

/// `<folder of this executable>/mdbook-widgets-runs/<hash of it>.txt`.
fn file() -> Option<PathBuf> {
    if cfg!(test) {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    let bytes = std::fs::read(&exe).ok()?;
    let hash = crate::figures::fnv1a64(&bytes);
    Some(
        exe.parent()?
            .join("mdbook-widgets-runs")
            .join(format!("{hash:016x}.txt")),
    )
}

impl Cache {
    fn load(file: Option<PathBuf>) -> Cache {
        let runs = file
            .as_ref()
            .and_then(|f| std::fs::read_to_string(f).ok())
            .map(|text| parse(&text))
            .unwrap_or_default();
        Cache {
            file,
            runs,
            added: false,
        }
    }
}

/// A cache file's text: a line per run, `NAME VALUE… = RESULT… #CHECK`,
/// each number its f64's bits in hex, so that every bit comes back, and
/// CHECK a hash of the rest of the line, so that a line cut short (a file
/// read while another build writes it) is not taken for a shorter run.
fn to_text(runs: &BTreeMap<Key, Vec<f64>>) -> String {
    let mut text = String::new();
    for ((name, values), results) in runs {
        let mut line = name.clone();
        for v in values {
            line.push_str(&format!(" {v:x}"));
        }
        line.push_str(" =");
        for r in results {
            line.push_str(&format!(" {:x}", r.to_bits()));
        }
        let check = crate::figures::fnv1a64(line.as_bytes());
        text.push_str(&format!("{line} #{check:x}\n"));
    }
    text
}

/// The runs in a cache file; lines that do not parse are left out.
fn parse(text: &str) -> BTreeMap<Key, Vec<f64>> {
    let hex = |w: &str| u64::from_str_radix(w, 16).ok();
    text.lines()
        .filter_map(|line| {
            let (line, check) = line.rsplit_once(" #")?;
            if hex(check)? != crate::figures::fnv1a64(line.as_bytes()) {
                return None;
            }
            let (key, results) = line.split_once(" = ")?;
            let mut words = key.split(' ');
            let name = words.next()?.to_string();
            let values = words.map(hex).collect::<Option<Vec<u64>>>()?;
            let results: Vec<f64> = results
                .split(' ')
                .map(|w| hex(w).map(f64::from_bits))
                .collect::<Option<_>>()?;
            Some(((name, values), results))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(x: f64) -> Results {
        let mut v = [f64::NAN; 18];
        v[0] = x;
        v[6] = -0.0;
        Results::from_values(v)
    }

    #[test]
    fn a_run_is_simulated_once_and_then_kept() {
        let mut simulated = 0;
        for _ in 0..3 {
            let r = run("run-cache-test", &[1.5, 7e-3], || {
                simulated += 1;
                Ok(results(49.704))
            })
            .unwrap();
            assert_eq!(r.completion_ms, 49.704);
        }
        assert_eq!(simulated, 1);
        // Another value is another run; an error is not kept.
        assert!(run("run-cache-test", &[1.5, 8e-3], || Err("no".into())).is_err());
        let again = run("run-cache-test", &[1.5, 8e-3], || Ok(results(2.0))).unwrap();
        assert_eq!(again.completion_ms, 2.0);
    }

    #[test]
    fn the_file_gives_back_every_bit_and_skips_what_does_not_parse() {
        let mut runs = BTreeMap::new();
        runs.insert(
            ("slow-start".to_string(), vec![1.5f64.to_bits(), 0]),
            results(0.1 + 0.2).values().to_vec(),
        );
        let mut text = to_text(&runs);
        // A line cut short, lines that do not parse, a line whose check
        // does not match.
        let cut = text.trim_end().rsplit_once(' ').unwrap().0.to_string();
        text.push_str(&format!(
            "{cut}\nslow-start zz = 1 2\nbroken line\nslow-start 1 = 3 x\n"
        ));
        text.push_str(
            &text
                .replacen("slow-start", "slow-start-2", 1)
                .lines()
                .next()
                .unwrap()
                .replace(" = ", " = 0 "),
        );
        text.push('\n');
        let back = parse(&text);
        assert_eq!(back.len(), 1);
        let (k, v) = back.iter().next().unwrap();
        assert_eq!(k, runs.keys().next().unwrap());
        let want = results(0.1 + 0.2).values();
        assert_eq!(v.len(), want.len());
        assert!(v.iter().zip(want).all(|(a, b)| a.to_bits() == b.to_bits()));
    }
}
