// The buffers chapter (issue 21): the first prediction, the default story
// (16 KB SO_SNDBUF against autotuning, side by side), a seed table, the
// stopped reader's ladder, presenter mode with notes; light and navy, 1280
// and 360 px wide.
//   BOOK_DIR=book CHROMIUM=/usr/bin/chromium node docs/screenshots/buffers-chapter/take.mjs
process.env.BOOK_DIR = process.env.BOOK_DIR || new URL("../../../book", import.meta.url).pathname;
const out = process.env.OUT || new URL(".", import.meta.url).pathname;
const { setup, openPage } = await import(new URL("../../../tests/support/browser.mjs", import.meta.url).href);
const env = await setup();
const top = (page, sel) =>
  page.evaluate((s) => { document.querySelector(s).scrollIntoView({ block: "start" }); window.scrollBy(0, -70); }, sel);
for (const theme of ["light", "navy"]) {
  for (const [size, w, h] of [["1280x900", 1280, 900], ["360x740", 360, 740]]) {
    const shot = (page, name) => page.screenshot({ path: `${out}/${name}-${size}-${theme}.png` });
    const { page, close } = await openPage(env, "buffers-bdp.html", { viewport: { width: w, height: h }, theme });
    await page.locator("#buffers-predict-1 .tw-root").waitFor({ timeout: 30000 });
    await page.waitForTimeout(1500);
    await top(page, "#predict-1");
    await shot(page, "predict-before");
    await page.locator("#buffers-1[data-results]").waitFor({ state: "attached", timeout: 60000 });
    await page.locator("#buffers-1 .tw-scrubber").fill("1000");
    await page.waitForTimeout(800);
    await top(page, "#buffers-1");
    await shot(page, "compare");
    await top(page, ".tw-seed-table");
    await shot(page, "seed-table");
    await top(page, "#buffers-9");
    await page.locator("#buffers-9[data-results]").waitFor({ state: "attached", timeout: 120000 });
    await page.locator("#buffers-9 .tw-scrubber").fill("1000");
    await page.waitForTimeout(800);
    await top(page, "#buffers-9");
    await shot(page, "stops-reading");
    await close();
  }
  {
    const { page, close } = await openPage(env, "buffers-bdp.html", { viewport: { width: 1280, height: 720 }, theme });
    await page.waitForTimeout(1500);
    await page.keyboard.press("p");
    await page.waitForTimeout(300);
    await top(page, "#notes-2");
    await page.screenshot({ path: `${out}/presenter-notes-1280x720-${theme}.png` });
    await close();
  }
}
await env.close();
process.exit(0);
