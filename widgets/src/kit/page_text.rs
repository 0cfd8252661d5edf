//! The widget's words, which travel beside the wasm, not in it (`prose!` in
//! the catalogue): the widget's title, its presets' titles and notes, its
//! parameters' help, the views' titles and descriptions.
//!
//! One route everywhere (a book page, an iframe page, `<tcp-widget>` on
//! another site, a self-contained file): the loader (`widgets/embed/element.js`)
//! brings in `tcp-widget-words.LANG.js` from beside the wasm before any widget
//! mounts (a self-contained file has it inline), which sets
//! `window.tcpWidgetWords = {lang, widgets: {NAME: {notes, text}}}`; the two
//! strings are `widget_catalogue::notes_attribute` and `text_attribute`. A
//! translated edition ships one such file per language.
//!
//! Native code keeps the catalogue's own text, so a word falls back to it.
//! In the browser, a widget whose words did not arrive still has a name for
//! everything (its own name, each slider's label, each view's name) and says
//! so in the console: never an empty accessible name.

use super::views::View;
use widget_catalogue::{ParamSpec, Preset, WidgetSpec, note_in};

/// One widget's words, read once when it mounts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageText {
    /// Preset name → notes (see `widget_catalogue::notes_attribute`).
    notes: String,
    /// Key → text (see `widget_catalogue::text_attribute`).
    text: String,
}

impl PageText {
    /// What the words file holds for `spec` (nothing outside a browser).
    pub fn of(spec: &WidgetSpec) -> PageText {
        #[cfg(target_arch = "wasm32")]
        {
            match from_window(spec.name) {
                Some(page) => page,
                None => {
                    web_sys::console::warn_1(
                        &format!(
                            "tcp-widgets: no words for the widget \"{}\" (tcp-widget-words.*.js did not load): its title, help and view names show their internal names",
                            spec.name
                        )
                        .into(),
                    );
                    PageText::default()
                }
            }
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let _ = spec;
            PageText::default()
        }
    }

    /// From the two strings (for tests).
    pub fn from_attributes(notes: String, text: String) -> PageText {
        PageText { notes, text }
    }

    /// `own` where the build kept it (native), else the words' `key`, else
    /// `fallback` (a name, never empty).
    fn pick<'a>(&'a self, own: &'a str, key: &str, fallback: &'a str) -> &'a str {
        match own.is_empty() {
            true => note_in(&self.text, key).unwrap_or(fallback),
            false => own,
        }
    }

    /// The widget's title.
    pub fn title<'a>(&'a self, spec: &'a WidgetSpec) -> &'a str {
        self.pick(spec.title, "title", spec.name)
    }

    /// A parameter's help, the slider's accessible description.
    pub fn help<'a>(&'a self, param: &'a ParamSpec) -> &'a str {
        self.pick(param.help, &format!("help.{}", param.name), param.label)
    }

    /// A preset's title, as the preset menu shows it (its name when the
    /// words have none, so the menu is never blank).
    pub fn preset_title<'a>(&'a self, preset: &'a Preset) -> &'a str {
        self.pick(
            preset.title,
            &format!("preset.{}", preset.name),
            preset.name,
        )
    }

    /// A view's title (its panel menu, its figure's label).
    pub fn view_title(&self, view: View) -> &str {
        self.pick(view.title(), &format!("view.{}", view.name()), view.name())
    }

    /// What a screen reader hears for a view's canvas.
    pub fn view_description(&self, view: View) -> &str {
        self.pick(
            view.description(),
            &format!("view-description.{}", view.name()),
            view.name(),
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

/// `window.tcpWidgetWords.widgets[name]`, if the words file set it.
#[cfg(target_arch = "wasm32")]
fn from_window(name: &str) -> Option<PageText> {
    use wasm_bindgen::JsValue;
    let get = |o: &JsValue, k: &str| {
        js_sys::Reflect::get(o, &JsValue::from_str(k))
            .ok()
            .filter(|v| !v.is_undefined() && !v.is_null())
    };
    let window: JsValue = web_sys::window()?.into();
    let widget = get(&get(&get(&window, "tcpWidgetWords")?, "widgets")?, name)?;
    Some(PageText {
        notes: get(&widget, "notes")?.as_string()?,
        text: get(&widget, "text")?.as_string()?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn native_code_keeps_the_catalogue_words_and_the_words_file_fills_in_the_rest() {
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

    #[test]
    fn without_words_every_name_falls_back_to_one_that_is_not_empty() {
        let spec = widget_catalogue::widget("slow-start").unwrap();
        let bare_spec = WidgetSpec { title: "", ..*spec };
        let bare_param = ParamSpec {
            help: "",
            ..spec.params[0]
        };
        let none = PageText::default();
        assert_eq!(none.title(&bare_spec), "slow-start");
        assert_eq!(none.help(&bare_param), spec.params[0].label);
        assert!(!spec.params[0].label.is_empty());
        for view in View::ALL {
            // As the wasm has them: titles and descriptions left out.
            assert!(!none.pick("", "view.x", view.name()).is_empty());
        }
    }
}
