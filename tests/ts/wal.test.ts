// Write-ahead logs and OPTIONS files (sf.readWriteAheadLog, db.writeAheadLogs(), db.options(),
// sstfilter db inspect) on the db_wal section: the WALs RocksDB 7.8.3 and LevelDB 1.23 left
// unflushed, against the batches each library itself reads from them (RocksDB: a WalFilter in
// recovery; LevelDB: WriteBatch::Iterate over the batches written), and the OPTIONS file against
// LoadLatestOptions' reading of it.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";

import { SstFilterError, type NodeSstFilter, type WalFile } from "sstfilter";

import { loadBackend } from "./backends";
import { Corpus, sectionCases } from "./golden";
import { CLI } from "./cli-path";

interface LibraryBatch {
  log: number;
  sequence: number;
  count: number;
  records: { kind: string; cf: number; key: string; value: string }[];
  markers?: { kind: string; data: string; position: number }[];
}
interface OptionsMaps {
  file: string;
  db: Record<string, string>;
  column_families: {
    name: string;
    options: Record<string, string>;
    table_factory: string;
    table: Record<string, string>;
  }[];
}
interface WalCase {
  id: string;
  format: "rocksdb" | "leveldb";
  copied: Record<string, string>;
  wal: { name: string; number: number }[];
  batches: LibraryBatch[];
  cf_log_numbers?: Record<string, number>;
  options?: OptionsMaps;
}

const CASES = sectionCases<WalCase>("db_wal").map((c) => ({
  ...c,
  name: `${c.corpus.name}:${c.id}`,
  dir: path.dirname(c.corpus.path(Object.values(c.copied)[0]!)),
}));

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** A struct value as written ("{a=1;b=2;}") as StringToMap gives it: without its outer braces. */
const unbraced = (v: string | undefined): string | undefined =>
  v !== undefined && v.startsWith("{") && v.endsWith("}") ? v.slice(1, -1) : v;

/** Our batches in the corpus's shape (WriteBatch::Iterate says begin-prepare for both tags). */
function batchesOf(wal: WalFile): LibraryBatch[] {
  return wal.batches.map((b) => ({
    log: Number(wal.number),
    sequence: Number(b.sequence),
    count: b.count,
    records: wal.records.slice(b.firstRecord, b.firstRecord + b.count).map((r) => ({
      kind: r.kind,
      cf: r.columnFamily,
      key: hex(r.key),
      value: hex(r.value),
    })),
    markers: b.markers.map((m) => ({
      kind: m.kind === "begin-persisted-prepare" ? "begin-prepare" : m.kind,
      data: hex(m.data),
      position: m.position,
    })),
  }));
}

function expectLibraryBatches(c: (typeof CASES)[number], wals: WalFile[]): void {
  const ours = wals.flatMap(batchesOf);
  const theirs = c.batches.map((b) => ({ ...b, markers: b.markers ?? [] }));
  expect(ours).toEqual(theirs);
  for (const wal of wals) {
    expect(wal.end).toEqual({ kind: "clean", offset: expect.any(Number), what: "" });
    expect(wal.error).toBeNull();
    // Each record's own sequence: its batch's plus its index (one per record).
    for (const b of wal.batches) {
      wal.records
        .slice(b.firstRecord, b.firstRecord + b.count)
        .forEach((r, i) => expect(r.sequence).toBe(b.sequence + BigInt(i)));
    }
  }
}

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

test("the corpus has WALs of every record kind from RocksDB and LevelDB", () => {
  expect(CASES.filter((c) => c.format === "rocksdb").length).toBeGreaterThanOrEqual(2);
  expect(CASES.filter((c) => c.format === "leveldb").length).toBeGreaterThanOrEqual(1);
  const kinds = new Set(CASES.flatMap((c) => c.batches.flatMap((b) => b.records.map((r) => r.kind))));
  for (const k of ["put", "delete", "single-delete", "merge", "range-delete", "wide-columns"]) {
    expect([k, kinds.has(k)]).toEqual([k, true]);
  }
  const markers = new Set(
    CASES.flatMap((c) => c.batches.flatMap((b) => (b.markers ?? []).map((m) => m.kind))),
  );
  for (const k of ["log-data", "begin-prepare", "end-prepare", "commit", "rollback", "noop"]) {
    expect([k, markers.has(k)]).toEqual([k, true]);
  }
  // Two live WALs in one database: a column family's log number keeps the older one.
  expect(Math.max(...CASES.map((c) => c.wal.length))).toBeGreaterThanOrEqual(2);
});

describe.each(CASES)("$name", (c) => {
  test("db.writeAheadLogs() reads the live WALs as the library does", async () => {
    const db = await sf.openDatabase(c.dir);
    const wals = await db.writeAheadLogs();
    expect(wals.map((w) => [w.name, Number(w.number)])).toEqual(c.wal.map((w) => [w.name, w.number]));
    if (c.cf_log_numbers) {
      expect(
        Object.fromEntries(db.columnFamilies.map((cf) => [String(cf.id), Number(cf.logNumber)])),
      ).toEqual(c.cf_log_numbers);
    }
    expectLibraryBatches(c, wals);
    expect(await db.writeAheadLogs()).toBe(wals); // kept
  });

  test("sf.readWriteAheadLog reads each file alone the same", () => {
    const wals = c.wal.map((w) =>
      sf.readWriteAheadLog(readFileSync(path.join(c.dir, w.name)), { format: c.format, name: w.name }),
    );
    expectLibraryBatches(c, wals);
  });

  test("a WAL cut short gives the batches before the cut and a torn tail", () => {
    const w = c.wal[c.wal.length - 1]!;
    const bytes = new Uint8Array(readFileSync(path.join(c.dir, w.name)));
    const whole = sf.readWriteAheadLog(bytes, { format: c.format, name: w.name });
    let torn = 0;
    for (let i = 1; i <= 23; i++) {
      const cut = Math.floor((bytes.length * i) / 24);
      const part = sf.readWriteAheadLog(bytes.subarray(0, cut), { format: c.format, name: w.name });
      const at = `cut at ${cut}`;
      expect([at, part.error]).toEqual([at, null]);
      expect([at, part.batches.every((b, j) => b.offset === whole.batches[j]!.offset)]).toEqual([at, true]);
      expect(whole.records.slice(0, part.records.length)).toEqual(part.records);
      if (part.end.kind === "torn") {
        torn++;
        expect([at, part.end.offset]).toEqual([at, whole.batches[part.batches.length]!.offset]);
      } else {
        expect([at, part.end.kind]).toEqual([at, "clean"]);
      }
    }
    expect(torn).toBeGreaterThan(0);
  });

  test("a flipped byte: RocksDB's WAL stops at its record with CHECKSUM_MISMATCH; LevelDB's drops the rest of its block and reads on", () => {
    const w = c.wal[0]!;
    const bytes = new Uint8Array(readFileSync(path.join(c.dir, w.name)));
    const whole = sf.readWriteAheadLog(bytes, { format: c.format, name: w.name });
    const victim = Math.floor(whole.batches.length / 2);
    const flipped = bytes.slice();
    const offset = whole.batches[victim]!.offset;
    const at = offset + 7 + 3; // a payload byte (the header's sequence)
    flipped[at] = flipped[at]! ^ 0x01;
    const wal = sf.readWriteAheadLog(flipped, { format: c.format, name: w.name });
    if (c.format === "leveldb") {
      expect([wal.end.kind, wal.error]).toEqual(["clean", null]);
      const [drop] = wal.dropped;
      expect([drop?.error.code, drop?.error.file, drop?.offset]).toEqual([
        "CHECKSUM_MISMATCH",
        w.name,
        offset,
      ]);
      const blockEnd = (Math.floor(offset / 32768) + 1) * 32768;
      expect(drop?.size).toBe(blockEnd - offset);
      // Every batch before the damage, then those starting in a later block.
      const kept = whole.batches.filter((b, i) => i < victim || b.offset >= blockEnd).map((b) => b.offset);
      expect(wal.batches.map((b) => b.offset)).toEqual(kept);
      return;
    }
    expect(wal.end.kind).toBe("corrupt");
    expect(wal.error).toBeInstanceOf(SstFilterError);
    expect([wal.error!.code, wal.error!.file, wal.error!.offset]).toEqual([
      "CHECKSUM_MISMATCH",
      w.name,
      offset,
    ]);
    expect(wal.batches.length).toBe(victim);
    expect(wal.dropped).toEqual([]);
  });

  test("db.options() reads the newest OPTIONS file as LoadLatestOptions does", async () => {
    const db = await sf.openDatabase(c.dir);
    const options = await db.options();
    if (c.format === "leveldb") {
      expect(options).toBeNull();
      return;
    }
    const lib = c.options!;
    expect(options!.file).toBe(lib.file);
    expect(options!.version.rocksdb_version).toBe("7.8.3");
    expect(options!.columnFamilies.map((cf) => cf.name)).toEqual(lib.column_families.map((cf) => cf.name));
    // Every option the library reads back has the value the file holds: DB options, column family
    // options (the merge operator aside: the library cannot rebuild the case's own operator from
    // its name and says nullptr), table options.
    const mismatches = (ours: Record<string, string>, theirs: Record<string, string>, skip: string[] = []) =>
      Object.entries(theirs)
        .filter(([k, v]) => !skip.includes(k) && unbraced(ours[k]) !== v)
        .map(([k, v]) => [k, ours[k], v]);
    expect(mismatches(options!.dbOptions, lib.db)).toEqual([]);
    options!.columnFamilies.forEach((cf, i) => {
      const theirs = lib.column_families[i]!;
      expect(mismatches(cf.options, theirs.options, ["merge_operator"])).toEqual([]);
      expect(cf.options.merge_operator).toBe("CorpusAppendOperator");
      expect(cf.tableFactory).toBe(theirs.table_factory);
      expect(mismatches(cf.tableOptions, theirs.table)).toEqual([]);
      expect(Object.keys(cf.tableOptions).length).toBeGreaterThan(20);
    });
    expect(options!.columnFamilies[0]!.options.prefix_extractor).toBe("rocksdb.FixedPrefix.3");
    expect(options!.columnFamilies[0]!.tableOptions.filter_policy).toBe("bloomfilter:10:false");
    expect(await db.options()).toBe(options); // kept
  });

  test("db inspect shows the WAL summary and the options", () => {
    const r = spawnSync(process.execPath, [CLI, "db", "inspect", c.dir, "--json"], { encoding: "utf8" });
    expect([r.status, r.stderr]).toEqual([0, ""]);
    const out = JSON.parse(r.stdout) as {
      wal: {
        name: string;
        records: number;
        batches: number;
        kinds: Record<string, number>;
        end: { kind: string };
      }[];
      options: { file: string } | null;
    };
    expect(out.wal.map((w) => [w.name, w.batches, w.end.kind])).toEqual(
      c.wal.map((w) => [w.name, c.batches.filter((b) => b.log === w.number).length, "clean"]),
    );
    const kinds: Record<string, number> = {};
    for (const b of c.batches) for (const r of b.records) kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
    const ours: Record<string, number> = {};
    for (const w of out.wal) for (const [k, n] of Object.entries(w.kinds)) ours[k] = (ours[k] ?? 0) + n;
    expect(ours).toEqual(kinds);
    expect(out.options?.file ?? null).toBe(c.options?.file ?? null);
    const text = spawnSync(process.execPath, [CLI, "db", "inspect", c.dir], { encoding: "utf8" });
    expect(text.status).toBe(0);
    for (const w of c.wal) expect(text.stdout).toContain(w.name);
    if (c.options) expect(text.stdout).toContain(c.options.file);
  });
});

describe("OPTIONS files RocksDB's parser refuses", () => {
  const minimal = '[Version]\n  rocksdb_version=7.8.3\n[DBOptions]\n  a=1\n[CFOptions "default"]\n  b=2\n';
  // [what, text, the byte offset of the line RocksDB refuses (the end for what is missing)]
  test.each([
    ["a statement without '='", minimal + "  jünk\n", minimal.length],
    ["an unknown section", minimal + "[Mystery]\n", minimal.length],
    ["a second [DBOptions]", minimal + "[DBOptions]\n", minimal.length],
    ["a column family before default", '[DBOptions]\n[CFOptions "x"]\n', 12],
    [
      "table options without their column family",
      minimal + '[TableOptions/BlockBasedTable "x"]\n',
      minimal.length,
    ],
    ["no default column family", "[Version] # ü\n[DBOptions]\n  a=1\n", 33],
  ])("%s is CORRUPT", async (_what, text, offset) => {
    const real = CASES.find((c) => c.format === "rocksdb")!;
    const db = await sf.openDatabase({
      names: ["CURRENT", manifestOf(real), "OPTIONS-000005"],
      read: (name) =>
        Promise.resolve(
          name === "OPTIONS-000005"
            ? new TextEncoder().encode(text)
            : readFileSync(path.join(real.dir, name)),
        ),
    });
    await expect(db.options()).rejects.toMatchObject({ code: "CORRUPT", file: "OPTIONS-000005", offset });
  });
});

function manifestOf(c: (typeof CASES)[number]): string {
  return Object.keys(c.copied).find((n) => n.startsWith("MANIFEST-"))!;
}

test("arbitrary bytes never throw: every WAL ends clean, torn, corrupt or at an old record", () => {
  let state = 0x2545f491;
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return state >>> 0;
  };
  const ends = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const bytes = new Uint8Array(next() % 300);
    for (let j = 0; j < bytes.length; j++) bytes[j] = next() & 0xff;
    const wal = sf.readWriteAheadLog(bytes, { name: "000007.log" });
    ends.add(wal.end.kind);
    expect(wal.end.offset).toBeLessThanOrEqual(bytes.length);
    expect(wal.error === null).toBe(wal.end.kind !== "corrupt");
  }
  expect(ends.has("corrupt")).toBe(true);
  expect(() => sf.readWriteAheadLog("not bytes" as unknown as Uint8Array)).toThrow(SstFilterError);
  expect(() => sf.readWriteAheadLog(new Uint8Array(0), { format: "x" as "rocksdb" })).toThrow(/format/);
});

// RocksDB 10.x through rocksdb-native: the records as written, numbered from 1 (a fresh database).
interface NodeWalCase {
  id: string;
  wal: { name: string; number: number; path: string };
  batches: number[];
  records: { sequence: number; kind: string; key: string; value: string }[];
}
const NODE_CORPUS = Corpus.load(
  "node",
  process.env.SSTFILTER_NODE_CORPUS_DIR ?? path.join(__dirname, "..", "..", "build", "corpus", "node"),
);
if (!NODE_CORPUS) throw new Error("the node corpus is missing (run `bash scripts/corpus.sh`)");
const NODE_WALS = NODE_CORPUS.section<{ cases: NodeWalCase[] }>("node_wal")?.cases ?? [];

test("rocksdb-native's WALs (RocksDB 10.x) read as the records written", () => {
  expect(NODE_WALS.length).toBeGreaterThanOrEqual(1);
  for (const c of NODE_WALS) {
    const wal = sf.readWriteAheadLog(readFileSync(NODE_CORPUS.path(c.wal.path)), { name: c.wal.name });
    expect([c.id, wal.end.kind, wal.error]).toEqual([c.id, "clean", null]);
    expect(wal.batches.map((b) => b.count)).toEqual(c.batches);
    expect(
      wal.records.map((r) => ({
        sequence: Number(r.sequence),
        kind: r.kind,
        key: hex(r.key),
        value: hex(r.value),
      })),
    ).toEqual(c.records);
  }
});
