// Loads the widget bundle once per page, only on pages that have a widget, and
// mounts every placeholder the mdbook-widgets preprocessor wrote.
// mdBook defines `path_to_root` before this script runs.
(function () {
  "use strict";
  var placeholders = document.querySelectorAll(".tcp-widget[data-widget]");
  if (placeholders.length === 0) return;
  // print.html repeats every chapter to be printed: it shows each widget's
  // build-time figure, and running every simulation there would only delay
  // the printout.
  if (/(^|\/)print\.html$/.test(location.pathname)) {
    document.querySelectorAll(".tcp-widget-loading").forEach(function (p) {
      p.remove();
    });
    return;
  }
  var root = typeof path_to_root === "string" ? path_to_root : "";
  // The bundle is the embeddable one (embed/tcp-widget.js): one copy of the
  // code and the wasm for the book and for embedding.
  var src = new URL(root + "embed/tcp-widget.js", document.baseURI).href;

  function fail(err) {
    placeholders.forEach(function (el) {
      if (el.hasAttribute("data-mounted")) return;
      el.classList.add("tw-error");
      var p = document.createElement("p");
      p.className = "tw-load-error";
      p.textContent = "This simulation could not start: " + (err && err.message ? err.message : err) +
        ". It needs a browser with WebAssembly. The figure shows its starting state.";
      el.appendChild(p);
    });
    console.warn("tcp-widgets:", err);
  }

  var script = document.createElement("script");
  script.src = src;
  script.onload = function () {
    window.tcpWidgets
      .load()
      .then(function (widgets) {
        widgets.mount_all();
      })
      .catch(fail);
  };
  script.onerror = function () {
    fail(new Error("could not load " + src));
  };
  document.head.appendChild(script);
})();
