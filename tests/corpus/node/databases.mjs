// @ts-check
// Section "node_databases" of the node corpus (tests/corpus/README.md): whole databases written by
// rocksdb-native (RocksDB 10.x, whose MANIFESTs carry the newer NewFile4 fields: epoch numbers,
// tail sizes...) and classic-level (LevelDB), with what each says is live: RocksDB's
// "rocksdb.sstables" property (Version::DebugString with hex keys: per level each file's number,
// size, sequence numbers and internal keys), read once no flush or compaction is pending; and
// for both, the table files the closed database left (both delete obsolete tables), with sizes.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

import { ClassicLevel } from "classic-level";

const require = createRequire(import.meta.url);
/** @type {any} rocksdb-native is CommonJS and ships no types. */
const RocksDB = require("rocksdb-native");

/** splitmix64 over BigInt: a stable sequence per case. @param {string} id */
function random(id) {
  let state = 0n;
  for (const c of id) state = (state * 131n + BigInt(c.charCodeAt(0))) & 0xffffffffffffffffn;
  return (/** @type {number} */ n) => {
    state = (state + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return Number((z ^ (z >> 31n)) % BigInt(n));
  };
}

const key = (/** @type {number} */ i) => `key${String(i).padStart(6, "0")}`;

/** Values of `min` to `max` letters. @param {(n: number) => number} rng */
const value = (rng, /** @type {number} */ min, /** @type {number} */ max) =>
  "v".repeat(min + rng(max - min + 1));

/** Puts of `count` keys in random order, then overwrites of every 5th and deletions of every 7th. */
function history(
  /** @type {string} */ id,
  /** @type {number} */ count,
  /** @type {number} */ min,
  /** @type {number} */ max,
) {
  const rng = random(id);
  const order = Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = rng(i + 1);
    [order[i], order[j]] = [/** @type {number} */ (order[j]), /** @type {number} */ (order[i])];
  }
  /** @type {{ type: "put" | "del", key: string, value?: string }[]} */
  const ops = order.map((i) => ({ type: "put", key: key(i), value: value(rng, min, max) }));
  for (let i = 0; i < count; i += 5) ops.push({ type: "put", key: key(i), value: value(rng, min, max) });
  for (let i = 0; i < count; i += 7) ops.push({ type: "del", key: key(i) });
  return ops;
}

/** The table files a closed database left: [{ number, size }] by number. @param {string} dir @param {string} ext */
function tables(dir, ext) {
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .map((f) => ({ number: Number(f.slice(0, -ext.length)), size: statSync(path.join(dir, f)).size }))
    .sort((a, b) => a.number - b.number);
}

/** Until RocksDB has no flush or compaction pending or running. @param {any} db */
async function quiet(db) {
  const names = [
    "rocksdb.compaction-pending",
    "rocksdb.num-running-compactions",
    "rocksdb.num-running-flushes",
    "rocksdb.mem-table-flush-pending",
  ];
  for (let calm = 0; calm < 3;) {
    const busy = (await Promise.all(names.map((n) => db.getProperty(n)))).some((v) => String(v) !== "0");
    calm = busy ? 0 : calm + 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Copies CURRENT, the MANIFEST it names and IDENTITY into `folder`; returns their case fields.
 * @param {string} dir @param {string} out @param {string} folder
 */
function copyManifest(dir, out, folder) {
  mkdirSync(path.join(out, folder), { recursive: true });
  const name = readFileSync(path.join(dir, "CURRENT"), "utf8").split("\n")[0] ?? "";
  /** @type {Record<string, unknown>} */
  const fields = { current: `${folder}/CURRENT`, manifest: `${folder}/${name}`, manifest_name: name };
  for (const f of ["CURRENT", name, "IDENTITY"]) {
    try {
      copyFileSync(path.join(dir, f), path.join(out, folder, f));
      if (f === "IDENTITY") fields.identity = `${folder}/IDENTITY`;
    } catch (error) {
      if (f !== "IDENTITY") throw error;
    }
  }
  fields.files = readdirSync(dir).sort();
  return fields;
}

const ROCKS_CASES = [
  {
    id: "rn_db_levels",
    writer: "rocksdb-native, 64 KiB write buffer: 20000 puts in random order, overwrites, deletes, flush",
    options: { writeBufferSize: 64 << 10 },
    count: 20000,
    min: 50,
    max: 150,
  },
  {
    id: "rn_db_blob_files",
    writer: "rocksdb-native with blob files (min_blob_size 100, 64 KiB blob files, garbage collection)",
    options: {
      writeBufferSize: 64 << 10,
      enableBlobFiles: true,
      minBlobSize: 100,
      blobFileSize: 64 << 10,
      enableBlobGarbageCollection: true,
      blobGarbageCollectionAgeCutOff: 1.0,
    },
    count: 5000,
    min: 80,
    max: 300,
  },
];

/**
 * Writes the section's cases under `out`/node-databases, working in `scratch`; returns the cases.
 * @param {string} out @param {string} scratch
 */
export async function databaseCases(out, scratch) {
  const cases = [];
  for (const c of ROCKS_CASES) {
    const dir = path.join(scratch, c.id);
    const open = () => new RocksDB(dir, { columnFamily: new RocksDB.ColumnFamily("default", c.options) });
    let db = open();
    await db.ready();
    for (const op of history(c.id, c.count, c.min, c.max)) {
      if (op.type === "put") await db.put(op.key, op.value);
      else await db.delete(op.key);
    }
    await db.flush();
    await quiet(db);
    await db.close();
    // Reopened: the MANIFEST is rewritten as one edit per column family listing every file.
    db = open();
    await db.ready();
    await quiet(db);
    const sstables = String(await db.getProperty("rocksdb.sstables"));
    await db.close();
    cases.push({
      id: c.id,
      format: "rocksdb",
      writer: c.writer,
      sstables,
      tables: tables(dir, ".sst"),
      ...copyManifest(dir, out, `node-databases/${c.id}`),
    });
  }
  {
    const id = "cl_db_levels";
    const dir = path.join(scratch, id);
    const db = new ClassicLevel(dir, { compression: false, writeBufferSize: 256 << 10 });
    await db.open();
    for (const op of history(id, 6000, 500, 1500)) {
      if (op.type === "put") await db.put(op.key, /** @type {string} */ (op.value));
      else await db.del(op.key);
    }
    // A compaction that close() interrupts leaves its unfinished output on disk (leveldb
    // db/db_impl.cc: DoCompactionWork gives up when shutting down; only the next open deletes
    // it), and the folder would hold a table that is not live: close once the tree is still
    // (a compaction here takes milliseconds; still means no new version for a whole second).
    for (let round = 0, last = "", still = 0; round < 120 && still < 4; round++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = String(db.getProperty("leveldb.sstables"));
      still = now === last ? still + 1 : 0;
      last = now;
    }
    await db.close();
    cases.push({
      id,
      format: "leveldb",
      writer:
        "classic-level, 256 KiB write buffer: 6000 puts of 0.5 to 1.5 KB in random order, overwrites, deletes",
      tables: tables(dir, ".ldb"),
      ...copyManifest(dir, out, `node-databases/${id}`),
    });
  }
  return cases;
}
