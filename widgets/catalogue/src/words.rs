//! The widgets' words file, `tcp-widget-words.LANG.js`: the one route by
//! which a widget's words (titles, help, preset notes, view names) reach it,
//! on a book page, an iframe page, `<tcp-widget>` on another site and a
//! self-contained file alike. xtask writes it beside the wasm; the loader
//! (`widgets/embed/element.js`) loads it before any widget mounts; the wasm
//! reads it (`widgets/src/kit/page_text.rs`). A classic script, not JSON: it
//! loads from `file://` and from another origin, where a fetch may not.

use crate::{WidgetSpec, notes_attribute, text_attribute};

/// The script that sets `window.tcpWidgetWords` to
/// `{lang, widgets: {NAME: {notes, text}}}` for `widgets`, in the language
/// `lang` (a BCP 47 tag: `en`, `zh-CN`).
pub fn script(lang: &str, widgets: &[WidgetSpec]) -> String {
    let entries: Vec<String> = widgets
        .iter()
        .map(|w| {
            format!(
                "{}:{{notes:{},text:{}}}",
                js_string(w.name),
                js_string(&notes_attribute(w)),
                js_string(&text_attribute(w))
            )
        })
        .collect();
    format!(
        "window.tcpWidgetWords={{lang:{},widgets:{{\n{}\n}}}};\n",
        js_string(lang),
        entries.join(",\n")
    )
}

/// A JavaScript string literal holding `text`, safe inside an inline
/// `<script>` too (no `</` that could close it).
pub fn js_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            '<' => out.push_str("\\x3c"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WIDGETS;

    #[test]
    fn js_strings_cannot_close_a_script() {
        let s = js_string("a\"b\\c\n\t</style></script>");
        assert_eq!(s, r#""a\"b\\c\n\t\x3c/style>\x3c/script>""#);
    }

    #[test]
    fn the_words_script_holds_every_widget_s_words() {
        let js = script("en", WIDGETS);
        assert!(js.starts_with("window.tcpWidgetWords={lang:\"en\",widgets:{"));
        for w in WIDGETS {
            assert!(js.contains(&js_string(&text_attribute(w))), "{}", w.name);
            assert!(js.contains(&format!("{}:{{notes:", js_string(w.name))));
        }
        assert!(!js.contains("</"));
    }
}
