//! A labelled slider with its value and unit, on a log or linear scale from
//! the widget spec. Positions are 0..1000; the spec maps them to values, so
//! whatever the input reports is clamped to the parameter's range.

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
    let position = (spec.to_position(props.value) * STEPS).round();
    let oninput = {
        let cb = props.on_change.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let pos = input.value().parse::<f64>().unwrap_or(0.0) / STEPS;
            cb.emit(spec.from_position(pos));
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
            <input type="range" id={props.id.clone()} min="0" max={STEPS.to_string()} step="1"
                value={position.to_string()}
                aria-valuetext={shown}
                aria-description={format!("{}{}", spec.help, scale)}
                {oninput} />
        </div>
    }
}
