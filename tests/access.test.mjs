// Access to the widget for every reader: reduced motion, a phone-sized screen,
// names for assistive technology, and the data behind every chart as a table.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";
import { distinctColours } from "./support/canvas.mjs";
import { Widget, reachAll } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const FIRST = "#slow-start-1";
const WIDGETS = ".tcp-widget[data-widget]";

/// A page with extra browser-context options (reducedMotion, viewport, deviceScaleFactor).
const openWith = (path, contextOptions = {}) => openPage(env, path, { context: contextOptions });

/// Opens the slow-start chapter; with `all`, scrolls through it first, as a
/// reader reading to the end would (each widget mounts as the reader comes
/// to it), and waits for every widget; without, for the first.
async function openChapter(contextOptions, { all = false } = {}) {
  const opened = await openWith("slow-start.html", contextOptions);
  if (!all) {
    const first = new Widget(opened.page, FIRST);
    await first.waitSimulated();
    return { ...opened, first };
  }
  await reachAll(opened.page);
  await opened.page.evaluate(() => window.scrollTo(0, 0));
  await opened.page.waitForFunction(
    // A prediction's widget shows no readout until the reader has answered and played.
    (sel) =>
      [...document.querySelectorAll(sel)].every((w) =>
        w.querySelector(w.hasAttribute("data-predict") ? ".tw-root" : '[data-readout="completion"]'),
      ),
    WIDGETS,
    { timeout: 30000 },
  );
  return { ...opened, first: new Widget(opened.page, FIRST) };
}


test("with reduced motion the widget waits, says how to step, and s steps one event", async () => {
  // Without the preference there is no such note: the note below is the widget's answer to it.
  {
    const { page, first, close } = await openChapter();
    assert.doesNotMatch((await first.locator(".tw-notes").allInnerTexts()).join(" "), /reduced motion/i);
    await close();
  }
  const { page, first, problems, close } = await openChapter({ reducedMotion: "reduce" }, { all: true });
  assert.ok(await page.evaluate(() => matchMedia("(prefers-reduced-motion: reduce)").matches), "the preference is seen");
  for (const w of await page.locator(WIDGETS).evaluateAll((ws) => ws.map((x) => `#${x.id}`))) {
    const widget = new Widget(page, w);
    const start = await widget.clockText();
    assert.match(start, /^t = 0\.000 m?s \//, `${w} starts at the beginning`);
    assert.match(await widget.playButton.innerText(), /Play/, `${w} is not playing`);
    assert.equal(await widget.playButton.getAttribute("aria-label"), "Play (space)");
    const notes = await widget.locator(".tw-notes").innerText();
    assert.match(notes, /reduced motion/i, `${w} explains why it waits`);
    assert.match(notes, /Step with s \(next event\)/, `${w} says how to step`);
  }
  const start = await first.clockText();
  await page.waitForTimeout(1000);
  assert.equal(await first.clockText(), start, "the clock stayed put for a second");

  // Keyboard, from inside the widget: s steps to the next event, and only that.
  await first.playButton.focus();
  await page.keyboard.press("s");
  const t1 = await first.clockMs();
  await page.keyboard.press("s");
  const t2 = await first.clockMs();
  assert.ok(t1 > 0 && t2 > t1, `s moved the clock: 0 -> ${t1} -> ${t2} ms`);
  assert.match(await first.playButton.innerText(), /Play/, "stepping does not start playback");
  assert.equal(await first.scrubber.getAttribute("aria-valuetext"), `${t2.toFixed(3)} ms`);
  // One event each: the same instants the "Next event" button lands on from
  // the start, and before the first ACK (one step must not skip to it).
  await first.restart();
  assert.equal(await first.clockMs(), 0);
  await first.step("event");
  assert.equal(await first.clockMs(), t1, "one s = one Next event");
  await first.step("event");
  assert.equal(await first.clockMs(), t2, "two s = two Next event");
  await first.restart();
  await first.step("ack");
  assert.ok(t1 < (await first.clockMs()), "the first step stops before the first ACK");
  const after = await first.clockText();
  await page.waitForTimeout(500);
  assert.equal(await first.clockText(), after, "still waiting after the steps");
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
  const { page, first, problems, close } = await openChapter({ viewport: { width, height: 740 }, deviceScaleFactor: 2 }, { all: true });
  assertFits(await widgetLayout(page), width);
  // Mid-run, with a data table open (it scrolls in its own box).
  await first.step("rtt");
  await first.toggleTable(1);
  await page.waitForSelector(first.css(".tw-table-scroll table"));
  assertFits(await widgetLayout(page), width);
  const canvases = [];
  for (const canvas of await page.locator(`${WIDGETS} canvas[data-view]`).all()) {
    const placed = await canvas.evaluate((c) => {
      const r = c.getBoundingClientRect();
      return { where: `${c.closest(".tcp-widget").id} ${c.dataset.view}`, w: c.width, h: c.height, cw: r.width, ch: r.height, right: r.right };
    });
    canvases.push({ ...placed, colours: await distinctColours(canvas, 3) });
  }
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
    const { page, first, problems, close } = await openChapter({ viewport: { width, height: 740 } });
    await first.step("rtt");
    await first.openDetails();
    for (const summary of await first.locator(".tw-panels summary").all()) await summary.click();
    const details = await first.locator(".tw-panels details").count();
    assert.ok(details >= 2);
    assert.equal(await first.locator(".tw-panels details[open]").count(), details);
    try {
      assertFits(await widgetLayout(page), width);
    } finally {
      assert.deepEqual(problems.console, []);
      await close();
    }
  },
);

test("every canvas, control and the scrubber have names for assistive technology", async () => {
  const { page, problems, close } = await openChapter({}, { all: true });
  const cdp = await page.context().newCDPSession(page);
  const ids = await page.locator(`${WIDGETS}:not([data-predict])`).evaluateAll((ws) => ws.map((w) => w.id));
  for (const id of ids) {
    const widget = new Widget(page, `#${id}`);
    // The DOM: canvases are images with a description.
    const canvases = await widget.locator("canvas").evaluateAll((cs) => cs.map((c) => [c.dataset.view, c.getAttribute("role"), c.getAttribute("aria-label")]));
    assert.ok(canvases.length >= 3, `${id} has its canvases`);
    for (const [view, role, label] of canvases) {
      assert.equal(role, "img", `${id} ${view} canvas role`);
      assert.ok(label && label.trim().length > 20, `${id} ${view} canvas aria-label: ${label}`);
    }
    // Chromium's accessibility tree: every control in the widget is exposed
    // with a non-empty accessible name (whatever gives it: aria-label, a
    // <label>, or its text).
    // Every disclosure open: what is behind a closed one is rightly out of the tree.
    await widget.openMoreSettings();
    await widget.openDetails();
    await widget.exportMenu.evaluate((d) => (d.open = true));
    const { result } = await cdp.send("Runtime.evaluate", { expression: `document.getElementById(${JSON.stringify(id)})` });
    const counts = await widget.root.evaluate((el) => ({
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
    await widget.exportMenu.evaluate((d) => (d.open = false));
    // The scrubber says the time, not a number out of 1000, and follows the cursor.
    const scrubber = widget.scrubber;
    assert.equal(await scrubber.getAttribute("aria-label"), "Time cursor");
    // In the run's own unit: ms, or s for a run of seconds (two transfers 10 s apart).
    assert.match(await scrubber.getAttribute("aria-valuetext"), /^0\.000 m?s$/);
    await widget.step("rtt");
    const t = (await widget.clockText()).match(/^t = (\S+ m?s)/)[1];
    assert.equal(await scrubber.getAttribute("aria-valuetext"), t, `${id} scrubber follows the clock`);
    // Each parameter slider says its value with units, like the readout beside it.
    const sliders = await widget.locator('input[type="range"]:not(.tw-scrubber)').evaluateAll((rs) =>
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
  const { page, first, problems, close } = await openChapter();
  const figure = (slot) => (slot === 0 ? first.locator("figure.tw-view").first() : first.chartPanel(slot).locator("figure"));
  const views = await first.locator(".tw-slot select").first().locator("option").evaluateAll((os) => os.map((o) => o.value));
  assert.ok(views.length >= 5, `chart views: ${views}`);
  const captions = new Map();
  const check = async (slot, view) => {
    const fig = figure(slot);
    assert.equal(await fig.locator("canvas").getAttribute("data-view"), view);
    // Its switch is in "Data & export", named for the panel.
    const title = await first.panelName(slot);
    const button = first.exportMenu.getByRole("button", { name: `${title}: data table`, exact: true, includeHidden: true });
    assert.equal(await button.getAttribute("aria-pressed"), "false", `${view}: table closed at first`);
    await first.toggleTable(slot);
    await fig.locator(".tw-table-scroll table").waitFor();
    assert.equal(await button.getAttribute("aria-pressed"), "true");
    assert.equal((await button.textContent()).trim(), "Hide data table");
    const caption = (await fig.locator(".tw-table-scroll table caption").innerText()).trim();
    assert.ok(caption.length > 0, `${view} table has a caption`);
    assert.ok((await fig.locator(".tw-table-scroll thead th").count()) >= 2, `${view} table has column headers`);
    assert.ok((await fig.locator(".tw-table-scroll tbody tr").count()) >= 1, `${view} table has rows`);
    assert.ok((await fig.locator(".tw-table-scroll tbody tr td").first().innerText()).trim().length > 0, `${view} first cell`);
    captions.set(view, caption);
    await first.toggleTable(slot);
    assert.equal(await fig.locator(".tw-table-scroll").count(), 0, `${view} table hides again`);
  };
  await check(0, "path");
  for (const view of views) {
    await first.showView(view, 1);
    await check(1, view);
  }
  // The second panel has its own table too.
  await check(2, await first.locator(".tw-slot select").nth(1).inputValue());
  assert.equal(new Set(captions.values()).size, captions.size, `each view has its own table: ${[...captions.values()].join(" | ")}`);
  assert.deepEqual(problems.console, []);
  await close();
});
