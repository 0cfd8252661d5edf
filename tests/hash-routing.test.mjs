// A wiki routed by its hash (Docsify: tests/fixtures/hash-wiki.html) keeps
// the query string as the reader moves between its pages, and each page's
// first slow-start widget is `slow-start-1`. A widget takes the URL state
// meant for its own page only: the settings moved on one page do not open
// the next page's widget.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Widget } from "./support/widget.mjs";
import { fixtureWiki } from "./support/embedding.mjs";

let env, wiki, stop;
before(async () => ({ env, wiki, close: stop } = await fixtureWiki()));
after(() => stop?.());

const widget = (tab) => new Widget(tab, "#content tcp-widget .tcp-widget", "slow-start-1");

/// The page's widget once it has mounted afresh after the router's swap.
async function fresh(tab, heading) {
  await tab.waitForFunction((h) => document.querySelector("#content h1")?.textContent === h, heading);
  const w = widget(tab);
  await w.waitInteractive(60000);
  return w;
}

test("settings moved on one hash-routed page do not open the next page's widget", async () => {
  const context = await env.browser.newContext();
  const tab = await context.newPage();
  const errors = [];
  tab.on("pageerror", (e) => errors.push(String(e)));
  await tab.goto(`${wiki.url}hash-wiki.html#/element`);
  let w = await fresh(tab, "Element");
  await w.slider("rtt").type("60500us");
  await tab.waitForFunction(() => location.search.includes("slow-start-1.rtt="), null, { timeout: 30000 });
  const written = new URL(tab.url()).search;

  // The router's own navigation: the query stays, the page is another.
  await tab.click('nav a[href="#/other"]');
  w = await fresh(tab, "Other");
  assert.equal(new URL(tab.url()).search, written, "the router kept the query (the case under test)");
  assert.equal(await w.slider("rtt").value(), "7 ms", "the other page's widget opens as its page set it");

  // Back on the page whose widget wrote the query, the reader's setting is there.
  await tab.click('nav a[href="#/element"]');
  w = await fresh(tab, "Element");
  assert.equal(await w.slider("rtt").value(), "60.5 ms");

  // A link opened afresh is meant for the page it names.
  await tab.goto(`${wiki.url}hash-wiki.html?slow-start-1.rtt=80ms#/other`);
  w = await fresh(tab, "Other");
  assert.equal(await w.slider("rtt").value(), "80 ms");
  assert.deepEqual(errors, []);
  await context.close();
});
