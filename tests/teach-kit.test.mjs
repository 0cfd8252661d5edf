// The teaching kit in the browser (theme/teach.js on the preprocessor's
// HTML): quizzes that explain every answer, progress kept across reloads
// (from file:// too) and shown in the chapter list, presenter mode's
// instructor notes, Copy buttons, the instructor sheet, and exercises and
// predictions checked against a widget's `data-results`.
//
// The chapter is a test-only book, tests/fixtures/teach-book/, built here
// with the pinned mdbook and the repository's preprocessor and theme; the
// widget bundle and KaTeX's stylesheet are copied in from the built book
// (BOOK_DIR, `cargo xtask build`). Most tests stand in for the widget (its
// bundle is replaced by a stub, and the test sets `data-results` as the
// widget would), so they test teach.js alone; the two "end to end" tests
// run the real widget.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { BOOK_DIR, launch, openPage } from "./support/browser.mjs";
import { serveBook } from "./support/server.mjs";
import { Widget } from "./support/widget.mjs";
import { buildTeachBook } from "./support/teach-book.mjs";

let env, dir;
before(async () => {
  dir = buildTeachBook();
  env = { server: await serveBook(dir), browser: await launch() };
});
after(async () => {
  await env?.browser.close();
  await env?.server.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/// Replaces the widget bundle with a stub that mounts nothing and counts
/// mount() calls on the placeholder (`data-stub-mounts`): the test plays the
/// widget's part by setting its attributes.
const STUB = `window.tcpWidgets = { load: () => Promise.resolve({
  mount_all() {}, unmount() {},
  mount(el) { el.dataset.stubMounts = (+el.dataset.stubMounts || 0) + 1; },
}) };`;

const open = (path, options) => openPage(env, path, options);

/// A page of the fixture with the widget stubbed out (before its scripts run).
async function openStubbed(path, options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 }, ...options.context });
  await context.route("**/embed/tcp-widget.js", (r) => r.fulfill({ body: STUB, contentType: "text/javascript" }));
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(env.server.url + path, { waitUntil: "load" });
  return { page, errors, context };
}

const visible = (locator) => locator.isVisible();

test("a quiz explains the answer chosen, each in turn, and every option once right", async () => {
  const { page, problems, close } = await open("teach.html");
  const q = page.locator("#quiz-1-q1");
  const options = q.locator(".tw-option");
  const n = await options.count();
  assert.equal(n, 3);
  for (let i = 0; i < n; i++) {
    await options.nth(i).locator("label").click();
    await page.locator("#quiz-1 button[type=submit]").click();
    const right = (await options.nth(i).locator("input").getAttribute("data-correct")) !== null;
    assert.ok(await visible(options.nth(i).locator(".tw-why")), `option ${i + 1}'s explanation shows`);
    assert.match(await q.locator(".tw-q-status").textContent(), right ? /Right/ : /Not quite/);
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      assert.equal(await visible(options.nth(j).locator(".tw-why")), right, `option ${j + 1}'s explanation after choosing ${i + 1}`);
    }
    assert.match(await options.nth(i).getAttribute("class"), right ? /tw-right/ : /tw-wrong/);
  }
  // "Show all explanations" opens every one, the number question's too.
  await page.locator("#quiz-1 .tw-quiz-all").click();
  assert.equal(await page.locator("#quiz-1 .tw-why:visible").count(), 4);
  // The form is reachable and answerable from the keyboard: radios in a fieldset with a legend.
  assert.equal(await q.locator("legend").count(), 1);
  assert.deepEqual(problems.console, []);
  await close();
});

test("a numeric quiz question checks the number against the simulator's answer", async () => {
  const { page, close } = await open("teach.html");
  const field = page.locator("#quiz-1-q2-in");
  const answer = Number(await field.getAttribute("data-answer"));
  assert.equal(await field.getAttribute("data-source"), "simulated");
  const check = () => page.locator("#quiz-1 button[type=submit]").click();
  const status = page.locator("#quiz-1-q2 .tw-q-status");
  await field.fill(String(answer - 1));
  await check();
  assert.match(await status.textContent(), /too low/);
  assert.equal(await visible(page.locator("#quiz-1-q2 .tw-why")), false, "the answer stays hidden while wrong");
  await field.fill(String(answer + 2));
  await check();
  assert.match(await status.textContent(), /too high/);
  await field.fill(String(answer));
  await check();
  assert.match(await status.textContent(), /Right/);
  assert.match(await page.locator("#quiz-1-q2 .tw-why").textContent(), new RegExp(`The answer: ${answer} round trips`));
  // One of two right: the quiz is not done yet.
  assert.match(await page.locator("#quiz-1 .tw-quiz-status").textContent(), /1 of 2 right/);
  await close();
});

test("progress survives a reload from file:// and shows in the chapter list", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const url = pathToFileURL(join(dir, "teach.html")).href;
  await page.goto(url);
  const badge = page.locator('#mdbook-sidebar a[href$="teach.html"]:not([href*="instructor"]) .tw-progress');
  assert.equal(await badge.textContent(), "0/3");
  await page.locator("#quiz-1-q1-o1").check();
  await page.locator("#quiz-1-q2-in").fill(await page.locator("#quiz-1-q2-in").getAttribute("data-answer"));
  await page.locator("#quiz-1 button[type=submit]").click();
  assert.match(await page.locator("#quiz-1 .tw-quiz-status").textContent(), /2 of 2 right ✓/);
  assert.equal(await badge.textContent(), "1/3");
  await page.reload();
  assert.ok(await page.locator("#quiz-1-q1-o1").isChecked(), "the choice is restored");
  assert.equal(await page.locator("#quiz-1-q2-in").inputValue(), await page.locator("#quiz-1-q2-in").getAttribute("data-answer"));
  assert.match(await page.locator("#quiz-1 .tw-quiz-status").textContent(), /2 of 2 right ✓/);
  assert.equal(await badge.textContent(), "1/3");
  assert.equal(
    await page.locator(".tw-page-progress").textContent(),
    "You have done 1 of 3 exercises and questions on this page.",
  );
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem("tcp-book-progress")));
  assert.equal(stored["teach.html"]["quiz-1"].done, 1);
  // Another page's chapter list shows it too.
  await page.goto(pathToFileURL(join(dir, "instructor", "teach.html")).href);
  assert.equal(await page.locator('#mdbook-sidebar a[href$="/teach.html"]:not([href*="instructor"]) .tw-progress').textContent(), "1/3");
  assert.deepEqual(errors, []);
  await context.close();
});

test("presenter mode shows each section's notes and the page's timing; readers never see them", async () => {
  const { page, problems, close } = await open("teach.html");
  const notes = page.locator(".tw-notes-instructor");
  assert.equal(await notes.count(), 2);
  assert.equal(await page.locator(".tw-notes-instructor:visible").count(), 0, "hidden for readers");
  const toggle = page.locator("#tw-presenter-toggle");
  assert.equal(await toggle.getAttribute("aria-pressed"), "false");
  await page.locator("body").press("p");
  assert.equal(await page.locator(".tw-notes-instructor:visible").count(), 2);
  assert.equal(await toggle.getAttribute("aria-pressed"), "true");
  assert.match(await page.locator(".tw-timing").textContent(), /15 min \(5 \+ 10\)/);
  // Each note sits in its own section, under that section's heading.
  const headings = await notes.evaluateAll((els) =>
    els.map((el) => {
      let h = el.previousElementSibling;
      while (h && h.tagName !== "H2") h = h.previousElementSibling;
      return [h && h.textContent, el.querySelector(".tw-notes-time").textContent];
    }),
  );
  assert.deepEqual(headings, [["The first flight", "5 min"], ["Bigger windows", "10 min"]]);
  // Remembered across pages and reloads; the button turns it off.
  await page.reload();
  assert.equal(await page.locator(".tw-notes-instructor:visible").count(), 2);
  await toggle.click();
  assert.equal(await page.locator(".tw-notes-instructor:visible").count(), 0);
  // `p` typed into a field is a letter, not the toggle.
  await page.locator("#quiz-1-q2-in").press("p");
  assert.equal(await page.locator(".tw-notes-instructor:visible").count(), 0);
  assert.deepEqual(problems.console, []);
  await close();
});

test("a machine block's Copy button copies the command, or selects it where the clipboard is refused", async () => {
  const context = await env.browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  await page.goto(env.server.url + "teach.html");
  const command = page.locator(".tw-machine .tw-command").first();
  assert.match(await command.locator(".tw-root").textContent(), /no root needed/);
  assert.match(await page.locator(".tw-machine .tw-command").nth(1).locator(".tw-root").textContent(), /needs root/);
  assert.equal(await command.locator(".buttons:visible").count(), 0, "no second copy button from mdBook");
  await command.locator(".tw-copy").click();
  await page.waitForFunction(() => document.querySelector(".tw-copy").textContent === "Copied");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "ss -tin state established");
  await context.close();

  const { page: p2, context: c2 } = await openStubbed("teach.html");
  await p2.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.reject(new Error("denied"));
  });
  await p2.locator(".tw-command").nth(1).locator(".tw-copy").click();
  await p2.waitForFunction(() => document.querySelectorAll(".tw-copy")[1].textContent.startsWith("Selected"));
  assert.equal(await p2.evaluate(() => String(getSelection())), "ip route change default via 192.168.1.1 initcwnd 20");
  await c2.close();
});

test("the instructor sheet lists each section's notes, time and answers", async () => {
  const { page, problems, close } = await open("instructor/teach.html");
  const sheet = page.locator(".tw-sheet");
  assert.match(await sheet.locator(".tw-sheet-total").textContent(), /15 min/);
  const sections = sheet.locator(".tw-sheet-section");
  assert.equal(await sections.count(), 2);
  assert.match(await sections.nth(0).locator("h2").textContent(), /The first flight\s*5 min/);
  assert.match(await sections.nth(0).textContent(), /Ask the room before anyone presses play/);
  const chapter = readFileSync(join(dir, "teach.html"), "utf8");
  const answer = chapter.match(/data-answer="(\d+)"/)[1];
  const solution = JSON.parse(chapter.match(/data-solution="([^"]*)"/)[1].replaceAll("&quot;", '"'));
  assert.match(await sections.nth(0).textContent(), new RegExp(`How many round trips will 512 KiB take at 7 ms\\?\\s*→ ${answer} round trips`));
  assert.match(await sections.nth(0).textContent(), /What limits the first flight to 10 segments\?\s*→ The initial congestion window/);
  assert.match(await sections.nth(1).textContent(), new RegExp(`Four round trips \\(goal: round trips ≤ 4\\)\\s*→ initcwnd = ${solution.initcwnd}`));
  // In print: one page, the menu and sidebar gone.
  await page.emulateMedia({ media: "print" });
  const height = await page.evaluate(() => document.querySelector("main").getBoundingClientRect().height);
  assert.ok(height < 1000, `the sheet is ${height} px tall in print`);
  assert.deepEqual(problems.console, []);
  await close();
});

test("an exercise ticks when the widget's results meet its goal, and not otherwise (teach.js alone)", async () => {
  const { page, errors, context } = await openStubbed("teach.html");
  const ex = page.locator("#exercise-1");
  const status = ex.locator(".tw-exercise-status");
  const results = (r) => page.evaluate((r) => document.getElementById("slow-start-1").setAttribute("data-results", JSON.stringify(r)), r);
  await results({ round_trips: 6, completion_ms: 49.7 });
  assert.equal(await status.textContent(), "Not met yet: round trips = 6 (goal ≤ 4)");
  assert.equal(await visible(ex.locator(".tw-exercise-explanation")), false);
  await results({ completion_ms: 20 });
  assert.equal(await status.textContent(), "Not met yet: round trips = none (goal ≤ 4)", "a missing metric fails");
  await results({ round_trips: 4 });
  assert.match(await status.textContent(), /^Met ✓: round trips = 4/);
  assert.ok(await visible(ex.locator(".tw-exercise-explanation")));
  assert.equal(await page.locator(".tw-progress").first().textContent(), "1/3");
  // Hints, one at a time.
  const next = ex.locator(".tw-hint-next");
  assert.equal(await ex.locator(".tw-hint:visible").count(), 0);
  await next.click();
  assert.equal(await ex.locator(".tw-hint:visible").count(), 1);
  assert.equal(await next.textContent(), "Show a hint (2 of 2)");
  await next.click();
  assert.equal(await ex.locator(".tw-hint:visible").count(), 2);
  assert.equal(await visible(next), false);
  assert.deepEqual(errors, []);
  await context.close();
});

test("Show a solution drops the widget's URL state, sets the solution and remounts it (teach.js alone)", async () => {
  const { page, errors, context } = await openStubbed("teach.html?slow-start-1.initcwnd=3&other=1&slow-start-1.preset=seed-7ms");
  const solution = JSON.parse(await page.locator("#exercise-1").getAttribute("data-solution"));
  const w = page.locator("#slow-start-1");
  const before = Number((await w.getAttribute("data-stub-mounts")) || 0);
  await page.locator("#exercise-1 .tw-exercise-solve").click();
  await page.waitForFunction((n) => +document.getElementById("slow-start-1").dataset.stubMounts > n, before);
  assert.equal(await w.getAttribute("data-initcwnd"), solution.initcwnd);
  assert.equal(new URL(page.url()).search, "?other=1");
  assert.ok(await visible(page.locator("#exercise-1 .tw-exercise-solution")));
  // The widget's run with the solution meets the goal: done, with the solution shown.
  await page.evaluate(() => document.getElementById("slow-start-1").setAttribute("data-results", '{"round_trips":4}'));
  const stored = JSON.parse(await page.evaluate(() => localStorage.getItem("tcp-book-progress")));
  assert.deepEqual(stored["teach.html"]["exercise-1"], { done: 1, solution: 1 });
  assert.deepEqual(errors, []);
  await context.close();
});

test("a prediction is committed, sets data-answered, and compares once the widget reveals (teach.js alone)", async () => {
  const { page, errors, context } = await openStubbed("teach.html");
  const form = page.locator("#predict-1");
  const w = page.locator("#slow-start-predict-1");
  // An empty answer is refused by the browser's own validation.
  await form.locator("button[type=submit]").click();
  assert.equal(await w.getAttribute("data-answered"), null);
  await form.locator("input[type=number]").fill("5");
  await form.locator("button[type=submit]").click();
  assert.equal(await w.getAttribute("data-answered"), "5");
  assert.ok(await form.locator("input").isDisabled());
  assert.match(await form.locator(".tw-predict-result").textContent(), /Now press play/);
  // Results without data-revealed are not the reveal.
  await page.evaluate(() => document.getElementById("slow-start-predict-1").setAttribute("data-results", '{"round_trips":6}'));
  assert.match(await form.locator(".tw-predict-result").textContent(), /Now press play/);
  await page.evaluate(() => document.getElementById("slow-start-predict-1").setAttribute("data-revealed", "1"));
  assert.equal(await form.locator(".tw-predict-result").textContent(), "You said 5 round trips; the simulation: 6 round trips.");
  // A reload restores the committed answer and tells the widget again.
  await page.reload();
  assert.equal(await page.locator("#slow-start-predict-1").getAttribute("data-answered"), "5");
  assert.equal(await page.locator("#predict-1 input[type=number]").inputValue(), "5");
  assert.equal(await page.locator(".tw-progress").first().textContent(), "1/3");
  assert.deepEqual(errors, []);
  await context.close();
});

// Its size is a benchmark figure (`cargo xtask bench` counts it with the
// widget bundle), not a test: here only that the book serves it minified.
test("the built book serves teach.js minified", () => {
  const themeDir = join(BOOK_DIR, "theme");
  const file = readdirSync(themeDir).find((f) => /^teach-.*\.js$/.test(f));
  assert.ok(file, "the built book has theme/teach-*.js (book.toml additional-js)");
  const built = readFileSync(join(themeDir, file), "utf8");
  const source = readFileSync(join(import.meta.dirname, "..", "theme", "teach.js"), "utf8");
  assert.ok(!built.includes("// "), "comments stripped");
  assert.ok(built.length < source.length / 1.5, `${file}: ${built.length} B of ${source.length}`);
});

// --- End to end, with the real widget: needs the widget's side of the
// protocol (data-results, data-answered / data-revealed).

test("end to end: the exercise's widget reports its runs, and its solution meets the goal", async () => {
  const { page, problems, close } = await open("teach.html");
  const w = await Widget.find(page, "#slow-start-1");
  await w.waitInteractive(30000);
  await page.waitForSelector("#slow-start-1[data-results]", { state: "attached", timeout: 30000 });
  const status = page.locator("#exercise-1 .tw-exercise-status");
  assert.match(await status.textContent(), /^Not met yet: round trips = \d+ \(goal ≤ 4\)/);
  await page.locator("#exercise-1 .tw-exercise-solve").click();
  await page.waitForFunction(() => /^Met/.test(document.querySelector("#exercise-1 .tw-exercise-status").textContent), null, { timeout: 30000 });
  assert.deepEqual(problems.console, []);
  await close();
});

test("end to end: a prediction's widget reveals its run after the answer and the run's end", async () => {
  const { page, problems, close } = await open("teach.html");
  const w = await Widget.find(page, "#slow-start-predict-1");
  // Play waits for the answer.
  await w.locator(".tw-root").waitFor({ timeout: 30000 });
  assert.equal(await w.playButton.isDisabled(), true, "no play before an answer");
  await page.locator("#predict-1 input[type=number]").fill("4");
  await page.locator("#predict-1 button[type=submit]").click();
  await w.waitInteractive(30000);
  await w.play();
  await page.waitForSelector('#slow-start-predict-1[data-revealed="1"]', { state: "attached", timeout: 60000 });
  const answer = readFileSync(join(dir, "teach.html"), "utf8").match(/data-answer="(\d+)"/)[1];
  assert.equal(await page.locator("#predict-1 .tw-predict-result").textContent(), `You said 4 round trips; the simulation: ${answer} round trips.`);
  assert.deepEqual(problems.console, []);
  await close();
});
