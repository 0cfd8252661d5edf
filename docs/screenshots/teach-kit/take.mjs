// The issue-19 screenshot set: the teaching kit's fixture chapter
// (tests/fixtures/teach-book/), light and navy, at 1280x900 and 360 px,
// with a quiz checked and an exercise's hint open; presenter mode at
// 1280x720; and the instructor sheet. The widgets are stubbed (as in
// tests/teach-kit.test.mjs) so each shot is of the kit's blocks, not of a
// simulation halfway through loading.
process.env.BOOK_DIR = process.env.BOOK_DIR || new URL("../../../book", import.meta.url).pathname;
const out = process.env.OUT || new URL(".", import.meta.url).pathname;
const support = (f) => import(new URL(`../../../tests/support/${f}`, import.meta.url).href);
const { launch } = await support("browser.mjs");
const { serveBook } = await support("server.mjs");
const { buildTeachBook } = await support("teach-book.mjs");
const dir = buildTeachBook();
const server = await serveBook(dir);
const browser = await launch();
const STUB = "window.tcpWidgets={load:()=>Promise.resolve({mount_all(){},mount(){},unmount(){}})};";

async function open(path, { width, height, theme, presenting = false }) {
  const context = await browser.newContext({ viewport: { width, height } });
  await context.addInitScript(([t, p]) => {
    localStorage.setItem("mdbook-theme", t);
    localStorage.setItem("tcp-book-presenter", p ? "1" : "");
  }, [theme, presenting]);
  await context.route("**/embed/tcp-widget.js", (r) => r.fulfill({ body: STUB, contentType: "text/javascript" }));
  const page = await context.newPage();
  await page.goto(server.url + path, { waitUntil: "load" });
  return { page, close: () => context.close() };
}

/// A reader midway: one quiz answer wrong, the exercise not met, a hint open.
async function midway(page) {
  await page.locator("#quiz-1-q1-o2").check();
  await page.locator("#quiz-1-q2-in").fill("6");
  await page.locator("#quiz-1 button[type=submit]").click();
  await page.evaluate(() => document.getElementById("slow-start-1").setAttribute("data-results", '{"round_trips":6}'));
  await page.locator("#exercise-1 .tw-hint-next").click();
}

for (const theme of ["light", "navy"]) {
  for (const [name, width, height] of [["1280x900", 1280, 900], ["360x740", 360, 740]]) {
    const { page, close } = await open("teach.html", { width, height, theme });
    await midway(page);
    await page.evaluate(() => document.getElementById("quiz-1").scrollIntoView({ block: "start" }) || window.scrollBy(0, -60));
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${out}/quiz-${name}-${theme}.png` });
    await page.evaluate(() => document.getElementById("exercise-1").scrollIntoView({ block: "start" }) || window.scrollBy(0, -60));
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${out}/exercise-${name}-${theme}.png` });
    await page.evaluate(() => document.querySelector(".tw-machine").scrollIntoView({ block: "start" }) || window.scrollBy(0, -60));
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${out}/machine-${name}-${theme}.png` });
    await close();
  }
  {
    const { page, close } = await open("teach.html", { width: 1280, height: 720, theme, presenting: true });
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${out}/presenter-1280x720-${theme}.png` });
    await close();
  }
  {
    const { page, close } = await open("instructor/teach.html", { width: 1280, height: 900, theme });
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${out}/sheet-1280x900-${theme}.png` });
    await close();
    if (theme === "light") {
      // As printed: A4 at 96 dpi, print stylesheets; and the PDF's page count.
      const { page, close } = await open("instructor/teach.html", { width: 794, height: 1123, theme });
      await page.emulateMedia({ media: "print" });
      await page.screenshot({ path: `${out}/sheet-print-a4-light.png`, fullPage: true });
      const pdf = await page.pdf({ format: "A4" });
      console.log("instructor sheet, printed:", (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) || []).length, "page(s)");
      await close();
    }
  }
}
await browser.close();
await server.close();
process.exit(0);
