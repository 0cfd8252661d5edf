// Numbers as the reader sees them: one unit per display. The clock's two
// ends, the completion readouts of both sides of a comparison, a typed box
// and the value beside it each read in one unit; a note about a rejected
// or clamped value goes once a valid one is entered.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const FIRST = "#slow-start-1";
const open = (query = "") => openWidget(env, `slow-start.html${query}`, FIRST);
const unitOf = (text) => text.match(/\d ([a-zµ]+)$/i)?.[1];

test("a long comparison reads its clock and both completions in one unit", async () => {
  // 8 MiB at 1 Gbit/s takes about 0.1 s, at 1 Mbit/s over a minute: the
  // clock runs in seconds, and so does every time it shows beside it.
  const q = "?slow-start-1.size=8MiB&slow-start-1.compare=bandwidth&slow-start-1.vs=1Mbit&slow-start-1.t=8999802us";
  const { widget: w, close } = await open(q);
  await w.side("b").waitSimulated(60000);
  const clock = await w.clockText();
  assert.match(clock, /^t = 9\.000 s \/ \d+\.\d{3} s$/, clock);
  const a = await w.side("a").readout("completion");
  const b = await w.side("b").readout("completion");
  assert.equal(unitOf(a), "s", `side A: ${a}`);
  assert.equal(unitOf(b), "s", `side B: ${b}`);
  assert.equal(await w.scrubber.getAttribute("aria-valuetext"), "9.000 s");
  await close();
});

test("a typed box shows its value in the unit shown beside it", async () => {
  const { page, widget: w, close } = await open("?slow-start-1.size=34952000");
  const size = w.slider("size");
  assert.equal(await size.value(), "33.3 MiB");
  assert.equal(await size.text.inputValue(), "33.332825MiB", "MiB, as beside it, and exactly the value");
  const rwnd = w.slider("rwnd");
  assert.equal(await rwnd.value(), "64240 B");
  assert.equal(await rwnd.text.inputValue(), "64240B");
  // 1 B is below the transfer size's range: clamped to 1024 B, and the box
  // says 1024B, not 1KiB beside "1024 B".
  await size.type("1B");
  await page.waitForFunction((sel) => document.querySelector(sel)?.innerText.includes("using 1024 B"), w.css(".tw-notes"));
  assert.equal(await size.value(), "1024 B");
  assert.equal(await size.text.inputValue(), "1024B");
  await close();
});

test("a note about a clamped or unreadable value goes once a valid value is entered", async () => {
  const { page, widget: w, close } = await open();
  const notes = () => w.locator(".tw-notes li").allInnerTexts();
  await w.slider("size").type("1B");
  await page.waitForFunction((sel) => document.querySelector(sel)?.innerText.includes("Transfer size"), w.css(".tw-notes"));
  await w.slider("rtt").type("fast");
  await page.waitForFunction((sel) => document.querySelector(sel)?.innerText.includes("RTT"), w.css(".tw-notes"));
  await w.slider("size").type("2KiB");
  await w.locator(`output[data-param="size"]`).filter({ hasText: "2048 B" }).waitFor();
  let shown = await notes();
  assert.ok(!shown.some((n) => n.includes("Transfer size")), `stale size note: ${shown}`);
  assert.ok(shown.some((n) => n.includes("RTT")), "the RTT note is still true");
  await w.slider("rtt").type("20ms");
  await w.locator(`output[data-param="rtt"]`).filter({ hasText: "20 ms" }).waitFor();
  shown = await notes();
  assert.deepEqual(shown, [], `no stale notes: ${shown}`);
  await close();
});
