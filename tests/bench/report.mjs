// What the bench scripts share: one JSON file for all their figures (the path
// in BENCH_OUT), a key per section, and the wording of a verdict.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/// Merges `sections` into the BENCH_OUT file, keeping the sections other
/// scripts wrote there (`cargo xtask bench` removes the file before the first).
export function writeSections(sections) {
  const out = process.env.BENCH_OUT;
  if (!out) return;
  const old = existsSync(out) ? JSON.parse(readFileSync(out, "utf8")) : {};
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ ...old, ...sections }, null, 2) + "\n");
}

/// A target is reported, not enforced: a miss is printed, the bench still passes.
export const verdict = (pass) => (pass ? "PASS" : "MISS");

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
