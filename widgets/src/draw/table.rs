//! A chart's numbers as a table: the accessible alternative to every chart
//! (screen readers, copying into a spreadsheet) and what the CSV export writes.

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_only_fields_that_need_it() {
        let t = Table {
            caption: String::new(),
            headers: vec!["time (ms)".into(), "note".into()],
            rows: vec![vec!["1.5".into(), "a, \"b\"".into()]],
        };
        assert_eq!(t.to_csv(), "time (ms),note\n1.5,\"a, \"\"b\"\"\"\n");
    }
}
