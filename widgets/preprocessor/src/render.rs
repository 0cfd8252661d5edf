//! The HTML a directive becomes: a placeholder the widget bundle mounts into.

use crate::directive::Directive;

/// Escapes text for an HTML attribute or element body. Values were already
/// validated, but nothing reaches the page unescaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The placeholder for the `index`-th widget of a page. It is an HTML block
/// (blank lines around it) so Markdown leaves it alone.
pub fn placeholder(d: &Directive, index: usize) -> String {
    let mut attrs = String::new();
    for (k, v) in &d.args {
        attrs.push_str(&format!(" data-{}=\"{}\"", escape(k), escape(v)));
    }
    let settings = if d.args.is_empty() {
        "its default settings".to_string()
    } else {
        d.args
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "\n<div class=\"tcp-widget\" id=\"{name}-{index}\" data-widget=\"{name}\"{attrs} role=\"region\" aria-label=\"{title} (interactive simulation)\">\n\
         <noscript><p class=\"tcp-widget-noscript\">This is an interactive simulation, <em>{title}</em>, \
         with {settings}. It needs JavaScript and WebAssembly.</p></noscript>\n\
         <p class=\"tcp-widget-loading\">Loading the simulation…</p>\n\
         </div>\n",
        name = escape(d.widget.name),
        title = escape(d.widget.title),
        settings = escape(&settings),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::directive::parse;

    #[test]
    fn parameters_become_data_attributes() {
        let html = placeholder(&parse("slow-start rtt=7ms preset=seed-7ms").unwrap(), 1);
        assert!(html.contains(r#"<div class="tcp-widget" id="slow-start-1" data-widget="slow-start" data-rtt="7ms" data-preset="seed-7ms""#), "{html}");
        assert!(html.contains("<noscript>"));
        assert!(html.contains("rtt = 7ms, preset = seed-7ms"));
    }

    #[test]
    fn escape_neutralises_markup() {
        assert_eq!(
            escape(r#"<img src=x onerror="a">"#),
            "&lt;img src=x onerror=&quot;a&quot;&gt;"
        );
    }
}
