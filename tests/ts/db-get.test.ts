// db.get / db.explainGet and `sstfilter db get` (ts/api/db-get.ts, ts/tools/db-get.ts) on the db_get
// section: a database db_bench (RocksDB 7.8.3) left with files on levels 0 to 2, range deletions,
// merge chains (uint64add) and an unflushed WAL, with RocksDB's Get answer, Statistics and
// PerfContext counters for every probe, and `ldb get --hex`'s output for every fourth.
// Every probe is checked twice: with the WAL replayed (the core's memtable, as db.recoverLogs() lists it),
// and over the tables alone (no logs read) against RocksDB's answer on a copy without the WAL.
import { spawnSync } from "node:child_process";
import * as path from "node:path";

import {
  Database,
  SstFilterError,
  type GetExplanation,
  type NodeSstFilter,
  type RouteStep,
  type WalFile,
} from "sstfilter";

// The CommonJS package holds only what the Node entry imports; the command's module is taken from source.
import { dbGet, routeLine } from "../../ts/tools/db-get";
import { logBytes } from "./wal-bytes";
import { loadBackend } from "./backends";
import { libraryGetCases, parseKeys, sectionCases } from "./golden";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { CLI } from "./cli-path";

interface RocksAnswer {
  status: "ok" | "not-found";
  value?: string;
  tickers: Record<string, number>;
  perf: { block_read_count: number; bloom_sst_hit_count: number; bloom_sst_miss_count: number };
}
interface LdbOutput {
  stdout: string;
  stderr: string;
  exit_code: number;
}
interface ColumnFamiliesCase {
  id: string;
  dir: string;
  probes: { path: string; count: number };
  /** Per column family, Get's value for each probe (null: not found). */
  column_family_answers?: Record<string, (string | null)[]>;
}
interface GetCase {
  id: string;
  dir: string;
  files: string[];
  probes: { path: string; count: number };
  answers: { kind: string; with_wal: RocksAnswer; tables_only: RocksAnswer; ldb?: LdbOutput }[];
}

const CASES = sectionCases<GetCase>("db_get")
  .filter((c) => c.answers !== undefined)
  .map((c) => ({
    ...c,
    name: `${c.corpus.name}:${c.id}`,
    dirPath: c.corpus.path(c.dir),
    probes: parseKeys(readFileSync(c.corpus.path(c.probes.path))),
  }));

/** A Get on `db` as if it had no logs: the tables alone. */
async function explainTablesOnly(db: Database, key: Uint8Array): Promise<GetExplanation> {
  return db.explainWith(key, undefined, null);
}

/** The probes whose answer changes when the WAL is replayed. */
const walDecides = (a: GetCase["answers"][number]): boolean =>
  a.with_wal.status !== a.tables_only.status || a.with_wal.value !== a.tables_only.value;

const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

/** RocksDB's UInt64AddOperator (utilities/merge_operators/uint64add.cc): little-endian sums; other sizes count 0. */
function uint64add(base: Uint8Array | null, operandsNewestFirst: Uint8Array[]): Uint8Array {
  const asNumber = (b: Uint8Array | null): bigint =>
    b !== null && b.length === 8 ? Buffer.from(b).readBigUInt64LE() : 0n;
  let sum = asNumber(base);
  for (const o of operandsNewestFirst) sum = (sum + asNumber(o)) & ((1n << 64n) - 1n);
  const out = Buffer.alloc(8);
  out.writeBigUInt64LE(sum);
  return new Uint8Array(out);
}

/** Our answer as RocksDB's Get with uint64add gives it: [status, value hex]. */
function asRocksDb(e: GetExplanation): [string, string | undefined] {
  const r = e.result;
  if (r.outcome === "found") return ["ok", hex(r.value!)];
  if (r.outcome === "merge-operands") return ["ok", hex(uint64add(r.value, r.operands))];
  return ["not-found", undefined];
}

const expected = (a: RocksAnswer): [string, string | undefined] => [a.status, a.value?.toLowerCase()];

/**
 * Which counters RocksDB's Statistics move for the route: filter answers, and the level whose file
 * ended the Get with a value: a value, or a deletion ending a merge chain (GetContext merges the
 * operands then, and Version::Get counts the hit at that file's level).
 */
function routeCounters(e: GetExplanation): Record<string, number> {
  const ends =
    e.result.outcome === "merge-operands"
      ? ["value", "deletion", "single-deletion", "range-deletion"]
      : ["value"];
  const level = e.steps.find((s) => s.where === "table" && ends.includes(s.entry ?? ""))?.level;
  return {
    "rocksdb.bloom.filter.useful": e.steps.filter((s) => s.filter === "no").length,
    "rocksdb.bloom.filter.full.positive": e.steps.filter((s) => s.filter === "maybe").length,
    "rocksdb.l0.hit": level === 0 ? 1 : 0,
    "rocksdb.l1.hit": level === 1 ? 1 : 0,
    "rocksdb.l2andup.hit": level !== undefined && level !== null && level >= 2 ? 1 : 0,
  };
}

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

test("the corpus has a database with levels 0 to 2, merges, deletions and keys only the WAL decides", () => {
  expect(CASES.length).toBeGreaterThanOrEqual(1);
  for (const c of CASES) {
    expect(c.probes.length).toBe(c.answers.length);
    expect(c.answers.length).toBeGreaterThanOrEqual(300);
    const statuses = new Set(c.answers.map((a) => a.tables_only.status));
    expect([...statuses].sort()).toEqual(["not-found", "ok"]);
    expect(c.answers.filter((a) => a.ldb !== undefined).length).toBeGreaterThanOrEqual(100);
    expect(c.answers.filter(walDecides).length).toBeGreaterThan(0);
  }
});

describe.each(CASES)("$name", (c) => {
  let db: Database;
  const explained: GetExplanation[] = [];
  const tablesOnly: GetExplanation[] = [];
  beforeAll(async () => {
    db = await sf.openDatabase(c.dirPath);
    expect(
      new Set(db.levels.filter((l) => l.files.length > 0).map((l) => l.level)).size,
    ).toBeGreaterThanOrEqual(3);
    for (const key of c.probes) explained.push(await db.explainGet(key));
    for (const key of c.probes) tablesOnly.push(await explainTablesOnly(db, key));
  });
  afterAll(() => db.dispose());

  const differences = (
    ourAnswers: GetExplanation[],
    pick: (a: GetCase["answers"][number]) => RocksAnswer,
  ): string[] =>
    c.answers.flatMap((a, i) => {
      const ours = asRocksDb(ourAnswers[i]!);
      const theirs = expected(pick(a));
      return JSON.stringify(ours) === JSON.stringify(theirs)
        ? []
        : [
            `probe ${i} ${hex(c.probes[i]!)} (${a.kind}): ours ${JSON.stringify(ours)}, RocksDB ${JSON.stringify(theirs)}`,
          ];
    });

  test("every probe over the tables alone (no logs read): Get equals RocksDB's Get on a copy without the WAL", () => {
    expect(differences(tablesOnly, (a) => a.tables_only)).toEqual([]);
    // Every outcome occurs.
    const outcomes = new Set(tablesOnly.map((e) => e.result.outcome));
    expect([...outcomes].sort()).toEqual(["deleted", "found", "merge-operands", "not-found"]);
  });

  test("with a block cache (blockCacheBytes): the same answers and routes, the second pass's data blocks served by the cache", async () => {
    const cached = await sf.openDatabase(c.dirPath, { blockCacheBytes: 64 << 20 });
    try {
      const first: GetExplanation[] = [];
      const second: GetExplanation[] = [];
      for (const key of c.probes) first.push(await cached.explainGet(key));
      for (const key of c.probes) second.push(await cached.explainGet(key));
      const withoutCounts = (e: GetExplanation) =>
        JSON.stringify(
          e.steps.map(({ blocksRead: _r, blockCacheHits: _h, ...rest }) => rest),
          (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v),
        );
      const problems: string[] = [];
      let hits = 0;
      c.probes.forEach((key, i) => {
        const [plain, a, b] = [explained[i]!, first[i]!, second[i]!];
        if (withoutCounts(a) !== withoutCounts(plain) || withoutCounts(b) !== withoutCounts(plain)) {
          problems.push(`probe ${i} ${hex(key)}: the route differs with a cache`);
        }
        b.steps.forEach((step, s) => {
          // Each data block the first pass read comes from the cache; the filter partitions are
          // the reader's own and still count as read.
          const dataBlocks = a.steps[s]!.blocksRead + a.steps[s]!.blockCacheHits - plain.steps[s]!.blocksRead;
          if (dataBlocks !== 0 && step.blocksRead + step.blockCacheHits !== plain.steps[s]!.blocksRead) {
            problems.push(`probe ${i} step ${s}: ${step.blocksRead} read + ${step.blockCacheHits} cached`);
          }
          if (plain.steps[s]!.blockCacheHits !== 0)
            problems.push(`probe ${i} step ${s}: a hit without a cache`);
          hits += step.blockCacheHits;
        });
      });
      expect(problems).toEqual([]);
      expect(hits).toBeGreaterThan(c.probes.length / 4);
    } finally {
      cached.dispose();
    }
  });

  test("every probe: Get equals RocksDB's Get with the WAL replayed", () => {
    expect(differences(explained, (a) => a.with_wal)).toEqual([]);
    // The WAL decides some probes, and our memtable read them from the log.
    const fromLog = explained.filter((e) =>
      e.steps.some((s) => s.where === "memtable" && s.entry !== "none"),
    );
    expect(fromLog.length).toBeGreaterThan(0);
  });

  test(`the route agrees with RocksDB's counters for the same Get (with the WAL replayed)`, () => {
    const wrong = c.answers.flatMap((a, i) => {
      const ours = routeCounters(explained[i]!);
      const theirs = Object.fromEntries(Object.keys(ours).map((k) => [k, a.with_wal.tickers[k]]));
      return JSON.stringify(ours) === JSON.stringify(theirs)
        ? []
        : [
            `probe ${i} ${hex(c.probes[i]!)}: ours ${JSON.stringify(ours)}, RocksDB ${JSON.stringify(theirs)}`,
          ];
    });
    expect(wrong).toEqual([]);
  });

  test(`blocks read: the data blocks RocksDB's PerfContext counts (with the WAL replayed)`, () => {
    const wrong = c.answers.flatMap((a, i) => {
      const ours = explained[i]!.steps.reduce((n, s) => n + s.blocksRead, 0);
      return ours === a.with_wal.perf.block_read_count
        ? []
        : [`probe ${i} ${hex(c.probes[i]!)}: ours ${ours}, RocksDB ${a.with_wal.perf.block_read_count}`];
    });
    expect(wrong).toEqual([]);
  });

  test("the route: level 0 newest first, one file per deeper level, nothing after the deciding step", () => {
    for (const [i, e] of explained.entries()) {
      const tables = e.steps.filter((s) => s.where === "table");
      const levels = tables.map((s) => s.level!);
      expect(levels).toEqual([...levels].sort((x, y) => x - y));
      for (const level of new Set(levels)) {
        if (level > 0) expect([i, level, levels.filter((l) => l === level).length]).toEqual([i, level, 1]);
      }
      const l0 = db.levels[0]!.files.map((f) => f.name);
      expect(tables.filter((s) => s.level === 0).map((s) => s.file)).toEqual(
        l0.slice(0, tables.filter((s) => s.level === 0).length),
      );
      const deciding = e.steps.findIndex(
        (s) =>
          s.entry === "value" ||
          s.entry === "deletion" ||
          s.entry === "single-deletion" ||
          s.entry === "range-deletion",
      );
      if (deciding >= 0) expect([i, e.steps.length]).toEqual([i, deciding + 1]);
      for (const s of e.steps) {
        if (!s.inRange) expect([s.filter, s.entry, s.blocksRead]).toEqual([null, null, 0]);
        if (s.filter === "no" && s.entry === null) expect(s.blocksRead).toBe(0);
      }
    }
  });

  test("get() is explainGet()'s value; a merge chain throws UNSUPPORTED naming its operands", async () => {
    for (const [i, e] of explained.entries()) {
      const key = c.probes[i]!;
      if (e.result.outcome === "merge-operands") {
        const error: unknown = await db.get(key).catch((thrown: unknown) => thrown);
        expect(error).toBeInstanceOf(SstFilterError);
        expect(error).toMatchObject({ code: "UNSUPPORTED" });
        expect((error as Error).message).toContain(`holds ${e.result.operands.length} merge operand(s)`);
      } else {
        expect(await db.get(key)).toEqual(e.result.value);
      }
    }
  });

  test("db get --hex prints what ldb get --hex prints", async () => {
    let compared = 0;
    const wrong: string[] = [];
    for (const [i, a] of c.answers.entries()) {
      if (a.ldb === undefined) continue;
      // ldb opens with the OPTIONS file's uint64add and merges; we list the operands instead.
      if (explained[i]!.result.outcome === "merge-operands") continue;
      const out = await dbGet(db, c.probes[i]!, { hex: true, explain: false, json: false });
      const ours = [Buffer.from(out.stdout).toString("latin1"), out.stderr, out.exitCode];
      if (JSON.stringify(ours) !== JSON.stringify([a.ldb.stdout, a.ldb.stderr, a.ldb.exit_code]))
        wrong.push(
          `probe ${i} ${hex(c.probes[i]!)}: ours ${JSON.stringify(ours)}, ldb ${JSON.stringify(a.ldb)}`,
        );
      compared++;
    }
    expect(wrong).toEqual([]);
    expect(compared).toBeGreaterThanOrEqual(50);
  });

  test("the command: ldb's bytes and exit codes, --explain, --json, usage errors", () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [CLI, "db", "get", c.dirPath, ...args], { encoding: "latin1" });
    const pick = (outcome: string) =>
      c.answers.findIndex(
        (a, i) => a.ldb !== undefined && explained[i]!.result.outcome === outcome && !walDecides(a),
      );
    for (const outcome of ["found", "not-found"]) {
      const i = pick(outcome);
      expect(i).toBeGreaterThanOrEqual(0);
      const r = run(`0x${hex(c.probes[i]!)}`, "--hex");
      expect({ stdout: r.stdout, stderr: r.stderr, exit_code: r.status }).toEqual(c.answers[i]!.ldb);
      const explainedText = run(hex(c.probes[i]!), "--hex", "--explain");
      expect(explainedText.status).toBe(c.answers[i]!.ldb!.exit_code);
      expect(explainedText.stdout.trimEnd().split("\n")).toHaveLength(explained[i]!.steps.length + 1);
      expect(explainedText.stdout).toMatch(/^result: /m);
      const json = JSON.parse(run(hex(c.probes[i]!), "--hex", "--json").stdout) as {
        result: { outcome: string };
        steps: unknown[];
      };
      expect(json.result.outcome).toBe(outcome);
      expect(json.steps).toHaveLength(explained[i]!.steps.length);
    }
    const merged = explained.findIndex((e) => e.result.outcome === "merge-operands");
    const m = run(hex(c.probes[merged]!), "--hex");
    expect([m.status, m.stdout]).toEqual([3, ""]);
    expect(m.stderr).toContain("merge operand");
    expect(run("0xzz", "--hex").status).toBe(2);
    expect(run("k", "--column-family", "nope").status).toBe(3);
  });

  test("a live WAL this reader cannot decode (a compressed one): UNSUPPORTED naming it, not an empty memtable", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "sstfilter-compressed-wal-"));
    try {
      cpSync(c.dirPath, dir, { recursive: true });
      const [wal] = await db.writeAheadLogs();
      expect(wal?.name).toMatch(/^\d+\.log$/);
      // A kSetCompressionType record (type 9; payload: the compression type, zstd = 7, padded to
      // 4 bytes) opens a compressed WAL (docs/FORMATS.md 6.1).
      const payload = Buffer.from([7, 0, 0, 0]);
      const record = Buffer.alloc(7 + payload.length);
      record.writeUInt16LE(payload.length, 4);
      record[6] = 9;
      payload.copy(record, 7);
      record.writeUInt32LE(sf.hash.crc32cMask(sf.hash.crc32c(record.subarray(6))), 0);
      const file = path.join(dir, wal!.name);
      writeFileSync(file, Buffer.concat([record, readFileSync(file)]));
      const damaged = await sf.openDatabase(dir);
      await expect(damaged.get(c.probes[0]!)).rejects.toMatchObject({ code: "UNSUPPORTED", file: wal!.name });
      damaged.dispose();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("--explain's lines: no entry, no filter, out of range", () => {
    const step = (over: Partial<RouteStep>): RouteStep => ({
      where: "table",
      file: "000012.sst",
      level: 1,
      inRange: true,
      filter: "maybe",
      entry: "value",
      sequence: 7n,
      blocksRead: 1,
      blockCacheHits: 0,
      ...over,
    });
    const memtable = { where: "memtable", level: null, filter: null, blocksRead: 0 } as const;
    expect(
      [
        step({}),
        step({ filter: "none", entry: "none", sequence: null, blocksRead: 2 }),
        step({ filter: "no", entry: null, sequence: null, blocksRead: 0 }),
        step({ inRange: false, filter: null, entry: null, sequence: null, blocksRead: 0 }),
        step({ ...memtable, file: "000075.log", entry: "none", sequence: null }),
        step({ ...memtable, file: "000075.log", entry: "deletion", sequence: 9n }),
        step({ blobFile: "000016.blob" }),
        step({ blocksRead: 0, blockCacheHits: 2 }),
      ].map(routeLine),
    ).toEqual([
      "L1 000012.sst: filter maybe, value @ 7, 1 block read",
      "L1 000012.sst: no filter, no entry for the key, 2 blocks read",
      "L1 000012.sst: filter no, 0 blocks read",
      "L1 000012.sst: key out of range",
      "memtable 000075.log: no entry for the key",
      "memtable 000075.log: deletion @ 9",
      "L1 000012.sst: filter maybe, value @ 7, value read from 000016.blob, 1 block read",
      "L1 000012.sst: filter maybe, value @ 7, 0 blocks read, 2 from the block cache",
    ]);
  });

  test("the memtable: records a WAL would hold, layered over the tables", async () => {
    const found = explained.findIndex(
      (e) => e.result.outcome === "found" && e.steps.some((s) => s.level !== null && s.level >= 1),
    );
    expect(found).toBeGreaterThanOrEqual(0);
    const key = c.probes[found]!;
    const tableValue = explained[found]!.result.value!;
    const last = db.lastSequence;
    const put = (seq: bigint, value: string, cf = 0) => ({
      sequence: seq,
      columnFamily: cf,
      kind: "put" as const,
      key,
      value: Buffer.from(value),
    });
    // Each record a batch of its own, at its sequence number.
    const log = (number: bigint, records: WalFile["records"]) => ({
      name: `${String(number).padStart(6, "0")}.log`,
      number,
      bytes: logBytes(
        sf.hash,
        records.map((r) => ({ sequence: r.sequence, records: [r], markers: [] })),
      ).bytes,
    });
    // The logs the Database reads, replaced by these (and replayed as it replays its own).
    const withLogs = (logs: ReturnType<typeof log>[]): Promise<GetExplanation> =>
      db.explainWith(
        key,
        undefined,
        logs.map((l) => ({
          name: l.name,
          number: l.number,
          async *pieces() {
            yield l.bytes;
          },
        })),
      );
    const next = db.columnFamilies[0]!.logNumber;
    // A put in the newest log wins; the table is not consulted.
    let e = await withLogs([log(next, [put(last + 1n, "old")]), log(next + 1n, [put(last + 2n, "new")])]);
    expect(e.result).toEqual({
      outcome: "found",
      value: new Uint8Array(Buffer.from("new")),
      operands: [],
      sequence: last + 2n,
    });
    expect(e.steps.map((s) => [s.where, s.file, s.entry])).toEqual([
      ["memtable", `${String(next + 1n).padStart(6, "0")}.log`, "value"],
    ]);
    // Another column family's record and a log older than the family's log number do not count.
    e = await withLogs([
      log(next - 1n, [put(last + 1n, "flushed")]),
      log(next, [put(last + 2n, "other family", 1)]),
    ]);
    expect(e.result.value).toEqual(tableValue);
    expect(e.steps[0]).toMatchObject({
      where: "memtable",
      file: `${String(next).padStart(6, "0")}.log`,
      entry: "none",
    });
    // A deletion, a covering range deletion, merges over the table's value.
    e = await withLogs([
      log(next, [
        put(last + 1n, "x"),
        { sequence: last + 2n, columnFamily: 0, kind: "delete", key, value: new Uint8Array(0) },
      ]),
    ]);
    expect(e.result).toMatchObject({ outcome: "deleted", sequence: last + 2n });
    const end = new Uint8Array([...key, 0]);
    e = await withLogs([
      log(next, [{ sequence: last + 1n, columnFamily: 0, kind: "range-delete", key, value: end }]),
    ]);
    expect(e.result).toMatchObject({ outcome: "deleted", sequence: last + 1n });
    expect(e.steps.map((s) => s.entry)).toEqual(["range-deletion"]);
    e = await withLogs([
      log(next, [
        {
          sequence: last + 1n,
          columnFamily: 0,
          kind: "range-delete",
          key: end,
          value: new Uint8Array([...end, 0]),
        },
      ]),
    ]);
    expect(e.result.value).toEqual(tableValue);
    const merge = (seq: bigint, v: string) => ({
      sequence: seq,
      columnFamily: 0,
      kind: "merge" as const,
      key,
      value: Buffer.from(v),
    });
    e = await withLogs([log(next, [merge(last + 1n, "a"), merge(last + 2n, "b")])]);
    expect(e.result).toEqual({
      outcome: "merge-operands",
      value: tableValue,
      operands: [new Uint8Array(Buffer.from("b")), new Uint8Array(Buffer.from("a"))],
      sequence: last + 2n,
    });
  });
});

// Column families by name, one with ReverseBytewiseComparator (range deletions in its order).
const FAMILY_CASES = sectionCases<ColumnFamiliesCase>("db_get").filter(
  (c) => c.column_family_answers !== undefined,
);

test("the corpus has a database with several column families", () => {
  expect(FAMILY_CASES.map((c) => Object.keys(c.column_family_answers!).sort())).toEqual([
    ["default", "one", "reverse"],
  ]);
});

describe.each(FAMILY_CASES)("$corpus.name:$id", (c) => {
  test("every probe in every column family: db.get(key, { columnFamily }) equals RocksDB's Get", async () => {
    const db = await sf.openDatabase(c.corpus.path(c.dir));
    try {
      const probes = parseKeys(readFileSync(c.corpus.path(c.probes.path)));
      const wrong: string[] = [];
      let found = 0;
      for (const [family, answers] of Object.entries(c.column_family_answers!)) {
        for (const [i, key] of probes.entries()) {
          const value = await db.get(key, { columnFamily: family });
          const ours = value === null ? null : Buffer.from(value).toString("utf8");
          if (ours !== answers[i])
            wrong.push(
              `${family} probe ${i} ${Buffer.from(key).toString()}: ours ${ours}, RocksDB ${answers[i]}`,
            );
          if (ours !== null) found++;
        }
      }
      expect(wrong).toEqual([]);
      expect(found).toBeGreaterThan(300);
    } finally {
      db.dispose();
    }
  });
});

// Against the libraries' own get: RocksDB 10.x (rocksdb-native) and LevelDB (classic-level), on
// databases they wrote and flushed (the node corpus's node_db_get).
const LIBRARY_CASES = libraryGetCases();

test("the node corpus has a rocksdb-native and a classic-level database to ask", () => {
  expect(LIBRARY_CASES.map((c) => c.format).sort()).toEqual(["leveldb", "rocksdb"]);
});

describe.each(LIBRARY_CASES)("node:$id", (c) => {
  test("every probe: db.get equals the library's get", async () => {
    const db = await sf.openDatabase(c.dirPath);
    try {
      expect(db.format).toBe(c.format);
      const wrong: string[] = [];
      for (const [i, key] of c.probes.entries()) {
        const value = await db.get(key);
        const ours = value === null ? null : Buffer.from(value).toString("utf8");
        if (ours !== c.answers[i]) wrong.push(`probe ${i} ${key}: ours ${ours}, the library ${c.answers[i]}`);
      }
      expect(wrong).toEqual([]);
      expect(c.answers.filter((a) => a !== null).length).toBeGreaterThan(1000);
      expect(c.answers.filter((a) => a === null).length).toBeGreaterThan(100);
    } finally {
      db.dispose();
    }
  });
});
