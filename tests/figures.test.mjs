// The build-time figures: every {{#widget}} directive also yields a static SVG
// of the widget's starting run (drawn by mdbook-widgets). print.html shows one
// loaded figure per directive and does not print before they are in; readers
// without JavaScript see each chapter's figures; on screen the figure stands
// in until the widget mounts and is hidden after. Pages and figures stay
// small and fetch nothing from other hosts.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { BOOK_DIR, setup, openPage } from "./support/browser.mjs";
import { reachAll } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const SRC_DIR = join(import.meta.dirname, "..", "src");
const FIGURES = ".tcp-widget[data-widget] > figure.tw-static img";

/// Figures per chapter page, read from the Markdown the way the
/// preprocessor reads it: a `{{#widget` line outside fenced code blocks
/// (inline code and `\{{#widget` stay text, and cannot start a line of their
/// own), except a prediction's (`predict=`: a drawing of its run would give
/// the answer away), and an exercise's widget (`{{#exercise`).
function directivesByPage() {
  const pages = {};
  for (const file of readdirSync(SRC_DIR).filter((f) => f.endsWith(".md") && f !== "SUMMARY.md")) {
    let fence = null;
    let count = 0;
    for (const line of readFileSync(join(SRC_DIR, file), "utf8").split("\n")) {
      const t = line.trimStart();
      if (fence) {
        if (t.startsWith(fence)) fence = null;
        continue;
      }
      if (t.startsWith("```") || t.startsWith("~~~")) fence = t.slice(0, 3);
      else if ((t.startsWith("{{#widget") && !/ predict=/.test(t)) || t.startsWith("{{#exercise")) count++;
    }
    if (count > 0) pages[file.replace(/\.md$/, ".html")] = count;
  }
  return pages;
}
const PAGES = directivesByPage();
const TOTAL = Object.values(PAGES).reduce((a, b) => a + b, 0);

/// Each figure on the page: loaded, drawn at a size, and visible. Only the
/// page's own placeholders (document.querySelectorAll, where a Playwright
/// locator would also reach into the shadow roots of embedded <tcp-widget>
/// demos, which have no build-time figure).
function figureStates(page) {
  return page.evaluate((sel) =>
    [...document.querySelectorAll(sel)].map((img) => {
      const r = img.getBoundingClientRect();
      return {
        src: img.getAttribute("src"),
        loaded: img.complete && img.naturalWidth > 0,
        shown: r.width > 100 && r.height > 100 && getComputedStyle(img).visibility !== "hidden" && img.checkVisibility(),
        inColumn: r.right <= document.documentElement.clientWidth + 0.5,
      };
    }),
  FIGURES);
}

/// Which of the page's own elements matching `sel` are visible.
const visibility = (page, sel) =>
  page.evaluate((s) => [...document.querySelectorAll(s)].map((e) => e.checkVisibility()), sel);

test("the book's chapters have widget directives to draw", () => {
  assert.ok(TOTAL >= 2, `directives found: ${JSON.stringify(PAGES)}`);
});

test("print.html shows one loaded figure per directive, and prints only once they are in", async () => {
  // mdBook's print page calls window.print() 100 ms after the window's load
  // event. Record the figures' state at that moment.
  const recordPrint = () => {
    window.print = () => {
      window.printedWith = [...document.querySelectorAll(".tcp-widget > figure.tw-static img")].map(
        (img) => img.complete && img.naturalWidth > 0,
      );
    };
  };
  const { page, problems, close } = await openPage(env, "print.html", { initScripts: [recordPrint] });
  await page.waitForFunction(() => window.printedWith !== undefined, null, { timeout: 10000 });
  const printed = await page.evaluate(() => window.printedWith);
  assert.equal(printed.length, TOTAL, "one figure per directive when print() runs");
  assert.ok(printed.every(Boolean), `figures not loaded when print() ran: ${JSON.stringify(printed)}`);

  await page.emulateMedia({ media: "print" });
  const figures = await figureStates(page);
  assert.equal(figures.length, TOTAL);
  for (const f of figures) assert.ok(f.loaded && f.shown, `figure in print: ${JSON.stringify(f)}`);
  // No live widget and no loading line on paper.
  const stray = await visibility(page, ".tcp-widget[data-widget] > :is(.tw-live, .tcp-widget-loading)");
  assert.ok(!stray.includes(true), `live widget or loading line in print: ${stray}`);
  assert.deepEqual(problems.external, []);
  assert.deepEqual(problems.failed, []);
  await close();
});

test("without JavaScript every chapter with a widget shows its figures, loaded and captioned", async () => {
  for (const [path, count] of Object.entries(PAGES)) {
    const { page, problems, close } = await openPage(env, path, { context: { javaScriptEnabled: false } });
    const figures = await figureStates(page);
    assert.equal(figures.length, count, `figures on ${path}`);
    for (const f of figures) assert.ok(f.loaded && f.shown && f.inColumn, `${path}: ${JSON.stringify(f)}`);
    // Only the figure: no promise of a simulation that will never load.
    assert.ok(!(await visibility(page, ".tcp-widget-loading:not(.tw-predict-note)")).includes(true), `loading line on ${path}`);
    for (const caption of await page.locator(".tw-static figcaption").allInnerTexts()) {
      assert.match(caption, /^Figure: .*when this book was built\. .*needs JavaScript and WebAssembly\.$/s);
    }
    assert.deepEqual(problems.external, [], path);
    assert.deepEqual(problems.failed, [], path);
    await close();
  }
});

test("at phone width the figures fit the column", async () => {
  const { page, close } = await openPage(env, "slow-start.html", {
    viewport: { width: 360, height: 780 },
    context: { javaScriptEnabled: false },
  });
  for (const f of await figureStates(page)) assert.ok(f.loaded && f.shown && f.inColumn, JSON.stringify(f));
  await close();
});

test("on screen the figure stands in until the widget mounts, then hides; print shows it again", async () => {
  const { page, problems, close } = await openPage(env, "slow-start.html");
  const visible = (sel) => visibility(page, sel);
  const count = PAGES["slow-start.html"];
  // At first only the widgets near the top have mounted; the rest show
  // their figures until the reader comes to them.
  await page.waitForSelector(".tcp-widget[data-mounted]:not(.tw-pending)", { timeout: 30000 });
  const far = await page.locator(".tcp-widget[data-widget]").last();
  assert.equal(await far.getAttribute("data-mounted"), null, "the last widget waits for the reader");
  assert.deepEqual((await visible(".tcp-widget > .tw-static")).at(-1), true, "its figure is shown");
  await reachAll(page);
  assert.deepEqual(await visible(".tcp-widget > .tw-static"), Array(count).fill(false), "figures hidden once mounted");
  assert.deepEqual(await visible(".tcp-widget:not([data-predict]) > .tw-live"), Array(count).fill(true), "live widgets shown");
  await page.emulateMedia({ media: "print" });
  assert.deepEqual(await visible(".tcp-widget > .tw-static"), Array(count).fill(true), "figures in print");
  assert.deepEqual(await visible(".tcp-widget:not([data-predict]) > .tw-live"), Array(count).fill(false), "no live widget in print");
  assert.deepEqual(problems.console, []);
  await close();
});

test("pages stay under 1 MB and figures small, with nothing from other hosts", () => {
  const html = readdirSync(BOOK_DIR).filter((f) => f.endsWith(".html"));
  for (const f of html) {
    const size = statSync(join(BOOK_DIR, f)).size;
    assert.ok(size < 1_000_000, `${f}: ${size} bytes`);
  }
  const dir = join(BOOK_DIR, "generated", "figures");
  const svgs = readdirSync(dir).filter((f) => f.endsWith(".svg"));
  assert.ok(svgs.length >= 1);
  for (const f of svgs) {
    const text = readFileSync(join(dir, f), "utf8");
    assert.ok(text.length < 300_000, `${f}: ${text.length} bytes`);
    // The namespace names SVG and is never fetched; nothing else may point anywhere.
    const rest = text.replaceAll('xmlns="http://www.w3.org/2000/svg"', "");
    assert.equal(rest.match(/https?:|href|url\(|@import/)?.[0], undefined, f);
  }
});
