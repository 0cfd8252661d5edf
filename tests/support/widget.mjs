// A page object for one widget on a page: its parameter controls, transport,
// readouts, panels and canvases named for what they are, so that a test reads
// as what a reader does ("+1 RTT", "the completion readout") and the widget's
// markup is known in one place (widgets/src/kit/widget.rs, slider.rs).
import { openPage } from "./browser.mjs";
import { inked } from "./canvas.mjs";

/// The transport's step buttons, by the kind of step.
const STEPS = { event: "Next event", ack: "Next ACK", rtt: "+1 RTT" };

export class Widget {
  /// `scope`: the page, frame or frame locator the widget is in. `selector`:
  /// its placeholder (`#slow-start-1`; `tcp-widget .tcp-widget` inside the
  /// custom element's shadow root). `id`: the placeholder's id, which names
  /// the widget's controls (`<id>-rtt`); taken from a `#id` selector.
  constructor(scope, selector, id = selector.match(/^#([\w-]+)$/)?.[1]) {
    this.scope = scope;
    this.selector = selector;
    this.id = id;
    this.root = scope.locator(selector);
    /// What `reach` scrolls to: the widget's placeholder, which is on the
    /// page before the widget mounts (a side's own element is not).
    this.placeholder = this.root;
  }

  /// The widget at `selector`, with the id its placeholder has.
  static async find(scope, selector) {
    return new Widget(scope, selector, await scope.locator(selector).getAttribute("id"));
  }

  /// A CSS selector for `within` inside the widget, for the page's own
  /// `waitForSelector` and `document.querySelector`.
  css(within) {
    return `${this.selector} ${within}`;
  }

  /// A locator for `within` inside the widget.
  locator(within, options) {
    return this.root.locator(within, options);
  }

  /// One run of a comparison (`a` or `b`), as a widget of its own for its
  /// readouts, panels and canvases; the controls and the clock stay the
  /// whole widget's.
  side(name) {
    const side = new Widget(this.scope, this.css(`.tw-side[data-side="${name}"]`), this.id);
    side.placeholder = this.placeholder;
    return side;
  }

  /// Brings a widget that has not mounted into view, as a reader scrolling
  /// to it would: a book page mounts a widget only when it comes near the
  /// viewport (theme/widgets-loader.js).
  async reach() {
    // Only a widget not mounted yet: scrolling moves the page, which a host
    // may record (MkDocs-Material keeps the scroll offset in history.state).
    const placeholder = this.placeholder.first();
    if (!(await placeholder.evaluate((el) => el.hasAttribute("data-mounted")))) await placeholder.scrollIntoViewIfNeeded();
  }

  /// Waits until the run is simulated: its completion readout is there
  /// (under "Details", closed by default). Scrolls to the widget first (see
  /// `reach`). The default bound is a minute, for a busy machine. A wait,
  /// not a speed target (those are `cargo xtask bench`'s): it returns as
  /// soon as the run is in.
  async waitSimulated(timeout = 60000) {
    await this.reach();
    return this.scope.waitForSelector(this.css('[data-readout="completion"]'), { timeout, state: "attached" });
  }

  /// Waits until the widget answers input: its runs are simulated and Play
  /// is enabled. Scrolls to the widget first (see `reach`).
  async waitInteractive(timeout = 60000) {
    await this.reach();
    return this.locator(".tw-play:enabled").waitFor({ timeout });
  }

  // --- Controls.

  /// A parameter's controls, by its name in the widget's table (`rtt`,
  /// `initcwnd`, `cc`): `range` (its slider), `input` (the slider, or the menu
  /// of a choice), `text` (the box to type a value with units in) and
  /// `output` (the value shown beside it). `side: "b"` picks side B's own
  /// control of a compared parameter.
  slider(name, { side } = {}) {
    if (!this.id) throw new Error(`${this.selector}: the widget's id is needed to find its controls (Widget.find)`);
    const id = `${this.id}-${name}${side === "b" ? "-b" : ""}`;
    const range = this.locator(`input[type="range"]#${id}`);
    const text = this.locator(`#${id}-text`);
    const output = this.locator(`output[data-param="${name}"]`);
    const reveal = () => this.openMoreSettings();
    return {
      range,
      input: this.locator(`#${id}`),
      text,
      output,
      /// The value as shown ("7 ms"), behind "More settings" too.
      value: async () => (await output.textContent()).trim(),
      /// Opens "More settings" if the control is behind it.
      reveal,
      /// Moves the slider to a position (0 to 1000 on a log scale).
      async set(position) {
        await reveal();
        await range.fill(position);
      },
      /// Types a value with units into the box and enters it.
      async type(value) {
        await reveal();
        await text.fill(value);
        await text.press("Enter");
      },
    };
  }

  /// The "More settings" disclosure, holding the controls not shown first.
  get moreSettings() {
    return this.locator("details.tw-more");
  }

  /// Opens "More settings" (if the widget has one and it is closed).
  async openMoreSettings() {
    const more = this.moreSettings;
    if ((await more.count()) && !(await more.evaluate((d) => d.open))) await more.locator("summary").click();
  }

  /// Opens every run's "Details" (readouts and text panels).
  async openDetails() {
    for (const d of await this.locator("details.tw-details").all()) {
      if (!(await d.evaluate((el) => el.open))) await d.locator("summary").first().click();
    }
  }

  // --- Data & export.

  get exportMenu() {
    return this.locator("details.tw-export");
  }

  /// Chooses an item of "Data & export" by its accessible name, e.g.
  /// "Congestion window: download as PNG" or "Path view: data table".
  async exportItem(name) {
    if (!(await this.exportMenu.evaluate((d) => d.open))) await this.exportMenu.locator("summary").click();
    await this.exportMenu.getByRole("button", { name, exact: true }).click();
  }

  /// The name "Data & export" gives panel `n` (0: the path view; 1, 2:
  /// the chart panels, by number and view).
  async panelName(n) {
    const title = await this.locator(".tw-view").nth(n).getAttribute("aria-label");
    return n === 0 ? title : `Panel ${n}: ${title}`;
  }

  /// Shows or hides panel `n`'s data table (0: the path view).
  async toggleTable(n) {
    await this.exportItem(`${await this.panelName(n)}: data table`);
  }

  /// Picks a preset from the menu by its name (`initcwnd-100`).
  setPreset(name) {
    return this.locator(".tw-preset select").selectOption(name);
  }

  // --- Transport.

  get playButton() {
    return this.locator("button.tw-play");
  }

  play() {
    return this.playButton.click();
  }

  /// One step of the cursor: `event` (Next event), `ack` (Next ACK) or `rtt` (+1 RTT).
  step(kind) {
    if (!(kind in STEPS)) throw new Error(`no step "${kind}": one of ${Object.keys(STEPS)}`);
    return this.locator("button", { hasText: STEPS[kind] }).click();
  }

  restart() {
    return this.locator("button.tw-restart").click();
  }

  get scrubber() {
    return this.locator(".tw-scrubber");
  }

  // --- Readouts and panels.

  /// A readout's text, by name: `completion`, `flights`, `cwnd`, `clock`.
  /// Read from the DOM's text, so that readouts behind a closed "Details"
  /// read as well as the ones on show.
  async readout(name) {
    return (await this.locator(`[data-readout="${name}"]`).textContent()).trim();
  }

  /// The clock readout: "t = 1.234 ms / 60.000 ms".
  clockText() {
    return this.readout("clock");
  }

  /// The time cursor in ms, from the clock readout ("t = 0.350 ms / 49.702 ms",
  /// or "t = 15.00 s / 30.00 s" on runs of 10 s and more).
  async clockMs() {
    const [, value, unit] = (await this.clockText()).match(/^t = ([\d.]+) (ms|s)/);
    return parseFloat(value) * (unit === "s" ? 1000 : 1);
  }

  /// A text panel's text, by name: `ss`, `settings`, `iperf`.
  panel(name) {
    return this.locator(`[data-panel="${name}"]`).textContent();
  }

  // --- Views.

  /// Chart panel 1 or 2, under the path view.
  chartPanel(n) {
    return this.locator(`.tw-slots > div:nth-child(${n})`);
  }

  /// Shows `view` in chart panel `n` and waits for its canvas.
  async showView(view, n = 1) {
    await this.locator(".tw-slot select").nth(n - 1).selectOption(view);
    await this.scope.waitForSelector(this.css(`.tw-slots > div:nth-child(${n}) canvas[data-view="${view}"]`));
  }

  /// A view's canvas (`path`, `cwnd`, `tsg`, …), in chart panel `panel` if given.
  canvas(view, panel) {
    const canvas = `canvas[data-view="${view}"]`;
    return panel ? this.chartPanel(panel).locator(canvas) : this.locator(canvas);
  }

  /// Whether a view's canvas holds a drawing (canvas.mjs `inked`).
  inkedCanvas(view, { panel, stride } = {}) {
    return inked(this.canvas(view, panel), stride);
  }
}

/// Opens `path` (with openPage's options) and waits until the widget at
/// `selector` has simulated its run.
export async function openWidget(env, path, selector, options) {
  const opened = await openPage(env, path, options);
  const widget = new Widget(opened.page, selector);
  await widget.waitSimulated();
  return { ...opened, widget };
}

/// The widget of an embed page (inside `<tcp-widget>`'s shadow root, which
/// Playwright's selectors pierce).
export const EMBED = "tcp-widget .tcp-widget";

/// Widget `name` alone on its embed page (`embed/NAME.html?QUERY`: a preset
/// and parameters, as an iframe's link gives them), once simulated; with
/// `atEnd`, its time cursor moved to the run's end. A test of one preset
/// opens it here rather than through a chapter's URL state: the chapter
/// page would simulate every one of its widgets again. `results()` reads
/// the run's figures (`data-results`).
export async function openEmbed(env, name, query = "", { atEnd = false, timeout = 120000 } = {}) {
  const opened = await openPage(env, `embed/${name}.html${query ? `?${query}` : ""}`);
  const widget = await Widget.find(opened.page, EMBED);
  await widget.waitSimulated(timeout);
  if (atEnd) await widget.scrubber.fill("1000");
  const results = async () => {
    const placeholder = opened.page.locator(`${EMBED}[data-results]`);
    await placeholder.waitFor({ state: "attached", timeout });
    return JSON.parse(await placeholder.getAttribute("data-results"));
  };
  return { ...opened, widget, results };
}

/// Scrolls past each widget placeholder on `page`, as a reader skimming
/// the whole page would, and waits until each has mounted and its first run
/// is in (it is no longer `tw-pending`, see theme/widgets-loader.js) or it
/// shows an error. A book page mounts a widget when it comes into view;
/// skimming mounts them all, to simulate side by side.
export async function reachAll(page, { timeout = 60000 } = {}) {
  // By element, not id: a page may hold placeholders without one (an
  // embedding example's).
  const placeholders = await page.locator(".tcp-widget[data-widget]").elementHandles();
  for (const el of placeholders) {
    await el.scrollIntoViewIfNeeded();
    // The intersection observer reports the widget in view.
    await twoFrames(page);
  }
  for (const el of placeholders) {
    await page.waitForFunction(
      (w) => (w.hasAttribute("data-mounted") && !w.classList.contains("tw-pending")) || w.classList.contains("tw-error"),
      el,
      { timeout },
    );
    await el.dispose();
  }
}

/// Waits until no widget on `page` is still simulating its first run
/// (`tw-pending`): the loader mounts queued widgets one after another, each
/// taking the place of its figure, which moves what is below it.
export async function settled(page, { timeout = 60000 } = {}) {
  // Two frames first, so that the intersection observers have reported a
  // scroll that just happened (their callbacks queue the widgets).
  do {
    await twoFrames(page);
    await page.waitForFunction(() => document.querySelector(".tcp-widget.tw-pending") === null, null, { timeout });
    await twoFrames(page);
  } while (await page.evaluate(() => document.querySelector(".tcp-widget.tw-pending") !== null));
}

/// Two animation frames of `page`: long enough for its intersection
/// observers to report what a scroll brought into view.
function twoFrames(page) {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}
