//! The one plotters backend the browser draws with: a canvas in the page, or
//! an SVG document for the "Download as SVG" button.
//!
//! The drawing code is generic over the backend, and Rust compiles a generic
//! function once per backend type. With the canvas and the SVG backend both
//! reaching the wasm, every chart, legend and plotters element was there
//! twice (about 80 KB before gzip). Behind this enum the browser has one
//! backend type, so each drawing function is compiled once; every method
//! hands the call to the backend inside unchanged, so each draws exactly as
//! it does on its own. Native code (tests, build-time figures) keeps using
//! `SVGBackend` directly.
//!
//! Both backends inside are ours ([`CanvasDraw`], [`SvgWriter`]): they draw
//! as plotters-canvas and plotters' `SVGBackend` do, but print no float
//! through `format!`, and text is measured here; with that, the standard
//! library's float formatter (about 17 KB of the wasm) is not in the bundle
//! (`sim_core::decimal_text`).

pub use super::canvas_backend::CanvasDraw;
pub use super::svg_writer::SvgWriter;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use std::fmt;

pub enum Backend<'a> {
    Canvas(CanvasDraw),
    Svg(SvgWriter<'a>),
}

/// A backend's failure. The browser ignores drawing errors (a frame that
/// fails is drawn again on the next change), so which backend failed and
/// why is not kept.
#[derive(Debug)]
pub struct BackendError;

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("drawing failed")
    }
}

impl std::error::Error for BackendError {}

type Drawn<T = ()> = Result<T, DrawingErrorKind<BackendError>>;

/// The inner backend's result with its error as [`BackendError`] (a font
/// error passes through).
fn forget<T, E: std::error::Error + Send + Sync>(r: Result<T, DrawingErrorKind<E>>) -> Drawn<T> {
    r.map_err(|e| match e {
        DrawingErrorKind::DrawingError(_) => DrawingErrorKind::DrawingError(BackendError),
        DrawingErrorKind::FontError(f) => DrawingErrorKind::FontError(f),
    })
}

/// Calls `$method` on whichever backend `$self` holds.
macro_rules! each {
    ($self:ident, $b:ident => $call:expr) => {
        match $self {
            Backend::Canvas($b) => forget($call),
            Backend::Svg($b) => forget($call),
        }
    };
}

/// A style as backends read it: `BackendStyle` is a colour and a width.
#[derive(Clone, Copy)]
struct Plain {
    color: BackendColor,
    width: u32,
}

impl BackendStyle for Plain {
    fn color(&self) -> BackendColor {
        self.color
    }
    fn stroke_width(&self) -> u32 {
        self.width
    }
}

impl Backend<'_> {
    #[inline(never)]
    fn draw_path_vec(&mut self, path: Vec<BackendCoord>, style: Plain) -> Drawn {
        each!(self, b => b.draw_path(path, &style))
    }
}

impl DrawingBackend for Backend<'_> {
    type ErrorType = BackendError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            Backend::Canvas(b) => b.get_size(),
            Backend::Svg(b) => b.get_size(),
        }
    }

    fn ensure_prepared(&mut self) -> Drawn {
        each!(self, b => b.ensure_prepared())
    }

    fn present(&mut self) -> Drawn {
        each!(self, b => b.present())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn {
        each!(self, b => b.draw_pixel(point, color))
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn {
        each!(self, b => b.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        each!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        // Plotters hands paths over as several iterator types; as a Vec they
        // reach each backend's `draw_path` as one type, compiled once.
        let style = Plain {
            color: style.color(),
            width: style.stroke_width(),
        };
        self.draw_path_vec(path.into_iter().collect(), style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        each!(self, b => b.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn {
        each!(self, b => b.fill_polygon(vert, style))
    }

    fn draw_text<TStyle: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &TStyle,
        pos: BackendCoord,
    ) -> Drawn {
        each!(self, b => b.draw_text(text, style, pos))
    }

    fn estimate_text_size<TStyle: BackendTextStyle>(
        &self,
        text: &str,
        style: &TStyle,
    ) -> Drawn<(u32, u32)> {
        measure(text, style)
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Drawn {
        each!(self, b => b.blit_bitmap(pos, size, src))
    }
}

/// Width and height of `text` in `style`, in device pixels (0 where it
/// cannot be measured): what the backends measure, for layout done before
/// drawing.
pub fn text_box<S: BackendTextStyle>(style: &S, text: &str) -> (i32, i32) {
    measure(text, style).map_or((0, 0), |(w, h)| (w as i32, h as i32))
}

/// The size `text` takes in `style`, as plotters measures it in a browser
/// (its `web` font: an off-screen span, its offset width and height), with
/// the font size printed with integer formatting rather than `format!`.
#[cfg(target_arch = "wasm32")]
fn measure<S: BackendTextStyle>(text: &str, style: &S) -> Drawn<(u32, u32)> {
    use wasm_bindgen::JsCast;
    let failed = || DrawingErrorKind::DrawingError(BackendError);
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(failed)?;
    let body = document.body().ok_or_else(failed)?;
    let span = document.create_element("span").map_err(|_| failed())?;
    span.set_text_content(Some(text));
    let css = format!(
        "display: inline-block; font-family:{}; font-style:{}; font-size: {}px; position: fixed; top: 100%",
        style.family().as_str(),
        style.style().as_str(),
        super::canvas_backend::css_px(style.size())
    );
    let _ = span.set_attribute("style", &css);
    let _ = body.append_child(&span);
    let span: web_sys::HtmlElement = span.dyn_into().map_err(|_| failed())?;
    let size = (
        span.offset_width().max(0) as u32,
        span.offset_height().max(0) as u32,
    );
    span.remove();
    Ok(size)
}

/// Natively (tests, build-time figures): plotters' own estimate.
#[cfg(not(target_arch = "wasm32"))]
fn measure<S: BackendTextStyle>(text: &str, style: &S) -> Drawn<(u32, u32)> {
    let ((x0, y0), (x1, y1)) = style
        .layout_box(text)
        .map_err(|e| DrawingErrorKind::FontError(Box::new(e)))?;
    Ok(((x1 - x0) as u32, (y1 - y0) as u32))
}
