// Browser benchmark of the simulator compiled to WebAssembly: runs benchmark
// scenarios (c) and (d) (30 s at 1 Gbit/s, 210 ms, 1e-4 loss; CUBIC and BBR)
// through the widget bundle in headless Chromium, the way a chapter's widget
// would, and reports wall time, simulator events per second and the memory
// the run's trace holds.
//
// Run by `cargo xtask bench` (which builds the book first). Prints a table and
// writes the figures as JSON to the path in BENCH_OUT. Each scenario runs once
// to warm up, then RUNS times; the median is reported.
import { setup, openPage } from "../support/browser.mjs";
import { writeSections } from "./report.mjs";

const RUNS = Number(process.env.BENCH_RUNS || 5);
const SCENARIOS = [
  ["c", "30 s CUBIC, 1 Gbit/s, 210 ms, 1e-4 loss"],
  ["d", "30 s BBR, same path"],
];

const env = await setup();
const results = [];
try {
  const { page, problems, close } = await openPage(env, "slow-start.html");
  // The bundle, as the page's loader loads it (widgets mount later, as the
  // reader comes to them).
  await page.waitForFunction(() => window.tcpWidgets !== undefined);
  for (const [name, title] of SCENARIOS) {
    const r = await page.evaluate(
      async ({ name, runs }) => {
        const mod = await window.tcpWidgets.load(); // the bundle the page loaded
        mod.benchmark(name); // warm-up: compile tiers, grow the heap
        const times = [];
        let out = "";
        for (let i = 0; i < runs; i++) {
          const t0 = performance.now();
          out = mod.benchmark(name);
          times.push(performance.now() - t0);
        }
        return { out, times };
      },
      { name, runs: RUNS },
    );
    const [events, hash, delivered, traceBytes] = r.out.split(" ");
    const sorted = [...r.times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    results.push({
      scenario: name,
      title,
      runs: RUNS,
      median_ms: Number(median.toFixed(1)),
      min_ms: Number(sorted[0].toFixed(1)),
      max_ms: Number(sorted[sorted.length - 1].toFixed(1)),
      events: Number(events),
      events_per_second: Math.round(Number(events) / (median / 1000)),
      trace_hash: hash,
      delivered_bytes: Number(delivered),
      trace_bytes: Number(traceBytes),
    });
  }
  if (problems.console.length) throw new Error(`console errors: ${problems.console.join("; ")}`);
  await close();
} finally {
  await env.close();
}

const browser = (await import("playwright-core")).chromium.name();
console.log(`\nsimulator in the browser (${browser}, wasm), median of ${RUNS} runs:`);
console.log("  scenario                                        wall ms    events   events/s  trace MB");
for (const r of results) {
  console.log(
    `  (${r.scenario}) ${r.title.padEnd(42)} ${String(r.median_ms).padStart(8)} ${String(r.events).padStart(9)} ${(r.events_per_second / 1e6).toFixed(2).padStart(7)} M ${(r.trace_bytes / 1e6).toFixed(1).padStart(8)}`,
  );
}
writeSections({ simulator: results });
