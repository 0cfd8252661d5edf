// The issue-19 screenshot set: the rewritten slow-start chapter's teaching
// parts (prediction before and after, an exercise met by its solution, the
// seed table, quiz, On your machine, presenter mode with notes) and the
// introduction's primer, light and dark (navy), 1280 px and 360 px.
//   BOOK_DIR=book CHROMIUM=/usr/bin/chromium node docs/screenshots/slow-start-chapter/take.mjs
process.env.BOOK_DIR = process.env.BOOK_DIR || new URL("../../../book", import.meta.url).pathname;
const out = process.env.OUT || new URL(".", import.meta.url).pathname;
const { setup, openPage } = await import(new URL("../../../tests/support/browser.mjs", import.meta.url).href);
const env = await setup();
const top = (page, sel) =>
  page.evaluate((s) => { document.querySelector(s).scrollIntoView({ block: "start" }); window.scrollBy(0, -70); }, sel);
const P = "#slow-start-predict-1";
for (const theme of ["light", "navy"]) {
  for (const [size, w, h] of [["1280x900", 1280, 900], ["360x740", 360, 740]]) {
    const shot = (page, name) => page.screenshot({ path: `${out}/${name}-${size}-${theme}.png` });
    const { page, close } = await openPage(env, "slow-start.html", { viewport: { width: w, height: h }, theme });
    await page.locator(`${P} .tw-root`).waitFor({ timeout: 30000 });
    await page.waitForTimeout(1500);
    await top(page, "#predict-1");
    await shot(page, "predict-before");
    await page.locator("#predict-1 input[type=number]").fill("5");
    await page.locator("#predict-1 button[type=submit]").click();
    await page.locator(`${P} .tw-play:enabled`).click();
    await page.locator(`${P}[data-revealed]`).waitFor({ timeout: 60000 });
    await page.waitForTimeout(500);
    await top(page, "#predict-1");
    await shot(page, "predict-revealed");
    await top(page, ".tw-seed-table");
    await shot(page, "seed-table");
    await page.locator("#exercise-1 .tw-hint-next").click();
    await top(page, "#exercise-1");
    await shot(page, "exercise-not-met");
    await page.locator("#exercise-1 .tw-exercise-solve").click();
    await page.locator("#exercise-1 .tw-exercise-status", { hasText: "Met" }).waitFor({ timeout: 30000 });
    await page.waitForTimeout(500);
    await top(page, "#exercise-1 .tw-exercise-status");
    await shot(page, "exercise-met");
    await page.locator("#quiz-1 input[type=radio]").nth(1).check();
    await page.locator("#quiz-1 button[type=submit]").click();
    await top(page, "#quiz-1");
    await shot(page, "quiz");
    await top(page, ".tw-machine");
    await shot(page, "machine");
    await close();
  }
  {
    const { page, close } = await openPage(env, "slow-start.html", { viewport: { width: 1280, height: 720 }, theme });
    await page.waitForTimeout(1500);
    await page.keyboard.press("p");
    await page.waitForTimeout(300);
    await top(page, "#notes-1");
    await page.screenshot({ path: `${out}/presenter-notes-1280x720-${theme}.png` });
    await close();
  }
  {
    const { page, close } = await openPage(env, "introduction.html", { viewport: { width: 1280, height: 900 }, theme });
    await page.locator("#slow-start-1 .tw-play:enabled").waitFor({ timeout: 30000 });
    await page.locator("#slow-start-1 .tw-scrubber").fill("600");
    await page.waitForTimeout(500);
    await top(page, "#slow-start-1");
    await page.screenshot({ path: `${out}/primer-1280x900-${theme}.png` });
    await close();
  }
}
await env.close();
process.exit(0);
