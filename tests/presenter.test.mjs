// Presenter mode on a projector's 16:9 screen (1280×720): the path view, the
// first chart, the transport and a large clock all on screen at once, with
// no scrolling, in a light and a dark theme.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";
import { Widget, settled } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

for (const theme of ["light", "navy"]) {
  test(`presenter mode at 1280×720 (${theme}) shows the path view, a chart, the transport and a large clock without scrolling`, async () => {
    const { page, problems, close } = await openPage(env, "slow-start.html", { viewport: { width: 1280, height: 720 }, theme });
    const w = await Widget.find(page, "#slow-start-1");
    await w.waitInteractive(20000);
    // The widgets near it mount one after another, each in place of its
    // figure, which moves the page; presenter mode must not. Then the
    // button in the middle of the screen, clear of mdBook's sticky menu
    // bar (a click on a covered button scrolls the page first).
    await settled(page);
    await w.locator(".tw-presenter-button").evaluate((b) => b.scrollIntoView({ block: "center" }));
    await settled(page);
    const scrolled = await page.evaluate(() => window.scrollY);
    await w.locator(".tw-presenter-button").click();
    await page.waitForTimeout(300);
    const box = async (locator) => {
      const b = await locator.boundingBox();
      assert.ok(b, "on the page");
      return b;
    };
    for (const [what, locator] of [
      ["the path view", w.canvas("path")],
      ["the first chart", w.chartPanel(1).locator("canvas")],
      ["Play", w.playButton],
      ["the clock", w.locator('[data-readout="clock"]')],
      ["the scrubber", w.scrubber],
    ]) {
      const b = await box(locator);
      assert.ok(b.y >= 0 && b.y + b.height <= 720, `${what} spans ${Math.round(b.y)}–${Math.round(b.y + b.height)} px of 720`);
      assert.ok(b.x >= 0 && b.x + b.width <= 1280, `${what} spans ${Math.round(b.x)}–${Math.round(b.x + b.width)} px of 1280`);
    }
    // Large enough to read from the back of a room: twice the page's type.
    const clockPx = await w.locator('[data-readout="clock"]').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    const bodyPx = await page.evaluate(() => parseFloat(getComputedStyle(document.body).fontSize));
    assert.ok(clockPx >= 1.8 * bodyPx, `clock ${clockPx} px, page ${bodyPx} px`);
    // Presenter mode covers the screen; the page under it does not move.
    assert.equal(await page.evaluate(() => window.scrollY), scrolled);
    assert.deepEqual(problems.console, []);
    await close();
  });
}
