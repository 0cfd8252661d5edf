// The iframe page (`embed/<widget>.html?rtt=7ms&preset=...`) and the
// self-contained file: builds one <tcp-widget> from the page's own query
// string, and tells a parent page its height so the frame can size itself.
// The parent listens for `{ type: "tcp-widget:height", height }` messages
// from the frame's window (`embed/tcp-widget-frames.js`, or the snippet in
// the book's "Embedding a widget" appendix), and may send
// `{ type: "tcp-widget:theme", theme: "light" | "dark" | "auto" }` to follow
// its own dark-mode switch. Only a number leaves the frame.
(function () {
  "use strict";
  var name = document.documentElement.getAttribute("data-widget");
  if (!name) {
    // The self-contained file's markup pasted into another page: it works
    // only as a page of its own (opened, linked or framed).
    console.warn("tcp-widget: this script belongs to a widget page of its own; open or frame that page instead of pasting it.");
    return;
  }
  var el = document.createElement("tcp-widget");
  el.setAttribute("name", name);
  el.setAttribute("framed", "");
  el.id = name + "-1";
  new URLSearchParams(location.search).forEach(function (value, key) {
    // Plain parameter names only; "name", "id" and "framed" are the page's.
    // Values are checked by the widget like slider input, and only ever set
    // as attribute text.
    if (/^[a-z][a-z0-9-]{0,31}$/.test(key) && key !== "name" && key !== "id" && key !== "framed") {
      el.setAttribute(key, value.slice(0, 200));
    }
  });
  document.body.appendChild(el);

  if (window.parent === window) return;

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (event.source !== window.parent || !data || data.type !== "tcp-widget:theme") return;
    if (data.theme === "dark" || data.theme === "light") el.setAttribute("theme", data.theme);
    else if (data.theme === "auto") el.removeAttribute("theme");
  });

  // Heights are reported once the widget is mounted, never the loading
  // line's. A frame below the fold gets no rendering updates in Chromium
  // until it is scrolled to (no ResizeObserver, no animation frames), so the
  // widget's own DOM changes trigger a report too: reading the height lays
  // the page out on the spot.
  var last = 0;
  function report() {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: "tcp-widget:height", widget: name, height: height }, "*");
  }
  // Mounting renders the widget a moment later: its first DOM changes
  // report its height, not the empty placeholder's.
  el.addEventListener("tcp-widget:mounted", function () {
    new ResizeObserver(report).observe(document.documentElement);
    new MutationObserver(report).observe(el.shadowRoot, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
})();
