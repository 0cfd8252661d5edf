//! One panel's canvas as the page holds it: the canvas the component draws
//! on, with the pointer's handlers (`pointer`), and over it, in its box,
//! the small things that belong to the picture: the cwnd chart's log-scale
//! switch and the readout of what is under the pointer.

use super::Widget;
use super::pointer::Handlers;
use super::state::{Msg, State};
use crate::kit::views::View;
use crate::units::TimeUnit;
use sim_core::units::Within;
use yew::html::Scope;
use yew::prelude::*;

/// Side `k`'s panel `slot` showing `view`, drawn on `node`.
pub fn canvas(
    link: &Scope<Widget>,
    node: NodeRef,
    state: &State,
    (k, slot): (usize, usize),
    view: View,
    // What a screen reader hears (the words file carries it, `kit::page_text`).
    description: &str,
) -> Html {
    let h = Handlers::new(link, k, slot);
    // Touch: a drag along the time axis is ours, the other way scrolls the
    // page (the ladder's time runs down, the other views' across).
    let touch = if view == View::Ladder {
        "pan-x"
    } else {
        "pan-y"
    };
    let hover = state
        .hover
        // While the result is hidden (`predict`), nothing after the cursor.
        .filter(|&(hk, hs, t, _)| {
            (hk, hs) == (k, slot) && (t <= state.clock.t_ns || !state.predict.hidden())
        })
        .and_then(|(_, _, t, fx)| {
            let m = state.sides.get(k)?.model.as_ref()?;
            let unit = TimeUnit::for_span(state.span_ns());
            // Beside the pointer, on the side with more room.
            let pct = (fx * 100.0).within(0.0, 100.0);
            // Wrapping inside the canvas where it is narrow (a phone).
            let place = if pct < 55.0 {
                format!(
                    "left: calc({}% + 12px); max-width: calc({}% - 16px)",
                    crate::units::fixed(pct, 1),
                    crate::units::fixed(100.0 - pct, 1)
                )
            } else {
                format!(
                    "right: calc({}% + 12px); max-width: calc({}% - 16px)",
                    crate::units::fixed(100.0 - pct, 1),
                    crate::units::fixed(pct, 1)
                )
            };
            Some((super::pointer::readout(view, m, t, unit), place))
        });
    html! {
        <div class="tw-canvas-box">
            <canvas class="tw-canvas" ref={node} role="img"
                aria-label={description.to_string()} data-view={view.name()}
                data-log-scale={(view == View::Window && state.look.log_cwnd).then_some("1")}
                style={format!("height: {}px; touch-action: {touch}", view.height())}
                onpointerdown={h.down} onpointermove={h.moved} onpointerup={h.up}
                onpointercancel={h.leave.clone()} onpointerleave={h.leave}></canvas>
            if view == View::Window {
                <label class="tw-log-toggle" title="Draw cwnd on a logarithmic axis: slow start's doubling becomes a straight line">
                    <input type="checkbox" checked={state.look.log_cwnd}
                        onchange={link.callback(|e: Event| {
                            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                            Msg::LogCwnd(input.checked())
                        })} />
                    { " log scale" }
                </label>
            }
            if let Some((text, place)) = hover {
                <output class="tw-hover" data-readout="hover" aria-live="polite" style={place}>{ text }</output>
            }
        </div>
    }
}
