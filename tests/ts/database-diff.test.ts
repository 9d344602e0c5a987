// sf.diffDatabases and `sstfilter diff DIR DIR` (issue 32): a database against a copy of itself is
// equal; against the copy after more writes (puts, overwrites, deletes, in tables of several levels
// and in the log) the differences it names are exactly those the libraries' own iterators give
// over both folders: classic-level (LevelDB) and rocksdb-native (RocksDB 10.x, range deletions
// too). A compacted copy has other files with the same contents: equal when files are ignored. A
// damaged MANIFEST is a typed error, the command's exit code 2.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import { ClassicLevel } from "classic-level";
import { SstFilterError, type DatabaseDiff, type NodeSstFilter } from "sstfilter";

import { loadBackend } from "./backends";
import { CLI } from "./cli-path";
import { rejectionOf } from "./rejection";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const RocksDB = require("rocksdb-native");

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
const key = (i: number): string => `key${String(i).padStart(6, "0")}`;
// Values of about 1 KB: a few thousand fill several tables, which compactions move to level 1.
const value = (i: number, round: number): string => `${round}:${i}:${"v".repeat(900 + (i % 200))}`;

/** What a library's iterator returned of a whole database, in its key order: [key, value] as hex. */
type Contents = [string, string][];

/** The differences of two iterations, as diffDatabases should report them (every one listed). */
function expectedDiff(
  a: Contents,
  b: Contents,
): { onlyInA: string[]; onlyInB: string[]; changed: string[][] } {
  const inB = new Map(b);
  const inA = new Map(a);
  return {
    onlyInA: a.filter(([k]) => !inB.has(k)).map(([k]) => k),
    onlyInB: b.filter(([k]) => !inA.has(k)).map(([k]) => k),
    changed: a.filter(([k, v]) => inB.has(k) && inB.get(k) !== v).map(([k, v]) => [k, v, inB.get(k)!]),
  };
}

/** The diff's records in the same terms (its samples are complete: maxReported is above every count). */
function foundDiff(d: DatabaseDiff): ReturnType<typeof expectedDiff> {
  expect(d.records.onlyInASamples.length).toBe(d.records.onlyInA);
  expect(d.records.onlyInBSamples.length).toBe(d.records.onlyInB);
  expect(d.records.changedSamples.length).toBe(d.records.changed);
  return {
    onlyInA: d.records.onlyInASamples.map((r) => hex(r.key)),
    onlyInB: d.records.onlyInBSamples.map((r) => hex(r.key)),
    changed: d.records.changedSamples.map((c) => [hex(c.key), hex(c.a.value), hex(c.b.value)]),
  };
}

async function classicContents(dir: string): Promise<Contents> {
  const db = new ClassicLevel<Buffer, Buffer>(dir, { keyEncoding: "buffer", valueEncoding: "buffer" });
  const out: Contents = [];
  for await (const [k, v] of db.iterator()) out.push([hex(k), hex(v)]);
  await db.close();
  return out;
}

async function rocksContents(dir: string): Promise<Contents> {
  const db = new RocksDB(dir);
  await db.ready();
  const out: Contents = [];
  for await (const { key: k, value: v } of db.iterator({})) out.push([hex(k), hex(v)]);
  await db.close();
  return out;
}

async function diffFolders(a: string, b: string, opts = {}): Promise<DatabaseDiff> {
  const [dbA, dbB] = [await sf.openDatabase(a), await sf.openDatabase(b)];
  try {
    return await sf.diffDatabases(dbA, dbB, { maxReported: 1_000_000, ...opts });
  } finally {
    dbA.dispose();
    dbB.dispose();
  }
}

const cliStatus = (...args: string[]): number | null =>
  spawnSync(process.execPath, [CLI, "diff", ...args]).status;

describe("LevelDB (classic-level)", () => {
  const root = mkdtempSync(path.join(tmpdir(), "sstfilter-dbdiff-leveldb-"));
  const [dirA, dirB] = [path.join(root, "a"), path.join(root, "b")];
  const options = { writeBufferSize: 64 << 10, compression: false };

  beforeAll(async () => {
    const db = new ClassicLevel(dirA, options);
    for (let i = 0; i < 3000; i++) await db.put(key(i), value(i, 0));
    await db.close();
    cpSync(dirA, dirB, { recursive: true });
  });

  test("a database against a copy of itself is equal, files and records", async () => {
    const d = await diffFolders(dirA, dirB);
    expect(d.equal).toBe(true);
    expect(d.files.countA).toBeGreaterThan(1);
    expect(d.files.countB).toBe(d.files.countA);
    expect(d.records.countA).toBe(3000);
    expect(cliStatus(dirA, dirB)).toBe(0);
  });

  test("a copy compacted with compactRange: contents equal, files differ; equal with files ignored", async () => {
    const compacted = path.join(root, "compacted");
    cpSync(dirA, compacted, { recursive: true });
    const db = new ClassicLevel(compacted, options);
    await db.compactRange(key(0), key(3000));
    await db.close();
    expect(await classicContents(compacted)).toEqual(await classicContents(dirA));
    const d = await diffFolders(dirA, compacted);
    expect([d.equal, d.files.equal, d.records.equal, d.records.countA]).toEqual([false, false, true, 3000]);
    const ignoring = await diffFolders(dirA, compacted, { ignore: ["files"] });
    expect([ignoring.equal, ignoring.files.equal, ignoring.records.equal]).toEqual([true, false, true]);
    expect([cliStatus(dirA, compacted), cliStatus("--ignore", "files", dirA, compacted)]).toEqual([1, 0]);
    // A table diff has no files to ignore: a usage error.
    const table = path.join(compacted, d.files.onlyInBSamples[0]!.name);
    expect(cliStatus("--ignore", "files", table, table)).toBe(2);
    await expect(diffFolders(dirA, compacted, { ignore: ["file" as never] })).rejects.toMatchObject({
      code: "BAD_OPTIONS",
    });
  });

  test("after overwrites, deletes and new keys (some flushed, some in the log) the diff names what the iterators differ in", async () => {
    const db = new ClassicLevel(dirB, options);
    for (let i = 0; i < 3000; i += 7) await db.put(key(i), value(i, 1));
    for (let i = 3; i < 3000; i += 11) await db.del(key(i));
    for (let i = 3000; i < 3500; i++) await db.put(key(i), value(i, 1));
    await db.close();
    // Reopened: the log goes to a table; the next writes stay in the new log.
    const again = new ClassicLevel(dirB, options);
    await again.put(key(5), value(5, 2));
    await again.del(key(6));
    await again.close();
    const expected = expectedDiff(await classicContents(dirA), await classicContents(dirB));
    expect(expected.onlyInA.length + expected.onlyInB.length + expected.changed.length).toBeGreaterThan(500);
    const d = await diffFolders(dirA, dirB);
    expect(d.equal).toBe(false);
    expect(d.files.equal).toBe(false);
    expect(foundDiff(d)).toEqual(expected);
    expect(d.records.changedSamples.every((c) => c.fields.join() === "value,seq")).toBe(true);
    expect(cliStatus(dirA, dirB)).toBe(1);
  });
});

describe("RocksDB 10.x (rocksdb-native)", () => {
  const root = mkdtempSync(path.join(tmpdir(), "sstfilter-dbdiff-rocksdb-"));
  const [dirA, dirB] = [path.join(root, "a"), path.join(root, "b")];

  beforeAll(async () => {
    const db = new RocksDB(dirA);
    await db.ready();
    for (let i = 0; i < 2000; i++) await db.put(key(i), value(i, 0));
    await db.flush();
    await db.close();
    cpSync(dirA, dirB, { recursive: true });
  });

  test("a database against a copy of itself is equal", async () => {
    const d = await diffFolders(dirA, dirB);
    expect(d.equal).toBe(true);
    expect(d.records.countA).toBe(2000);
    expect(cliStatus(dirA, dirB)).toBe(0);
  });

  test("after overwrites, deletes and a range deletion the diff names what the iterators differ in", async () => {
    const db = new RocksDB(dirB);
    await db.ready();
    for (let i = 0; i < 2000; i += 13) await db.put(key(i), value(i, 1));
    await db.deleteRange(key(100), key(150));
    await db.flush();
    for (let i = 1; i < 2000; i += 17) await db.delete(key(i));
    await db.put(key(120), value(120, 2)); // above the range deletion: live again
    await db.put("zzz", "new");
    await db.close();
    const expected = expectedDiff(await rocksContents(dirA), await rocksContents(dirB));
    expect(expected.onlyInA.length).toBeGreaterThan(100);
    const d = await diffFolders(dirA, dirB);
    expect(d.equal).toBe(false);
    expect(foundDiff(d)).toEqual(expected);
    // Without sequence numbers, the same: every change is also one of value.
    expect(foundDiff(await diffFolders(dirA, dirB, { ignore: ["seq"] }))).toEqual(expected);
    expect(cliStatus(dirA, dirB)).toBe(1);
  });
});

test("a damaged MANIFEST is a typed error, and diff's exit code 2", async () => {
  const root = mkdtempSync(path.join(tmpdir(), "sstfilter-dbdiff-damaged-"));
  const [good, bad] = [path.join(root, "good"), path.join(root, "bad")];
  const db = new ClassicLevel(good);
  await db.put("apple", "red");
  await db.close();
  cpSync(good, bad, { recursive: true });
  const manifest = path.join(bad, readFileSync(path.join(bad, "CURRENT"), "utf8").trim());
  const bytes = readFileSync(manifest);
  bytes[10] = bytes[10]! ^ 0xff;
  writeFileSync(manifest, bytes);
  const error = await rejectionOf(sf.openDatabase(bad));
  expect(error).toBeInstanceOf(SstFilterError);
  const r = spawnSync(process.execPath, [CLI, "diff", good, bad], { encoding: "utf8" });
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 2, stderr: expect.stringContaining(bad) });
});
