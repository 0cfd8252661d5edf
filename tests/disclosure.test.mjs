// Progressive disclosure: a widget shows the few controls its page is about
// (its primary ones, or those `controls=` names) and keeps the rest behind
// "More settings"; one headline gives the run's result; every download and
// data table sits in one "Data & export" menu; the readouts and text panels
// behind "Details".
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { setup, openPage } from "./support/browser.mjs";
import { Widget, openWidget } from "./support/widget.mjs";

let env;
before(async () => (env = await setup()));
after(async () => env && (await env.close()));

const FIRST = "#slow-start-1";
const SLOW_START = [
  "rtt", "bandwidth", "mss", "initcwnd", "size", "transfers", "gap", "slow_start_after_idle", "connection",
  "transbuf", "request", "rwnd", "rcvbuf", "queue", "netem_delay", "kernel", "client_kernel",
];

/// The parameters whose control is on show, in the widget's order.
async function visibleControls(w) {
  const shown = [];
  for (const name of SLOW_START) {
    if (await w.slider(name).input.isVisible()) shown.push(name);
  }
  return shown;
}

/// The widget inside the iframe page opened on its own, with `query`.
async function openEmbed(query) {
  const opened = await openPage(env, `embed/slow-start.html${query}`);
  const widget = await Widget.find(opened.page, "tcp-widget .tcp-widget");
  await widget.waitSimulated();
  return { ...opened, widget };
}

test("a widget shows its primary controls and keeps the others behind More settings", async () => {
  const { widget: w, problems, close } = await openWidget(env, "slow-start.html", FIRST);
  assert.deepEqual(await visibleControls(w), ["rtt", "initcwnd", "size"]);
  const summary = w.moreSettings.locator("summary");
  assert.match(await summary.innerText(), /^More settings \(14\)/);
  // Opened from the keyboard, as a disclosure button is.
  await summary.focus();
  await summary.press("Enter");
  assert.deepEqual(await visibleControls(w), SLOW_START);
  // A control behind it works, and a new run leaves it open.
  const before = await w.readout("completion");
  await w.slider("bandwidth").type("10Mbit");
  await w.scope.waitForFunction(([sel, old]) => document.querySelector(sel).textContent !== old, [w.css('[data-readout="completion"]'), before]);
  assert.ok(await w.moreSettings.evaluate((d) => d.open), "still open after the run changed");
  // Space toggles it too, without playing the run.
  await summary.focus();
  await summary.press(" ");
  assert.equal(await w.moreSettings.evaluate((d) => d.open), false);
  assert.equal(await w.clockMs(), 0, "space on the disclosure did not play");
  assert.deepEqual(problems.console, []);
  await close();
});

test("controls= in a directive, and in the iframe page's query, picks the controls shown", async () => {
  const { page, problems, close } = await openPage(env, "appendix-widget-gallery.html");
  const w = await Widget.find(page, '.tcp-widget[data-controls="bandwidth,mss"]');
  await w.waitSimulated();
  assert.deepEqual(await visibleControls(w), ["bandwidth", "mss"]);
  assert.deepEqual(problems.console, []);
  await close();

  const embed = await openEmbed("?controls=mss,rtt&rwnd=32KiB");
  assert.deepEqual(await visibleControls(embed.widget), ["rtt", "mss"], "exactly the named ones, in the widget's order");
  await embed.close();

  // Without controls=, a value the query changed shows beside the primary ones.
  const changed = await openEmbed("?rwnd=32KiB");
  assert.deepEqual(await visibleControls(changed.widget), ["rtt", "initcwnd", "size", "rwnd"]);
  await changed.close();
});

test("a hostile controls value is ignored with a note", async () => {
  const hostile = encodeURIComponent('rtt,<img src=x onerror="window.pwned=1">');
  const { page, widget: w, problems, close } = await openEmbed(`?controls=${hostile}`);
  const note = await w.locator(".tw-notes").innerText();
  assert.match(note, /Ignored controls: unknown control/);
  assert.deepEqual(await visibleControls(w), ["rtt", "initcwnd", "size"], "the default controls");
  assert.equal(await page.locator("tcp-widget img").count(), 0);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(problems.console, []);
  await close();
});

test("Data & export opens from the keyboard, names each item's panel, downloads and closes on Escape", async () => {
  const { page, widget: w, problems, close } = await openWidget(env, "slow-start.html", FIRST);
  await w.waitInteractive();
  const menu = w.exportMenu;
  const summary = menu.locator("summary");
  assert.equal(await menu.locator(".tw-menu-list").isVisible(), false, "closed at first");
  await summary.focus();
  await page.keyboard.press("Enter");
  assert.ok(await menu.locator(".tw-menu-list").isVisible());
  // Every panel's picture, data and table, and the run's samples.
  const names = await menu.getByRole("button").evaluateAll((bs) => bs.map((b) => b.getAttribute("aria-label")));
  for (const panel of ["Path", "Panel 1: cwnd, ssthresh, in flight", "Panel 2: Time-sequence graph"]) {
    for (const what of ["download as PNG", "download as SVG", "download the data as CSV", "download the data as JSON", "data table"]) {
      assert.ok(names.some((n) => n.startsWith(panel) && n.endsWith(what)), `${panel}: ${what} in ${names}`);
    }
  }
  assert.ok(names.includes("Run samples: download as CSV"), names.join(" | "));
  // The first item by Tab, chosen by Enter: a download; the menu closes and
  // gives the focus back to its button.
  await page.keyboard.press("Tab");
  const first = await page.evaluate(() => {
    const shadowFree = document.activeElement;
    return shadowFree.getAttribute("aria-label");
  });
  assert.match(first, /^Path: /);
  const [png] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  assert.equal(png.suggestedFilename(), "slow-start-path.png");
  assert.equal(await menu.evaluate((d) => d.open), false, "choosing closed the menu");
  assert.equal(await summary.evaluate((s) => s === document.activeElement), true, "focus back on the menu button");
  // Data as JSON and the samples, read back.
  const [json] = await Promise.all([page.waitForEvent("download"), w.exportItem("Path: download the data as JSON")]);
  assert.equal(json.suggestedFilename(), "slow-start-path.json");
  const parsed = JSON.parse(await streamText(await json.createReadStream()));
  assert.ok(parsed && typeof parsed === "object");
  const [csv] = await Promise.all([page.waitForEvent("download"), w.exportItem("Run samples: download as CSV")]);
  assert.equal(csv.suggestedFilename(), "slow-start-samples.csv");
  assert.ok((await streamText(await csv.createReadStream())).split("\n").length > 10);
  // Escape closes it, and does not reach the widget's own Escape.
  await summary.click();
  assert.ok(await menu.evaluate((d) => d.open));
  await page.keyboard.press("Escape");
  assert.equal(await menu.evaluate((d) => d.open), false);
  assert.deepEqual(problems.console, []);
  await close();
});

test("the headline reads the run's own numbers, and the details hold the readouts", async () => {
  const { widget: w, problems, close } = await openWidget(env, "slow-start.html", FIRST);
  const headline = await w.readout("headline");
  const completion = await w.readout("completion");
  const trips = await w.readout("round-trips");
  assert.ok(headline.startsWith(`Done in ${completion} = `), `${headline} vs ${completion}`);
  assert.match(headline, new RegExp(`then ${trips} flights of data$`));
  // Seed 004 at 7 ms: the completion over the path's RTT.
  const rtts = headline.match(/= ([\d.]+) RTT:/)[1];
  assert.equal(rtts, (parseFloat(completion) / 7).toFixed(1));
  // The readouts are in the DOM but behind "Details" until asked for.
  assert.equal(await w.locator('[data-readout="completion"]').isVisible(), false);
  await w.openDetails();
  assert.ok(await w.locator('[data-readout="completion"]').isVisible());
  assert.ok(await w.locator('[data-readout="headline"]').isVisible());
  assert.deepEqual(problems.console, []);
  await close();
});

test("a run cut by its time limit headlines its goodput and retransmissions", async () => {
  const { page, problems, close } = await openPage(env, "embed/long-fat.html?duration=2s");
  const w = await Widget.find(page, "tcp-widget .tcp-widget");
  await w.waitSimulated(30000);
  const headline = await w.readout("headline");
  const retransmissions = await w.readout("retransmissions");
  assert.match(headline, /^Goodput [\d.]+ Mbit\/s over 2000\.00 ms \(\d+ % of 110 Mbit\/s\) · \d+ retransmissions?$/);
  assert.ok(headline.endsWith(`· ${retransmissions} retransmission${retransmissions === "1" ? "" : "s"}`), `${headline} vs ${retransmissions}`);
  assert.deepEqual(problems.console, []);
  await close();
});

async function streamText(stream) {
  const chunks = [];
  for await (const c of stream) chunks.push(c);
  return Buffer.concat(chunks).toString("utf8");
}
