// Loads the widget bundle once per page, only on pages that have a widget, and
// mounts the placeholders the mdbook-widgets preprocessor wrote as the reader
// comes to them. mdBook defines `path_to_root` before this script runs.
//
// A chapter has up to eleven widgets, and each simulates its run when it
// mounts: mounting them all at load made a page interactive only after all
// of them had simulated. So a widget mounts when it comes into view; one
// near the viewport (a screen above or below) mounts once no other widget is
// still simulating, one at a time, so that it never slows the one the reader
// is looking at. A widget that a link's query string sets (`?id.key=value`)
// is queued first. Until its live run is in, a widget shows its build-time
// figure (`tw-pending`, see figures.css).
(function () {
  "use strict";
  var placeholders = Array.prototype.slice.call(document.querySelectorAll(".tcp-widget[data-widget]"));
  if (placeholders.length === 0) return;
  // print.html repeats every chapter to be printed: it shows each widget's
  // build-time figure, and running every simulation there would only delay
  // the printout.
  if (/(^|\/)print\.html$/.test(location.pathname)) {
    document.querySelectorAll(".tcp-widget-loading").forEach(function (p) {
      p.remove();
    });
    // The figures load as they come into view on a chapter's page; a
    // printout needs them all.
    var figures = Array.prototype.slice.call(document.querySelectorAll(".tw-static img"));
    figures.forEach(function (img) {
      img.loading = "eager";
    });
    // mdBook prints 100 ms after the window's load event, which need not wait
    // for a figure switched from lazy to eager (on a busy machine a third of
    // them were still loading): print once every figure is in.
    var print = window.print;
    window.print = function () {
      Promise.all(
        figures.map(function (img) {
          return img.complete ? 0 : new Promise(function (done) {
            img.addEventListener("load", done);
            img.addEventListener("error", done);
          });
        }),
      ).then(function () {
        print.call(window);
      });
    };
    return;
  }
  var root = typeof path_to_root === "string" ? path_to_root : "";
  // The bundle is the embeddable one (embed/tcp-widget.js): one copy of the
  // code and the wasm for the book and for embedding.
  var src = new URL(root + "embed/tcp-widget.js", document.baseURI).href;

  // The bundle's `why` names the cause (the page's policy, a failed fetch,
  // no WebAssembly); without the bundle, its script did not load. A task
  // later: a policy's violation event may come after the error it caused.
  function fail(err) {
    console.warn("tcp-widgets:", err);
    setTimeout(function () {
      var cause = window.tcpWidgets ? window.tcpWidgets.why(err) : err.message;
      placeholders.forEach(function (el) {
        if (el.hasAttribute("data-mounted")) return;
        // "Loading…" no longer holds; a prediction widget's note still does.
        var loading = el.querySelector(".tcp-widget-loading:not(.tw-predict-note)");
        if (loading) loading.remove();
        el.classList.add("tw-error");
        var p = document.createElement("p");
        p.className = "tw-load-error";
        p.textContent = "This simulation could not start: " + cause + "." +
          (el.querySelector(".tw-static") ? " The figure shows its starting state." : "");
        el.appendChild(p);
      });
    });
  }

  /// Mounts the widgets as they come into view (see the top of this file).
  function mountLazily(widgets) {
    var queue = []; // placeholders waiting for their turn (see `order`)
    var linked = []; // placeholders a link's query string sets
    var simulating = 0; // mounted widgets whose first run is not in yet
    var seen, near;

    // Whether a widget's first run is in: its `tw-interactive` mark, or the
    // error it shows instead of a run (a setting over the budget).
    function isLive(el) {
      // A placeholder without an id is mounted as "<widget>-1" (mount.rs).
      var id = el.id || el.getAttribute("data-widget") + "-1";
      return performance.getEntriesByName("tw-interactive:" + id).length > 0 ||
        el.querySelector('.tw-live [role="alert"]') !== null;
    }

    function mount(el) {
      if (el.hasAttribute("data-mounted")) return;
      seen.unobserve(el);
      near.unobserve(el);
      var at = queue.indexOf(el);
      if (at >= 0) queue.splice(at, 1);
      el.classList.add("tw-pending");
      if (!widgets.mount(el)) {
        el.classList.remove("tw-pending");
        return;
      }
      var note = document.createElement("p");
      note.className = "tcp-widget-loading";
      note.textContent = "Simulating the interactive version…";
      // Above the figure, where a reader who has just reached it looks.
      el.insertBefore(note, el.querySelector(".tw-static") || el.querySelector(".tw-live"));
      simulating++;
      // The widget re-renders as its run progresses and once more when it
      // is in: each change is a chance to see whether it is live.
      var watch = new MutationObserver(check);
      function check() {
        if (!isLive(el)) return;
        watch.disconnect();
        note.remove();
        el.classList.remove("tw-pending");
        simulating--;
        next();
      }
      watch.observe(el, { childList: true, subtree: true, attributes: true });
      check();
    }

    // The next queued widget, once none is simulating.
    function next() {
      while (simulating === 0 && queue.length > 0) mount(queue.shift());
    }

    // Linked widgets first, then page order.
    function order(el) {
      return (linked.indexOf(el) >= 0 ? 0 : placeholders.length) + placeholders.indexOf(el);
    }

    function enqueue(el) {
      if (el.hasAttribute("data-mounted") || queue.indexOf(el) >= 0) return;
      queue.push(el);
      queue.sort(function (a, b) {
        return order(a) - order(b);
      });
    }

    if (!("IntersectionObserver" in window)) {
      widgets.mount_all();
      return;
    }
    seen = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting) mount(e.target);
      });
    });
    near = new IntersectionObserver(
      function (entries) {
        entries.forEach(function (e) {
          if (e.isIntersecting) enqueue(e.target);
        });
        next();
      },
      { rootMargin: "100% 0px" },
    );
    // A link that carries a widget's state (`?slow-start-5.rtt=60ms`) is
    // about that widget: it goes to the front of the queue.
    new URLSearchParams(location.search).forEach(function (_, key) {
      var id = key.split(".")[0];
      var el = id && document.getElementById(id);
      if (el && placeholders.indexOf(el) >= 0 && linked.indexOf(el) < 0) linked.push(el);
    });
    placeholders.forEach(function (el) {
      seen.observe(el);
      near.observe(el);
    });
    queue = linked.slice();
    next();
  }

  var script = document.createElement("script");
  script.src = src;
  script.onload = function () {
    window.tcpWidgets
      .load()
      .then(mountLazily)
      .catch(fail);
  };
  script.onerror = function () {
    fail(new Error("could not load " + src));
  };
  document.head.appendChild(script);
})();
