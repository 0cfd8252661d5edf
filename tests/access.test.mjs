// Access to the widget for every reader: reduced motion, a phone-sized screen,
// names for assistive technology, and the data behind every chart as a table.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const FIRST = "#slow-start-1";
const WIDGETS = ".tcp-widget[data-widget]";

/// A page with extra browser-context options (reducedMotion, viewport, deviceScaleFactor).
const openWith = (path, contextOptions = {}) => openPage(env, path, { context: contextOptions });

async function openChapter(contextOptions) {
  const opened = await openWith("slow-start.html", contextOptions);
  await opened.page.waitForFunction(
    (sel) => [...document.querySelectorAll(sel)].every((w) => w.querySelector('[data-readout="completion"]')),
    WIDGETS,
    { timeout: 15000 },
  );
  return opened;
}

const clockText = (page, w = FIRST) => page.locator(`${w} [data-readout="clock"]`).innerText();
/// The time cursor in ms, from the clock readout "t = 1.234 ms / 60.000 ms".
const clockMs = async (page, w = FIRST) => parseFloat((await clockText(page, w)).replace("t = ", ""));

test("with reduced motion the widget waits, says how to step, and s steps one event", async () => {
  // Without the preference there is no such note: the note below is the widget's answer to it.
  {
    const { page, close } = await openChapter();
    assert.doesNotMatch((await page.locator(`${FIRST} .tw-notes`).allInnerTexts()).join(" "), /reduced motion/i);
    await close();
  }
  const { page, problems, close } = await openChapter({ reducedMotion: "reduce" });
  assert.ok(await page.evaluate(() => matchMedia("(prefers-reduced-motion: reduce)").matches), "the preference is seen");
  for (const w of await page.locator(WIDGETS).evaluateAll((ws) => ws.map((x) => `#${x.id}`))) {
    const start = await clockText(page, w);
    assert.match(start, /^t = 0\.000 ms \//, `${w} starts at the beginning`);
    assert.match(await page.locator(`${w} button.tw-play`).innerText(), /Play/, `${w} is not playing`);
    assert.equal(await page.locator(`${w} button.tw-play`).getAttribute("aria-label"), "Play (space)");
    const notes = await page.locator(`${w} .tw-notes`).innerText();
    assert.match(notes, /reduced motion/i, `${w} explains why it waits`);
    assert.match(notes, /Step with s \(next event\)/, `${w} says how to step`);
  }
  const start = await clockText(page);
  await page.waitForTimeout(1000);
  assert.equal(await clockText(page), start, "the clock stayed put for a second");

  // Keyboard, from inside the widget: s steps to the next event, and only that.
  await page.locator(`${FIRST} button.tw-play`).focus();
  await page.keyboard.press("s");
  const t1 = await clockMs(page);
  await page.keyboard.press("s");
  const t2 = await clockMs(page);
  assert.ok(t1 > 0 && t2 > t1, `s moved the clock: 0 -> ${t1} -> ${t2} ms`);
  assert.match(await page.locator(`${FIRST} button.tw-play`).innerText(), /Play/, "stepping does not start playback");
  assert.equal(await page.locator(`${FIRST} .tw-scrubber`).getAttribute("aria-valuetext"), `${t2.toFixed(3)} ms`);
  // One event each: the same instants the "Next event" button lands on from
  // the start, and before the first ACK (one step must not skip to it).
  await page.locator(`${FIRST} button.tw-restart`).click();
  assert.equal(await clockMs(page), 0);
  await page.locator(`${FIRST} button`, { hasText: "Next event" }).click();
  assert.equal(await clockMs(page), t1, "one s = one Next event");
  await page.locator(`${FIRST} button`, { hasText: "Next event" }).click();
  assert.equal(await clockMs(page), t2, "two s = two Next event");
  await page.locator(`${FIRST} button.tw-restart`).click();
  await page.locator(`${FIRST} button`, { hasText: "Next ACK" }).click();
  assert.ok(t1 < (await clockMs(page)), "the first step stops before the first ACK");
  const after = await clockText(page);
  await page.waitForTimeout(500);
  assert.equal(await clockText(page), after, "still waiting after the steps");
  assert.deepEqual(problems.console, []);
  await close();
});

/// Where the widgets sit at the current size. mdBook 0.5 scrolls the chapter in
/// #mdbook-content (the document itself is clipped), so a too-wide widget shows
/// as that column scrolling sideways, not as a wider document: the widget's
/// own box, its scroll width and its unclipped descendants are what tell.
async function widgetLayout(page) {
  return page.evaluate((sel) => {
    const box = (e) => e.getBoundingClientRect();
    const column = document.querySelector("#mdbook-content");
    const main = box(column.querySelector("main"));
    // Inside an element that scrolls or clips sideways (a data table's scroller,
    // a <pre> that scrolls), overflow is that element's business.
    const clippedWithin = (e, w) => {
      for (let a = e.parentElement; a && a !== w; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== "visible") return true;
      }
      return false;
    };
    return {
      documentWidth: document.scrollingElement.scrollWidth,
      main: [main.left, main.right],
      widgets: [...document.querySelectorAll(sel)].map((w) => ({
        id: w.id,
        left: box(w).left,
        right: box(w).right,
        overflow: w.scrollWidth - w.clientWidth,
        past: [...w.querySelectorAll("*")]
          .filter((e) => box(e).right > main.right + 0.5 && !clippedWithin(e, w))
          .map((e) => `${e.tagName.toLowerCase()}${e.className ? "." + e.className : ""}${e.dataset.panel ? `[data-panel=${e.dataset.panel}]` : ""} right ${Math.round(box(e).right)}`)
          .slice(0, 4),
      })),
    };
  }, WIDGETS);
}

function assertFits(layout, width) {
  assert.ok(layout.documentWidth <= width + 1, `the document scrolls sideways: ${layout.documentWidth} px wide`);
  assert.ok(layout.widgets.length >= 3, `the chapter's widgets: ${layout.widgets.length}`);
  for (const w of layout.widgets) {
    assert.ok(w.left >= layout.main[0] - 0.5 && w.right <= layout.main[1] + 0.5, `${w.id} [${w.left}, ${w.right}] inside the content column ${layout.main}`);
    assert.deepEqual(w.past, [], `${w.id}: elements reaching past the content column (right edge ${layout.main[1]})`);
    assert.ok(w.overflow <= 1, `${w.id}: its content is ${w.overflow} px wider than its box`);
  }
}

test("at 360 px wide the widgets fit the content column and every canvas is drawn", async () => {
  const width = 360;
  const { page, problems, close } = await openChapter({ viewport: { width, height: 740 }, deviceScaleFactor: 2 });
  assertFits(await widgetLayout(page), width);
  // Mid-run, with a data table open (it scrolls in its own box).
  await page.locator(`${FIRST} button`, { hasText: "+1 RTT" }).click();
  await page.locator(`${FIRST} .tw-slots > div:first-child button`, { hasText: "Data table" }).click();
  await page.waitForSelector(`${FIRST} .tw-table-scroll table`);
  assertFits(await widgetLayout(page), width);
  const canvases = await page.locator(`${WIDGETS} canvas[data-view]`).evaluateAll((cs) =>
    cs.map((c) => {
      const data = c.width && c.height ? c.getContext("2d").getImageData(0, 0, c.width, c.height).data : [];
      const seen = new Set();
      for (let i = 0; i < data.length; i += 4 * 3) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      const r = c.getBoundingClientRect();
      return { where: `${c.closest(".tcp-widget").id} ${c.dataset.view}`, w: c.width, h: c.height, cw: r.width, ch: r.height, right: r.right, colours: seen.size };
    }),
  );
  const widgets = await page.locator(WIDGETS).count();
  assert.ok(canvases.length >= 3 * widgets, `${canvases.length} canvases in ${widgets} widgets`);
  for (const c of canvases) {
    assert.ok(c.cw > 200 && c.ch > 100, `${c.where} has room on screen: ${c.cw}x${c.ch}`);
    assert.ok(c.right <= width, `${c.where} ends at ${c.right}, inside the screen`);
    // The CSS box may be a fractional width (300.5 px): allow a device pixel either way.
    assert.ok(Math.abs(c.w - c.cw * 2) <= 1.5, `${c.where} backing store ${c.w} px is sharp at 2x of ${c.cw} px`);
    assert.ok(c.colours > 3, `${c.where} is drawn (${c.colours} colours)`);
  }
  assert.deepEqual(problems.console, []);
  await close();
});

// An open panel's long lines (an `ss` line, the iperf3 table) must scroll
// inside their <pre>: a grid column sized to them once made the whole chapter
// column scroll sideways.
test(
  "at 360 px wide opening the command-output panels keeps the widget in the column",
  async () => {
    const width = 360;
    const { page, problems, close } = await openChapter({ viewport: { width, height: 740 } });
    await page.locator(`${FIRST} button`, { hasText: "+1 RTT" }).click();
    for (const summary of await page.locator(`${FIRST} .tw-panels summary`).all()) await summary.click();
    const details = await page.locator(`${FIRST} .tw-panels details`).count();
    assert.ok(details >= 2);
    assert.equal(await page.locator(`${FIRST} .tw-panels details[open]`).count(), details);
    try {
      assertFits(await widgetLayout(page), width);
    } finally {
      assert.deepEqual(problems.console, []);
      await close();
    }
  },
);

test("every canvas, control and the scrubber have names for assistive technology", async () => {
  const { page, problems, close } = await openChapter();
  const cdp = await page.context().newCDPSession(page);
  const ids = await page.locator(WIDGETS).evaluateAll((ws) => ws.map((w) => w.id));
  for (const id of ids) {
    const w = `#${id}`;
    // The DOM: canvases are images with a description.
    const canvases = await page.locator(`${w} canvas`).evaluateAll((cs) => cs.map((c) => [c.dataset.view, c.getAttribute("role"), c.getAttribute("aria-label")]));
    assert.ok(canvases.length >= 3, `${id} has its canvases`);
    for (const [view, role, label] of canvases) {
      assert.equal(role, "img", `${id} ${view} canvas role`);
      assert.ok(label && label.trim().length > 20, `${id} ${view} canvas aria-label: ${label}`);
    }
    // Chromium's accessibility tree: every control in the widget is exposed
    // with a non-empty accessible name (whatever gives it: aria-label, a
    // <label>, or its text).
    const { result } = await cdp.send("Runtime.evaluate", { expression: `document.getElementById(${JSON.stringify(id)})` });
    const counts = await page.locator(w).evaluate((el) => ({
      button: el.querySelectorAll("button").length,
      slider: el.querySelectorAll('input[type="range"]').length,
      combobox: el.querySelectorAll("select").length,
      textbox: el.querySelectorAll('input[type="text"], input:not([type])').length,
      checkbox: el.querySelectorAll('input[type="checkbox"]').length,
      image: el.querySelectorAll("canvas").length,
    }));
    for (const [role, expected] of Object.entries(counts)) {
      const { nodes } = await cdp.send("Accessibility.queryAXTree", { objectId: result.objectId, role });
      const exposed = nodes.filter((n) => !n.ignored);
      assert.equal(exposed.length, expected, `${id}: ${expected} ${role} elements, ${exposed.length} in the accessibility tree`);
      for (const n of exposed) {
        assert.ok((n.name?.value || "").trim().length > 0, `${id}: a ${role} without an accessible name`);
      }
    }
    // The scrubber says the time, not a number out of 1000, and follows the cursor.
    const scrubber = page.locator(`${w} .tw-scrubber`);
    assert.equal(await scrubber.getAttribute("aria-label"), "Time cursor");
    assert.equal(await scrubber.getAttribute("aria-valuetext"), "0.000 ms");
    await page.locator(`${w} button`, { hasText: "+1 RTT" }).click();
    const t = (await clockText(page, w)).match(/^t = (\S+ m?s)/)[1];
    assert.equal(await scrubber.getAttribute("aria-valuetext"), t, `${id} scrubber follows the clock`);
    // Each parameter slider says its value with units, like the readout beside it.
    const sliders = await page.locator(`${w} input[type="range"]:not(.tw-scrubber)`).evaluateAll((rs) =>
      rs.map((r) => [r.id, r.getAttribute("aria-valuetext"), document.querySelector(`output[for="${r.id}"]`)?.textContent]),
    );
    assert.ok(sliders.length >= 5);
    for (const [sid, text, shown] of sliders) assert.equal(text, shown, `${sid} aria-valuetext matches its readout`);
  }
  await cdp.detach();
  assert.deepEqual(problems.console, []);
  await close();
});

test("every chart offers its data as a table with a caption and rows", async () => {
  const { page, problems, close } = await openChapter();
  const figure = (slot) => (slot === 0 ? page.locator(`${FIRST} figure.tw-view`).first() : page.locator(`${FIRST} .tw-slots > div`).nth(slot - 1).locator("figure"));
  const views = await page.locator(`${FIRST} .tw-slot select`).first().locator("option").evaluateAll((os) => os.map((o) => o.value));
  assert.ok(views.length >= 5, `chart views: ${views}`);
  const captions = new Map();
  const check = async (slot, view) => {
    const fig = figure(slot);
    assert.equal(await fig.locator("canvas").getAttribute("data-view"), view);
    const button = fig.locator(".tw-view-tools button", { hasText: "Data table" });
    assert.equal(await button.getAttribute("aria-expanded"), "false", `${view}: table closed at first`);
    await button.click();
    await fig.locator(".tw-table-scroll table").waitFor();
    assert.equal(await button.getAttribute("aria-expanded"), "true");
    assert.equal(await button.innerText(), "Hide data table");
    const caption = (await fig.locator(".tw-table-scroll table caption").innerText()).trim();
    assert.ok(caption.length > 0, `${view} table has a caption`);
    assert.ok((await fig.locator(".tw-table-scroll thead th").count()) >= 2, `${view} table has column headers`);
    assert.ok((await fig.locator(".tw-table-scroll tbody tr").count()) >= 1, `${view} table has rows`);
    assert.ok((await fig.locator(".tw-table-scroll tbody tr td").first().innerText()).trim().length > 0, `${view} first cell`);
    captions.set(view, caption);
    await button.click();
    assert.equal(await fig.locator(".tw-table-scroll").count(), 0, `${view} table hides again`);
  };
  await check(0, "path");
  for (const view of views) {
    await page.locator(`${FIRST} .tw-slot select`).first().selectOption(view);
    await page.waitForSelector(`${FIRST} .tw-slots > div:first-child canvas[data-view="${view}"]`);
    await check(1, view);
  }
  // The second panel has its own table too.
  await check(2, await page.locator(`${FIRST} .tw-slot select`).nth(1).inputValue());
  assert.equal(new Set(captions.values()).size, captions.size, `each view has its own table: ${[...captions.values()].join(" | ")}`);
  assert.deepEqual(problems.console, []);
  await close();
});
