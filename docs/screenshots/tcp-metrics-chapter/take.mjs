// The tcp_metrics chapter (issue 22): the prediction, the compare widget at
// the end of its run with side A's tcp_metrics panel open, the seed table,
// the exercises, the quiz, and presenter mode with notes; light and navy,
// 1280 px and 360 px.
//   BOOK_DIR=book CHROMIUM=/usr/bin/chromium node docs/screenshots/tcp-metrics-chapter/take.mjs
process.env.BOOK_DIR = process.env.BOOK_DIR || new URL("../../../book", import.meta.url).pathname;
const out = process.env.OUT || new URL(".", import.meta.url).pathname;
const { setup, openPage } = await import(new URL("../../../tests/support/browser.mjs", import.meta.url).href);
const env = await setup();
const top = (page, sel) =>
  page.evaluate((s) => { document.querySelector(s).scrollIntoView({ block: "start" }); window.scrollBy(0, -70); }, sel);
const C = "#connections-1";
for (const theme of ["light", "navy"]) {
  for (const [size, w, h] of [["1280x900", 1280, 900], ["360x740", 360, 740]]) {
    const shot = (page, name) => page.screenshot({ path: `${out}/${name}-${size}-${theme}.png` });
    const { page, close } = await openPage(env, "tcp-metrics.html?connections-1.t=10000s", { viewport: { width: w, height: h }, theme });
    await page.locator("#connections-predict-1 .tw-root").waitFor({ timeout: 30000 });
    await page.waitForTimeout(1500);
    await top(page, "#predict-1");
    await shot(page, "predict-before");
    await page.locator(`${C} .tw-side[data-side="b"] [data-readout="completion"]`).waitFor({ timeout: 60000, state: "attached" });
    await top(page, C);
    await shot(page, "compare");
    await page.evaluate((c) => {
      const pre = document.querySelector(`${c} [data-panel="tcp-metrics"]`);
      for (let d = pre.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
    }, C);
    await page.waitForTimeout(300);
    await top(page, `${C} [data-panel="tcp-metrics"]`);
    await shot(page, "metrics-panel");
    await top(page, ".tw-seed-table");
    await shot(page, "seed-table");
    await top(page, "#exercise-1");
    await shot(page, "exercise");
    await top(page, "#quiz-1");
    await shot(page, "quiz");
    await top(page, ".tw-machine");
    await shot(page, "machine");
    await close();
  }
  {
    const { page, close } = await openPage(env, "tcp-metrics.html", { viewport: { width: 1280, height: 720 }, theme });
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
