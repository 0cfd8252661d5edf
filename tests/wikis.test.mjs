// The widgets inside real wiki engines (issue 24): small MkDocs-Material and
// VitePress sites (tests/wikis/), built from pinned packages by `cargo xtask
// check-wikis`, each served on its own origin, the book on another. Both
// engines navigate client-side (Material's instant navigation, VitePress's
// router), so the widgets are removed and added without a page load, which
// the fixture pages of embed.test.mjs never do.
//
// Beyond the fixture's checks (tests/spa.test.mjs), these hold in the real
// engines: twenty visits leave no animation frame, observer, media listener,
// mounted widget or memory growth behind; the engine's history state is
// kept; ids are the same on every visit; and the widgets (and, in VitePress,
// the frames) follow the site's own dark toggle.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { setup } from "./support/browser.mjs";
import { serveBook } from "./support/server.mjs";
import { Widget } from "./support/widget.mjs";
import { brightness, bundleState, elementIds, framesDuring, installProbes, observerSources, pixel, probes } from "./support/embedding.mjs";

const WIKIS_DIR = process.env.WIKIS_DIR;
const SKIP = !WIKIS_DIR && "WIKIS_DIR is unset: `cargo xtask check-wikis` builds the wiki sites and runs this file";

/// What the built sites call the book: the test's server puts the book
/// server's address in its place, in HTML and in scripts.
const BOOK_PLACEHOLDER = "http://book.invalid/";
/// And what they call themselves (MkDocs' site_url), likewise replaced.
const SITE_PLACEHOLDER = "http://wiki.invalid/";

/// The pages each site has, by the name the tests use: the site's nav link
/// text and the page's heading.
const PAGES = {
  home: { nav: "Home", heading: "Team wiki" },
  element: { nav: "Element", heading: "Widgets as elements" },
  iframe: { nav: "Iframe", heading: "Widgets in frames" },
};

/// Where each engine puts a page, and where its own navigation is.
const ENGINES = {
  mkdocs: {
    path: { home: "", element: "element/", iframe: "iframe/" },
    // Material's primary sidebar, shown at the test's viewport width.
    nav: ".md-sidebar--primary",
    darkToggle: "form[data-md-component=palette] label:visible",
    // The resizer cannot be told Material's switch (see mkdocs.yml).
    framesFollowToggle: false,
    // Material's instant navigation takes a click only once its sitemap is
    // in (its click stream waits on the sitemap with withLatestFrom): a
    // click before that is a page load. The sitemap is parsed as XML with
    // DOMParser, and the rest of that chain runs in the same task, so a
    // flag set at the parse means the next task sees navigation ready.
    readyScript: () => {
      const parse = DOMParser.prototype.parseFromString;
      DOMParser.prototype.parseFromString = function (...args) {
        const doc = parse.apply(this, args);
        if (doc.documentElement?.localName === "urlset") window.__wikiNavigationReady = true;
        return doc;
      };
    },
    ready: (page) => page.waitForFunction(() => window.__wikiNavigationReady === true, null, { timeout: 20000 }),
  },
  vitepress: {
    path: { home: "", element: "element.html", iframe: "iframe.html" },
    nav: ".VPNavBar",
    darkToggle: ".VPNavBarAppearance .VPSwitchAppearance",
    framesFollowToggle: true,
    // VitePress's router is in place once its app has mounted.
    readyScript: null,
    ready: (page) => page.waitForFunction(() => document.querySelector("#app")?.__vue_app__ !== undefined, null, { timeout: 20000 }),
  },
};

const WIDGETS = ["slow-start", "long-fat"];

describe("the widgets in real wiki engines", { skip: SKIP }, () => {
  let env;
  const sites = {};
  before(async () => {
    env = await setup();
    for (const engine of Object.keys(ENGINES)) {
      const replace = { [BOOK_PLACEHOLDER]: env.server.url };
      sites[engine] = await serveBook(join(WIKIS_DIR, engine), { replace, replaceIn: [".html", ".js", ".json", ".xml"] });
      // The site's own address, known once it listens: Material's instant
      // navigation takes over only links to its sitemap's URLs, whose host
      // and scheme it corrects but not their port.
      replace[SITE_PLACEHOLDER] = sites[engine].url;
    }
  });
  after(async () => {
    for (const site of Object.values(sites)) await site.close();
    await env?.close();
  });

  /// Opens one of a site's pages by loading it, in a new context that records
  /// console errors, page errors and requests that leave 127.0.0.1, and marks
  /// the window so that visit() can tell a page load from client-side
  /// navigation.
  async function open(engine, pageName) {
    const context = await env.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await installProbes(context);
    if (ENGINES[engine].readyScript) await context.addInitScript(ENGINES[engine].readyScript);
    const page = await context.newPage();
    const problems = { console: [], external: [] };
    page.on("console", (m) => {
      // Chromium probes /favicon.ico by itself where a site has no icon link
      // (VitePress by default): not the widgets' doing.
      if (m.type() === "error" && !m.location().url?.endsWith("/favicon.ico")) problems.console.push(`${m.text()} [${m.location().url}]`);
    });
    page.on("pageerror", (e) => problems.console.push(String(e)));
    page.on("request", (r) => {
      const u = new URL(r.url());
      if (u.protocol.startsWith("http") && u.hostname !== "127.0.0.1") problems.external.push(r.url());
    });
    await page.goto(sites[engine].url + ENGINES[engine].path[pageName]);
    await expectPage(page, pageName);
    await ENGINES[engine].ready(page);
    await page.evaluate(() => (window.__marker = "loaded once"));
    return { page, problems, close: () => context.close() };
  }

  /// Goes to another page with the site's own navigation (its nav link), and
  /// checks it was client-side: the window, and so the marker, is the same.
  async function visit(page, engine, pageName) {
    await page.locator(ENGINES[engine].nav).getByRole("link", { name: PAGES[pageName].nav, exact: true }).click();
    await page.waitForURL(sites[engine].url + ENGINES[engine].path[pageName]);
    await expectPage(page, pageName);
    assert.equal(await page.evaluate(() => window.__marker), "loaded once", `${engine}: ${pageName} was a page load, not client-side navigation`);
  }

  /// Waits for the page's heading: its content is in place.
  function expectPage(page, pageName) {
    return page.locator("h1", { hasText: PAGES[pageName].heading }).waitFor({ timeout: 10000 });
  }

  /// Each widget on the element page has mounted and answers input, once.
  async function expectElementWidgets(page) {
    assert.equal(await page.locator("tcp-widget").count(), WIDGETS.length, "one element per widget, none left over");
    const widgets = WIDGETS.map((name) => new Widget(page, `tcp-widget[name="${name}"] .tcp-widget`));
    for (const widget of widgets) await widget.waitInteractive(20000);
    return widgets;
  }

  /// Plays a widget until its clock moves.
  async function expectPlays(widget) {
    const start = await widget.clockText();
    await widget.play();
    const deadline = Date.now() + 60000;
    while ((await widget.clockText()) === start) {
      assert.ok(Date.now() < deadline, `${widget.selector}: the clock stayed at ${start}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /// The widget in the frame at `selector` mounts, and the resizer has grown
  /// the frame to the height of the frame's content.
  async function expectFramedWidget(page, selector) {
    const frameEl = page.locator(selector);
    // Chromium runs no animation frames in a cross-origin frame off screen,
    // and the widget simulates a slice per frame: to play it, a reader
    // scrolls to it. (The height of a frame below the fold is checked
    // before that in spa.test.mjs.)
    await frameEl.scrollIntoViewIfNeeded();
    const frame = page.frameLocator(selector);
    await new Widget(frame, "tcp-widget .tcp-widget").waitInteractive(20000);
    const inner = () => frame.locator("html").evaluate((h) => Math.ceil(h.getBoundingClientRect().height));
    const outer = async () => parseFloat(await frameEl.evaluate((f) => f.style.height));
    const deadline = Date.now() + 60000;
    while (Math.abs((await outer()) - (await inner())) > 1) {
      assert.ok(Date.now() < deadline, `${selector}: frame ${await outer()} px, content ${await inner()} px`);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok((await outer()) > 400, `${selector}: the frame grew (${await outer()} px)`);
  }

  function expectNoProblems(problems) {
    assert.deepEqual(problems.console, [], "console errors");
    assert.deepEqual(problems.external, [], "requests off this machine");
  }

  for (const engine of Object.keys(ENGINES)) {
    describe(engine, () => {
      test("(b) every element widget mounts and plays", async () => {
        const { page, problems, close } = await open(engine, "element");
        for (const widget of await expectElementWidgets(page)) await expectPlays(widget);
        expectNoProblems(problems);
        await close();
      });

      test("(b) twenty visits: the widgets mount each time with the same ids, keep the engine's history state, and leave nothing behind", async () => {
        const { page, problems, close } = await open(engine, "home");
        const quiet = await probes(page);
        const memory = [];
        for (let round = 1; round <= 20; round++) {
          await visit(page, engine, "element");
          const engineState = await page.evaluate(() => JSON.stringify(history.state));
          const [first] = await expectElementWidgets(page);
          assert.deepEqual(await elementIds(page), WIDGETS.map((name) => `${name}-1`), `round ${round}: ids`);
          await expectPlays(first);
          assert.equal(await page.evaluate(() => JSON.stringify(history.state)), engineState, `round ${round}: the engine's history state`);
          await visit(page, engine, "home");
          assert.equal(await page.locator("tcp-widget").count(), 0, "the widgets left with their page");
          await page.waitForFunction(async () => (await window.tcpWidgets.load()).live_widgets() === 0, null, { timeout: 30000 });
          memory.push((await bundleState(page)).memory);
          if (round === 1 || round === 20) {
            assert.equal(await framesDuring(page, 400), 0, `round ${round}: animation frames after the widgets left`);
            assert.deepEqual({ ...(await probes(page)), raf: 0 }, { ...quiet, raf: 0 }, `round ${round}: observers or media listeners left behind: ${await observerSources(page)}`);
            assert.ok(!/(slow-start|long-fat)-\d\./.test(new URL(page.url()).search), `round ${round}: a widget wrote into ${page.url()}`);
          }
        }
        // Wasm memory is a high-water mark: it never shrinks. A leak grows it
        // visit after visit; one larger peak (a run still simulating as its
        // page left, under load) grows it once and then holds. So: growth at
        // one visit at most from visit 5 to 20, and never back to growing.
        const grewAt = memory.slice(4).flatMap((m, i) => (i > 0 && m > memory[3 + i] ? [i + 5] : []));
        assert.ok(grewAt.length <= 1, `wasm memory grew at visits ${grewAt.join(", ")} (${memory.join(", ")})`);
        const growth = memory[19] - memory[4];
        assert.ok(growth <= 16 << 20, `wasm memory grew by ${growth} bytes from visit 5 to 20 (${memory.join(", ")})`);
        expectNoProblems(problems);
        await close();
      });

      test("(a, b) the widgets redraw in the site's scheme when its dark toggle is used", async () => {
        const { page, problems, close } = await open(engine, "element");
        const [first] = await expectElementWidgets(page);
        const dark = async () => brightness(await pixel(first.canvas("path"))) < 128;
        const until = async (want, why) => {
          const deadline = Date.now() + 60000;
          while ((await dark()) !== want) {
            assert.ok(Date.now() < deadline, `${why}: the canvas is not ${want ? "dark" : "light"}`);
            await new Promise((r) => setTimeout(r, 100));
          }
        };
        await until(false, "at first");
        await page.locator(ENGINES[engine].darkToggle).first().click();
        await until(true, "after the toggle");
        if (ENGINES[engine].framesFollowToggle) {
          await visit(page, engine, "iframe");
          const frame = page.frameLocator('iframe[src*="/embed/slow-start.html"]');
          await frame.locator('tcp-widget .tcp-widget[data-scheme="dark"]').waitFor({ timeout: 20000 });
        }
        expectNoProblems(problems);
        await close();
      });

      test("(a, c) each framed widget mounts and the resizer fits its frame", async (t) => {
        const { page, problems, close } = await open(engine, "home");
        // Reached through the site's navigation, as a reader would: the
        // frames are added to a page whose resizer was already running.
        await visit(page, engine, "iframe");
        // A subtest each, so that one frame failing does not hide the other.
        for (const src of ["slow-start.html", "long-fat.standalone.html"]) {
          await t.test(src, () => expectFramedWidget(page, `iframe[src*="/embed/${src}"]`));
        }
        expectNoProblems(problems);
        await close();
      });
    });
  }
});
