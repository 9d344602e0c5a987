// @ts-check
// The cost of a key order: probes and gets through Chrome IndexedDB's idb_cmp1 within 1.5x of
// bytewise on the same number of keys, and a JavaScript comparator's cost per call.
//
// The same N logical keys (the numbers 0, 2, 4, ..., 2(N-1); the odd numbers between them are the
// absent keys) are written by sf.createTableWriter twice per table kind, as IndexedDB object-store
// data keys (docs/FORMATS.md 7.1/7.2): key prefix 00, database id 1, object store id 1, index id 1,
// then the encoded number key, 03 and the double little-endian: 13 bytes, in idb_cmp1 order (the
// writer refuses keys out of its comparator's order; they are not bytewise-ascending, which is
// checked too); and the same 13 bytes with the double big-endian, which ascend bytewise as the
// numbers do (non-negative doubles). Table kinds: LevelDB (filter block at 10 bits per key),
// RocksDB with a full filter, RocksDB with partitioned filters (metadataBlockSize 4096, a
// two-level index): blockSize 4096, 16-byte values, Snappy (the writers' default).
//
// Measured, each table opened with its comparator supplied (bytewise also without one): probes per
// second for N/2 present and N/2 absent keys in a shuffled order through mayContain one key per call
// and through mayContainMany (keys packed once), and gets per second for 10,000 present keys through
// t.get. Then the bytewise tables opened with a JavaScript bytewise compare against the built-in:
// nanoseconds per call of the JS comparator = (time with it - time with the built-in) / its calls,
// for gets, mayContainMany and openTable (which judges the order by walking the index).
//
// Clock: this process's CPU time (bench/timing.mjs). Every figure is the median of `runs` runs;
// each run repeats the operation for at least roundMs of CPU time (after as long a warm-up), and the
// things compared alternate run by run (the first of them changing each run), so the machine's
// drift reaches them alike.
// Usage: node bench/comparator-bench.mjs --out FILE [--quick] [--merge-into RESULTS_JSON] (the last
// sets the "comparators" member of an existing results.json).
import { mkdirSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";

import { init } from "../dist/esm/platform/node.js";
import { writeReport } from "./report.mjs";
import { cpuMs, median } from "./timing.mjs";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const outFile = args.includes("--out") ? args[args.indexOf("--out") + 1] : "build/bench/comparators.json";
const N = quick ? 20_000 : 200_000;
const GETS = 10_000;
const runs = quick ? 5 : 7;
const roundMs = quick ? 60 : 200;
const TARGET = 1.5;
const BYTEWISE = "leveldb.BytewiseComparator";
const IDB = "idb_cmp1";
const VALUE_BYTES = 16;
const log = (/** @type {string} */ line) => process.stderr.write(`comparator bench: ${line}\n`);

const sf = await init({ simd: true });

// ---- keys ------------------------------------------------------------------------------------

/**
 * The key of the number x: the IndexedDB object-store data key prefix (00: one byte for each id;
 * database 1, object store 1, index 1), the number type 03, the double little-endian (idb_cmp1) or
 * big-endian (bytewise).
 * @param {number} x
 * @param {boolean} littleEndian
 */
function keyOf(x, littleEndian) {
  const key = new Uint8Array(13);
  key.set([0x00, 0x01, 0x01, 0x01, 0x03]);
  new DataView(key.buffer).setFloat64(5, x, littleEndian);
  return key;
}

/** @param {number} i */
function valueOf(i) {
  const value = new Uint8Array(VALUE_BYTES);
  let x = (i + 1) >>> 0;
  for (let j = 0; j < VALUE_BYTES; j++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    value[j] = 32 + ((x >>> 24) % 95);
  }
  return value;
}

/** A deterministic shuffle (an LCG's Fisher-Yates). @template T @param {T[]} items */
function shuffled(items) {
  const out = items.slice();
  let x = 12345;
  for (let i = out.length - 1; i > 0; i--) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    const j = x % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// The numbers probed: N/2 present (even numbers of every other stored key) and N/2 absent (the odd
// numbers just past them), shuffled; the numbers got: GETS present, spread over the table.
const probeNumbers = shuffled(Array.from({ length: N }, (_, i) => (i % 2 === 0 ? 2 * i : 2 * (i - 1) + 1)));
const getNumbers = Array.from({ length: Math.min(GETS, N) }, (_, j) => 2 * Math.floor((j * N) / GETS));

/** The bytes of one order's keys. @param {boolean} littleEndian */
function keySet(littleEndian) {
  const probes = probeNumbers.map((x) => keyOf(x, littleEndian));
  const gets = getNumbers.map((x) => keyOf(x, littleEndian));
  return { probes, probeBatch: sf.packKeys(probes), gets };
}
const keys = { bytewise: keySet(false), idb: keySet(true) };

// ---- tables ----------------------------------------------------------------------------------

/** @type {Record<string, Record<string, unknown>>} */
const KINDS = {
  leveldb: { format: "leveldb", filter: "leveldb" },
  rocksdbFull: { format: "rocksdb", filter: "rocksdb-bloom" },
  rocksdbPartitioned: {
    format: "rocksdb",
    filter: "rocksdb-bloom",
    partitionFilters: true,
    metadataBlockSize: 4096,
  },
};

/**
 * Writes the N keys of one order into a table of `kind`.
 * @param {Record<string, unknown>} kind
 * @param {string} comparator
 * @param {boolean} littleEndian
 */
function writeTable(kind, comparator, littleEndian) {
  const w = sf.createTableWriter(
    /** @type {any} */ ({ ...kind, comparator, bitsPerKey: 10, blockSize: 4096 }),
  );
  for (let i = 0; i < N; i++) w.put(keyOf(2 * i, littleEndian), valueOf(i));
  const bytes = w.finish();
  w.dispose();
  return bytes;
}

/** openTable's options for a table of `kind` read through `comparator`. @param {Record<string, unknown>} kind @param {unknown} comparator */
function openOptions(kind, comparator) {
  /** @type {Record<string, unknown>} */
  const options = kind.format === "leveldb" ? { internalKeys: false } : {};
  if (comparator !== undefined) options.comparator = comparator;
  return options;
}

// The idb keys are not bytewise-ascending: a bytewise writer refuses them (else the two orders
// would be one).
{
  const w = sf.createTableWriter({ format: "leveldb", filter: "leveldb" });
  let refused = false;
  try {
    for (let i = 0; i < 1000; i++) w.put(keyOf(2 * i, true), valueOf(i));
  } catch {
    refused = true;
  }
  w.dispose();
  if (!refused)
    throw new Error("the idb_cmp1 keys ascend bytewise too: the bench would compare one order with itself");
}

// ---- measuring ---------------------------------------------------------------------------------

const round4 = (/** @type {number} */ x) => Number(x.toPrecision(4));

/**
 * ns per item of each op: `runs` runs, each op repeated for at least roundMs of CPU time per run,
 * the ops alternating (run r starts at op r mod n). Returns every run's figure per op.
 * @param {number} items
 * @param {(() => void)[]} ops
 */
function alternate(items, ops) {
  for (const op of ops) {
    const warmUntil = cpuMs() + roundMs;
    do op();
    while (cpuMs() < warmUntil);
  }
  /** @type {number[][]} */
  const figures = ops.map(() => []);
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < ops.length; k++) {
      const i = (r + k) % ops.length;
      let reps = 0;
      const start = cpuMs();
      let elapsed = 0;
      do {
        ops[i]();
        reps++;
        elapsed = cpuMs() - start;
      } while (elapsed < roundMs);
      figures[i].push((elapsed * 1e6) / (reps * items));
    }
  }
  return figures;
}

/** A figure: median ns per item and its rate, with every run's figure. @param {number[]} ns */
function figure(ns) {
  const m = median(ns);
  return { nsPerItem: round4(m), perSecond: Math.round(1e9 / m), runsNs: ns.map(round4) };
}

// Sanity of a table against its keys: every present key may match and is found, absent ones are
// false positives at about 1%.
/** @param {any} t @param {ReturnType<typeof keySet>} k */
function check(t, k) {
  const answers = t.mayContainMany(k.probeBatch);
  let falsePositives = 0;
  for (let i = 0; i < probeNumbers.length; i++) {
    const present = probeNumbers[i] % 2 === 0;
    if (present && answers[i] !== 1) throw new Error(`key ${probeNumbers[i]} ruled out`);
    if (!present) falsePositives += answers[i];
    if (t.mayContain(k.probes[i]) !== (answers[i] === 1))
      throw new Error("mayContain differs from mayContainMany");
  }
  for (let j = 0; j < k.gets.length; j += 97) {
    const found = t.get(k.gets[j]);
    const expected = valueOf(getNumbers[j] / 2);
    if (found.length !== 1 || !Buffer.from(found[0].value).equals(expected)) {
      throw new Error(`get of key ${getNumbers[j]} found ${found.length} entries, not its value`);
    }
  }
  return falsePositives / (probeNumbers.length / 2);
}

/** Ops over table t with key set k. @param {any} t @param {ReturnType<typeof keySet>} k */
function ops(t, k) {
  let sink = 0;
  return {
    mayContain: () => {
      for (const key of k.probes) sink += t.mayContain(key) ? 1 : 0;
    },
    mayContainMany: () => {
      sink += t.mayContainMany(k.probeBatch)[0];
    },
    get: () => {
      for (const key of k.gets) sink += t.get(key).length;
    },
    sink: () => sink,
  };
}

// JavaScript comparators, counting their calls: bytewise, and idb_cmp1 for these keys only (equal
// prefixes; the doubles little-endian), used to count the comparisons each order costs.
const calls = { count: 0 };
/** @param {Uint8Array} a @param {Uint8Array} b */
function jsBytewise(a, b) {
  calls.count++;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
/** @param {Uint8Array} a @param {Uint8Array} b */
function jsIdbNumbers(a, b) {
  calls.count++;
  const x = new DataView(a.buffer, a.byteOffset + 5, 8).getFloat64(0, true);
  const y = new DataView(b.buffer, b.byteOffset + 5, 8).getFloat64(0, true);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Comparator calls of opening a table, one mayContain per probe key, and one get per get key.
 * @param {Uint8Array} bytes @param {Record<string, unknown>} kind @param {{ name: string, compare: (a: Uint8Array, b: Uint8Array) => number }} comparator @param {ReturnType<typeof keySet>} k
 */
function countCalls(bytes, kind, comparator, k) {
  calls.count = 0;
  const t = sf.openTable(bytes, /** @type {any} */ (openOptions(kind, comparator)));
  const open = calls.count;
  calls.count = 0;
  for (const key of k.probes) t.mayContain(key);
  const probe = calls.count / k.probes.length;
  calls.count = 0;
  t.mayContainMany(k.probeBatch);
  const probeMany = calls.count / k.probes.length;
  calls.count = 0;
  for (const key of k.gets) t.get(key);
  const get = calls.count / k.gets.length;
  t.dispose();
  return { open, perMayContain: round4(probe), perMayContainManyKey: round4(probeMany), perGet: round4(get) };
}

// ---- the runs ----------------------------------------------------------------------------------

/** @type {Record<string, any>} */
const tables = {};
/** @type {Record<string, any>} */
const results = {};
/** @type {Record<string, any>} */
const comparisons = {};
/** @type {Record<string, any>} */
const jsComparator = {};
/** @type {Record<string, { ratio: number, target: number, met: boolean }>} */
const targets = {};
let sink = 0;

for (const [kindName, kind] of Object.entries(KINDS)) {
  log(`${kindName}: writing ${N} keys in each order`);
  const bytes = { bytewise: writeTable(kind, BYTEWISE, false), idb: writeTable(kind, IDB, true) };
  const open = {
    bytewise: sf.openTable(bytes.bytewise, /** @type {any} */ (openOptions(kind, BYTEWISE))),
    bytewiseUnsupplied: sf.openTable(bytes.bytewise, /** @type {any} */ (openOptions(kind, undefined))),
    idb: sf.openTable(bytes.idb, /** @type {any} */ (openOptions(kind, IDB))),
  };
  const fp = {
    bytewise: check(open.bytewise, keys.bytewise),
    bytewiseUnsupplied: check(open.bytewiseUnsupplied, keys.bytewise),
    idb: check(open.idb, keys.idb),
  };
  tables[kindName] = {
    options: { ...kind, bitsPerKey: 10, blockSize: 4096, compression: "snappy", valueBytes: VALUE_BYTES },
    bytes: { bytewise: bytes.bytewise.length, idb: bytes.idb.length },
    order: {
      bytewise: open.bytewise.order,
      bytewiseUnsupplied: open.bytewiseUnsupplied.order,
      idb: open.idb.order,
    },
    filterPartitions: open.bytewise.filter?.partitions ?? 0,
    dataBlocks: {
      bytewise: open.bytewise.layout().filter((/** @type {any} */ r) => r.kind === "data").length,
      idb: open.idb.layout().filter((/** @type {any} */ r) => r.kind === "data").length,
    },
    falsePositiveRate: Object.fromEntries(Object.entries(fp).map(([k, v]) => [k, round4(v)])),
  };
  comparisons[kindName] = {
    bytewise: countCalls(bytes.bytewise, kind, { name: BYTEWISE, compare: jsBytewise }, keys.bytewise),
    idb: countCalls(bytes.idb, kind, { name: IDB, compare: jsIdbNumbers }, keys.idb),
  };

  const o = {
    bytewise: ops(open.bytewise, keys.bytewise),
    bytewiseUnsupplied: ops(open.bytewiseUnsupplied, keys.bytewise),
    idb: ops(open.idb, keys.idb),
  };
  results[kindName] = {};
  for (const [what, items] of /** @type {const} */ ([
    ["mayContain", N],
    ["mayContainMany", N],
    ["get", getNumbers.length],
  ])) {
    log(`${kindName}: ${what}, idb_cmp1 / bytewise (supplied) / bytewise (not supplied), ${runs} runs`);
    const [idb, bytewise, bytewiseUnsupplied] = alternate(items, [
      o.idb[what],
      o.bytewise[what],
      o.bytewiseUnsupplied[what],
    ]);
    const r = {
      unit: what === "get" ? "gets" : "probes",
      idb: figure(idb),
      bytewise: figure(bytewise),
      bytewiseUnsupplied: figure(bytewiseUnsupplied),
      ratio: round4(median(idb) / median(bytewise)),
    };
    results[kindName][what] = r;
    targets[`${kindName}.${what}`] = { ratio: r.ratio, target: TARGET, met: r.ratio <= TARGET };
    log(
      `${kindName}: ${what}: idb ${r.idb.nsPerItem} ns, bytewise ${r.bytewise.nsPerItem} ns, ratio ${r.ratio}`,
    );
  }
  for (const x of Object.values(o)) sink += x.sink();
  for (const t of Object.values(open)) t.dispose();

  // The JavaScript comparator against the built-in, on the bytewise table.
  log(`${kindName}: a JavaScript bytewise comparator against the built-in, ${runs} runs`);
  const js = { name: BYTEWISE, compare: jsBytewise };
  const builtinTable = sf.openTable(bytes.bytewise, /** @type {any} */ (openOptions(kind, BYTEWISE)));
  const jsTable = sf.openTable(bytes.bytewise, /** @type {any} */ (openOptions(kind, js)));
  const ob = ops(builtinTable, keys.bytewise);
  const oj = ops(jsTable, keys.bytewise);
  const counted = comparisons[kindName].bytewise;
  const openOps = [BYTEWISE, js].map((comparator) => () => {
    sf.openTable(bytes.bytewise, /** @type {any} */ (openOptions(kind, comparator))).dispose();
  });
  jsComparator[kindName] = {};
  for (const [what, items, callsPerItem, pair] of /** @type {const} */ ([
    ["open", 1, counted.open, openOps],
    ["get", getNumbers.length, counted.perGet, [ob.get, oj.get]],
    ["mayContainMany", N, counted.perMayContainManyKey, [ob.mayContainMany, oj.mayContainMany]],
  ])) {
    const [builtin, withJs] = alternate(items, [...pair]);
    // Per run pair: the extra time over the calls it made.
    const perCall = withJs.map((ns, i) => (ns - builtin[i]) / callsPerItem);
    jsComparator[kindName][what] = {
      unit: what === "open" ? "opens" : what === "get" ? "gets" : "probes",
      callsPerItem,
      builtin: figure(builtin),
      js: figure(withJs),
      nsPerCall: callsPerItem > 0 ? round4(median(perCall)) : null,
    };
    log(
      `${kindName}: JS comparator, ${what}: ${callsPerItem} calls each, ` +
        `${round4(median(builtin))} ns built-in, ${round4(median(withJs))} ns JS, ` +
        `${callsPerItem > 0 ? round4(median(perCall)) : "-"} ns per call`,
    );
  }
  sink += ob.sink() + oj.sink();
  builtinTable.dispose();
  jsTable.dispose();
}

const report = {
  generated: new Date().toISOString(),
  run: quick ? "quick" : "full",
  machine: {
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    node: process.version,
    loadAverageAtEnd: loadavg()[0],
  },
  method:
    `CPU time of this process (wasm SIMD128, Node); every figure the median of ${runs} runs, each ` +
    `repeating the operation for at least ${roundMs} ms after as long a warm-up, the things compared ` +
    "alternating run by run; ratio = median idb_cmp1 time / median bytewise time (comparator supplied to both); " +
    "nsPerCall = median over run pairs of (time with the JS comparator - time with the built-in) / its calls",
  keys: {
    count: N,
    probes: `${N / 2} present and ${N / 2} absent, shuffled`,
    gets: `${getNumbers.length} present`,
    layout:
      "13 bytes: IndexedDB object-store data key prefix 00 01 01 01, number type 03, the double " +
      "little-endian (idb_cmp1) or big-endian (bytewise); stored numbers 0, 2, ..., absent ones odd",
  },
  tables,
  results,
  comparatorCalls: comparisons,
  jsComparator,
  targets,
};
log(JSON.stringify(targets));
if (sink < 0) log("unreachable");
mkdirSync(path.dirname(outFile), { recursive: true });
writeReport(args, outFile, "comparators", report);
