//! A widget's state in the page URL, so a link reopens exactly what the
//! reader (or the instructor) was looking at.
//!
//! Each widget owns the query parameters prefixed with its id:
//! `?slow-start-0.preset=initcwnd-100&slow-start-0.rtt=30ms&slow-start-0.t=12.5ms`.
//! The query string rather than the fragment, because mdBook uses the fragment
//! for headings. Values are read exactly as slider input is: parsed with
//! units, range-checked, and otherwise ignored with a note. Nothing read here is
//! ever put into the page as HTML.

use widget_catalogue::WidgetSpec;

/// Longest value considered; anything longer is ignored unread.
const MAX_VALUE_LEN: usize = 64;

/// What a URL asks one widget for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UrlState {
    /// `key=value` pairs for [`crate::params::initial`] (preset and parameters).
    pub pairs: Vec<(String, String)>,
    /// The time cursor, in ns.
    pub t_ns: Option<f64>,
    /// Notes about values that were ignored.
    pub notes: Vec<String>,
}

/// Reads the parameters of widget `id` from a query string (with or without
/// its leading `?`).
pub fn read(query: &str, id: &str, spec: &WidgetSpec) -> UrlState {
    let mut out = UrlState::default();
    let prefix = format!("{id}.");
    for part in query.trim_start_matches('?').split('&') {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let k = decode(k);
        let Some(key) = k.strip_prefix(&prefix) else {
            continue;
        };
        let v = decode(v);
        if v.chars().count() > MAX_VALUE_LEN {
            out.notes
                .push(format!("Ignored {key} from the link: value too long."));
            continue;
        }
        if key == "t" {
            match sim_core::units::parse_duration(&v) {
                Ok(d) => out.t_ns = Some(d.0 as f64),
                Err(e) => out.notes.push(format!("Ignored t from the link: {}.", e.0)),
            }
            continue;
        }
        // Parameters, the preset, compare/vs and views are checked by
        // `params::initial`.
        if widget_catalogue::COMMON_KEYS.contains(&key) || spec.param(key).is_some() {
            out.pairs.push((key.to_string(), v));
        } else {
            out.notes.push(format!(
                "Ignored unknown parameter “{}” from the link.",
                key.chars().take(40).collect::<String>()
            ));
        }
    }
    out
}

/// Writes widget `id`'s state into `query`, replacing whatever the query held
/// for that id and keeping everything else (other widgets, other parameters).
/// Only values that differ from the preset (or the defaults) are written.
/// What a widget writes into the URL.
#[derive(Clone, Debug, Default)]
pub struct Saved<'a> {
    pub preset: Option<&'a str>,
    pub values: &'a [f64],
    /// Compare mode: the compared parameter (index) and the second run's value.
    pub compare: Option<(usize, f64)>,
    /// The chart panels' views, written when not the widget's defaults.
    pub views: Option<[&'a str; 2]>,
    /// The cwnd chart's y axis is logarithmic (written only then).
    pub log_cwnd: bool,
    pub t_ns: f64,
}

pub fn write(query: &str, id: &str, spec: &WidgetSpec, state: &Saved) -> String {
    let Saved {
        preset,
        values,
        t_ns,
        ..
    } = *state;
    let prefix = format!("{id}.");
    let mut parts: Vec<String> = query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| {
            !p.is_empty() && !decode(p.split('=').next().unwrap_or("")).starts_with(&prefix)
        })
        .map(str::to_string)
        .collect();
    let base = preset
        .and_then(|p| crate::params::preset_values(spec, p))
        .unwrap_or_else(|| spec.params.iter().map(|p| p.default).collect());
    if let Some(p) = preset {
        parts.push(format!("{}preset={}", encode(&prefix), encode(p)));
    }
    for (i, p) in spec.params.iter().enumerate() {
        let v = values.get(i).copied().unwrap_or(p.default);
        if v != base[i] {
            parts.push(format!(
                "{}{}={}",
                encode(&prefix),
                p.name,
                encode(&p.exact_text(v))
            ));
        }
    }
    if let Some((i, vs)) = state.compare
        && let Some(p) = spec.params.get(i)
    {
        parts.push(format!("{}compare={}", encode(&prefix), p.name));
        parts.push(format!(
            "{}vs={}",
            encode(&prefix),
            encode(&p.exact_text(vs))
        ));
    }
    if let Some([a, b]) = state.views {
        parts.push(format!("{}views={a}%2C{b}", encode(&prefix)));
    }
    if state.log_cwnd {
        parts.push(format!("{}cwnd-scale=log", encode(&prefix)));
    }
    if t_ns > 0.0 {
        parts.push(format!(
            "{}t={}us",
            encode(&prefix),
            (t_ns / 1e3).round() as u64
        ));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

/// Percent-encodes everything but unreserved characters (RFC 3986).
fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Percent-decodes (and `+` as space); invalid escapes stay as written and
/// invalid UTF-8 is replaced, so any input gives some string.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = s
                    .get(i + 1..i + 3)
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> &'static WidgetSpec {
        widget_catalogue::widget("slow-start").unwrap()
    }

    #[test]
    fn a_written_state_reads_back_exactly() {
        let s = spec();
        let mut values = crate::params::preset_values(s, s.presets[0].name).unwrap();
        values[0] = s.params[0].from_position(0.37);
        let q = write(
            "?other=1",
            "w-1",
            s,
            &Saved {
                preset: Some(s.presets[0].name),
                values: &values,
                t_ns: 12_345_678.0,
                ..Saved::default()
            },
        );
        assert!(q.starts_with("?other=1&w-1.preset="), "{q}");
        let back = read(&q, "w-1", s);
        assert!(back.notes.is_empty(), "{:?}", back.notes);
        let init = crate::params::initial(s, &back.pairs);
        assert_eq!(init.values, values);
        assert_eq!(init.preset, Some(s.presets[0].name));
        assert_eq!(
            back.t_ns,
            Some(12_346_000.0),
            "time is kept to the microsecond"
        );
        // Writing again replaces this widget's keys and keeps the others'.
        let again = write(
            &q,
            "w-1",
            s,
            &Saved {
                values: &values,
                ..Saved::default()
            },
        );
        // One key per value off its default (the preset's kernels, the RTT).
        let changed = (values.iter().zip(s.params))
            .filter(|(v, p)| **v != p.default)
            .count();
        assert_eq!(again.matches("w-1.").count(), changed, "{again}");
        assert!(again.contains("other=1"));
    }

    #[test]
    fn a_comparison_and_views_read_back_exactly() {
        let s = widget_catalogue::widget("long-fat").unwrap();
        let values: Vec<f64> = s.params.iter().map(|p| p.default).collect();
        let q = write(
            "",
            "lf",
            s,
            &Saved {
                values: &values,
                compare: Some((0, 2.0)),
                views: Some(["tsg", "throughput"]),
                log_cwnd: true,
                ..Saved::default()
            },
        );
        assert_eq!(
            q,
            "?lf.compare=cc&lf.vs=bbr&lf.views=tsg%2Cthroughput&lf.cwnd-scale=log"
        );
        let back = read(&q, "lf", s);
        let init = crate::params::initial(s, &back.pairs);
        assert_eq!(init.compare, Some((0, 2.0)));
        assert_eq!(init.views, vec!["tsg", "throughput"]);
        assert!(init.log_cwnd);
        assert!(init.notes.is_empty(), "{:?}", init.notes);
        // A hostile comparison is dropped with a note, never half applied.
        let back = read("?lf.compare=cc&lf.vs=%3Cimg%3E", "lf", s);
        let init = crate::params::initial(s, &back.pairs);
        assert_eq!(init.compare, None);
        assert_eq!(init.notes.len(), 1, "{:?}", init.notes);
    }

    #[test]
    fn other_widgets_parameters_are_left_alone() {
        let back = read("?w-2.rtt=30ms&w-1.rtt=20ms", "w-1", spec());
        assert_eq!(back.pairs, vec![("rtt".to_string(), "20ms".to_string())]);
    }

    #[test]
    fn hostile_values_become_notes_and_never_values() {
        let q = "?w.rtt=%3Cscript%3Ealert(1)%3C%2Fscript%3E&w.t=-5&w.onload=x&w.size=99999TiB&w.mss=%E0%80%80%ZZ&w.initcwnd=".to_string()
            + &"9".repeat(100);
        let back = read(&q, "w", spec());
        let init = crate::params::initial(spec(), &back.pairs);
        let defaults: Vec<f64> = spec().params.iter().map(|p| p.default).collect();
        assert_eq!(init.values, defaults);
        assert_eq!(back.t_ns, None);
        // t, onload and the long initcwnd here; rtt, size and mss in `initial`.
        assert_eq!(back.notes.len(), 3, "{:?}", back.notes);
        assert_eq!(init.notes.len(), 3, "{:?}", init.notes);
        assert!(init.notes.iter().all(|n| n.starts_with("Ignored")));
    }

    #[test]
    fn decoding_never_fails() {
        assert_eq!(decode("a%20b+c%zz%"), "a b c%zz%");
        assert_eq!(decode("%C3%A9"), "é");
        assert_eq!(encode("a b/é"), "a%20b%2F%C3%A9");
    }
}
