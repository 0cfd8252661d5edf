// A widget that cannot start says why, in words its page's author can act
// on: the page's Content Security Policy (which directive, what it blocked,
// what to add), a fetch that failed, a browser without WebAssembly, a
// script that did not load. Before, every one of these read "It needs a
// browser with WebAssembly", which sent authors after the wrong cause.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fixtureWiki } from "./support/embedding.mjs";

let env, wiki, stop;
before(async () => ({ env, wiki, close: stop } = await fixtureWiki()));
after(() => stop?.());

/// A page on the book's origin with `policy` as its Content Security Policy
/// (a `<meta>`, as a wiki's template would set it) and one `<tcp-widget>`.
function hostPage(policy) {
  const book = "/";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<script src="${book}embed/tcp-widget.js"></script></head>
<body><tcp-widget name="slow-start"></tcp-widget></body></html>`;
}

/// Opens `url` (served as `html` when given) and returns the message the
/// page's first widget shows in place of its simulation.
async function startError(url, html, { setup } = {}) {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await setup?.(page, context);
  if (html) await page.route(url, (r) => r.fulfill({ contentType: "text/html", body: html }));
  await page.goto(url);
  const message = page.locator("tcp-widget >> nth=0").locator(".tw-error");
  await message.waitFor({ timeout: 60000 });
  const text = await message.innerText();
  await context.close();
  return text;
}

// Pages on another origin are fixture files (tests/fixtures/csp-*.html):
// Chromium treats a page that a route made up as public, and refuses it the
// loopback address the book is served from.
test("a policy without 'wasm-unsafe-eval' is named, with what to add", async () => {
  const text = await startError(wiki.url + "csp-no-wasm.html");
  assert.match(text, /^This simulation could not start: the page's Content Security Policy \(script-src\) blocked WebAssembly/);
  assert.match(text, /'wasm-unsafe-eval'/);
  assert.match(text, /or embed the widget as an iframe\.$/);
  assert.doesNotMatch(text, /needs a browser with WebAssembly/);
});

test("a policy that lets in the element but not the wasm beside it names the blocked address", async () => {
  const text = await startError(wiki.url + "csp-element-only.html");
  assert.match(text, /Content Security Policy \(script-src\) blocked http:\/\/127\.0\.0\.1:\d+/);
  assert.match(text, /its script-src needs that address/);
});

test("a policy that forbids the wasm's fetch names connect-src", async () => {
  // On the book's own origin the element fetches the .wasm, which
  // connect-src governs.
  const text = await startError(env.server.url + "host.html", hostPage("connect-src 'none'"));
  assert.match(text, /Content Security Policy \(connect-src\) blocked http:\/\/127\.0\.0\.1:\d+\/embed\/tcp_widgets_bg\.wasm/);
});

test("a failed fetch names the address and the likely causes", async () => {
  const text = await startError(env.server.url + "host.html", hostPage("default-src * 'unsafe-inline' 'wasm-unsafe-eval'"), {
    setup: (page) => page.route("**/tcp_widgets_bg.wasm", (r) => r.abort()),
  });
  assert.match(text, /could not fetch http:\/\/127\.0\.0\.1:\d+\/embed\/tcp_widgets_bg\.wasm \(offline, or blocked: from another origin it needs CORS headers\)\.$/);
});

test("a browser without WebAssembly is told so", async () => {
  const text = await startError(wiki.url + "wiki-element.html", null, {
    setup: (page) => page.addInitScript(() => delete window.WebAssembly),
  });
  assert.equal(text, "This simulation could not start: this browser has no WebAssembly.");
});

test("in the book, a bundle that did not load is named and the figure stays", async () => {
  const context = await env.browser.newContext();
  const page = await context.newPage();
  await page.route("**/embed/tcp-widget.js", (r) => r.abort());
  await page.goto(env.server.url + "slow-start.html");
  const first = page.locator(".tcp-widget[data-widget]:has(.tw-static)").first();
  const message = first.locator(".tw-load-error");
  await message.waitFor({ timeout: 60000 });
  assert.match(await message.innerText(), /^This simulation could not start: could not load http:\/\/127\.0\.0\.1:\d+\/embed\/tcp-widget\.js\. The figure shows its starting state\.$/);
  assert.equal(await first.locator(".tw-static img").count(), 1, "the build-time figure is still there");
  assert.equal(await first.locator(".tcp-widget-loading").count(), 0, "no \"Loading…\" line left");
  await context.close();
});
