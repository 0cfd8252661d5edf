// The built book's HTML pages, as paths relative to the book.
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { BOOK_DIR } from "./browser.mjs";

/// Every .html file of the book, leaving out the folders named in `skip`.
export function htmlPages(skip, dir = BOOK_DIR) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return skip.includes(e.name) ? [] : htmlPages(skip, p);
    return e.name.endsWith(".html") ? [relative(BOOK_DIR, p)] : [];
  });
}
