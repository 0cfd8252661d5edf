// The buffers chapter in the built book: the default story (case 4's 16 KB
// SO_SNDBUF against autotuning, side by side), every preset of the buffers
// widget with the figure its case is about, and the ss line's send buffer.
// Bounds are the cases' arithmetic (a buffer or a window per round trip),
// figures are read from each widget's `data-results`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openEmbed, openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const PAGE = "buffers-bdp.html";
// The chapter's plain widget on the receive-buffer case.
const PLAIN = "buffers-4";

/// The figures of one run: `query` is the URL state of the plain widget
/// (`buffers-4.preset=…&buffers-4.time_limit=…`). The run is loaded in the
/// widget's embed page, which runs that one widget (the chapter page would
/// run every one of its widgets again), or with `chapter`, through the
/// chapter page's URL state.
async function results(query, { chapter = false } = {}) {
  if (!chapter) {
    const { widget: w, problems, results: figures, close } = await openEmbed(env, "buffers", query.replaceAll(`${PLAIN}.`, ""));
    const r = await figures();
    assert.deepEqual(problems.console, []);
    return { r, w, close };
  }
  const { page, widget: w, problems, close } = await openWidget(env, `${PAGE}?${query}`, `#${PLAIN}`);
  await page.waitForSelector(`#${PLAIN}[data-results]`, { state: "attached", timeout: 60000 });
  const r = JSON.parse(await page.locator(`#${PLAIN}`).getAttribute("data-results"));
  assert.deepEqual(problems.console, []);
  return { r, w, close };
}

const preset = async (name, options) => {
  const { r, close } = await results(`${PLAIN}.preset=${name}`, options);
  await close();
  return r;
};

// 32000 B of sk_sndbuf, each 1448-byte segment charged 1448 + 1280 B: at
// most 12 segments per 20 ms round trip.
const TWELVE_PER_RTT = (12 * 1448 * 8) / 0.02 / 1e6;

test("default story: the 16 KB SO_SNDBUF against autotuning, the staircase first", async () => {
  const { page, widget: w, problems, close } = await openWidget(env, PAGE, "#buffers-1");
  await page.waitForSelector("#buffers-1[data-results]", { state: "attached", timeout: 60000 });
  const a = JSON.parse(await page.locator("#buffers-1").getAttribute("data-results"));
  // Side A is case 4 as the source ran it: a doubled 16 KB buffer per RTT.
  assert.ok(a.goodput_mbps < TWELVE_PER_RTT, JSON.stringify(a));
  // Side B, the same with SO_SNDBUF unset, as a plain widget runs it.
  const { r: b, close: closeB } = await results(`${PLAIN}.preset=sndbuf-16k&${PLAIN}.sndbuf=auto`);
  await closeB();
  assert.ok(b.goodput_mbps > 85, JSON.stringify(b));
  // The compare line gives both sides' goodput and B's factor over A.
  const line = await w.readout("compare");
  const m = line.match(/^goodput A ([\d.]+) vs B ([\d.]+) Mbit\/s \(B ×([\d.]+)\)/);
  assert.ok(m, line);
  const [, shownA, shownB, factor] = m.map(Number);
  const close2 = (x, y) => Math.abs(x - y) <= 0.02 * y;
  assert.ok(close2(shownA, a.goodput_mbps) && close2(shownB, b.goodput_mbps), `${line} vs ${a.goodput_mbps}, ${b.goodput_mbps}`);
  const expected = b.goodput_mbps / a.goodput_mbps;
  assert.ok(expected > 10, `B/A = ${expected}`);
  assert.ok(close2(factor, expected), `${line} vs ${expected}`);
  // The time-sequence graph is the first panel, drawn on both sides.
  for (const side of ["a", "b"]) assert.ok(await w.side(side).inkedCanvas("tsg", { panel: 1 }), side);
  assert.deepEqual(problems.console, []);
  await close();
});

test("case 4: the send buffer sets the rate, on the source's kernel and today's", async () => {
  const seed = await preset("sndbuf-16k");
  const today = await preset("sndbuf-16k-today");
  const auto = await preset("sndbuf-auto");
  const capped = await preset("sndbuf-256k-capped");
  const raised = await preset("sndbuf-256k");
  assert.ok(seed.goodput_mbps < TWELVE_PER_RTT, `seed ${seed.goodput_mbps}`);
  // Today's GSO skbs queue past sk_sndbuf: faster, still far below the line.
  assert.ok(today.goodput_mbps > seed.goodput_mbps && today.goodput_mbps < 50, `today ${today.goodput_mbps}`);
  assert.ok(auto.goodput_mbps > 85, `auto ${auto.goodput_mbps}`);
  assert.ok(seed.goodput_mbps < capped.goodput_mbps && capped.goodput_mbps < raised.goodput_mbps);
});

test("case 5: an 8 KB SO_RCVBUF costs round trips at 40 ms, not at 0.1 ms", async () => {
  const slow = await preset("rcvbuf-8k-40ms");
  const fast = await preset("rcvbuf-8k-0.1ms");
  // At most 8192 B per 40 ms round trip on 3.10 (half the doubled buffer).
  assert.ok(slow.completion_ms >= ((376 * 1024) / 8192) * 40, `${slow.completion_ms}`);
  assert.ok(fast.completion_ms < 50, `${fast.completion_ms}`);
});

test("case 7: without window scaling 65535 B per 35 ms is the ceiling", async () => {
  const r = await preset("no-window-scaling");
  const ceiling = (65535 * 8) / 0.035 / 1e6;
  assert.ok(r.goodput_mbps < ceiling && r.goodput_mbps > 0.8 * ceiling, `${r.goodput_mbps}`);
});

test("case 6: a receiver that never reads never completes, and the sender keeps probing", async () => {
  const { r, close } = await results(`${PLAIN}.preset=stops-reading&${PLAIN}.time_limit=60s`);
  await close();
  assert.equal(r.completion_ms, undefined, JSON.stringify(r));
  assert.equal(r.retransmits, 0, "probes are not retransmissions");
});

test("case 6: a reader that pauses for 6 s holds the push back until it reads again", async () => {
  // Through the chapter page's URL state, as a shared link opens it.
  const r = await preset("pauses", { chapter: true });
  assert.ok(r.completion_ms > 6010, `${r.completion_ms}`);
  assert.ok(r.completion_ms < 6010 + 1000, `${r.completion_ms}`);
});

test("the buffer view: case 4's queued bytes sit at the 32 KB buffer, drawn with the BDP", async () => {
  const { w, close } = await results(`${PLAIN}.preset=sndbuf-16k`);
  await w.showView("buffers", 2);
  for (let i = 0; i < 30; i++) await w.step("rtt");
  assert.ok(await w.inkedCanvas("buffers", { panel: 2 }), "the buffer view is drawn");
  // The readout under the pointer is the view's values; the table is its data.
  await w.toggleTable(2);
  const caption = await w.locator(".tw-table-scroll caption").textContent();
  assert.match(caption, /BDP is 250000 B/, caption);
  const rows = await w.locator(".tw-table-scroll tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => Number(td.textContent))));
  const busy = rows.filter(([t]) => t > 1000 && t < 20000);
  assert.ok(busy.length > 10, `${busy.length} rows`);
  for (const [t, sndbuf, , window] of busy) {
    assert.equal(sndbuf, 32000, `sk_sndbuf at ${t} ms`);
    assert.ok(window > 2 * sndbuf, `the client's window ${window} at ${t} ms`);
  }
  await close();
});

test("the ss -tmi panel shows both hosts: the sender's tb and the reader's r and rb", async () => {
  const { w, close } = await results(`${PLAIN}.preset=sndbuf-16k`);
  for (let i = 0; i < 8; i++) await w.step("rtt");
  const ss = await w.panel("ss");
  assert.match(ss, /^server: skmem:\(r0,rb\d+,tb32000,w\d+\) /m, ss);
  assert.match(ss, /snd_wnd:\d+/, ss);
  assert.match(ss, /^client: skmem:\(r0,rb\d+,tb\d+,w\d+\) snd_wnd:\d+$/m, ss);
  await close();
  // A client that never reads: at the end its unread data fills the buffer.
  const { w: full, close: close2 } = await results(`${PLAIN}.preset=stops-reading&${PLAIN}.time_limit=60s`);
  await full.scrubber.fill("1000");
  const [, r, rb] = (await full.panel("ss")).match(/client: skmem:\(r(\d+),rb(\d+),/).map(Number);
  assert.ok(r > 0.9 * rb && r <= rb, `r${r} rb${rb}`);
  await close2();
});
