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
/// and the two chart panels' canvases seen at each animation frame (`seen`),
/// and the play button's text, the clock and the running timers at the last
/// frame (`end`, read in the same task, so a busy machine cannot let the run
/// finish between the watch and the reading), for at
/// least `ms` and, with `untilClockMs`, until the widget's clock has passed
/// it. Watching until the clock gets there, not for a fixed time, keeps the
/// test honest on a busy machine: the transport advances at most 100 ms of
/// wall time per frame, so slow frames mean a slower clock.
function watchLayout(page, selector, ms, untilClockMs = 0, pauseAtEnd = false) {
  return page.evaluate(
    ({ selector, ms, untilClockMs, pauseAtEnd }) =>
      new Promise((resolve, reject) => {
        const root = document.querySelector(selector);
        const seen = new Set();
        const start = performance.now();
        const clockMs = () => {
          const [, value, unit] = root.querySelector('[data-readout="clock"]').textContent.trim().match(/^t = ([\d.]+) (ms|s)/);
          return parseFloat(value) * (unit === "s" ? 1000 : 1);
        };
        const tick = () => {
          const canvases = [root.querySelector('canvas[data-view="path"]'), ...root.querySelectorAll(".tw-slots canvas")];
          seen.add(canvases.map((c) => (c.getBoundingClientRect().top + window.scrollY).toFixed(1)).join(" "));
          const elapsed = performance.now() - start;
          if (elapsed < ms || clockMs() <= untilClockMs) {
            // Only a frozen page gets here: 60 s of frames without the clock moving on.
            if (elapsed > 60_000) reject(new Error(`the clock stayed at ${clockMs()} ms for 60 s`));
            else requestAnimationFrame(tick);
          } else {
            const end = {
              button: root.querySelector(".tw-play").innerText,
              clockMs: clockMs(),
              countdowns: root.querySelector(".tw-countdowns")?.innerText ?? "",
            };
            if (pauseAtEnd) root.querySelector(".tw-play").click();
            resolve({ seen: [...seen], end });
          }
        };
        tick();
      }),
    { selector, ms, untilClockMs, pauseAtEnd },
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
    const {
      seen: [paused],
    } = await watchLayout(page, FIRST, 200);
    assert.equal(paused.split(" ").length, 3, `three canvases: ${paused}`);
    await w.play();
    const { seen: playing, end } = await watchLayout(page, FIRST, 500, 45.5, true);
    assert.match(end.button, /Pause/, "still playing");
    assert.ok(end.clockMs > 45, "the run reached its last delayed ACK");
    assert.match(end.countdowns, /delayed ACK/);
    assert.match(await w.playButton.innerText(), /Play/, "paused");
    const { seen: after } = await watchLayout(page, FIRST, 300);
    assert.deepEqual(playing, [paused], "while playing");
    assert.deepEqual(after, [paused], "after pausing");
    await close();
  });
}
