// `embed/tcp-widget-frames.js`, for the page that holds widget iframes:
// sizes each frame to the height its widget reports, and tells the frames
// the page's colour scheme when the page has a dark-mode switch of its own.
//
//   <script src=".../embed/tcp-widget-frames.js"
//           data-dark-when="body[data-md-color-scheme=slate]"></script>
//
// `data-dark-when` / `data-light-when` are CSS selectors that match while the
// page is dark / light (as on <tcp-widget>); with neither, frames follow the
// reader's system. Loading it twice installs it once.
(function () {
  "use strict";
  if (window.tcpWidgetFramesInstalled === true) return;
  window.tcpWidgetFramesInstalled = true;

  // A widget is never this short once mounted: a smaller figure is a frame
  // still laying itself out, and would collapse the frame.
  var MIN_HEIGHT = 200;
  var MAX_HEIGHT = 10000;

  var script = document.currentScript;
  var darkWhen = script && script.getAttribute("data-dark-when");
  var lightWhen = script && script.getAttribute("data-light-when");
  // The windows of frames that have reported: the only ones told the scheme.
  var widgets = [];

  function frameOf(source) {
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === source) return frames[i];
    }
    return null;
  }

  function matches(selector) {
    if (!selector) return false;
    try {
      return document.querySelector(selector) !== null;
    } catch (err) {
      console.warn("tcp-widget-frames: not a CSS selector: " + selector);
      return false;
    }
  }

  function scheme() {
    if (matches(darkWhen)) return "dark";
    if (matches(lightWhen)) return "light";
    return "auto";
  }

  function tell(win) {
    win.postMessage({ type: "tcp-widget:theme", theme: scheme() }, "*");
  }

  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || data.type !== "tcp-widget:height") return;
    var frame = frameOf(event.source);
    var height = Number(data.height);
    if (!frame || !(height >= MIN_HEIGHT)) return;
    // Where the page sizes frames by their border box, their border comes on top.
    var border = getComputedStyle(frame).boxSizing === "border-box" ? frame.offsetHeight - frame.clientHeight : 0;
    frame.style.height = Math.min(height, MAX_HEIGHT) + Math.max(border, 0) + "px";
    if (widgets.indexOf(event.source) < 0) {
      widgets.push(event.source);
      if (darkWhen || lightWhen) tell(event.source);
    }
  });

  if (darkWhen || lightWhen) {
    var last = null;
    var watch = new MutationObserver(function () {
      var now = scheme();
      if (now === last) return;
      last = now;
      // Frames a wiki has taken off the page have no window any more.
      widgets = widgets.filter(function (w) {
        return frameOf(w) !== null;
      });
      widgets.forEach(tell);
    });
    var start = function () {
      last = scheme();
      [document.documentElement, document.body].forEach(function (node) {
        if (node) watch.observe(node, { attributes: true });
      });
    };
    if (document.body) start();
    else document.addEventListener("DOMContentLoaded", start);
  }
})();
