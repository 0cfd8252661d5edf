// A tiny static file server for the built book, on 127.0.0.1 and a free port.
// Only what the tests need: correct MIME types (wasm must be application/wasm
// for streaming compilation), index.html for directories, 404 otherwise.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".ttf": "font/ttf",
  ".txt": "text/plain; charset=utf-8",
};

/// `replace`: text substitutions applied to HTML files (the fixture pages'
/// `@BOOK@`, the book's address on its own origin). `replaceIn`: the file
/// extensions they apply to, for sites that also compile such addresses into
/// their scripts (a VitePress page is a JS chunk too). `replace` is read on
/// each request, so entries may be added once the server's own address is known.
export async function serveBook(root, { replace = {}, replaceIn = [".html"] } = {}) {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, "http://127.0.0.1");
      let path = normalize(join(root, decodeURIComponent(url.pathname)));
      if (!path.startsWith(normalize(root + sep)) && path !== normalize(root)) {
        res.writeHead(403).end();
        return;
      }
      const info = await stat(path).catch(() => null);
      if (info && info.isDirectory()) path = join(path, "index.html");
      let body = await readFile(path);
      if (replaceIn.includes(extname(path))) {
        let text = body.toString("utf8");
        for (const [from, to] of Object.entries(replace)) text = text.replaceAll(from, to);
        body = Buffer.from(text);
      }
      res.writeHead(200, { "content-type": TYPES[extname(path)] || "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) };
}
