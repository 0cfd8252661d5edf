//! Drawing on a `<canvas>`: the plotters backend the widgets draw with in
//! the page.
//!
//! It does what plotters-canvas does (one canvas call per primitive,
//! horizontal and vertical lines moved half a pixel to stay sharp, text
//! placed with the canvas's own alignment), with one difference that
//! matters for the bundle: colours and font sizes are written with integer
//! formatting, not `format!("{}", f64)`, so the standard library's float
//! formatter is not in the wasm (see `sim_core::decimal_text`).

use super::backend::BackendError;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};
use sim_core::units::Within;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

type Drawn = Result<(), DrawingErrorKind<BackendError>>;

pub struct CanvasDraw {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
}

impl CanvasDraw {
    /// The canvas's 2D context, or `None` where the browser gives none.
    pub fn new(canvas: HtmlCanvasElement) -> Option<CanvasDraw> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        Some(CanvasDraw { canvas, context })
    }

    fn stroke_style(&self, style: &impl BackendStyle) {
        self.context.set_stroke_style_str(&css_color(style.color()));
        self.context.set_line_width(style.stroke_width() as f64);
    }

    fn fill_style(&self, color: BackendColor) {
        self.context.set_fill_style_str(&css_color(color));
    }

    /// Moves along `points`, from the first to the last.
    fn trace(&self, points: impl IntoIterator<Item = BackendCoord>) -> bool {
        let mut points = points.into_iter();
        let Some((x, y)) = points.next() else {
            return false;
        };
        self.context.move_to(x as f64, y as f64);
        for (x, y) in points {
            self.context.line_to(x as f64, y as f64);
        }
        true
    }
}

/// The colour as CSS reads it: `rgb(r,g,b)`, or `rgba(r,g,b,0.xyz)` with the
/// opacity to a thousandth (finer than a canvas's 8-bit alpha). Integer
/// formatting only: this runs for every primitive of every frame.
pub fn css_color(c: BackendColor) -> String {
    let (r, g, b) = c.rgb;
    let milli = (c.alpha.within(0.0, 1.0) * 1000.0).round() as u32;
    if milli >= 1000 {
        format!("rgb({r},{g},{b})")
    } else {
        format!("rgba({r},{g},{b},0.{milli:03})")
    }
}

/// A font size in CSS pixels to a tenth (`11`, `16.5`), in integers.
pub fn css_px(size: f64) -> String {
    let tenths = (size.within(0.0, 1e6) * 10.0).round() as u64;
    match tenths % 10 {
        0 => (tenths / 10).to_string(),
        d => format!("{}.{d}", tenths / 10),
    }
}

fn failed(_: JsValue) -> DrawingErrorKind<BackendError> {
    DrawingErrorKind::DrawingError(BackendError)
}

/// A one-pixel line on whole coordinates covers two half-lit pixel rows; on
/// the half pixel it covers one. Only lines along an axis are moved.
fn sharp(from: BackendCoord, to: BackendCoord) -> ((f64, f64), (f64, f64)) {
    let (mut a, mut b) = ((from.0 as f64, from.1 as f64), (to.0 as f64, to.1 as f64));
    if a.0 == b.0 {
        a.0 -= 0.5;
        b.0 -= 0.5;
    }
    if a.1 == b.1 {
        a.1 -= 0.5;
        b.1 -= 0.5;
    }
    (a, b)
}

impl DrawingBackend for CanvasDraw {
    type ErrorType = BackendError;

    fn get_size(&self) -> (u32, u32) {
        (self.canvas.width(), self.canvas.height())
    }

    fn ensure_prepared(&mut self) -> Drawn {
        Ok(())
    }

    fn present(&mut self) -> Drawn {
        Ok(())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn {
        if color.alpha > 0.0 {
            self.fill_style(color);
            self.context
                .fill_rect(point.0 as f64, point.1 as f64, 1.0, 1.0);
        }
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn {
        if style.color().alpha > 0.0 {
            let (a, b) = sharp(from, to);
            self.stroke_style(style);
            self.context.begin_path();
            self.context.move_to(a.0, a.1);
            self.context.line_to(b.0, b.1);
            self.context.stroke();
        }
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        if style.color().alpha > 0.0 {
            let (x, y) = (upper_left.0 as f64, upper_left.1 as f64);
            let w = (bottom_right.0 - upper_left.0) as f64;
            let h = (bottom_right.1 - upper_left.1) as f64;
            if fill {
                self.fill_style(style.color());
                self.context.fill_rect(x, y, w, h);
            } else {
                self.stroke_style(style);
                self.context.stroke_rect(x, y, w, h);
            }
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        if style.color().alpha > 0.0 {
            self.context.begin_path();
            self.stroke_style(style);
            self.trace(path);
            self.context.stroke();
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn {
        if style.color().alpha > 0.0 {
            self.context.begin_path();
            self.fill_style(style.color());
            if self.trace(vert) {
                self.context.close_path();
            }
            self.context.fill();
        }
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        if style.color().alpha > 0.0 {
            if fill {
                self.fill_style(style.color());
            } else {
                self.stroke_style(style);
            }
            self.context.begin_path();
            let (x, y, r) = (center.0 as f64, center.1 as f64, radius as f64);
            self.context
                .arc(x, y, r, 0.0, std::f64::consts::TAU)
                .map_err(failed)?;
            if fill {
                self.context.fill();
            } else {
                self.context.stroke();
            }
        }
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Drawn {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let quarter_turns = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 1.0,
            FontTransform::Rotate180 => 2.0,
            FontTransform::Rotate270 => 3.0,
        };
        let (mut x, mut y) = (pos.0 as f64, pos.1 as f64);
        if quarter_turns != 0.0 {
            // Rotate about the text's anchor.
            self.context.save();
            self.context.translate(x, y).map_err(failed)?;
            self.context
                .rotate(quarter_turns * std::f64::consts::FRAC_PI_2)
                .map_err(failed)?;
            (x, y) = (0.0, 0.0);
        }
        self.context.set_text_baseline(match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        });
        self.context.set_text_align(match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        });
        self.fill_style(color);
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            css_px(style.size()),
            style.family().as_str()
        ));
        self.context.fill_text(text, x, y).map_err(failed)?;
        if quarter_turns != 0.0 {
            self.context.restore();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_and_sizes_read_as_css() {
        let c = |alpha| BackendColor {
            alpha,
            rgb: (1, 2, 3),
        };
        assert_eq!(css_color(c(1.0)), "rgb(1,2,3)");
        assert_eq!(css_color(c(0.35)), "rgba(1,2,3,0.350)");
        assert_eq!(css_color(c(0.0004)), "rgba(1,2,3,0.000)");
        assert_eq!(css_color(c(f64::NAN)), "rgba(1,2,3,0.000)");
        assert_eq!(css_px(11.0), "11");
        assert_eq!(css_px(16.5), "16.5");
        assert_eq!(css_px(13.2 * 1.25), "16.5");
    }
}
