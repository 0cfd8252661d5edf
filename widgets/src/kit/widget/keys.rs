//! Keyboard shortcuts inside a widget. Every key pressed inside a widget is
//! stopped there, so mdBook's ←/→ chapter navigation and its `s` (search)
//! shortcut never fire while a reader works a widget; so is a key pressed
//! with nothing focused while the reader is in the widget (`stray_keys`).
//! Form controls keep their own keys: arrows move a slider, a menu's choice
//! or a text box's caret.

use web_sys::KeyboardEvent;

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    PlayPause,
    /// Step to the next event.
    Step,
    /// Step to the next ACK.
    StepAck,
    Restart,
    Presenter,
    Help,
    /// Close the help overlay or leave presenter mode.
    Escape,
    /// Preset 1–9, as listed in the menu (0-based here).
    Preset(usize),
    /// Move the cursor back or forward by a fiftieth of the run.
    Scrub(i8),
}

/// The shortcut list the help overlay shows (key, what it does).
pub const HELP: &[(&str, &str)] = &[
    ("Space", "play / pause"),
    ("s", "step to the next event"),
    ("a", "step to the next ACK"),
    ("r", "restart from time zero"),
    ("← / →", "move the time cursor back / forward"),
    (
        "drag",
        "on a chart or the ladder: move the time cursor there; on the path: move time by the delay dragged (mouse, pen or touch)",
    ),
    ("1–9", "choose a preset"),
    ("f", "presenter mode (full screen, large type)"),
    ("?", "this help"),
    ("Esc", "close help / leave presenter mode"),
];

/// The action for a key, unless the key was typed into a form field (where
/// space, digits and letters must reach the field) or has a modifier.
pub fn action(key: &str, in_text_field: bool, modifier: bool) -> Option<Action> {
    if modifier {
        return None;
    }
    if in_text_field {
        return (key == "Escape").then_some(Action::Escape);
    }
    Some(match key {
        " " | "Spacebar" => Action::PlayPause,
        "s" => Action::Step,
        "a" => Action::StepAck,
        "r" => Action::Restart,
        "f" => Action::Presenter,
        "?" => Action::Help,
        "Escape" => Action::Escape,
        "ArrowLeft" => Action::Scrub(-1),
        "ArrowRight" => Action::Scrub(1),
        k if k.len() == 1 && ("1"..="9").contains(&k) => {
            Action::Preset(k.parse::<usize>().ok()? - 1)
        }
        _ => return None,
    })
}

/// What a key pressed inside the widget does, deciding there and then whether
/// the browser and mdBook see it. This must run in the event's own dispatch:
/// yew may queue a message behind a render, and by the time it is handled the
/// key would have reached mdBook's listener on `document` (←/→ change the
/// chapter, `s` opens search) or scrolled the page (space).
pub fn key_action(e: &KeyboardEvent) -> Option<Action> {
    let target = e
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
    key_action_on(e, target.as_ref())
}

/// [`key_action`] for a key that counts as pressed on `target` (see
/// `stray_keys`: a key pressed with nothing focused, for the widget the
/// reader is in).
pub fn key_action_on(e: &KeyboardEvent, target: Option<&web_sys::Element>) -> Option<Action> {
    let in_field = target.is_some_and(|t| {
        let tag = t.tag_name();
        tag == "SELECT"
            || (tag == "INPUT"
                && !matches!(
                    t.get_attribute("type").as_deref(),
                    Some("range" | "checkbox")
                ))
    });
    let modifier = e.ctrl_key() || e.meta_key() || e.alt_key();
    // Keys stay in the widget: mdBook's ←/→ and `s` must not fire.
    e.stop_propagation();
    // Space opens and closes a disclosure ("More settings", "Data &
    // export", "Details") as it presses a button elsewhere: not Play.
    if target.is_some_and(|t| t.tag_name() == "SUMMARY") && e.key() == " " {
        return None;
    }
    let action = self::action(&e.key(), in_field, modifier)?;
    // A range input's own arrow keys move the slider, not the cursor; a
    // checkbox's space ticks it (the cwnd chart's log scale), not Play.
    let kind = target.and_then(|t| t.get_attribute("type"));
    match (kind.as_deref(), action) {
        (Some("range"), Action::Scrub(_)) | (Some("checkbox"), Action::PlayPause) => return None,
        _ => {}
    }
    e.prevent_default();
    Some(action)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_actions_outside_form_fields_only() {
        assert_eq!(action(" ", false, false), Some(Action::PlayPause));
        assert_eq!(action("3", false, false), Some(Action::Preset(2)));
        assert_eq!(action("0", false, false), None);
        assert_eq!(action("ArrowLeft", false, false), Some(Action::Scrub(-1)));
        assert_eq!(action("s", true, false), None, "typing in a field");
        assert_eq!(action("Escape", true, false), Some(Action::Escape));
        assert_eq!(action("f", false, true), None, "Ctrl+F stays the browser's");
    }
}
