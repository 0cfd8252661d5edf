// Two reader-visible defects of the widget issue, checked in the browser on
// what the views draw (their SVG export, drawn by the same code as the
// canvases at the widget's time cursor):
// - the handshake is named for what it is: the SYN is not "1 ACK in flight",
//   the SYN-ACK and the request are named too;
// - one orientation everywhere: the server (the data sender) is on the left
//   of the path view and of the ladder alike.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./support/browser.mjs";
import { openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const W = "#slow-start-1";

async function streamText(stream) {
  const chunks = [];
  for await (const c of stream) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}

/// The SVG "Data & export" downloads for `item` (e.g. "Path: download as SVG").
async function exportSvg(page, w, item) {
  const [download] = await Promise.all([page.waitForEvent("download"), w.exportItem(item)]);
  return streamText(await download.createReadStream());
}

/// The texts of an SVG with their x: [[x, text], …].
function texts(svg) {
  return [...svg.matchAll(/<text[^>]*\bx="([\d.-]+)"[^>]*>([^<]*)<\/text>/g)].map((m) => [Number(m[1]), m[2].trim()]);
}

// Seed 004 (7 ms RTT): the SYN leaves at 0, the SYN-ACK at 3.5 ms, the
// request (with the handshake's last ACK) at 7 ms.
for (const [at, label, absent] of [
  ["1000us", "← SYN", /ACK/],
  ["4500us", "SYN-ACK →", /data →|segments? in flight/],
  ["8000us", "← request", /← \d+ ACK/],
]) {
  test(`at ${at} the path view names the handshake: "${label}"`, async () => {
    const { page, widget: w, problems, close } = await openWidget(env, `slow-start.html?slow-start-1.t=${at}`, W);
    await w.waitInteractive(20000);
    const svg = await exportSvg(page, w, "Path: download as SVG");
    const shown = texts(svg).map(([, t]) => t);
    assert.ok(shown.includes(label), `${label} not among ${JSON.stringify(shown)}`);
    const lane = shown.filter((t) => t.includes("→") || t.includes("←"));
    assert.ok(!lane.some((t) => absent.test(t)), `lane labels ${JSON.stringify(lane)}`);
    assert.deepEqual(problems.console, []);
    await close();
  });
}

test("the server is on the left in the path view and the ladder alike", async () => {
  const { page, widget: w, problems, close } = await openWidget(env, "slow-start.html?slow-start-1.t=20000us", W);
  await w.waitInteractive(20000);
  await w.showView("ladder", 2);
  for (const item of ["Path: download as SVG", "Panel 2: Ladder diagram: download as SVG"]) {
    const t = texts(await exportSvg(page, w, item));
    const x = (name) => t.find(([, s]) => s === name)?.[0];
    assert.ok(x("server") !== undefined && x("client") !== undefined, `${item}: ${JSON.stringify(t.slice(0, 12))}`);
    assert.ok(x("server") < x("client"), `${item}: server at x=${x("server")}, client at x=${x("client")}`);
  }
  assert.deepEqual(problems.console, []);
  await close();
});
