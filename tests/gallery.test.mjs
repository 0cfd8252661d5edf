// The "Widget gallery" appendix: every view drawn, the preset menus, and
// compare mode (two runs side by side on one clock, shared controls, one
// control per side for the compared setting, its state in the URL).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";
import { inked } from "./support/canvas.mjs";
import { Widget, reachAll } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const PAGE = "appendix-widget-gallery.html";
const COMPARE = '.tcp-widget[data-widget="long-fat"]';
// Two 30-second runs simulate before the comparison answers.
const SLOW = { timeout: 60000 };

async function openGallery(query = "") {
  const opened = await openPage(env, PAGE + query);
  const compare = await Widget.find(opened.page, COMPARE);
  await compare.side("b").waitSimulated(SLOW.timeout);
  return { ...opened, compare };
}

test("the gallery draws every view, with preset menus and no errors", async () => {
  const { page, problems, close } = await openGallery();
  const widgets = await page.locator(".tcp-widget[data-widget]").count();
  assert.ok(widgets >= 4, `${widgets} widgets`);
  await reachAll(page, SLOW);
  for (let i = 0; i < widgets; i++) {
    const w = page.locator(".tcp-widget[data-widget]").nth(i);
    await w.locator('[data-readout="completion"]').first().waitFor({ ...SLOW, state: "attached" });
    assert.ok((await w.locator(".tw-preset option").count()) > 2, "a preset menu");
  }
  for (const view of ["path", "cwnd", "tsg", "ladder", "rtt", "throughput"]) {
    const canvases = page.locator(`canvas[data-view="${view}"]`);
    assert.ok((await canvases.count()) > 0, `the ${view} view is on the page`);
    assert.ok(await inked(canvases.first()), `the ${view} view is drawn`);
  }
  assert.deepEqual(problems.console, []);
  assert.deepEqual(problems.failed, []);
  assert.deepEqual(problems.external, []);
  await close();
});

test("compare mode heads both runs with what differs, each quantity in one unit", async () => {
  const { compare, problems, close } = await openGallery();
  const line = await compare.readout("compare");
  const m = line.match(/^goodput A ([\d.]+) vs B ([\d.]+) Mbit\/s \(B ×([\d.]+)\) · retransmissions A (\d+) vs B (\d+) · (neither finished|finished A (.+) vs B (.+))$/);
  assert.ok(m, line);
  const [, a, b, ratio] = m.map(Number);
  assert.ok(Math.abs(b / a - ratio) / ratio < 0.02, `the ratio matches the figures: ${line}`);
  // 30 s of 10 GB: neither run completes.
  assert.equal(m[6], "neither finished");
  assert.deepEqual(problems.console, []);
  await close();
});

test("compare mode runs both sides under one clock with their own settings", async () => {
  const { compare, close } = await openGallery();
  const [a, b] = [compare.side("a"), compare.side("b")];
  assert.match(await a.locator(".tw-side-title").innerText(), /cubic/);
  assert.match(await b.locator(".tw-side-title").innerText(), /bbr/);
  // Each side simulated its own module: its settings panel says which.
  assert.match(await a.panel("settings"), /cubic/);
  assert.match(await b.panel("settings"), /bbr/);
  // One clock for both: one readout, one scrubber; both sides' ss lines follow it.
  assert.equal(await compare.locator('[data-readout="clock"]').count(), 1);
  const ssA = await a.panel("ss");
  const ssB = await b.panel("ss");
  await compare.scrubber.fill("500");
  const t = await compare.clockMs();
  assert.ok(t > 14000 && t < 16000, `half way through 30 s: ${t} ms`);
  assert.notEqual(await a.panel("ss"), ssA);
  assert.notEqual(await b.panel("ss"), ssB);
  assert.match(await compare.readout("cwnd"), /^A cwnd \d+ · B cwnd \d+$/);
  // Every view is drawn on both sides.
  for (const side of [a, b]) {
    for (const canvas of await side.locator("canvas").all()) assert.ok(await inked(canvas));
  }
  await close();
});

test("a shared control changes both runs; the compared one has a control per side", async () => {
  const { page, compare, close } = await openGallery();
  const id = compare.id;
  assert.equal(await compare.slider("cc").input.inputValue(), "cubic");
  assert.equal(await compare.slider("cc", { side: "b" }).input.inputValue(), "bbr");
  assert.equal(await compare.slider("rtt", { side: "b" }).input.count(), 0, "RTT is shared");
  // A shorter run (5 s) on both sides.
  await compare.slider("duration").type("5s");
  await page.waitForFunction((sel) => document.querySelector(sel)?.innerText.endsWith("/ 5000.000 ms"), compare.css('[data-readout="clock"]'), SLOW);
  for (const side of ["a", "b"]) {
    const iperf = await compare.side(side).panel("iperf");
    assert.ok(iperf.length > 0);
  }
  // Side B to reno: the URL records the comparison, and a link reopens it.
  await compare.slider("cc", { side: "b" }).input.selectOption("reno");
  await page.waitForFunction((sel) => /reno/.test(document.querySelector(sel)?.innerText), compare.side("b").css(".tw-side-title"));
  await compare.side("b").locator('[data-readout="completion"]').waitFor({ ...SLOW, state: "attached" });
  const url = page.url();
  assert.match(url, new RegExp(`${id}\\.compare=cc`));
  assert.match(url, new RegExp(`${id}\\.vs=reno`));
  assert.match(url, new RegExp(`${id}\\.duration=5s`));
  await close();
  const again = await openPage(env, PAGE + url.slice(url.indexOf("?")));
  const reopened = new Widget(again.page, COMPARE, id);
  await again.page.waitForSelector(reopened.side("b").css('[data-panel="settings"]'), { ...SLOW, state: "attached" });
  assert.equal(await reopened.slider("cc", { side: "b" }).input.inputValue(), "reno");
  assert.match(await reopened.side("b").panel("settings"), /reno/);
  await again.close();
});
