// The slow-start widget in the built chapter: it mounts, draws, reacts to its
// sliders, animates, and keeps keyboard input away from mdBook's navigation.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const FIRST = "#slow-start-1";

async function openChapter(options) {
  const opened = await openPage(env, "slow-start.html", options);
  // The run simulates in slices after mounting; the readouts appear when it is done.
  await opened.page.waitForSelector(`${FIRST} [data-readout="completion"]`, { timeout: 10000 });
  return opened;
}

const readout = (page, name) => page.locator(`${FIRST} [data-readout="${name}"]`).innerText();
/// The time cursor in ms, from the clock readout "t = 1.234 ms / 60.000 ms".
const clockMs = async (page) => parseFloat((await readout(page, "clock")).replace("t = ", ""));

/// Counts distinct colours in a canvas: a blank or single-colour canvas has at most one.
async function distinctColours(page, selector) {
  return page.locator(selector).evaluate((canvas) => {
    const { width, height } = canvas;
    const data = canvas.getContext("2d").getImageData(0, 0, width, height).data;
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4 * 7) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return seen.size;
  });
}

test("the widget mounts from its directive with the preset's values", async () => {
  const { page, problems, close } = await openChapter();
  assert.equal(await page.locator(`${FIRST} output[data-param="rtt"]`).innerText(), "7 ms");
  assert.equal(await page.locator(`${FIRST} output[data-param="initcwnd"]`).innerText(), "10");
  assert.equal(await page.locator(`${FIRST} output[data-param="size"]`).innerText(), "512 KiB");
  assert.match(await readout(page, "completion"), /^\d+\.\d\d ms$/);
  assert.deepEqual(problems.console, []);
  await close();
});

test("the cwnd chart and the path view hold a drawing", async () => {
  const { page, close } = await openChapter();
  assert.ok((await distinctColours(page, `${FIRST} canvas[data-view="cwnd"]`)) > 3, "chart canvas is drawn");
  assert.ok((await distinctColours(page, `${FIRST} canvas[data-view="path"]`)) > 3, "path canvas is drawn");
  await close();
});

test("the canvas backing store follows the device-pixel ratio", async () => {
  const { page, close } = await openChapter({ scale: 2 });
  const size = await page.locator(`${FIRST} canvas[data-view="cwnd"]`).evaluate((c) => [c.width, c.clientWidth]);
  assert.equal(size[0], size[1] * 2);
  await close();
});

test("moving the RTT slider changes the completion time", async () => {
  const { page, close } = await openChapter();
  const before = await readout(page, "completion");
  const slider = page.locator(`${FIRST} input[type=range]#slow-start-1-rtt`);
  await slider.fill("900"); // far up the log scale: about 150 ms
  await page.waitForFunction(
    ([sel, old]) => document.querySelector(sel).innerText !== old,
    [`${FIRST} [data-readout="completion"]`, before],
  );
  const after = await readout(page, "completion");
  assert.ok(parseFloat(after) > parseFloat(before) * 5, `${before} -> ${after}`);
  assert.notEqual(await page.locator(`${FIRST} output[data-param="rtt"]`).innerText(), "7 ms");
  await close();
});

test("playing advances the simulated clock and the flights readout", async () => {
  const { page, close } = await openChapter();
  assert.equal(await clockMs(page), 0);
  await page.locator(`${FIRST} button.tw-play`).click();
  await page.waitForTimeout(1500);
  const t = await clockMs(page);
  assert.ok(t > 1, `clock at ${t} ms after 1.5 s of slow motion`);
  assert.match(await readout(page, "flights"), /^14480 · 28960/);
  // Flights the animation has reached are shown in full, later ones dimmed.
  await page.waitForSelector(`${FIRST} .tw-flight:not(.tw-pending)`, { timeout: 10000 });
  assert.ok((await page.locator(`${FIRST} .tw-flight.tw-pending`).count()) >= 1);
  await close();
});

test("a preset from the menu reproduces its case", async () => {
  const { page, close } = await openChapter();
  await page.locator(`${FIRST} .tw-preset select`).selectOption("initcwnd-100");
  assert.equal(await page.locator(`${FIRST} output[data-param="initcwnd"]`).innerText(), "100");
  await page.locator(`${FIRST} button.tw-play`).click();
  await page.waitForFunction((sel) => document.querySelector(sel).innerText.startsWith("63712"), `${FIRST} [data-readout="flights"]`, { timeout: 10000 });
  await close();
});

test("arrow keys on a slider move the slider, not mdBook's chapter navigation", async () => {
  const { page, close } = await openChapter();
  const url = page.url();
  const path = () => page.url().split("?")[0];
  const slider = page.locator(`${FIRST} input#slow-start-1-initcwnd`);
  await slider.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.waitForTimeout(300);
  assert.equal(path(), url, "still on the same chapter");
  assert.notEqual(await page.locator(`${FIRST} output[data-param="initcwnd"]`).innerText(), "10");
  await close();
});

test("the widget redraws in mdBook's dark theme", async () => {
  const { page, close } = await openChapter();
  const bg = async () =>
    page.locator(`${FIRST} canvas[data-view="cwnd"]`).evaluate((c) => Array.from(c.getContext("2d").getImageData(2, 2, 1, 1).data.slice(0, 3)));
  const light = await bg();
  await page.evaluate(() => {
    document.documentElement.classList.remove("light");
    document.documentElement.classList.add("navy");
  });
  // Any redraw picks up the theme: nudge one.
  await page.locator(`${FIRST} button.tw-restart`).click();
  await page.waitForTimeout(200);
  const dark = await bg();
  assert.notDeepEqual(dark, light);
  assert.ok(dark[0] + dark[1] + dark[2] < light[0] + light[1] + light[2]);
  await close();
});
