// A chapter's widgets mount as the reader comes to them (theme/widgets-loader.js):
// the one in view first, then the ones near it, one at a time; the rest show
// their build-time figures until the reader scrolls to them. A link to a
// widget's state opens it with that state, mounted first however far down
// the page it is.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";
import { Widget, settled } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const PAGE = "slow-start.html";
const FAR = "#slow-start-8";

/// Whether a placeholder has mounted, is still simulating its first run,
/// and shows its figure.
const stateOf = (page, selector) =>
  page.locator(selector).evaluate((el) => ({
    mounted: el.hasAttribute("data-mounted"),
    pending: el.classList.contains("tw-pending"),
    figure: getComputedStyle(el.querySelector(".tw-static")).display !== "none",
  }));

test("a widget far down the page waits with its figure, and mounts when the reader scrolls to it", async () => {
  const { page, problems, close } = await openPage(env, PAGE);
  await page.waitForSelector(".tcp-widget[data-mounted]:not(.tw-pending)", { timeout: 30000 });
  await settled(page);
  assert.deepEqual(await stateOf(page, FAR), { mounted: false, pending: false, figure: true });
  assert.ok((await page.locator(".tcp-widget[data-mounted]").count()) < (await page.locator(".tcp-widget[data-widget]").count()));
  const far = new Widget(page, FAR);
  await far.waitInteractive(); // scrolls to it, as a reader would
  assert.deepEqual(await stateOf(page, FAR), { mounted: true, pending: false, figure: false });
  assert.ok(await far.inkedCanvas("path"), "its path view is drawn");
  assert.deepEqual(problems.console, []);
  await close();
});

test("while its first run simulates, a widget shows its figure, then the live widget in its place", async () => {
  const { page, close } = await openPage(env, PAGE);
  // Caught in the act on the way to the far widget: pending means figure
  // shown and live widget hidden, at no height.
  const seen = page.evaluate(
    (sel) =>
      new Promise((resolve) => {
        const el = document.querySelector(sel);
        const watch = new MutationObserver(() => {
          if (!el.classList.contains("tw-pending")) return;
          watch.disconnect();
          const live = el.querySelector(".tw-live");
          resolve({
            figure: getComputedStyle(el.querySelector(".tw-static")).display,
            live: live && getComputedStyle(live).visibility,
            height: live && live.getBoundingClientRect().height,
          });
        });
        watch.observe(el, { attributes: true, attributeFilter: ["class"] });
      }),
    FAR,
  );
  await page.locator(FAR).scrollIntoViewIfNeeded();
  assert.deepEqual(await seen, { figure: "block", live: "hidden", height: 0 });
  await new Widget(page, FAR).waitInteractive();
  await close();
});

test("a link to a far widget's state opens it with that state, mounted first", async () => {
  const { page, problems, close } = await openPage(env, `${PAGE}?slow-start-8.rtt=60ms`);
  // Not scrolled to: it is queued first, and mounts after the widget in view.
  await page.waitForFunction((sel) => document.querySelector(sel).hasAttribute("data-mounted"), FAR, { timeout: 30000 });
  assert.equal(await page.evaluate(() => window.scrollY), 0, "the page stayed at its top");
  const far = await Widget.find(page, FAR);
  await far.waitInteractive();
  assert.equal(await far.slider("rtt").output.innerText(), "60 ms");
  assert.match(page.url(), /slow-start-8\.rtt=60ms/);
  assert.deepEqual(problems.console, []);
  await close();
});
