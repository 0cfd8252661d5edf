//! Keys pressed while nothing has the focus, for the widget the reader is in.
//!
//! A key goes to the focused element; with nothing focused it goes to the
//! page's body, past the widget's own listener, to mdBook's on `document`
//! (← and → turn the chapter). Nothing has the focus more often than it
//! seems: after the reader closes the help with its Close button (the
//! focused button leaves the page), clicks the widget's frame around its
//! title, or selects text in its title, readouts or text panels by keyboard
//! or caret browsing.
//!
//! So each widget also listens on the window, which sees a key before the
//! document does. A key pressed with nothing focused is the widget's when
//! the reader's last click or focus was in it, or the selection is: the
//! widget handles it as if pressed on its root (`keys::key_action_on`),
//! and gives the root the focus, so that the next keys go there directly.
//!
//! ```text
//!   pointerdown / focusin anywhere ──► in_widget = inside the placeholder?
//!   keydown, nothing focused, in_widget or the selection inside
//!       ──► key_action_on(root) ──► stopped before document; root focused
//! ```

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlElement, KeyboardEvent, Node};

use super::keys::{self, Action};

/// A listener on the window: the event type and the function.
type Listener = (&'static str, Closure<dyn FnMut(web_sys::Event)>);

/// The window listeners of one widget; dropping it removes them.
pub struct StrayKeys {
    window: web_sys::Window,
    listeners: Vec<Listener>,
}

impl StrayKeys {
    /// Listens for keys that belong to the widget in `region` (its
    /// placeholder, frame included) whose root element is `root`; calls
    /// `on_key` with each shortcut.
    pub fn new(
        region: &Element,
        root: HtmlElement,
        on_key: impl Fn(Action) + 'static,
    ) -> Option<StrayKeys> {
        let window = web_sys::window()?;
        let document = window.document()?;
        // In a `<tcp-widget>` the widget is in a shadow root, and a window
        // listener sees its events at the host element.
        let region: Node = match region.get_root_node().dyn_into::<web_sys::ShadowRoot>() {
            Ok(shadow) => shadow.host().into(),
            Err(_) => region.clone().into(),
        };
        let in_widget = Rc::new(Cell::new(false));
        let mut listeners = Vec::new();
        for kind in ["pointerdown", "focusin"] {
            let (in_widget, region) = (in_widget.clone(), region.clone());
            let f = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
                let target = e.target().and_then(|t| t.dyn_into::<Node>().ok());
                in_widget.set(region.contains(target.as_ref()));
            });
            listeners.push((kind, f));
        }
        let on_keydown = {
            let window = window.clone();
            Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
                let Ok(e) = e.dyn_into::<KeyboardEvent>() else {
                    return;
                };
                // Another widget on the page took it already.
                if e.default_prevented() || !nothing_focused(&document) {
                    return;
                }
                let selected = window
                    .get_selection()
                    .ok()
                    .flatten()
                    .and_then(|s| s.anchor_node())
                    .is_some_and(|n| region.contains(Some(&n)));
                if !in_widget.get() && !selected {
                    return;
                }
                if let Some(action) = keys::key_action_on(&e, Some(&root)) {
                    let opts = web_sys::FocusOptions::new();
                    opts.set_prevent_scroll(true);
                    let _ = root.focus_with_options(&opts);
                    on_key(action);
                }
            })
        };
        listeners.push(("keydown", on_keydown));
        for (kind, f) in &listeners {
            let _ = window.add_event_listener_with_callback_and_bool(
                kind,
                f.as_ref().unchecked_ref(),
                true,
            );
        }
        Some(StrayKeys { window, listeners })
    }
}

/// Whether no element has the focus: keys then go to the body.
fn nothing_focused(document: &web_sys::Document) -> bool {
    match document.active_element() {
        None => true,
        Some(el) => {
            document.body().is_some_and(|b| el == *b.as_ref())
                || document.document_element().is_some_and(|d| el == d)
        }
    }
}

impl Drop for StrayKeys {
    fn drop(&mut self) {
        for (kind, f) in &self.listeners {
            let _ = self.window.remove_event_listener_with_callback_and_bool(
                kind,
                f.as_ref().unchecked_ref(),
                true,
            );
        }
    }
}
