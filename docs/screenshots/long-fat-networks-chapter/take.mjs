// The issue-23 screenshot set: the long-fat-networks chapter's widgets (the
// seed's CUBIC case with its cwnd and RTT panels, BBR with its mode band, a
// CUBIC and a BBR flow sharing the path on the per-flow throughput chart),
// the seed table and presenter mode, light and dark (navy), 1280 px and 360 px.
//   BOOK_DIR=book CHROMIUM=/usr/bin/chromium node docs/screenshots/long-fat-networks-chapter/take.mjs
process.env.BOOK_DIR = process.env.BOOK_DIR || new URL("../../../book", import.meta.url).pathname;
const out = process.env.OUT || new URL(".", import.meta.url).pathname;
const { setup, openPage } = await import(new URL("../../../tests/support/browser.mjs", import.meta.url).href);
const env = await setup();
const top = (page, sel) =>
  page.evaluate((s) => { document.querySelector(s).scrollIntoView({ block: "start" }); window.scrollBy(0, -70); }, sel);
// Each widget with its cursor at the end of its run (or at 12 s), from the link.
const URL_STATE = "?long-fat-1.t=30s&long-fat-5.t=12s&long-fat-6.t=30s";
const ready = (page, id) =>
  page.waitForFunction((s) => document.querySelector(s)?.dataset.results, `#${id}`, { timeout: 120000 });
for (const theme of ["light", "navy"]) {
  for (const [size, w, h] of [["1280x900", 1280, 900], ["360x740", 360, 740]]) {
    const shot = (page, name) => page.screenshot({ path: `${out}/${name}-${size}-${theme}.png` });
    const { page, close } = await openPage(env, `long-fat-networks.html${URL_STATE}`, { viewport: { width: w, height: h }, theme });
    for (const [id, name] of [["long-fat-1", "seed-cubic"], ["long-fat-5", "bbr-band"], ["long-fat-6", "cubic-and-bbr"]]) {
      await top(page, `#${id}`);
      await ready(page, id);
      await page.waitForTimeout(800);
      await top(page, `#${id} .tw-slots`);
      await shot(page, name);
    }
    await top(page, ".tw-seed-table");
    await shot(page, "seed-table");
    await close();
  }
  {
    const { page, close } = await openPage(env, "long-fat-networks.html", { viewport: { width: 1280, height: 720 }, theme });
    await page.waitForTimeout(1500);
    await page.keyboard.press("p");
    await page.waitForTimeout(300);
    await top(page, "#notes-1");
    await page.screenshot({ path: `${out}/presenter-notes-1280x720-${theme}.png` });
    await close();
  }
}
await env.close();
process.exit(0);
