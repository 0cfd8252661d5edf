// The page stays responsive at the sliders' extremes: the simulation and
// the reduction of its run to what the views draw go in slices, so that no
// task holds the main thread long enough to drop a reader's input.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

/// Records every long task (over 50 ms, the browser's own threshold) from the
/// page's first script on.
const recordLongTasks = () => {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration));
  }).observe({ type: "longtask", buffered: true });
};

test("a 64 MiB transfer at 1 Mbit/s with initcwnd 100 settles with no task over 50 ms", async () => {
  const { page, widget: w, problems, close } = await openWidget(env, "slow-start.html", "#slow-start-1", {
    initScripts: [recordLongTasks],
  });
  await w.waitInteractive(20000);
  // What happened while the page loaded is the load's, not the widget's.
  await page.evaluate(() => (window.__longTasks = []));
  await w.slider("size").type("64MiB");
  await w.slider("bandwidth").type("1Mbit");
  await w.slider("initcwnd").type("100");
  await w.waitInteractive(60000);
  await page.waitForTimeout(200);
  assert.match(await w.readout("completion"), /\d/);
  const long = await page.evaluate(() => window.__longTasks);
  assert.deepEqual(long, [], `main-thread tasks over 50 ms (ms): ${long}`);
  assert.deepEqual(problems.console, []);
  await close();
});
