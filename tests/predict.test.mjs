// Predict, then see (issue 19): a widget with `predict` on its placeholder
// hides its result until the page says the reader answered
// (`data-answered`) and the run has played through; then it shows
// everything and writes the run's figures (`data-results`) and the values
// it ran with (`data-values`) onto the placeholder, as every ordinary
// widget does for each complete run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Widget } from "./support/widget.mjs";
import { fixtureWiki } from "./support/embedding.mjs";

let env, wiki, stop;
before(async () => ({ env, wiki, close: stop } = await fixtureWiki()));
after(() => stop?.());

const GUESS = "#guess .tcp-widget";
const PLAIN = "#plain .tcp-widget";

async function open() {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(wiki.url + "predict.html");
  return { page, context, errors };
}

/// An attribute of the placeholder inside custom element `#id`.
function holderAttr(page, id, name) {
  return page.evaluate(([id, name]) => document.getElementById(id).shadowRoot.querySelector(".tcp-widget").getAttribute(name), [id, name]);
}

/// Waits until that attribute is set (and differs from `not`), returns it.
async function waitAttr(page, id, name, not = null, timeout = 20000) {
  await page.waitForFunction(
    ([id, name, not]) => {
      const v = document.getElementById(id)?.shadowRoot?.querySelector(".tcp-widget")?.getAttribute(name);
      return v != null && v !== not;
    },
    [id, name, not],
    { timeout },
  );
  return holderAttr(page, id, name);
}

test("a predict widget hides its result until answered and played through, then reveals and reports it", async () => {
  const { page, context, errors } = await open();
  // The ordinary widget beside it finishes the same run: its figures are
  // what the hidden one must not show.
  const plain = JSON.parse(await waitAttr(page, "plain", "data-results"));
  assert.equal(plain.round_trips, 6, JSON.stringify(plain));
  const w = await Widget.find(page, GUESS);
  // The run is in (the path view is drawn) but nothing tells its result.
  await page.waitForFunction(() => document.getElementById("guess").shadowRoot.querySelector("canvas[data-view=path]")?.hasAttribute("data-in-flight"), null, { timeout: 20000 });
  await page.waitForTimeout(300);
  const headline = await w.readout("headline");
  assert.match(headline, /hidden/i, headline);
  const shown = await w.locator(".tw-stage").innerText();
  const completion = plain.completion_ms.toFixed(2);
  assert.ok(!shown.includes(completion), `the completion time ${completion} shows: ${shown}`);
  assert.ok(!/\b6 flights\b/.test(shown), shown);
  assert.match(await w.clockText(), /\/ \?$/, "the clock hides the run's end");
  assert.equal(await w.locator("[data-readout=round-trips]").count(), 0, "no readouts");
  assert.equal(await w.locator("details.tw-details").count(), 0, "no Details");
  assert.equal(await w.exportMenu.count(), 0, "no Data & export");
  assert.ok(await w.playButton.isDisabled(), "play waits for the prediction");
  assert.ok(await w.scrubber.isDisabled());
  assert.ok(await w.locator(".tw-preset select").isDisabled(), "the preset stays");
  assert.ok(await w.slider("rtt").range.isDisabled(), "the setting stays");
  // Keys respect the lock too.
  await w.locator(".tw-root").focus();
  await page.keyboard.press(" ");
  await page.keyboard.press("s");
  await page.waitForTimeout(200);
  assert.match(await w.clockText(), /^t = 0\.000 /);
  assert.equal(await holderAttr(page, "guess", "data-results"), null, "no results before the reveal");
  // Hovering a chart after the cursor reads nothing out.
  const hoverAt = async (fx) => {
    const box = await w.canvas("cwnd").boundingBox();
    await page.mouse.move(box.x + fx * box.width, box.y + box.height / 2);
    await page.waitForTimeout(200);
    const n = await w.locator("[data-readout=hover]").count();
    await page.mouse.move(0, 0);
    return n;
  };
  assert.equal(await hoverAt(0.7), 0, "no hover readout of the future");

  // The page takes the prediction (on the custom element, which forwards it).
  await page.evaluate(() => document.getElementById("guess").setAttribute("answered", "5"));
  await w.locator(".tw-play:enabled").waitFor({ timeout: 30000 });
  assert.ok(await w.slider("rtt").range.isDisabled(), "the setting stays until the reveal");
  // Half way: still hidden.
  await w.scrubber.fill("500");
  await page.waitForTimeout(200);
  assert.equal(await holderAttr(page, "guess", "data-revealed"), null);
  assert.match(await w.readout("headline"), /hidden/i);
  // Played to the end: revealed.
  await w.locator(".tw-speed select").selectOption("10");
  await w.play();
  assert.equal(await waitAttr(page, "guess", "data-revealed"), "1");
  const results = JSON.parse(await holderAttr(page, "guess", "data-results"));
  assert.deepEqual(results, plain, "the same run's figures");
  assert.equal(String(results.round_trips), await w.readout("round-trips"), "data-results says what the readouts show");
  assert.match(await w.readout("headline"), /^Done in .* then 6 flights/);
  assert.match(await w.readout("completion"), /\d/);
  assert.ok(!(await w.slider("rtt").range.isDisabled()), "the controls are the reader's again");
  await w.restart();
  assert.equal(await hoverAt(0.7), 1, "hover reads out again");
  assert.equal(await w.exportMenu.count(), 1);
  const values = JSON.parse(await holderAttr(page, "guess", "data-values"));
  assert.equal(values.rtt, await w.slider("rtt").text.inputValue(), JSON.stringify(values));
  assert.deepEqual(errors, []);
  await context.close();
});

test("an ordinary widget writes its figures and values for every complete run", async () => {
  const { page, context, errors } = await open();
  const first = await waitAttr(page, "plain", "data-results");
  const values = JSON.parse(await holderAttr(page, "plain", "data-values"));
  const w = await Widget.find(page, PLAIN);
  assert.equal(values.rtt, await w.slider("rtt").text.inputValue());
  assert.equal(values.initcwnd, "10", JSON.stringify(values));
  await w.slider("initcwnd").type("20");
  const second = JSON.parse(await waitAttr(page, "plain", "data-results", first));
  assert.equal(second.first_flight_segments, 20, JSON.stringify(second));
  assert.ok(second.round_trips < JSON.parse(first).round_trips);
  assert.equal(JSON.parse(await holderAttr(page, "plain", "data-values")).initcwnd, "20");
  assert.equal(await holderAttr(page, "plain", "data-revealed"), null, "only predict widgets reveal");
  assert.deepEqual(errors, []);
  await context.close();
});
