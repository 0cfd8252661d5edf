//! The HTML a directive becomes: a placeholder the widget bundle mounts into.

use crate::directive::Directive;

/// Escapes text for an HTML attribute or element body. Values were already
/// validated, but nothing reaches the page unescaped. (The catalogue's, which
/// also writes the widgets' words into the page.)
pub use widget_catalogue::escape_html as escape;

/// A directive's build-time figure, as the page embeds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FigureRef {
    /// Path from the book's root, e.g. `generated/figures/slow-start-….svg`.
    pub file: String,
    pub width: u32,
    pub height: u32,
    /// What the panels show, top to bottom (for the text alternative).
    pub headings: Vec<String>,
}

/// The directive's settings in words, for the caption: the preset by its
/// title, then each parameter by its label, then the comparison, e.g.
/// `preset “512 KiB at 7 ms (seed 004)”, Transfer size = 4MiB`. `views=` is
/// left out: the figure's panel headings say which views it shows.
pub fn settings(d: &Directive) -> String {
    let get = |k: &str| d.args.iter().find(|(key, _)| key == k).map(|(_, v)| v);
    let label = |k: &str| {
        d.widget
            .param(k)
            .map_or(k.to_string(), |p| p.label.to_string())
    };
    let mut parts = Vec::new();
    if let Some(name) = get("preset") {
        let title = d.widget.preset(name).map_or(name.as_str(), |p| p.title);
        parts.push(format!("preset “{title}”"));
    }
    for (k, v) in &d.args {
        if !widget_catalogue::COMMON_KEYS.contains(&k.as_str()) {
            parts.push(format!("{} = {v}", label(k)));
        }
    }
    if let (Some(c), Some(vs)) = (get("compare"), get("vs")) {
        parts.push(format!("compared with {} = {vs}", label(c)));
    }
    if parts.is_empty() {
        "default settings".to_string()
    } else {
        parts.join(", ")
    }
}

/// The placeholder for a widget of a page, `id` its element id. It is an HTML block
/// (no blank line inside, blank lines around it) so Markdown leaves it alone.
///
/// It holds the build-time figure and a loading line. The
/// figure is what a reader sees until the widget mounts, all a reader
/// without JavaScript gets, and what prints (`theme/figures.css`). Its path
/// is relative to the chapter (`path_to_root` is `../` per directory level);
/// mdBook rewrites an `<img src>` relative to the chapter into one relative
/// to `print.html` when it assembles the print page.
///
/// `loading="lazy"` on the image: a chapter has up to eleven figures, and
/// each SVG is parsed on the page's main thread when it arrives, which held
/// back the widget in view by 100 to 150 ms. `print.html` prints shortly
/// after the window's `load` event, which only eager images hold back: the
/// widgets' loader makes them eager there before that event.
///
/// A predict-first widget (`fig` is `None`) gets no figure: a drawing of
/// its run would give the answer away. It carries `data-predict`, the
/// result it hides.
pub fn placeholder(d: &Directive, id: &str, fig: Option<&FigureRef>, path_to_root: &str) -> String {
    let mut attrs = String::new();
    for (k, v) in &d.args {
        attrs.push_str(&format!(" data-{}=\"{}\"", escape(k), escape(v)));
    }
    if let Some(p) = &d.predict {
        attrs.push_str(&format!(" data-predict=\"{}\"", escape(&p.metric)));
    }
    let title = escape(d.widget.title);
    let settings = escape(&settings(d));
    let Some(fig) = fig else {
        return format!(
            "\n<div class=\"tcp-widget\" id=\"{id}\" data-widget=\"{name}\"{attrs} role=\"region\" aria-label=\"{title} (interactive simulation)\">\n\
             <p class=\"tcp-widget-loading tw-predict-note\">This simulation asks for your prediction first, so it has no picture of its run; it needs JavaScript and WebAssembly.</p>\n\
             </div>\n",
            name = escape(d.widget.name),
            id = escape(id),
        );
    };
    let alt = format!(
        "{}, charts at the end of the simulated run: {}.",
        d.widget.title,
        fig.headings.join("; ")
    );
    let figure = format!(
        "<figure class=\"tw-static\">\
         <img src=\"{root}{file}\" width=\"{w}\" height=\"{h}\" alt=\"{alt}\" loading=\"lazy\" decoding=\"async\">\
         <figcaption>Figure: <em>{title}</em> ({settings}), drawn at the end of its run \
         by the simulator when this book was built. \
         The interactive version runs in the browser\
         <noscript> and needs JavaScript and WebAssembly</noscript>.</figcaption>\
         </figure>\n",
        root = escape(path_to_root),
        file = escape(&fig.file),
        w = fig.width,
        h = fig.height,
        alt = escape(&alt),
    );
    format!(
        "\n<div class=\"tcp-widget\" id=\"{id}\" data-widget=\"{name}\"{attrs} role=\"region\" aria-label=\"{title} (interactive simulation)\">\n\
         {figure}\
         <p class=\"tcp-widget-loading\">Loading the interactive simulation…</p>\n\
         </div>\n",
        name = escape(d.widget.name),
        id = escape(id),
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
  // print.html shows the figures, not live widgets (theme/widgets-loader.js).
  // (No dollar sign in this script: mdbook-katex would read it as math.)
  if (location.pathname.split("/").pop() === "print.html") return;
  var base = (typeof path_to_root === "string" ? path_to_root : "") + "embed/";
  var link = document.createElement("link");
  link.rel = "preload";
  link.as = "script";
  link.href = base + "tcp-widget.js";
  document.head.appendChild(link);
  window.tcpWidgetsWasm = WebAssembly.compileStreaming(fetch(base + "tcp_widgets_bg.wasm"))
    .catch(function () { return null; });
})();</script>
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::directive::parse;

    fn fig() -> FigureRef {
        FigureRef {
            file: "generated/figures/x.svg".into(),
            width: 640,
            height: 660,
            headings: vec!["cwnd".into(), "TSG".into()],
        }
    }

    #[test]
    fn parameters_become_data_attributes() {
        let d = parse("slow-start rtt=7ms preset=seed-7ms").unwrap();
        let html = placeholder(&d, "slow-start-1", Some(&fig()), "");
        assert!(html.contains(r#"<div class="tcp-widget" id="slow-start-1" data-widget="slow-start" data-rtt="7ms" data-preset="seed-7ms""#), "{html}");
        assert!(html.contains("<noscript>"));
    }

    #[test]
    fn the_figure_has_its_size_a_text_alternative_and_a_caption() {
        let d = parse("slow-start preset=seed-7ms size=4MiB").unwrap();
        let html = placeholder(&d, "slow-start-1", Some(&fig()), "../");
        assert!(
            html.contains(r#"<img src="../generated/figures/x.svg" width="640" height="660" alt="Slow start on a new connection, charts at the end of the simulated run: cwnd; TSG." loading="lazy" decoding="async">"#),
            "{html}"
        );
        assert!(html.contains("<figcaption>Figure: <em>Slow start on a new connection</em> (preset “512 KiB at 7 ms, the capture&#39;s setting”, Transfer size = 4MiB), drawn at the end of its run by the simulator when this book was built."), "{html}");
    }

    #[test]
    fn settings_name_the_comparison_and_leave_out_views() {
        let d = parse("long-fat compare=cc vs=bbr views=cwnd,throughput").unwrap();
        assert_eq!(settings(&d), "compared with Congestion control = bbr");
        assert_eq!(settings(&parse("slow-start").unwrap()), "default settings");
    }

    #[test]
    fn escape_neutralises_markup() {
        assert_eq!(
            escape(r#"<img src=x onerror="a">"#),
            "&lt;img src=x onerror=&quot;a&quot;&gt;"
        );
    }
}
