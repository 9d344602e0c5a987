// @ts-check
// Issue 29's targets for a Get through a whole database, against RocksDB on the same folders, which
// RocksDB 7.8.3's db_bench writes (16-byte keys, 100-byte values, a fixed seed):
//   wal1m   fillrandom of 1M keys into a 1 GiB memtable, compactions off: every write sits in one
//           live WAL of about 138 MB (no flush at close: RocksDB flushes on close only the writes
//           a disabled WAL left unpersisted, db/db_impl/db_impl.cc CancelAllBackgroundWork)
//   wal4m   the same with 4M keys (a ~550 MB WAL); only with --full
//   levels  fillrandom of 200,000 keys, 2 MiB memtables, 1.5 MiB files, a 4 MiB level 1, no
//           compression (rocksdb-native's prebuilt RocksDB reads it): ~16 tables on levels 0-2
//           and the last writes in the WAL
// Measured, each the median of `runs` runs alternating with the peer (the first of the two
// changing each run), on a machine shared with other builds (load average in the report):
//   cli     `sstfilter db get --hex DIR KEY` against `ldb --db=COPY get --hex KEY` (ldb flushes the
//           WAL into a table on open, so it gets a fresh copy each run, copied outside the timing),
//           one present and one absent key: wall time and peak RSS (GNU time); the answers equal
//   api     after openDatabase (the Node entry), 10,000 gets (half present, half absent, drawn
//           over the whole key space, so from the memtable and every level) awaited one by one,
//           against rocksdb-native (RocksDB 10.x through N-API) opened read-only: gets per
//           second, wall and CPU; every answer equal. And each process's memory after opening
//           and one get (the memtable recovered), in a process of its own, against the live WAL
//           bytes.
//   walk    `for await (const k of t.keys())` over every table of `levels` against an empty
//           `for await` over the same keys; the other table-walk figures of the issue (keyBatches
//           against the native walk, verify against sst_dump) are the content bench's, cited
//           from bench/results.json.
// Usage: node bench/db-get-bench.mjs --out FILE [--quick | --full | --walks] [--merge-into
// RESULTS_JSON] (the last sets the "dbGet" member of an existing results.json). --quick: a
// 100,000-key WAL, 1,000 gets, 3 runs. --walks: only the table walks (5 runs; a minute at most).
// Databases are cached in build/bench/db-get/, keyed by their db_bench command.
// Internal: --memory-of sstfilter|rocksdb-native DIR KEYHEX prints that process's memory as JSON.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

import RocksDB from "rocksdb-native";

import { init } from "../dist/esm/platform/node.js";
import { dbBenchDatabase } from "./db-bench-database.mjs";
import { logTargets, writeReport } from "./report.mjs";
import { cpuMs, measureCommand, median } from "./timing.mjs";
import { debianVersion, npmVersion } from "./versions.mjs";
import { openViewerPage } from "./viewer-page.mjs";

const args = process.argv.slice(2);
const log = (/** @type {string} */ line) => process.stderr.write(`db get bench: ${line}\n`);
const MB = 1024 * 1024;
const round4 = (/** @type {number} */ x) => Number(x.toPrecision(4));

// ---- keys --------------------------------------------------------------------------------------

const KEY_BYTES = 16;
/**
 * db_bench's key for the number k (rocksdb tools/db_bench_tool.cc GenerateKeyFromInt, no prefixes):
 * k big-endian in 8 bytes, then '0' characters up to --key_size.
 * @param {number} k
 */
function dbBenchKey(k) {
  const key = Buffer.alloc(KEY_BYTES, 0x30);
  key.writeBigUInt64BE(BigInt(k));
  return key;
}
const hexArg = (/** @type {Uint8Array} */ key) => `0x${Buffer.from(key).toString("hex").toUpperCase()}`;

/**
 * `count` keys of a database of `num` db_bench keys, alternately present and absent by the
 * peer's answer: numbers drawn from [0, num) by an LCG (fillrandom leaves about 1/e of them
 * unwritten), so absent keys fall between present ones, not outside the tables' ranges.
 * @param {any} rocks @param {number} num @param {number} count
 * @returns {Promise<{ keys: Buffer[], answers: (Buffer | null)[] }>}
 */
async function chooseKeys(rocks, num, count) {
  /** @type {{ key: Buffer, value: Buffer }[]} */
  const present = [];
  /** @type {Buffer[]} */
  const absent = [];
  const drawn = new Set();
  let x = 29;
  while (present.length < count / 2 || absent.length < count / 2) {
    if (drawn.size >= num) throw new Error(`${num} keys hold fewer than ${count / 2} present or absent`);
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    const k = Math.floor((x / 2 ** 32) * num);
    if (drawn.has(k)) continue;
    drawn.add(k);
    const key = dbBenchKey(k);
    const value = await rocks.get(key);
    if (value === null) {
      if (absent.length < count / 2) absent.push(key);
    } else if (present.length < count / 2) present.push({ key, value });
  }
  return {
    keys: present.flatMap((p, i) => [p.key, absent[i]]),
    answers: present.flatMap((p) => [p.value, null]),
  };
}

// ---- databases ---------------------------------------------------------------------------------

const work = "build/bench/db-get";
const COMMON = ["--key_size=16", "--value_size=100", "--seed=29"];
/** @param {number} num */
const walFlags = (num) => [
  "--benchmarks=fillrandom",
  `--num=${num}`,
  ...COMMON,
  "--write_buffer_size=1073741824",
  "--disable_auto_compactions=1",
  "--disable_wal=0",
];
const LEVELS_FLAGS = [
  "--benchmarks=fillrandom",
  "--num=200000",
  ...COMMON,
  "--write_buffer_size=2097152",
  "--target_file_size_base=1572864",
  "--max_bytes_for_level_base=4194304",
  "--level0_file_num_compaction_trigger=4",
  "--compression_type=none",
];

/**
 * What the MANIFEST says (ldb manifest_dump, which reads it without opening the database): the
 * live logs, those numbered at or past its log number, with their bytes; the live tables per level
 * (its " N:SIZE[" lines under "--- level L ---").
 * @param {string} dir
 */
function liveFiles(dir) {
  const dump = execFileSync("ldb", [`--db=${path.resolve(dir)}`, "manifest_dump"]).toString("latin1");
  const numbers = [...dump.matchAll(/^log number: (\d+)$/gm)].map((m) => Number(m[1]));
  if (numbers.length === 0) throw new Error(`ldb manifest_dump of ${dir} names no log number`);
  const first = Math.min(...numbers);
  const logs = readdirSync(dir)
    .filter((f) => /^\d+\.log$/.test(f) && Number(f.slice(0, -4)) >= first)
    .map((f) => ({ name: f, bytes: statSync(path.join(dir, f)).size }));
  /** @type {string[][]} */
  const levels = [];
  let level = -1;
  for (const line of dump.split("\n")) {
    const header = /^--- level (\d+) ---/.exec(line);
    const table = /^ (\d+):\d+\[/.exec(line);
    if (header) level = Number(header[1]);
    else if (level >= 0 && table) (levels[level] ??= []).push(`${table[1].padStart(6, "0")}.sst`);
  }
  return {
    logs,
    walBytes: logs.reduce((n, l) => n + l.bytes, 0),
    tables: Array.from(levels, (names) => names ?? []),
  };
}

/** A db_bench database and its live files. @param {string} name @param {string[]} flags */
function database(name, flags) {
  const { dir, command } = dbBenchDatabase(work, name, flags, log);
  const num = Number(flags.find((f) => f.startsWith("--num="))?.slice("--num=".length));
  return { name, dir, command, num, ...liveFiles(dir) };
}

// ---- measuring ---------------------------------------------------------------------------------

/**
 * Runs each op `runs` times, alternating (run r starts at op r mod n): every run's wall and CPU
 * milliseconds per op.
 * @param {number} runs @param {(() => Promise<void> | void)[]} ops
 */
async function alternating(runs, ops) {
  /** @type {{ wallMs: number, cpuMs: number }[][]} */
  const figures = ops.map(() => []);
  for (let r = 0; r < runs; r++) {
    for (let j = 0; j < ops.length; j++) {
      const i = (r + j) % ops.length;
      const wall = performance.now();
      const cpu = cpuMs();
      await ops[i]();
      figures[i].push({ wallMs: performance.now() - wall, cpuMs: cpuMs() - cpu });
    }
  }
  return figures;
}

// ---- the CLI: sstfilter db get against ldb get ---------------------------------------------------

const CLI = "dist/esm/bin/sstfilter.js";
const NOT_FOUND = "Failed: Get failed: NotFound:";

/**
 * One key through both commands, `runs` times alternating; asserts both answer `expected` (the
 * peer's value, or null: not found). A sstfilter run that dies (out of memory) is recorded and
 * not repeated.
 * @param {ReturnType<typeof database>} db @param {Buffer} key @param {Buffer | null} expected @param {number} runs
 */
function cliGet(db, key, expected, runs) {
  const copy = path.join(work, "ldb-copy");
  const want = expected === null ? null : `${hexArg(expected)}\n`;
  /** @param {string} who @param {ReturnType<typeof measureCommand>} run */
  const check = (who, run) => {
    const answered =
      want === null
        ? run.status === 1 && run.stderr.includes(NOT_FOUND)
        : run.status === 0 && run.stdout.toString() === want;
    if (!answered) {
      throw new Error(
        `${who} get ${hexArg(key)} on ${db.name}: exit ${run.status ?? run.signal}, ` +
          `stdout ${run.stdout.toString().slice(0, 80)}, stderr ${run.stderr.slice(-300)}; expected ${want === null ? "not found" : want.slice(0, 80)}`,
      );
    }
  };
  /** @type {Record<string, ReturnType<typeof measureCommand>[]>} */
  const measured = { sstfilter: [], ldb: [] };
  /** @type {string | null} */
  let sstfilterFailed = null;
  const ops = {
    sstfilter: () => {
      if (sstfilterFailed !== null) return;
      const run = measureCommand(process.execPath, [CLI, "db", "get", "--hex", db.dir, hexArg(key)], true);
      if (run.signal !== null || (run.status !== 0 && run.status !== 1)) {
        sstfilterFailed = `exit ${run.status ?? run.signal} after ${run.wallSeconds} s at ${Math.round(run.peakRssMb)} MB: ${run.stderr.trim().split("\n").slice(-3).join(" / ")}`;
        log(`sstfilter db get failed on ${db.name}: ${sstfilterFailed}`);
        return;
      }
      check("sstfilter db", run);
      measured.sstfilter.push(run);
    },
    ldb: () => {
      rmSync(copy, { recursive: true, force: true });
      cpSync(db.dir, copy, { recursive: true });
      const run = measureCommand("ldb", [`--db=${path.resolve(copy)}`, "get", "--hex", hexArg(key)], true);
      rmSync(copy, { recursive: true, force: true });
      check("ldb", run);
      measured.ldb.push(run);
    },
  };
  for (let r = 0; r < runs; r++) {
    const order = r % 2 === 0 ? [ops.sstfilter, ops.ldb] : [ops.ldb, ops.sstfilter];
    for (const op of order) op();
  }
  /** @param {ReturnType<typeof measureCommand>[]} rs */
  const summary = (rs) =>
    rs.length === 0
      ? null
      : {
          wallSeconds: round4(median(rs.map((r) => r.wallSeconds))),
          cpuSeconds: round4(median(rs.map((r) => r.cpuSeconds))),
          peakRssMb: round4(median(rs.map((r) => r.peakRssMb))),
          runsWallSeconds: rs.map((r) => r.wallSeconds),
          runsPeakRssMb: rs.map((r) => round4(r.peakRssMb)),
        };
  const sf = summary(measured.sstfilter);
  const ldb = summary(measured.ldb);
  return {
    key: hexArg(key),
    present: expected !== null,
    sstfilter: sf ?? { failed: sstfilterFailed },
    ldb,
    wallRatio: sf && ldb ? round4(sf.wallSeconds / ldb.wallSeconds) : null,
    peakRssRatio: sf && ldb ? round4(sf.peakRssMb / ldb.peakRssMb) : null,
  };
}

// ---- the viewer: a Get in Chromium ---------------------------------------------------------------

/**
 * The viewer opens the database folder (the core replays its WAL in the page's worker) and answers
 * a Get of each key: the seconds from choosing the folder to the open picture and from the click to
 * the answer; the outcome must be the peer's (a crashed tab throws).
 * @param {ReturnType<typeof database>} db @param {Buffer[]} keys @param {(Buffer | null)[]} answers
 */
async function viewerGets(db, keys, answers) {
  const { page, close } = await openViewerPage();
  try {
    const opening = performance.now();
    await page.setInputFiles("#folder", db.dir);
    await page.waitForSelector("#db-status.ok", { timeout: 600000 });
    const openSeconds = (performance.now() - opening) / 1000;
    const gets = [];
    for (const [i, key] of keys.entries()) {
      const outcome = answers[i] === null ? "not-found" : "found";
      await page.selectOption("#get-mode", "hex");
      await page.fill("#get-key", key.toString("hex"));
      const started = performance.now();
      await page.click("#get-submit");
      await page.waitForSelector(`#get-result[data-outcome="${outcome}"]`, { timeout: 600000 });
      gets.push({ present: answers[i] !== null, seconds: (performance.now() - started) / 1000 });
    }
    return { openSeconds, gets };
  } finally {
    await close();
  }
}

// ---- the API: db.get against rocksdb-native ------------------------------------------------------

// rocksdb-native opens its column families with a block cache (lib/column-family.js blockCache:
// true), which RocksDB 10 makes 32 MiB when none is given (include/rocksdb/table.h
// BlockBasedTableOptions::block_cache): sstfilter gets the same budget.
const BLOCK_CACHE_BYTES = 32 << 20;

/** @param {string} dir */
function openPeer(dir) {
  return new RocksDB(dir, { readOnly: true });
}

/**
 * The gets of `keys` through sstfilter's db.get and rocksdb-native's get, alternating; every answer
 * checked against the peer's first.
 * @param {any} sf @param {ReturnType<typeof database>} db @param {Buffer[]} keys @param {(Buffer | null)[]} answers @param {any} rocks @param {number} runs
 */
async function apiGets(sf, db, keys, answers, rocks, runs) {
  const opened = await sf.openDatabase(db.dir, { blockCacheBytes: BLOCK_CACHE_BYTES });
  // The first pass checks every answer and warms both (sstfilter replays the WAL on the first get).
  const firstStarted = performance.now();
  for (let i = 0; i < keys.length; i++) {
    const got = await opened.get(keys[i]);
    const want = answers[i];
    const same = got === null || want === null ? got === want : Buffer.compare(Buffer.from(got), want) === 0;
    if (!same) {
      throw new Error(
        `db.get ${hexArg(keys[i])} on ${db.name}: ${got === null ? "null" : hexArg(got)}, rocksdb-native ${want === null ? "null" : hexArg(want)}`,
      );
    }
  }
  const firstPassSeconds = (performance.now() - firstStarted) / 1000;
  let sink = 0;
  const [ours, peer] = await alternating(runs, [
    async () => {
      for (const key of keys) sink += (await opened.get(key)) === null ? 0 : 1;
    },
    async () => {
      for (const key of keys) sink += (await rocks.get(key)) === null ? 0 : 1;
    },
  ]);
  opened.dispose();
  // Half the keys are present: each run of each counts keys.length / 2 values.
  if (sink !== runs * keys.length) throw new Error(`${sink} values found in ${runs} runs of both`);
  /** @param {{ wallMs: number, cpuMs: number }[]} fs */
  const rate = (fs) => ({
    getsPerSecond: Math.round((keys.length * 1000) / median(fs.map((f) => f.wallMs))),
    getsPerCpuSecond: Math.round((keys.length * 1000) / median(fs.map((f) => f.cpuMs))),
    runsGetsPerSecond: fs.map((f) => Math.round((keys.length * 1000) / f.wallMs)),
  });
  const a = rate(ours);
  const b = rate(peer);
  return {
    gets: keys.length,
    sstfilter: { ...a, firstPassSeconds: round4(firstPassSeconds) },
    rocksdbNative: b,
    ratio: round4(b.getsPerSecond / a.getsPerSecond),
    cpuRatio: round4(b.getsPerCpuSecond / a.getsPerCpuSecond),
  };
}

/**
 * The memory of a fresh process that opens `db` through `who` and gets one key (sstfilter recovers
 * its memtable on the first get), measured in that process (--memory-of) and its peak by GNU time.
 * @param {"sstfilter" | "rocksdb-native"} who @param {ReturnType<typeof database>} db @param {Buffer} key
 */
function memoryOf(who, db, key) {
  const self = fileURLToPath(import.meta.url);
  const run = measureCommand(
    process.execPath,
    ["--expose-gc", self, "--memory-of", who, db.dir, hexArg(key)],
    true,
  );
  if (run.status !== 0)
    throw new Error(`--memory-of ${who} ${db.dir}: exit ${run.status ?? run.signal}: ${run.stderr}`);
  const inside = JSON.parse(run.stdout.toString());
  const heldMb = inside.rssAfterGetMb - inside.rssBeforeOpenMb;
  return {
    ...inside,
    peakRssMb: round4(run.peakRssMb),
    heldMb: round4(heldMb),
    heldPerLiveWalByte: round4((heldMb * MB) / db.walBytes),
  };
}

/** --memory-of: this process's resident memory before opening, after, and after one get. */
async function reportMemoryOf(
  /** @type {string} */ who,
  /** @type {string} */ dir,
  /** @type {string} */ keyHex,
) {
  const gc = /** @type {() => void} */ (globalThis.gc);
  const key = Buffer.from(keyHex.slice(2), "hex");
  const rss = () => {
    gc();
    return round4(process.memoryUsage().rss / MB);
  };
  /** @type {{ get: (k: Buffer) => Promise<unknown>, close: () => unknown }} */
  let opened;
  let rssBeforeOpenMb;
  if (who === "sstfilter") {
    const sf = await init();
    rssBeforeOpenMb = rss();
    const db = await sf.openDatabase(dir, { blockCacheBytes: BLOCK_CACHE_BYTES });
    opened = { get: (k) => db.get(k), close: () => db.dispose() };
  } else {
    rssBeforeOpenMb = rss();
    const rocks = openPeer(dir);
    await rocks.ready();
    opened = { get: (k) => rocks.get(k), close: () => rocks.close() };
  }
  const rssAfterOpenMb = rss();
  const found = (await opened.get(key)) !== null;
  const rssAfterGetMb = rss();
  const memory = process.memoryUsage();
  process.stdout.write(
    JSON.stringify({
      rssBeforeOpenMb,
      rssAfterOpenMb,
      rssAfterGetMb,
      heapUsedMb: round4(memory.heapUsed / MB),
      externalMb: round4(memory.external / MB),
      found,
    }) + "\n",
  );
  await opened.close();
}

// ---- table walks -------------------------------------------------------------------------------

/**
 * `for await (const k of t.keys())` over every live table of `db` against an empty `for await`
 * over the same keys (an async generator yielding them from an array): keys per second.
 * @param {any} sf @param {ReturnType<typeof database>} db @param {number} runs
 */
async function tableWalks(sf, db, runs) {
  const files = db.tables.flat();
  const tables = await Promise.all(files.map((f) => sf.openTableFile(path.join(db.dir, f))));
  /** @type {Uint8Array[]} */
  const walked = [];
  for (const t of tables) for await (const k of t.keys()) walked.push(k);
  async function* yieldEach(/** @type {Uint8Array[]} */ keys) {
    for (const k of keys) yield k;
  }
  let count = 0;
  const walk = async () => {
    for (const t of tables) for await (const _ of t.keys()) count++;
  };
  const empty = async () => {
    for await (const _ of yieldEach(walked)) count++;
  };
  // Each run walks the tables several times: one walk takes tens of milliseconds.
  const repeat = Math.max(1, Math.ceil(2e6 / walked.length));
  const repeated = (/** @type {() => Promise<void>} */ f) => async () => {
    for (let i = 0; i < repeat; i++) await f();
  };
  await walk();
  await empty();
  const [ours, floor] = await alternating(runs, [repeated(walk), repeated(empty)]);
  for (const t of tables) t.dispose();
  const keysPerSecond = (/** @type {{ cpuMs: number }[]} */ fs) =>
    Math.round((walked.length * repeat * 1000) / median(fs.map((f) => f.cpuMs)));
  const a = keysPerSecond(ours);
  const b = keysPerSecond(floor);
  return {
    tables: tables.length,
    keys: walked.length,
    walksPerRun: repeat,
    forAwaitKeysPerCpuSecond: a,
    emptyForAwaitKeysPerCpuSecond: b,
    ratio: round4(b / a),
  };
}

// ---- the run -----------------------------------------------------------------------------------

async function main() {
  const quick = args.includes("--quick");
  const full = args.includes("--full");
  const walksOnly = args.includes("--walks");
  const outFile = args.includes("--out") ? args[args.indexOf("--out") + 1] : "build/bench/db-get.json";
  const runs = quick ? 3 : 5;
  const GETS = quick ? 1000 : 10000;
  mkdirSync(work, { recursive: true });

  const databases = [
    database("levels-200k", LEVELS_FLAGS),
    ...(walksOnly
      ? []
      : [quick ? database("wal-100k", walFlags(100000)) : database("wal-1m", walFlags(1000000))]),
    ...(full ? [database("wal-4m", walFlags(4000000))] : []),
  ];
  for (const db of databases) {
    log(
      `${db.name}: live WAL ${(db.walBytes / MB).toFixed(1)} MB (${db.logs.map((l) => l.name).join(", ")}), tables per level ${JSON.stringify(db.tables.map((names) => names.length))}`,
    );
    if (db.walBytes === 0) throw new Error(`${db.dir} has no live WAL: db_bench flushed it`);
  }
  const sf = await init();
  /** @type {Record<string, any>} */
  const results = {};
  const targets = [];
  /** @param {string} name @param {number | null} value @param {number} limit @param {string} unit */
  const target = (name, value, limit, unit) =>
    targets.push({ name, value, limit, unit, met: value !== null && value <= limit });

  for (const db of walksOnly ? [] : databases) {
    /** @type {Record<string, any>} */
    const r = (results[db.name] = {
      dbBench: db.command,
      liveWalBytes: db.walBytes,
      liveLogs: db.logs,
      tablesPerLevel: db.tables.map((names) => names.length),
    });
    const rocks = openPeer(db.dir);
    await rocks.ready();
    const apiMeasured = true;
    const { keys, answers } = await chooseKeys(rocks, db.num, apiMeasured ? GETS : 2);
    if (apiMeasured) {
      log(`${db.name}: ${keys.length} API gets, ${runs} runs against rocksdb-native`);
      r.api = await apiGets(sf, db, keys, answers, rocks, runs);
      log(
        `${db.name}: ${r.api.sstfilter.getsPerSecond} gets/s, rocksdb-native ${r.api.rocksdbNative.getsPerSecond}: ${r.api.ratio}x`,
      );
    }
    await rocks.close();
    if (apiMeasured) {
      r.memory = {
        sstfilter: memoryOf("sstfilter", db, keys[0]),
        rocksdbNative: memoryOf("rocksdb-native", db, keys[0]),
      };
      log(
        `${db.name}: memory after open and a get: ${r.memory.sstfilter.heldMb} MB held (${r.memory.sstfilter.heldPerLiveWalByte}x the live WAL), rocksdb-native ${r.memory.rocksdbNative.heldMb} MB`,
      );
    }
    if (db.name.startsWith("wal-")) {
      r.cli = [cliGet(db, keys[0], answers[0], runs), cliGet(db, keys[1], answers[1], runs)];
      for (const c of r.cli) {
        log(
          `${db.name}: db get ${c.present ? "present" : "absent"}: ${JSON.stringify(c.sstfilter).slice(0, 120)} against ldb ${c.ldb.wallSeconds} s, ${c.ldb.peakRssMb} MB`,
        );
        const what = `sstfilter db get / ldb get, ${c.present ? "present" : "absent"} key, ${db.name}`;
        target(`${what}: wall time`, c.wallRatio, 1, "x");
        target(`${what}: peak RSS`, c.peakRssRatio, 1.5, "x");
      }
    }
    if (db.name.startsWith("wal-")) {
      r.viewer = await viewerGets(db, keys.slice(0, 2), answers.slice(0, 2));
      log(`${db.name}: the viewer in Chromium: ${JSON.stringify(r.viewer)}`);
    }
    if (r.api) target(`db.get / rocksdb-native get, ${db.name}: gets per second (wall)`, r.api.ratio, 3, "x");
    if (r.memory && db.name.startsWith("wal-"))
      target(
        `memory held after open and a get / live WAL bytes, ${db.name}`,
        r.memory.sstfilter.heldPerLiveWalByte,
        1.5,
        "x",
      );
  }

  log(`table walks over ${databases[0].name}'s tables, ${runs} runs`);
  results.tableWalk = await tableWalks(sf, databases[0], runs);
  target(
    "for await (t.keys()) / an empty for await over the same keys (CPU)",
    results.tableWalk.ratio,
    1.5,
    "x",
  );
  // The other walk figures are the content bench's (medians of 5 alternating rounds).
  const content = JSON.parse(readFileSync("bench/results.json", "utf8")).content;
  results.citedFromContent = {
    generated: content.generated,
    keyBatchesOverNativeWalkSnappy: round4(content.results.codecs.snappy.ratio),
    verifyOverSstDump: round4(content.results.main.verifyRatio),
  };
  target(
    "keyBatches() walk / native walk, Snappy (cited: content bench, median of 5)",
    results.citedFromContent.keyBatchesOverNativeWalkSnappy,
    1.6,
    "x",
  );
  target(
    "sstfilter verify / sst_dump --command=check --verify_checksum (cited: content bench, median of 5)",
    results.citedFromContent.verifyOverSstDump,
    1.5,
    "x",
  );

  const report = {
    generated: new Date().toISOString(),
    run: quick ? "quick" : full ? "full" : walksOnly ? "walks" : "standard",
    label:
      "the engine in the core (issue 29): WalReplay, MemTable and DbGet in C++, a 32 MiB block cache as rocksdb-native has",
    machine: { cpu: cpus()[0]?.model, cores: cpus().length, loadAverageAtEnd: loadavg()[0] },
    versions: {
      rocksdbTools: debianVersion("rocksdb-tools"),
      rocksdbNative: npmVersion("rocksdb-native"),
      node: process.version,
    },
    method:
      `every figure the median of ${runs} runs alternating with the peer (the first of the two changing each run); ` +
      "CLI: wall time and peak RSS by GNU time, ldb on a fresh copy each run (copied outside the timing); " +
      `API: ${GETS} gets awaited one by one, half present, half absent, after a first pass that checks every answer ` +
      "against rocksdb-native's; memory: RSS of a fresh process after open and one get, less its RSS before open",
    results,
    targets,
  };
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeReport(args, outFile, "dbGet", report);
  logTargets(log, targets, (value) => (value === null ? "-" : value));
}

if (args[0] === "--memory-of") await reportMemoryOf(args[1], args[2], args[3]);
else await main();
