// The simulator compiled to WebAssembly must produce bit-for-bit the run the
// native build does: for every preset, the trace hash computed in Chromium
// equals the one `cargo run -p tcp-widgets --example presets` prints.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { setup, openPage } from "./support/browser.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

function nativeHashes() {
  const root = join(import.meta.dirname, "..");
  const out = execFileSync("cargo", ["run", "--quiet", "-p", "tcp-widgets", "--example", "presets"], {
    cwd: root,
    encoding: "utf8",
  });
  // Keyed "widget/preset": each widget's heading line, then its presets.
  const hashes = {};
  let widget = "";
  for (const line of out.split("\n")) {
    const heading = line.match(/^(\S+) — /);
    if (heading) widget = heading[1];
    const m = line.match(/^\s+(\S+)\s+.*hash ([0-9a-f]{16})/);
    if (m) hashes[`${widget}/${m[1]}`] = m[2];
  }
  return hashes;
}

test("every preset's trace hash is the same in the browser as natively", async () => {
  const native = nativeHashes();
  assert.ok(Object.keys(native).length >= 8, `presets found: ${Object.keys(native)}`);
  assert.ok(Object.keys(native).some((k) => k.startsWith("long-fat/")), "the long-fat widget's presets too");
  const { page, problems, close } = await openPage(env, "slow-start.html");
  await page.waitForFunction(() => window.tcpWidgets !== undefined); // the bundle, as the page loads it
  const inBrowser = await page.evaluate(async (names) => {
    const mod = await window.tcpWidgets.load(); // the bundle the page loaded
    return Object.fromEntries(names.map((k) => [k, mod.preset_trace_hash(...k.split("/"))]));
  }, Object.keys(native));
  assert.deepEqual(inBrowser, native);
  assert.deepEqual(problems.console, []);
  await close();
});

test("the 30 s lossy CUBIC benchmark run is bit-for-bit the native run", async () => {
  // Benchmark (c): 280,000 events, 1e-4 random loss, SACK recovery, CUBIC's
  // cube root: the long run where a float or integer-width difference between
  // wasm32 and x86-64 would show.
  const root = join(import.meta.dirname, "..");
  const out = execFileSync("cargo", ["run", "--quiet", "-p", "tcp-widgets", "--example", "benchmarks"], {
    cwd: root,
    encoding: "utf8",
  });
  // NAME EVENTS HASH DELIVERED TRACE_BYTES READBACK. All must match but
  // TRACE_BYTES: a record kept whole is smaller on wasm32.
  const fields = (line) => line.split(" ");
  const native = out.split("\n").find((l) => l.startsWith("c "));
  assert.match(native, /^c \d+ [0-9a-f]{16} \d+ \d+ [0-9a-f]{16}$/);
  const { page, problems, close } = await openPage(env, "slow-start.html");
  await page.waitForFunction(() => window.tcpWidgets !== undefined); // the bundle, as the page loads it
  const inBrowser = await page.evaluate(async () => {
    const mod = await window.tcpWidgets.load(); // the bundle the page loaded
    return `c ${mod.benchmark("c")} ${mod.benchmark_readback("c")}`;
  });
  const [n, events, hash, delivered, , readback] = fields(native);
  const b = fields(inBrowser);
  assert.deepEqual([b[0], b[1], b[2], b[3], b[5]], [n, events, hash, delivered, readback]);
  // (c) keeps every packet record, so reading its packed records back must
  // give the hash of what was pushed: the packing round-trips in wasm too.
  assert.equal(readback, hash);
  assert.deepEqual(problems.console, []);
  await close();
});
