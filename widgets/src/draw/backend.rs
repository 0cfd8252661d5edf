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

use plotters::prelude::SVGBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use std::fmt;

pub enum Backend<'a> {
    Canvas(CanvasBackend),
    Svg(SVGBackend<'a>),
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
        each!(self, b => b.estimate_text_size(text, style))
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Drawn {
        each!(self, b => b.blit_bitmap(pos, size, src))
    }
}
