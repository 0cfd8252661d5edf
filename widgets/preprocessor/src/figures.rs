//! Build-time figures: each directive's starting state drawn as an SVG file
//! (see `tcp_widgets::figure`), for print, for readers without JavaScript and
//! as the placeholder until the widget loads.
//!
//! Files, not inline SVG: `print.html` repeats every chapter, and a page must
//! stay small. They go to `<book src>/generated/figures/` (git-ignored), which
//! mdBook's HTML renderer copies into the built book after preprocessing. A
//! file is named after a hash of its directive, and written only when its
//! bytes change: `mdbook serve` ignores git-ignored paths anyway, and an
//! unchanged file does not even touch the disk.

use crate::directive::Directive;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use tcp_widgets::figure::{self, Figure};

/// Where the figures live, relative to the book's source (and built) root.
pub const DIR: &str = "generated/figures";

/// FNV-1a, 64 bits: stable across Rust releases and platforms (std's hasher
/// promises neither), which a file name needs.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The file a directive's figure is written to: `NAME-HASH.svg`, the hash
/// over the widget name and every argument in order, so a changed argument
/// is a new file (no stale copy in a browser cache).
pub fn file_name(d: &Directive) -> String {
    let mut key = d.widget.name.to_string();
    for (k, v) in &d.args {
        key.push('\0');
        key.push_str(k);
        key.push('=');
        key.push_str(v);
    }
    format!("{}-{:016x}.svg", d.widget.name, fnv1a64(key.as_bytes()))
}

/// Draws one directive's figure: the widget's starting values read exactly
/// as the browser reads the placeholder's attributes.
pub fn render(d: &Directive) -> Result<Figure, String> {
    let initial = tcp_widgets::params::initial(d.widget, &d.args);
    figure::render(d.widget, &initial)
}

/// Draws every distinct figure (keyed by file name), one thread each: a long
/// run takes a second or so, and the book waits for the slowest.
pub fn render_all(
    directives: &BTreeMap<String, Directive>,
) -> BTreeMap<String, Result<Figure, String>> {
    std::thread::scope(|s| {
        let handles: Vec<_> = directives
            .iter()
            .map(|(name, d)| (name, s.spawn(|| render(d))))
            .collect();
        handles
            .into_iter()
            .map(|(name, h)| {
                let result = h
                    .join()
                    .unwrap_or_else(|_| Err("drawing the figure panicked".into()));
                (name.clone(), result)
            })
            .collect()
    })
}

/// Writes `bytes` to `path` unless the file already holds exactly them;
/// true if it wrote. The new file is renamed into place, so a build running
/// at the same time never copies half a file.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    let tmp = path.with_extension(format!("svg.{}.tmp", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)?;
    Ok(true)
}

/// Deletes the figures in `dir` no directive names any more, so the built
/// book does not carry them; returns their names.
pub fn remove_stale(dir: &Path, keep: &BTreeSet<String>) -> std::io::Result<Vec<String>> {
    let mut removed = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.ends_with(".svg") && !keep.contains(&name) {
            std::fs::remove_file(dir.join(&name))?;
            removed.push(name);
        }
    }
    removed.sort();
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::directive::parse;

    #[test]
    fn the_file_name_changes_with_any_argument_and_only_then() {
        let a = file_name(&parse("slow-start preset=seed-7ms").unwrap());
        assert_eq!(
            a,
            file_name(&parse("slow-start  preset=seed-7ms ").unwrap())
        );
        assert!(a.starts_with("slow-start-") && a.ends_with(".svg"), "{a}");
        assert_eq!(a.len(), "slow-start-".len() + 16 + ".svg".len());
        for other in [
            "slow-start",
            "slow-start preset=seed-7ms size=4MiB",
            "slow-start preset=initcwnd-100",
            "slow-start preset=seed-7ms views=ladder,rtt",
        ] {
            assert_ne!(a, file_name(&parse(other).unwrap()), "{other}");
        }
    }

    #[test]
    fn fnv_matches_the_published_test_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn a_file_is_written_only_when_its_bytes_change_and_stale_ones_go() {
        let dir = std::env::temp_dir().join(format!("mdbook-widgets-fig-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.svg");
        assert!(write_if_changed(&path, b"<svg/>").unwrap());
        let before = std::fs::metadata(&path).unwrap().modified().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert!(!write_if_changed(&path, b"<svg/>").unwrap());
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            before
        );
        assert!(write_if_changed(&path, b"<svg></svg>").unwrap());
        std::fs::write(dir.join("old.svg"), "x").unwrap();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        let keep = BTreeSet::from(["a.svg".to_string()]);
        assert_eq!(remove_stale(&dir, &keep).unwrap(), vec!["old.svg"]);
        let mut left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, vec!["a.svg", "notes.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Every URL-ish thing in the SVG other than its namespace, which names
    /// SVG and is never fetched.
    fn references(svg: &str) -> Vec<&str> {
        let namespace = "xmlns=\"http://www.w3.org/2000/svg\"";
        ["http:", "https:", "href", "url(", "@import", "//"]
            .into_iter()
            .filter(|needle| svg.replace(namespace, "").contains(needle))
            .collect()
    }

    #[test]
    fn a_figure_is_the_same_every_time_with_axes_and_no_references() {
        let d = parse("slow-start preset=seed-7ms").unwrap();
        let a = render(&d).unwrap();
        let b = render(&d).unwrap();
        assert!(a.svg == b.svg, "the same directive drew different bytes");
        assert!(a.svg.starts_with("<svg width=\"640\""));
        assert!(a.svg.trim_end().ends_with("</svg>"));
        // Both default panels, each with its axes.
        for text in [
            "cwnd, ssthresh, in flight",
            "window (segments)",
            "Time-sequence graph",
            "sequence number (kB, relative)",
            "time (ms)",
        ] {
            assert!(a.svg.contains(text), "missing {text:?}");
        }
        assert_eq!(references(&a.svg), Vec::<&str>::new());
        // A different directive draws a different picture.
        let c = render(&parse("slow-start preset=seed-7ms rtt=20ms").unwrap()).unwrap();
        assert_ne!(a.svg, c.svg);
    }

    #[test]
    fn the_heaviest_figures_stay_small() {
        // 30 s of two long-fat runs (about 300,000 segments each), and the
        // ladder, whose dashed arrows are drawn dash by dash.
        for (directive, views) in [
            (
                "long-fat preset=seed-003-cubic compare=cc vs=bbr",
                "time (s)",
            ),
            ("slow-start preset=seed-7ms views=ladder,rtt", "RTT (ms)"),
        ] {
            let f = render(&parse(directive).unwrap()).unwrap();
            assert!(f.svg.len() < 200_000, "{directive}: {} bytes", f.svg.len());
            assert!(f.svg.contains(views), "{directive}");
            assert_eq!(references(&f.svg), Vec::<&str>::new(), "{directive}");
        }
    }
}
