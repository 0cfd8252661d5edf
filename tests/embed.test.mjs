// The widgets outside the served book: the book opened from disk, and the
// three embed forms, each from a plain fixture page (tests/fixtures/) on
// another origin than the book, with no mdBook around it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BOOK_DIR } from "./support/browser.mjs";
import { notBlank } from "./support/canvas.mjs";
import { Widget } from "./support/widget.mjs";
import { fixtureWiki, frameSized } from "./support/embedding.mjs";

let env, wiki, stop;
before(async () => ({ env, wiki, close: stop } = await fixtureWiki()));
after(() => stop?.());

/// A new page that records console errors, page errors and every request.
async function newPage(contextOptions = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 800 }, ...contextOptions });
  const page = await context.newPage();
  const problems = { console: [], requests: [] };
  page.on("console", (m) => m.type() === "error" && problems.console.push(m.text()));
  page.on("pageerror", (e) => problems.console.push(String(e)));
  page.on("request", (r) => problems.requests.push(r.url()));
  return { page, problems, context };
}

/// Waits until the widget (in a page or a frame; locators pierce shadow
/// roots) has simulated its run and drawn it, then plays it: the clock moves
/// and the path view holds a drawing.
async function seeItRun(scope, selector) {
  const widget = new Widget(scope, selector);
  await widget.waitInteractive(20000);
  const before = await widget.clockText();
  await widget.play();
  const deadline = Date.now() + 60000;
  while ((await widget.clockText()) === before) {
    assert.ok(Date.now() < deadline, `the clock stayed at ${before}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(await notBlank(widget.canvas("path")), "the path view is drawn");
}

test("the book opened from disk (file://) runs its widgets", async () => {
  const { page, problems, context } = await newPage();
  await page.goto(pathToFileURL(join(BOOK_DIR, "slow-start.html")).href);
  await seeItRun(page, "#slow-start-1");
  assert.deepEqual(problems.console, []);
  assert.ok(problems.requests.every((u) => u.startsWith("file:") || u.startsWith("data:") || u.startsWith("blob:")), problems.requests.filter((u) => !u.startsWith("file:")).join("\n"));
  await context.close();
});

test("(a) the iframe page runs in a frame on another origin and the frame sizes itself", async () => {
  const { page, problems, context } = await newPage();
  await page.goto(wiki.url + "wiki-iframe.html");
  const frameEl = page.locator("iframe");
  const frame = page.frameLocator("iframe");
  await seeItRun(frame, "tcp-widget .tcp-widget");
  // The URL's settings reached the widget: rtt=20ms on the seed-7ms preset.
  const widget = await Widget.find(frame, "tcp-widget .tcp-widget");
  assert.equal(await widget.slider("rtt").text.inputValue(), "20ms");
  // The frame grew from its 150 px to the widget's height, and follows it.
  const inner = async () => (await frame.locator("html").evaluate((h) => Math.ceil(h.getBoundingClientRect().height)));
  await page.waitForFunction(() => parseFloat(document.querySelector("iframe").style.height) > 400);
  const height = async () => parseFloat(await frameEl.evaluate((f) => f.style.height));
  assert.equal(await height(), await inner());
  const was = await height();
  await widget.toggleTable(0);
  await page.waitForFunction((h) => parseFloat(document.querySelector("iframe").style.height) > h + 50, was);
  assert.equal(await height(), await inner());
  assert.deepEqual(problems.console, []);
  await context.close();
});

test("(a) the iframe page runs in a sandboxed frame (allow-scripts only)", async () => {
  // A sandboxed document's origin is opaque ("null") though its URL is the
  // book's: a fetch of the wasm from there is cross-origin, and needed CORS
  // headers the appendix says a host need not send. The element loads the
  // wasm as a classic script whenever the document's origin is not the
  // script's, which needs none.
  const { page, problems, context } = await newPage();
  await page.goto(wiki.url + "blank-host.html");
  await page.evaluate((src) => {
    const frame = document.createElement("iframe");
    frame.setAttribute("sandbox", "allow-scripts");
    frame.style.cssText = "width:900px;height:700px";
    frame.src = src;
    document.body.append(frame);
  }, env.server.url + "embed/slow-start.html");
  await seeItRun(page.frameLocator("iframe"), "tcp-widget .tcp-widget");
  assert.deepEqual(problems.console, []);
  await context.close();
});

test("the appendix's own example frames are sized to their widgets, in a dark theme too", async () => {
  const { page, problems, context } = await newPage();
  await page.goto(env.server.url + "appendix-embedding.html");
  await page.evaluate(() => localStorage.setItem("mdbook-theme", "navy"));
  await page.reload();
  for (const [i, frameEl] of (await page.locator("iframe.tw-embed-example").all()).entries()) {
    await frameEl.scrollIntoViewIfNeeded();
    const frame = page.frameLocator(`iframe.tw-embed-example >> nth=${i}`);
    await new Widget(frame, "tcp-widget .tcp-widget").waitInteractive(20000);
    // The frame's 1 px border comes on top of the widget's height; the frame
    // follows the widget by postMessage, so this polls until they agree.
    await frameSized(page, `iframe.tw-embed-example >> nth=${i}`);
    await frame.locator('tcp-widget .tcp-widget[data-scheme="dark"]').waitFor({ timeout: 30000 });
  }
  assert.deepEqual(problems.console, []);
  await context.close();
});

test("(b) the custom element runs on a foreign page, isolated from its styles both ways", async () => {
  const { page, problems, context } = await newPage();
  await page.goto(wiki.url + "wiki-element.html");
  await seeItRun(page, "#friendly .tcp-widget");
  const friendly = await Widget.find(page, "#friendly .tcp-widget");
  assert.equal(await friendly.slider("rtt").text.inputValue(), "20ms");
  // The page's styles stop at the shadow root: its colours, fonts, button
  // and canvas rules do not reach the widget.
  const inside = await friendly.root.evaluate((w) => {
    const s = getComputedStyle(w);
    const b = getComputedStyle(w.querySelector("button"));
    const c = getComputedStyle(w.querySelector("canvas"));
    return { bg: s.backgroundColor, color: s.color, font: s.fontFamily, size: s.fontSize, button: b.backgroundColor, canvasBorder: c.borderTopWidth };
  });
  assert.equal(inside.bg, "rgb(255, 255, 255)", "light paper, not the page's --bg");
  assert.notEqual(inside.color, "rgb(0, 255, 0)");
  assert.notEqual(inside.color, "rgb(200, 0, 0)");
  assert.doesNotMatch(inside.font, /Comic/);
  assert.notEqual(inside.button, "rgb(255, 255, 0)");
  assert.equal(inside.canvasBorder, "0px");
  // And the widget's styles do not reach the page's own elements that happen
  // to share its class names.
  const outside = await page.evaluate(() => ({
    grid: getComputedStyle(document.getElementById("page-grid")).display,
    loading: getComputedStyle(document.getElementById("page-own")).fontStyle,
  }));
  assert.equal(outside.grid, "block");
  assert.equal(outside.loading, "normal");
  // theme="dark" gives dark paper.
  const dark = new Widget(page, "#dark .tcp-widget");
  await dark.waitInteractive(20000);
  assert.equal(await dark.root.evaluate((w) => getComputedStyle(w).backgroundColor), "rgb(22, 25, 35)");
  assert.deepEqual(problems.console, []);
  await context.close();
});

test("(b) on a foreign page the element loads its widgets' words once, beside the wasm: title, presets, slider help, notes", async () => {
  const { page, problems, context } = await newPage();
  await page.goto(wiki.url + "wiki-element.html");
  const w = await Widget.find(page, "#friendly .tcp-widget");
  await w.waitInteractive(20000);
  // The words are not in the wasm (kit/page_text.rs): without them the
  // title would be empty and the menu would list bare preset names.
  assert.equal(await w.locator(".tw-title").innerText(), "Slow start on a new connection");
  const options = await w.locator(".tw-preset select option").allInnerTexts();
  assert.ok(options.includes("1. 512 KiB at 7 ms, the capture's setting"), options.join(" | "));
  const help = await w.slider("rtt").range.getAttribute("aria-description");
  assert.match(help, /round-trip/);
  // Both slow-start elements and the long-fat one share one load.
  const fetched = problems.requests.filter((u) => u.endsWith("/embed/tcp-widget-words.en.js"));
  assert.equal(fetched.length, 1, problems.requests.join("\n"));
  // Presenter mode shows the preset's speaker notes, as in the book.
  await w.locator(".tw-preset select").selectOption("seed-7ms");
  await w.locator(".tw-presenter-button").click();
  await w.locator(".tw-speaker-notes").waitFor({ timeout: 30000 });
  assert.match(await w.locator(".tw-speaker-notes").innerText(), /^Notes: \S/);
  const dark = await Widget.find(page, "#dark .tcp-widget");
  await dark.waitInteractive(20000);
  assert.match(await dark.locator(".tw-title").innerText(), /long fat network/i);
  assert.deepEqual(problems.console, []);
  await context.close();
});

test("(b) a widget whose words file cannot load still names everything, and says why in the console", async () => {
  const { page, problems, context } = await newPage();
  const warnings = [];
  page.on("console", (m) => m.type() === "warning" && warnings.push(m.text()));
  await page.route("**/tcp-widget-words.*.js", (route) => route.abort());
  await page.goto(wiki.url + "wiki-element.html");
  const w = await Widget.find(page, "#friendly .tcp-widget");
  await w.waitInteractive(20000);
  // Its own name for a title, each slider's label for its help, each
  // view's name for its canvas: never an empty accessible name.
  assert.equal(await w.locator(".tw-title").innerText(), "slow-start");
  assert.match(await w.slider("rtt").range.getAttribute("aria-description"), /^RTT\b/);
  for (const label of await w.locator("canvas").evaluateAll((cs) => cs.map((c) => c.getAttribute("aria-label") || ""))) {
    assert.notEqual(label.trim(), "");
  }
  assert.ok(
    warnings.some((t) => /no words for the widget "slow-start"/.test(t)),
    `console warnings: ${warnings.join(" | ")}`,
  );
  assert.ok(warnings.some((t) => /could not load .*tcp-widget-words\.en\.js/.test(t)), warnings.join(" | "));
  // The failed load is the one console error, and it is the browser's.
  assert.ok(problems.console.every((t) => /tcp-widget-words/.test(t) || /ERR_FAILED/.test(t)), problems.console.join(" | "));
  await context.close();
});

test("(b) hostile attribute values and names are inert: notes, safe values, no markup, no script", async () => {
  const { page, problems, context } = await newPage();
  await page.goto(wiki.url + "wiki-element.html");
  const hostile = await Widget.find(page, "#hostile .tcp-widget");
  await hostile.waitInteractive(20000);
  const notes = await hostile.locator(".tw-notes").innerText();
  assert.match(notes, /Ignored/);
  // Each bad value fell back to a safe one: the defaults.
  assert.equal(await hostile.slider("rtt").text.inputValue(), "7ms");
  assert.equal(await hostile.locator("img, script, svg").count(), 0);
  const unknown = page.locator("#unknown .tcp-widget");
  await page.waitForFunction(() => document.querySelector("#unknown").shadowRoot?.querySelector(".tw-error"));
  assert.match(await unknown.innerText(), /Unknown widget “<b>nope<\/b>”/);
  assert.equal(await unknown.locator("b").count(), 0);
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(problems.console, []);
  await context.close();
});

test("(c) the self-contained file runs from disk, alone, with no network at all", async () => {
  for (const name of ["slow-start", "long-fat"]) {
    // Copied alone into an empty folder: nothing beside it to load.
    const dir = mkdtempSync(join(tmpdir(), "tcp-widget-"));
    const file = join(dir, `${name}.standalone.html`);
    copyFileSync(join(BOOK_DIR, "embed", `${name}.standalone.html`), file);
    const { page, problems, context } = await newPage({ offline: true });
    await page.goto(pathToFileURL(file).href + "?duration=2s");
    await seeItRun(page, "tcp-widget .tcp-widget");
    // Its words are written into the file (kit/page_text.rs).
    const title = await page.locator("tcp-widget .tw-title").innerText();
    assert.ok(title.length > 10, `${name}: title "${title}"`);
    assert.deepEqual(problems.requests, [pathToFileURL(file).href + "?duration=2s"], `${name}: only the file itself`);
    assert.deepEqual(problems.console, [], name);
    await context.close();
  }
});

test("(c) the self-contained file runs in an <iframe srcdoc> and from a blob: URL", async () => {
  // The two ways a page shows a file it has no server for. Neither
  // document's URL (about:srcdoc, blob:…) is one a relative URL resolves
  // against: the glue and the element resolved theirs at load, threw, and no
  // widget started. The host is a served page: under a page made with
  // setContent (about:blank), Chromium's renderer crashes as soon as a blob:
  // frame posts a message to it, widget or not.
  const { readFileSync } = await import("node:fs");
  const html = readFileSync(join(BOOK_DIR, "embed", "slow-start.standalone.html"), "utf8");
  for (const how of ["srcdoc", "blob"]) {
    const { page, problems, context } = await newPage();
    await page.goto(wiki.url + "blank-host.html");
    const heights = [];
    await page.exposeFunction("heightReported", (h) => heights.push(h));
    await page.evaluate(
      ([how, html]) => {
        addEventListener("message", (e) => e.data?.type === "tcp-widget:height" && window.heightReported(e.data.height));
        const frame = document.createElement("iframe");
        frame.style.cssText = "width:900px;height:700px";
        document.body.append(frame);
        if (how === "srcdoc") frame.srcdoc = html;
        else frame.src = URL.createObjectURL(new Blob([html], { type: "text/html" }));
      },
      [how, html],
    );
    await seeItRun(page.frameLocator("iframe"), "tcp-widget .tcp-widget");
    assert.ok(heights.length > 0 && heights.at(-1) > 300, `${how}: the frame reports its height (${heights})`);
    assert.deepEqual(problems.console, [], how);
    // Nothing fetched but the host page: the file holds everything.
    assert.deepEqual(problems.requests.filter((u) => !u.startsWith("blob:") && !u.startsWith("about:")), [wiki.url + "blank-host.html"], how);
    await context.close();
  }
});

test("every widget has all three embed forms in the built book", () => {
  const files = readdirSync(join(BOOK_DIR, "embed"));
  assert.ok(files.includes("tcp-widget.js"));
  assert.ok(files.includes("tcp_widgets_bg.wasm"));
  for (const name of ["slow-start", "long-fat"]) {
    assert.ok(files.includes(`${name}.html`), `${name}.html`);
    assert.ok(files.includes(`${name}.standalone.html`), `${name}.standalone.html`);
    assert.ok(statSync(join(BOOK_DIR, "embed", `${name}.standalone.html`)).size < 1_000_000);
  }
});

