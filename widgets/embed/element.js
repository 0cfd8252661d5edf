// <tcp-widget name="slow-start" rtt="7ms"></tcp-widget>: one of the book's
// simulations on any page. `cargo xtask build` assembles this file into
// `embed/tcp-widget.js` with the widget stylesheet and wasm-bindgen's glue
// (marked below). The book's pages load it too, to mount their placeholders.
//
// The widget lives in a shadow root: the page's styles do not reach it and its
// styles do not leak out. Attributes are copied as `data-*` attributes onto
// the placeholder the widget bundle reads, where each value is checked like
// slider input; nothing from them is ever inserted as HTML or run.
(function () {
  "use strict";
  if (window.tcpWidgets) return; // loaded twice on one page

  var CSS = /*@CSS@*/"";
  var glue = function () {
    /*@GLUE@*/
    return wasm_bindgen;
  };

  var script = document.currentScript;
  var here = script && script.src ? script.src : document.baseURI;
  var wasmUrl = new URL("tcp_widgets_bg.wasm", here).href;
  // Attributes that are the element's own, not the widget's.
  var OWN = ["name", "id", "class", "style", "hidden", "title", "lang", "dir", "slot", "tabindex"];

  var bundle = null;
  // The wasm-bindgen module, initialised once per page; the book's own loader
  // (theme/widgets-loader.js) uses it too, through `window.tcpWidgets`.
  function load() {
    if (bundle === null) {
      var wasm_bindgen = glue();
      bundle = wasmSource().then(function (module_or_path) {
        return wasm_bindgen({ module_or_path: module_or_path }).then(function () {
          return wasm_bindgen;
        });
      });
    }
    return bundle;
  }

  // Where the wasm comes from:
  // - inline in the page (the self-contained files);
  // - from a classic script beside this one when this script came from
  //   another origin (a wiki page loading it from the book's host: fetching
  //   the .wasm would need the host to send CORS headers, a classic script
  //   does not) or from disk (Chromium will not fetch a .wasm on file://);
  // - otherwise fetched and compiled as it streams, or already being
  //   compiled by the book page (PRELOAD in widgets/preprocessor/src/render.rs).
  function wasmSource() {
    if (typeof window.tcpWidgetsWasmGzip === "string") return gunzip(window.tcpWidgetsWasmGzip);
    if (location.protocol === "file:" || new URL(here).origin !== location.origin) {
      return classicScript(new URL("tcp_widgets_wasm.js", here).href).then(function () {
        return gunzip(window.tcpWidgetsWasmGzip);
      });
    }
    return Promise.resolve(window.tcpWidgetsWasm).then(function (compiled) {
      return compiled || wasmUrl;
    });
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

  window.tcpWidgets = { load: load };

  var count = 0;

  class TcpWidget extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      var shadow = this.attachShadow({ mode: "open" });
      var style = document.createElement("style");
      style.textContent = CSS;
      shadow.appendChild(style);
      var holder = document.createElement("div");
      holder.className = "tcp-widget";
      var name = this.getAttribute("name") || "";
      holder.setAttribute("data-widget", name);
      count += 1;
      // The id keys the widget's state in the page URL; keep it tame.
      var id = (this.id || name + "-" + count).replace(/[^A-Za-z0-9_-]/g, "").slice(0, 64) || "widget-" + count;
      holder.id = id;
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
      load().then(
        function (w) {
          w.mount(holder);
        },
        function (err) {
          holder.classList.add("tw-error");
          holder.textContent = "This simulation could not start: " + (err && err.message ? err.message : err) +
            ". It needs a browser with WebAssembly.";
        },
      );
    }
  }
  if (window.customElements) customElements.define("tcp-widget", TcpWidget);
})();
