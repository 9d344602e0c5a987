// filterAdvice / adviseFilterSizes (ts/api/filter-advice.ts, `sstfilter filter-advice`): for every
// filter the real libraries built from known keys in the corpus (rocksdb_filter: RocksDB 7.8.3's
// policies at many bits per key; leveldb_filter: LevelDB's), the advice's filter for that policy
// and bits per key has the corpus filter's size, and its false positives on the corpus's absent
// keys are exactly those RocksDB's / LevelDB's own filter gave (equal bytes, equal answers); then
// sampling, the target rate, prefixes, the absent keys and the command line.
import { spawnSync } from "node:child_process";

import {
  adviceSeries,
  adviseFilterSizes,
  drawAbsentKeys,
  filterAdvice,
  init,
  type FilterFormat,
  type SstFilter,
  wholeKeyAndPrefixKeys,
} from "sstfilter";
import { CLI } from "./cli-path";
import { bytesEqual, FIXTURES, GENERATED, type Corpus } from "./golden";

interface FilterCase {
  id: string;
  filter: { bytes: number; path: string };
  keys: { count: number; path: string };
  probes: { all_absent: boolean; count: number; path: string };
  summary: { false_positives: number; absent_consulted: number };
}
interface RocksDbFilterCase extends FilterCase {
  built_impl: "fastlocalbloom" | "legacybloom" | "ribbon";
  policy: { factory: string; bits_per_key?: number; bloom_equivalent_bits_per_key?: number };
  table_options: { format_version: number; optimize_filters_for_memory: boolean };
}
interface LevelDbFilterCase extends FilterCase {
  bits_per_key: number;
}

/** A corpus filter as the advice names its policy and bits per key. */
interface Ground {
  id: string;
  policy: FilterFormat;
  bitsPerKey: number;
  c: FilterCase;
}

// RocksDB's policy as the corpus generator set it: NewBloomFilterPolicy writes the legacy Bloom
// below format_version 5, FastLocalBloom from 5; NewRibbonFilterPolicy (bloom_before_level -1) a
// Ribbon filter or, where smaller, its FastLocalBloom fallback.
function rocksDbGround(c: RocksDbFilterCase): Ground | null {
  if (c.table_options.optimize_filters_for_memory) return null; // sizes then follow the allocator
  if (c.policy.factory === "NewRibbonFilterPolicy") {
    return { id: c.id, policy: "rocksdb-ribbon", bitsPerKey: c.policy.bloom_equivalent_bits_per_key!, c };
  }
  const policy = c.table_options.format_version >= 5 ? "rocksdb-bloom" : "rocksdb-legacy-bloom";
  return { id: c.id, policy, bitsPerKey: c.policy.bits_per_key!, c };
}

function groundTruth(corpus: Corpus): Ground[] {
  const rocks = corpus.section<{ cases: RocksDbFilterCase[] }>("rocksdb_filter")?.cases ?? [];
  const level = corpus.section<{ cases: LevelDbFilterCase[] }>("leveldb_filter")?.cases ?? [];
  return [
    ...rocks.map(rocksDbGround).filter((g): g is Ground => g !== null),
    ...level.map((c) => ({ id: c.id, policy: "leveldb" as const, bitsPerKey: c.bits_per_key, c })),
  ].filter((g) => g.c.probes.all_absent && g.c.summary.absent_consulted === g.c.probes.count);
}

let sf: SstFilter;
beforeAll(async () => {
  sf = await init();
});

describe("the advice's filters are the real libraries' (corpus rocksdb_filter, leveldb_filter)", () => {
  const cases = groundTruth(GENERATED);
  test("the corpus has filter cases for every policy", () => {
    const policies = new Set(cases.map((g) => g.policy));
    expect([...policies].sort()).toEqual([
      "leveldb",
      "rocksdb-bloom",
      "rocksdb-legacy-bloom",
      "rocksdb-ribbon",
    ]);
  });

  test.each(cases.map((g) => [g.id, g] as const))("%s: size and false positives", (_id, g) => {
    const keys = sf.packKeys(GENERATED.readKeys(g.c.keys.path));
    const absent = sf.packKeys(GENERATED.readKeys(g.c.probes.path));
    const real = GENERATED.readBytes(g.c.filter.path);
    const set = adviseFilterSizes(sf, keys, { policies: [g.policy], bitsPerKey: [g.bitsPerKey], absent });
    const row = set.rows[0]!;
    const context = `${g.id}: ${g.policy} at ${g.bitsPerKey} bits/key over ${g.c.keys.count} keys`;
    expect({ context, bytes: row.bytes, builtBytes: row.builtBytes }).toEqual({
      context,
      bytes: real.length,
      builtBytes: real.length,
    });
    // The same bytes: the advice measured the library's own filter.
    const built = sf.buildFilter(keys, { format: g.policy, bitsPerKey: g.bitsPerKey });
    expect({ context, sameBytes: bytesEqual(built, real) }).toEqual({ context, sameBytes: true });
    // RocksDB / LevelDB recorded their filter's answers on these absent keys.
    expect({ context, falsePositives: row.falsePositives, probes: row.probes }).toEqual({
      context,
      falsePositives: g.c.summary.false_positives,
      probes: g.c.probes.count,
    });
    const [low, high] = row.interval;
    expect(low).toBeLessThanOrEqual(row.measuredFpRate);
    expect(high).toBeGreaterThanOrEqual(row.measuredFpRate);
  });
});

/** A RocksDB table the package writes itself: `n` keys "user%08d" (every 3rd number), values "v". */
function writtenTable(n: number, prefixExtractor?: string): Uint8Array {
  using w = sf.createTableWriter({
    format: "rocksdb",
    filter: "rocksdb-bloom",
    bitsPerKey: 10,
    ...(prefixExtractor === undefined ? {} : { prefixExtractor }),
  });
  for (let i = 0; i < n; i++) w.put(`user${String(3 * i).padStart(8, "0")}`, "v");
  return w.finish();
}

describe("filterAdvice on a table", () => {
  test("within the sample size: built on every key, the sizes exact", async () => {
    using t = sf.openTable(writtenTable(5000));
    const advice = await filterAdvice(sf, t, { bitsPerKey: [6, 10], absentKeys: 5000 });
    expect(advice.sets.map((s) => s.filtering)).toEqual(["whole-key"]);
    const set = advice.sets[0]!;
    expect(set).toMatchObject({ totalKeys: 5000, sampledKeys: 5000 });
    const keys = sf.packKeys([...t.keys()]);
    for (const row of set.rows) {
      const built = sf.buildFilter(keys, { format: row.policy, bitsPerKey: row.bitsPerKey });
      expect({ row: `${row.policy} ${row.bitsPerKey}`, bytes: row.bytes }).toEqual({
        row: `${row.policy} ${row.bitsPerKey}`,
        bytes: built.length,
      });
      expect(row.bytesPerBillionKeys).toBe(Math.round((row.bytes / 5000) * 1e9));
    }
  });

  test("Ribbon without its Bloom fallback: rows where RocksDB falls back, never named the smallest", async () => {
    using small = sf.openTable(writtenTable(150));
    const [set] = (await filterAdvice(sf, small, { absentKeys: 5000, fpRate: 0.5 })).sets;
    const keys = sf.packKeys([...small.keys()]);
    const ribbon = set!.rows.filter((r) => r.policy === "rocksdb-ribbon" && r.bloomFallback === undefined);
    const pure = set!.rows.filter((r) => r.bloomFallback === false);
    expect(ribbon.some((r) => r.builtKind === "rocksdb-bloom")).toBe(true);
    expect(pure.map((r) => r.bitsPerKey)).toEqual(ribbon.map((r) => r.bitsPerKey));
    const built = sf.buildFilters(keys, {
      format: "rocksdb-ribbon",
      bitsPerKey: pure.map((r) => r.bitsPerKey),
      bloomFallback: false,
    });
    pure.forEach((row, i) => {
      const context = `${row.bitsPerKey} bits/key`;
      expect({ context, kind: row.builtKind, bytes: row.bytes, series: adviceSeries(row) }).toEqual({
        context,
        kind: "rocksdb-ribbon",
        bytes: built[i]!.length,
        series: "rocksdb-ribbon (no Bloom fallback)",
      });
    });
    expect(set!.best).not.toBeNull();
    expect(set!.best!.bloomFallback).toBeUndefined();
    // 5000 keys: RocksDB keeps Ribbon at every bits per key, so no such rows.
    using large = sf.openTable(writtenTable(5000));
    const [largeSet] = (await filterAdvice(sf, large, { bitsPerKey: [6, 10], absentKeys: 1000 })).sets;
    expect(largeSet!.rows.filter((r) => r.bloomFallback === false)).toEqual([]);
  });

  test("beyond it: a seeded sample, sizes scaled to all keys within 2% of the full filter's", async () => {
    using t = sf.openTable(writtenTable(20000));
    const opts = { bitsPerKey: [10], sample: 4000, absentKeys: 4000 };
    const advice = await filterAdvice(sf, t, opts);
    expect(advice).toEqual(await filterAdvice(sf, t, opts)); // the same seed, the same advice
    const set = advice.sets[0]!;
    expect(set).toMatchObject({ totalKeys: 20000, sampledKeys: 4000 });
    const keys = sf.packKeys([...t.keys()]);
    for (const row of set.rows) {
      const full = sf.buildFilter(keys, { format: row.policy, bitsPerKey: row.bitsPerKey }).length;
      expect({ policy: row.policy, off: Math.abs(row.bytes - full) / full < 0.02 }).toEqual({
        policy: row.policy,
        off: true,
      });
      expect(row.builtBytes).toBeLessThan(full / 4);
    }
  });

  test("fpRate: the smallest filter whose measured rate meets it", async () => {
    using t = sf.openTable(writtenTable(3000));
    for (const fpRate of [0.05, 0.01, 0.002]) {
      const set = (await filterAdvice(sf, t, { fpRate, absentKeys: 20000 })).sets[0]!;
      const best = set.best!;
      expect(best.measuredFpRate).toBeLessThanOrEqual(fpRate);
      const smaller = set.rows.filter((r) => r.bytes < best.bytes && r.measuredFpRate <= fpRate);
      expect({ fpRate, smaller }).toEqual({ fpRate, smaller: [] });
    }
    const none = (await filterAdvice(sf, t, { fpRate: 1e-6, bitsPerKey: [4], absentKeys: 20000 })).sets[0]!;
    expect(none.best).toBeNull();
  });

  test("a prefix extractor in use: its prefixes advised on too, each once", async () => {
    using t = sf.openTable(writtenTable(3000, "rocksdb.FixedPrefix.10"));
    const advice = await filterAdvice(sf, t, { bitsPerKey: [10], absentKeys: 2000 });
    expect(advice.sets.map((s) => s.filtering)).toEqual([
      "whole-key",
      "rocksdb.FixedPrefix.10",
      "whole-key + rocksdb.FixedPrefix.10",
    ]);
    // "user0000" and two digits of the numbers 0..8997: prefixes 00..89.
    expect(advice.sets[1]).toMatchObject({ totalKeys: 90, sampledKeys: 90 });
  });
});

interface MixedFixture {
  id: string;
  file: string;
  filter: string;
  bitsPerKey: number;
  formatVersion: number;
  partitioned: boolean;
  prefix: string | null;
  wholeKeyFiltering: boolean;
  optimizeFiltersForMemory: boolean;
}

// The committed RocksDB 11 tables with whole-key filtering and a prefix extractor in one full
// filter (format_version >= 6, the rule wholeKeyAndPrefixKeys follows), by folder.
function mixedFixtures(): { folder: string; c: MixedFixture }[] {
  return [
    ["head", "head"],
    ["v11_kv", "v11-kv"],
  ].flatMap(([section, folder]) =>
    (FIXTURES.section<{ cases: MixedFixture[] }>(section!)?.cases ?? [])
      .filter(
        (c) =>
          c.prefix !== null &&
          c.wholeKeyFiltering &&
          !c.partitioned &&
          !c.optimizeFiltersForMemory &&
          c.formatVersion >= 6 &&
          (c.filter === "bloom" || c.filter === "ribbon"),
      )
      .map((c) => ({ folder: folder!, c })),
  );
}

describe("whole-key + prefix: the filter RocksDB writes with whole_key_filtering and an extractor", () => {
  const cases = mixedFixtures();
  test("the fixtures have such tables", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  test.each(cases.map((x) => [x.c.id, x] as const))(
    "%s: the advice's filter is the table's",
    async (_, x) => {
      using t = sf.openTable(FIXTURES.readBytes(`${x.folder}/${x.c.file}`));
      const extractor = t.filter!.prefixExtractor!;
      const policy: FilterFormat = x.c.filter === "ribbon" ? "rocksdb-ribbon" : "rocksdb-bloom";
      const stored = (await t.filterBytes())[0]!;
      const entries = wholeKeyAndPrefixKeys(sf.packKeys([...t.keys()]), extractor);
      const built = sf.buildFilter(entries, { format: policy, bitsPerKey: x.c.bitsPerKey });
      expect({
        id: x.c.id,
        equal: bytesEqual(built, stored),
        built: built.length,
        stored: stored.length,
      }).toEqual({ id: x.c.id, equal: true, built: stored.length, stored: stored.length });
      const advice = await filterAdvice(sf, t, {
        bitsPerKey: [x.c.bitsPerKey],
        policies: [policy],
        absentKeys: 2000,
      });
      const mixed = advice.sets.find((s) => s.filtering === `whole-key + ${extractor}`);
      expect({ id: x.c.id, sets: advice.sets.map((s) => s.filtering) }).toEqual({
        id: x.c.id,
        sets: ["whole-key", extractor, `whole-key + ${extractor}`],
      });
      expect(mixed!.totalKeys).toBe(entries.offsets.length - 1);
      expect(mixed!.rows[0]!.bytes).toBe(stored.length);
      // Probed with absent whole keys, as the whole-key set is: the same probes, more entries.
      expect(mixed!.rows[0]!.probes).toBe(advice.sets[0]!.rows[0]!.probes);
    },
  );
});

describe("drawAbsentKeys", () => {
  test("absent, as long as the keys, seeded; a dense key space still yields keys", () => {
    const real = Array.from({ length: 10000 }, (_, i) => `key${String(i).padStart(4, "0")}`);
    const keys = sf.packKeys(real);
    const absent = drawAbsentKeys(keys, 3000, 7);
    expect(absent).toEqual(drawAbsentKeys(keys, 3000, 7));
    const present = new Set(real);
    const drawn = Array.from({ length: 3000 }, (_, i) =>
      Buffer.from(absent.data.subarray(absent.offsets[i]!, absent.offsets[i + 1]!)).toString("latin1"),
    );
    expect(drawn.filter((k) => present.has(k))).toEqual([]);
    // Every 4-digit number is taken: each draw appended a byte to a real key.
    expect(drawn.every((k) => k.length === 8 && present.has(k.slice(0, 7)))).toBe(true);
  });
});

describe("sstfilter filter-advice", () => {
  const fixture = `${__dirname}/../corpus/fixtures/head/fv7-bloom10-part-decoupled-snappy.sst`;
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, "filter-advice", ...args], { encoding: "utf8" });

  test("--json: input, seed, sets with rows and the best", () => {
    const r = run(fixture, "--json", "--bits", "8..10", "--absent", "3000", "--fp-rate", "0.02");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const advice = JSON.parse(r.stdout);
    expect(Object.keys(advice)).toEqual(["input", "seed", "sets", "notes"]);
    const set = advice.sets[0];
    expect(Object.keys(set)).toEqual(["filtering", "totalKeys", "sampledKeys", "fpRate", "rows", "best"]);
    expect(set).toMatchObject({ filtering: "whole-key", totalKeys: 15000, sampledKeys: 15000, fpRate: 0.02 });
    expect(
      set.rows.map((r: { policy: string; bitsPerKey: number }) => `${r.policy} ${r.bitsPerKey}`),
    ).toEqual(
      ["leveldb", "rocksdb-legacy-bloom", "rocksdb-bloom", "rocksdb-ribbon"].flatMap((p) =>
        [8, 9, 10].map((b) => `${p} ${b}`),
      ),
    );
    expect(Object.keys(set.rows[0]).sort()).toEqual(
      [
        "policy",
        "bitsPerKey",
        "builtKind",
        "bytes",
        "builtBytes",
        "bytesPerKey",
        "bytesPerBillionKeys",
        "estimatedFpRate",
        "falsePositives",
        "probes",
        "measuredFpRate",
        "interval",
      ].sort(),
    );
  });

  test.each([
    [["--bits", "12..4"], "--bits must be a..b"],
    [["--fp-rate", "2"], "--fp-rate must be a rate between 0 and 1"],
    [["--sample", "0"], "--sample must be a whole number >= 1"],
    [["--bogus"], "Unknown option '--bogus'"],
  ])("%j: a usage error", (args, message) => {
    const r = run(fixture, ...args);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
