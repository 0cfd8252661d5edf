// Slow start after idle in the slow-start widget (seed 004's two 512 KiB
// pushes 10 s apart on one connection): the headline and the "Transfers"
// readout give each push's time, and the second push is as slow as the first
// with net.ipv4.tcp_slow_start_after_idle on, much faster with it off.
// The presets load through the chapter page's URL state, so the chapter
// needs no directive for them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const FIRST = "#slow-start-1";

/// Each transfer's time in ms, read off the "Transfers" readout
/// ("1st 21.45 ms · 2nd 21.44 ms"), and the headline.
async function transfers(preset) {
  const { widget: w, problems, close } = await openWidget(env, `slow-start.html?slow-start-1.preset=${preset}`, FIRST);
  const readout = await w.readout("transfers");
  const headline = await w.readout("headline");
  assert.deepEqual(problems.console, []);
  await close();
  assert.match(readout, /^1st \d+\.\d\d ms · 2nd \d+\.\d\d ms$/);
  assert.equal(headline, `Transfers: ${readout}`);
  return readout.split(" · ").map((t) => parseFloat(t.split(" ")[1]));
}

test("with slow start after idle the second push is as slow as the first, without it much faster", async () => {
  const on = await transfers("idle-restart-on");
  const off = await transfers("idle-restart-off");
  assert.equal(on[0], off[0], "the same first push");
  assert.ok(Math.abs(on[1] - on[0]) < 0.01 * on[0], `on: ${on}`);
  assert.ok(off[1] < 0.5 * on[1], `off ${off} vs on ${on}`);
});

test("one transfer shows no transfers readout and keeps the completion headline", async () => {
  const { widget: w, close } = await openWidget(env, "slow-start.html", FIRST);
  assert.match(await w.readout("headline"), /^Done in /);
  assert.equal(await w.locator('[data-readout="transfers"]').count(), 0);
  await close();
});
