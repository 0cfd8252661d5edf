//! A labelled slider with its value and unit, on a log or linear scale from
//! the widget spec. Whatever the input reports is clamped to the parameter's
//! range by the spec.

use widget_spec::ParamSpec;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SliderProps {
    pub id: AttrValue,
    pub spec: &'static ParamSpec,
    pub value: f64,
    pub on_change: Callback<f64>,
}

const STEPS: f64 = 1000.0;

#[function_component(Slider)]
pub fn slider(props: &SliderProps) -> Html {
    let spec = props.spec;
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
            let raw = input.value().parse::<f64>().unwrap_or(f64::NAN);
            cb.emit(if spec.log {
                spec.from_position(raw / STEPS)
            } else {
                spec.clamp(raw.round())
            });
        })
    };
    let shown = spec.format(props.value);
    let scale = if spec.log { ", log scale" } else { "" };
    html! {
        <div class="tw-slider">
            <label for={props.id.clone()}>
                <span class="tw-slider-name">{ spec.label }</span>
                <output class="tw-slider-value" for={props.id.clone()} data-param={spec.name}>{ shown.clone() }</output>
            </label>
            <input type="range" id={props.id.clone()} min={min.to_string()} max={max.to_string()} step="1"
                value={value.to_string()}
                aria-valuetext={shown}
                aria-description={format!("{}{}", spec.help, scale)}
                {oninput} />
        </div>
    }
}
