// What sstfilter writes, read back by the databases themselves (issue 16, "Read back by the
// databases"): on a grid of format_version 2 to 5, every RocksDB filter kind, prefix extractors,
// every compression and checksum, with deletes, merges, range deletions, empty values and binary
// keys, each table written through sf.createTableWriter (and some through `sstfilter write`)
//   - passes Debian's `sst_dump --command=verify` (RocksDB 7.8.3);
//   - is taken by `ldb ingest_extern_sst` into a database over a base table of puts, after which
//     `ldb scan` shows exactly the state our entries make: our puts, our merges (ldb opens a
//     database without a merge operator with a string-append one, delimiter ':', rocksdb
//     tools/ldb_cmd.cc: a merge over a base value reads "base:operand"), no deleted key, no base
//     key that our range deletions cover (a range deletion covers only older entries, so it
//     reaches the base table, not the points of its own file);
//   - in that database as rocksdb-native (RocksDB 10.x) opens it, `get` answers the same (its
//     prebuilt addon has no codec at all: a compressed case is read through an uncompressed twin,
//     the same table otherwise, ingested the same way).
// LevelDB's side is tests/cpp/leveldb_readback_test.cc (LevelDB's Table::Open on our .ldb files).
// The files are written on the SIMD module only: both modules write the same bytes
// (table-writer.test.ts).
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

import type { SstFilter, WriteOptions } from "sstfilter";

import { loadBackend } from "./backends";
import { loadTestingBackend, type TestingHooks } from "./testing-backend";
import { CLI } from "./cli-path";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const RocksDB = require("rocksdb-native");

type Op = "put" | "delete" | "merge";
interface Point {
  op: Op;
  key: Buffer;
  value: Buffer;
}
interface Case {
  name: string;
  via: "api" | "cli";
  options: WriteOptions;
  points: Point[];
  ranges: [Buffer, Buffer][];
}

const COMPRESSIONS = ["none", "snappy", "zlib", "lz4", "lz4hc", "zstd", "bzip2"];
const CHECKSUMS = ["none", "crc32c", "xxhash", "xxhash64", "xxh3"];
const FILTERS = ["none", "rocksdb-legacy-bloom", "rocksdb-bloom", "rocksdb-ribbon"] as const;
const PREFIXES = ["fixed:2", "capped:3"];

/** A small deterministic generator (mulberry32), so that a failing case can be rerun as it was. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Distinct binary keys, ascending: a few shared 2-byte prefixes (so that prefix filters have
 * something to hold), then 0 to 18 random bytes, 0x00 and 0xff among them.
 */
function keys(next: () => number, count: number): Buffer[] {
  const prefixes = [
    Buffer.from([0x00, 0x00]),
    Buffer.from("ab"),
    Buffer.from([0xff, 0x7f]),
    Buffer.from("k"),
  ];
  const seen = new Map<string, Buffer>();
  while (seen.size < count) {
    const tail = Buffer.alloc(Math.floor(next() * 19));
    for (let i = 0; i < tail.length; i++)
      tail[i] = next() < 0.2 ? (next() < 0.5 ? 0 : 0xff) : Math.floor(next() * 256);
    const key = Buffer.concat([prefixes[Math.floor(next() * prefixes.length)]!, tail]);
    seen.set(key.toString("hex"), key);
  }
  return [...seen.values()].sort(Buffer.compare);
}

/** Empty for one value in six, else compressible text of up to ~300 bytes. */
function value(next: () => number, i: number): Buffer {
  if (next() < 1 / 6) return Buffer.alloc(0);
  return Buffer.from(`value ${i} `.repeat(Math.floor(next() * 30)));
}

/** The base table every case is ingested over: puts only. */
const BASE: Point[] = (() => {
  const next = random(7);
  return keys(next, 600).map((key, i) => ({ op: "put" as const, key, value: Buffer.from(`base ${i}`) }));
})();

function caseEntries(seed: number, putsOnly: boolean): Pick<Case, "points" | "ranges"> {
  const next = random(seed);
  const points = keys(next, 700).map((key, i): Point => {
    const r = putsOnly ? 0 : next();
    const op: Op = r < 0.6 ? "put" : r < 0.8 ? "delete" : "merge";
    return { op, key, value: op === "delete" ? Buffer.alloc(0) : value(next, i) };
  });
  const ranges: [Buffer, Buffer][] = [];
  if (!putsOnly) {
    const bounds = keys(next, 16);
    for (let i = 0; i < bounds.length; i += 2) ranges.push([bounds[i]!, bounds[i + 1]!]);
    // deleteRange takes any order: give them out of order.
    ranges.reverse();
  }
  return { points, ranges };
}

/** The grid: every compression with every checksum; format versions and filters rotate through it. */
function grid(): Case[] {
  const cases: Case[] = [];
  let i = 0;
  for (const compression of COMPRESSIONS) {
    for (const checksum of CHECKSUMS) {
      const formatVersion = 2 + (i % 4);
      const filter = FILTERS[Math.floor(i / 4) % 4]!;
      const options: WriteOptions = {
        format: "rocksdb",
        formatVersion,
        filter,
        compression,
        checksum,
        blockSize: i % 2 ? 512 : 4096,
        restartInterval: 1 + (i % 16),
      };
      if (i % 3 === 0 && filter !== "none") {
        options.prefixExtractor = PREFIXES[(i / 3) % 2]!;
        options.wholeKeyFiltering = i % 9 !== 0;
      }
      const via = i % 7 === 3 ? "cli" : "api";
      const name = `${via} fv${formatVersion} ${filter} ${compression} ${checksum}${
        options.prefixExtractor
          ? ` ${options.prefixExtractor}${options.wholeKeyFiltering ? "" : " no-whole-key"}`
          : ""
      }`;
      cases.push({ name, via, options, ...caseEntries(1000 + i, via === "cli") });
      i++;
    }
  }
  return cases;
}

const CASES = grid();

function writeWithApi(
  sf: SstFilter,
  options: WriteOptions,
  points: Point[],
  ranges: [Buffer, Buffer][],
): Buffer {
  using w = sf.createTableWriter(options);
  for (const p of points) {
    if (p.op === "put") w.put(p.key, p.value);
    else if (p.op === "delete") w.delete(p.key);
    else w.merge(p.key, p.value);
  }
  for (const [start, end] of ranges) w.deleteRange(start, end);
  return Buffer.from(w.finish());
}

/** `sstfilter write --hex` with the case's options as flags (puts only: the CLI writes puts). */
function writeWithCli(c: Case, file: string): void {
  const input = `${file}.txt`;
  writeFileSync(
    input,
    c.points.map((p) => `${p.key.toString("hex")}\t${p.value.toString("hex")}`).join("\n") + "\n",
  );
  const o = c.options;
  const args = ["write", "--hex", input, "-o", file, "--format-version", String(o.formatVersion)];
  args.push("--filter", o.filter!, "--compression", o.compression!, "--checksum", o.checksum!);
  args.push("--block-size", String(o.blockSize), "--restart-interval", String(o.restartInterval));
  if (o.prefixExtractor) args.push("--prefix-extractor", o.prefixExtractor);
  if (o.wholeKeyFiltering !== undefined) args.push("--whole-key-filtering", String(o.wholeKeyFiltering));
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`sstfilter write exited ${r.status}: ${r.stderr}`);
}

/** Key (hex) -> value (hex) after the case's file is ingested over the base table. */
function expectedState(c: Case): Map<string, string> {
  const state = new Map<string, string>();
  for (const p of BASE) {
    const covered = c.ranges.some(([s, e]) => Buffer.compare(s, p.key) <= 0 && Buffer.compare(p.key, e) < 0);
    if (!covered) state.set(p.key.toString("hex"), p.value.toString("hex"));
  }
  for (const p of c.points) {
    const key = p.key.toString("hex");
    const below = state.get(key);
    if (p.op === "delete") state.delete(key);
    else if (p.op === "merge" && below !== undefined) state.set(key, `${below}3a${p.value.toString("hex")}`);
    else state.set(key, p.value.toString("hex"));
  }
  return new Map([...state].sort(([a], [b]) => Buffer.compare(Buffer.from(a, "hex"), Buffer.from(b, "hex"))));
}

function tool(name: string, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync(name, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.error) throw r.error;
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

/** Differences between two key -> value maps, the first few, for a failure message. */
function differences(got: Map<string, string>, want: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of want) {
    if (!got.has(k)) out.push(`key ${k} missing (want value ${v.slice(0, 40)})`);
    else if (got.get(k) !== v)
      out.push(`key ${k}: value ${got.get(k)!.slice(0, 40)}, want ${v.slice(0, 40)}`);
  }
  for (const k of got.keys()) if (!want.has(k)) out.push(`key ${k} present, want absent`);
  return out.slice(0, 3);
}

/** Ingests `tables` in order into the database at `db` with ldb; what went wrong, if anything. */
function ingest(name: string, db: string, tables: string[]): string[] {
  const failures: string[] = [];
  for (const file of tables) {
    const r = tool("ldb", [
      `--db=${db}`,
      "--create_if_missing",
      "ingest_extern_sst",
      file,
      "--allow_global_seqno",
    ]);
    if (!r.ok) failures.push(`${name}: ingest_extern_sst ${path.basename(file)}: ${r.out.trim()}`);
  }
  return failures;
}

/**
 * Opens a copy of the database at `db` with rocksdb-native and gets every key of the base table
 * and of the case (and the ends of its range deletions), comparing with expectedState. Keys whose
 * newest entry is a merge operand are not asked: rocksdb-native has no merge operator (ldb's scan
 * checked those).
 */
async function readWithRocksDbNative(
  c: Case,
  db: string,
): Promise<{ asked: number; failures: string[]; error?: string; lacksCodec: boolean }> {
  const merged = new Set(c.points.filter((p) => p.op === "merge").map((p) => p.key.toString("hex")));
  const want = expectedState(c);
  const probes = [...BASE.map((p) => p.key), ...c.points.map((p) => p.key), ...c.ranges.flat()];
  const copy = `${db}-copy`;
  cpSync(db, copy, { recursive: true });
  // Read-only: a writable open schedules compactions that close() then waits for (~1 s a database).
  const rocksdb = new RocksDB(copy, { readOnly: true });
  const failures: string[] = [];
  let asked = 0;
  let error: Error | undefined;
  try {
    await rocksdb.ready();
    const asking = [...new Map(probes.map((key) => [key.toString("hex"), key])).entries()]
      .filter(([hex]) => !merged.has(hex))
      .map(([, key]) => key);
    // One get at a time: a read batch (rocksdb.read()) of these keys did not settle here.
    const got: (Buffer | null)[] = [];
    for (const key of asking) got.push(await rocksdb.get(key));
    asked = asking.length;
    asking.forEach((key, j) => {
      const hex = key.toString("hex");
      const gotHex = got[j] === null ? null : Buffer.from(got[j]!).toString("hex");
      if (gotHex !== (want.get(hex) ?? null) && failures.length < 5) {
        failures.push(
          `${c.name}: key ${hex}: got ${gotHex?.slice(0, 40)}, want ${want.get(hex)?.slice(0, 40)}`,
        );
      }
    });
  } catch (e) {
    error = e as Error;
  }
  try {
    await rocksdb.close();
  } catch (e) {
    error ??= e as Error; // a database that failed to open fails to close with the same error
  }
  return {
    asked,
    failures,
    ...(error && { error: error.message }),
    lacksCodec: error !== undefined && /not supported in this build/.test(error.message),
  };
}

describe("tables sstfilter writes, read back by RocksDB 7.8.3 (sst_dump, ldb) and 10.x (rocksdb-native)", () => {
  let work: string;
  const files = new Map<string, string>();
  const databases = new Map<string, string>();
  let baseFile: string;

  let sf: SstFilter;

  beforeAll(async () => {
    sf = await loadBackend(true);
    work = mkdtempSync(path.join(tmpdir(), "sstfilter-readback-"));
    baseFile = path.join(work, "base.sst");
    writeFileSync(baseFile, writeWithApi(sf, { format: "rocksdb", compression: "none" }, BASE, []));
    CASES.forEach((c, i) => {
      const file = path.join(work, `case${i}.sst`);
      if (c.via === "cli") writeWithCli(c, file);
      else writeFileSync(file, writeWithApi(sf, c.options, c.points, c.ranges));
      files.set(c.name, file);
    });
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("has a grid covering every option", () => {
    expect(CASES.length).toBe(COMPRESSIONS.length * CHECKSUMS.length);
    expect(CASES.filter((c) => c.via === "cli").length).toBeGreaterThanOrEqual(4);
    for (const fv of [2, 3, 4, 5]) {
      for (const filter of FILTERS) {
        expect(CASES.some((c) => c.options.formatVersion === fv && c.options.filter === filter)).toBe(true);
      }
    }
    for (const prefix of PREFIXES) expect(CASES.some((c) => c.options.prefixExtractor === prefix)).toBe(true);
    expect(CASES.some((c) => c.options.wholeKeyFiltering === false)).toBe(true);
    const points = CASES.flatMap((c) => c.points);
    for (const op of ["put", "delete", "merge"]) expect(points.some((p) => p.op === op)).toBe(true);
    expect(points.some((p) => p.value.length === 0 && p.op !== "delete")).toBe(true);
    expect(points.some((p) => p.key.includes(0) && p.key.includes(0xff))).toBe(true);
    // The range deletions reach base keys, so that "range-deleted keys are absent" tests something.
    for (const c of CASES.filter((x) => x.via === "api")) {
      const own = new Set(c.points.map((p) => p.key.toString("hex")));
      const covered = BASE.filter(
        (p) =>
          !own.has(p.key.toString("hex")) &&
          c.ranges.some(([s, e]) => Buffer.compare(s, p.key) <= 0 && Buffer.compare(p.key, e) < 0),
      );
      expect([c.name, covered.length > 0]).toEqual([c.name, true]);
    }
  });

  it("passes sst_dump --command=verify", () => {
    const failures: string[] = [];
    for (const c of [{ name: "base" }, ...CASES]) {
      const file = c.name === "base" ? baseFile : files.get(c.name)!;
      const r = tool("sst_dump", [`--file=${file}`, "--command=verify"]);
      if (!r.ok || /corruption/i.test(r.out) || !r.out.includes("The file is ok")) {
        failures.push(`${c.name}: ${r.out.trim().split("\n").slice(-2).join(" / ")}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("is ingested by ldb, whose scan shows exactly our entries over the base table", () => {
    const failures: string[] = [];
    CASES.forEach((c, i) => {
      const db = path.join(work, `db${i}`);
      failures.push(...ingest(c.name, db, [baseFile, files.get(c.name)!]));
      const scan = tool("ldb", [`--db=${db}`, "scan", "--hex"]);
      if (!scan.ok) {
        failures.push(`${c.name}: scan: ${scan.out.trim()}`);
        return;
      }
      const got = new Map<string, string>();
      for (const line of scan.out.split("\n")) {
        const m = /^0x([0-9A-F]*) : 0x([0-9A-F]*)$/.exec(line);
        if (m) got.set(m[1]!.toLowerCase(), m[2]!.toLowerCase());
      }
      const diff = differences(got, expectedState(c));
      if (diff.length > 0) failures.push(`${c.name}: ${diff.join("; ")}`);
      else databases.set(c.name, db);
    });
    expect(failures).toEqual([]);
  });

  it("in that database, rocksdb-native (RocksDB 10.x) gets every key as ours", async () => {
    expect(databases.size).toBe(CASES.length);
    const failures: string[] = [];
    let asked = 0;
    for (const [i, c] of CASES.entries()) {
      let read = await readWithRocksDbNative(c, databases.get(c.name)!);
      // Where rocksdb-native's build lacks the case's codec (it says so), the same table without
      // compression, ingested the same way, stands in: format, filter, checksum and entries stay.
      if (read.lacksCodec && c.options.compression !== "none") {
        const twin = path.join(work, `case${i}-uncompressed.sst`);
        writeFileSync(twin, writeWithApi(sf, { ...c.options, compression: "none" }, c.points, c.ranges));
        const db = path.join(work, `db${i}-uncompressed`);
        failures.push(...ingest(c.name, db, [baseFile, twin]));
        read = await readWithRocksDbNative(c, db);
      }
      asked += read.asked;
      failures.push(...read.failures);
      if (read.error) failures.push(`${c.name}: ${read.error}`);
    }
    // Every case was asked (all but its merge keys), through its own file or its twin.
    expect(asked).toBeGreaterThan(CASES.length * 600);
    expect(failures).toEqual([]);
  }, 120_000); // ~45k gets, one at a time
});

// format_version 6 and 7, which RocksDB 7.8.3 cannot read (and so cannot ingest): each table is
// placed on the last level of a database directory by a MANIFEST of our own (sstfilter/db.h
// BuildManifest, through the testing module's hook), then rocksdb-native (RocksDB 10.x) opens the
// directory read-only and gets every key. format_version 5 goes the same way, and there `ldb scan`
// (RocksDB 7.8.3) reads the directory too. Uncompressed: rocksdb-native's build has no codec.
describe("tables placed in a database by our MANIFEST, read by rocksdb-native (10.x) and ldb (7.8.3)", () => {
  interface PlacedCase {
    name: string;
    options: WriteOptions;
    points: { op: "put" | "delete"; key: Buffer; value: Buffer }[];
  }
  const PLACED: PlacedCase[] = [];
  let n = 0;
  for (const formatVersion of [5, 6, 7]) {
    for (const filter of ["rocksdb-bloom", "rocksdb-ribbon", "none", "partitioned"] as const) {
      const checksum = CHECKSUMS[n % CHECKSUMS.length]!;
      const options: WriteOptions = {
        format: "rocksdb",
        formatVersion,
        filter: filter === "partitioned" ? "rocksdb-ribbon" : filter,
        checksum,
        compression: "none",
      };
      let variant = "";
      if (filter === "partitioned") {
        // Small partitions, so that there are several; decoupled (11.x's default) and coupled.
        Object.assign(options, { partitionFilters: true, metadataBlockSize: 256 });
        options.decouplePartitionedFilters = formatVersion !== 6;
        if (formatVersion >= 6) variant = options.decouplePartitionedFilters ? " decoupled" : " coupled";
      }
      if (n % 2 === 0 && filter !== "none") {
        options.prefixExtractor = PREFIXES[n % PREFIXES.length]!;
        options.wholeKeyFiltering = n % 4 !== 0;
      }
      const next = random(5000 + n);
      const points = keys(next, 700).map((key, i) => {
        const op = next() < 0.8 ? ("put" as const) : ("delete" as const);
        return {
          op,
          key,
          value: op === "put" ? Buffer.from(`value ${i} `.repeat(1 + (i % 5))) : Buffer.alloc(0),
        };
      });
      PLACED.push({
        name: `fv${formatVersion} ${filter}${variant} ${checksum}${options.prefixExtractor ? ` ${options.prefixExtractor}` : ""}`,
        options,
        points,
      });
      n++;
    }
  }

  let work: string;
  let sf: SstFilter;
  let hooks: TestingHooks;
  const dirs = new Map<string, string>();

  beforeAll(async () => {
    ({ sf, hooks } = await loadTestingBackend(true));
    work = mkdtempSync(path.join(tmpdir(), "sstfilter-placed-"));
    for (const [i, c] of PLACED.entries()) {
      using w = sf.createTableWriter(c.options);
      for (const p of c.points) {
        if (p.op === "put") w.put(p.key, p.value);
        else w.delete(p.key);
      }
      const table = w.finish();
      // The smallest and largest internal keys: user key, then (seq << 8 | type) as fixed64.
      const internal = (p: PlacedCase["points"][number]) =>
        Buffer.concat([p.key, Buffer.from([p.op === "put" ? 1 : 0, 0, 0, 0, 0, 0, 0, 0])]).toString("hex");
      const manifest = hooks.singleTableManifest(
        5,
        table.length,
        6,
        internal(c.points[0]!),
        internal(c.points[c.points.length - 1]!),
        0,
      );
      if (manifest === null) throw new Error(`${c.name}: no MANIFEST`);
      const dir = path.join(work, `db${i}`);
      mkdirSync(dir);
      writeFileSync(path.join(dir, "000005.sst"), table);
      writeFileSync(path.join(dir, "MANIFEST-000001"), manifest);
      writeFileSync(path.join(dir, "CURRENT"), "MANIFEST-000001\n");
      writeFileSync(path.join(dir, "IDENTITY"), `sstfilter-placed-${i}\n`);
      dirs.set(c.name, dir);
    }
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const expected = (c: PlacedCase) =>
    new Map(
      c.points.filter((p) => p.op === "put").map((p) => [p.key.toString("hex"), p.value.toString("hex")]),
    );

  it("covers format_version 5, 6 and 7 with every filter kind, partitioned ones too", () => {
    for (const fv of [5, 6, 7]) {
      for (const filter of ["rocksdb-bloom", "rocksdb-ribbon", "none"]) {
        expect(PLACED.some((c) => c.options.formatVersion === fv && c.options.filter === filter)).toBe(true);
      }
      expect(PLACED.some((c) => c.options.formatVersion === fv && c.options.partitionFilters)).toBe(true);
    }
    expect(PLACED.some((c) => c.options.formatVersion! >= 6 && c.options.prefixExtractor)).toBe(true);
  });

  it("rocksdb-native opens each directory read-only and gets every key as written", async () => {
    const failures: string[] = [];
    let asked = 0;
    for (const c of PLACED) {
      const rocksdb = new RocksDB(dirs.get(c.name)!, { readOnly: true });
      const want = expected(c);
      try {
        await rocksdb.ready();
        for (const p of c.points) {
          const got: Buffer | null = await rocksdb.get(p.key);
          asked++;
          const gotHex = got === null ? null : Buffer.from(got).toString("hex");
          if (gotHex !== (want.get(p.key.toString("hex")) ?? null) && failures.length < 10) {
            failures.push(`${c.name}: key ${p.key.toString("hex")}: got ${gotHex?.slice(0, 40)}`);
          }
        }
      } catch (e) {
        failures.push(`${c.name}: ${(e as Error).message}`);
      }
      await rocksdb.close().catch(() => undefined);
    }
    expect(failures).toEqual([]);
    expect(asked).toBe(PLACED.reduce((sum, c) => sum + c.points.length, 0));
  }, 60_000);

  it("ldb (RocksDB 7.8.3) scans the format_version 5 directories to exactly our puts", () => {
    const failures: string[] = [];
    const fv5 = PLACED.filter((c) => c.options.formatVersion === 5);
    expect(fv5.length).toBeGreaterThan(0);
    for (const c of fv5) {
      // ldb opens read-write (it may add a MANIFEST): a copy.
      const copy = `${dirs.get(c.name)!}-ldb`;
      cpSync(dirs.get(c.name)!, copy, { recursive: true });
      const scan = tool("ldb", [`--db=${copy}`, "scan", "--hex"]);
      if (!scan.ok) {
        failures.push(`${c.name}: ${scan.out.trim()}`);
        continue;
      }
      const got = new Map<string, string>();
      for (const line of scan.out.split("\n")) {
        const m = /^0x([0-9A-F]*) : 0x([0-9A-F]*)$/.exec(line);
        if (m) got.set(m[1]!.toLowerCase(), m[2]!.toLowerCase());
      }
      const diff = differences(got, expected(c));
      if (diff.length > 0) failures.push(`${c.name}: ${diff.join("; ")}`);
    }
    expect(failures).toEqual([]);
  });
});
