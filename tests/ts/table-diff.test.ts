// sf.diffTables and `sstfilter diff` (issue 32): every corpus table equals itself; tables sstfilter
// writes from the same entries with another compression, checksum, block size or filter have
// equal entries and the physical differences named; one value changed, one key added, one deleted,
// one sequence number changed are each found with the right key; the range deletions of the
// corpus's RocksDB tables (SstFileWriter's) against copies written without them or with one
// changed; a damaged copy is a typed error (the command's exit code 2).
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import {
  SstFilterError,
  type DiffProgress,
  type NodeSstFilter,
  type Table,
  type TableDiff,
  type WriteOptions,
} from "sstfilter";

import { loadBackend } from "./backends";
import { CLI } from "./cli-path";
import { sectionCases, writerEntries, type WriterEntry } from "./golden";

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

const decoded = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** The entries the written tables hold: key00000 .. key00499, each with its own value. */
const ENTRIES: [string, string][] = Array.from({ length: 500 }, (_, i) => [
  `key${String(i).padStart(5, "0")}`,
  `value-${i}-${"x".repeat(i % 37)}`,
]);

const BASE: WriteOptions = { format: "rocksdb", filter: "rocksdb-bloom", compression: "snappy" };

/** The table sstfilter's writer makes of `entries` with `opts`. */
function written(entries: [string, string][], opts: Partial<WriteOptions> = {}): Uint8Array {
  const w = sf.createTableWriter({ ...BASE, ...opts } as WriteOptions);
  for (const [k, v] of entries) w.put(k, v);
  return w.finish();
}

// LevelDB's writer is a bare TableBuilder: its keys carry no tag.
const open = (bytes: Uint8Array, internalKeys = true): Table => sf.openTable(bytes, { internalKeys });

/** diffTables of two tables' bytes; both tables are disposed after. */
async function diffOf(
  a: Uint8Array,
  b: Uint8Array,
  opts?: Parameters<NodeSstFilter["diffTables"]>[2],
  internalKeys = true,
): Promise<TableDiff> {
  const ta = open(a, internalKeys);
  const tb = open(b, internalKeys);
  try {
    return await sf.diffTables(ta, tb, opts);
  } finally {
    ta.dispose();
    tb.dispose();
  }
}

const fieldsOf = (d: TableDiff): string[] => d.physical.fields.map((f) => f.field);
const changedNames = (d: TableDiff): string[] => d.physical.properties.changed.map((c) => c.name);

interface CorpusTable {
  id: string;
  file: { path: string };
  /** LevelDB: false for tables a bare TableBuilder wrote (RocksDB's record none: internal keys). */
  internal_keys?: boolean;
}

describe("every corpus table equals itself", () => {
  const cases = [...sectionCases<CorpusTable>("rocksdb_sst"), ...sectionCases<CorpusTable>("leveldb_table")];

  test.each(cases.map((c) => [`${c.corpus.name}/${c.id}`, c] as const))("%s", async (id, c) => {
    const bytes = c.corpus.readBytes(c.file.path);
    const internalKeys = c.internal_keys ?? true;
    const [a, b] = [sf.openTable(bytes, { internalKeys }), sf.openTable(bytes, { internalKeys })];
    try {
      if (!a.order.known) {
        // A LevelDB table whose index does not ascend bytewise: its entries cannot be merged
        // without its comparator.
        await expect(sf.diffTables(a, b)).rejects.toMatchObject({ code: "UNSUPPORTED" });
        return;
      }
      const d = await sf.diffTables(a, b);
      expect([id, d.equal, d.physical.fields, d.entries.onlyInA, d.entries.changed]).toEqual([
        id,
        true,
        [],
        0,
        0,
      ]);
      expect([id, d.entries.countA > 0, d.entries.countA === d.entries.countB]).toEqual([id, true, true]);
    } finally {
      a.dispose();
      b.dispose();
    }
  });
});

describe("the same entries written differently: entries equal, the physical difference named", () => {
  const base = (): Uint8Array => written(ENTRIES);

  test("another compression: the property, not the block contents", async () => {
    const d = await diffOf(base(), written(ENTRIES, { compression: "none" }));
    expect([d.entries.equal, d.entries.countA, d.physical.equal, d.equal]).toEqual([true, 500, false, false]);
    expect(changedNames(d)).toContain("rocksdb.compression");
    expect(d.physical.dataBlock).toBeNull();
  });

  test("another checksum: the footer's checksum type", async () => {
    const d = await diffOf(base(), written(ENTRIES, { checksum: "crc32c" }));
    expect(d.entries.equal).toBe(true);
    expect(d.physical.fields.find((f) => f.field === "footer.checksum")).toEqual({
      field: "footer.checksum",
      a: "xxh3",
      b: "crc32c",
    });
  });

  test("another block size: more data blocks, the first differing one at offset 0 in both", async () => {
    const d = await diffOf(base(), written(ENTRIES, { blockSize: 512 }));
    expect(d.entries.equal).toBe(true);
    expect(fieldsOf(d)).toContain("data.blocks");
    expect(d.physical.dataBlock).toMatchObject({ index: 0, a: { offset: 0 }, b: { offset: 0 } });
  });

  test("another filter: policy, kind and the filter's bytes from their first 64-byte block", async () => {
    const d = await diffOf(base(), written(ENTRIES, { filter: "rocksdb-ribbon" }));
    expect(d.entries.equal).toBe(true);
    expect(fieldsOf(d)).toEqual(expect.arrayContaining(["filter.policy", "filter.kind"]));
    expect(d.physical.filterBytes).toEqual({ part: 0, offset: 0 });
    expect(d.physical.dataBlock).toBeNull();
  });

  test("other bits per key: the filter's parameters, and where its bytes first differ", async () => {
    const d = await diffOf(base(), written(ENTRIES, { bitsPerKey: 16 }));
    expect(fieldsOf(d)).toEqual(expect.arrayContaining(["filter.bytes", "filter.bitsPerKey"]));
    expect(d.physical.filterBytes).not.toBeNull();
  });

  test("a LevelDB table with another block size", async () => {
    const leveldb: Partial<WriteOptions> = { format: "leveldb", filter: "leveldb" };
    const d = await diffOf(
      written(ENTRIES, leveldb),
      written(ENTRIES, { ...leveldb, blockSize: 256 }),
      {},
      false,
    );
    expect([d.entries.equal, d.entries.countA]).toEqual([true, 500]);
    expect(fieldsOf(d)).toEqual(expect.arrayContaining(["data.blocks", "filter.bytes"]));
  });

  test("the same table read lazily (AsyncTable) against in memory (Table)", async () => {
    const bytes = base();
    const lazy = await sf.openTableFrom(new Blob([new Uint8Array(bytes)]));
    const whole = open(bytes);
    try {
      const d = await sf.diffTables(lazy, whole);
      expect([d.equal, d.entries.countA]).toEqual([true, 500]);
    } finally {
      lazy.dispose();
      whole.dispose();
    }
  });
});

describe("entries that differ are found with their keys", () => {
  test("one value changed", async () => {
    const changed = ENTRIES.map(([k, v]): [string, string] => (k === "key00123" ? [k, "another"] : [k, v]));
    const d = await diffOf(written(ENTRIES), written(changed));
    expect([d.entries.onlyInA, d.entries.onlyInB, d.entries.changed]).toEqual([0, 0, 1]);
    const c = d.entries.changedSamples[0]!;
    expect([decoded(c.key), c.fields, decoded(c.a.value), decoded(c.b.value)]).toEqual([
      "key00123",
      ["value"],
      ENTRIES[123]![1],
      "another",
    ]);
  });

  test("one key added", async () => {
    const added = [...ENTRIES.slice(0, 200), ["key00199a", "new"] as [string, string], ...ENTRIES.slice(200)];
    const d = await diffOf(written(ENTRIES), written(added));
    expect([d.entries.onlyInA, d.entries.onlyInB, d.entries.changed, d.entries.countB]).toEqual([
      0, 1, 0, 501,
    ]);
    expect(decoded(d.entries.onlyInBSamples[0]!.key)).toBe("key00199a");
  });

  test("one key deleted", async () => {
    const deleted = ENTRIES.filter(([k]) => k !== "key00499");
    const d = await diffOf(written(ENTRIES), written(deleted));
    expect([d.entries.onlyInA, d.entries.onlyInB, d.entries.changed]).toEqual([1, 0, 0]);
    expect(decoded(d.entries.onlyInASamples[0]!.key)).toBe("key00499");
  });

  test("in a table's own order (reverse bytewise): a deleted key found where that order puts it", async () => {
    const reverse: Partial<WriteOptions> = { comparator: "rocksdb.ReverseBytewiseComparator" };
    const descending = [...ENTRIES].reverse();
    const fewer = descending.filter(([k]) => k !== "key00250" && k !== "key00001");
    const d = await diffOf(written(descending, reverse), written(fewer, reverse));
    expect([d.entries.onlyInA, d.entries.onlyInB, d.entries.changed]).toEqual([2, 0, 0]);
    expect(d.entries.onlyInASamples.map((e) => decoded(e.key))).toEqual(["key00250", "key00001"]);
  });

  test("tables in different key orders are not merged: BAD_OPTIONS", async () => {
    const reverse = written([...ENTRIES].reverse(), { comparator: "rocksdb.ReverseBytewiseComparator" });
    await expect(diffOf(written(ENTRIES), reverse)).rejects.toMatchObject({ code: "BAD_OPTIONS" });
  });

  test("every difference counted, maxReported of each listed, in key order", async () => {
    const fewer = ENTRIES.filter((_, i) => i % 100 !== 7);
    const d = await diffOf(written(ENTRIES), written(fewer), { maxReported: 2 });
    expect(d.entries.onlyInA).toBe(5);
    expect(d.entries.onlyInASamples.map((e) => decoded(e.key))).toEqual(["key00007", "key00107"]);
  });

  // diffTables compares a batch of each table at a time (ts/api/entries-diff.ts): 5 MB of entries
  // are several batches, their boundaries at other keys in A and in B.
  test("across many batches: every difference counted, in both a Table and an AsyncTable", async () => {
    const many = Array.from({ length: 50_000 }, (_, i): [string, string] => [
      `key${String(i).padStart(6, "0")}`,
      `value-${i}-${"v".repeat(80 + (i % 23))}`,
    ]);
    const other = many
      .filter((_, i) => i % 997 !== 5)
      .map(([k, v], i): [string, string] => [k, i % 1009 === 3 ? `${v}!` : v]);
    other.push(["key999999", "only in B"]);
    const a = written(many);
    const b = written(other);
    const t = open(a);
    expect([...t.entryBatches()].length).toBeGreaterThan(2);
    t.dispose();
    const d = await diffOf(a, b, { maxReported: 3 });
    const deleted = many.filter((_, i) => i % 997 === 5).length;
    const changed = many.filter((_, i) => i % 997 !== 5).filter((_, i) => i % 1009 === 3).length;
    expect([d.entries.onlyInA, d.entries.onlyInB, d.entries.changed]).toEqual([deleted, 1, changed]);
    expect([d.entries.countA, d.entries.countB]).toEqual([many.length, other.length]);
    expect(d.entries.onlyInASamples.map((e) => decoded(e.key))).toEqual([
      "key000005",
      "key001002",
      "key001999",
    ]);
    expect(d.entries.changedSamples.map((c) => [decoded(c.key), c.fields])).toEqual([
      ["key000003", ["value"]],
      ["key001014", ["value"]],
      ["key002024", ["value"]],
    ]);
    const dir = mkdtempSync(path.join(tmpdir(), "sstfilter-diff-batches-"));
    writeFileSync(path.join(dir, "a.sst"), a);
    writeFileSync(path.join(dir, "b.sst"), b);
    const [fa, fb] = [
      await sf.openTableFile(path.join(dir, "a.sst")),
      await sf.openTableFile(path.join(dir, "b.sst")),
    ];
    try {
      expect((await sf.diffTables(fa, fb, { maxReported: 3 })).entries).toEqual(d.entries);
    } finally {
      fa.dispose();
      fb.dispose();
    }
  });

  test("onProgress: the counts after each batch, rising, and the final counts last", async () => {
    // 50,000 entries in A (several batches), every other one in B.
    const many = Array.from({ length: 50_000 }, (_, i): [string, string] => [
      `key${String(i).padStart(6, "0")}`,
      `value-${i}-${"v".repeat(80)}`,
    ]);
    const reports: DiffProgress[] = [];
    const d = await diffOf(written(many), written(many.filter((_, i) => i % 2 === 0)), {
      onProgress: (p) => reports.push(p),
    });
    expect(reports.length).toBeGreaterThan(2);
    const last = reports[reports.length - 1]!;
    expect(last).toEqual({
      countA: d.entries.countA,
      countB: d.entries.countB,
      onlyInA: d.entries.onlyInA,
      onlyInB: d.entries.onlyInB,
      changed: d.entries.changed,
    });
    expect(last).toEqual({ countA: 50_000, countB: 25_000, onlyInA: 25_000, onlyInB: 0, changed: 0 });
    // Before the end, a report is of a walk under way.
    expect(reports[0]!.countA).toBeLessThan(50_000);
    for (let i = 1; i < reports.length; i++) {
      expect(reports[i]!.countA).toBeGreaterThanOrEqual(reports[i - 1]!.countA);
      expect(reports[i]!.onlyInA).toBeGreaterThanOrEqual(reports[i - 1]!.onlyInA);
    }
  });

  test("onProgress that is not a function is BAD_OPTIONS", async () => {
    const t = written(ENTRIES);
    await expect(
      diffOf(t, t, { onProgress: 1 as unknown as (p: DiffProgress) => void }),
    ).rejects.toMatchObject({ code: "BAD_OPTIONS" });
  });

  test("a sequence number changed: found, and equal when seq is ignored", async () => {
    // No compression, no checksum: the first entry's tag can be rewritten in place. The first key
    // of a block is stored whole (shared 0), its 8-byte tag after it: (seq << 8 | type), LE.
    const opts: Partial<WriteOptions> = { compression: "none", checksum: "none" };
    const a = written(ENTRIES, opts);
    const b = a.slice();
    const at = Buffer.from(b).indexOf(Buffer.from("key00000")) + "key00000".length;
    expect(Array.from(b.subarray(at, at + 8))).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    b[at + 1] = 5;
    const d = await diffOf(a, b);
    expect([
      d.entries.changed,
      decoded(d.entries.changedSamples[0]!.key),
      d.entries.changedSamples[0]!.fields,
    ]).toEqual([1, "key00000", ["seq"]]);
    expect([d.entries.changedSamples[0]!.a.seq, d.entries.changedSamples[0]!.b.seq]).toEqual([0n, 5n]);
    expect(d.physical.dataBlock).toMatchObject({ index: 0 });
    const ignoring = await diffOf(a, b, { ignore: ["seq"] });
    expect([ignoring.entries.equal, ignoring.equal]).toEqual([true, true]);
  });

  test("volatile properties differ; ignored by name, by prefix or as the volatile list", async () => {
    const at = (time: string): Uint8Array =>
      written(ENTRIES, { properties: { "rocksdb.creation.time": time } });
    const d = await diffOf(at("100"), at("200"));
    expect([d.equal, d.entries.equal, changedNames(d)]).toEqual([false, true, ["rocksdb.creation.time"]]);
    for (const ignore of [
      ["properties:rocksdb.creation.time"],
      ["properties:rocksdb.creat*"],
      ["properties:volatile"],
    ]) {
      const ignored = await diffOf(at("100"), at("200"), { ignore: ignore as never });
      expect([ignore, ignored.equal]).toEqual([ignore, true]);
    }
  });

  test("an ignore item it does not know is BAD_OPTIONS", async () => {
    const bytes = written(ENTRIES);
    await expect(diffOf(bytes, bytes, { ignore: ["sequence" as never] })).rejects.toMatchObject({
      code: "BAD_OPTIONS",
    });
  });
});

interface WriterCase {
  id: string;
  options: { format: "rocksdb" | "leveldb" };
  entries: { path: string };
  file: { path: string };
}

// RocksDB's value type of a range deletion (db/dbformat.h kTypeRangeDeletion), as entries.bin records it.
const RANGE_DELETION = 0x0f;

/** A table sstfilter's writer makes of a table_writer case's entries (puts, deletes, merges, range deletions). */
function writtenFrom(entries: WriterEntry[], opts: Partial<WriteOptions> = {}): Uint8Array {
  const w = sf.createTableWriter({ ...BASE, ...opts } as WriteOptions);
  for (const e of entries) {
    if (e.type === 1) w.put(e.key, e.value);
    else if (e.type === 0) w.delete(e.key);
    else if (e.type === 2) w.merge(e.key, e.value);
    else w.deleteRange(e.key, e.value);
  }
  return w.finish();
}

describe("range deletions", () => {
  // The corpus's tables RocksDB's SstFileWriter wrote with range deletions (table_writer cases).
  const cases = sectionCases<WriterCase>("table_writer")
    .filter((c) => c.options.format === "rocksdb")
    .map((c) => ({ c, entries: writerEntries(c.corpus.readBytes(c.entries.path)) }))
    .filter(({ entries }) => entries.some((e) => e.type === RANGE_DELETION));
  test("the corpus has RocksDB tables with range deletions", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases.map((x) => [`${x.c.corpus.name}/${x.c.id}`, x] as const))(
    "%s: against copies with the same, without, and with one changed",
    async (id, { c, entries }) => {
      const table = c.corpus.readBytes(c.file.path);
      const deletions = entries.filter((e) => e.type === RANGE_DELETION);
      const same = await diffOf(table, writtenFrom(entries));
      expect([id, same.rangeDeletions.equal, same.rangeDeletions.countA, same.rangeDeletions.countB]).toEqual(
        [id, true, deletions.length, deletions.length],
      );
      expect([id, same.entries.equal]).toEqual([id, true]);

      // A table of range deletions alone keeps one put instead (a RocksDB table has an entry).
      const points = entries.filter((e) => e.type !== RANGE_DELETION);
      const onePut: WriterEntry = { type: 1, key: deletions[0]!.key, value: new Uint8Array(0) };
      const without = await diffOf(table, writtenFrom(points.length > 0 ? points : [onePut]));
      const r = without.rangeDeletions;
      expect([id, without.equal, r.equal, r.onlyInA, r.onlyInB, r.changed, r.countB]).toEqual([
        id,
        false,
        false,
        deletions.length,
        0,
        0,
        0,
      ]);
      expect([id, without.entries.equal]).toEqual([id, points.length > 0]);

      // The first range deletion's end one byte longer: that one changed, found at its start key.
      const first = deletions[0]!;
      const longer = entries.map((e) =>
        e === first ? { ...e, value: Uint8Array.from([...e.value, 0]) } : e,
      );
      const changed = await diffOf(table, writtenFrom(longer));
      const rc = changed.rangeDeletions;
      expect([id, changed.equal, rc.onlyInA, rc.onlyInB, rc.changed]).toEqual([id, false, 0, 0, 1]);
      const change = rc.changedSamples[0]!;
      expect([id, decoded(change.start), change.fields, change.b.end.length - change.a.end.length]).toEqual([
        id,
        decoded(first.key),
        ["end"],
        1,
      ]);
    },
  );

  test("a range deletion's sequence number changed: found, and equal when seq is ignored", async () => {
    // No compression, no checksum: the range deletion's tag is rewritten in place. Its start key is
    // stored whole in the range_del block, its tag after it: (seq << 8 | 0x0f), LE.
    const w = sf.createTableWriter({ ...BASE, compression: "none", checksum: "none" } as WriteOptions);
    for (const [k, v] of ENTRIES) w.put(k, v);
    w.deleteRange("key00100", "key00200");
    const a = w.finish();
    const b = a.slice();
    const tag = Buffer.from([..."key00100"].map((ch) => ch.charCodeAt(0)).concat([RANGE_DELETION, 0, 0, 0]));
    const at = Buffer.from(b).indexOf(tag) + "key00100".length;
    expect(at).toBeGreaterThanOrEqual("key00100".length);
    b[at + 1] = 5;
    const d = await diffOf(a, b);
    const r = d.rangeDeletions;
    expect([d.equal, d.entries.equal, r.changed, r.changedSamples[0]?.fields]).toEqual([
      false,
      true,
      1,
      ["seq"],
    ]);
    expect([r.changedSamples[0]!.a.seq, r.changedSamples[0]!.b.seq]).toEqual([0n, 5n]);
    const ignoring = await diffOf(a, b, { ignore: ["seq"] });
    expect([ignoring.rangeDeletions.equal, ignoring.equal]).toEqual([true, true]);
  });

  test("sstfilter diff: range deletions in the text and --json, exit 1 when only they differ", () => {
    const [c] = cases;
    const { entries } = c!;
    const dir = mkdtempSync(path.join(tmpdir(), "sstfilter-diff-ranges-"));
    const a = path.join(dir, "a.sst");
    const b = path.join(dir, "b.sst");
    writeFileSync(a, writtenFrom(entries));
    writeFileSync(
      b,
      writtenFrom(entries.filter((e) => e !== entries.find((x) => x.type === RANGE_DELETION))),
    );
    const text = spawnSync(process.execPath, [CLI, "diff", a, b], { encoding: "utf8" });
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(
      /^range deletions: 1 only in A, 0 only in B, 0 changed \(\d+ in A, \d+ in B\)$/m,
    );
    expect(text.stdout).toMatch(/^ {2}only in A: .* @ 0 range-delete : /m);
    const json = spawnSync(process.execPath, [CLI, "diff", "--json", a, b], { encoding: "utf8" });
    const report = JSON.parse(json.stdout) as {
      rangeDeletions: { onlyInA: number; onlyInASamples: unknown[] };
    };
    expect([json.status, report.rangeDeletions.onlyInA]).toEqual([1, 1]);
    expect(Object.keys(report.rangeDeletions.onlyInASamples[0] as object)).toEqual(["start", "end", "seq"]);
  });
});

describe("a damaged copy", () => {
  const bytes = (): Uint8Array => written(ENTRIES);
  const truncated = (): Uint8Array => bytes().subarray(0, bytes().length - 20);

  test("a truncated copy does not open: a typed error", () => {
    let error: unknown;
    try {
      open(truncated());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SstFilterError);
  });

  test("a data block whose checksum fails rejects diffTables with a typed error", async () => {
    const damaged = bytes();
    damaged[10]! ^= 0xff;
    await expect(diffOf(bytes(), damaged)).rejects.toBeInstanceOf(SstFilterError);
  });

  test("sstfilter diff: exit 0 equal, 1 different, 2 for a truncated copy", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sstfilter-diff-"));
    const file = (name: string, contents: Uint8Array): string => {
      writeFileSync(path.join(dir, name), contents);
      return path.join(dir, name);
    };
    const a = file("a.sst", bytes());
    const b = file("b.sst", written(ENTRIES.slice(1)));
    const cut = file("cut.sst", truncated());
    const run = (...args: string[]): number | null =>
      spawnSync(process.execPath, [CLI, "diff", ...args]).status;
    expect([run(a, a), run(a, b), run(a, cut), run(a)]).toEqual([0, 1, 2, 2]);
  });
});
