//! The widget's words its page carries, not the wasm (`prose!` in the
//! catalogue): the widget's title, its presets' titles and notes, its
//! parameters' help, the views' titles and descriptions. The book's preprocessor writes them once per page in a
//! hidden `.tw-preset-notes[data-for=NAME]` element; the embed pages have
//! it written in, and `<tcp-widget>` on another site adds it from
//! `tcp-widget-text.js` before it mounts. Native code keeps the catalogue's
//! own text, so a word falls back to it.

use super::views::View;
use widget_catalogue::{ParamSpec, Preset, WidgetSpec, note_in};

/// One widget's words, read once when it mounts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageText {
    /// `data-preset-notes`: preset name → notes.
    notes: String,
    /// `data-widget-text`: key → text (see `widget_catalogue::text_attribute`).
    text: String,
}

impl PageText {
    /// What the page holds for `spec` (nothing outside a browser).
    pub fn of(spec: &WidgetSpec) -> PageText {
        let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| {
            let selector = format!(".tw-preset-notes[data-for=\"{}\"]", spec.name);
            d.query_selector(&selector).ok().flatten()
        }) else {
            return PageText::default();
        };
        let read = |name: &str| el.get_attribute(name).unwrap_or_default();
        PageText {
            notes: read("data-preset-notes"),
            text: read("data-widget-text"),
        }
    }

    /// From the two attributes' values (for tests).
    pub fn from_attributes(notes: String, text: String) -> PageText {
        PageText { notes, text }
    }

    /// `own` where the build kept it (native), else the page's `key`.
    fn pick<'a>(&'a self, own: &'a str, key: &str) -> &'a str {
        match own.is_empty() {
            true => note_in(&self.text, key).unwrap_or(""),
            false => own,
        }
    }

    /// The widget's title.
    pub fn title<'a>(&'a self, spec: &'a WidgetSpec) -> &'a str {
        self.pick(spec.title, "title")
    }

    /// A parameter's help, the slider's accessible description.
    pub fn help<'a>(&'a self, param: &'a ParamSpec) -> &'a str {
        self.pick(param.help, &format!("help.{}", param.name))
    }

    /// A preset's title, as the preset menu shows it (its name when the
    /// page has none, so the menu is never blank).
    pub fn preset_title<'a>(&'a self, preset: &'a Preset) -> &'a str {
        match self.pick(preset.title, &format!("preset.{}", preset.name)) {
            "" => preset.name,
            title => title,
        }
    }

    /// A view's title (its panel menu, its figure's label).
    pub fn view_title(&self, view: View) -> &str {
        self.pick(view.title(), &format!("view.{}", view.name()))
    }

    /// What a screen reader hears for a view's canvas.
    pub fn view_description(&self, view: View) -> &str {
        self.pick(
            view.description(),
            &format!("view-description.{}", view.name()),
        )
    }

    /// A preset's speaker notes, if it has any.
    pub fn notes<'a>(&'a self, preset: &'a Preset) -> Option<&'a str> {
        match preset.notes {
            "" => note_in(&self.notes, preset.name),
            own => Some(own),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_code_keeps_the_catalogue_words_and_a_page_fills_in_the_rest() {
        let spec = widget_catalogue::widget("slow-start").unwrap();
        let none = PageText::default();
        assert_eq!(none.title(spec), spec.title);
        assert_eq!(none.help(&spec.params[0]), spec.params[0].help);
        assert_eq!(none.preset_title(&spec.presets[0]), spec.presets[0].title);
        // The wasm's view of the same spec: the words left out.
        let bare = Preset {
            name: "seed-7ms",
            title: "",
            scenario: "",
            notes: "",
        };
        let page = PageText::from_attributes(
            "seed-7ms\tsay this".into(),
            widget_catalogue::text_attribute(spec),
        );
        assert_eq!(
            page.preset_title(&bare),
            spec.preset("seed-7ms").unwrap().title
        );
        assert_eq!(page.notes(&bare), Some("say this"));
        assert_eq!(none.preset_title(&bare), "seed-7ms");
        assert_eq!(page.view_title(View::Tsg), "Time-sequence graph");
        assert_eq!(none.view_description(View::Rtt), View::Rtt.description());
        assert_eq!(none.notes(&bare), None);
    }
}
