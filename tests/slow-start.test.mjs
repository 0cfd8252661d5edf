// The slow-start widget in the built chapter: it mounts, draws, reacts to its
// sliders, animates, and keeps keyboard input away from mdBook's navigation.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const FIRST = "#slow-start-1";

// The run simulates in slices after mounting; the readouts appear when it is done.
const openChapter = (options) => openWidget(env, "slow-start.html", FIRST, options);

test("the widget mounts from its directive with the preset's values", async () => {
  const { widget: w, problems, close } = await openChapter();
  assert.equal(await w.slider("rtt").value(), "7 ms");
  assert.equal(await w.slider("initcwnd").value(), "10");
  assert.equal(await w.slider("size").value(), "512 KiB");
  assert.match(await w.readout("completion"), /^\d+\.\d\d ms$/);
  assert.deepEqual(problems.console, []);
  await close();
});

test("the cwnd chart and the path view hold a drawing", async () => {
  const { widget: w, close } = await openChapter();
  assert.ok(await w.inkedCanvas("cwnd"), "chart canvas is drawn");
  assert.ok(await w.inkedCanvas("path"), "path canvas is drawn");
  await close();
});

test("the canvas backing store follows the device-pixel ratio", async () => {
  const { widget: w, close } = await openChapter({ scale: 2 });
  const size = await w.canvas("cwnd").evaluate((c) => [c.width, c.clientWidth]);
  assert.equal(size[0], size[1] * 2);
  await close();
});

test("moving the RTT slider changes the completion time", async () => {
  const { page, widget: w, close } = await openChapter();
  const before = await w.readout("completion");
  await w.slider("rtt").set("900"); // far up the log scale: about 150 ms
  await page.waitForFunction(
    ([sel, old]) => document.querySelector(sel).textContent !== old,
    [w.css('[data-readout="completion"]'), before],
  );
  const after = await w.readout("completion");
  assert.ok(parseFloat(after) > parseFloat(before) * 5, `${before} -> ${after}`);
  assert.notEqual(await w.slider("rtt").value(), "7 ms");
  await close();
});

test("playing advances the simulated clock and the flights readout", async () => {
  const { page, widget: w, close } = await openChapter();
  assert.equal(await w.clockMs(), 0);
  await w.play();
  // Polled, not timed: a busy machine draws fewer frames, and the clock
  // moves at most 100 ms of wall time per frame.
  await page.waitForFunction(
    (sel) => parseFloat(document.querySelector(sel).textContent.trim().match(/^t = ([\d.]+)/)[1]) > 1,
    w.css('[data-readout="clock"]'),
    { timeout: 30000 },
  );
  assert.match(await w.readout("flights"), /^14480 · 28960/);
  await w.openDetails();
  // Flights the animation has reached are shown in full, later ones dimmed.
  await page.waitForSelector(w.css(".tw-flight:not(.tw-pending)"), { timeout: 10000 });
  assert.ok((await w.locator(".tw-flight.tw-pending").count()) >= 1);
  await close();
});

test("a preset from the menu reproduces its case", async () => {
  const { page, widget: w, close } = await openChapter();
  await w.setPreset("initcwnd-100");
  assert.equal(await w.slider("initcwnd").value(), "100");
  await w.play();
  await page.waitForFunction((sel) => document.querySelector(sel).textContent.startsWith("63712"), w.css('[data-readout="flights"]'), { timeout: 10000 });
  await close();
});

test("arrow keys on a slider move the slider, not mdBook's chapter navigation", async () => {
  const { page, widget: w, close } = await openChapter();
  const url = page.url();
  const path = () => page.url().split("?")[0];
  await w.slider("initcwnd").range.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.waitForTimeout(300);
  assert.equal(path(), url, "still on the same chapter");
  assert.notEqual(await w.slider("initcwnd").value(), "10");
  await close();
});

test("the widget redraws in mdBook's dark theme", async () => {
  const { page, widget: w, close } = await openChapter();
  const bg = async () => w.canvas("cwnd").evaluate((c) => Array.from(c.getContext("2d").getImageData(2, 2, 1, 1).data.slice(0, 3)));
  const light = await bg();
  await page.evaluate(() => {
    document.documentElement.classList.remove("light");
    document.documentElement.classList.add("navy");
  });
  // Any redraw picks up the theme: nudge one.
  await w.restart();
  // Polled: the redraw comes on a later frame, later still on a busy machine.
  const sum = (c) => c[0] + c[1] + c[2];
  let dark = await bg();
  for (const deadline = Date.now() + 30000; sum(dark) >= sum(light) && Date.now() < deadline; dark = await bg()) {
    await page.waitForTimeout(50);
  }
  assert.notDeepEqual(dark, light);
  assert.ok(dark[0] + dark[1] + dark[2] < light[0] + light[1] + light[2]);
  await close();
});
