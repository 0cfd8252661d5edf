// The built book's pages and the embed pages load cleanly (the chapters in
// every theme: tests/themes.test.mjs; here the embed pages): no console
// errors, no failed requests, nothing fetched from another host; KaTeX
// renders with its fonts served by the book itself.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";
import { htmlPages } from "./support/pages.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

/// Every page: all but generated/ (KaTeX and the figures), embed/ included.
const pages = () => htmlPages(["generated"]);

test("the book has its chapter pages", () => {
  const all = pages();
  for (const p of ["index.html", "introduction.html", "slow-start.html", "print.html"]) {
    assert.ok(all.includes(p), `${p} missing from ${all.join(", ")}`);
  }
});

// The book's own pages load with no console error, no failed request and
// nothing from another host: tests/themes.test.mjs, which loads each page
// once and shows it in each of mdBook's themes. Here the rest: the embed
// pages, each widget's iframe page and self-contained file, served.
test("every embed page loads with no console errors and no requests to other hosts", async () => {
  const embeds = pages().filter((p) => p.startsWith("embed/"));
  assert.ok(embeds.length >= 10, embeds.join(", "));
  for (const path of embeds) {
    const { page, problems, close } = await openPage(env, path);
    // Let the widget load and mount before judging the page.
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(200);
    assert.deepEqual(problems.console, [], `console errors on ${path}`);
    assert.deepEqual(problems.external, [], `requests to other hosts from ${path}`);
    assert.deepEqual(problems.failed, [], `failed requests on ${path}`);
    await close();
  }
});

test("KaTeX math is rendered at build time and uses fonts served by the book", async () => {
  const { page, problems, close } = await openPage(env, "slow-start.html");
  const fontRequests = [];
  page.on("requestfinished", (r) => r.url().includes("KaTeX_") && fontRequests.push(r.url()));
  await page.reload({ waitUntil: "networkidle" });
  const math = await page.locator(".katex-display .katex-html").count();
  assert.ok(math >= 1, "the slow-start chapter has display math rendered as KaTeX HTML");
  const loaded = await page.evaluate(async () => {
    await document.fonts.ready;
    return [...document.fonts].filter((f) => f.family.includes("KaTeX") && f.status === "loaded").map((f) => f.family);
  });
  assert.ok(loaded.length > 0, "some KaTeX font faces loaded");
  assert.ok(fontRequests.length > 0, "KaTeX fonts were requested");
  for (const u of fontRequests) assert.ok(u.startsWith(env.server.url + "generated/katex/fonts/"), u);
  assert.deepEqual(problems.external, []);
  await close();
});
