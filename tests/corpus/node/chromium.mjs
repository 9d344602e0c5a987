// @ts-check
// node tests/corpus/node/chromium.mjs <output folder>: section "chromium_stores" of the corpus
// (tests/corpus/README.md): the LevelDB stores Chromium itself writes, with the page's own reading
// of every record as the ground truth. Debian's Chromium (headless, driven by playwright-core)
// opens a page served on 127.0.0.1 with a persistent profile; the page (chromium-page.mjs, and
// chromium-page-read.mjs for its reading back) writes
// IndexedDB databases (LevelDB comparator "idb_cmp1"), localStorage and sessionStorage (bytewise):
//
// - start 1 writes a database and deletes it (Chromium compacts its range: a first table), writes
//   everything once, then overwrites one store until LevelDB's memtable is full
//   (a new log begins and the old one becomes a level-0 table);
// - start 2 reopens the profile (LevelDB recovers the first start's log), writes more, overwrites
//   until a table is written (reads then compact it into level 1), writes a few last records,
//   reads localStorage and sessionStorage, and overwrites until the memtable is full once more,
//   so that the copy holds tables on several levels and a live log with records;
// - the browser is closed, LevelDB having gone quiet, and the folders are copied (no LOCK held);
// - start 3 reads every IndexedDB record of the files just copied (sessionStorage belongs to
//   start 2's session, so start 2 read it).
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium"; // Debian's package, installed by scripts/setup.sh
const HERE = path.dirname(fileURLToPath(import.meta.url));
const SECTION = "chromium-stores";
const MAX_ROUNDS = 400; // of overwrites, waiting for a full memtable (4 MiB in Chromium)

const out = process.argv[2];
if (!out) {
  console.error("usage: node tests/corpus/node/chromium.mjs <output folder>");
  process.exit(2);
}

/** A failure the generator explains: its message is all that is printed. */
class Failure extends Error {}
process.on("uncaughtException", (error) => {
  console.error(`chromium.mjs: ${error instanceof Failure ? error.message : error.stack}`);
  process.exit(1);
});
// A page that never answers (a blocked IndexedDB open, say) must not hang the corpus build.
setTimeout(() => {
  console.error("chromium.mjs: the generator took over 5 minutes; stopping");
  process.exit(1);
}, 300_000).unref();

/** Stops with a message that says what went wrong (the cleanup of the profile runs first). @returns {never} */
function fail(/** @type {string} */ message) {
  throw new Failure(message);
}

if (!existsSync(CHROMIUM)) fail(`${CHROMIUM} is missing: install Debian's chromium (scripts/setup.sh)`);

// The page, from a server that listens on the loopback interface only.
const PAGE = `<!doctype html><meta charset="utf-8"><title>sstfilter corpus</title>
<script type="module" src="/page.mjs"></script>`;
// The page's modules: chromium-page.mjs writes and imports chromium-page-read.mjs, which reads.
/** @type {Record<string, string>} */
const MODULES = { "/page.mjs": "chromium-page.mjs", "/chromium-page-read.mjs": "chromium-page-read.mjs" };
const server = createServer((request, response) => {
  if (request.url === "/") {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(PAGE);
  } else if (request.url !== undefined && Object.hasOwn(MODULES, request.url)) {
    response.writeHead(200, { "content-type": "text/javascript; charset=utf-8" });
    response.end(readFileSync(path.join(HERE, MODULES[request.url])));
  } else {
    response.writeHead(404);
    response.end();
  }
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(undefined)));
const address = server.address();
if (!address || typeof address === "string") fail("the local server has no port");
const port = address.port;
const url = `http://127.0.0.1:${port}/`;
const origin = `http://127.0.0.1:${port}`;

const profile = mkdtempSync(path.join(tmpdir(), "sstfilter-chromium-profile-"));
const defaultDir = path.join(profile, "Default");
const sources = {
  indexeddb: path.join(defaultDir, "IndexedDB", `http_127.0.0.1_${port}.indexeddb.leveldb`),
  indexeddb_blob: path.join(defaultDir, "IndexedDB", `http_127.0.0.1_${port}.indexeddb.blob`),
  local_storage: path.join(defaultDir, "Local Storage", "leveldb"),
  session_storage: path.join(defaultDir, "Session Storage"),
};
/** @type {string[]} */
const outside = [];
/** @type {string[]} */
const pageErrors = [];

/** @typedef {(name: string, ...args: any[]) => Promise<any>} Run a call of a function the page defines */

/**
 * One browser start on the profile: opens the page, runs `body` (which calls the page's
 * functions), waits until LevelDB has gone quiet and closes the browser. Returns what `body`
 * returned and the browser's version.
 * @template T
 * @param {(run: Run) => Promise<T>} body
 * @returns {Promise<{ result: T, version: string }>}
 */
async function start(body) {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox", // root in CI
      "--disable-gpu",
      "--disable-dev-shm-usage", // containers' /dev/shm is often small
      "--disable-quic",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-breakpad",
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ],
  });
  try {
    context.on("request", (request) => {
      if (!request.url().startsWith(url)) outside.push(request.url());
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await page.goto(url);
    await page.waitForFunction(() => "readIndexedDB" in globalThis);
    /** @type {Run} */
    const run = (name, ...args) =>
      page.evaluate(({ f, a }) => /** @type {any} */ (globalThis)[f](...a), { f: name, a: args });
    const result = await body(run);
    await quiet();
    const version = context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent));
    return { result, version };
  } finally {
    await context.close();
  }
}

/** Names and sizes of the files of the stores' folders. */
const snapshot = () =>
  Object.values(sources)
    .filter((dir) => existsSync(dir))
    .map((dir) =>
      // A file may go (LevelDB deletes obsolete logs and tables) between the listing and its stat.
      files(dir).map((name) => `${name}:${statSync(path.join(dir, name), { throwIfNoEntry: false })?.size}`),
    )
    .join();

/** Waits until no store's files have changed for a second (a flush or compaction has ended). */
async function quiet() {
  let last = snapshot();
  for (let still = 0, waited = 0; still < 4 && waited < 60; waited++) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = snapshot();
    still = now === last ? still + 1 : 0;
    last = now;
  }
}

/** Every file under `dir`, relative to it, sorted. @returns {string[]} */
function files(/** @type {string} */ dir, prefix = "") {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? files(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
    )
    .sort();
}

/** The IndexedDB folder's log files. */
const logs = () =>
  existsSync(sources.indexeddb) ? readdirSync(sources.indexeddb).filter((name) => name.endsWith(".log")) : [];

let round = 0;
/**
 * Overwrites the page's "churn" store round after round until LevelDB begins a new log, which it
 * does when its memtable is full and goes to a level-0 table (Chromium sizes the memtable from
 * the disk, so the number of rounds may vary from machine to machine).
 * @param {Run} run
 */
async function churnUntilNewLog(run) {
  const before = new Set(logs());
  for (let i = 0; i < MAX_ROUNDS; i++) {
    await run("churn", round++);
    if (logs().some((name) => !before.has(name))) return;
  }
  fail(`LevelDB began no new log in ${sources.indexeddb} after ${MAX_ROUNDS} rounds of overwrites`);
}

const root = path.resolve(out);
const t0 = Date.now();
/** @type {Record<string, { path: string, files: { name: string, size: number }[] }>} */
const folders = {};
/** @type {any} */
let storage;
/** @type {any} */
let indexeddb;
let version = "";
try {
  await start(async (run) => {
    await run("doomed");
    await quiet(); // the compaction that follows the deletion flushes the memtable
    await run("start1");
    await churnUntilNewLog(run);
  });
  ({ result: storage } = await start(async (run) => {
    await run("start2");
    await churnUntilNewLog(run);
    await run("tail");
    const read = await run("readStorage");
    // Reads (IndexedDB's included) that pass a level-0 table without finding their key soon get
    // it compacted: the last full memtable comes after them, and nothing reads after it.
    await churnUntilNewLog(run);
    return read;
  }));

  for (const [what, dir] of Object.entries(sources))
    if (what !== "indexeddb_blob" && !existsSync(dir)) {
      const listing = existsSync(defaultDir) ? readdirSync(defaultDir).join(", ") : "(no Default folder)";
      fail(`Chromium wrote no ${dir} (the profile's Default folder holds: ${listing})`);
    }
  rmSync(path.join(root, SECTION), { recursive: true, force: true });
  mkdirSync(path.join(root, SECTION), { recursive: true });
  for (const [what, dir] of Object.entries(sources)) {
    if (!existsSync(dir)) continue;
    const target = `${SECTION}/${what.replace("_", "-")}`;
    const names = files(dir).filter((name) => name !== "LOCK");
    for (const name of names) cpSync(path.join(dir, name), path.join(root, target, name));
    folders[what] = {
      path: target,
      files: names.map((name) => ({ name, size: statSync(path.join(dir, name)).size })),
    };
  }

  ({ result: indexeddb, version } = await start((run) => run("readIndexedDB")));
} finally {
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
if (pageErrors.length) fail(`the page failed: ${pageErrors.join("; ")}`);
if (outside.length) fail(`the page requested URLs outside the local server: ${outside.join(", ")}`);
if (indexeddb.origin !== origin) fail(`the page's origin is ${indexeddb.origin}, not ${origin}`);
for (const what of ["indexeddb", "local_storage", "session_storage"])
  if (!folders[what]?.files.some((f) => f.name.startsWith("MANIFEST-")))
    fail(`the copy of ${what} holds no MANIFEST: ${JSON.stringify(folders[what]?.files)}`);
const idbFiles = folders.indexeddb.files;
if (
  !idbFiles.some((f) => f.name.endsWith(".ldb")) ||
  !idbFiles.some((f) => f.name.endsWith(".log") && f.size > 0)
)
  fail(`the IndexedDB copy lacks a table or a live log with records: ${JSON.stringify(idbFiles)}`);

const expected = {
  origin,
  user_agent: indexeddb.user_agent,
  indexeddb: indexeddb.indexeddb,
  local_storage: storage.local_storage,
  session_storage: storage.session_storage,
};
writeFileSync(path.join(root, SECTION, "expected.json"), JSON.stringify(expected));

/** @param {any[]} list @param {(x: any) => number} f */
const sum = (list, f) => list.reduce((n, x) => n + f(x), 0);
const stores = expected.indexeddb.flatMap((/** @type {any} */ db) => db.object_stores);
const counts = {
  databases: expected.indexeddb.length,
  object_stores: stores.length,
  records: sum(stores, (s) => s.count),
  indexes: sum(stores, (s) => s.indexes.length),
  index_entries: sum(stores, (s) => sum(s.indexes, (i) => i.count)),
  local_storage_items: expected.local_storage.length,
  session_storage_items: expected.session_storage.length,
  tables: folders.indexeddb.files.filter((f) => f.name.endsWith(".ldb")).length,
  blob_files: folders.indexeddb_blob?.files.length ?? 0,
};
const manifest = {
  format: "sstfilter-corpus/1",
  section: "chromium_stores",
  cases: [
    {
      id: "chromium_profile",
      chromium: { version, user_agent: expected.user_agent, executable: CHROMIUM },
      origin,
      comparators: {
        indexeddb: "idb_cmp1",
        local_storage: "leveldb.BytewiseComparator",
        session_storage: "leveldb.BytewiseComparator",
      },
      churn_rounds: round,
      folders,
      expected: `${SECTION}/expected.json`,
      counts,
    },
  ],
};
writeFileSync(path.join(root, SECTION, "manifest.json"), JSON.stringify(manifest, null, 1));
writeFileSync(
  path.join(root, "manifest.json"),
  JSON.stringify(
    {
      format: "sstfilter-corpus/1",
      generator: { tool: "tests/corpus/node/chromium.mjs", chromium: { version } },
      sections: { chromium_stores: { path: `${SECTION}/manifest.json`, cases: 1 } },
    },
    null,
    1,
  ),
);
console.log(
  `corpus-gen (chromium): Chromium ${version}: ${counts.records} records in ${counts.databases} databases, ` +
    `${counts.tables} tables, ${counts.local_storage_items} localStorage items, in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
);
