// The widget kit in the built book: linked views under one cursor, the URL
// round trip, hostile URL values, keyboard shortcuts that leave mdBook's
// navigation alone, presenter mode, help, and every view drawing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const FIRST = "#slow-start-1";

async function open(query = "", options) {
  const opened = await openPage(env, `slow-start.html${query}`, options);
  await opened.page.waitForSelector(`${FIRST} [data-readout="completion"]`, { timeout: 10000 });
  return opened;
}

const clockMs = async (page) =>
  parseFloat((await page.locator(`${FIRST} [data-readout="clock"]`).innerText()).replace("t = ", ""));

async function inked(page, selector) {
  return page.locator(selector).evaluate((canvas) => {
    const { width, height } = canvas;
    const data = canvas.getContext("2d").getImageData(0, 0, width, height).data;
    const seen = new Set();
    for (let i = 0; i < data.length; i += 4 * 5) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
    return seen.size;
  });
}

test("every view draws in a chart panel, with a data table", async () => {
  const { page, problems, close } = await open();
  for (const view of ["cwnd", "tsg", "ladder", "throughput", "rtt"]) {
    await page.locator(`${FIRST} .tw-slot select`).first().selectOption(view);
    const canvas = `${FIRST} .tw-slots > div:first-child canvas[data-view="${view}"]`;
    await page.waitForSelector(canvas);
    assert.ok((await inked(page, canvas)) > 3, `${view} is drawn`);
  }
  await page.locator(`${FIRST} .tw-slots .tw-view-tools button`, { hasText: "Data table" }).first().click();
  assert.ok((await page.locator(`${FIRST} .tw-table-scroll tbody tr`).count()) > 5);
  assert.deepEqual(problems.console, []);
  assert.deepEqual(problems.failed, []);
  await close();
});

test("stepping moves one cursor that every readout follows", async () => {
  const { page, close } = await open();
  const ss0 = await page.locator(`${FIRST} [data-panel="ss"]`).textContent();
  await page.locator(`${FIRST} button`, { hasText: "Next ACK" }).click();
  const t1 = await clockMs(page);
  assert.ok(t1 > 17 && t1 < 18, `first pure ACK at ${t1} ms`);
  for (let i = 0; i < 5; i++) await page.locator(`${FIRST} button`, { hasText: "+1 RTT" }).click();
  const t2 = await clockMs(page);
  assert.ok(t2 > t1 + 30, `five round trips later: ${t2}`);
  const ss1 = await page.locator(`${FIRST} [data-panel="ss"]`).textContent();
  assert.notEqual(ss0, ss1, "the ss line follows the cursor");
  assert.match(await page.locator(`${FIRST} [data-readout="cwnd"]`).innerText(), /^cwnd \d+$/);
  // The scrubber shows the same cursor.
  const pos = Number(await page.locator(`${FIRST} .tw-scrubber`).inputValue());
  assert.ok(pos > 0);
  await close();
});

test("the URL keeps the state and a link reopens it exactly", async () => {
  const { page, close } = await open();
  await page.locator(`${FIRST} .tw-preset select`).selectOption("initcwnd-100");
  await page.locator(`${FIRST} button`, { hasText: "+1 RTT" }).click();
  const url = page.url();
  assert.match(url, /slow-start-1\.preset=initcwnd-100/);
  assert.match(url, /slow-start-1\.t=\d+us/);
  const t = await clockMs(page);
  await close();
  const again = await open(url.slice(url.indexOf("?")));
  assert.equal(await again.page.locator(`${FIRST} output[data-param="initcwnd"]`).innerText(), "100");
  assert.equal(await clockMs(again.page), t);
  await again.close();
});

test("hostile URL values are ignored with a note and never run", async () => {
  const hostile =
    "?slow-start-1.rtt=%3Cimg%20src%3Dx%20onerror%3Dwindow.pwned%3D1%3E&slow-start-1.t=javascript:alert(1)" +
    "&slow-start-1.size=1e400&slow-start-1.%3Cb%3E=1";
  const { page, problems, close } = await open(hostile);
  const notes = await page.locator(`${FIRST} .tw-notes`).innerText();
  assert.match(notes, /Ignored rtt/);
  assert.match(notes, /Ignored t/);
  assert.equal(await page.locator(`${FIRST} output[data-param="rtt"]`).innerText(), "7 ms");
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  // The build-time figure is an <img>; the live widget must hold none.
  assert.equal(await page.locator(`${FIRST} .tw-live img, ${FIRST} .tw-live b`).count(), 0);
  assert.deepEqual(problems.console, []);
  await close();
});

test("shortcuts work inside the widget and leave mdBook's navigation alone", async () => {
  const { page, close } = await open();
  const url = page.url().split("?")[0];
  await page.locator(`${FIRST} .tw-scrubber`).focus();
  await page.locator(`${FIRST} .tw-root`).focus();
  await page.keyboard.press("s");
  const t1 = await clockMs(page);
  assert.ok(t1 > 0, "s stepped");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowLeft");
  // Yew renders after the key's message, not within the key press: wait for it.
  await page.keyboard.press("?");
  await page.locator(`${FIRST} .tw-help`).waitFor({ timeout: 3000 });
  await page.keyboard.press("Escape");
  await page.locator(`${FIRST} .tw-help`).waitFor({ state: "detached", timeout: 3000 });
  await page.keyboard.press("2");
  await page.waitForFunction((sel) => document.querySelector(sel).selectedIndex === 2, `${FIRST} .tw-preset select`);
  await page.keyboard.press(" ");
  await page.waitForTimeout(400);
  assert.match(await page.locator(`${FIRST} button.tw-play`).innerText(), /Pause/);
  assert.equal(page.url().split("?")[0], url, "still on the same chapter");
  await close();
});

test("presenter mode enlarges the widget and thickens its drawing", async () => {
  const { page, close } = await open();
  await page.locator(`${FIRST} button.tw-presenter-button`).click();
  await page.waitForSelector(`${FIRST} .tw-root.tw-presenter`);
  const size = await page.locator(`${FIRST} .tw-root`).evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  assert.ok(size > 20, `presenter type ${size}px`);
  await page.keyboard.press("Escape");
  await page.waitForSelector(`${FIRST} .tw-root:not(.tw-presenter)`);
  await close();
});

test("a typed value outside the range is clamped with a note", async () => {
  const { page, close } = await open();
  const box = page.locator(`${FIRST} #slow-start-1-rtt-text`);
  await box.fill("5s");
  await box.press("Enter");
  await page.waitForFunction((sel) => document.querySelector(sel)?.innerText.includes("using 300 ms"), `${FIRST} .tw-notes`);
  assert.equal(await page.locator(`${FIRST} output[data-param="rtt"]`).innerText(), "300 ms");
  await close();
});

test("speaker notes show in presenter mode only", async () => {
  const { page, close } = await open();
  assert.equal(await page.locator(`${FIRST} .tw-speaker-notes`).count(), 0, "readers do not see them");
  await page.locator(`${FIRST} button.tw-presenter-button`).click();
  const notes = await page.locator(`${FIRST} .tw-speaker-notes`).innerText();
  assert.ok(notes.length > 40, `notes: ${notes}`);
  // Another preset, other notes.
  await page.locator(`${FIRST} .tw-preset select`).selectOption("initcwnd-100");
  await page.waitForFunction(
    ([sel, before]) => document.querySelector(sel)?.innerText !== before,
    [`${FIRST} .tw-speaker-notes`, notes],
  );
  assert.match(await page.locator(`${FIRST} .tw-speaker-notes`).innerText(), /initcwnd/);
  await page.keyboard.press("Escape");
  await page.waitForSelector(`${FIRST} .tw-root:not(.tw-presenter)`);
  assert.equal(await page.locator(`${FIRST} .tw-speaker-notes`).count(), 0);
  await close();
});

test("the path view has a key to its flight colours", async () => {
  const { page, close } = await open();
  const legend = page.locator(`${FIRST} .tw-view-path [data-legend="flights"]`);
  assert.equal(await legend.locator(".tw-swatch").count(), 7);
  assert.match(await legend.innerText(), /ACKs/);
  await close();
});
