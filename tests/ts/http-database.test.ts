// Databases opened where they lie (issue 32): a local node:http server serves corpus database
// folders with Range support, and sf.openDatabaseFrom(url) finds the files from CURRENT and the
// MANIFEST (ts/api/http-database-source.ts). For every probe of every case db.get and db.explainGet
// equal the folder-opened database's, and so do `db inspect --json`'s listing (live files per level,
// WALs, OPTIONS) and the CLI's `db get` over the URL. A server that ignores Range is
// RANGE_NOT_SUPPORTED; a Get's requests are counted and bounded by the files it reads.
import { execFile, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { promisify } from "node:util";

import type { Database, NodeSstFilter } from "sstfilter";

// The CommonJS package holds only what the Node entry imports; the listing's modules are taken from source.
import { databaseJson } from "../../ts/tools/db-inspect";
import { walAndOptions } from "../../ts/tools/db-wal";
import { CLI } from "./cli-path";
import { FIXTURES, GENERATED, libraryGetCases, parseKeys, sectionCases } from "./golden";
import { answerRange } from "./range-response";

interface TestServer {
  /** The URL of `dir` (a folder path on this machine), ending in "/". */
  url(dir: string): string;
  requests: number;
  honoursRange: boolean;
  server: Server;
}

/** A server of this machine's files: the URL path is the file's absolute path; 404 where none. */
async function startServer(): Promise<TestServer> {
  const state = { requests: 0, honoursRange: true };
  const server = createServer((request, response) => {
    state.requests++;
    const file = decodeURIComponent(new URL(request.url!, "http://x").pathname);
    if (!existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    const bytes = readFileSync(file);
    // An empty file has no first byte to send: 416, as RFC 9110 15.5.17 has a server answer.
    if (bytes.length === 0 && state.honoursRange && request.headers.range !== undefined) {
      response.writeHead(416, { "content-range": "bytes */0" }).end();
      return;
    }
    answerRange(request, response, bytes, state.honoursRange);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = (dir: string): string => `http://127.0.0.1:${port}${encodeURI(path.resolve(dir))}/`;
  return Object.assign(state, { server, url });
}

interface DbCase {
  name: string;
  format: "rocksdb" | "leveldb";
  dir: string;
  probes: Uint8Array[];
}

const encoder = new TextEncoder();
/** The committed RocksDB 11 database with three live WALs, whose OPTIONS file is numbered below
 * the MANIFEST's next file number: its keys, and each with a byte added (absent). */
const WAL_CHAIN = FIXTURES.path("v11-db/wal-chain");
const walChainKeys = (): Uint8Array[] =>
  Array.from({ length: 40 }, (_, i) => encoder.encode(`key${String(i).padStart(3, "0")}`)).flatMap((k) => [
    k,
    Uint8Array.of(...k, 0x21),
  ]);

// LevelDB (classic-level) and RocksDB 10 (rocksdb-native) from the node corpus, db_bench's
// database (RocksDB 7.8.3: levels 0 to 2, range deletions, merges, two WALs, one of them empty)
// and RocksDB 11's wal-chain fixture.
const CASES: DbCase[] = [
  { name: "fixtures:v11-db/wal-chain", format: "rocksdb", dir: WAL_CHAIN, probes: walChainKeys() },
  ...libraryGetCases().map((c) => ({
    name: `node:${c.id}`,
    format: c.format,
    dir: c.dirPath,
    probes: c.probes.map((p) => encoder.encode(p)),
  })),
  ...sectionCases<{ id: string; dir: string; probes: { path: string } }>("db_get")
    .filter((c) => c.corpus === GENERATED && c.id === "rocksdb_bench")
    .map((c) => ({
      name: `generated:${c.id}`,
      format: "rocksdb" as const,
      dir: c.corpus.path(c.dir),
      probes: parseKeys(readFileSync(c.corpus.path(c.probes.path))),
    })),
];

let sf: NodeSstFilter;
let server: TestServer;
beforeAll(async () => {
  sf = (await (await import("sstfilter")).init()) as NodeSstFilter;
  server = await startServer();
});
afterAll(() => {
  server.server.closeAllConnections();
  server.server.close();
});
beforeEach(() => {
  server.honoursRange = true;
});

test("the corpus yields a LevelDB and a RocksDB database with several WALs", () => {
  expect(CASES.map((c) => c.format).sort()).toEqual(["leveldb", "rocksdb", "rocksdb", "rocksdb"]);
  const bench = CASES.find((c) => c.name === "generated:rocksdb_bench");
  expect(readdirSync(bench!.dir).filter((n) => n.endsWith(".log")).length).toBeGreaterThan(1);
  for (const c of CASES) expect([c.name, c.probes.length > 0]).toEqual([c.name, true]);
});

/** What `db inspect --json` lists: live files per level, WALs, OPTIONS (less the folder's name). */
async function listing(db: Database): Promise<unknown> {
  return { ...databaseJson(db), ...(await walAndOptions(db)).json };
}

describe.each(CASES)("$name over HTTP answers as the folder", (c) => {
  let local: Database;
  let remote: Database;
  beforeAll(async () => {
    local = await sf.openDatabase(c.dir);
    remote = await sf.openDatabaseFrom(server.url(c.dir));
  });
  afterAll(() => {
    local.dispose();
    remote.dispose();
  });

  test("the listing: live files per level, WALs, OPTIONS", async () => {
    expect(remote.format).toBe(c.format);
    expect(await listing(remote)).toEqual(await listing(local));
    // Found from the MANIFEST: a subset of the folder's names, every live WAL among them.
    const folder = new Set(local.fileNames);
    expect(remote.fileNames.filter((n) => !folder.has(n))).toEqual([]);
    const walNames = (db: Database): Promise<string[]> =>
      db.writeAheadLogs().then((wals) => wals.map((w) => w.name));
    expect(await walNames(remote)).toEqual(await walNames(local));
  });

  test("every probe: db.get and db.explainGet", async () => {
    const wrong: string[] = [];
    for (const key of c.probes) {
      const [here, there] = [await local.explainGet(key), await remote.explainGet(key)];
      if (JSON.stringify(here, bigints) !== JSON.stringify(there, bigints)) {
        wrong.push(`${Buffer.from(key).toString("hex")}: ${JSON.stringify(there.result, bigints)} over HTTP`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

/** JSON.stringify's replacer for BigInt values. */
const bigints = (_key: string, value: unknown): unknown =>
  typeof value === "bigint" ? value.toString() : value;

test("a Get's requests: each file it reads asked for once, no table read twice", async () => {
  const c = CASES.find((x) => x.name === "generated:rocksdb_bench")!;
  const source = await sf.httpDatabaseSource(server.url(c.dir));
  const db = await sf.openDatabase(source);
  try {
    const key = c.probes[0]!;
    // Read first: the Get's replay reads the logs again, in pieces.
    const logs = (await db.writeAheadLogs()).length;
    const opened = source.stats.requests;
    const route = await db.explainGet(key);
    // The tables whose filter was asked (the others are passed by their key ranges, unopened).
    const tables = route.steps.filter((s) => s.where === "table" && s.filter !== null).length;
    // The OPTIONS file, each log whole (its tail request holds a small one), each table read:
    // its tail (the corpus's tables are smaller than it, so no further request).
    expect(source.stats.requests - opened).toBeLessThanOrEqual(1 + logs + tables);
    const warm = source.stats.requests;
    for (const k of c.probes.slice(0, 50)) await db.explainGet(k);
    // Fifty more Gets: only the tables not opened yet are asked for, each once.
    const opens = new Set<string>();
    for (const k of c.probes.slice(0, 50)) {
      for (const s of (await db.explainGet(k)).steps) if (s.filter !== null) opens.add(s.file);
    }
    expect(source.stats.requests - warm).toBeLessThanOrEqual(opens.size);
  } finally {
    db.dispose();
  }
});

test("LevelDB tables named .sst (LevelDB before 1.14): found under that name", async () => {
  const c = CASES.find((x) => x.format === "leveldb")!;
  // A copy whose tables have the older name, served as they are.
  const copy = mkdtempSync(path.join(tmpdir(), "sstfilter-http-sst-"));
  try {
    for (const name of readdirSync(c.dir)) {
      copyFileSync(path.join(c.dir, name), path.join(copy, name.replace(/\.ldb$/, ".sst")));
    }
    const local = await sf.openDatabase(copy);
    const remote = await sf.openDatabaseFrom(server.url(copy));
    try {
      expect(local.levels.flatMap((l) => l.files.map((f) => f.name)).every((n) => n.endsWith(".sst"))).toBe(
        true,
      );
      expect(await listing(remote)).toEqual(await listing(local));
      for (const key of c.probes.slice(0, 20)) expect(await remote.get(key)).toEqual(await local.get(key));
    } finally {
      local.dispose();
      remote.dispose();
    }
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

test("blob files (db_bench with enable_blob_files): found, and every key's value read from them", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "sstfilter-http-blob-"));
  try {
    const bench = spawnSync(
      "db_bench",
      [
        "--benchmarks=fillrandom",
        "--num=2000",
        "--key_size=16",
        "--value_size=400",
        "--enable_blob_files=1",
        "--min_blob_size=200",
        "--write_buffer_size=65536",
        "--seed=7",
        `--db=${dir}`,
      ],
      { encoding: "utf8" },
    );
    expect([bench.status, bench.stderr]).toEqual([0, expect.anything()]);
    const local = await sf.openDatabase(dir);
    const remote = await sf.openDatabaseFrom(server.url(dir));
    try {
      const blobs = local.columnFamilies.flatMap((cf) => cf.blobFiles);
      expect(blobs.length).toBeGreaterThan(0);
      expect(remote.fileNames.filter((n) => n.endsWith(".blob")).length).toBe(blobs.length);
      expect(await listing(remote)).toEqual(await listing(local));
      const wrong: string[] = [];
      let keys = 0;
      for await (const record of local.scan()) {
        keys++;
        const [here, there] = [await local.get(record.key), await remote.get(record.key)];
        if (here === null || there === null || Buffer.compare(there, here) !== 0)
          wrong.push(Buffer.from(record.key).toString("hex"));
      }
      expect(keys).toBeGreaterThan(1000);
      expect(wrong).toEqual([]);
    } finally {
      local.dispose();
      remote.dispose();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60000);

describe("Gets read tables in ranges", () => {
  const c = CASES.find((x) => x.name === "node:rn_get")!;
  const sizes = new Map(readdirSync(c.dir).map((n) => [n, statSync(path.join(c.dir, n)).size]));
  const tables = [...sizes.keys()].filter((n) => n.endsWith(".sst"));

  /** Every probe's Get over HTTP; the bytes each request asked for, by file. */
  async function askedBytes(opts: { blockCacheBytes?: number }): Promise<Map<string, number[]>> {
    const asked = new Map<string, number[]>();
    const recording = (url: string, init: RequestInit): Promise<Response> => {
      const file = decodeURIComponent(url.slice(url.lastIndexOf("/") + 1));
      const size = sizes.get(file) ?? 0;
      const range = (init.headers as Record<string, string>).range!;
      const [, first, last] = /^bytes=(\d*)-(\d*)$/.exec(range)!;
      const start = first === "" ? Math.max(0, size - Number(last)) : Number(first);
      const end = first === "" ? size : Math.min(size, Number(last) + 1);
      asked.set(file, [...(asked.get(file) ?? []), Math.max(0, end - start)]);
      return fetch(url, init);
    };
    const db = await sf.openDatabaseFrom(server.url(c.dir), { ...opts, fetch: recording });
    try {
      for (const key of c.probes) await db.explainGet(key);
    } finally {
      db.dispose();
    }
    return asked;
  }

  test("the corpus has a table larger than the first request's tail (512 KiB)", () => {
    expect(Math.max(...tables.map((n) => sizes.get(n)!))).toBeGreaterThan(512 << 10);
  });

  test("no cache: after each table's tail, every request is one block's neighbourhood (< 64 KiB)", async () => {
    const asked = await askedBytes({});
    const large: string[] = [];
    for (const name of tables) {
      // The probe of discovery (1 byte), the tail, then the blocks.
      const [, , ...blocks] = asked.get(name) ?? [];
      if (blocks.some((n) => n >= 64 << 10)) large.push(`${name}: ${blocks.join(" ")}`);
    }
    expect(large).toEqual([]);
    expect(tables.some((n) => (asked.get(n)?.length ?? 0) > 2)).toBe(true);
  });

  test("with a block cache: no table asked for more bytes than it has", async () => {
    const asked = await askedBytes({ blockCacheBytes: 8 << 20 });
    const over: string[] = [];
    for (const name of tables) {
      // Discovery's probe (1 byte) apart.
      const total = (asked.get(name) ?? []).slice(1).reduce((a, b) => a + b, 0);
      if (total > sizes.get(name)!)
        over.push(`${name} (${sizes.get(name)} bytes): ${asked.get(name)!.join(" + ")}`);
    }
    expect(over).toEqual([]);
  });
});

test("a server that ignores Range: RANGE_NOT_SUPPORTED", async () => {
  server.honoursRange = false;
  await expect(sf.openDatabaseFrom(server.url(CASES[0]!.dir))).rejects.toMatchObject({
    code: "RANGE_NOT_SUPPORTED",
  });
});

test("a live table missing from the server: the folder's error", async () => {
  const c = CASES.find((x) => x.format === "leveldb")!;
  const local = await sf.openDatabase(c.dir);
  const live = local.levels.flatMap((l) => l.files);
  expect(live.length).toBeGreaterThan(0);
  const files = local.fileNames.filter((n) => n !== live[0]!.name);
  const remote = await sf.openDatabaseFrom(server.url(c.dir), { files });
  try {
    const folderError = await local.openTable(live[0]!).then(
      () => null,
      (e: unknown) => e,
    );
    expect(folderError).toBeNull();
    await expect(remote.openTable(live[0]!)).rejects.toMatchObject({
      code: "TRUNCATED",
      file: live[0]!.name,
      message: expect.stringContaining("the MANIFEST lists this table, but the file is missing"),
    });
  } finally {
    local.dispose();
    remote.dispose();
  }
});

test("no CURRENT under the URL: not a database, as a folder without one", async () => {
  await expect(
    sf.openDatabaseFrom(server.url(path.join(CASES[0]!.dir, "no-such-folder"))),
  ).rejects.toMatchObject({
    code: "BAD_OPTIONS",
    message: expect.stringContaining("not a database: no CURRENT file"),
  });
});

test("the CLI: db inspect, db get and db verify over a URL print what they print for the folder", async () => {
  const c = CASES.find((x) => x.name === "generated:rocksdb_bench")!;
  const run = async (...args: string[]): Promise<string> =>
    (await promisify(execFile)(process.execPath, [CLI, ...args])).stdout;
  const inspect = async (...where: string[]): Promise<unknown> => {
    const { dir: _dir, ...rest } = JSON.parse(await run("db", "inspect", "--json", ...where)) as Record<
      string,
      unknown
    >;
    return rest;
  };
  expect(await inspect(server.url(c.dir))).toEqual(await inspect(c.dir));
  // --files: the folder's names given, nothing probed.
  const names = readdirSync(c.dir).join(",");
  expect(await inspect(`--files=${names}`, server.url(c.dir))).toEqual(await inspect(c.dir));
  // A key with a value (db get exits 1 for an absent one, 3 for a merge chain).
  const local = await sf.openDatabase(c.dir);
  let found: Uint8Array | undefined;
  for (const k of c.probes) {
    if ((await local.explainGet(k)).result.outcome !== "found") continue;
    found = k;
    break;
  }
  local.dispose();
  expect(found).toBeDefined();
  const key = Buffer.from(found!).toString("hex");
  const get = (where: string): Promise<string> =>
    run("db", "get", "--hex", "--json", "--header", "X-Test: 1", where, key);
  expect(await get(server.url(c.dir))).toBe(await get(c.dir));
  // db verify: the same files with the same verdicts (on one thread over HTTP).
  const verify = async (where: string): Promise<unknown> => {
    const { files, ok } = JSON.parse(await run("db", "verify", "--json", where)) as Record<string, unknown>;
    return { files, ok };
  };
  expect(await verify(server.url(c.dir))).toEqual(await verify(c.dir));
});
