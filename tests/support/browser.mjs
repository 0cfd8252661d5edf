// Debian's Chromium driven by playwright-core (no browser download), plus a
// page wrapper that records console errors, page errors and any request that
// leaves 127.0.0.1.
import { chromium } from "playwright-core";
import { join } from "node:path";
import { serveBook } from "./server.mjs";

export const BOOK_DIR = process.env.BOOK_DIR || join(import.meta.dirname, "..", "..", "book");
const EXECUTABLE = process.env.CHROMIUM || "/usr/bin/chromium";

export async function launch() {
  return chromium.launch({
    executablePath: EXECUTABLE,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      "--disable-sync",
    ],
  });
}

/// Starts the server and the browser once for a test file.
export async function setup() {
  const server = await serveBook(BOOK_DIR);
  const browser = await launch();
  return {
    server,
    browser,
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/// Opens a page that records what went wrong on it. Options: `viewport`,
/// `scale` (device pixels per CSS pixel), `context` (more browser-context
/// options, e.g. `reducedMotion`), `theme` (saved as mdBook saves the reader's
/// choice, before any page script runs) and `initScripts` (run before the
/// page's own).
export async function openPage(env, path, options = {}) {
  const context = await env.browser.newContext({
    viewport: options.viewport || { width: 1200, height: 900 },
    deviceScaleFactor: options.scale || 1,
    ...options.context,
  });
  if (options.theme) await context.addInitScript((t) => localStorage.setItem("mdbook-theme", t), options.theme);
  for (const script of options.initScripts || []) await context.addInitScript(script);
  const page = await context.newPage();
  const problems = { console: [], external: [], failed: [] };
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    const where = m.location().url || "";
    // Chromium probes /favicon.ico by itself on pages without an icon link
    // (only mdBook's toc.html, the sidebar's no-JavaScript iframe). Not a page error.
    if (where.endsWith("/favicon.ico")) return;
    problems.console.push(`${m.text()} [${where}]`);
  });
  page.on("pageerror", (e) => problems.console.push(String(e)));
  page.on("request", (r) => {
    const u = new URL(r.url());
    if (!["data:", "blob:", "about:"].includes(u.protocol) && u.hostname !== "127.0.0.1") problems.external.push(r.url());
  });
  page.on("requestfailed", (r) => problems.failed.push(r.url()));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.failed.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(env.server.url + path, { waitUntil: "load" });
  return { page, problems, close: () => context.close() };
}
