// Browser benchmark of the widgets as a reader meets them, in headless Chromium
// on the built book:
//   1. frame rate while a widget animates (rAF timestamps collected in the
//      page), against what the same browser does on an idle page;
//   2. time to interactive: from navigation start to the first widget of a
//      page answering input (its `tw-interactive:<id>` performance mark);
//   3. the JS and wasm bytes each widget page loads, and the widget files of
//      the whole book, raw and gzip.
//
// Run by `cargo xtask bench` after simulator.mjs. Prints tables with each
// figure's target and PASS/MISS (a miss is reported, not fatal) and merges its
// sections into the JSON file in BENCH_OUT. Fails on a console error or a
// widget that never becomes interactive.
import { readdirSync, readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { BOOK_DIR, setup, openPage } from "../support/browser.mjs";
import { Widget } from "../support/widget.mjs";
import { median, verdict, writeSections } from "./report.mjs";

// --- What is measured. Pages and URLs are here so the cases can move to
// other chapters or widgets later.

/// Frame rate: frames in the first WARMUP_MS after Play are dropped, then
/// WINDOW_MS of frames are measured.
const WARMUP_MS = 1000;
const WINDOW_MS = 4000;
/// Each case plays the end of its run (the largest flights, the fullest
/// time-sequence graph), at a speed that keeps it playing through the window.
/// `speed` is a value of the widget's speed menu (simulated time per wall time).
const FPS_CASES = [
  {
    name: "slow-start",
    title: "slow start, 512 KiB at 7 ms (seed-7ms)",
    path: "slow-start.html",
    widget: "slow-start-1",
    speed: 0.005,
  },
  // The benchmark path of `cargo bench` (c): 1 Gbit/s x 210 ms, on the
  // gallery's long-fat widget, running BBR with the buffers' ceilings raised
  // to 64 MiB so that the flow can have the path's BDP (about 18,000
  // segments) outstanding. Played from 2.7 s to 3.2 s, the end of BBR's
  // Startup, when it has 15,000 to 21,600 segments outstanding; the widget's
  // packet records (its trace budget) end at about 3.3 s on this run, and the
  // bench fails if the part played goes past them. The path view draws a
  // dense flight as a band at a cost that does not grow with the count. The
  // bench prints the range outstanding in the part played, read from the cwnd
  // chart's data table.
  {
    name: "long-fat-network",
    title: "1 Gbit/s x 210 ms, BBR, 5 s",
    path:
      "appendix-widget-gallery.html?long-fat-4.cc=bbr&long-fat-4.bandwidth=1Gbit&long-fat-4.duration=5s" +
      "&long-fat-4.loss=0.000001&long-fat-4.queue=26250000&long-fat-4.wmem=64MiB&long-fat-4.rmem=64MiB&long-fat-4.qdisc=fq",
    widget: "long-fat-4",
    speed: 0.1,
    start_ms: 2700,
  },
];

/// Time to interactive: fresh loads (a new browser context each, so nothing
/// is cached) of every page with a widget, each at its first widget
/// (`page#id`), to that widget's `tw-interactive` mark.
const LOADS = 5;
/// Pages whose load time is not a reader's first meeting with a widget.
const TTI_SKIP = [];
/// Widget files: the bundle, the loader and the teaching kit's script every page includes.
const isWidgetFile = (path) => path.startsWith("embed/") || /^theme\/(widgets-loader|teach).*\.js$/.test(path);

const TARGET = {
  fps_median: 55, // a 60 Hz display, with a little room
  fps_p5: 45, // 95 % of frames within 22 ms
  long_frames: 0, // no frame over 50 ms
  tti_ms: 500,
};

/// The whole-book widget bundle as the build measured it and holds it to its
/// ceiling (xtask/src/bundle.rs, written to target/bench/bundle.json): one
/// measure for the build's gate and this report.
const BUNDLE = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "target", "bench", "bundle.json"), "utf8"));

// --- Helpers.

/// Every top-level page of the built book, and whether it has a widget
/// placeholder that the loader mounts (print.html has them all, but shows
/// their build-time figures instead).
const PAGES = readdirSync(BOOK_DIR)
  .filter((f) => f.endsWith(".html"))
  .sort()
  .map((page) => {
    const first = page !== "print.html" && readFileSync(join(BOOK_DIR, page), "utf8").match(/class="tcp-widget" id="([^"]+)"/);
    return { page, widgets: Boolean(first), first: first?.[1] };
  });

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];
const round1 = (x) => Math.round(x * 10) / 10;

/// Throws if the page logged an error; the figures of a broken page mean nothing.
function checkConsole(what, problems) {
  if (problems.console.length) throw new Error(`${what}: console errors: ${problems.console.join("; ")}`);
}

/// Opens `path` fresh at widget `id` (`path#id`: the browser scrolls to it,
/// as a link to it or a reader's scroll would bring it into view) and waits
/// for that widget's `tw-interactive:` mark; returns the mark's time (ms
/// since navigation start). The page mounts its other widgets as the reader
/// comes to them (theme/widgets-loader.js), so they are not waited for.
async function openInteractive(path, id) {
  const opened = await openPage(env, `${path}#${id}`, { initScripts: [watchLongTasks] });
  try {
    await opened.page.waitForFunction((id) => performance.getEntriesByName(`tw-interactive:${id}`).length > 0, id, {
      timeout: 30000,
      polling: 50,
    });
  } catch {
    // The loader reports a failed start in the placeholder (and console.warn).
    const why = [...opened.problems.console, ...(await opened.page.locator(".tcp-widget.tw-error").allTextContents())];
    throw new Error(`${path}: ${id} did not become interactive within 30 s: ${[...new Set(why)].join("; ") || "no error shown"}`);
  }
  const mark = await opened.page.evaluate((id) => performance.getEntriesByName(`tw-interactive:${id}`)[0].startTime, id);
  return { ...opened, mark };
}

/// In the page from its first script: the duration of every main-thread
/// task over 50 ms (the browser reports no shorter ones).
function watchLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: "longtask", buffered: true });
}

/// Runs in the page: the rAF timestamps of `windowMs` of frames, and for each
/// whether `clockSelector`'s text changed since the frame before. The widget
/// re-renders (and so redraws its canvases) on each frame it plays, and its
/// callback runs before this one, so a changed clock readout shows that the
/// frame drew the widget.
function collectFrames({ windowMs, clockSelector }) {
  return new Promise((resolve) => {
    const clock = clockSelector ? document.querySelector(clockSelector) : null;
    const frames = [];
    let last = clock?.textContent;
    const tick = (ts) => {
      const text = clock?.textContent;
      frames.push({ ts, drew: text !== last });
      last = text;
      if (ts - frames[0].ts < windowMs) requestAnimationFrame(tick);
      else resolve(frames);
    };
    requestAnimationFrame(tick);
  });
}

/// Waits out the warm-up, then measures the frames of one window, with the
/// share of wall time the page's main thread was busy (Chromium's own
/// counters over the same window), to tell what is left per frame.
async function measureFrames(page, clockSelector) {
  await page.waitForTimeout(WARMUP_MS);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  const metrics = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  const before = await metrics();
  const frames = await page.evaluate(collectFrames, { windowMs: WINDOW_MS, clockSelector });
  const after = await metrics();
  const share = (name) => Math.round((100 * (after[name] - before[name])) / (after.Timestamp - before.Timestamp));
  return {
    ...frameStats(frames),
    main_thread_busy_pct: share("TaskDuration"),
    script_pct: share("ScriptDuration"),
    style_layout_pct: share("RecalcStyleDuration") + share("LayoutDuration"),
  };
}

/// Frame rate figures from collected frames: per-frame rates from consecutive
/// timestamps; p5 is the 5th percentile rate (the slow frames). The mean
/// (frames over the window) goes with them: when a few frames are very long,
/// the median still says 60 while far fewer frames were drawn.
function frameStats(frames) {
  const gaps = frames.slice(1).map((f, i) => f.ts - frames[i].ts);
  const rates = gaps.map((g) => 1000 / g);
  return {
    frames: gaps.length,
    mean_fps: round1((1000 * gaps.length) / (frames.at(-1).ts - frames[0].ts)),
    median_fps: round1(median(rates)),
    p5_fps: round1(pct(rates, 0.05)),
    long_frames: gaps.filter((g) => g > 50).length,
    longest_frame_ms: round1(Math.max(...gaps)),
    drawn_frames: frames.slice(1).filter((f) => f.drew).length,
  };
}

/// The fewest and most segments outstanding (snd_nxt - snd_una) between two
/// times, from the cwnd chart's data table (opened from "Data & export",
/// read, closed again before playing). Past a long run's packet records the
/// table reads outstanding data from the samples, so every time has a value.
async function outstandingRange(widget, fromNs, toNs) {
  const w = widget.selector;
  const figure = widget.locator('figure:has(canvas[data-view="cwnd"])').first();
  // The chart panel showing cwnd (0 is the path view).
  const panel = await widget.locator(".tw-view").evaluateAll((fs) => fs.findIndex((f) => f.querySelector('canvas[data-view="cwnd"]')));
  await widget.toggleTable(panel);
  const headers = await figure.locator("thead th").allTextContents();
  const rows = await figure.locator("tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [...tr.cells].map((td) => td.textContent)),
  );
  await widget.toggleTable(panel);
  const column = headers.indexOf("outstanding (segments)");
  const values = rows
    .filter(([ms]) => Number(ms) * 1e6 >= fromNs && Number(ms) * 1e6 <= toNs)
    .map((r) => r[column])
    .filter((v) => v !== "")
    .map(Number);
  if (column < 0 || values.length === 0) {
    throw new Error(`${w}: no outstanding-segments rows between ${fromNs / 1e6} and ${toNs / 1e6} ms in the cwnd chart's table`);
  }
  return [Math.round(Math.min(...values)), Math.round(Math.max(...values))];
}

/// "49.702 ms" or "10.93 s" (the widget's clock readout) in ns.
function parseTime(text) {
  const [, n, unit] = text.trim().match(/^([\d.]+) (ms|s)$/);
  return Number(n) * (unit === "s" ? 1e9 : 1e6);
}

// --- The measurements.

// Frame rates and load times follow whatever else the machine is doing.
const machine = { cpus: cpus().length, load_average_at_start: Number(loadavg()[0].toFixed(2)) };
const env = await setup();
let idle, cases, tti, weight;
try {
  // 1. Frame rate. First what rAF does with nothing to draw.
  {
    const context = await env.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const page = await context.newPage();
    idle = await measureFrames(page);
    await context.close();
  }
  cases = [];
  for (const c of FPS_CASES) {
    const { page, problems, close } = await openInteractive(c.path, c.widget);
    const widget = new Widget(page, `#${c.widget}`);
    await widget.waitInteractive();
    const endNs = parseTime((await widget.clockText()).split("/")[1]);
    // Start where the case says, or where the window ends half a second
    // before the run does.
    const startNs = c.start_ms !== undefined ? c.start_ms * 1e6 : Math.max(0, endNs - c.speed * 1e6 * (WARMUP_MS + WINDOW_MS + 500));
    const playedUntilNs = startNs + c.speed * 1e6 * (WARMUP_MS + WINDOW_MS);
    const [fewestSegments, peakSegments] = await outstandingRange(widget, startNs, playedUntilNs);
    await widget.locator(".tw-speed select").selectOption(String(c.speed));
    await widget.scrubber.evaluate((el, v) => {
      el.value = v;
      el.dispatchEvent(new Event("input", { bubbles: true }));
    }, String(Math.floor((startNs / endNs) * 1000)));
    await widget.canvas("path").scrollIntoViewIfNeeded();
    await widget.play();
    const stats = await measureFrames(page, widget.css('[data-readout="clock"]'));
    checkConsole(c.path, problems);
    await close();
    // A frame that did not move the widget measures the browser, not the widget.
    if (stats.drawn_frames < stats.frames * 0.95) {
      throw new Error(`${c.name}: only ${stats.drawn_frames} of ${stats.frames} frames drew the widget (the run ended or did not play)`);
    }
    cases.push({
      name: c.name,
      title: c.title,
      path: c.path,
      speed: c.speed,
      start_ms: round1(startNs / 1e6),
      end_ms: round1(endNs / 1e6),
      outstanding_segments_min: fewestSegments,
      outstanding_segments_max: peakSegments,
      ...stats,
    });
  }

  // 2 and 3. Every page once for the bytes (its JS and wasm, from the
  // browser's Resource Timing entries; the test server sends files as they
  // are on disk, so the body is the file); pages with widgets LOADS times
  // for time to interactive.
  tti = [];
  weight = new Map(); // page -> the JS and wasm files it loaded
  for (const { page: path, widgets, first } of PAGES) {
    const timed = widgets && !TTI_SKIP.includes(path);
    const times = [];
    // Where the time goes: the page's load event and the wasm's arrival.
    const loadEvents = [];
    // The longest main-thread task from navigation to interactive.
    const longestTasks = [];
    const wasmArrivals = [];
    for (let i = 0; i < (timed ? LOADS : 1); i++) {
      const opened = widgets ? await openInteractive(path, first) : await openPage(env, path);
      if (widgets) times.push(opened.mark);
      const [load, wasm, longest] = await opened.page.evaluate(() => [
        performance.getEntriesByType("navigation")[0]?.loadEventEnd ?? 0,
        performance.getEntriesByType("resource").find((r) => r.name.endsWith(".wasm"))?.responseEnd ?? 0,
        Math.max(0, ...(window.__longTasks ?? [])),
      ]);
      longestTasks.push(longest);
      loadEvents.push(load);
      wasmArrivals.push(wasm);
      const urls = await opened.page.evaluate(() => performance.getEntriesByType("resource").map((r) => r.name));
      checkConsole(path, opened.problems);
      await opened.close();
      const files = urls
        .filter((u) => u.startsWith(env.server.url))
        .map((u) => decodeURIComponent(new URL(u).pathname.slice(1)))
        .filter((f) => /\.(m?js|wasm)$/.test(f));
      if (i === 0) weight.set(path, files);
    }
    if (timed) {
      tti.push({
        page: path,
        loads: times.length,
        loads_ms: times.map(round1),
        median_ms: round1(median(times)),
        max_ms: round1(Math.max(...times)),
        load_event_median_ms: round1(median(loadEvents)),
        wasm_received_median_ms: round1(median(wasmArrivals)),
        longest_task_ms: round1(Math.max(...longestTasks)),
      });
    }
  }
} finally {
  await env.close();
}

/// Raw and gzip (level 9, as a server would send with the best compression)
/// bytes of a set of files.
const sizes = new Map();
function bytes(files) {
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    if (!sizes.has(f)) {
      const body = readFileSync(join(BOOK_DIR, f));
      sizes.set(f, { raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    }
    raw += sizes.get(f).raw;
    gzip += sizes.get(f).gzip;
  }
  return { files: [...files].sort(), raw, gzip };
}
const union = (pick) => new Set([...weight.values()].flat().filter(pick));
const pages = PAGES.filter((p) => p.widgets).map(({ page }) => ({
  page,
  widget: bytes(weight.get(page).filter(isWidgetFile)),
  mdbook: bytes(weight.get(page).filter((f) => !isWidgetFile(f))),
}));
const book = { widget: bytes(union(isWidgetFile)), mdbook: bytes(union((f) => !isWidgetFile(f))) };
// The build's measure must cover every widget file a page really loaded.
const measured = new Set(BUNDLE.files.map((f) => f.path));
const missed = book.widget.files.filter((f) => !measured.has(f));
if (missed.length) throw new Error(`the build's bundle measure (xtask/src/bundle.rs) misses files the pages loaded: ${missed.join(", ")}`);

// --- Report.

const fpsPass = (s) => ({
  median: s.median_fps >= TARGET.fps_median,
  p5: s.p5_fps >= TARGET.fps_p5,
  long_frames: s.long_frames <= TARGET.long_frames,
});
console.log(`\nwidgets in the browser; ${machine.cpus} CPUs, 1-minute load average ${machine.load_average_at_start} at the start`);
if (machine.load_average_at_start > machine.cpus) console.log("  (more runnable work than CPUs: frame rates and load times may be low)");
console.log(`\nframe rate while playing (headless Chromium, --disable-gpu), ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up:`);
console.log("  case                                     frames  mean fps  median fps   p5 fps     >50 ms   longest  main thread busy");
console.log(`  target                                                    >= ${TARGET.fps_median}        >= ${TARGET.fps_p5}      <= ${TARGET.long_frames}`);
const fpsRow = (title, s) => {
  const p = fpsPass(s);
  console.log(
    `  ${title.padEnd(40)} ${String(s.frames).padStart(6)} ${s.mean_fps.toFixed(1).padStart(9)} ${s.median_fps.toFixed(1).padStart(7)} ${verdict(p.median)}` +
      ` ${s.p5_fps.toFixed(1).padStart(5)} ${verdict(p.p5)} ${String(s.long_frames).padStart(4)} ${verdict(p.long_frames)}` +
      ` ${s.longest_frame_ms.toFixed(1).padStart(6)} ms  ${s.main_thread_busy_pct} % (script ${s.script_pct} %, style+layout ${s.style_layout_pct} %)`,
  );
};
fpsRow("idle page (what rAF gives at all)", idle);
for (const c of cases) {
  fpsRow(c.title, c);
  console.log(
    `    ${c.path}\n    speed ${c.speed}, playing from ${c.start_ms} ms of ${c.end_ms} ms; ${c.drawn_frames}/${c.frames} frames drew the widget;` +
      ` ${c.outstanding_segments_min} to ${c.outstanding_segments_max} segments outstanding in the part played`,
  );
}

console.log(`\ntime to interactive (navigation to page#first-widget, to that widget's tw-interactive mark), ${LOADS} fresh loads, target <= ${TARGET.tti_ms} ms:`);
console.log("  page                         median ms   max ms   loads (ms); medians of: load event, wasm received");
for (const t of tti) {
  console.log(
    `  ${t.page.padEnd(28)} ${String(t.median_ms).padStart(9)} ${verdict(t.median_ms <= TARGET.tti_ms)} ${String(t.max_ms).padStart(6)} ${verdict(t.max_ms <= TARGET.tti_ms)}   ${t.loads_ms.join(", ")}; ${t.load_event_median_ms}, ${t.wasm_received_median_ms}; longest task ${t.longest_task_ms} ms`,
  );
}

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`.padStart(11);
console.log(`\nJS + wasm loaded (raw / gzip -9; KiB = 1024 bytes):`);
console.log("  page                            widget raw  widget gzip    mdBook raw  mdBook gzip");
for (const p of pages) {
  console.log(`  ${p.page.padEnd(30)} ${kb(p.widget.raw)}  ${kb(p.widget.gzip)}  ${kb(p.mdbook.raw)}  ${kb(p.mdbook.gzip)}`);
}
const bookPass = BUNDLE.gzip <= BUNDLE.ceiling_gzip;
console.log(`  ${"whole book (distinct files)".padEnd(30)} ${kb(book.widget.raw)}  ${kb(book.widget.gzip)}  ${kb(book.mdbook.raw)}  ${kb(book.mdbook.gzip)}`);
console.log(
  `  whole-book widget JS+wasm gzip (the build's measure): ${BUNDLE.gzip} bytes, ceiling ${BUNDLE.ceiling_gzip} bytes: ${verdict(bookPass)}`,
);
for (const f of BUNDLE.files) console.log(`    ${f.path.padEnd(44)} ${kb(f.raw)} ${kb(f.gzip)}`);

writeSections({
  machine,
  frame_rate: {
    warmup_ms: WARMUP_MS,
    window_ms: WINDOW_MS,
    target: { median_fps: TARGET.fps_median, p5_fps: TARGET.fps_p5, long_frames: TARGET.long_frames },
    idle: { ...idle, pass: fpsPass(idle) },
    cases: cases.map((c) => ({ ...c, pass: fpsPass(c) })),
  },
  time_to_interactive: {
    target_ms: TARGET.tti_ms,
    pages: tti.map((t) => ({ ...t, pass: { median: t.median_ms <= TARGET.tti_ms, max: t.max_ms <= TARGET.tti_ms } })),
  },
  page_weight: {
    gzip_level: 9,
    ceiling_book_widget_gzip_bytes: BUNDLE.ceiling_gzip,
    pages,
    book: { ...book, build_measure: BUNDLE, pass: bookPass },
  },
});
