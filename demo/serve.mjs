// @ts-check
// Serves the SST viewer (demo/) and the built package (dist/) on localhost. Nothing is fetched
// from outside the machine. Usage: node demo/serve.mjs [--port N]   (default 8080; 0 picks a free
// port). Prints "sstfilter demo: <url>" once listening.
//
// The page loads dist/ as it is, without a bundler. dist/ imports its npm dependencies (the block
// codecs) by bare name, which browsers cannot resolve: this server rewrites those imports to
// /vendor/<name>, serving a package's ES module build where it has one and wrapping CommonJS
// packages into an ES module otherwise.
import { createServer } from "node:http";
import { readFile, readdir, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const modules = join(root, "node_modules");
const require = createRequire(join(root, "package.json"));
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
// The npm dependencies the package imports, the only ones /vendor/ serves.
const dependencies = Object.keys(
  JSON.parse(await readFile(join(root, "package.json"), "utf8")).dependencies ?? {},
);

const BARE_IMPORT = /(\bfrom\s*|\bimport\s*\(\s*)"([^"./][^"]*)"/g;

/** @param {string} source */
function rewriteBareImports(source) {
  return source.replace(BARE_IMPORT, (_, keyword, name) => `${keyword}"/vendor/${name}"`);
}

/**
 * An ES module running a CommonJS package's top-level files, re-exporting its exports by name.
 * @param {string} name
 * @param {string} dir
 */
async function wrapCommonJs(name, dir) {
  const main = (JSON.parse(await readFile(join(dir, "package.json"), "utf8")).main ?? "index.js").replace(
    /^\.\//,
    "",
  );
  const files = (await readdir(dir)).filter((f) => f.endsWith(".js"));
  const sources = await Promise.all(
    files.map(
      async (f) =>
        `${JSON.stringify(f)}: function (module, exports, require) {\n${await readFile(join(dir, f), "utf8")}\n}`,
    ),
  );
  const names = Object.keys(require(name)).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n));
  return `// ${name} (CommonJS), wrapped by demo/serve.mjs
const sources = {${sources.join(",\n")}};
const cache = {};
function load(path) {
  let file = path.replace(/^\\.\\//, "");
  if (!file.endsWith(".js")) file += ".js";
  if (!cache[file]) {
    const module = { exports: {} };
    cache[file] = module;
    sources[file](module, module.exports, load);
  }
  return cache[file].exports;
}
const main = load(${JSON.stringify(main)});
export default main;
export const { ${names.join(", ")} } = main;
`;
}

/**
 * /vendor/<package>[/<file>]: a dependency's ES module entry (or files), or its CommonJS wrapper.
 * @param {string} path
 * @param {import("node:http").ServerResponse} res
 */
async function vendor(path, res) {
  const [name, ...rest] = path.split("/");
  if (!dependencies.includes(name)) throw new Error("not found");
  const dir = join(modules, name);
  const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
  if (rest.length === 0 && pkg.module === undefined) {
    res.writeHead(200, { "content-type": types[".js"] });
    res.end(await wrapCommonJs(name, dir));
    return;
  }
  if (rest.length === 0) {
    // Relative imports inside the package resolve against the entry's own URL.
    res.writeHead(302, { location: `/vendor/${name}/${pkg.module.replace(/^\.\//, "")}` });
    res.end();
    return;
  }
  const file = normalize(join(dir, ...rest));
  if (!file.startsWith(dir + sep)) throw new Error("not found");
  res.writeHead(200, { "content-type": types[extname(file)] ?? "text/javascript; charset=utf-8" });
  res.end(await readFile(file));
}

const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? "/", "http://localhost");
    let path = decodeURIComponent(url.pathname);
    if (path === "/") {
      res.writeHead(302, { location: "/demo/" });
      res.end();
      return;
    }
    if (path.startsWith("/vendor/")) {
      await vendor(path.slice("/vendor/".length), res);
      return;
    }
    if (path.endsWith("/")) path += "index.html";
    const file = normalize(join(root, path));
    const allowed = servedRoots.some((dir) => file.startsWith(join(root, dir) + sep));
    if (!allowed || !(await stat(file)).isFile()) throw new Error("not found");
    const type = types[extname(file)] ?? "application/octet-stream";
    /** @type {Buffer | string} */
    let body = await readFile(file);
    if (file.startsWith(join(root, "dist") + sep) && extname(file) === ".js") {
      body = rewriteBareImports(body.toString("utf8"));
    }
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
