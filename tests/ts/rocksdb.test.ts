import type { FilterKind, SstFilter } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { bytesEqual, firstDifference, sectionCases } from "./golden";

interface RocksFilterCase {
  id: string;
  requested_impl: "fastlocalbloom" | "legacybloom" | "ribbon";
  built_impl: "fastlocalbloom" | "legacybloom" | "ribbon" | "always_false" | "always_true";
  policy: { bits_per_key?: number; bloom_equivalent_bits_per_key?: number };
  filter_meta: { seed?: number; num_blocks?: number; data_len?: number };
  keys: { path: string };
  filter: { path: string };
  probes: { path: string };
  probe_results: string;
}

const cases = sectionCases<RocksFilterCase>("rocksdb_filter");
const count = (keep: (c: RocksFilterCase) => boolean): number => cases.filter(keep).length;

const KIND_OF_BUILT: Record<RocksFilterCase["built_impl"], FilterKind> = {
  fastlocalbloom: "rocksdb-bloom",
  legacybloom: "rocksdb-legacy-bloom",
  ribbon: "rocksdb-ribbon",
  always_false: "never-match",
  always_true: "always-match",
};

describe.each(BACKENDS)("RocksDB Bloom and Ribbon filters on $name", ({ name, simd }) => {
  let sf: SstFilter;
  beforeAll(async () => {
    sf = await loadBackend(simd);
  });

  test("every golden Bloom filter is built byte-identical", () => {
    let built = 0;
    for (const c of cases) {
      if (c.requested_impl === "ribbon") continue;
      const format = c.requested_impl === "fastlocalbloom" ? "rocksdb-bloom" : "rocksdb-legacy-bloom";
      const keys = c.corpus.readKeys(c.keys.path);
      const out = sf.buildFilter(keys, { format, bitsPerKey: c.policy.bits_per_key! });
      const expected = c.corpus.readBytes(c.filter.path);
      if (!bytesEqual(out, expected)) {
        throw new Error(
          `${c.corpus.name}:${c.id}: differs from RocksDB's filter at byte ${firstDifference(out, expected)}`,
        );
      }
      built++;
    }
    expect(built).toBe(count((c) => c.requested_impl !== "ribbon"));
    expect(built).toBeGreaterThan(0);
    console.log(`[golden] ${name}: ${built} RocksDB Bloom filters built byte-identical`);
  });

  test("every golden Ribbon-policy filter is built byte-identical (Ribbon, Bloom fallback, empty)", () => {
    let built = 0;
    for (const c of cases) {
      if (c.requested_impl !== "ribbon") continue;
      const keys = c.corpus.readKeys(c.keys.path);
      const out = sf.buildFilter(keys, {
        format: "rocksdb-ribbon",
        bitsPerKey: c.policy.bloom_equivalent_bits_per_key!,
      });
      const expected = c.corpus.readBytes(c.filter.path);
      if (!bytesEqual(out, expected)) {
        throw new Error(
          `${c.corpus.name}:${c.id}: differs from RocksDB's filter at byte ${firstDifference(out, expected)}`,
        );
      }
      built++;
    }
    expect(built).toBe(count((c) => c.requested_impl === "ribbon"));
    expect(built).toBeGreaterThan(0);
    console.log(`[golden] ${name}: ${built} RocksDB Ribbon-policy filters built byte-identical`);
  });

  test("every golden filter: every answer identical", () => {
    let checked = 0;
    let probes = 0;
    for (const c of cases) {
      using filter = sf.openFilter(c.corpus.readBytes(c.filter.path));
      expect(filter.kind).toBe(KIND_OF_BUILT[c.built_impl]);
      const probeKeys = c.corpus.readKeys(c.probes.path);
      const answers = c.corpus.readBytes(c.probe_results);
      const batched = filter.mayContainMany(sf.packKeys(probeKeys));
      for (let i = 0; i < probeKeys.length; i++) {
        const single = filter.mayContain(probeKeys[i]!) ? 1 : 0;
        if (single !== answers[i] || batched[i] !== answers[i]) {
          throw new Error(
            `${c.corpus.name}:${c.id} probe ${i}: RocksDB says ${answers[i]}, single ${single}, batch ${batched[i]}`,
          );
        }
      }
      expect(filter.mayContainMany(c.corpus.readKeys(c.keys.path)).every((a) => a === 1)).toBe(true);
      probes += probeKeys.length;
      checked++;
    }
    expect(checked).toBe(cases.length);
    console.log(`[golden] ${name}: ${checked} RocksDB filters, ${probes} probes identical`);
  });

  test("Ribbon filters report their metadata", () => {
    let checked = 0;
    for (const c of cases) {
      if (c.built_impl !== "ribbon") continue;
      using filter = sf.openFilter(c.corpus.readBytes(c.filter.path));
      expect(filter.details).toMatchObject({
        kind: "rocksdb-ribbon",
        ribbonSeed: c.filter_meta.seed,
        ribbonBlocks: c.filter_meta.num_blocks,
        dataBytes: c.filter_meta.data_len,
      });
      checked++;
    }
    expect(checked).toBe(count((c) => c.built_impl === "ribbon"));
    expect(checked).toBeGreaterThan(0);
  });

  test("reserved and short encodings get RocksDB's conservative answers", () => {
    const kindOf = (bytes: number[]): FilterKind => {
      using f = sf.openFilter(new Uint8Array(bytes));
      return f.kind;
    };
    expect(kindOf([])).toBe("never-match");
    expect(kindOf([0xff, 0, 6, 0, 0])).toBe("never-match"); // 5 bytes: "no keys added"
    expect(kindOf([0, 0, 0, 0, 0, 0])).toBe("always-match"); // FinishAlwaysTrue
    expect(kindOf([...new Array<number>(64).fill(0), 0xfd, 0, 0, 0, 0])).toBe("always-match"); // reserved -3
    expect(kindOf([...new Array<number>(64).fill(0), 0xff, 0, 31, 0, 0])).toBe("always-match"); // k = 31
    expect(kindOf([...new Array<number>(64).fill(0), 0xff, 0, 6, 1, 0])).toBe("always-match"); // reserved bytes
    expect(kindOf([...new Array<number>(64).fill(0), 0xff, 0, 6, 0, 0])).toBe("rocksdb-bloom");
  });
});
