// The long-fat-networks chapter (issue 23): the long-fat widget on seed 003's
// path with its new controls and presets, the RTT view as a default panel,
// the multi-flow throughput chart, and each preset's headline as the page
// reports it (`data-results`, the figures exercises and quizzes read).
// The chapter's own first widget is checked on the chapter page (its
// settings from the page's URL state); the presets load in the widget's
// embed page, which runs that one widget: the chapter page would simulate
// every one of its long runs again for each preset.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openEmbed, openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const PAGE = "long-fat-networks.html";
const FIRST = "#long-fat-1";
/// The figures the widget's run reports, once it has simulated.
async function results(page, selector = FIRST) {
  const placeholder = page.locator(`${selector}[data-results]`);
  await placeholder.waitFor({ state: "attached", timeout: 60000 });
  return JSON.parse(await placeholder.getAttribute("data-results"));
}

/// The widget with `preset` (and other `&key=value` settings), alone on its
/// embed page, once simulated (long runs of many flows take a while).
const openPreset = (preset, extra = "", options) => openEmbed(env, "long-fat", `preset=${preset}${extra}`, options);

/// Whether a view's canvas holds a drawing once scrolled into view (a
/// widget below the fold draws when it is seen), polled for up to 10 s.
async function inkedWhenSeen(page, w, view) {
  await w.canvas(view).scrollIntoViewIfNeeded();
  for (let i = 0; i < 240; i++) {
    if (await w.inkedCanvas(view)) return true;
    await page.waitForTimeout(250);
  }
  return false;
}

/// The option a choice control shows (`cubic`, `fq`, …).
const choice = (w, name) => w.slider(name).input.evaluate((s) => s.options[s.selectedIndex].text);

test("the chapter's first widget is the seed's CUBIC case, with cwnd and RTT panels", async () => {
  // The cursor at the end of the run, so the charts hold the whole of it.
  const { page, widget: w, problems, close } = await openWidget(env, `${PAGE}?long-fat-1.t=30s`, FIRST);
  assert.equal(await w.slider("rtt").value(), "210 ms");
  assert.ok(await inkedWhenSeen(page, w, "cwnd"), "the cwnd chart is drawn");
  assert.ok(await inkedWhenSeen(page, w, "rtt"), "the RTT chart is a default panel here");
  const r = await results(page);
  assert.ok(r.goodput_mbps < 0.85 * 110, `CUBIC stays below the ceiling: ${r.goodput_mbps}`);
  assert.deepEqual(problems.console, []);
  await close();
});

test("the iperf3 panel prints per-interval Retr and Cwnd as iperf3 does", async () => {
  // The cursor at the end of the run: every interval's line is printed.
  const { widget: w, close } = await openPreset("seed-003-cubic", "", { atEnd: true });
  await w.openDetails();
  const iperf = await w.panel("iperf");
  assert.match(iperf, /Interval\s+Transfer\s+Bitrate\s+Retr\s+Cwnd/);
  assert.match(iperf, /\d+\.\d+-\d+\.\d+\s+sec\s+[\d.]+ MBytes\s+[\d.]+ Mbits\/sec\s+\d+\s+\d+ KBytes/);
  await close();
});

test("bufferbloat: CUBIC's RTT climbs far above the base, BBR's returns to it", async () => {
  const cubic = await openPreset("deep-queue-cubic");
  const rc = await cubic.results();
  assert.ok(rc.max_rtt_ms > 2 * 210, `CUBIC's largest srtt ${rc.max_rtt_ms} ms`);
  // No random loss: what CUBIC retransmits, the overflowing queue dropped.
  assert.ok(rc.retransmits > 0, "CUBIC grows until the queue overflows");
  await cubic.close();
  const bbr = await openPreset("deep-queue-bbr");
  const rb = await bbr.results();
  assert.ok(rb.goodput_mbps > 0.8 * 110, `BBR ${rb.goodput_mbps} Mbit/s`);
  assert.ok(rb.goodput_mbps >= 0.95 * rc.goodput_mbps, "the queue bought CUBIC no throughput");
  await bbr.close();
});

test("a 0.1-BDP queue costs BBR v1 thousands of retransmissions", async () => {
  const { widget: w, results: run, close } = await openPreset("shallow-queue-bbr");
  assert.equal(await choice(w, "cc"), "bbr");
  const r = await run();
  assert.ok(r.retransmits > 1000, `${r.retransmits} retransmissions`);
  await close();
});

test("0.1 % random loss: CUBIC collapses, BBR does not", async () => {
  const cubic = await openPreset("loss-0.1pct-cubic");
  const rc = await cubic.results();
  await cubic.close();
  const bbr = await openPreset("loss-0.1pct-bbr");
  const rb = await bbr.results();
  await bbr.close();
  assert.ok(rc.goodput_mbps < 20, `CUBIC ${rc.goodput_mbps}`);
  assert.ok(rb.goodput_mbps > 50, `BBR ${rb.goodput_mbps}`);
});

test("a CUBIC and a BBR flow: the multi-flow chart draws both and their sum, BBR takes most", async () => {
  const { page, widget: w, results: run, close } = await openPreset("cubic-and-bbr", "&views=throughput%2Crtt");
  assert.equal(await choice(w, "cc"), "cubic+bbr");
  const r = await run();
  // Flow 0 is CUBIC; the sum adds the BBR flow.
  assert.ok(r.all_flows_mbps > 4 * r.goodput_mbps, `CUBIC ${r.goodput_mbps} of ${r.all_flows_mbps}`);
  assert.ok(await inkedWhenSeen(page, w, "throughput"), "the throughput chart is drawn");
  // The chart's data table carries the sum of every flow.
  await w.toggleTable(1);
  const headers = await w.locator("table th").allTextContents();
  assert.ok(headers.includes("all flows read (bytes)"), headers.join(" | "));
  await close();
});

test("ten flows: the slider reads 10 and together they carry most of the gigabit line", async () => {
  const { widget: w, results: run, close } = await openPreset("ten-flows", "&duration=12s");
  await w.openMoreSettings();
  assert.equal(await w.slider("flows").value(), "10");
  const r = await run();
  assert.ok(r.all_flows_mbps > 600, `${r.all_flows_mbps} Mbit/s together over 12 s`);
  assert.ok(r.goodput_mbps < r.all_flows_mbps / 5, "flow 0 is one of ten");
  await close();
});

test("the new controls: flows, qdisc and where loss hits, under More settings", async () => {
  const { widget: w, close } = await openPreset("seed-003-cubic");
  await w.openMoreSettings();
  assert.equal(await w.slider("flows").value(), "1");
  assert.equal(await choice(w, "qdisc"), "pfifo_fast");
  assert.equal(await choice(w, "loss_in"), "data");
  await close();
});

/// Pixels of exactly `rgb` on a canvas.
const pixelsOf = (canvas, rgb) =>
  canvas.evaluate((c, [r, g, b]) => {
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === r && d[i + 1] === g && d[i + 2] === b) n++;
    return n;
  }, rgb);

/// The cwnd chart's data table's "BBR mode" column, in order, each mode once
/// per run of rows (null without the column).
async function modeColumn(w) {
  await w.toggleTable(1);
  const table = w.chartPanel(1).locator("table");
  const headers = await table.locator("th").allTextContents();
  const col = headers.indexOf("BBR mode");
  if (col < 0) return null;
  const cells = await table.locator(`tbody tr td:nth-child(${col + 1})`).allTextContents();
  return cells.filter((m, i) => m && m !== cells[i - 1]);
}

test("BBR's mode band: Startup, Drain, ProbeBW and ProbeRTT as the run's mode changes, none for CUBIC", async () => {
  const STARTUP = [204, 121, 167]; // the band's Startup colour (Okabe-Ito reddish purple)
  const PROBE_RTT = [240, 228, 66]; // and ProbeRTT's (yellow)
  const bbr = await openPreset("seed-003-bbr", "&duration=12s", { atEnd: true });
  await inkedWhenSeen(bbr.page, bbr.widget, "cwnd");
  assert.ok((await pixelsOf(bbr.widget.canvas("cwnd"), STARTUP)) > 50, "the band draws Startup");
  const modes = await modeColumn(bbr.widget);
  assert.deepEqual(modes.slice(0, 3), ["startup", "drain", "probe_bw"], modes.join(" → "));
  // ProbeRTT (200 ms after 10 s without a lower RTT) is too short for the
  // table's sampled rows to be sure to catch; the band shows it.
  assert.ok((await pixelsOf(bbr.widget.canvas("cwnd"), PROBE_RTT)) > 20, "the band draws ProbeRTT");
  await bbr.close();
  const cubic = await openPreset("seed-003-cubic", "&duration=5s", { atEnd: true });
  await inkedWhenSeen(cubic.page, cubic.widget, "cwnd");
  assert.equal(await pixelsOf(cubic.widget.canvas("cwnd"), STARTUP), 0, "no band for CUBIC");
  assert.equal(await modeColumn(cubic.widget), null, "no mode column for CUBIC");
  await cubic.close();
});
