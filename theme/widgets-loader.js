// Loads the widget bundle once per page, only on pages that have a widget, and
// mounts every placeholder the mdbook-widgets preprocessor wrote.
// mdBook defines `path_to_root` before this script runs.
(function () {
  "use strict";
  var placeholders = document.querySelectorAll(".tcp-widget[data-widget]");
  if (placeholders.length === 0) return;
  var root = typeof path_to_root === "string" ? path_to_root : "";
  // import() needs an absolute URL: "generated/..." would be read as a package name.
  var base = new URL(root + "generated/widgets/", document.baseURI).href;

  function fail(err) {
    placeholders.forEach(function (el) {
      if (el.hasAttribute("data-mounted")) return;
      el.classList.add("tw-error");
      el.textContent = "This simulation could not start: " + (err && err.message ? err.message : err) +
        ". It needs a browser with WebAssembly.";
    });
    console.warn("tcp-widgets:", err);
  }

  // The page may have started compiling the wasm already (see PRELOAD in
  // widgets/preprocessor/src/render.rs); otherwise, or if that failed, the
  // bundle fetches it.
  Promise.all([import(base + "tcp_widgets.js"), window.tcpWidgetsWasm])
    .then(function (loaded) {
      var mod = loaded[0];
      return mod.default({ module_or_path: loaded[1] || base + "tcp_widgets_bg.wasm" }).then(function () {
        mod.mount_all();
      });
    })
    .catch(fail);
})();
