//! A chart's numbers as a table: the accessible alternative to every chart
//! (screen readers, copying into a spreadsheet) and what the CSV export writes.

use sim_core::decimal::parse_f64;

/// Rows a data table holds at most; longer series are decimated evenly.
pub const TABLE_ROWS: usize = 2000;

/// Every `stride`-th of `n` rows so that at most [`TABLE_ROWS`] remain, and
/// the caption's note saying so ("" when nothing was left out).
pub fn table_stride(n: usize) -> (usize, String) {
    let stride = n.div_ceil(TABLE_ROWS).max(1);
    let note = if stride > 1 {
        // "one row in 2", not "every 2th": no ordinal to get wrong.
        format!(" (one row in {stride} of {n}, evenly decimated)")
    } else {
        String::new()
    };
    (stride, note)
}

/// Time in ms for a table cell, to the microsecond.
pub fn ms(t_ns: f64) -> String {
    crate::units::fixed(t_ns / 1e6, 3)
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// One line saying what the table holds, e.g. "cwnd, ssthresh and bytes in flight over time".
    pub caption: String,
    /// Column headings with units, e.g. "time (ms)".
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// RFC 4180 CSV: fields with commas, quotes or line breaks are quoted.
    pub fn to_csv(&self) -> String {
        fn field(s: &str) -> String {
            if s.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        }
        let mut out = String::new();
        for row in std::iter::once(&self.headers).chain(self.rows.iter()) {
            let line: Vec<String> = row.iter().map(|s| field(s)).collect();
            out.push_str(&line.join(","));
            out.push('\n');
        }
        out
    }
}

impl Table {
    /// An array of objects keyed by the headings, numbers as numbers.
    pub fn to_json(&self) -> String {
        fn string(s: &str) -> String {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        }
        fn value(s: &str) -> String {
            // Only what JSON's number grammar allows ("1.5", "-2e3"; not ".5", "01", "inf").
            let b = s.as_bytes();
            let digits = s.trim_start_matches('-').as_bytes();
            let json_number = !digits.is_empty()
                && digits[0].is_ascii_digit()
                && !(digits[0] == b'0' && digits.get(1).is_some_and(u8::is_ascii_digit))
                && b[b.len() - 1].is_ascii_digit()
                && parse_f64(s).is_some_and(f64::is_finite);
            if json_number {
                s.to_string()
            } else {
                string(s)
            }
        }
        let rows: Vec<String> = self
            .rows
            .iter()
            .map(|r| {
                let fields: Vec<String> = self
                    .headers
                    .iter()
                    .zip(r)
                    .map(|(h, v)| format!("{}: {}", string(h), value(v)))
                    .collect();
                format!("  {{{}}}", fields.join(", "))
            })
            .collect();
        format!("[\n{}\n]\n", rows.join(",\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_stride_caps_rows() {
        assert_eq!(table_stride(2000).0, 1);
        let (s, note) = table_stride(173_000);
        assert!(173_000usize.div_ceil(s) <= TABLE_ROWS);
        assert!(note.contains("173000"));
    }

    #[test]
    fn csv_quotes_only_fields_that_need_it() {
        let t = Table {
            caption: String::new(),
            headers: vec!["time (ms)".into(), "note".into()],
            rows: vec![vec!["1.5".into(), "a, \"b\"".into()]],
        };
        assert_eq!(t.to_csv(), "time (ms),note\n1.5,\"a, \"\"b\"\"\"\n");
        assert_eq!(
            t.to_json(),
            "[\n  {\"time (ms)\": 1.5, \"note\": \"a, \\\"b\\\"\"}\n]\n"
        );
    }
}
