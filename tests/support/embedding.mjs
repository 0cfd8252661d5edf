// What a host page can observe of embedded widgets, for the tests that play
// a wiki (tests/spa.test.mjs with a fixture, tests/wikis.test.mjs with real
// MkDocs Material and VitePress sites): animation frames requested, observers
// and media listeners alive, the wasm memory, the widgets mounted, their ids,
// and the frames' heights.
import { setup } from "./browser.mjs";
import { serveBook } from "./server.mjs";

/// The browser and the book's server (`setup()`), and a "wiki": another
/// origin (another port) serving the fixture pages of tests/fixtures/, whose
/// `@BOOK@` is the book's address. For a test file's before/after.
export async function fixtureWiki() {
  const env = await setup();
  const wiki = await serveBook(new URL("../fixtures/", import.meta.url).pathname, { replace: { "@BOOK@": env.server.url } });
  return {
    env,
    wiki,
    close: async () => {
      await wiki.close();
      await env.close();
    },
  };
}

/// Counts, in every page of `context` from its first script on, animation
/// frames requested, MutationObservers observing and media-query `change`
/// listeners, by wrapping the page's own functions (the widget bundle calls
/// them through the page's globals).
export async function installProbes(context) {
  await context.addInitScript(() => {
    const probe = { raf: 0, observers: new Map(), media: 0 };
    Object.defineProperty(window, "__probe", { value: probe });
    const raf = window.requestAnimationFrame;
    window.requestAnimationFrame = function (callback) {
      probe.raf += 1;
      return raf.call(window, callback);
    };
    const observe = MutationObserver.prototype.observe;
    MutationObserver.prototype.observe = function (...args) {
      // Where it was started, for a failure's message. Playwright's own
      // script, injected when a test first uses a locator, is not the page's.
      const stack = new Error().stack;
      if (!stack.includes("InjectedScript")) probe.observers.set(this, stack.split("\n").slice(2, 4).join(" < "));
      return observe.apply(this, args);
    };
    const disconnect = MutationObserver.prototype.disconnect;
    MutationObserver.prototype.disconnect = function () {
      probe.observers.delete(this);
      return disconnect.call(this);
    };
    const add = MediaQueryList.prototype.addEventListener;
    MediaQueryList.prototype.addEventListener = function (type, ...rest) {
      if (type === "change") probe.media += 1;
      return add.call(this, type, ...rest);
    };
    const remove = MediaQueryList.prototype.removeEventListener;
    MediaQueryList.prototype.removeEventListener = function (type, ...rest) {
      if (type === "change") probe.media -= 1;
      return remove.call(this, type, ...rest);
    };
  });
}

/// The probes' counts now: `{ raf, observers, media }`.
export function probes(page) {
  return page.evaluate(() => ({
    raf: window.__probe.raf,
    observers: window.__probe.observers.size,
    media: window.__probe.media,
  }));
}

/// Where each observer still observing was started (script:line:column).
export function observerSources(page) {
  return page.evaluate(() => [...window.__probe.observers.values()]);
}

/// Animation frames requested during `ms` milliseconds.
export async function framesDuring(page, ms) {
  const before = (await probes(page)).raf;
  await page.waitForTimeout(ms);
  return (await probes(page)).raf - before;
}

/// `{ memory, live }`: the wasm memory's bytes and the widgets mounted.
export function bundleState(page) {
  return page.evaluate(async () => {
    const w = await window.tcpWidgets.load();
    return { memory: w.wasm_memory_bytes(), live: w.live_widgets() };
  });
}

/// The ids of the widgets inside the page's `<tcp-widget>` elements, in order.
export function elementIds(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll("tcp-widget")].map((el) => el.shadowRoot?.querySelector(".tcp-widget")?.id),
  );
}

/// Resolves after the page's next animation frame: what "within one frame"
/// waits for.
export function nextFrame(page) {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
}

/// The RGB of a canvas's pixel at (x, y) of its backing store: the chart's
/// paper near a corner tells the palette it was drawn in.
export function pixel(canvas, x = 3, y = 3) {
  return canvas.evaluate((c, [px, py]) => [...c.getContext("2d").getImageData(px, py, 1, 1).data.slice(0, 3)], [x, y]);
}

/// Relative luminance-ish brightness of an RGB triple, 0 (black) to 255.
export const brightness = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;

/// For the iframe `frameSelector` on `page`: its height in the page and the
/// height of the widget page inside it (`{ frame, content }`), or null
/// while its widget is not mounted.
export async function frameHeights(page, frameSelector) {
  const handle = await page.$(frameSelector);
  const frame = handle && (await handle.contentFrame());
  if (!frame) return null;
  const content = await frame
    .evaluate(() => {
      const w = document.querySelector("tcp-widget");
      if (!w?.shadowRoot?.querySelector(".tcp-widget[data-mounted]")) return null;
      return Math.ceil(document.documentElement.getBoundingClientRect().height);
    })
    .catch(() => null);
  if (content === null) return null;
  const height = await handle.evaluate((f) => f.clientHeight);
  return { frame: height, content };
}

/// Waits until the iframe `frameSelector` on `page` is as tall as the widget
/// page inside it (within 1 px), and returns the heights. The resize goes by
/// postMessage, so on a busy machine it may take many frames: this polls for
/// up to `timeout` ms and only then fails, naming both heights.
export async function frameSized(page, frameSelector, { timeout = 60000 } = {}) {
  const deadline = Date.now() + timeout;
  let h = null;
  for (;;) {
    h = await frameHeights(page, frameSelector);
    if (h && Math.abs(h.frame - h.content) <= 1) return h;
    if (Date.now() > deadline) {
      throw new Error(`${frameSelector}: ${h ? `frame ${h.frame} px for a widget of ${h.content} px` : "its widget never mounted"}`);
    }
    await page.waitForTimeout(50);
  }
}
