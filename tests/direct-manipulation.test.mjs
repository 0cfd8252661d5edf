// Direct manipulation (issue 18): dragging across a chart moves the time
// cursor to the time under the pointer, with a mouse and with a finger;
// dragging the path view moves time too; hovering the cwnd chart reads out
// its values; the cwnd chart's log-scale switch changes its axis and is kept
// in the link.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const FIRST = "#slow-start-1";

const open = (options) => openWidget(env, "slow-start.html", FIRST, options);

/// Where the cwnd chart put time: its plot's left and right edges in page
/// coordinates, the times there (ms), and the row to drag along.
async function plotOf(w) {
  const canvas = w.canvas("cwnd");
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const axis = await canvas.getAttribute("data-time-axis");
  const [from, to, fromNs, toNs] = axis.split(" ").map(Number);
  assert.ok(from > 20 && to < box.width && to - from > box.width / 2, `plot ${axis} in ${box.width}`);
  return {
    left: box.x + from,
    right: box.x + to,
    y: box.y + box.height / 2,
    msAt: (x) => (fromNs + ((x - box.x - from) / (to - from)) * (toNs - fromNs)) / 1e6,
  };
}

/// The run's end (ms), from the clock readout ("t = … / 49.702 ms").
async function endMs(w) {
  const [, value, unit] = (await w.clockText()).match(/\/ ([\d.]+) (ms|s)$/);
  return parseFloat(value) * (unit === "s" ? 1000 : 1);
}

/// Checks the clock after each step of a drag: it only grows, and it is the
/// time under the pointer within 3% of the axis.
function checkFollows(readings, plot, end) {
  for (let i = 0; i < readings.length; i++) {
    const { x, ms } = readings[i];
    const expect = Math.min(Math.max(plot.msAt(x), 0), end);
    assert.ok(Math.abs(ms - expect) <= 0.03 * end, `at x=${x}: clock ${ms} ms, under the pointer ${expect} ms`);
    if (i > 0) assert.ok(ms >= readings[i - 1].ms, `clock went back: ${JSON.stringify(readings)}`);
  }
}

test("dragging across the cwnd chart moves the clock to the time under the pointer", async () => {
  const { page, widget: w, problems, close } = await open();
  await w.waitInteractive();
  const plot = await plotOf(w);
  const end = await endMs(w);
  // The axis runs 2% past the end of the run (chart_frame::x_max).
  assert.ok(Math.abs(plot.msAt(plot.right) - end * 1.02) < end * 0.01, `axis end ${plot.msAt(plot.right)} vs run ${end}`);
  const readings = [];
  const xs = [0.1, 0.25, 0.4, 0.55, 0.7, 0.85].map((f) => plot.left + f * (plot.right - plot.left));
  await page.mouse.move(xs[0], plot.y);
  await page.mouse.down();
  for (const x of xs) {
    await page.mouse.move(x, plot.y, { steps: 3 });
    readings.push({ x, ms: await w.clockMs() });
  }
  // Past the chart's edge, the pointer is still ours (captured): the end.
  await page.mouse.move(plot.right + 200, plot.y, { steps: 2 });
  readings.push({ x: plot.right + 200, ms: await w.clockMs() });
  await page.mouse.up();
  checkFollows(readings, plot, end);
  assert.equal(readings.at(-1).ms, end);
  // Released: the link keeps where the drag ended.
  await page.waitForFunction(() => /slow-start-1\.t=/.test(location.search));
  assert.deepEqual(problems.console, []);
  assert.deepEqual(problems.page ?? [], []);
  await close();
});

test("a finger dragging across the chart moves the clock as a mouse does", async () => {
  const { page, widget: w, close } = await open({ context: { hasTouch: true } });
  await w.waitInteractive();
  const plot = await plotOf(w);
  const end = await endMs(w);
  const cdp = await page.context().newCDPSession(page);
  const touch = (type, x) =>
    cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y: plot.y }] });
  const xs = [0.2, 0.35, 0.5, 0.65, 0.8].map((f) => plot.left + f * (plot.right - plot.left));
  const readings = [];
  await touch("touchStart", xs[0]);
  for (const x of xs) {
    await touch("touchMove", x);
    await page.waitForTimeout(50);
    readings.push({ x, ms: await w.clockMs() });
  }
  await touch("touchEnd");
  checkFollows(readings, plot, end);
  assert.ok(readings.at(-1).ms > readings[0].ms + end * 0.4, JSON.stringify(readings));
  await close();
});

test("dragging the path view to the right moves time forward", async () => {
  const { page, widget: w, close } = await open();
  await w.waitInteractive();
  await w.step("rtt");
  const before = await w.clockMs();
  const canvas = w.canvas("path");
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.4);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.4, { steps: 4 });
  await page.mouse.up();
  const after = await w.clockMs();
  // About 30% of the lanes: a good part of the 3.5 ms one-way delay.
  assert.ok(after > before + 0.5 && after < before + 3.5, `${before} → ${after} ms`);
  await close();
});

test("hovering the cwnd chart reads out cwnd under the pointer", async () => {
  const { page, widget: w, close } = await open();
  await w.waitInteractive();
  const plot = await plotOf(w);
  await page.mouse.move(plot.left + 0.5 * (plot.right - plot.left), plot.y);
  const text = await w.locator('[data-readout="hover"]').innerText();
  assert.match(text, /ms: cwnd \d+ · ssthresh (\d+|∞)/);
  await page.mouse.move(plot.left - 400, plot.y - 400);
  await w.locator('[data-readout="hover"]').waitFor({ state: "detached" });
  await close();
});

test("hovering one chart marks the same instant on the other views (linked)", async () => {
  const { page, widget: w, close } = await open();
  await w.waitInteractive();
  const tsg = w.canvas("tsg");
  // Pixels of the time-sequence graph, before and while the pointer is over
  // the cwnd chart at 70 % of its time axis.
  // Kept in the page, compared there: the columns whose pixels changed.
  await tsg.evaluate((c) => (window.__tsgBefore = c.getContext("2d").getImageData(0, 0, c.width, c.height).data));
  const changedColumns = () =>
    tsg.evaluate((c) => {
      const [a, b] = [window.__tsgBefore, c.getContext("2d").getImageData(0, 0, c.width, c.height).data];
      const cols = new Set();
      for (let i = 0; i < a.length; i += 4) {
        if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) cols.add((i / 4) % c.width);
      }
      return [...cols];
    });
  const plot = await plotOf(w);
  await page.mouse.move(plot.left + 0.7 * (plot.right - plot.left), plot.y);
  await w.locator('[data-readout="hover"]').waitFor();
  await page.waitForTimeout(100);
  // What changed is a vertical line: the columns that differ are few and
  // next to each other, where the TSG puts the hovered time.
  const changed = new Set(await changedColumns());
  assert.ok(changed.size > 0, "the TSG marks the hovered instant");
  const cols = [...changed].sort((a, b) => a - b);
  assert.ok(cols.at(-1) - cols[0] <= 6, `changed columns ${cols[0]}–${cols.at(-1)}`);
  const [from, to, fromNs, toNs] = (await tsg.getAttribute("data-time-axis")).split(" ").map(Number);
  const cwndAxis = (await w.canvas("cwnd").getAttribute("data-time-axis")).split(" ").map(Number);
  const hoveredNs = cwndAxis[2] + 0.7 * (cwndAxis[3] - cwndAxis[2]);
  const expected = (from + ((hoveredNs - fromNs) / (toNs - fromNs)) * (to - from)) * (await page.evaluate(() => devicePixelRatio));
  assert.ok(Math.abs((cols[0] + cols.at(-1)) / 2 - expected) <= 4, `line at ${cols[0]}–${cols.at(-1)}, hovered time at ${expected}`);
  // Gone when the pointer leaves.
  await page.mouse.move(plot.left - 400, plot.y - 400);
  await w.locator('[data-readout="hover"]').waitFor({ state: "detached" });
  await page.waitForTimeout(100);
  assert.deepEqual(await changedColumns(), []);
  await close();
});

test("the log-scale switch redraws the cwnd axis and is kept in the link", async () => {
  const { page, widget: w, close } = await open();
  await w.waitInteractive();
  await w.step("rtt");
  const canvas = w.canvas("cwnd");
  const pixels = () => canvas.evaluate((c) => c.toDataURL());
  const linear = await pixels();
  assert.equal(await canvas.getAttribute("data-log-scale"), null);
  await w.locator(".tw-log-toggle input").check();
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.logScale === "1", w.css('canvas[data-view="cwnd"]'));
  await page.waitForFunction(() => /slow-start-1\.cwnd-scale=log/.test(location.search));
  assert.notEqual(await pixels(), linear, "the chart is drawn again, on another axis");
  // A link with it opens on the log axis.
  const url = page.url();
  await close();
  const again = await open();
  await again.page.goto(url);
  const w2 = new (w.constructor)(again.page, FIRST);
  await w2.waitInteractive();
  assert.equal(await w2.canvas("cwnd").getAttribute("data-log-scale"), "1");
  assert.ok(await w2.locator(".tw-log-toggle input").isChecked());
  await again.close();
});

test("space on the log-scale switch ticks it and leaves the run paused", async () => {
  const { page, widget: w, close } = await open();
  await w.waitInteractive();
  const box = w.locator(".tw-log-toggle input");
  await box.focus();
  await page.keyboard.press(" ");
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.logScale === "1", w.css('canvas[data-view="cwnd"]'));
  assert.ok(await box.isChecked());
  assert.match(await w.playButton.innerText(), /Play/, "still paused");
  await close();
});
