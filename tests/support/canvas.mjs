// Reading a canvas back in the page: whether it holds a drawing.

/// Distinct colours (RGB) among every `stride`-th pixel of a canvas: a blank
/// or single-colour canvas has at most one, a canvas with no size none. Each
/// test keeps the stride it was written with: a finer one sees more colours.
export function distinctColours(canvas, stride = 7) {
  return canvas.evaluate((c, step) => {
    const { width, height } = c;
    if (!width || !height) return 0;
    const data = c.getContext("2d").getImageData(0, 0, width, height).data;
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4 * step) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return seen.size;
  }, stride);
}

/// Whether a canvas holds a drawing: more than three colours among every
/// `stride`-th pixel.
export const inked = async (canvas, stride) => (await distinctColours(canvas, stride)) > 3;

/// Whether the canvas is more than one flat fill: some pixel (every 97th,
/// all four channels) differs from the first.
export function notBlank(canvas) {
  return canvas.evaluate((c) => {
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const first = d.slice(0, 4).join();
    for (let i = 0; i < d.length; i += 4 * 97) if (d.slice(i, i + 4).join() !== first) return true;
    return false;
  });
}
