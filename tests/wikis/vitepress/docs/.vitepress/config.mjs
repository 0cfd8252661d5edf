// A small VitePress wiki that embeds the book's widgets, built by
// `cargo xtask check-wikis` and checked by tests/wikis.test.mjs.
// http://book.invalid/ stands for the book's address: the test's server
// replaces it with the book server's (another origin), in every text file,
// since VitePress compiles each page into a JS chunk as well as its HTML.
import { defineConfig } from "vitepress";

const BOOK = "http://book.invalid/";

export default defineConfig({
  title: "Team wiki (VitePress)",
  // Scripts go in the config's head, not in the Markdown: Vue templates may
  // not hold <script>, and head entries stay across client-side navigation.
  head: [
    ["script", { src: `${BOOK}embed/tcp-widget.js` }],
    // (a) the frames' resizer, passing VitePress's dark mode on to the frames.
    ["script", { src: `${BOOK}embed/tcp-widget-frames.js`, "data-dark-when": "html.dark" }],
  ],
  vue: {
    template: {
      // Leave <tcp-widget> to the browser's custom element registry instead
      // of resolving it as a Vue component (which warns, then renders nothing).
      compilerOptions: { isCustomElement: (tag) => tag === "tcp-widget" },
    },
  },
  themeConfig: {
    nav: [
      { text: "Home", link: "/" },
      { text: "Element", link: "/element" },
      { text: "Iframe", link: "/iframe" },
    ],
  },
});
