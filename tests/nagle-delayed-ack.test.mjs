// The request-response widget in the built "Nagle and delayed ACK" chapter:
// the default story (one quick exchange, then nine that wait for the
// server's delayed-ACK timer), every preset, the 99,900 vs 100,000 compare,
// and the chapter's two exercises against the widget's own runs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { setup } from "./support/browser.mjs";
import { Widget, openEmbed, openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const PAGE = "nagle-delayed-ack.html";
const PLAIN = "#request-response-1";
const COMPARE = "#request-response-3";

/// The figures the widget's run reports (`data-results`), once it has them.
async function results(page, selector) {
  await page.waitForSelector(`${selector}[data-results]`, { state: "attached", timeout: 60000 });
  return JSON.parse(await page.locator(selector).getAttribute("data-results"));
}

/// The presets of the widget, as its menu lists them.
async function presetNames(w) {
  return w.locator(".tw-preset select option").evaluateAll((os) => os.map((o) => o.value).filter((v) => v));
}

/// Each exchange's mark in the transfers readout: `nagle`, `both`, ...
function heldIn(w) {
  return w.locator('[data-readout="transfers"] span').evaluateAll((ss) => ss.map((s) => s.className.replace("tw-held-", "")));
}

test("the default tells the story: the first exchange is quick, every later one waits for the timer", async () => {
  const { page, widget: w, problems, close } = await openWidget(env, PAGE, PLAIN);
  const r = await results(page, PLAIN);
  assert.ok(r.first_exchange_ms < 35, JSON.stringify(r));
  assert.ok(r.slowest_later_exchange_ms >= 35, JSON.stringify(r));
  // The headline lists the ten exchanges; all but the first over 35 ms.
  const times = (await w.readout("transfers")).split(" · ").map((t) => parseFloat(t.split(" ")[1]));
  assert.equal(times.length, 10, `${times}`);
  assert.ok(times[0] < 35 && times.slice(1).every((t) => t >= 35), `${times}`);
  // The marks say what held each: Nagle alone on the first (one round trip,
  // for the quick ACK), Nagle and the server's timer on the others.
  const held = await heldIn(w);
  assert.deepEqual(held, ["nagle", ...Array(9).fill("both")]);
  // The ladder is the first chart panel.
  assert.match(await w.panelName(1), /ladder/i);
  assert.deepEqual(problems.console, []);
  await close();
});

test("every preset simulates and plays", async () => {
  // Each alone on its embed page: the chapter page would run all its
  // widgets again for each.
  const { widget: first, close: closeFirst } = await openEmbed(env, "request-response");
  const names = await presetNames(first);
  await closeFirst();
  assert.equal(names.length, 8, `${names}`);
  for (const name of names) {
    const { widget: w, problems, results: figures, close } = await openEmbed(env, "request-response", `preset=${name}`);
    const r = await figures();
    assert.ok(r.completion_ms > 0 && r.exchange_bytes > 0, `${name}: ${JSON.stringify(r)}`);
    await w.play();
    // A locator, which reaches into the embed's shadow root.
    await w.locator('[data-readout="clock"]', { hasNotText: /^\s*t = 0(\.0+)? / }).waitFor({ timeout: 10000 });
    assert.deepEqual(problems.console, [], name);
    await close();
  }
});

/// What held each exchange of preset `name`, as the transfers readout marks it.
async function heldOf(name) {
  const { widget: w, close } = await openEmbed(env, "request-response", `preset=${name}`);
  const held = await heldIn(w);
  await close();
  return held;
}

test("the transfers' marks follow the trace's hold reasons", async () => {
  // One write on Linux: nothing holds; classic Nagle: the tail waits for
  // the timer (after a first exchange in quick-ACK mode, Nagle alone).
  assert.deepEqual(await heldOf("seed-1600-one-write"), Array(10).fill("none"));
  assert.deepEqual(await heldOf("seed-1600-one-write-classic"), ["nagle", ...Array(9).fill("both")]);
  // 100,000 bytes on classic stacks: every reply's tail waits for the timer.
  assert.deepEqual(await heldOf("seed-100000-classic"), Array(20).fill("both"));
});

test("compare runs 99,900 bytes against 100,000 on classic stacks: only 100,000 waits", async () => {
  const { page, problems, close } = await openWidget(env, PAGE, COMPARE);
  const w = await Widget.find(page, COMPARE);
  await w.side("b").waitSimulated(60000);
  const per = async (side) => (await w.side(side).readout("transfers")).split(" · ").map((t) => parseFloat(t.split(" ")[1]));
  const [a, b] = [await per("a"), await per("b")];
  assert.ok(a.every((t) => t < 100), `99,900: ${a}`);
  assert.ok(b.every((t) => t >= 200), `100,000: ${b}`);
  assert.equal(await w.slider("reply").output.first().textContent(), "99900 B");
  assert.equal(await w.slider("reply").output.last().textContent(), "100000 B");
  assert.deepEqual(problems.console, []);
  await close();
});

/// An exercise's status line, once the widget has reported a run.
async function status(page, n) {
  return (await page.locator(`#exercise-${n} .tw-exercise-status`).textContent()).trim();
}

for (const [n, widget, wrong] of [
  // Exercise 1: one write (the solution) meets it; a 200 ms timer does not.
  [1, "#request-response-2", "delayed_ack=200ms"],
  // Exercise 2: 100,000 bytes (the solution) meets it; 99,000 does not stall.
  [2, "#request-response-4", "reply=99000"],
]) {
  test(`exercise ${n} rejects a wrong setting and accepts its solution`, async () => {
    const id = widget.slice(1);
    const wrongPage = await openWidget(env, `${PAGE}?${id}.${wrong}`, widget);
    await results(wrongPage.page, widget);
    assert.match(await status(wrongPage.page, n), /^Not met yet/);
    await wrongPage.close();

    const { page, problems, close } = await openWidget(env, PAGE, widget);
    await results(page, widget);
    assert.match(await status(page, n), /^Not met yet/, "the starting setting");
    await page.locator(`#exercise-${n} .tw-exercise-solve`).click();
    await page.waitForFunction((n) => /^Met/.test(document.querySelector(`#exercise-${n} .tw-exercise-status`).textContent), n, { timeout: 60000 });
    assert.deepEqual(problems.console, []);
    await close();
  });
}

test("the prediction reveals all but the first as the simulated answer", async () => {
  const built = readFileSync(join(env.dir ?? join(import.meta.dirname, "..", "book"), PAGE), "utf8");
  const choices = [...built.matchAll(/data-goal="([^"]*)"[^>]*> ([^<]*)</g)].map((m) => m[2]);
  assert.ok(choices.includes("All but the first"), `${choices}`);
  const { page, problems, close } = await openWidget(env, PAGE, PLAIN);
  const w = await Widget.find(page, "#request-response-predict-1");
  await w.locator(".tw-root").waitFor({ timeout: 30000 });
  assert.equal(await w.playButton.isDisabled(), true, "no play before an answer");
  await page.locator("#predict-1 input[type=radio]").nth(choices.indexOf("All but the first")).check();
  await page.locator("#predict-1 button[type=submit]").click();
  await w.waitInteractive(30000);
  await w.play();
  await page.waitForSelector('#request-response-predict-1[data-revealed="1"]', { state: "attached", timeout: 120000 });
  const r = await results(page, "#request-response-predict-1");
  assert.ok(r.first_exchange_ms < 35 && r.slowest_later_exchange_ms >= 35, JSON.stringify(r));
  assert.deepEqual(problems.console, []);
  await close();
});
