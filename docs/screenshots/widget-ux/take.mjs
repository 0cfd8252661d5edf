// The issue-18 screenshot set: the slow-start widget at 1280x900, in
// presenter mode at 1280x720, and at 360 px, light and dark (navy).
process.env.BOOK_DIR = process.env.BOOK_DIR || new URL("../../../book", import.meta.url).pathname;
const out = process.env.OUT || new URL(".", import.meta.url).pathname;
const { setup, openPage } = await import(new URL("../../../tests/support/browser.mjs", import.meta.url).href);
const env = await setup();
const W = "#slow-start-1";
for (const theme of ["light", "navy"]) {
  for (const [name, w, h] of [["1280x900", 1280, 900], ["presenter-1280x720", 1280, 720], ["360x740", 360, 740]]) {
    const { page, close } = await openPage(env, "slow-start.html", { viewport: { width: w, height: h }, theme });
    await page.locator(`${W} .tw-play:enabled`).waitFor({ timeout: 30000 });
    if (name.startsWith("presenter")) {
      await page.locator(`${W} .tw-presenter-button`).click();
      await page.waitForTimeout(800);
    } else {
      await page.locator(W).scrollIntoViewIfNeeded();
      await page.evaluate((sel) => { document.querySelector(sel).scrollIntoView({ block: "start" }); window.scrollBy(0, -60); }, W);
    }
    // Into the fourth flight: cwnd has doubled three times.
    await page.locator(`${W} .tw-scrubber`).fill("800");
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${out}/slow-start-${name}-${theme}.png` });
    await close();
  }
}
// The gallery's long-fat comparison at 21 s of 30, past the packets the runs
// stored: the path views show the replayed stretch (kit/detail.rs).
{
  const sel = '.tcp-widget[data-widget="long-fat"]';
  const { page, close } = await openPage(env, "appendix-widget-gallery.html", { viewport: { width: 1280, height: 900 }, theme: "light" });
  await page.locator(`${sel} .tw-side[data-side="b"] [data-readout="completion"]`).waitFor({ state: "attached", timeout: 60000 });
  await page.locator(`${sel} .tw-scrubber`).fill("700");
  await page.waitForFunction((s) => [...document.querySelectorAll(`${s} canvas[data-view="path"]`)].every((c) => c.dataset.replaying === "false"), sel, { timeout: 20000 });
  await page.waitForTimeout(300);
  await page.locator(`${sel} canvas[data-view="path"]`).first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${out}/long-fat-replayed-at-21s-1280x900-light.png` });
  await close();
}
await env.close();
process.exit(0);
