// The long-fat-networks chapter (issue 23): the long-fat widget on seed 003's
// path with its new controls and presets, the RTT view as a default panel,
// the multi-flow throughput chart, and each preset's headline as the page
// reports it (`data-results`, the figures exercises and quizzes read).
// Presets load through the chapter page's URL state.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openPage } from "./support/browser.mjs";
import { Widget, openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const PAGE = "long-fat-networks.html";
const FIRST = "#long-fat-1";

/// The figures the widget's run reports, once it has simulated.
async function results(page, selector = FIRST) {
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.results, selector, { timeout: 60000 });
  return JSON.parse(await page.locator(selector).getAttribute("data-results"));
}

/// The first widget with `preset` (and other `key=value` settings) from the
/// URL, once simulated (long runs of many flows take a while in the page).
async function openPreset(preset, extra = "") {
  const opened = await openPage(env, `${PAGE}?long-fat-1.preset=${preset}${extra}`);
  const widget = new Widget(opened.page, FIRST);
  await widget.waitSimulated(120000);
  return { ...opened, widget };
}

/// The option a choice control shows (`cubic`, `fq`, …).
const choice = (w, name) => w.slider(name).input.evaluate((s) => s.options[s.selectedIndex].text);

test("the chapter's first widget is the seed's CUBIC case, with cwnd and RTT panels", async () => {
  // The cursor at the end of the run, so the charts hold the whole of it.
  const { page, widget: w, problems, close } = await openWidget(env, `${PAGE}?long-fat-1.t=30s`, FIRST);
  assert.equal(await w.slider("rtt").value(), "210 ms");
  await w.canvas("cwnd").scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  assert.ok(await w.inkedCanvas("cwnd"), "the cwnd chart is drawn");
  assert.ok(await w.inkedCanvas("rtt"), "the RTT chart is a default panel here");
  const r = await results(page);
  assert.ok(r.goodput_mbps < 0.85 * 110, `CUBIC stays below the ceiling: ${r.goodput_mbps}`);
  assert.deepEqual(problems.console, []);
  await close();
});

test("the iperf3 panel prints per-interval Retr and Cwnd as iperf3 does", async () => {
  // The cursor at the end of the run: every interval's line is printed.
  const { widget: w, close } = await openWidget(env, `${PAGE}?long-fat-1.t=30s`, FIRST);
  await w.openDetails();
  const iperf = await w.panel("iperf");
  assert.match(iperf, /Interval\s+Transfer\s+Bitrate\s+Retr\s+Cwnd/);
  assert.match(iperf, /\d+\.\d+-\d+\.\d+\s+sec\s+[\d.]+ MBytes\s+[\d.]+ Mbits\/sec\s+\d+\s+\d+ KBytes/);
  await close();
});

test("bufferbloat: CUBIC's RTT climbs far above the base, BBR's returns to it", async () => {
  const cubic = await openPreset("deep-queue-cubic");
  const rc = await results(cubic.page);
  assert.ok(rc.max_rtt_ms > 2 * 210, `CUBIC's largest srtt ${rc.max_rtt_ms} ms`);
  assert.equal(rc.retransmits, 0, "no loss at all");
  await cubic.close();
  const bbr = await openPreset("deep-queue-bbr");
  const rb = await results(bbr.page);
  assert.ok(rb.goodput_mbps > 0.8 * 110, `BBR ${rb.goodput_mbps} Mbit/s`);
  assert.ok(rb.goodput_mbps >= 0.95 * rc.goodput_mbps, "the queue bought CUBIC no throughput");
  await bbr.close();
});

test("a 0.1-BDP queue costs BBR v1 thousands of retransmissions", async () => {
  const { page, widget: w, close } = await openPreset("shallow-queue-bbr");
  assert.equal(await choice(w, "cc"), "bbr");
  const r = await results(page);
  assert.ok(r.retransmits > 1000, `${r.retransmits} retransmissions`);
  await close();
});

test("0.1 % random loss: CUBIC collapses, BBR does not", async () => {
  const cubic = await openPreset("loss-0.1pct-cubic");
  const rc = await results(cubic.page);
  await cubic.close();
  const bbr = await openPreset("loss-0.1pct-bbr");
  const rb = await results(bbr.page);
  await bbr.close();
  assert.ok(rc.goodput_mbps < 20, `CUBIC ${rc.goodput_mbps}`);
  assert.ok(rb.goodput_mbps > 50, `BBR ${rb.goodput_mbps}`);
});

test("a CUBIC and a BBR flow: the multi-flow chart draws both and their sum, BBR takes most", async () => {
  const { page, widget: w, close } = await openPreset("cubic-and-bbr", "&long-fat-1.views=throughput%2Crtt");
  assert.equal(await choice(w, "cc"), "cubic+bbr");
  const r = await results(page);
  // Flow 0 is CUBIC; the sum adds the BBR flow.
  assert.ok(r.all_flows_mbps > 4 * r.goodput_mbps, `CUBIC ${r.goodput_mbps} of ${r.all_flows_mbps}`);
  await w.canvas("throughput").scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  assert.ok(await w.inkedCanvas("throughput"), "the throughput chart is drawn");
  // The chart's data table carries the sum of every flow.
  await w.toggleTable(1);
  const headers = await w.locator("table th").allTextContents();
  assert.ok(headers.includes("all flows read (bytes)"), headers.join(" | "));
  await close();
});

test("ten flows: the slider reads 10 and together they carry most of the gigabit line", async () => {
  const { page, widget: w, close } = await openPreset("ten-flows", "&long-fat-1.duration=12s");
  await w.openMoreSettings();
  assert.equal(await w.slider("flows").value(), "10");
  const r = await results(page);
  assert.ok(r.all_flows_mbps > 600, `${r.all_flows_mbps} Mbit/s together over 12 s`);
  assert.ok(r.goodput_mbps < r.all_flows_mbps / 5, "flow 0 is one of ten");
  await close();
});

test("the new controls: flows, qdisc and where loss hits, under More settings", async () => {
  const { widget: w, close } = await openWidget(env, PAGE, FIRST);
  await w.openMoreSettings();
  assert.equal(await w.slider("flows").value(), "1");
  assert.equal(await choice(w, "qdisc"), "pfifo_fast");
  assert.equal(await choice(w, "loss_in"), "data");
  await close();
});
