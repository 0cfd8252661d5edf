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

/// Goes before a page's first placeholder: starts fetching and compiling the
/// widget bundle while the browser is still parsing the page. The loader
/// (`theme/widgets-loader.js`) runs only at the end of the body, after
/// mdBook's own scripts; without this the wasm download would start only
/// then, and its compilation after that. The loader picks up the compiled
/// module from `window.tcpWidgetsWasm` (or fetches the file itself when this
/// failed). `path_to_root` is defined by mdBook's page template before the
/// content (and is right on print.html too, unlike a path written here).
/// Not on `file://`, where the browser may not fetch the wasm.
pub const PRELOAD: &str = r#"
<script>(function () {
  // print.html repeats every chapter, and this with it: once is enough.
  if (window.tcpWidgetsWasm !== undefined) return;
  if (location.protocol === "file:" || !window.WebAssembly || !WebAssembly.compileStreaming) return;
  var base = (typeof path_to_root === "string" ? path_to_root : "") + "generated/widgets/";
  var link = document.createElement("link");
  link.rel = "modulepreload";
  link.href = base + "tcp_widgets.js";
  document.head.appendChild(link);
  window.tcpWidgetsWasm = WebAssembly.compileStreaming(fetch(base + "tcp_widgets_bg.wasm"))
    .catch(function () { return null; });
})();</script>
"#;

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
