// sf.buildFilters (one call, several bits per key; what filterAdvice builds with) against
// sf.buildFilter (one call each), on both wasm modules: the same bytes for every format. The
// Ribbon key sets are those of tests/cpp/filter_builds_test.cc: the ascending keys of
// bench/filter-advice-bench.mjs, whose first banding seeds fail, and small sets where RocksDB's
// Bloom fallback takes some bits per key but not others.
import type { FilterFormat, KeyBatch, SstFilter } from "sstfilter";
import { BACKENDS, loadBackend } from "./backends";
import { bytesEqual } from "./golden";

// filter-advice's 4..20, then values RocksDB sanitises or rounds (0.5 taken as 1, 100 and above
// as 100, fractional ones to millibits).
const BITS_PER_KEY = [...Array.from({ length: 17 }, (_, i) => i + 4), 9.5, 0.5, 1, 2.25, 7.777, 100, 250];

// bench/filter-advice-bench.mjs writtenTable()'s keys: an 8-byte big-endian number ascending by
// xorshift32 gaps of 1..8, then 8 bytes of "0".
function adviceBenchKeys(count: number): KeyBatch {
  const data = new Uint8Array(16 * count).fill(0x30);
  const view = new DataView(data.buffer);
  let state = 0x2545f491;
  let number = 0;
  for (let i = 0; i < count; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    number += 1 + ((state >>> 0) % 8);
    view.setBigUint64(16 * i, BigInt(number));
  }
  return { data, offsets: Uint32Array.from({ length: count + 1 }, (_, i) => 16 * i) };
}

function numberedKeys(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${i * 7919}`);
}

function expectEqualToSingleBuilds(
  sf: SstFilter,
  keys: KeyBatch | string[],
  format: FilterFormat,
  bitsPerKey: number[],
): Uint8Array[] {
  const filters = sf.buildFilters(keys, { format, bitsPerKey });
  expect(filters).toHaveLength(bitsPerKey.length);
  bitsPerKey.forEach((b, i) => {
    const single = sf.buildFilter(keys, { format, bitsPerKey: b });
    if (!bytesEqual(filters[i]!, single)) throw new Error(`${format} at ${b} bits per key differs`);
  });
  return filters;
}

const kindOf = (sf: SstFilter, filter: Uint8Array): string => {
  const reader = sf.openFilter(filter);
  try {
    return reader.kind;
  } finally {
    reader.dispose();
  }
};

describe.each(BACKENDS)("buildFilters on $name", ({ simd }) => {
  let sf: SstFilter;
  beforeAll(async () => {
    sf = await loadBackend(simd);
  });

  test("Ribbon on 10^6 keys whose first banding seeds fail", () => {
    const keys = adviceBenchKeys(1_000_000);
    const filters = expectEqualToSingleBuilds(sf, keys, "rocksdb-ribbon", BITS_PER_KEY);
    // The first seed tried is the low byte of the first key's hash; the stored one is later.
    const firstSeed = Number(sf.hash.xxph3_64(keys.data.subarray(0, 16)) & 0xffn);
    for (const filter of filters) expect(filter[filter.length - 4]).not.toBe(firstSeed);
  });

  test("Ribbon below 1024 slots: Bloom at some bits per key, Ribbon at others", () => {
    for (const count of [100, 150, 250]) {
      const filters = expectEqualToSingleBuilds(
        sf,
        numberedKeys("key", count),
        "rocksdb-ribbon",
        BITS_PER_KEY,
      );
      const kinds = new Set(filters.map((f) => kindOf(sf, f)));
      expect([...kinds].sort()).toEqual(["rocksdb-bloom", "rocksdb-ribbon"]);
    }
  });

  test("bloomFallback false: Ribbon at every bits per key, RocksDB's bytes where it keeps Ribbon", () => {
    for (const count of [150, 3000]) {
      const keys = numberedKeys("key", count);
      const asRocksDb = sf.buildFilters(keys, { format: "rocksdb-ribbon", bitsPerKey: BITS_PER_KEY });
      const pure = sf.buildFilters(keys, {
        format: "rocksdb-ribbon",
        bitsPerKey: BITS_PER_KEY,
        bloomFallback: false,
      });
      const replaced = asRocksDb.filter((f) => kindOf(sf, f) !== "rocksdb-ribbon").length;
      expect({ count, replacedSome: replaced > 0 }).toEqual({ count, replacedSome: count < 1000 });
      pure.forEach((filter, i) => {
        const context = `${count} keys at ${BITS_PER_KEY[i]} bits/key`;
        expect({ context, kind: kindOf(sf, filter) }).toEqual({ context, kind: "rocksdb-ribbon" });
        if (kindOf(sf, asRocksDb[i]!) === "rocksdb-ribbon") {
          expect({ context, same: bytesEqual(filter, asRocksDb[i]!) }).toEqual({ context, same: true });
        }
        using reader = sf.openFilter(filter);
        expect({ context, allKeys: reader.mayContainMany(keys).every((m) => m) }).toEqual({
          context,
          allKeys: true,
        });
      });
    }
    expect(() =>
      sf.buildFilters(["k"], {
        format: "rocksdb-ribbon",
        bitsPerKey: [10],
        bloomFallback: 0 as unknown as boolean,
      }),
    ).toThrow(/bloomFallback must be a boolean/);
  });

  test("every format, and no keys", () => {
    const keys = numberedKeys("user", 30_000);
    expectEqualToSingleBuilds(
      sf,
      keys,
      "leveldb",
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    for (const format of ["rocksdb-legacy-bloom", "rocksdb-bloom", "rocksdb-ribbon"] as const) {
      expectEqualToSingleBuilds(sf, keys, format, BITS_PER_KEY);
      expectEqualToSingleBuilds(sf, [], format, BITS_PER_KEY);
    }
  });

  test("bad options throw as buildFilter's do", () => {
    const keys = numberedKeys("k", 10);
    expect(() => sf.buildFilters(keys, { format: "rocksdb-ribbon", bitsPerKey: [10, 0.4] })).toThrow(
      /0\.5 bits per key/,
    );
    expect(() => sf.buildFilters(keys, { format: "leveldb", bitsPerKey: [9.5] })).toThrow(/whole bits/);
    expect(() => sf.buildFilters(keys, { format: "nope" as FilterFormat, bitsPerKey: [10] })).toThrow(
      /format must be one of/,
    );
    expect(() =>
      sf.buildFilters(keys, { format: "rocksdb-bloom", bitsPerKey: 10 as unknown as number[] }),
    ).toThrow(/array of numbers/);
    expect(sf.buildFilters(keys, { format: "rocksdb-ribbon", bitsPerKey: [] })).toEqual([]);
  });
});
