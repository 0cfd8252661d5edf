// The iframe page (`embed/<widget>.html?rtt=7ms&preset=...`) and the
// self-contained file: builds one <tcp-widget> from the page's own query
// string, and tells a parent page its height so the frame can size itself.
// The parent listens for `{ type: "tcp-widget:height", height }` messages
// from the frame's window (the snippet in the book's "Embedding a widget"
// appendix). Only a number leaves the frame.
(function () {
  "use strict";
  var name = document.documentElement.getAttribute("data-widget") || "";
  var el = document.createElement("tcp-widget");
  el.setAttribute("name", name);
  el.id = name + "-1";
  new URLSearchParams(location.search).forEach(function (value, key) {
    // Plain parameter names only; "name" and "id" are the page's. Values
    // are checked by the widget like slider input, and only ever set as
    // attribute text.
    if (/^[a-z][a-z0-9-]{0,31}$/.test(key) && key !== "name" && key !== "id") {
      el.setAttribute(key, value.slice(0, 200));
    }
  });
  document.body.appendChild(el);

  if (window.parent === window) return;
  var last = 0;
  function report() {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: "tcp-widget:height", widget: name, height: height }, "*");
  }
  new ResizeObserver(report).observe(document.documentElement);
  report();
})();
