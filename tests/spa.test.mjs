// Embedded widgets on a wiki that never reloads (tests/fixtures/spa-wiki.html,
// on another origin than the book): content replaced in place, history
// entries whose state is the router's, elements moved, a dark switch on
// <body>, frames at three widths, one below the fold.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { BOOK_DIR } from "./support/browser.mjs";
import { Widget } from "./support/widget.mjs";
import {
  brightness,
  bundleState,
  elementIds,
  fixtureWiki,
  frameSized,
  framesDuring,
  installProbes,
  nextFrame,
  observerSources,
  pixel,
  probes,
} from "./support/embedding.mjs";

let env, wiki, stop;
before(async () => ({ env, wiki, close: stop } = await fixtureWiki()));
after(() => stop?.());

async function open(page = "home", { width = 1100, height = 800 } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height } });
  await installProbes(context);
  const tab = await context.newPage();
  const errors = [];
  tab.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  tab.on("pageerror", (e) => errors.push(String(e)));
  await tab.goto(`${wiki.url}spa-wiki.html?page=${page}`);
  return { context, tab, errors };
}

/// The router's own navigation, as a reader's click.
const visit = (tab, page) => tab.click(`nav a[data-page="${page}"]`);

const widgetIn = (tab, where, id) => new Widget(tab, `#${where} tcp-widget .tcp-widget`, id);

async function bothInteractive(tab) {
  await widgetIn(tab, "content #first", "slow-start-1").waitInteractive(20000);
  await widgetIn(tab, "content #second", "slow-start-2").waitInteractive(20000);
}

// Its memory over many visits is tests/memory-slope.test.mjs's.
test("a widget the wiki takes off the page stops: no frames, observers or URL writes over 5 visits", async () => {
  const { context, tab, errors } = await open("home");
  await tab.waitForFunction(() => window.tcpWidgets);
  const quiet = await probes(tab);
  for (let i = 1; i <= 5; i++) {
    await visit(tab, "element");
    await bothInteractive(tab);
    await widgetIn(tab, "content #first", "slow-start-1").play();
    await visit(tab, "home");
    // Teardown runs a microtask after removal.
    await tab.waitForFunction(async () => (await window.tcpWidgets.load()).live_widgets() === 0, null, { timeout: 30000 });
    if (i === 1 || i === 5) {
      assert.equal(await framesDuring(tab, 400), 0, `visit ${i}: animation frames after the widgets left`);
      assert.deepEqual({ ...(await probes(tab)), raf: 0 }, { ...quiet, raf: 0 }, `visit ${i}: observers or media listeners left behind: ${await observerSources(tab)}`);
      assert.equal(new URL(tab.url()).search, "?page=home", `visit ${i}: a widget wrote into the next page's URL`);
    }
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test("the host router's history state survives the widgets' URL writes; Back and Forward still work", async () => {
  const { context, tab, errors } = await open("home");
  await visit(tab, "element");
  await bothInteractive(tab);
  const w = widgetIn(tab, "content #first", "slow-start-1");
  await w.slider("rtt").type("80ms");
  await tab.waitForFunction(() => location.search.includes("slow-start-1.rtt="), null, { timeout: 30000 });
  assert.deepEqual(await tab.evaluate(() => history.state), { router: "spa-wiki", page: "element" });
  await visit(tab, "home");
  await tab.goBack();
  await tab.waitForSelector("#content #first tcp-widget");
  assert.equal(await tab.locator("#content h1").innerText(), "Two widgets");
  await tab.goForward();
  await tab.waitForFunction(() => document.querySelector("#content h1")?.textContent === "Home");
  assert.deepEqual(errors, []);
  await context.close();
});

test("a widget's default id is its place among its kind: the same on every visit and in a fresh load", async () => {
  const { context, tab } = await open("home");
  for (let i = 0; i < 3; i++) {
    await visit(tab, "element");
    await bothInteractive(tab);
    assert.deepEqual(await elementIds(tab), ["slow-start-1", "slow-start-2"], `visit ${i + 1}`);
    await visit(tab, "home");
  }
  // A link to the second widget's state opens it, on a fresh load.
  await tab.goto(`${wiki.url}spa-wiki.html?page=element&slow-start-2.rtt=80ms`);
  await bothInteractive(tab);
  assert.equal(await widgetIn(tab, "content #second", "slow-start-2").slider("rtt").value(), "80 ms");
  await context.close();
});

test("a widget moved elsewhere on the page keeps its run and its place in time", async () => {
  const { context, tab, errors } = await open("element");
  await bothInteractive(tab);
  const w = widgetIn(tab, "content #first", "slow-start-1");
  await w.step("rtt");
  await w.step("rtt");
  const clock = await w.clockText();
  await tab.evaluate(() => document.getElementById("elsewhere").appendChild(document.querySelector("#first tcp-widget")));
  await nextFrame(tab);
  await nextFrame(tab);
  const moved = widgetIn(tab, "content #elsewhere", "slow-start-1");
  assert.equal(await moved.clockText(), clock, "the moved widget kept its time");
  assert.equal((await bundleState(tab)).live, 2);
  assert.equal(await moved.locator(".tw-live").count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test("canvases redraw when the page's dark switch, the theme attribute or the system scheme changes", async () => {
  const { context, tab, errors } = await open("element");
  await bothInteractive(tab);
  const canvas = widgetIn(tab, "content #first", "slow-start-1").canvas("path");
  const paper = async () => brightness(await pixel(canvas));
  const until = async (dark, why) => {
    const deadline = Date.now() + 30000;
    while ((await paper()) < 128 !== dark) {
      assert.ok(Date.now() < deadline, `${why}: the canvas was not redrawn ${dark ? "dark" : "light"}`);
      await tab.waitForTimeout(50);
    }
  };
  await until(false, "at first");
  await tab.click("#dark");
  await until(true, "the page's switch (dark-when)");
  await tab.evaluate(() => document.querySelector("#first tcp-widget").setAttribute("theme", "light"));
  await until(false, "theme=light");
  await tab.evaluate(() => document.querySelector("#first tcp-widget").removeAttribute("theme"));
  await until(true, "theme removed: the page's switch again");
  await tab.click("#dark");
  await until(false, "the page's switch off");
  await tab.emulateMedia({ colorScheme: "dark" });
  await until(true, "the system's scheme");
  assert.deepEqual(errors, []);
  await context.close();
});

test("frames are sized to their widgets at 360, 700 and 1000 px, also below the fold, and follow the page's dark switch", async () => {
  const { context, tab, errors } = await open("home");
  await tab.evaluate(() => {
    window.__heights = [];
    window.addEventListener("message", (e) => e.data?.type === "tcp-widget:height" && window.__heights.push(e.data.height));
  });
  await visit(tab, "frames");
  // Sized by postMessage: polled, since a busy machine may take many frames.
  for (const id of ["#f360", "#f700", "#f1000"]) await frameSized(tab, id);
  // None was below the fold's "Loading…" height.
  const posted = await tab.evaluate(() => window.__heights);
  assert.ok(posted.every((h) => h >= 200), `heights posted: ${posted}`);
  await tab.click("#dark");
  const frame = tab.frameLocator("#f360");
  await frame.locator('tcp-widget .tcp-widget[data-scheme="dark"]').waitFor({ timeout: 30000 });
  assert.deepEqual(errors, []);
  await context.close();
});

// The appendix's fixed heights for hosts that strip the resizer script: one
// for a wiki column of 620 px or more, one for a 360 px phone screen.
const FALLBACKS = [
  { width: 620, height: 1700 },
  { width: 360, height: 2200 },
];

for (const { width, height: fallback } of FALLBACKS) {
  test(`the documented fallback frame height (${fallback} px) fits every widget ${width} px wide`, async () => {
    const context = await env.browser.newContext({ viewport: { width, height: 900 } });
    const tab = await context.newPage();
    const names = readdirSync(join(BOOK_DIR, "embed")).flatMap((f) => f.match(/^(.+)\.standalone\.html$/)?.[1] ?? []);
    assert.ok(names.length >= 2, `widgets: ${names}`);
    for (const name of names) {
      await tab.goto(`${env.server.url}embed/${name}.html`);
      await tab.waitForSelector("tcp-widget .tw-play:enabled", { timeout: 30000 });
      const height = await tab.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
      assert.ok(height <= fallback, `${name} is ${height} px tall at ${width} px`);
    }
    await context.close();
  });
}
