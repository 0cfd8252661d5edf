// Nothing under the transport moves while a run plays (issue 18): the play
// button keeps its width when "Play" becomes "Pause", the clock and cwnd
// readouts keep theirs as the numbers grow, and the line of running timers
// under the transport keeps its space whether a timer runs or not.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const FIRST = "#slow-start-1";

/// Every distinct set of page y positions (CSS px) of the path view's canvas
/// and the two chart panels' canvases seen at each animation frame for `ms`.
function watchLayout(page, selector, ms) {
  return page.evaluate(
    ({ selector, ms }) =>
      new Promise((resolve) => {
        const root = document.querySelector(selector);
        const seen = new Set();
        const start = performance.now();
        const tick = () => {
          const canvases = [root.querySelector('canvas[data-view="path"]'), ...root.querySelectorAll(".tw-slots canvas")];
          seen.add(canvases.map((c) => (c.getBoundingClientRect().top + window.scrollY).toFixed(1)).join(" "));
          if (performance.now() - start < ms) requestAnimationFrame(tick);
          else resolve([...seen]);
        };
        tick();
      }),
    { selector, ms },
  );
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 360, height: 740 },
]) {
  test(`the views stay put before, while and after playing, ${viewport.width} px wide`, async () => {
    const { page, widget: w, close } = await openWidget(env, "slow-start.html", FIRST, { viewport });
    await w.waitInteractive();
    // From 40 ms at 1/200, so that the run's last delayed-ACK timer (from
    // about 44.7 ms on) starts while the layout is watched, before the end.
    await w.locator(".tw-speed select").selectOption("0.005");
    await w.scrubber.fill("800");
    assert.equal(await w.locator(".tw-countdowns", { hasText: "delayed ACK" }).count(), 0, "no timer runs at 40 ms");
    const [paused] = await watchLayout(page, FIRST, 200);
    assert.equal(paused.split(" ").length, 3, `three canvases: ${paused}`);
    await w.play();
    const playing = await watchLayout(page, FIRST, 1500);
    assert.match(await w.playButton.innerText(), /Pause/, "still playing");
    assert.ok((await w.clockMs()) > 45, "the run reached its last delayed ACK");
    assert.match(await w.locator(".tw-countdowns").innerText(), /delayed ACK/);
    await w.play();
    assert.match(await w.playButton.innerText(), /Play/, "paused");
    const after = await watchLayout(page, FIRST, 300);
    assert.deepEqual(playing, [paused], "while playing");
    assert.deepEqual(after, [paused], "after pausing");
    await close();
  });
}
