// Widgets that come and go leave no memory behind. A wiki's page swaps
// (client-side navigation) and a script's own adds and removes mount and
// unmount the same widgets many times in one page's life: the wasm memory
// must stay flat after warm-up. Each test fits a line to the memory over
// the cycles after warm-up and fails on a slope above 1 KB per cycle (the
// wasm memory grows in 64 KiB pages, so one page in 64 cycles), not on one
// window, which a growth every few cycles can slip through. Before the
// mount kept its apps for reuse (kit/mount.rs), each mount leaked about
// 6.5 KB: yew never frees an app's root.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { fixtureWiki } from "./support/embedding.mjs";

let env, wiki, stop;
before(async () => ({ env, wiki, close: stop } = await fixtureWiki()));
after(() => stop?.());

const WARM_UP = 20;
const MAX_SLOPE = 1024; // bytes per cycle

/// The least-squares slope of `ys` over their indices.
function slope(ys) {
  const n = ys.length;
  const mx = (n - 1) / 2;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  return num / den;
}

function assertFlat(memory, what) {
  const s = slope(memory.slice(WARM_UP));
  const pages = memory.map((b) => b / 65536);
  assert.ok(s <= MAX_SLOPE, `${what}: wasm memory grew ${s.toFixed(0)} B per cycle after warm-up (pages: ${pages.join(" ")})`);
}

async function openPage(url) {
  const context = await env.browser.newContext();
  const tab = await context.newPage();
  const errors = [];
  tab.on("pageerror", (e) => errors.push(String(e)));
  tab.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await tab.goto(url);
  await tab.waitForFunction(() => window.tcpWidgets);
  return { context, tab, errors };
}

/// In the page: resolves once every `tcp-widget` under `root` has its run
/// in (its Play button enabled), polling each frame.
const IN_PAGE_HELPERS = () => {
  window.__allInteractive = (root) =>
    new Promise((resolve) => {
      const check = () => {
        const els = [...root.querySelectorAll("tcp-widget")];
        if (els.length > 0 && els.every((el) => el.shadowRoot?.querySelector(".tw-play:enabled"))) resolve();
        else requestAnimationFrame(check);
      };
      check();
    });
  window.__noneLive = async () => {
    const w = await window.tcpWidgets.load();
    while (w.live_widgets() !== 0) await new Promise((r) => setTimeout(r, 0));
    return w.wasm_memory_bytes();
  };
};

// The cycles run inside the page (one round trip for all of them): the
// same work as a reader's, at a fraction of the test's time.
test("200 widgets added to a page and removed, each once its run is in: the memory stays flat", async () => {
  const { context, tab, errors } = await openPage(`${wiki.url}spa-wiki.html?page=home`);
  await tab.evaluate(IN_PAGE_HELPERS);
  const memory = await tab.evaluate(async () => {
    const memory = [];
    const box = document.getElementById("content");
    for (let i = 0; i < 200; i++) {
      const el = document.createElement("tcp-widget");
      el.setAttribute("name", "slow-start");
      box.append(el);
      await window.__allInteractive(box);
      el.remove();
      memory.push(await window.__noneLive());
    }
    return memory;
  });
  assertFlat(memory, "mount and unmount");
  assert.deepEqual(errors, []);
  await context.close();
});

test("100 visits to a page with two widgets in a wiki that never reloads: the memory stays flat", async () => {
  const { context, tab, errors } = await openPage(`${wiki.url}spa-wiki.html?page=home`);
  await tab.evaluate(IN_PAGE_HELPERS);
  const memory = await tab.evaluate(async () => {
    const memory = [];
    const link = (page) => document.querySelector(`nav a[data-page="${page}"]`);
    for (let i = 0; i < 100; i++) {
      // The router's own navigation, as a reader's click.
      link("element").click();
      await window.__allInteractive(document.getElementById("content"));
      link("home").click();
      memory.push(await window.__noneLive());
    }
    return memory;
  });
  assertFlat(memory, "client-side visits");
  assert.deepEqual(errors, []);
  await context.close();
});
