// The charts' frame as a reader sees it in the browser's own fonts: 5-digit
// tick labels clear of the axis title, and the legend in a strip above the
// plot, where it hides no data.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";
import { Widget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

// BBR at 1 Gbit/s over 210 ms with 64 MiB buffers: cwnd reaches ~18,000
// segments, so the cwnd chart's y axis has 5-digit labels.
const BIG =
  "appendix-widget-gallery.html?long-fat-4.cc=bbr&long-fat-4.bandwidth=1Gbit&long-fat-4.duration=5s" +
  "&long-fat-4.loss=0.000001&long-fat-4.queue=26250000&long-fat-4.wmem=64MiB&long-fat-4.rmem=64MiB&long-fat-4.qdisc=fq";

/// In the page: where a chart's y axis is (the leftmost column inked over
/// more than half the height), how far right the axis title's ink reaches,
/// and where the tick labels' ink starts. Label rows are those inked just
/// left of the axis; title rows are the others. Labels level with the title
/// are left out of the labels' start (their row holds title ink too).
function leftOfAxis(canvas) {
  const { width, height } = canvas;
  const data = canvas.getContext("2d").getImageData(0, 0, width, height).data;
  const at = (x, y) => {
    const i = 4 * (y * width + x);
    return (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
  };
  const paper = at(1, 1);
  const inked = (x, y) => at(x, y) !== paper;
  let axis = -1;
  for (let x = 0; x < width / 2 && axis < 0; x++) {
    let n = 0;
    for (let y = 0; y < height; y++) if (inked(x, y)) n++;
    if (n > height / 2) axis = x;
  }
  const scale = canvas.width / canvas.clientWidth;
  // Tick marks are 5 px long; labels end a few px before them.
  const labelZone = [axis - Math.round(14 * scale), axis - Math.round(6 * scale)];
  const rows = [];
  // Only beside the axis line: not the legend above, not the x axis' labels.
  for (let y = 0; y < height; y++) {
    if (!inked(axis, y)) continue;
    const xs = [];
    for (let x = 0; x < labelZone[1]; x++) if (inked(x, y)) xs.push(x);
    if (xs.length) rows.push({ y, xs, label: xs.some((x) => x >= labelZone[0]) });
  }
  const titleRows = rows.filter((r) => !r.label);
  const [top, bottom] = [Math.min(...titleRows.map((r) => r.y)), Math.max(...titleRows.map((r) => r.y))];
  const titleEnd = Math.max(...titleRows.map((r) => r.xs.at(-1)));
  // Labels above or below the title (the top one has the most digits).
  const clear = rows.filter((r) => r.label && (r.y < top - 2 || r.y > bottom + 2));
  const labelStart = Math.min(...clear.map((r) => r.xs[0]));
  return { axis, titleEnd, labelStart };
}

for (const width of [1280, 360]) {
  test(`at ${width} px the cwnd chart's 5-digit tick labels stand clear of its axis title`, async () => {
    const { page, problems, close } = await openPage(env, BIG, { viewport: { width, height: 900 } });
    const w = await Widget.find(page, "#long-fat-4");
    await w.waitInteractive(60000);
    const canvas = w.canvas("cwnd").first();
    await canvas.scrollIntoViewIfNeeded();
    // Polled until the chart is drawn, which a busy machine may delay.
    let found = await canvas.evaluate(leftOfAxis);
    for (const deadline = Date.now() + 30000; !(found.axis > 0) && Date.now() < deadline; found = await canvas.evaluate(leftOfAxis)) {
      await page.waitForTimeout(100);
    }
    assert.ok(found.axis > 0 && Number.isFinite(found.labelStart), `axis and labels found: ${JSON.stringify(found)}`);
    // Paper between the title turned on its side and the labels.
    assert.ok(found.labelStart > found.titleEnd + 1, `the title and the labels touch: ${JSON.stringify(found)}`);
    assert.deepEqual(problems.console, []);
    await close();
  });
}
