//! Checking a `{{#widget}}` directive's or a URL's `key=value` pairs against
//! a widget's table: its parameters, its presets, and the keys every widget
//! takes (`preset`, `compare`, `vs`, `views`, `controls`).

use crate::{ParamError, VIEW_NAMES, WidgetSpec};

impl WidgetSpec {
    /// Checks the pairs that depend on each other (after [`Self::check`] on
    /// each): `vs` needs `compare`, and is read as the compared parameter.
    pub fn check_together(&self, pairs: &[(String, String)]) -> Result<(), ParamError> {
        let get = |k: &str| pairs.iter().find(|(key, _)| key == k).map(|(_, v)| v);
        match (get("compare"), get("vs")) {
            (Some(c), Some(v)) => self.param(c).map_or(Ok(()), |p| {
                p.parse(v).map(|_| ()).map_err(|e| ParamError {
                    key: "vs".into(),
                    message: e.message,
                })
            }),
            (None, Some(_)) => Err(ParamError {
                key: "vs".into(),
                message: "needs compare=PARAM to say what it is compared with".into(),
            }),
            (Some(_), None) => Err(ParamError {
                key: "compare".into(),
                message: "needs vs=VALUE, the compared parameter's value in the second run".into(),
            }),
            (None, None) => Ok(()),
        }
    }

    /// The views `views=` names (one or two, comma-separated), or why not.
    pub fn parse_views(value: &str) -> Result<Vec<&'static str>, ParamError> {
        let err = |m: String| ParamError {
            key: "views".into(),
            message: m,
        };
        let mut out = Vec::new();
        for name in value.split(',').map(str::trim) {
            match VIEW_NAMES.iter().find(|v| **v == name) {
                Some(v) => out.push(*v),
                None => {
                    return Err(err(format!(
                        "unknown view `{}` (known: {})",
                        name.chars().take(40).collect::<String>(),
                        VIEW_NAMES.join(", ")
                    )));
                }
            }
        }
        if out.len() > 2 {
            return Err(err(
                "at most two views (the widget has two chart panels)".into()
            ));
        }
        Ok(out)
    }

    /// The parameters `controls=` names (comma-separated, in the widget's
    /// order, each once), or `all` of them, or why not. These are the
    /// controls shown; the others wait behind "More settings".
    pub fn parse_controls(&self, value: &str) -> Result<Vec<&'static str>, ParamError> {
        if value.trim() == "all" {
            return Ok(self.param_names());
        }
        let mut named = Vec::new();
        for name in value.split(',').map(str::trim) {
            if self.param(name).is_none() {
                return Err(ParamError {
                    key: "controls".into(),
                    message: format!(
                        "unknown control `{}` for widget `{}` (known: all, {})",
                        name.chars().take(40).collect::<String>(),
                        self.name,
                        self.param_names().join(", ")
                    ),
                });
            }
            named.push(name);
        }
        Ok(self
            .param_names()
            .into_iter()
            .filter(|p| named.contains(p))
            .collect())
    }

    /// Checks one `key=value` pair of a directive or URL.
    pub fn check(&self, key: &str, value: &str) -> Result<(), ParamError> {
        match key {
            "compare" => {
                return match self.param(value) {
                    Some(_) => Ok(()),
                    None => Err(ParamError {
                        key: key.into(),
                        message: format!(
                            "compare names a parameter (known: {})",
                            self.param_names().join(", ")
                        ),
                    }),
                };
            }
            // Read against `compare` in `check_together`.
            "vs" => return Ok(()),
            "views" => return Self::parse_views(value).map(|_| ()),
            "controls" => return self.parse_controls(value).map(|_| ()),
            "cwnd-scale" => {
                return match crate::CWND_SCALES.contains(&value) {
                    true => Ok(()),
                    false => Err(ParamError {
                        key: key.into(),
                        message: format!("is one of {}", crate::CWND_SCALES.join(", ")),
                    }),
                };
            }
            _ => {}
        }
        if key == "preset" {
            return match self.preset(value) {
                Some(_) => Ok(()),
                None => Err(ParamError {
                    key: key.to_string(),
                    message: format!(
                        "unknown preset `{value}` (known: {})",
                        self.preset_names().join(", ")
                    ),
                }),
            };
        }
        match self.param(key) {
            Some(p) => p.parse(value).map(|_| ()),
            None => Err(ParamError {
                key: key.to_string(),
                message: format!(
                    "unknown parameter for widget `{}` (known: preset, {})",
                    self.name,
                    self.param_names().join(", ")
                ),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::widget;

    #[test]
    fn compare_needs_vs_read_as_the_compared_parameter() {
        let w = widget("long-fat").unwrap();
        let pairs = |p: &[(&str, &str)]| -> Vec<(String, String)> {
            p.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        assert!(
            w.check_together(&pairs(&[("compare", "cc"), ("vs", "bbr")]))
                .is_ok()
        );
        assert_eq!(
            w.check_together(&pairs(&[("compare", "cc"), ("vs", "vegas")]))
                .unwrap_err()
                .key,
            "vs"
        );
        assert_eq!(
            w.check_together(&pairs(&[("vs", "bbr")])).unwrap_err().key,
            "vs"
        );
        assert_eq!(
            w.check_together(&pairs(&[("compare", "cc")]))
                .unwrap_err()
                .key,
            "compare"
        );
        assert!(w.check("compare", "colour").is_err());
        assert!(w.check("views", "tsg,rtt").is_ok());
        assert!(w.check("views", "tsg,<b>").is_err());
        assert!(w.check("views", "tsg,rtt,cwnd").is_err());
        assert!(w.check("cwnd-scale", "log").is_ok());
        assert!(w.check("cwnd-scale", "log10").is_err());
    }

    #[test]
    fn controls_name_parameters_and_unknown_ones_are_refused_by_name() {
        let w = widget("slow-start").unwrap();
        assert_eq!(
            w.parse_controls("initcwnd, rtt").unwrap(),
            ["rtt", "initcwnd"],
            "in the widget's order, whatever the directive's"
        );
        assert_eq!(w.parse_controls("all").unwrap(), w.param_names());
        let e = w.check("controls", "rtt,colour").unwrap_err();
        assert_eq!(e.key, "controls");
        assert!(
            e.message.contains("unknown control `colour`"),
            "{}",
            e.message
        );
        assert!(
            e.message.contains("initcwnd"),
            "lists the known ones: {}",
            e.message
        );
        assert!(
            w.check("controls", "").is_err(),
            "an empty list names nothing"
        );
        assert!(
            w.check("controls", "preset").is_err(),
            "preset is not a control"
        );
    }

    #[test]
    fn every_widget_shows_a_few_primary_controls_it_has() {
        for w in crate::WIDGETS {
            assert!(
                (1..=4).contains(&w.primary.len()),
                "{}: {} primary controls",
                w.name,
                w.primary.len()
            );
            for name in w.primary {
                assert!(
                    w.param(name).is_some(),
                    "{}: `{name}` is not a parameter",
                    w.name
                );
            }
        }
    }

    #[test]
    fn out_of_range_values_name_the_range() {
        let w = widget("slow-start").unwrap();
        let e = w.check("initcwnd", "1000").unwrap_err();
        assert_eq!(e.key, "initcwnd");
        assert!(e.message.contains("1 to 100"), "{}", e.message);
        let e = w.check("rtt", "1s").unwrap_err();
        assert!(e.message.contains("300 ms"), "{}", e.message);
    }

    #[test]
    fn unknown_keys_and_presets_list_the_known_ones() {
        let w = widget("slow-start").unwrap();
        assert!(
            w.check("colour", "red")
                .unwrap_err()
                .message
                .contains("rtt")
        );
        assert!(
            w.check("preset", "nope")
                .unwrap_err()
                .message
                .contains("seed-7ms")
        );
    }
}
