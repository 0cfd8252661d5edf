//! Conditions over a run's results: an exercise's goal, a prediction's
//! choices. Written in the chapter as `round_trips <= 3 and completion_ms < 30`,
//! checked here against the metrics a run reports
//! (`tcp_widgets::kit::results::METRICS`), evaluated at build time by the
//! simulator and in the browser by `theme/teach.js` from the widget's
//! `data-results`, in the JSON form [`Goal::to_json`] writes.

use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
}

impl Op {
    const ALL: [(&'static str, Op, &'static str); 5] = [
        ("<=", Op::Le, "≤"),
        (">=", Op::Ge, "≥"),
        ("==", Op::Eq, "="),
        ("<", Op::Lt, "<"),
        (">", Op::Gt, ">"),
    ];

    fn text(self) -> &'static str {
        Op::ALL
            .iter()
            .find(|(_, o, _)| *o == self)
            .map_or("", |e| e.0)
    }

    fn sign(self) -> &'static str {
        Op::ALL
            .iter()
            .find(|(_, o, _)| *o == self)
            .map_or("", |e| e.2)
    }

    fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
            // Results are whole counts or times rounded as the page shows
            // them; equality within a part per million is what a reader means.
            Op::Eq => (a - b).abs() <= 1e-6 * b.abs().max(1.0),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Cond {
    pub metric: String,
    pub op: Op,
    pub value: f64,
}

/// All of its conditions must hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Goal(pub Vec<Cond>);

impl Goal {
    /// Parses `metric op number [and metric op number]…`; `known` lists the
    /// metrics a run reports.
    pub fn parse(text: &str, known: &[&str]) -> Result<Goal, String> {
        let mut conds = Vec::new();
        for part in text.split(" and ") {
            let part = part.trim();
            let (at, op_text, op) = Op::ALL
                .iter()
                .filter_map(|(t, o, _)| part.find(t).map(|i| (i, *t, *o)))
                // The earliest operator; at the same place the longer one (`<=` before `<`).
                .min_by_key(|(i, t, _)| (*i, usize::MAX - t.len()))
                .ok_or_else(|| {
                    format!("`{part}`: expected `metric <= number` (or <, >, >=, ==)")
                })?;
            let metric = part[..at].trim();
            let number = part[at + op_text.len()..].trim();
            if !known.contains(&metric) {
                return Err(format!(
                    "`{part}`: unknown result `{metric}` (known: {})",
                    known.join(", ")
                ));
            }
            let value: f64 = number
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| format!("`{part}`: `{number}` is not a number"))?;
            conds.push(Cond {
                metric: metric.to_string(),
                op,
                value,
            });
        }
        Ok(Goal(conds))
    }

    /// Whether every condition holds; a metric the run does not report (a
    /// transfer that never completed has no `completion_ms`) fails its condition.
    pub fn holds(&self, get: impl Fn(&str) -> Option<f64>) -> bool {
        self.0
            .iter()
            .all(|c| get(&c.metric).is_some_and(|v| c.op.holds(v, c.value)))
    }

    /// `[["round_trips","<=",3]]`, what `theme/teach.js` evaluates.
    pub fn to_json(&self) -> String {
        let mut out = String::from("[");
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "[\"{}\",\"{}\",{}]", c.metric, c.op.text(), c.value);
        }
        out.push(']');
        out
    }

    /// In words for the page: `round trips ≤ 3`.
    pub fn describe(&self) -> String {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|c| format!("{} {} {}", c.metric.replace('_', " "), c.op.sign(), c.value))
            .collect();
        parts.join(" and ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[&str] = &["round_trips", "completion_ms"];

    #[test]
    fn conditions_parse_and_hold_together() {
        let g = Goal::parse("round_trips <= 3 and completion_ms<30.5", KNOWN).unwrap();
        assert_eq!(
            g.to_json(),
            r#"[["round_trips","<=",3],["completion_ms","<",30.5]]"#
        );
        let results = |rt: f64, ms: Option<f64>| {
            move |m: &str| if m == "round_trips" { Some(rt) } else { ms }
        };
        assert!(g.holds(results(3.0, Some(30.0))));
        assert!(!g.holds(results(4.0, Some(30.0))));
        assert!(!g.holds(results(3.0, Some(30.5))));
        // A run that never completed has no completion time: not met.
        assert!(!g.holds(results(3.0, None)));
        assert_eq!(g.describe(), "round trips ≤ 3 and completion ms < 30.5");
    }

    #[test]
    fn bad_conditions_say_what_is_wrong() {
        assert!(
            Goal::parse("rounds <= 3", KNOWN)
                .unwrap_err()
                .contains("unknown result `rounds`")
        );
        assert!(
            Goal::parse("round_trips <= three", KNOWN)
                .unwrap_err()
                .contains("not a number")
        );
        assert!(
            Goal::parse("round_trips 3", KNOWN)
                .unwrap_err()
                .contains("expected")
        );
        assert!(Goal::parse("round_trips <= NaN", KNOWN).is_err());
    }
}
