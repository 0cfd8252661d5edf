// Screenshots of built pages for a human to look at (not a test):
//   node tests/tools/screenshots.mjs [page.html ...]
// writes tests/artifacts/<page>-<theme>-<width>.png for light and navy themes,
// at desktop width and at 360 px.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { setup, openPage } from "../support/browser.mjs";

const pages = process.argv.slice(2).length ? process.argv.slice(2) : ["slow-start.html"];
const out = join(import.meta.dirname, "..", "artifacts");
mkdirSync(out, { recursive: true });
const env = await setup();
for (const path of pages) {
  for (const theme of ["light", "navy"]) {
    for (const width of [1200, 360]) {
      const { page, problems, close } = await openPage(env, path, { viewport: { width, height: 900 } });
      // mdBook reads the theme from localStorage while loading: set it, then reload.
      await page.evaluate((t) => localStorage.setItem("mdbook-theme", t), theme);
      await page.reload({ waitUntil: "load" });
      const w = page.locator(".tcp-widget").first();
      if (await w.count()) {
        await w.locator(".tw-root").waitFor({ timeout: 10000 });
        await w.locator("button.tw-restart").click(); // redraw in the new theme
        await w.scrollIntoViewIfNeeded();
      }
      await page.waitForTimeout(300);
      const file = join(out, `${path.replace(/\W+/g, "_")}-${theme}-${width}.png`);
      await page.screenshot({ path: file, fullPage: false });
      console.log(file, problems.console.length ? problems.console : "");
      await close();
    }
  }
}
await env.close();
