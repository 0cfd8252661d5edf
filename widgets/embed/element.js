// <tcp-widget name="slow-start" rtt="7ms"></tcp-widget>: one of the book's
// simulations on any page. `cargo xtask build` assembles this file into
// `embed/tcp-widget.js` with the widget stylesheet and wasm-bindgen's glue
// (marked below). The book's pages load it too, to mount their placeholders.
//
// The widget lives in a shadow root: the page's styles do not reach it and its
// styles do not leak out. Attributes are copied as `data-*` attributes onto
// the placeholder the widget bundle reads, where each value is checked like
// slider input; nothing from them is ever inserted as HTML or run.
//
// Wikis that swap pages without reloading (MkDocs Material's instant
// navigation, VitePress) remove the element while the page lives on: the
// widget is then unmounted (its app destroyed, its frames and observers
// gone) and mounted afresh if the element comes back. A move (removed and
// inserted again in one task) keeps it as it is.
(function () {
  "use strict";
  if (window.tcpWidgets) return; // loaded twice on one page

  // embed.css: the shadow root's own rules (the host's styles stop there,
  // the colour variables). The widgets' stylesheet proper comes from
  // `widgetsStyles`, so a book page, which has it already, does not load it
  // twice inside this script.
  var CSS = /*@CSS@*/"";
  var glue = function () {
    /*@GLUE@*/
    return wasm_bindgen;
  };

  // What this script's neighbours are resolved against. Only when one is
  // needed: a self-contained file needs none, and it may be shown from a
  // document whose URL nothing resolves against (`<iframe srcdoc>`'s
  // about:srcdoc, a blob: URL), where resolving it at load threw.
  var script = document.currentScript;
  var here = script && script.src ? script.src : document.baseURI;
  // Attributes that are the element's own, not the widget's.
  var OWN = ["name", "id", "class", "style", "hidden", "title", "lang", "dir", "slot", "tabindex"];

  // Why a simulation could not start, said so that the page's author can fix
  // it: the page's Content Security Policy (its violation event, or the
  // compile error that names it), a fetch that failed, a browser without
  // WebAssembly; else the error's own words ("could not load URL", an HTTP
  // status).
  var blocked = null;
  var wasmUrl = "";
  // Only the policy's refusals of this bundle: its files (a cross-origin
  // address is reported as its origin alone) or compiling WebAssembly.
  var dir = here.slice(0, here.lastIndexOf("/") + 1);
  document.addEventListener("securitypolicyviolation", function (e) {
    var uri = e.blockedURI;
    if (uri === "wasm-eval" || (uri && (here.indexOf(uri) === 0 || uri.indexOf(dir) === 0))) blocked = blocked || e;
  });
  function why(err) {
    var said = String((err && err.message) || err);
    if (typeof WebAssembly !== "object") return "this browser has no WebAssembly";
    if (blocked || /Content.Security.Policy/i.test(said)) {
      // script-src-elem falls back to script-src, the one a policy names.
      var rule = blocked ? blocked.effectiveDirective.replace("-elem", "") : "script-src";
      var what = blocked ? blocked.blockedURI : "wasm-eval";
      return "the page's Content Security Policy (" + rule + ") blocked " +
        (what === "wasm-eval" ? "WebAssembly: its script-src needs 'wasm-unsafe-eval'" : what + ": its " + rule + " needs that address") +
        ", or embed the widget as an iframe";
    }
    if (err instanceof TypeError && wasmUrl) {
      return "the browser could not fetch " + wasmUrl + " (offline, or blocked: from another origin it needs CORS headers)";
    }
    return said;
  }

  var bundle = null;
  // The wasm-bindgen module, initialised once per page, with the widgets'
  // words beside it; the book's own loader (theme/widgets-loader.js) uses
  // it too, through `window.tcpWidgets`.
  function load() {
    if (bundle === null) {
      var wasm_bindgen = glue();
      var wasm = wasmSource().then(function (module_or_path) {
        return wasm_bindgen({ module_or_path: module_or_path });
      });
      bundle = Promise.all([wasm, words()]).then(function () {
        return wasm_bindgen;
      });
    }
    return bundle;
  }

  // The widgets' words (titles, help, preset notes, view names:
  // `kit/page_text.rs`), never in the wasm: one route for every page, a
  // classic script beside this one, `tcp-widget-words.LANG.js`, which sets
  // `window.tcpWidgetWords` (a self-contained file has it inline). A
  // classic script, not a fetch, so it loads from disk and from another
  // origin alike. The language is the loading script's `data-lang`, else
  // English. Without the words a widget still runs, with its internal names
  // and a console warning; so a failed load does not stop it.
  function words() {
    if (window.tcpWidgetWords) return Promise.resolve();
    var lang = (script && script.getAttribute("data-lang")) || "en";
    lang = lang.replace(/[^A-Za-z-]/g, "") || "en";
    return classicScript(new URL("tcp-widget-words." + lang + ".js", here).href).catch(function (err) {
      console.warn("tcp-widget: " + err.message);
    });
  }

  // Where the wasm comes from:
  // - inline in the page (the self-contained files);
  // - from a classic script beside this one when this script came from
  //   another origin than the document's (a wiki page loading it from the
  //   book's host, or a sandboxed frame of the book's own page: fetching
  //   the .wasm would need the host to send CORS headers, a classic script
  //   does not) or from disk (Chromium will not fetch a .wasm on file://);
  // - otherwise fetched and compiled as it streams, or already being
  //   compiled by the book page (PRELOAD in widgets/preprocessor/src/render.rs).
  function wasmSource() {
    if (typeof window.tcpWidgetsWasmGzip === "string") return gunzip(window.tcpWidgetsWasmGzip);
    // `self.origin`, the document's origin, not its URL's: a sandboxed frame
    // has an opaque one ("null"), and fetching from there is cross-origin.
    if (location.protocol === "file:" || new URL(here).origin !== self.origin) {
      return classicScript(new URL("tcp_widgets_wasm.js", here).href).then(function () {
        return gunzip(window.tcpWidgetsWasmGzip);
      });
    }
    return Promise.resolve(window.tcpWidgetsWasm).then(function (compiled) {
      return compiled || (wasmUrl = new URL("tcp_widgets_bg.wasm", here).href);
    });
  }

  // The widgets' stylesheet for a shadow root: the page's own copy on the
  // book's pages (mdBook links it as theme/widgets-HASH.css, and a second
  // link to it costs nothing), the copy inline in a self-contained file
  // (window.tcpWidgetsCss), or tcp-widget.css beside this script.
  function widgetsStyles() {
    if (typeof window.tcpWidgetsCss === "string") {
      var style = document.createElement("style");
      style.textContent = window.tcpWidgetsCss;
      return style;
    }
    var link = document.createElement("link");
    link.rel = "stylesheet";
    var book = document.querySelector('link[rel="stylesheet"][href*="theme/widgets-"]');
    link.href = book ? book.href : new URL("tcp-widget.css", here).href;
    return link;
  }

  function classicScript(src) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = function () {
        reject(new Error("could not load " + src));
      };
      document.head.appendChild(s);
    });
  }

  // base64 of gzip -> the wasm bytes, without fetch.
  function gunzip(base64) {
    var text = atob(base64);
    var bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).arrayBuffer();
  }

  window.tcpWidgets = { load: load, why: why };

  // The widget's colour scheme: the `theme` attribute ("light", "dark"), else
  // the host page's own switch, named by a CSS selector that matches while
  // the page is dark (`dark-when="body[data-md-color-scheme=slate]"`) or
  // light (`light-when`), else the reader's system (the stylesheet's
  // prefers-color-scheme rule). The widget redraws when it changes.
  function scheme(el) {
    var theme = el.getAttribute("theme");
    if (theme === "dark" || theme === "light") return theme;
    if (pageMatches(el, "dark-when")) return "dark";
    if (pageMatches(el, "light-when")) return "light";
    return "";
  }

  function pageMatches(el, attribute) {
    var selector = el.getAttribute(attribute);
    if (!selector) return false;
    try {
      return document.querySelector(selector) !== null;
    } catch (err) {
      console.warn("tcp-widget: " + attribute + " is not a CSS selector: " + selector);
      return false;
    }
  }

  // One observer of <html> and <body> attributes for all the widgets that
  // follow the page's switch, disconnected when none is left.
  var following = new Set();
  var pageWatch = null;
  function follow(el, on) {
    if (on) following.add(el);
    else following.delete(el);
    if (following.size > 0 && pageWatch === null) {
      pageWatch = new MutationObserver(function () {
        following.forEach(function (w) {
          w._applyScheme();
        });
      });
      [document.documentElement, document.body].forEach(function (node) {
        if (node) pageWatch.observe(node, { attributes: true });
      });
    } else if (following.size === 0 && pageWatch !== null) {
      pageWatch.disconnect();
      pageWatch = null;
    }
  }

  // The default id keys the widget's state in the page URL: the element's
  // place among the widgets of its kind on the page ("slow-start-2"), so that
  // it is the same on every visit, in a reload and after client-side navigation.
  function defaultId(el, name) {
    var same = document.getElementsByTagName("tcp-widget");
    var n = 0;
    for (var i = 0; i < same.length; i++) {
      if ((same[i].getAttribute("name") || "") === name) n += 1;
      if (same[i] === el) break;
    }
    return name + "-" + Math.max(n, 1);
  }

  class TcpWidget extends HTMLElement {
    static get observedAttributes() {
      return ["theme", "dark-when", "light-when", "answered"];
    }

    connectedCallback() {
      if (!this._holder) this._build();
      this._applyScheme();
      follow(this, this.hasAttribute("dark-when") || this.hasAttribute("light-when"));
      this._mount();
    }

    // Deferred by a microtask: an element moved elsewhere on the page is
    // connected again by then and keeps its widget.
    disconnectedCallback() {
      var self = this;
      queueMicrotask(function () {
        if (!self.isConnected) self._unmount();
      });
    }

    attributeChangedCallback(name, old, value) {
      if (!this._holder || !this.isConnected) return;
      // A predict widget's answer, set by the page after the build: the
      // widget watches its placeholder for it.
      if (name === "answered") {
        if (value === null) this._holder.removeAttribute("data-answered");
        else this._holder.setAttribute("data-answered", value);
        return;
      }
      this._applyScheme();
      follow(this, this.hasAttribute("dark-when") || this.hasAttribute("light-when"));
    }

    _build() {
      var shadow = this.shadowRoot || this.attachShadow({ mode: "open" });
      shadow.appendChild(widgetsStyles());
      var style = document.createElement("style");
      style.textContent = CSS;
      shadow.appendChild(style);
      var holder = document.createElement("div");
      holder.className = "tcp-widget";
      var name = this.getAttribute("name") || "";
      holder.setAttribute("data-widget", name);
      // Kept tame: the id is part of URL keys.
      var id = (this.id || defaultId(this, name)).replace(/[^A-Za-z0-9_-]/g, "").slice(0, 64);
      holder.id = id || "widget-1";
      for (var i = 0; i < this.attributes.length; i++) {
        var a = this.attributes[i];
        if (OWN.indexOf(a.name) >= 0 || !/^[a-z][a-z0-9-]*$/.test(a.name)) continue;
        holder.setAttribute("data-" + a.name, a.value);
      }
      var loading = document.createElement("p");
      loading.className = "tcp-widget-loading";
      loading.textContent = "Loading the simulation…";
      holder.appendChild(loading);
      shadow.appendChild(holder);
      this._holder = holder;
    }

    _applyScheme() {
      var s = scheme(this);
      if (s) this._holder.setAttribute("data-scheme", s);
      else this._holder.removeAttribute("data-scheme");
    }

    _mount() {
      var self = this;
      var holder = this._holder;
      load().then(
        function (w) {
          if (!self.isConnected || holder.hasAttribute("data-mounted")) return;
          w.mount(holder);
          // The iframe page (frame.js) reports its height from here on.
          self.dispatchEvent(new CustomEvent("tcp-widget:mounted"));
        },
        function (err) {
          // A task later: the policy's violation event may come after the
          // error it caused.
          setTimeout(function () {
            holder.classList.add("tw-error");
            holder.textContent = "This simulation could not start: " + why(err) + ".";
          });
        },
      );
    }

    _unmount() {
      follow(this, false);
      var self = this;
      if (bundle === null) return;
      bundle.then(function (w) {
        if (!self.isConnected) w.unmount(self._holder);
      }, function () {});
    }
  }
  if (window.customElements) customElements.define("tcp-widget", TcpWidget);
})();
