//! The few page services a widget needs, each failing quietly: a widget
//! must keep working where one is missing (an old browser, a sandboxed
//! iframe without clipboard access, a page opened from disk).

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Adds a User Timing mark (`performance.mark`), e.g. when a widget first
/// becomes interactive, for the browser benchmark to read.
pub fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// The page's query string (`?a=b`), or empty.
pub fn query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

thread_local! {
    /// The query this document last wrote, and the path and hash it wrote
    /// it at (see `query_for_here`).
    static WRITTEN: std::cell::RefCell<(String, String)> = const { std::cell::RefCell::new((String::new(), String::new())) };
}

/// The query a widget mounting now reads its state from: the page's, unless
/// it is the one a widget of this document wrote at another address. A
/// hash-routed wiki (Docsify: `/?slow-start-1.rtt=60ms#/element`) keeps the
/// query across its pages, and each page's first slow-start widget is
/// `slow-start-1`: the next page's widget would open with the settings
/// moved on the last one. A link opened afresh still gives its state, and
/// so does the page whose widget wrote the query last, when the reader
/// comes back to it.
pub fn query_for_here() -> String {
    let query = query();
    let here = web_sys::window()
        .and_then(|w| Some(w.location().pathname().ok()? + &w.location().hash().ok()?));
    let elsewhere = WRITTEN.with_borrow(|(q, at)| *q == query && Some(at) != here.as_ref());
    if elsewhere { String::new() } else { query }
}

/// Replaces the page's query string without reloading or adding a history
/// entry. The entry's state object stays as it is: on a wiki it is the
/// host's router's, which needs it to go Back and Forward.
pub fn replace_query(query: &str) {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let (Ok(path), Ok(hash)) = (loc.pathname(), loc.hash()) else {
        return;
    };
    if let Ok(history) = w.history() {
        let state = history.state().unwrap_or(JsValue::NULL);
        let _ = history.replace_state_with_url(&state, "", Some(&format!("{path}{query}{hash}")));
        WRITTEN.set((loc.search().unwrap_or_default(), path + &hash));
    }
}

/// The page's full address.
pub fn href() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// Puts `text` on the clipboard; the future says whether it is there. No:
/// on insecure origins, which have no clipboard (file://, http), and where
/// the browser refuses the write (a frame without
/// `allow="clipboard-write"`, a denied permission). The write starts now,
/// within the click that asked for it, and its promise is always awaited:
/// a refusal is an answer, never an uncaught rejection.
pub fn copy(text: &str) -> impl std::future::Future<Output = bool> + use<> {
    let window = web_sys::window().filter(|w| w.document().is_none_or(|d| clipboard_allowed(&d)));
    let clipboard = window
        .map(|w| w.navigator().clipboard())
        // `navigator.clipboard` is undefined on insecure origins.
        .filter(|c| !JsValue::from(c.clone()).is_undefined());
    let written = clipboard.map(|c| c.write_text(text));
    async move {
        match written {
            Some(promise) => wasm_bindgen_futures::JsFuture::from(promise).await.is_ok(),
            None => false,
        }
    }
}

/// Whether the page's permissions policy lets it write to the clipboard, as
/// far as the browser says (Chromium's `document.featurePolicy`; elsewhere
/// the write itself answers). A frame without `allow="clipboard-write"` may
/// not: asking first spares the write that would be refused, which Chromium
/// reports in the console as a policy violation.
fn clipboard_allowed(document: &web_sys::Document) -> bool {
    let get = |o: &JsValue, k: &str| js_sys::Reflect::get(o, &JsValue::from_str(k)).ok();
    let Some(policy) = get(document, "featurePolicy").filter(JsValue::is_object) else {
        return true;
    };
    let Some(allows) =
        get(&policy, "allowsFeature").and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return true;
    };
    allows
        .call1(&policy, &JsValue::from_str("clipboard-write"))
        .map_or(true, |v| v.as_bool() != Some(false))
}

/// Offers `text` as a download named `name`.
pub fn download_text(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    click_link(name, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
}

/// Offers a canvas's picture as a PNG download.
pub fn download_canvas(name: &str, canvas: &web_sys::HtmlCanvasElement) {
    if let Ok(url) = canvas.to_data_url_with_type("image/png") {
        click_link(name, &url);
    }
}

fn click_link(name: &str, href: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(a) = doc.create_element("a") else {
        return;
    };
    let Ok(a) = a.dyn_into::<web_sys::HtmlAnchorElement>() else {
        return;
    };
    a.set_href(href);
    a.set_download(name);
    a.click();
}

/// Whether the reader asked the system for less motion.
pub fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// Puts `el` in full screen (presenter mode), or leaves full screen.
pub fn fullscreen(el: &web_sys::Element, on: bool) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if on {
        let _ = el.request_fullscreen();
    } else if doc.fullscreen_element().is_some() {
        doc.exit_fullscreen();
    }
}

/// Calls `f` whenever the colours a widget draws in may have changed:
///
/// - the class of `<html>` (mdBook's theme switch);
/// - `data-scheme` on the widget's themed element, which the `<tcp-widget>`
///   element sets from its `theme` attribute or from the host page's own
///   dark-mode switch (`dark-when`);
/// - the reader's system colour scheme (`prefers-color-scheme`);
///
/// and when the page answers a predict widget's question (`data-answered`
/// on the same element: one observer serves both).
///
/// Keep the returned guard for as long as the calls are wanted: dropping it
/// disconnects the observer and the media listener.
pub struct ThemeWatch {
    observer: web_sys::MutationObserver,
    media: Option<web_sys::MediaQueryList>,
    callback: Closure<dyn FnMut()>,
}

impl ThemeWatch {
    pub fn new(themed: &web_sys::Element, f: impl FnMut() + 'static) -> Option<ThemeWatch> {
        let window = web_sys::window()?;
        let html = window.document()?.document_element()?;
        let callback = Closure::<dyn FnMut()>::new(f);
        let function: &js_sys::Function = callback.as_ref().unchecked_ref();
        let observer = web_sys::MutationObserver::new(function).ok()?;
        let watch = |el: &web_sys::Element, attributes: &js_sys::Array| {
            let opts = web_sys::MutationObserverInit::new();
            opts.set_attributes(true);
            opts.set_attribute_filter(attributes);
            observer.observe_with_options(el, &opts).ok()
        };
        let s = JsValue::from_str;
        watch(&html, &js_sys::Array::of1(&s("class")))?;
        watch(
            themed,
            &js_sys::Array::of2(&s("data-scheme"), &s("data-answered")),
        )?;
        let media = window
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten();
        if let Some(m) = &media {
            let _ = m.add_event_listener_with_callback("change", function);
        }
        Some(ThemeWatch {
            observer,
            media,
            callback,
        })
    }
}

impl Drop for ThemeWatch {
    fn drop(&mut self) {
        self.observer.disconnect();
        if let Some(m) = &self.media {
            let _ = m.remove_event_listener_with_callback(
                "change",
                self.callback.as_ref().unchecked_ref(),
            );
        }
    }
}
