// A node:test reporter beside the default one: how long each test file's
// tests ran (their durations summed; with two files at a time the suite's
// wall time is less), for the README's table and for finding the slow ones.
// `cargo xtask test` writes it to target/test-times/browser.txt and prints it.
import { relative } from "node:path";

export default async function* fileTimes(source) {
  const files = new Map();
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const { nesting, file, details } = event.data;
    if (nesting !== 0 || !file || details?.type === "suite") continue;
    const name = relative(process.cwd(), file);
    const f = files.get(name) || { tests: 0, failed: 0, ms: 0 };
    f.tests += 1;
    if (event.type === "test:fail") f.failed += 1;
    f.ms += details?.duration_ms || 0;
    files.set(name, f);
  }
  const rows = [...files].sort((a, b) => b[1].ms - a[1].ms);
  yield "time per browser test file (its tests' durations summed):\n";
  for (const [name, f] of rows) {
    const failed = f.failed ? `, ${f.failed} failed` : "";
    yield `  ${name.padEnd(40)} ${String(f.tests).padStart(3)} tests${failed.padEnd(10)} ${(f.ms / 1000).toFixed(0).padStart(5)} s\n`;
  }
  const total = rows.reduce((s, [, f]) => s + f.ms, 0);
  yield `  ${"total".padEnd(40)} ${String(rows.reduce((s, [, f]) => s + f.tests, 0)).padStart(3)} tests${"".padEnd(10)} ${(total / 1000).toFixed(0).padStart(5)} s\n`;
}
