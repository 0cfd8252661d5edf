//! Drawing as an SVG document: the backend of the "Download as SVG"
//! button (and of `views::svg`, which native tests read).
//!
//! It writes the document plotters' `SVGBackend` writes, element for
//! element and attribute for attribute (a test compares the two on every
//! view), but prints opacities and font sizes through
//! `sim_core::decimal_text` instead of `format!("{}", f64)`, which keeps the
//! standard library's float formatter out of the wasm.

use super::backend::BackendError;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontStyle, FontTransform,
};
use sim_core::decimal_text::shortest;

type Drawn = Result<(), DrawingErrorKind<BackendError>>;

pub struct SvgWriter<'a> {
    out: &'a mut String,
    size: (u32, u32),
    /// The document is still open (`</svg>` not yet written).
    open: bool,
}

impl<'a> SvgWriter<'a> {
    /// Starts a `w`×`h` document in `out`.
    pub fn new(out: &'a mut String, size: (u32, u32)) -> SvgWriter<'a> {
        let (w, h) = size;
        let mut s = SvgWriter {
            out,
            size,
            open: true,
        };
        let (w, h, view) = (w.to_string(), h.to_string(), format!("0 0 {w} {h}"));
        s.tag(
            "svg",
            &[
                ("width", &w),
                ("height", &h),
                ("viewBox", &view),
                ("xmlns", "http://www.w3.org/2000/svg"),
            ],
            false,
        );
        s
    }

    /// `<name a="v" …/>`, or without the slash when the element goes on.
    fn tag(&mut self, name: &str, attrs: &[(&str, &str)], empty: bool) {
        self.out.push('<');
        self.out.push_str(name);
        for (key, value) in attrs {
            self.out.push(' ');
            self.out.push_str(key);
            self.out.push_str("=\"");
            escape(self.out, value);
            self.out.push('"');
        }
        self.out.push_str(if empty { "/>\n" } else { ">\n" });
    }
}

fn escape(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
}

fn color(c: BackendColor) -> String {
    let (r, g, b) = c.rgb;
    format!("#{r:02X}{g:02X}{b:02X}")
}

fn points(path: impl IntoIterator<Item = BackendCoord>) -> String {
    let mut s = String::new();
    for (x, y) in path {
        s.push_str(&format!("{x},{y} "));
    }
    s
}

impl DrawingBackend for SvgWriter<'_> {
    type ErrorType = BackendError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Drawn {
        Ok(())
    }

    fn present(&mut self) -> Drawn {
        if self.open {
            self.out.push_str("</svg>\n");
            self.open = false;
        }
        Ok(())
    }

    fn draw_pixel(&mut self, p: BackendCoord, c: BackendColor) -> Drawn {
        if c.alpha > 0.0 {
            let (x, y) = (p.0.to_string(), p.1.to_string());
            let attrs = [
                ("x", x.as_str()),
                ("y", &y),
                ("width", "1"),
                ("height", "1"),
                ("stroke", "none"),
                ("opacity", &shortest(c.alpha)),
                ("fill", &color(c)),
            ];
            self.tag("rect", &attrs, true);
        }
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn {
        let c = style.color();
        if c.alpha > 0.0 {
            let attrs = [
                ("opacity", shortest(c.alpha)),
                ("stroke", color(c)),
                ("stroke-width", style.stroke_width().to_string()),
                ("x1", from.0.to_string()),
                ("y1", from.1.to_string()),
                ("x2", to.0.to_string()),
                ("y2", to.1.to_string()),
            ];
            self.tag("line", &borrowed(&attrs), true);
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
        let c = style.color();
        if c.alpha > 0.0 {
            let (fill, stroke) = if fill {
                (color(c), "none".to_string())
            } else {
                ("none".to_string(), color(c))
            };
            let attrs = [
                ("x", upper_left.0.to_string()),
                ("y", upper_left.1.to_string()),
                ("width", (bottom_right.0 - upper_left.0).to_string()),
                ("height", (bottom_right.1 - upper_left.1).to_string()),
                ("opacity", shortest(c.alpha)),
                ("fill", fill),
                ("stroke", stroke),
            ];
            self.tag("rect", &borrowed(&attrs), true);
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        let c = style.color();
        if c.alpha > 0.0 {
            let attrs = [
                ("fill", "none".to_string()),
                ("opacity", shortest(c.alpha)),
                ("stroke", color(c)),
                ("stroke-width", style.stroke_width().to_string()),
                ("points", points(path)),
            ];
            self.tag("polyline", &borrowed(&attrs), true);
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn {
        let c = style.color();
        if c.alpha > 0.0 {
            let attrs = [
                ("opacity", shortest(c.alpha)),
                ("fill", color(c)),
                ("points", points(vert)),
            ];
            self.tag("polygon", &borrowed(&attrs), true);
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
        let c = style.color();
        if c.alpha > 0.0 {
            let (stroke, fill) = if fill {
                ("none".to_string(), color(c))
            } else {
                (color(c), "none".to_string())
            };
            let attrs = [
                ("cx", center.0.to_string()),
                ("cy", center.1.to_string()),
                ("r", radius.to_string()),
                ("opacity", shortest(c.alpha)),
                ("fill", fill),
                ("stroke", stroke),
                ("stroke-width", style.stroke_width().to_string()),
            ];
            self.tag("circle", &borrowed(&attrs), true);
        }
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Drawn {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let (x, y) = pos;
        let anchor = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "middle",
        };
        // The baseline sits below the anchor by about the ascent.
        let dy = match style.anchor().v_pos {
            VPos::Top => "0.76em",
            VPos::Center => "0.5ex",
            VPos::Bottom => "-0.5ex",
        };
        let mut attrs = vec![
            ("x", x.to_string()),
            ("y", y.to_string()),
            ("dy", dy.to_string()),
            ("text-anchor", anchor.to_string()),
            ("font-family", style.family().as_str().to_string()),
            // A CSS pixel size reads about 1.24 times larger in SVG user units.
            ("font-size", shortest(style.size() / 1.24)),
            ("opacity", shortest(c.alpha)),
            ("fill", color(c)),
        ];
        match style.style() {
            FontStyle::Normal => {}
            FontStyle::Bold => attrs.push(("font-weight", "bold".to_string())),
            other => attrs.push(("font-style", other.as_str().to_string())),
        }
        let turn = match style.transform() {
            FontTransform::Rotate90 => Some(90),
            FontTransform::Rotate180 => Some(180),
            FontTransform::Rotate270 => Some(270),
            FontTransform::None => None,
        };
        if let Some(deg) = turn {
            attrs.push(("transform", format!("rotate({deg}, {x}, {y})")));
        }
        self.tag("text", &borrowed(&attrs), false);
        escape(self.out, text);
        self.out.push_str("\n</text>\n");
        Ok(())
    }
}

impl Drop for SvgWriter<'_> {
    /// A document dropped unfinished is closed, as plotters' backend does.
    fn drop(&mut self) {
        let _ = self.present();
    }
}

fn borrowed<'a>(attrs: &'a [(&'a str, String)]) -> Vec<(&'a str, &'a str)> {
    attrs.iter().map(|(k, v)| (*k, v.as_str())).collect()
}
