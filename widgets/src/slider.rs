//! A labelled slider with its value, unit and a box to type an exact value,
//! on a log or linear scale from the widget spec. Whatever either reports is
//! clamped to the parameter's range; a typed value outside it is replaced by
//! the nearest allowed one with a note saying so.

use crate::units::shortest;
use sim_core::decimal::parse_f64;
use widget_catalogue::{Kind, ParamSpec};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SliderProps {
    pub id: AttrValue,
    pub spec: &'static ParamSpec,
    /// The parameter's help, the slider's accessible description (the
    /// words file carries it, see `kit::page_text`).
    pub help: AttrValue,
    pub value: f64,
    pub on_change: Callback<f64>,
    /// A note for the reader (a typed value that was clamped or unreadable).
    pub on_note: Callback<String>,
    /// Put before the label, e.g. "A · " for one side of a comparison.
    #[prop_or_default]
    pub prefix: AttrValue,
}

const STEPS: f64 = 1000.0;

/// What a typed value becomes: the value to use and a note if it was changed.
pub fn typed(spec: &ParamSpec, text: &str) -> (Option<f64>, Option<String>) {
    match spec.parse_unchecked(text) {
        Ok(v) if v < spec.min || v > spec.max => {
            let c = spec.clamp(v);
            (
                Some(c),
                Some(format!(
                    "{} {} is outside {} to {}; using {}.",
                    spec.label,
                    text.chars().take(24).collect::<String>(),
                    spec.format(spec.min),
                    spec.format(spec.max),
                    spec.format(c)
                )),
            )
        }
        Ok(v) => (Some(v), None),
        Err(e) => (
            None,
            Some(format!(
                "{}: {}; kept {}.",
                spec.label, e.message, "the previous value"
            )),
        ),
    }
}

#[function_component(Slider)]
pub fn slider(props: &SliderProps) -> Html {
    let spec = props.spec;
    if let Kind::Choice(options) = spec.kind {
        return choice(props, options);
    }
    // Log scales slide over positions 0..1000; linear ones over the values
    // themselves in whole units, so each arrow key press changes the value.
    let (min, max, value) = if spec.log {
        (0.0, STEPS, (spec.to_position(props.value) * STEPS).round())
    } else {
        (spec.min, spec.max, props.value.round())
    };
    let oninput = {
        let cb = props.on_change.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let raw = parse_f64(&input.value()).unwrap_or(f64::NAN);
            cb.emit(if spec.log {
                spec.from_position(raw / STEPS)
            } else {
                spec.clamp(raw.round())
            });
        })
    };
    // What the reader is typing into the box, from the first key until the
    // value is entered (Enter, or leaving the box). While there is a draft
    // the box shows it, not the value: a playing run renders the slider
    // every frame, and the value would overwrite the keys as they come.
    let draft = use_state(|| None::<String>);
    let oninput_text = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            draft.set(Some(input.value()));
        })
    };
    // The browser reports `change` on Enter and on leaving the box, once
    // for each edit.
    let onchange_text = {
        let cb = props.on_change.clone();
        let note = props.on_note.clone();
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let (v, n) = typed(spec, &input.value());
            draft.set(None);
            // The value first: a new value clears the notes about the old
            // ones, then this entry's own note (if any) is added.
            if let Some(v) = v {
                cb.emit(v);
            }
            if let Some(n) = n {
                note.emit(n);
            }
        })
    };
    // Leaving the box without a change (the reader typed the old text back)
    // ends the draft too.
    let onblur_text = {
        let draft = draft.clone();
        Callback::from(move |_: FocusEvent| draft.set(None))
    };
    let text = (*draft)
        .clone()
        .unwrap_or_else(|| spec.typed_text(props.value));
    let shown = spec.format(props.value);
    let scale = if spec.log { ", log scale" } else { "" };
    let text_id = format!("{}-text", props.id);
    html! {
        <div class="tw-slider">
            <label for={props.id.clone()}>
                <span class="tw-slider-name">{ props.prefix.clone() }{ spec.label }</span>
                <output class="tw-slider-value" for={props.id.clone()} data-param={spec.name}>{ shown.clone() }</output>
            </label>
            <div class="tw-slider-row">
                <input type="range" id={props.id.clone()} min={shortest(min)} max={shortest(max)} step="1"
                    value={shortest(value)}
                    aria-valuetext={shown}
                    aria-description={format!("{}{}", props.help, scale)}
                    {oninput} />
                <input type="text" class="tw-slider-text" id={text_id} inputmode="decimal" spellcheck="false"
                    value={text} oninput={oninput_text} onchange={onchange_text} onblur={onblur_text}
                    aria-label={format!("{}{} (type a value with units)", props.prefix, spec.label)} />
            </div>
        </div>
    }
}

/// A choice among named options: a toggle for off/on, else a select.
fn choice(props: &SliderProps, options: &'static [&'static str]) -> Html {
    let spec = props.spec;
    let current = props.value.max(0.0).round() as usize;
    let cb = props.on_change.clone();
    if options == ["off", "on"] {
        let onchange = Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            cb.emit(if input.checked() { 1.0 } else { 0.0 });
        });
        return html! {
            <div class="tw-slider tw-toggle">
                <label for={props.id.clone()}>
                    <input type="checkbox" id={props.id.clone()} checked={current == 1} {onchange}
                        aria-description={props.help.clone()} />
                    <span class="tw-slider-name">{ props.prefix.clone() }{ spec.label }</span>
                </label>
            </div>
        };
    }
    let onchange = Callback::from(move |e: Event| {
        let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
        let i = options.iter().position(|o| *o == sel.value()).unwrap_or(0);
        cb.emit(i as f64);
    });
    html! {
        <div class="tw-slider tw-choice">
            <label for={props.id.clone()}>
                <span class="tw-slider-name">{ props.prefix.clone() }{ spec.label }</span>
            </label>
            <select id={props.id.clone()} {onchange} aria-description={props.help.clone()} data-param={spec.name}>
                { for options.iter().enumerate().map(|(i, o)| html! {
                    <option value={*o} selected={i == current}>{ *o }</option>
                }) }
            </select>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_values_are_clamped_with_a_note_or_refused() {
        let rtt = widget_catalogue::widget("slow-start")
            .unwrap()
            .param("rtt")
            .unwrap();
        assert_eq!(typed(rtt, "20ms"), (Some(20e6), None));
        let (v, note) = typed(rtt, "5s");
        assert_eq!(v, Some(rtt.max));
        assert!(note.unwrap().contains("using 300 ms"));
        let (v, note) = typed(rtt, "<b>x</b>");
        assert_eq!(v, None);
        assert!(note.is_some());
    }
}
