// The speed issue's table (#36), from the figures the other bench steps wrote
// to BENCH_OUT: each figure with its target and PASS/MISS, and the
// simulator's figures also as a ratio to the native run measured in the same
// `cargo xtask bench`, so that runs on busy machines can be compared.
// Reports; fails only when a figure is missing from the file.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { verdict, writeSections } from "./report.mjs";

const figures = JSON.parse(readFileSync(process.env.BENCH_OUT, "utf8"));
const need = (value, what) => {
  if (value === undefined || value === null || Number.isNaN(value)) throw new Error(`bench summary: no figure for ${what}`);
  return value;
};
const byScenario = (list, name) => need(list?.find((r) => r.scenario === name), `scenario (${name})`);
const tti = (page) => need(figures.time_to_interactive?.pages.find((p) => p.page === page), `time to interactive of ${page}`);
const fps = (name) => need(figures.frame_rate?.cases.find((c) => c.name === name), `frame rate of ${name}`);

// Targets: those of the steps that measured each figure (written with
// their sections), and the simulator's, which are this table's own.
const TTI_MS = need(figures.time_to_interactive?.target_ms, "the time-to-interactive target");
const FPS = need(figures.frame_rate?.target, "the frame-rate targets");
const RESPONSE = need(figures.responsiveness?.target, "the responsiveness targets");
const SIMULATOR = { c_ms: 110, d_ms: 300, events_per_second: 3e6 };

/// The item of `list` with the largest `key` (the smallest with `min`).
const extreme = (list, key, min = false) => list.reduce((a, b) => ((min ? b[key] < a[key] : b[key] > a[key]) ? b : a));

const rows = [];
/// A row: what, the figure as shown, the target as shown, pass, and a note.
const row = (figure, value, target, pass, note = "") => rows.push({ figure, value, target, pass, note });
const ms = (x) => `${Math.round(x)} ms`;

for (const page of ["slow-start.html", "long-fat-networks.html"]) {
  const t = tti(page);
  row(`time to interactive, ${page}`, `${ms(t.median_ms)} (max ${ms(t.max_ms)})`, `<= ${TTI_MS} ms`, t.median_ms <= TTI_MS);
}
{
  const others = figures.time_to_interactive.pages.filter((p) => !["slow-start.html", "long-fat-networks.html"].includes(p.page));
  const worst = extreme(others, "median_ms");
  const best = extreme(others, "median_ms", true);
  row(
    "time to interactive, other pages with widgets",
    `${ms(best.median_ms)}–${ms(worst.median_ms)}`,
    `<= ${TTI_MS} ms`,
    worst.median_ms <= TTI_MS,
    `worst: ${worst.page}`,
  );
}
for (const [name, title, target] of [
  ["c", "(c) 30 s CUBIC, 1 Gbit/s x 210 ms, in wasm", SIMULATOR.c_ms],
  ["d", "(d) 30 s BBR, same path, in wasm", SIMULATOR.d_ms],
]) {
  const wasm = byScenario(figures.simulator, name);
  const native = byScenario(figures.native, name);
  row(title, ms(wasm.median_ms), `<= ${target} ms`, wasm.median_ms <= target, `${(wasm.median_ms / native.median_ms).toFixed(2)} x native (${ms(native.median_ms)})`);
}
{
  const wasm = byScenario(figures.simulator, "d");
  const native = byScenario(figures.native, "d");
  const nativeRate = native.events / (native.median_ms / 1000);
  row(
    "simulator events/s in wasm, (d)",
    `${(wasm.events_per_second / 1e6).toFixed(2)} M`,
    `>= ${SIMULATOR.events_per_second / 1e6} M`,
    wasm.events_per_second >= SIMULATOR.events_per_second,
    `${(wasm.events_per_second / nativeRate).toFixed(2)} x native (${(nativeRate / 1e6).toFixed(2)} M)`,
  );
}
for (const [name, title, median] of [
  ["long-fat-network", "fps playing 1 Gbit/s x 210 ms BBR (median / p5)", true],
  ["slow-start", "fps playing slow start at 7 ms (median / p5)", false],
]) {
  const c = fps(name);
  const pass = c.p5_fps >= FPS.p5_fps && (!median || c.median_fps >= FPS.median_fps);
  row(title, `${c.median_fps} / ${c.p5_fps}`, median ? `>= ${FPS.median_fps} / >= ${FPS.p5_fps}` : `p5 >= ${FPS.p5_fps}`, pass);
}
{
  const worst = extreme(figures.time_to_interactive.pages, "longest_task_ms");
  need(worst.longest_task_ms, "the longest task while a page loads");
  const limit = RESPONSE.longest_task_ms;
  row("longest main-thread task while a page loads", ms(worst.longest_task_ms), `<= ${limit} ms`, worst.longest_task_ms <= limit, worst.page);
}
{
  const r = figures.responsiveness;
  const worst = extreme(r.change_to_frame, "max_ms");
  const [frame, task] = [RESPONSE.change_to_frame_ms, RESPONSE.longest_task_ms];
  row("slider -> first frame, worst preset", ms(worst.max_ms), `<= ${frame} ms`, worst.max_ms <= frame, `${worst.widget} ${worst.preset}`);
  row("longest main-thread task while dragging", ms(r.drag.longest_task_ms), `<= ${task} ms`, r.drag.longest_task_ms <= task, `${r.drag.widget} ${r.drag.preset}`);
  row("longest main-thread task settling at the extremes", ms(r.extremes.longest_task_ms), `<= ${task} ms`, r.extremes.longest_task_ms <= task, r.extremes.settings);
}

const load = figures.machine?.load_average_at_start;
console.log(`\nThe speed issue's figures (1-minute load average ${load ?? "?"} at the widgets' start, ${loadavg()[0].toFixed(2)} now):`);
const w = [52, 22, 15];
console.log(`  ${"figure".padEnd(w[0])} ${"measured".padEnd(w[1])} ${"target".padEnd(w[2])} verdict`);
for (const r of rows) {
  console.log(`  ${r.figure.padEnd(w[0])} ${r.value.padEnd(w[1])} ${r.target.padEnd(w[2])} ${verdict(r.pass)}${r.note ? `  (${r.note})` : ""}`);
}
const missed = rows.filter((r) => !r.pass).length;
console.log(`  ${rows.length - missed} of ${rows.length} met`);
writeSections({ summary: { rows, met: rows.length - missed, of: rows.length } });
