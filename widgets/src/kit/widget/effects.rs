//! What the component does on the page after a transition of the widget's
//! state (see `state`): the state machine never touches the page itself.

/// Whether a stream of animation frames goes on, starts or stops.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Frames {
    #[default]
    Keep,
    Request,
    Cancel,
}

/// What the component does on the page after a transition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[must_use]
pub struct Effects {
    /// Re-render (something shown changed).
    pub render: bool,
    /// Playback frames (`state::Msg::Frame`).
    pub frame: Frames,
    /// Simulation slices (`state::Msg::Slice`).
    pub slice: Frames,
    /// Write the state into the page URL (on pauses, steps, seeks and
    /// changes; not on every frame).
    pub save_url: bool,
    /// The widget has just become interactive.
    pub interactive: bool,
    /// Enter (true) or leave full screen.
    pub fullscreen: Option<bool>,
}

impl Effects {
    /// Nothing changed.
    pub const NONE: Effects = Effects {
        render: false,
        frame: Frames::Keep,
        slice: Frames::Keep,
        save_url: false,
        interactive: false,
        fullscreen: None,
    };
    /// Something shown changed; nothing else to do.
    pub const RENDER: Effects = Effects {
        render: true,
        ..Effects::NONE
    };
    /// Something shown changed that a link keeps.
    pub const SAVE: Effects = Effects {
        save_url: true,
        ..Effects::RENDER
    };
}
