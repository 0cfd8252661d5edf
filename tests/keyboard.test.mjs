// What the keyboard does in a widget (issue 18): a value typed into a
// parameter's box survives the animation frames of a playing run and Enter
// applies it; arrow keys pressed anywhere in the widget move its cursor and
// never reach mdBook's chapter navigation, except in form controls, where
// they keep their own meaning.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const FIRST = "#slow-start-1";

const open = () => openWidget(env, "slow-start.html", FIRST);

/// Opens the chapter's first widget, runs `reach` (which leaves the keyboard
/// somewhere in the widget), presses → twice and ← once, and returns the
/// clock before and after and whether the page is still the chapter.
async function arrowsAfter(reach) {
  const { page, widget: w, close } = await open();
  await w.waitInteractive();
  const chapter = page.url().split("?")[0];
  await reach(page, w);
  const t0 = await w.clockMs();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowLeft");
  // Yew renders after the key's message; mdBook's navigation is a page
  // load. Either shows within 10 s even on a busy machine: polled, so the
  // test waits only as long as the machine needs.
  let stayed = true;
  let t1 = t0;
  for (let i = 0; i < 100 && stayed && t1 === t0; i++) {
    await page.waitForTimeout(100);
    stayed = page.url().split("?")[0] === chapter;
    t1 = stayed ? await w.clockMs().catch(() => NaN) : NaN;
  }
  await close();
  return { t0, t1, stayed };
}

test("a value typed into a box while the run plays is kept, and Enter applies it", async () => {
  const { page, widget: w, close } = await open();
  await w.waitInteractive();
  await w.locator(".tw-speed select").selectOption("0.001");
  await w.play();
  const rtt = w.slider("rtt");
  await rtt.text.click();
  await page.keyboard.press("Control+a");
  // Slowly, so that animation frames render between the keys.
  await page.keyboard.type("20ms", { delay: 60 });
  await page.keyboard.press("Backspace");
  await page.waitForTimeout(200);
  assert.equal(await rtt.text.inputValue(), "20m", "the box keeps what is typed");
  assert.match(await w.playButton.innerText(), /Pause/, "the run still plays");
  await page.keyboard.type("s", { delay: 60 });
  await page.keyboard.press("Enter");
  await page.waitForFunction((sel) => document.querySelector(sel)?.innerText === "20 ms", w.css('output[data-param="rtt"]'), { timeout: 30000 });
  await w.waitInteractive();
  assert.equal(await rtt.text.inputValue(), "20ms");
  await close();
});

test("arrow keys stay in the widget after its help is closed with the Close button", async () => {
  const { t0, t1, stayed } = await arrowsAfter(async (page, w) => {
    await w.locator('button[aria-label^="Keyboard shortcuts"]').click();
    await w.locator(".tw-help button", { hasText: "Close" }).click();
    await w.locator(".tw-help").waitFor({ state: "detached" });
  });
  assert.ok(stayed, "still on the same chapter");
  assert.ok(t1 > t0, `→ → ← moved the cursor forward: ${t0} → ${t1} ms`);
});

test("arrow keys stay in the widget after a click on its frame", async () => {
  // In the frame's left padding, below its top edge, which mdBook's sticky
  // menu bar may cover once the page has scrolled to the widget.
  const { t0, t1, stayed } = await arrowsAfter((page) => page.locator(FIRST).click({ position: { x: 4, y: 100 } }));
  assert.ok(stayed, "still on the same chapter");
  assert.ok(t1 > t0, `→ → ← moved the cursor forward: ${t0} → ${t1} ms`);
});

for (const [what, selector] of [
  ["title", ".tw-title"],
  ["readouts", ".tw-readouts"],
  ["text panels", ".tw-panels summary"],
]) {
  test(`arrow keys stay in the widget with the reader's selection in its ${what}`, async () => {
    const { t0, t1, stayed } = await arrowsAfter(async (page, w) => {
      // Nothing focused, the text selected: where keyboard selection and
      // caret browsing leave a reader.
      await w.locator(selector).first().evaluate((el) => {
        document.activeElement?.blur();
        getSelection().selectAllChildren(el);
      });
    });
    assert.ok(stayed, "still on the same chapter");
    assert.ok(t1 > t0, `→ → ← moved the cursor forward: ${t0} → ${t1} ms`);
  });
}

test("arrow keys keep their own meaning in a text box and a menu", async () => {
  const { page, widget: w, close } = await open();
  await w.waitInteractive();
  const chapter = page.url().split("?")[0];
  const t0 = await w.clockMs();
  const box = w.slider("rtt").text;
  await box.click();
  await page.keyboard.press("End");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  const caret = await box.evaluate((el) => el.selectionStart);
  assert.equal(caret, (await box.inputValue()).length - 2, "← moved the caret");
  const speed = w.locator(".tw-speed select");
  const was = await speed.inputValue();
  await speed.focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowRight");
  await page.waitForTimeout(300);
  assert.notEqual(await speed.inputValue(), was, "↓ chose another speed");
  assert.equal(await w.clockMs(), t0, "the cursor stayed");
  assert.equal(page.url().split("?")[0], chapter, "still on the same chapter");
  await close();
});
