// The widget kit in the built book: linked views under one cursor, the URL
// round trip, hostile URL values, keyboard shortcuts that leave mdBook's
// navigation alone, presenter mode, help, and every view drawing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const FIRST = "#slow-start-1";

const open = (query = "", options) => openWidget(env, `slow-start.html${query}`, FIRST, options);

test("every view draws in a chart panel, with a data table", async () => {
  const { widget: w, problems, close } = await open();
  for (const view of ["cwnd", "tsg", "ladder", "throughput", "rtt"]) {
    await w.showView(view, 1);
    assert.ok(await w.inkedCanvas(view, { panel: 1, stride: 5 }), `${view} is drawn`);
  }
  await w.toggleTable(1);
  assert.ok((await w.locator(".tw-table-scroll tbody tr").count()) > 5);
  assert.deepEqual(problems.console, []);
  assert.deepEqual(problems.failed, []);
  await close();
});

test("stepping moves one cursor that every readout follows", async () => {
  const { widget: w, close } = await open();
  const ss0 = await w.panel("ss");
  await w.step("ack");
  const t1 = await w.clockMs();
  assert.ok(t1 > 17 && t1 < 18, `first pure ACK at ${t1} ms`);
  for (let i = 0; i < 5; i++) await w.step("rtt");
  const t2 = await w.clockMs();
  assert.ok(t2 > t1 + 30, `five round trips later: ${t2}`);
  const ss1 = await w.panel("ss");
  assert.notEqual(ss0, ss1, "the ss line follows the cursor");
  assert.match(await w.readout("cwnd"), /^cwnd \d+$/);
  // The scrubber shows the same cursor.
  const pos = Number(await w.scrubber.inputValue());
  assert.ok(pos > 0);
  await close();
});

test("the URL keeps the state and a link reopens it exactly", async () => {
  const { page, widget: w, close } = await open();
  await w.setPreset("initcwnd-100");
  await w.step("rtt");
  const url = page.url();
  assert.match(url, /slow-start-1\.preset=initcwnd-100/);
  assert.match(url, /slow-start-1\.t=\d+us/);
  const t = await w.clockMs();
  await close();
  const again = await open(url.slice(url.indexOf("?")));
  assert.equal(await again.widget.slider("initcwnd").value(), "100");
  assert.equal(await again.widget.clockMs(), t);
  await again.close();
});

test("hostile URL values are ignored with a note and never run", async () => {
  const hostile =
    "?slow-start-1.rtt=%3Cimg%20src%3Dx%20onerror%3Dwindow.pwned%3D1%3E&slow-start-1.t=javascript:alert(1)" +
    "&slow-start-1.size=1e400&slow-start-1.%3Cb%3E=1";
  const { page, widget: w, problems, close } = await open(hostile);
  const notes = await w.locator(".tw-notes").innerText();
  assert.match(notes, /Ignored rtt/);
  assert.match(notes, /Ignored t/);
  assert.equal(await w.slider("rtt").value(), "7 ms");
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  // The build-time figure is an <img>; the live widget must hold none.
  assert.equal(await w.locator(".tw-live img, .tw-live b").count(), 0);
  assert.deepEqual(problems.console, []);
  await close();
});

test("shortcuts work inside the widget and leave mdBook's navigation alone", async () => {
  const { page, widget: w, close } = await open();
  const url = page.url().split("?")[0];
  await w.scrubber.focus();
  await w.locator(".tw-root").focus();
  await page.keyboard.press("s");
  const t1 = await w.clockMs();
  assert.ok(t1 > 0, "s stepped");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowLeft");
  // Yew renders after the key's message, not within the key press: wait for it.
  await page.keyboard.press("?");
  await w.locator(".tw-help").waitFor({ timeout: 30000 });
  await page.keyboard.press("Escape");
  await w.locator(".tw-help").waitFor({ state: "detached", timeout: 30000 });
  await page.keyboard.press("2");
  await page.waitForFunction((sel) => document.querySelector(sel).selectedIndex === 2, w.css(".tw-preset select"));
  await page.keyboard.press(" ");
  await w.locator("button.tw-play", { hasText: "Pause" }).waitFor({ timeout: 10000 });
  assert.equal(page.url().split("?")[0], url, "still on the same chapter");
  await close();
});

test("presenter mode enlarges the widget and thickens its drawing", async () => {
  const { page, widget: w, close } = await open();
  await w.locator("button.tw-presenter-button").click();
  await page.waitForSelector(w.css(".tw-root.tw-presenter"));
  // The run's side (transport, views, readouts) is set larger than the
  // page; the settings column beside it stays about the page's size.
  const size = await w.locator(".tw-stage").evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  const page16 = await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));
  assert.ok(size >= 1.1 * page16, `presenter type ${size}px on a ${page16}px page`);
  await page.keyboard.press("Escape");
  await page.waitForSelector(w.css(".tw-root:not(.tw-presenter)"));
  await close();
});

test("a typed value outside the range is clamped with a note", async () => {
  const { page, widget: w, close } = await open();
  await w.slider("rtt").type("5s");
  await page.waitForFunction((sel) => document.querySelector(sel)?.innerText.includes("using 300 ms"), w.css(".tw-notes"));
  assert.equal(await w.slider("rtt").value(), "300 ms");
  await close();
});

test("speaker notes show in presenter mode only", async () => {
  const { page, widget: w, close } = await open();
  assert.equal(await w.locator(".tw-speaker-notes").count(), 0, "readers do not see them");
  await w.locator("button.tw-presenter-button").click();
  const notes = await w.locator(".tw-speaker-notes").innerText();
  assert.ok(notes.length > 40, `notes: ${notes}`);
  // Another preset, other notes.
  await w.setPreset("initcwnd-100");
  await page.waitForFunction(
    ([sel, before]) => document.querySelector(sel)?.innerText !== before,
    [w.css(".tw-speaker-notes"), notes],
  );
  assert.match(await w.locator(".tw-speaker-notes").innerText(), /initcwnd/);
  await page.keyboard.press("Escape");
  await page.waitForSelector(w.css(".tw-root:not(.tw-presenter)"));
  assert.equal(await w.locator(".tw-speaker-notes").count(), 0);
  await close();
});

test("the path view has a key to its flight colours", async () => {
  const { widget: w, close } = await open();
  const legend = w.locator('.tw-view-path [data-legend="flights"]');
  assert.equal(await legend.locator(".tw-swatch").count(), 7);
  assert.match(await legend.innerText(), /ACKs/);
  await close();
});
