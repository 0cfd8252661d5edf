//! The zero-window marker: plotters' `TriangleMarker` with its corner
//! directions written down instead of computed.
//!
//! `TriangleMarker` puts its corners at -90°, -210° and -330° by calling
//! `cos` and `sin` on every draw, and those two calls were all that kept
//! libm's trigonometry (about 7 KB of wasm, 3 KB gzipped) in the bundle.
//! The six values below are the bits `cos` and `sin` return for those angles
//! (`deg * PI / 180`), natively and in the wasm alike (compiler-builtins'
//! libm was checked once; the test checks the native ones), and the corners
//! are rounded as plotters rounds them, so every pixel and every SVG point
//! is the same.

use plotters::element::{Drawable, PointCollection};
use plotters::style::{Color, ShapeStyle};
use plotters_backend::{BackendColor, BackendCoord, DrawingBackend, DrawingErrorKind};

/// `cos` of -90°, -210°, -330° (radians as `TriangleMarker` computes them).
const COS: [f64; 3] = [
    f64::from_bits(0x3c91a62633145c07),
    f64::from_bits(0xbfebb67ae8584caa),
    f64::from_bits(0x3febb67ae8584ca8),
];
/// `sin` of the same angles.
const SIN: [f64; 3] = [
    f64::from_bits(0xbff0000000000000),
    f64::from_bits(0x3fe0000000000001),
    f64::from_bits(0x3fe0000000000004),
];

/// A filled triangle pointing up, `size` pixels from its centre to a corner.
pub struct Triangle<Coord> {
    center: Coord,
    size: i32,
    style: ShapeStyle,
}

impl<Coord> Triangle<Coord> {
    pub fn new(center: Coord, size: i32, style: ShapeStyle) -> Self {
        Triangle {
            center,
            size,
            style,
        }
    }
}

impl<'a, Coord: 'a> PointCollection<'a, Coord> for &'a Triangle<Coord> {
    type Point = &'a Coord;
    type IntoIter = std::iter::Once<&'a Coord>;
    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.center)
    }
}

impl<Coord, DB: DrawingBackend> Drawable<DB> for Triangle<Coord> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut points: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        if let Some((x, y)) = points.next() {
            let size = f64::from(self.size);
            let corners = (0..3).map(|i| {
                (
                    (COS[i] * size + f64::from(x)).ceil() as i32,
                    (SIN[i] * size + f64::from(y)).ceil() as i32,
                )
            });
            let color: BackendColor = self.style.color.to_backend_color();
            backend.fill_polygon(corners, &color)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::prelude::*;

    #[test]
    fn the_corner_directions_are_what_cos_and_sin_return() {
        for (i, deg) in [-90, -210, -330].into_iter().enumerate() {
            let rad = std::hint::black_box(f64::from(deg) * std::f64::consts::PI / 180.0);
            assert_eq!(COS[i].to_bits(), rad.cos().to_bits(), "cos {deg}");
            assert_eq!(SIN[i].to_bits(), rad.sin().to_bits(), "sin {deg}");
        }
    }

    fn svg(draw: impl Fn(&DrawingArea<SVGBackend, plotters::coord::Shift>)) -> String {
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (200, 200)).into_drawing_area();
            draw(&area);
        }
        out
    }

    #[test]
    fn draws_what_plotters_triangle_marker_draws() {
        let style = RGBColor(10, 20, 30).mix(0.5).filled();
        for size in 0..40 {
            for (x, y) in [(0, 0), (17, 91), (100, 3), (-5, 150)] {
                let ours = svg(|a| a.draw(&Triangle::new((x, y), size, style)).unwrap());
                let theirs = svg(|a| a.draw(&TriangleMarker::new((x, y), size, style)).unwrap());
                assert_eq!(ours, theirs, "size {size} at ({x}, {y})");
            }
        }
    }
}
