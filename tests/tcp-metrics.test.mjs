// The tcp_metrics chapter's connections widget (seed 000, case 11): four
// connections to one client, the first lossy. With ssthresh caching on (as
// older kernels did) the three clean connections crawl; on today's default
// they do not. The chapter's widgets load through the page's URL state, each
// preset alone in the widget's embed page, and the
// tcp_metrics panel prints the cache as `ip tcp_metrics show` does.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openPage } from "./support/browser.mjs";
import { Widget, openEmbed } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const PAGE = "tcp-metrics.html";
const COMPARE = "#connections-1";
const PLAIN = "#connections-2";
const SLOW = 60000;

/// Opens `path` and waits (up to a minute: four connections, some slow)
/// until the widget at `selector` has simulated.
async function openWidget(env, path, selector) {
  const opened = await openPage(env, path);
  const widget = new Widget(opened.page, selector);
  await widget.waitSimulated(SLOW);
  return { ...opened, widget };
}

/// Each transfer's time in ms from a "Transfers" readout
/// ("1st 3.21 s · 2nd 4.21 s · 3rd …").
function times(readout) {
  assert.match(readout, /^1st [\d.]+ m?s( · \d+(st|nd|rd|th) [\d.]+ m?s)+$/, readout);
  return readout.split(" · ").map((t) => {
    const [, value, unit] = t.match(/ ([\d.]+) (ms|s)$/);
    return parseFloat(value) * (unit === "s" ? 1000 : 1);
  });
}

/// Opens the widget with `preset` alone on its embed page (the chapter page
/// would run all its widgets again), the cursor at the end of the run.
async function preset(name) {
  const opened = await openEmbed(env, "connections", `preset=${name}`, { atEnd: true, timeout: SLOW });
  const w = opened.widget;
  const t = times(await w.readout("transfers"));
  const panel = await w.panel("tcp-metrics");
  assert.deepEqual(opened.problems.console, []);
  await opened.close();
  return { t, panel };
}

test("default story: the clean connections crawl on the saving side only", async () => {
  const { widget: w, problems, close } = await openWidget(env, PAGE, COMPARE);
  await w.side("b").waitSimulated(SLOW);
  const a = times(await w.side("a").readout("transfers"));
  const b = times(await w.side("b").readout("transfers"));
  assert.deepEqual(problems.console, []);
  await close();
  assert.equal(a.length, 4);
  assert.equal(a[0], b[0], "the lossy first connection is the same run");
  for (let i = 1; i < 4; i++) {
    assert.ok(a[i] >= 1.5 * b[i], `connection ${i + 1}: A ${a} vs B ${b}`);
  }
  // Today's default: the clean connections are alike, none slowed by the cache.
  assert.ok(b.slice(1).every((t) => t === b[1]), `B ${b}`);
});

test("every preset: ssthresh cached, today's default, flush, no metrics save, aged", async () => {
  const saved = await preset("lossy-first-saved");
  const today = await preset("lossy-first-today");
  const flush = await preset("flush");
  const none = await preset("no-metrics-save");
  const aged = await preset("aged");
  for (let i = 1; i < 4; i++) assert.ok(saved.t[i] >= 1.5 * today.t[i], `${saved.t} vs ${today.t}`);
  // The flush leaves the second connection slow and the third fresh.
  assert.equal(flush.t[1], saved.t[1]);
  assert.equal(flush.t[2], today.t[2]);
  assert.match(flush.panel, /\nip tcp_metrics flush all\nopen #3: tcp_init_metrics takes no ssthresh, no rtt\n/);
  // Nothing cached at all.
  assert.deepEqual(none.t, today.t);
  assert.match(none.panel, /^close #1: \(nothing saved\)$/m);
  assert.doesNotMatch(none.panel, / rtt \d+us/);
  // Two hours apart: each open finds an entry over an hour old and resets it.
  assert.deepEqual(aged.t.slice(1), today.t.slice(1));
  assert.match(aged.panel, /^entry older than an hour: reset\nopen #2: tcp_init_metrics takes no ssthresh, no rtt$/m);
  // Today's default never caches ssthresh.
  assert.doesNotMatch(today.panel, /ssthresh \d/);
});

test("the tcp_metrics panel prints each close as ip tcp_metrics show does, and each open", async () => {
  const { panel } = await preset("lossy-first-saved");
  const lines = panel.split("\n");
  assert.equal(lines.length, 7, panel);
  const show = /^close #(\d): client age \d+\.\d{3}sec rtt \d+us rttvar \d+us ssthresh (\d+) cwnd \d+$/;
  const open = /^open #(\d): tcp_init_metrics takes ssthresh (\d+), first rto \d+ms$/;
  for (let i = 0; i < 7; i++) {
    const m = lines[i].match(i % 2 ? open : show);
    assert.ok(m, lines[i]);
    assert.equal(m[1], String(Math.floor(i / 2) + 1 + (i % 2)));
    // Each open takes the ssthresh the close before it cached.
    if (i % 2) assert.equal(m[2], lines[i - 1].match(show)[2]);
  }
});

test("before the first close the panel says the cache is empty", async () => {
  const { widget: w, close } = await openWidget(env, `${PAGE}?connections-2.preset=lossy-first-saved`, PLAIN);
  assert.equal(await w.panel("tcp-metrics"), "(no entries: metrics are saved when a connection closes)");
  await close();
});

test("the connection rows: one per connection, opened with the cached ssthresh on side A only", async () => {
  const { page, widget: w, problems, close } = await openWidget(env, `${PAGE}?connections-1.t=10000s`, COMPARE);
  await w.side("b").waitSimulated(SLOW);
  const rows = {};
  for (const side of ["a", "b"]) {
    assert.ok(await w.side(side).inkedCanvas("connections", { panel: 1 }), `side ${side} draws its rows`);
    // Compare mode has one export menu, its items named by side.
    const item = `${side.toUpperCase()} · Panel 1: Connection by connection: download the data as CSV`;
    const [csv] = await Promise.all([page.waitForEvent("download"), w.exportItem(item)]);
    const chunks = [];
    for await (const c of await csv.createReadStream()) chunks.push(c);
    rows[side] = Buffer.concat(chunks).toString("utf8").trim().split("\n").slice(1).map((l) => l.split(","));
  }
  assert.deepEqual(problems.console, []);
  await close();
  for (const side of ["a", "b"]) assert.equal(rows[side].length, 4, JSON.stringify(rows[side]));
  // Columns: connection, opened (ms), ssthresh at open, largest cwnd, time (ms).
  assert.equal(rows.a[0][2], "∞", "the first connection finds nothing cached");
  for (let i = 1; i < 4; i++) {
    assert.match(rows.a[i][2], /^\d+$/, `A's connection ${i + 1} opens with a cached ssthresh`);
    assert.equal(rows.b[i][2], "∞", `B's connection ${i + 1} does not`);
    const [ta, tb] = [Number(rows.a[i][4]), Number(rows.b[i][4])];
    assert.ok(ta >= 1.5 * tb, `connection ${i + 1}: A ${ta} ms vs B ${tb} ms`);
  }
  assert.equal(rows.a[0][4], rows.b[0][4], "the lossy first connection is the same run");
});
