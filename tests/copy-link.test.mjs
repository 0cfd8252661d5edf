// "Copy link" says what happened (issue 18): "Link copied." only when the
// clipboard took the link; where the page may not write to it (a frame on
// another origin without `allow="clipboard-write"`), the link in a selected,
// read-only field to copy by hand, and no uncaught promise rejection.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { setup } from "./support/browser.mjs";
import { serveBook } from "./support/server.mjs";
import { Widget } from "./support/widget.mjs";

let env, wiki;
before(async () => {
  env = await setup();
  // The wiki's fixture pages, on another origin (another port) than the book.
  wiki = await serveBook(join(import.meta.dirname, "fixtures"), { replace: { "@BOOK@": env.server.url } });
});
after(async () => {
  await wiki?.close();
  await env?.close();
});

/// A page in a new context (`options` for the context) that records console
/// errors and uncaught errors of every frame.
async function newPage(options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 }, ...options });
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  return { page, errors, context };
}

test("with clipboard permission the link is copied and the widget says so", async () => {
  const { page, errors, context } = await newPage();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url.replace(/\/$/, "") });
  await page.goto(env.server.url + "slow-start.html");
  const w = new Widget(page, "#slow-start-1");
  await w.waitInteractive();
  await w.step("rtt");
  await w.locator("button", { hasText: "Copy link" }).click();
  await w.locator(".tw-status", { hasText: "Link copied." }).waitFor({ timeout: 30000 });
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, page.url(), "the clipboard holds the page's address");
  assert.match(copied, /slow-start-1\.t=\d+us/, "with the widget's state");
  assert.equal(await w.locator(".tw-status input").count(), 0, "no field to copy from");
  assert.deepEqual(errors, []);
  await context.close();
});

test("in a frame without clipboard-write the link is offered in a selected field", async () => {
  const { page, errors, context } = await newPage();
  await page.goto(wiki.url + "wiki-iframe-no-clipboard.html");
  const scope = page.frameLocator("iframe");
  const w = new Widget(scope, "tcp-widget .tcp-widget");
  await w.waitInteractive(20000);
  await w.locator("button", { hasText: "Copy link" }).click();
  const status = w.locator(".tw-status");
  await status.locator("input").waitFor({ timeout: 30000 });
  assert.match(await status.innerText(), /^Copy this link:/);
  assert.doesNotMatch(await status.innerText(), /Link copied/);
  const frame = page.frames().find((f) => f.url().includes("embed/slow-start.html"));
  const href = await frame.evaluate(() => location.href);
  const field = await status.locator("input").evaluate((el) => ({
    value: el.value,
    readOnly: el.readOnly,
    focused: el.getRootNode().activeElement === el,
    selected: el.selectionStart === 0 && el.selectionEnd === el.value.length,
  }));
  assert.deepEqual(field, { value: href, readOnly: true, focused: true, selected: true });
  // A rejected write would surface as an uncaught error after the click,
  // a write tried against the frame's policy as a violation report.
  await page.waitForTimeout(300);
  assert.deepEqual(errors, []);
  await context.close();
});

test("where the browser refuses the write itself the link is offered, and the refusal is no uncaught error", async () => {
  const { page, errors, context } = await newPage();
  // What browsers without Chromium's policy check do in such a frame.
  await context.addInitScript(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
  });
  await page.goto(env.server.url + "slow-start.html");
  const w = new Widget(page, "#slow-start-1");
  await w.waitInteractive();
  await w.locator("button", { hasText: "Copy link" }).click();
  const field = w.locator(".tw-status input");
  await field.waitFor({ timeout: 30000 });
  assert.match(await w.locator(".tw-status").innerText(), /^Copy this link:/);
  assert.equal(await field.inputValue(), page.url());
  assert.ok(await field.evaluate((el) => document.activeElement === el && el.selectionEnd === el.value.length && el.selectionStart === 0), "focused and selected");
  await page.waitForTimeout(300);
  assert.deepEqual(errors, []);
  await context.close();
});
