// Settings inside a widget's own ranges whose whole run the page cannot
// afford (issue: `buffers-bdp.html?buffers-2.rtt=0.1ms&…&buffers-2.size=64MiB`
// grew wasm memory to 4 GB, threw `unreachable` and stopped every widget on
// the page). Now such a run is simulated until it reaches the browser
// budget (`sim::Budget::BROWSER`), cut there and drawn up to the cut with a
// note, and every other widget on the page stays live.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";
import { Widget, reachAll } from "./support/widget.mjs";
import { bundleState } from "./support/embedding.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const HOSTILE = "buffers-bdp.html?buffers-2.rtt=0.1ms&buffers-2.reading=limited&buffers-2.read_rate=8kbit&buffers-2.size=64MiB";

test("a run over the page's budget plays, and the page's other widgets stay live", async () => {
  const { page, problems, close } = await openPage(env, HOSTILE);
  const hostile = new Widget(page, "#buffers-2");
  await hostile.waitSimulated(180000);
  // The whole run, not a refusal: the headline reads it to its time limit.
  const headline = await page.locator("#buffers-2").evaluate((el) => el.textContent);
  assert.match(headline, /Goodput [0-9.]+ Mbit\/s over 600\.000 s/);
  assert.equal(await page.locator("#buffers-2 [role=alert]").count(), 0, "no refusal and no cut");
  assert.ok(await hostile.inkedCanvas("path"), "the run is drawn");
  // Every other widget mounts and simulates as usual.
  await reachAll(page, { timeout: 180000 });
  const failed = await page.evaluate(() =>
    [...document.querySelectorAll(".tcp-widget[data-widget]")]
      .filter((w) => w.classList.contains("tw-error") || w.querySelector("[role=alert]")?.textContent)
      .map((w) => w.id),
  );
  assert.deepEqual(failed, []);
  // Within a phone's means: the page's whole wasm memory, every widget's
  // run included, stays under 512 MiB (a run's records hold to 256 MiB).
  const { memory } = await bundleState(page);
  assert.ok(memory <= 512 << 20, `wasm memory ${memory} B`);
  assert.deepEqual(problems.console, []);
  await close();
});
