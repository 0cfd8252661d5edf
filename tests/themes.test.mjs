// The widgets in mdBook's five themes: a switch through mdBook's own theme
// picker redraws every canvas in the new theme's paper and ink, a theme saved
// before the page loads is used from the very first frame, and every page of
// the book loads cleanly in every theme.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";
import { htmlPages } from "./support/pages.mjs";
import { Widget, reachAll, settled } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const THEMES = ["light", "rust", "coal", "navy", "ayu"];
const WIDGETS = ".tcp-widget[data-widget]";

/// A page with a theme saved before any of its scripts run (the way mdBook
/// keeps the reader's choice between pages) and optional scripts of our own.
const openThemed = (path, { theme, initScripts = [], viewport } = {}) => openPage(env, path, { theme, initScripts, viewport });

/// Waits until every widget on the page has finished its first run.
async function widgetsReady(page, timeout = 30000) {
  // Read to the end: each widget mounts as the reader comes to it.
  if (!page.url().includes("/print.html")) await reachAll(page, { timeout });
  await page.waitForFunction(
    (sel) => {
      // print.html shows build-time figures and mounts no widget.
      if (location.pathname.endsWith("/print.html")) return [...document.images].every((i) => i.complete);
      const all = document.querySelectorAll(sel);
      // A prediction's widget shows no result until the reader has answered.
      const ready = (w) => w.querySelector(w.hasAttribute("data-predict") ? ".tw-root" : '[data-readout="completion"]');
      return [...all].every((w) => ready(w) || w.classList.contains("tw-error"));
    },
    WIDGETS,
    { timeout },
  );
}

/// Picks a theme the way a reader does: the paint-brush button in the menu
/// bar, then the theme's button in the popup, then the brush again to close it.
async function pickTheme(page, theme) {
  await page.locator("#mdbook-theme-toggle").click();
  await page.locator("#mdbook-theme-list").waitFor({ state: "visible" });
  await page.locator(`#mdbook-theme-${theme}`).click();
  await page.locator("#mdbook-theme-toggle").click();
  await page.locator("#mdbook-theme-list").waitFor({ state: "hidden" });
}

/// The paper and ink the widget paints with: the computed background and text
/// colour of its `.tcp-widget` box (widgets.css sets them from --bg/--fg).
async function widgetColours(page, id) {
  return page.locator(`#${id}`).evaluate((w) => {
    const rgb = (s) => s.match(/[\d.]+/g).slice(0, 3).map(Number);
    const cs = getComputedStyle(w);
    return { bg: rgb(cs.backgroundColor), fg: rgb(cs.color) };
  });
}

/// Reads a canvas back: a hash of all its pixels, its commonest colour and that
/// colour's share, and how many pixels are near `ink` or exactly `stale`.
function analyse(canvas, { ink, stale }) {
  const { width, height } = canvas;
  const data = canvas.getContext("2d").getImageData(0, 0, width, height).data;
  let hash = 0x811c9dc5;
  const counts = new Map();
  let inked = 0;
  let staleCount = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    const key = (r << 16) | (g << 8) | b;
    hash = Math.imul(hash ^ key, 16777619) >>> 0;
    counts.set(key, (counts.get(key) || 0) + 1);
    if (ink && Math.abs(r - ink[0]) + Math.abs(g - ink[1]) + Math.abs(b - ink[2]) <= 24) inked++;
    if (stale && r === stale[0] && g === stale[1] && b === stale[2]) staleCount++;
  }
  let mode = 0;
  let modeCount = 0;
  for (const [k, n] of counts) if (n > modeCount) [mode, modeCount] = [k, n];
  return {
    view: canvas.dataset.view,
    size: [width, height],
    hash,
    mode: [mode >> 16, (mode >> 8) & 255, mode & 255],
    modeShare: modeCount / (width * height),
    inked,
    stale: staleCount,
    pixels: width * height,
  };
}

const near = (a, b, tol = 1) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

test("each theme picked in mdBook's menu redraws every widget canvas in its colours", async () => {
  const { page, problems, close: done } = await openThemed("slow-start.html", { initScripts: [`window.__twAnalyse = ${analyse};`] });
  await widgetsReady(page);
  const ids = await page.locator(WIDGETS).evaluateAll((ws) => ws.map((w) => w.id));
  assert.ok(ids.length >= 3, `the chapter has its widgets: ${ids}`);
  assert.ok(await page.evaluate(() => document.documentElement.classList.contains("light")), "starts in light");

  // A prediction's widget steps once the reader has answered (or skipped).
  await page.evaluate((sel) => document.querySelectorAll(`${sel}[data-predict]`).forEach((w) => w.setAttribute("data-answered", "skip")), WIDGETS);
  // Park every widget mid-run, paused, so only the theme can change a pixel.
  const widgets = ids.map((id) => new Widget(page, `#${id}`));
  for (const w of widgets) {
    for (let i = 0; i < 3; i++) await w.step("rtt");
    assert.match(await w.playButton.innerText(), /Play/, `${w.id} is paused`);
  }
  const clocks = async () => Promise.all(widgets.map((w) => w.clockText()));
  const parked = await clocks();
  for (const c of parked) assert.doesNotMatch(c, /^t = 0\.000 ms/, "parked after the start");

  const snapshot = async (prevBg) => {
    const out = {};
    for (const id of ids) {
      const colours = await widgetColours(page, id);
      const canvases = await page
        .locator(`#${id} canvas[data-view]`)
        .evaluateAll((cs, opts) => cs.map((c) => window.__twAnalyse(c, opts)), { ink: colours.fg, stale: prevBg });
      out[id] = { colours, canvases };
    }
    return out;
  };

  let previous = { theme: "light", shots: await snapshot(null) };
  const first = previous;
  for (const theme of [...THEMES.slice(1), "light"]) {
    await pickTheme(page, theme);
    assert.equal(
      await page.evaluate(() => document.documentElement.className.match(/\b(light|rust|coal|navy|ayu)\b/g)?.join(" ")),
      theme,
      `exactly one theme class on <html> after picking ${theme}`,
    );
    assert.equal(await page.evaluate(() => localStorage.getItem("mdbook-theme")), theme, "mdBook saved the choice");
    // The redraw is asynchronous (MutationObserver -> Redraw): wait until
    // every canvas's paper is the theme's, then judge the whole picture.
    await page
      .waitForFunction(
        (sel) =>
          [...document.querySelectorAll(sel)].every((w) => {
            const bg = getComputedStyle(w).backgroundColor.match(/\d+/g).slice(0, 3).map(Number);
            return [...w.querySelectorAll("canvas[data-view]")].every((c) => {
              const p = c.getContext("2d").getImageData(2, 2, 1, 1).data;
              return Math.abs(p[0] - bg[0]) + Math.abs(p[1] - bg[1]) + Math.abs(p[2] - bg[2]) <= 3;
            });
          }),
        WIDGETS,
        { timeout: 30000 },
      )
      .catch(() => {}); // the assertions below say what is wrong
    const prevBg = previous.shots[ids[0]].colours.bg;
    const shots = await snapshot(prevBg);
    for (const id of ids) {
      const { colours, canvases } = shots[id];
      assert.notDeepEqual(colours.bg, prevBg, `${theme} has its own paper (${colours.bg})`);
      assert.ok(canvases.length >= 3, `${id} shows its canvases`);
      for (const [i, c] of canvases.entries()) {
        const where = `${id} ${c.view} in ${theme}`;
        assert.ok(c.pixels > 0, `${where} has a size`);
        assert.ok(near(c.mode, colours.bg), `${where}: paper ${c.mode} is the theme's background ${colours.bg}`);
        assert.ok(c.modeShare > 0.5, `${where}: paper covers most of the canvas (${c.modeShare.toFixed(2)})`);
        assert.ok(c.inked >= 40, `${where}: ${c.inked} pixels in the theme's ink ${colours.fg}`);
        assert.ok(c.stale <= c.pixels * 0.002, `${where}: ${c.stale} pixels still in the previous theme's paper ${prevBg}`);
        const before = previous.shots[id].canvases[i];
        assert.equal(before.view, c.view);
        assert.notEqual(c.hash, before.hash, `${where}: pixels changed from ${previous.theme}`);
      }
    }
    assert.deepEqual(await clocks(), parked, "the theme switch left the time cursors alone");
    previous = { theme, shots };
  }
  // Back in light after the round trip: exactly the picture it started with.
  for (const id of ids) {
    assert.deepEqual(
      previous.shots[id].canvases.map((c) => c.hash),
      first.shots[id].canvases.map((c) => c.hash),
      `${id} redraws light identically after visiting every theme`,
    );
  }
  assert.deepEqual(problems.console, []);
  await done();
});

// Records every paint that covers a whole canvas (plotters fills the drawing
// area with the palette's background first on each draw), so the very first
// frame can be judged, not just the settled one.
function recordFullFills() {
  window.__twFills = [];
  const fillRect = CanvasRenderingContext2D.prototype.fillRect;
  CanvasRenderingContext2D.prototype.fillRect = function (x, y, w, h) {
    const c = this.canvas;
    if (c && x <= 0 && y <= 0 && x + w >= c.width && y + h >= c.height) {
      window.__twFills.push({
        widget: c.closest(".tcp-widget")?.id,
        view: c.dataset.view,
        style: String(this.fillStyle),
        html: document.documentElement.className,
      });
    }
    return fillRect.call(this, x, y, w, h);
  };
}

test("a theme saved before the page loads is drawn from the first frame", async () => {
  const hex = (rgb) => "#" + rgb.map((v) => v.toString(16).padStart(2, "0")).join("");
  const lightPage = await openThemed("slow-start.html", { theme: "light" });
  await widgetsReady(lightPage.page);
  const light = (await widgetColours(lightPage.page, "slow-start-1")).bg;
  await lightPage.close();
  for (const theme of THEMES.filter((t) => t !== "light")) {
    const { page, problems, close: done } = await openThemed("slow-start.html", { theme, initScripts: [recordFullFills] });
    // The first widgets to mount, while the page still loads, which is when
    // the theme could still be missing; one mounted later finds it long set
    // (every widget in every theme is drawn by the test above).
    await new Widget(page, "#slow-start-1").waitSimulated();
    await settled(page);
    assert.ok(await page.evaluate((t) => document.documentElement.classList.contains(t), theme), `${theme} applied by mdBook`);
    const ids = await page.locator(`${WIDGETS}[data-mounted]`).evaluateAll((ws) => ws.map((w) => w.id));
    assert.ok(ids.includes("slow-start-1"), `mounted: ${ids}`);
    const fills = await page.evaluate(() => window.__twFills);
    for (const id of ids) {
      const { bg } = await widgetColours(page, id);
      assert.notDeepEqual(bg, light, `${theme}'s paper differs from light's`);
      const mine = fills.filter((f) => f.widget === id);
      assert.ok(mine.length >= 3, `${id}: every canvas painted (${mine.length} full fills recorded)`);
      for (const f of mine) {
        assert.equal(f.style, hex(bg), `${id} ${f.view}: painted ${f.style} in ${theme} (expected ${hex(bg)}, html class "${f.html}")`);
      }
      for (const view of ["path", "cwnd", "tsg"]) {
        assert.ok(mine.some((f) => f.view === view), `${id} ${view} was painted`);
      }
    }
    assert.deepEqual(problems.console, []);
    await done();
  }
});

// Every page, including 404.html (mdBook's not-found page, served to readers
// who follow a bad link: its <base href="/"> resolves against our server root),
// toc.html (the sidebar for readers without JavaScript, loaded in an iframe)
// and print.html (all chapters on one page, so every widget at once). None is
// left out: each is something a reader's browser loads in the chosen theme.
//
// Each page is loaded once, in the first theme (saved before its scripts
// run), and then switched through the other four with mdBook's own theme
// picker, as a reader does: its widgets simulate once, not five times, and
// every page is still seen in every theme. A page without the picker (toc.html)
// is loaded in each theme. (A theme saved before the load is drawn from the
// first frame: the test above.)
test("every page loads in every theme with no errors and nothing from other hosts", async () => {
  // generated/ holds KaTeX and the figures, no pages of the book; embed/
  // holds the widget pages for other sites, without mdBook's themes
  // (tests/embed.test.mjs opens them).
  const pages = htmlPages(["generated", "embed"]);
  assert.ok(pages.includes("print.html") && pages.includes("slow-start.html"), pages.join(", "));
  const check = async (page, problems, path, theme) => {
    const where = `${path} in ${theme}`;
    // toc.html has no theme script of its own: it is only ever shown inside
    // a page that sets the theme, so the theme class is not asked of it.
    if (path !== "toc.html") {
      assert.ok(await page.evaluate((t) => document.documentElement.classList.contains(t), theme), `${where}: theme applied`);
    }
    assert.equal(await page.locator(".tcp-widget.tw-error").count(), 0, `${where}: no widget failed to start`);
    assert.deepEqual(problems.console, [], `console errors on ${where}`);
    assert.deepEqual(problems.external, [], `requests to other hosts from ${where}`);
    assert.deepEqual(problems.failed, [], `failed requests on ${where}`);
  };
  for (const path of pages) {
    const { page, problems, close: done } = await openThemed(path, { theme: THEMES[0] });
    await widgetsReady(page);
    await page.waitForLoadState("networkidle");
    await check(page, problems, path, THEMES[0]);
    const picker = (await page.locator("#mdbook-theme-toggle").count()) > 0;
    for (const theme of THEMES.slice(1)) {
      if (picker) {
        await pickTheme(page, theme);
        // The widgets redraw on the next frames.
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await check(page, problems, path, theme);
      } else {
        const other = await openThemed(path, { theme });
        await other.page.waitForLoadState("networkidle");
        await check(other.page, other.problems, path, theme);
        await other.close();
      }
    }
    await done();
  }
});
