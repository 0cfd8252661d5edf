// The teaching kit's test-only book (tests/fixtures/teach-book/): built with
// the pinned mdbook (on PATH, as `cargo xtask build` runs it; or $MDBOOK),
// the repository's preprocessor and theme, into a new temporary directory,
// with the widget bundle and KaTeX's stylesheet copied from the built book
// (BOOK_DIR) so that its widgets load.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BOOK_DIR } from "./browser.mjs";

export const FIXTURE = join(import.meta.dirname, "..", "fixtures", "teach-book");

/// Builds the fixture book; returns its directory.
export function buildTeachBook() {
  const out = mkdtempSync(join(tmpdir(), "teach-book-"));
  execFileSync(process.env.MDBOOK || "mdbook", ["build", "--dest-dir", out], {
    cwd: FIXTURE,
    stdio: ["ignore", "ignore", "inherit"],
  });
  cpSync(join(BOOK_DIR, "embed"), join(out, "embed"), { recursive: true });
  cpSync(join(BOOK_DIR, "generated", "katex"), join(out, "generated", "katex"), { recursive: true });
  return out;
}
