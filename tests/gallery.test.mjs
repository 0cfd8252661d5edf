// The "Widget gallery" appendix: every view drawn, the preset menus, and
// compare mode (two runs side by side on one clock, shared controls, one
// control per side for the compared setting, its state in the URL).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const PAGE = "appendix-widget-gallery.html";
const COMPARE = '.tcp-widget[data-widget="long-fat"]';
// Two 30-second runs simulate before the comparison answers.
const SLOW = { timeout: 60000 };

/// The cursor in ms from "t = 15.00 s / 30.00 s" or "t = 0.350 ms / 49.702 ms".
async function clockMs(page, root) {
  const [, value, unit] = (await page.locator(`${root} [data-readout="clock"]`).innerText()).match(/^t = ([\d.]+) (ms|s)/);
  return parseFloat(value) * (unit === "s" ? 1000 : 1);
}

/// Distinct colours on a canvas: more than a few means something was drawn.
const inked = (locator) =>
  locator.evaluate((canvas) => {
    const { width, height } = canvas;
    const data = canvas.getContext("2d").getImageData(0, 0, width, height).data;
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4 * 7) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return seen.size;
  });

async function openGallery(query = "") {
  const opened = await openPage(env, PAGE + query);
  await opened.page.waitForSelector(`${COMPARE} .tw-side[data-side="b"] [data-readout="completion"]`, SLOW);
  return opened;
}

test("the gallery draws every view, with preset menus and no errors", async () => {
  const { page, problems, close } = await openGallery();
  const widgets = await page.locator(".tcp-widget[data-widget]").count();
  assert.ok(widgets >= 4, `${widgets} widgets`);
  for (let i = 0; i < widgets; i++) {
    const w = page.locator(".tcp-widget[data-widget]").nth(i);
    await w.locator('[data-readout="completion"]').first().waitFor(SLOW);
    assert.ok((await w.locator(".tw-preset option").count()) > 2, "a preset menu");
  }
  for (const view of ["path", "cwnd", "tsg", "ladder", "rtt", "throughput"]) {
    const canvases = page.locator(`canvas[data-view="${view}"]`);
    assert.ok((await canvases.count()) > 0, `the ${view} view is on the page`);
    assert.ok((await inked(canvases.first())) > 3, `the ${view} view is drawn`);
  }
  assert.deepEqual(problems.console, []);
  assert.deepEqual(problems.failed, []);
  assert.deepEqual(problems.external, []);
  await close();
});

test("compare mode runs both sides under one clock with their own settings", async () => {
  const { page, close } = await openGallery();
  const a = `${COMPARE} .tw-side[data-side="a"]`;
  const b = `${COMPARE} .tw-side[data-side="b"]`;
  assert.match(await page.locator(`${a} .tw-side-title`).innerText(), /cubic/);
  assert.match(await page.locator(`${b} .tw-side-title`).innerText(), /bbr/);
  // Each side simulated its own module: its settings panel says which.
  const settings = (side) => page.locator(`${side} [data-panel="settings"]`).textContent();
  assert.match(await settings(a), /cubic/);
  assert.match(await settings(b), /bbr/);
  // One clock for both: one readout, one scrubber; both sides' ss lines follow it.
  assert.equal(await page.locator(`${COMPARE} [data-readout="clock"]`).count(), 1);
  const ssA = await page.locator(`${a} [data-panel="ss"]`).textContent();
  const ssB = await page.locator(`${b} [data-panel="ss"]`).textContent();
  await page.locator(`${COMPARE} .tw-scrubber`).fill("500");
  const t = await clockMs(page, COMPARE);
  assert.ok(t > 14000 && t < 16000, `half way through 30 s: ${t} ms`);
  assert.notEqual(await page.locator(`${a} [data-panel="ss"]`).textContent(), ssA);
  assert.notEqual(await page.locator(`${b} [data-panel="ss"]`).textContent(), ssB);
  assert.match(await page.locator(`${COMPARE} [data-readout="cwnd"]`).innerText(), /^A cwnd \d+ · B cwnd \d+$/);
  // Every view is drawn on both sides.
  for (const side of [a, b]) {
    for (const canvas of await page.locator(`${side} canvas`).all()) assert.ok((await inked(canvas)) > 3);
  }
  await close();
});

test("a shared control changes both runs; the compared one has a control per side", async () => {
  const { page, close } = await openGallery();
  const id = await page.locator(COMPARE).getAttribute("id");
  assert.equal(await page.locator(`#${id}-cc`).inputValue(), "cubic");
  assert.equal(await page.locator(`#${id}-cc-b`).inputValue(), "bbr");
  assert.equal(await page.locator(`${COMPARE} #${id}-rtt-b`).count(), 0, "RTT is shared");
  // A shorter run (5 s) on both sides.
  const box = page.locator(`#${id}-duration-text`);
  await box.fill("5s");
  await box.press("Enter");
  await page.waitForFunction((sel) => document.querySelector(sel)?.innerText.endsWith("/ 5000.000 ms"), `${COMPARE} [data-readout="clock"]`, SLOW);
  for (const side of ["a", "b"]) {
    const iperf = await page.locator(`${COMPARE} .tw-side[data-side="${side}"] [data-panel="iperf"]`).textContent();
    assert.ok(iperf.length > 0);
  }
  // Side B to reno: the URL records the comparison, and a link reopens it.
  await page.locator(`#${id}-cc-b`).selectOption("reno");
  await page.waitForFunction((sel) => /reno/.test(document.querySelector(sel)?.innerText), `${COMPARE} .tw-side[data-side="b"] .tw-side-title`);
  await page.locator(`${COMPARE} .tw-side[data-side="b"] [data-readout="completion"]`).waitFor(SLOW);
  const url = page.url();
  assert.match(url, new RegExp(`${id}\\.compare=cc`));
  assert.match(url, new RegExp(`${id}\\.vs=reno`));
  assert.match(url, new RegExp(`${id}\\.duration=5s`));
  await close();
  const again = await openPage(env, PAGE + url.slice(url.indexOf("?")));
  await again.page.waitForSelector(`${COMPARE} .tw-side[data-side="b"] [data-panel="settings"]`, { ...SLOW, state: "attached" });
  assert.equal(await again.page.locator(`#${id}-cc-b`).inputValue(), "reno");
  assert.match(await again.page.locator(`${COMPARE} .tw-side[data-side="b"] [data-panel="settings"]`).textContent(), /reno/);
  await again.close();
});
