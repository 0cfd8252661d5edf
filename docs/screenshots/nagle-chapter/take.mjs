// The issue-20 screenshot set: the "Nagle and delayed ACK" chapter's
// prediction before and after, the widget with the ladder at a stall and its
// per-exchange bars, the 99,900 vs 100,000 compare, an exercise met, a seed
// table, and presenter mode, light and dark (navy), 1280 px and 360 px.
//   BOOK_DIR=book CHROMIUM=/usr/bin/chromium node docs/screenshots/nagle-chapter/take.mjs
process.env.BOOK_DIR = process.env.BOOK_DIR || new URL("../../../book", import.meta.url).pathname;
const out = process.env.OUT || new URL(".", import.meta.url).pathname;
const { setup, openPage } = await import(new URL("../../../tests/support/browser.mjs", import.meta.url).href);
const env = await setup();
const PAGE = "nagle-delayed-ack.html";
const top = (page, sel) =>
  page.evaluate((s) => { document.querySelector(s).scrollIntoView({ block: "start" }); window.scrollBy(0, -70); }, sel);
const P = "#request-response-predict-1";
for (const theme of ["light", "navy"]) {
  for (const [size, w, h] of [["1280x900", 1280, 900], ["360x740", 360, 740]]) {
    const shot = (page, name) => page.screenshot({ path: `${out}/${name}-${size}-${theme}.png` });
    const { page, close } = await openPage(env, PAGE, { viewport: { width: w, height: h }, theme });
    await page.locator(`${P} .tw-root`).waitFor({ timeout: 30000 });
    await page.waitForTimeout(1500);
    await top(page, "#predict-1");
    await shot(page, "predict-before");
    await page.locator("#predict-1 input[type=radio]").nth(1).check();
    await page.locator("#predict-1 button[type=submit]").click();
    await page.locator(`${P} .tw-play:enabled`).click();
    await page.locator(`${P}[data-revealed]`).waitFor({ timeout: 120000 });
    await page.waitForTimeout(500);
    await top(page, "#predict-1");
    await shot(page, "predict-revealed");
    // The plain widget, its cursor in the second exchange's stall, Details open.
    const W = "#request-response-1";
    await page.locator(`${W} .tw-play:enabled`).waitFor({ timeout: 30000 });
    await page.locator(`${W} .tw-scrubber`).fill("70");
    for (const d of await page.locator(`${W} details.tw-details`).all()) await d.locator("summary").first().click();
    await page.waitForTimeout(500);
    await top(page, W);
    await shot(page, "widget-stall");
    await top(page, `${W} [data-readout="transfers"]`);
    await shot(page, "exchange-bars");
    await page.locator("#request-response-3 .tw-play:enabled").waitFor({ timeout: 60000 });
    await top(page, "#request-response-3");
    await shot(page, "compare");
    await page.locator("#exercise-1 .tw-exercise-solve").click();
    await page.locator("#exercise-1 .tw-exercise-status", { hasText: "Met" }).waitFor({ timeout: 60000 });
    await page.waitForTimeout(500);
    await top(page, "#exercise-1 .tw-exercise-status");
    await shot(page, "exercise-met");
    await page.evaluate(() => { document.querySelectorAll(".tw-seed-table")[1].scrollIntoView({ block: "start" }); window.scrollBy(0, -70); });
    await shot(page, "seed-table");
    await close();
  }
  {
    const { page, close } = await openPage(env, PAGE, { viewport: { width: 1280, height: 720 }, theme });
    await page.waitForTimeout(1500);
    await page.keyboard.press("p");
    await page.waitForTimeout(300);
    await top(page, "#notes-3");
    await page.screenshot({ path: `${out}/presenter-notes-1280x720-${theme}.png` });
    await close();
  }
}
await env.close();
process.exit(0);
