// @ts-check
// Serves the SST viewer (demo/) and the built package (dist/) on localhost. Nothing is fetched
// from outside the machine. Usage: node demo/serve.mjs [--port N]   (default 8080; 0 picks a free
// port). Prints "sstfilter demo: <url>" once listening.
//
// The page loads dist/ as it is, without a bundler: the package has no runtime dependencies (the
// codecs are compiled into its wasm modules).
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const portArg = process.argv.indexOf("--port");
const port = portArg >= 0 ? Number(process.argv[portArg + 1]) : Number(process.env.PORT ?? 8080);

/** @type {Record<string, string>} */
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".map": "application/json",
  ".png": "image/png",
};

// Only these folders are served: the page itself and the built package.
const servedRoots = ["demo", "dist"];
const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? "/", "http://localhost");
    let path = decodeURIComponent(url.pathname);
    if (path === "/") {
      res.writeHead(302, { location: "/demo/" });
      res.end();
      return;
    }
    if (path.endsWith("/")) path += "index.html";
    const file = normalize(join(root, path));
    const allowed = servedRoots.some((dir) => file.startsWith(join(root, dir) + sep));
    if (!allowed || !(await stat(file)).isFile()) throw new Error("not found");
    const type = types[extname(file)] ?? "application/octet-stream";
    const body = await readFile(file);
    res.writeHead(200, { "content-type": type, "cache-control": "no-cache" });
    res.end(body);
  } catch {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
  }
});

server.listen(port, "127.0.0.1", () => {
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  console.log(`sstfilter demo: http://127.0.0.1:${address.port}/demo/`);
});
