// @ts-check
// Section "node_db_get" of the node corpus (tests/corpus/README.md): whole databases, tables
// included, written by rocksdb-native (RocksDB 10.x: puts in random order, overwrites, deletes,
// range deletions, a 64 KiB write buffer) and classic-level (LevelDB: the same without range
// deletions), with what each library's own get answers for probe keys. The memtable is flushed
// before closing (rocksdb-native: flush; LevelDB: compactRange over a range holding no key), so
// the answers depend on the tables alone. The database is copied closed, then reopened to ask.
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

import { ClassicLevel } from "classic-level";

const require = createRequire(import.meta.url);
/** @type {any} rocksdb-native is CommonJS and ships no types. */
const RocksDB = require("rocksdb-native");

const COUNT = 8000;
const key = (/** @type {number} */ i) => `key${String(i).padStart(6, "0")}`;

/** A stable value per key and round. */
const value = (/** @type {number} */ i, /** @type {number} */ round) =>
  `value-${round}-${i}-${"v".repeat((i * 7 + round * 13) % 90)}`;

/** Puts in a fixed shuffled order, overwrites of every 5th key, deletions of every 7th. */
function history() {
  const order = Array.from({ length: COUNT }, (_, i) => (i * 4099) % COUNT);
  /** @type {{ type: "put" | "del", key: string, value?: string }[]} */
  const ops = order.map((i) => ({ type: "put", key: key(i), value: value(i, 0) }));
  for (let i = 0; i < COUNT; i += 5) ops.push({ type: "put", key: key(i), value: value(i, 1) });
  for (let i = 0; i < COUNT; i += 7) ops.push({ type: "del", key: key(i) });
  return ops;
}

/** Every 3rd key, keys never written (after the range, between keys, before it). */
const PROBES = [
  ...Array.from({ length: Math.ceil(COUNT / 3) }, (_, i) => key(i * 3)),
  ...Array.from({ length: 50 }, (_, i) => key(COUNT + i)),
  ...Array.from({ length: 50 }, (_, i) => `${key(i * 97)}x`),
  "a",
  "zzz",
];

/** Copies the closed database's files (not LOCK or the info logs) into `out`/`folder`. */
function copyDatabase(/** @type {string} */ dir, /** @type {string} */ out, /** @type {string} */ folder) {
  mkdirSync(path.join(out, folder), { recursive: true });
  const files = readdirSync(dir).filter((f) => f !== "LOCK" && !f.startsWith("LOG"));
  for (const f of files) copyFileSync(path.join(dir, f), path.join(out, folder, f));
  return files.sort();
}

/**
 * Writes the section's cases under `out`/node-db-get, working in `scratch`; returns the cases.
 * @param {string} out @param {string} scratch
 */
export async function getCases(out, scratch) {
  const cases = [];
  {
    const id = "rn_get";
    const dir = path.join(scratch, id);
    const open = () =>
      new RocksDB(dir, { columnFamily: new RocksDB.ColumnFamily("default", { writeBufferSize: 64 << 10 }) });
    let db = open();
    await db.ready();
    for (const [n, op] of history().entries()) {
      if (op.type === "put") await db.put(op.key, op.value);
      else await db.delete(op.key);
      // A few range deletions along the way, each over 40 keys.
      if (n % 2500 === 1000) await db.deleteRange(key(n % COUNT), key((n % COUNT) + 40));
    }
    await db.flush();
    await db.close();
    const folder = `node-db-get/${id}`;
    const files = copyDatabase(dir, out, folder);
    db = open();
    await db.ready();
    const answers = [];
    for (const k of PROBES) {
      const v = await db.get(k);
      answers.push(v === null || v === undefined ? null : Buffer.from(v).toString("utf8"));
    }
    await db.close();
    cases.push({ id, format: "rocksdb", dir: folder, files, probes: PROBES, answers });
  }
  {
    const id = "cl_get";
    const dir = path.join(scratch, id);
    let db = new ClassicLevel(dir, { compression: false, writeBufferSize: 64 << 10 });
    await db.open();
    for (const op of history()) {
      if (op.type === "put") await db.put(op.key, /** @type {string} */ (op.value));
      else await db.del(op.key);
    }
    // Over no key: flushes the memtable, compacts nothing.
    await db.compactRange("0", "1");
    await db.close();
    const folder = `node-db-get/${id}`;
    const files = copyDatabase(dir, out, folder);
    db = new ClassicLevel(dir, { compression: false });
    await db.open();
    const answers = [];
    for (const k of PROBES) {
      // classic-level 1.x rejects a missing key with LEVEL_NOT_FOUND, 2.x gives undefined.
      const v = await db.get(k).catch((/** @type {any} */ error) => {
        if (error?.code === "LEVEL_NOT_FOUND") return null;
        throw error;
      });
      answers.push(v ?? null);
    }
    await db.close();
    cases.push({ id, format: "leveldb", dir: folder, files, probes: PROBES, answers });
  }
  writeFileSync(
    path.join(out, "node-db-get/manifest.json"),
    JSON.stringify({ format: "sstfilter-corpus/1", section: "node_db_get", cases }, null, 1),
  );
  return cases;
}
