// What the viewer and the CLI build on: explainMayContain() names the filter partition / data block a lookup
// consults (checked against the ones RocksDB and LevelDB consulted), dataBlocks() and readBlock(),
// the filters of a LevelDB filter block, RocksDB's false-positive estimates, filter summaries and
// whole-file verification (sound files, a broken checksum, a filter that lost its keys).
import { readFileSync } from "node:fs";

import {
  estimateFalsePositiveRate,
  summarizeTableFilter,
  verifyTable,
  type FilterDetails,
  type NodeSstFilter,
  type Table,
} from "sstfilter";

import { loadBackend } from "./backends";
import { bytesEqual, EXTRA, FIXTURES, GENERATED, sectionCases } from "./golden";

/* eslint-disable @typescript-eslint/no-explicit-any */
// Every corpus, the generated one first (so find() by id picks its case).
const ROCKSDB = sectionCases<Record<string, any>>("rocksdb_sst");
const LEVELDB = sectionCases<Record<string, any>>("leveldb_table");
/* eslint-enable @typescript-eslint/no-explicit-any */
const NOT_CONSULTED = 0xffffffff;

let sf: NodeSstFilter;
beforeAll(async () => {
  sf = (await loadBackend(true)) as NodeSstFilter;
});

function open(file: string, internalKeys = true): Table {
  return sf.openTable(new Uint8Array(readFileSync(file)), { internalKeys });
}

/** A copy of `bytes` with the block at [offset, size] replaced and its crc32c trailer recomputed. */
function rewriteBlock(bytes: Uint8Array, offset: number, contents: Uint8Array): Uint8Array {
  const out = bytes.slice();
  out.set(contents, offset);
  const typed = out.subarray(offset, offset + contents.length + 1); // contents + compression type
  new DataView(out.buffer).setUint32(
    offset + contents.length + 1,
    sf.hash.crc32cMask(sf.hash.crc32c(typed)),
    true,
  );
  return out;
}

// Only the extra corpus records which partition each probe consulted (its rule, cross-checked with
// RocksDB's reader on the extracted partitions); the generated corpus records RocksDB's answers,
// index separators included, which the next test checks for every table. Without the extra
// corpus this test has nothing to compare with and is skipped; with it, it must find cases.
const RECORDED_PARTITIONS = ROCKSDB.filter(
  (c) => c.filter.kind === "partitioned" && c.filter.probe_partition,
).map((c) => [`${c.corpus.name}:${c.id}`, c] as const);

describe("explainMayContain()", () => {
  if (!EXTRA) {
    test.skip("names the partition RocksDB consulted: only the extra corpus records it", () => {});
  } else {
    test.each(RECORDED_PARTITIONS)("%s: names the partition RocksDB consulted", (_id, c) => {
      const t = open(c.corpus.path(c.file.path));
      const probes = c.corpus.readKeys(c.probes.path);
      const expected = c.corpus.readU32s(c.filter.probe_partition);
      const named: number[] = [];
      const recorded: number[] = [];
      probes.forEach((probe, i) => {
        const e = t.explainMayContain(probe);
        // The recorded partition is the one the rule picks even where no filter is consulted
        // (keys without a prefix, whole-key filtering off).
        if (e.route === "outside-prefix-domain" || expected[i] === NOT_CONSULTED) return;
        named.push(e.route === "partition" ? e.partition! : -1);
        recorded.push(expected[i]!);
      });
      expect(named).toEqual(recorded);
      expect(named.length).toBeGreaterThan(probes.length / 2);
      expect(probes.map((p) => t.explainMayContain(p).mayContain)).toEqual(
        Array.from(t.mayContainMany(probes), Boolean),
      );
      t.dispose();
    });
  }

  // Whole-key filters only: without whole-key filtering a Get consults the prefix filter.
  test.each(
    [...ROCKSDB.filter((c) => c.options.whole_key_filtering), ...LEVELDB].map(
      (c) => [`${c.corpus.name}:${c.id}`, c] as const,
    ),
  )("%s: explainMayContain() gives the database's answer for every probe it filtered", (_id, c) => {
    const t = open(c.corpus.path(c.file.path), c.internal_keys !== false);
    const probes = c.corpus.readKeys(c.probes.path);
    const answers = c.corpus.readBytes(c.get_results);
    const wrong = probes.flatMap((probe, i) => {
      if (answers[i] === 2) return [];
      const e = t.explainMayContain(probe);
      return e.mayContain === (answers[i] === 1) ? [] : [`probe ${i}: ${e.route} says ${e.mayContain}`];
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    t.dispose();
  });

  test.each(LEVELDB.filter((c) => c.probe_filter_index).map((c) => [`${c.corpus.name}:${c.id}`, c]))(
    "%s: names the data block whose filter LevelDB consulted",
    (_id, c) => {
      const t = open(c.corpus.path(c.file.path), c.internal_keys);
      const probes = c.corpus.readKeys(c.probes.path);
      const expected = c.corpus.readU32s(c.probe_filter_index);
      const named = probes.map((probe, i) => {
        const e = t.explainMayContain(probe);
        if (expected[i] !== NOT_CONSULTED) {
          return e.route === "block-filter" && bytesEqual(e.probed, probe)
            ? Math.floor(e.dataBlock![0] / 2048)
            : -1;
        }
        // TableBuilder files skip the filter only for keys after the last index entry (a database
        // also skips keys before the file's first).
        return c.internal_keys || (e.route === "after-last-key" && e.dataBlock === null) ? NOT_CONSULTED : -1;
      });
      expect(named).toEqual(Array.from(expected));
      expect(probes.map((p) => t.explainMayContain(p).mayContain)).toEqual(
        Array.from(t.mayContainMany(probes), Boolean),
      );
      t.dispose();
    },
  );

  test("full filters, the data block a read goes on to, prefixes probed, keys after the last", () => {
    const full = open(GENERATED.path("rocksdb-sst/fv5_bloom10_crc32c/table.sst"));
    const [first] = full.keys();
    const e = full.explainMayContain(first!);
    expect(e).toMatchObject({ mayContain: true, route: "full-filter", partition: null });
    // The first key lies in the first data block.
    expect(e.dataBlock![0]).toBe(0);
    expect(e.probed).toEqual(first);
    full.dispose();

    const prefixed = sf.openTable(FIXTURES.readBytes("head/fv7-bloom12-capped5-nowhole-zlib.sst"));
    expect(prefixed.filter!.wholeKeyFiltering).toBe(false);
    const long = prefixed.explainMayContain("1234567890");
    expect(long.route).toBe("full-filter");
    expect(Buffer.from(long.probed).toString()).toBe("12345");
    prefixed.dispose();

    const leveldb = open(GENERATED.path("leveldb-table/tb_b10_bs256/table.ldb"), false);
    expect(leveldb.explainMayContain(new Uint8Array(64).fill(0xff))).toMatchObject({
      route: "after-last-key",
      mayContain: false,
      probed: new Uint8Array(0),
    });
    leveldb.dispose();
  });
});

describe("dataBlocks() and readBlock()", () => {
  test.each(["fv5_bloom10_crc32c", "bs256", "big_dec_n200000_snappy", "part_bloom10_mbs256"])(
    "rocksdb-sst/%s: every data block once, in order, holding the keys in file order",
    async (id) => {
      const c = ROCKSDB.find((x) => x.id === id)!;
      const t = open(c.corpus.path(c.file.path));
      const blocks = [...t.dataBlocks()];
      expect(blocks.length).toBe(c.properties["rocksdb.num.data.blocks"]);
      blocks.slice(1).forEach((b, i) => expect(b.offset).toBe(blocks[i]!.offset + blocks[i]!.size + 5));
      const keys = [...t.keys()];
      expect(blocks.reduce((n, b) => n + b.keys.length, 0)).toBe(keys.length);
      expect(Buffer.concat(blocks.flatMap((b) => b.keys)).equals(Buffer.concat(keys))).toBe(true);
      // The same from a lazily read file.
      const lazy = await sf.openTableFile(c.corpus.path(c.file.path));
      let n = 0;
      for await (const b of lazy.dataBlocks()) expect(b.offset).toBe(blocks[n++]!.offset);
      expect(n).toBe(blocks.length);
      lazy.dispose();
      t.dispose();
    },
  );

  test("readBlock returns a block's contents, verified and decompressed", async () => {
    const c = ROCKSDB.find((x) => x.id === "fv5_bloom10_crc32c")!;
    const t = open(c.corpus.path(c.file.path));
    const [offset, size] = c.filter.handle;
    expect(t.readBlock(offset, size)).toEqual(c.corpus.readBytes(c.filter.path));
    const lazy = await sf.openTableFile(c.corpus.path(c.file.path));
    expect(await lazy.readBlock(offset, size)).toEqual(c.corpus.readBytes(c.filter.path));
    lazy.dispose();
    expect(() => t.readBlock(offset + 1, size)).toThrow(
      expect.objectContaining({ code: "CHECKSUM_MISMATCH" }),
    );
    expect(() => t.readBlock(-1, size)).toThrow(expect.objectContaining({ code: "BAD_OPTIONS" }));
    expect(() => t.readBlock(c.file.bytes, 10)).toThrow(expect.objectContaining({ offset: c.file.bytes }));
    t.dispose();
  });
});

test("LevelDB filter blocks: the filter of each 2 KiB range, as the block reader uses it", () => {
  for (const c of LEVELDB) {
    const block = sf.openLevelDbFilterBlock(c.corpus.readBytes(c.filter_block.path));
    expect(block.baseLg).toBe(c.filter_block.base_lg);
    const filters = block.filters();
    expect(filters.length).toBe(c.filter_block.num_filters);
    expect(filters.filter((f) => f !== null && f.length === 0).length).toBe(c.filter_block.empty_filters);
    const probes = c.corpus.readKeys(c.probes.path).slice(0, 300);
    filters.forEach((bytes, i) => {
      if (bytes === null || bytes.length === 0) return;
      const filter = sf.openFilter(bytes, { format: "leveldb" });
      const fromBlock = Uint8Array.from(probes, (probe) => Number(block.mayContain(i * 2048, probe)));
      expect(filter.mayContainMany(probes)).toEqual(fromBlock);
      filter.dispose();
    });
    block.dispose();
  }
  // Malformed offsets: no filter to show, every key may match.
  const broken = sf.openLevelDbFilterBlock(Uint8Array.from([0, 0, 0, 0, 9, 0, 0, 0, 4, 0, 0, 0, 11]));
  expect(broken.filters()).toEqual([null]);
  expect(broken.mayContain(0, "x")).toBe(true);
  broken.dispose();
});

describe("estimateFalsePositiveRate", () => {
  const details = (kind: FilterDetails["kind"], dataBytes: number, numProbes: number): FilterDetails => ({
    kind,
    numProbes,
    dataBytes,
    blockBytes: 64,
    ribbonSeed: 0,
    ribbonBlocks: 0,
  });

  test("RocksDB's figures: FastLocalBloom at 10 bits/key, 6 probes is 0.9535% (util/bloom_impl.h)", () => {
    expect(estimateFalsePositiveRate(details("rocksdb-bloom", 1_250_000, 6), 1_000_000)).toBeCloseTo(
      0.009533,
      5,
    );
    expect(estimateFalsePositiveRate(details("always-match", 0, 0), 10)).toBe(1);
    expect(estimateFalsePositiveRate(details("never-match", 0, 0), 0)).toBe(0);
    expect(estimateFalsePositiveRate(details("rocksdb-bloom", 0, 6), 0)).toBe(0);
    expect(() => estimateFalsePositiveRate(details("rocksdb-bloom", 64, 6), -1)).toThrow(
      expect.objectContaining({ code: "BAD_OPTIONS" }),
    );
  });

  test.each(["leveldb", "rocksdb-legacy-bloom", "rocksdb-bloom", "rocksdb-ribbon"] as const)(
    "%s: the estimate matches the rate measured on 100,000 absent keys",
    (format) => {
      const keys = Array.from({ length: 20_000 }, (_, i) => `key-${i}`);
      const absent = sf.packKeys(Array.from({ length: 100_000 }, (_, i) => `absent-${i}`));
      for (const bitsPerKey of [5, 10, 16]) {
        const filter = sf.openFilter(sf.buildFilter(keys, { format, bitsPerKey }), {
          format: format === "leveldb" ? "leveldb" : "rocksdb",
        });
        const measured = filter.mayContainMany(absent).reduce((a, b) => a + b, 0) / 100_000;
        const estimated = estimateFalsePositiveRate(filter.details, keys.length);
        // Within 20% plus sampling noise (legacy Bloom's flaw term is an estimate itself).
        expect(Math.abs(estimated - measured)).toBeLessThan(
          0.2 * measured + 3 * Math.sqrt(measured / 100_000),
        );
        filter.dispose();
      }
    },
  );
});

describe("summarizeTableFilter", () => {
  test("full and partitioned RocksDB filters: keys from the properties, one part per partition", async () => {
    for (const id of ["fv5_bloom10_crc32c", "part_bloom10_mbs256", "fv5_ribbon10_n5000"]) {
      const c = ROCKSDB.find((x) => x.id === id)!;
      const t = open(c.corpus.path(c.file.path));
      const s = (await summarizeTableFilter(sf, t))!;
      expect(s.keys).toBe(c.properties["rocksdb.num.filter_entries"]);
      expect(s.keysSource).toBe("rocksdb.num.filter_entries");
      expect(s.parts.length).toBe(t.filterBytes().length);
      expect(s.bitsPerKey).toBeGreaterThan(6); // Ribbon needs about 7 for a Bloom filter's 10
      expect(s.parts[0]!.density.length).toBe(Math.ceil(s.parts[0]!.details!.dataBytes / 64));
      // The golden measurement (RocksDB's own answers to absent probes) and ours agree with the estimate.
      expect(Math.abs(s.estimatedFpRate! - s.measuredFpRate!)).toBeLessThan(0.004);
      expect(Math.abs(s.measuredFpRate! - c.summary.get.fp_rate)).toBeLessThan(0.006);
      t.dispose();
    }
  });

  test("LevelDB: estimates once the keys per filter are counted", async () => {
    const c = LEVELDB.find((x) => x.id === "db_b10_bs1024")!;
    const t = open(c.corpus.path(c.file.path), c.internal_keys);
    const unknown = (await summarizeTableFilter(sf, t, { samples: 0 }))!;
    expect(unknown).toMatchObject({ keys: null, estimatedFpRate: null, measuredFpRate: null, samples: 0 });
    const report = await verifyTable(t);
    const s = (await summarizeTableFilter(sf, t, { keysPerLevelDbFilter: report.keysPerLevelDbFilter }))!;
    expect(s).toMatchObject({ keys: c.keys.count, keysSource: "counted" });
    expect(s.parts.length).toBe(c.filter_block.num_filters);
    expect(Math.abs(s.estimatedFpRate! - s.measuredFpRate!)).toBeLessThan(0.005);
    t.dispose();
  });

  test("no filter: null", async () => {
    const c = ROCKSDB.find((x) => x.id === "fv5_bloom10_crc32c")!;
    const [offset, size] = c.footer.metaindex_handle as [number, number];
    // Hide the filter: rename its metaindex entry to a name no reader looks for.
    const metaindex = Buffer.from(c.corpus.readBytes(c.file.path).subarray(offset, offset + size));
    metaindex.write("x", metaindex.indexOf("fullfilter."));
    const t = sf.openTable(rewriteBlock(c.corpus.readBytes(c.file.path), offset, metaindex));
    expect(t.filter).toBeNull();
    expect(await summarizeTableFilter(sf, t)).toBeNull();
    t.dispose();
  });
});

describe("verifyTable", () => {
  test.each([
    ["rocksdb-sst/fv5_bloom10_crc32c/table.sst", true],
    ["rocksdb-sst/part_bloom10_mbs256/table.sst", true],
    ["rocksdb-sst/bs65536_zstd_n10000/table.sst", true],
    ["head/fv7-ribbon9-part-coupled-zstd.sst", true],
    ["leveldb-table/tb_b10_bs256/table.ldb", false],
    ["leveldb-table/db_b16_bs4096_snappy_dec/table.ldb", true],
  ])("%s is sound", async (path, internalKeys) => {
    const corpus = path.startsWith("head/") ? FIXTURES : GENERATED;
    const t = await sf.openTableFile(corpus.path(path), { internalKeys });
    const progress: number[] = [];
    const report = await verifyTable(t, { onProgress: (p) => progress.push(p.bytesDone / p.bytesTotal) });
    expect(report).toMatchObject({ ok: true, error: null, falseNegatives: 0, filterSkipped: null });
    expect(report.keys).toBe([...(await collect(t.keys()))].length);
    // Progress comes per batch of data blocks, never going back, and ends at 100%.
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress.every((p, i) => i === 0 || p >= progress[i - 1]!)).toBe(true);
    expect(report.dataBlocks).toBe([...(await collect(t.dataBlocks()))].length);
    expect(progress.at(-1)).toBe(1);
    if (report.keysPerLevelDbFilter !== null) {
      expect(report.keysPerLevelDbFilter.reduce((a, b) => a + b, 0)).toBe(report.keys);
    }
    t.dispose();
  });

  test("a damaged data block: CHECKSUM_MISMATCH at that block, the walk stops there", async () => {
    const bytes = GENERATED.readBytes("rocksdb-sst/fv5_bloom10_crc32c/table.sst");
    const t0 = sf.openTable(bytes);
    const blocks = [...t0.dataBlocks()];
    t0.dispose();
    const damaged = bytes.slice();
    damaged[blocks[3]!.offset + 100]! ^= 0x40;
    const t = sf.openTable(damaged);
    const report = await verifyTable(t);
    expect(report.ok).toBe(false);
    expect(report.dataBlocks).toBe(3);
    expect(report.error).toMatchObject({ code: "CHECKSUM_MISMATCH", offset: blocks[3]!.offset });
    t.dispose();
  });

  test("a filter that lost its keys (valid checksum): every key is a reported false negative", async () => {
    const c = ROCKSDB.find((x) => x.id === "fv5_bloom10_crc32c")!;
    const [offset, size] = c.filter.handle as [number, number];
    const filter = c.corpus.readBytes(c.filter.path);
    const emptied = filter.slice();
    emptied.fill(0, 0, size - 5); // the bit array; the 5 bytes of metadata stay
    const t = sf.openTable(rewriteBlock(c.corpus.readBytes(c.file.path), offset, emptied));
    const report = await verifyTable(t, { maxReported: 3 });
    expect(report).toMatchObject({ ok: false, error: null, falseNegatives: c.keys.count });
    expect(report.falseNegativeSamples.length).toBe(3);
    expect(report.falseNegativeSamples[0]!.key).toEqual(c.corpus.readKeys(c.keys.path)[0]);
    t.dispose();
  });

  test("an abort stops the walk", async () => {
    const t = await sf.openTableFile(GENERATED.path("rocksdb-sst/big_dec_n200000_snappy/table.sst"));
    const controller = new AbortController();
    const run = verifyTable(t, { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(run).rejects.toMatchObject({ name: "AbortError" });
    t.dispose();
  });
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
