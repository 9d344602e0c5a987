// @ts-check
// Section "node_wal" of the node corpus (tests/corpus/README.md): a write-ahead log written by
// rocksdb-native (RocksDB 10.x), copied while the database is open (nothing flushed: the WAL holds
// every write), with the records written in order: rocksdb-native reports no sequence numbers, but
// a fresh database gives the first record 1 and each record the next.
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";

const require = createRequire(import.meta.url);
/** @type {any} rocksdb-native is CommonJS and ships no types. */
const RocksDB = require("rocksdb-native");

const hex = (/** @type {string} */ s) => Buffer.from(s).toString("hex");
const key = (/** @type {number} */ i) => `wal${String(i).padStart(6, "0")}`;

/**
 * Writes the section's case under `out`/node-wal, working in `scratch`; returns the cases.
 * @param {string} out @param {string} scratch
 */
export async function walCases(out, scratch) {
  const id = "rn_wal";
  const dir = path.join(scratch, id);
  const db = new RocksDB(dir);
  await db.ready();
  /** @type {{ kind: string, key: string, value: string }[]} */
  const records = [];
  /** @type {number[]} the records of each batch */
  const batches = [];
  for (let i = 0; i < 300; i++) {
    if (i % 10 === 9) {
      await db.delete(key(i - 4));
      records.push({ kind: "delete", key: hex(key(i - 4)), value: "" });
    } else if (i % 50 === 25) {
      await db.deleteRange(key(i - 20), key(i - 15));
      records.push({ kind: "range-delete", key: hex(key(i - 20)), value: hex(key(i - 15)) });
    } else {
      const value = "v".repeat(1 + (i % 97));
      await db.put(key(i), value);
      records.push({ kind: "put", key: hex(key(i)), value: hex(value) });
    }
    batches.push(1);
  }
  const batch = db.write();
  batch.put("batch-put", "b");
  batch.delete(key(3));
  batch.deleteRange("batch-a", "batch-b");
  await batch.flush();
  batch.destroy();
  records.push(
    { kind: "put", key: hex("batch-put"), value: hex("b") },
    { kind: "delete", key: hex(key(3)), value: "" },
    { kind: "range-delete", key: hex("batch-a"), value: hex("batch-b") },
  );
  batches.push(3);
  const large = "L".repeat(100000); // spans four 32 KiB log blocks
  await db.put("large", large);
  records.push({ kind: "put", key: hex("large"), value: hex(large) });
  batches.push(1);
  const wal = await db.currentWalFile();
  // Copied while open: closing may flush the memtable and retire the WAL.
  const folder = `node-wal/${id}`;
  mkdirSync(path.join(out, folder), { recursive: true });
  const files = readdirSync(dir).sort();
  const name = path.basename(wal.path);
  copyFileSync(path.join(dir, name), path.join(out, folder, name));
  await db.close();
  return [
    {
      id,
      format: "rocksdb",
      writer:
        "rocksdb-native: 300 single writes (puts, every 10th a delete, two range deletions), a batch " +
        "of three, a 100 KB value; the WAL copied before closing",
      files,
      wal: { name, number: wal.number, path: `${folder}/${name}` },
      batches,
      records: records.map((r, i) => ({ sequence: i + 1, ...r })),
    },
  ];
}
