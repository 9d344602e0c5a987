import type { SstFilter } from "sstfilter";

import { BACKENDS, loadBackend } from "./backends";
import { CORPORA, corporaSummary } from "./golden";

interface HashVector {
  index: number;
  len: number;
  rocksdb_hash64: Record<string, string>;
  rocksdb_hash64_unseeded: string;
  rocksdb_hash32: Record<string, string>;
  leveldb_hash32?: Record<string, string>; // libleveldb does not export it: only some corpora have it
  crc32c: string;
  crc32c_masked: string;
  xxh32: Record<string, string>;
  xxh64: Record<string, string>;
  xxh3_64: Record<string, string>;
}

interface HashSection {
  corpus: string;
  vectors: HashVector[];
  inputs: Uint8Array[];
}
const SECTIONS: HashSection[] = CORPORA.flatMap((corpus) => {
  const manifest = corpus.section<{ inputs: { path: string }; vectors: HashVector[] }>("hash");
  return manifest
    ? [{ corpus: corpus.name, vectors: manifest.vectors, inputs: corpus.readKeys(manifest.inputs.path) }]
    : [];
});
const inputs = SECTIONS[0]?.inputs ?? [];

const hex32 = (n: number): string => n.toString(16).padStart(8, "0");
const hex64 = (n: bigint): string => n.toString(16).padStart(16, "0");

describe.each(BACKENDS)("hashes on $name", ({ name, simd }) => {
  let sf: SstFilter;
  beforeAll(async () => {
    sf = await loadBackend(simd);
    expect(sf.backend).toBe(name);
  });

  test.each(SECTIONS)(
    "every vector of the $corpus corpus, every function and seed",
    ({ corpus, vectors, inputs }) => {
      expect(inputs).toHaveLength(vectors.length);
      expect(vectors.length).toBeGreaterThan(300);
      let checked = 0;
      const mismatches: string[] = [];
      const check = (v: HashVector, fn: string, seed: string, actual: string, expected: string): void => {
        checked++;
        if (actual !== expected) {
          mismatches.push(
            `${corpus} vector ${v.index} (len ${v.len}) ${fn} seed ${seed}: ${actual} != ${expected}`,
          );
        }
      };
      for (const v of vectors) {
        const key = inputs[v.index]!;
        for (const [seed, want] of Object.entries(v.rocksdb_hash64)) {
          check(v, "xxph3_64", seed, hex64(sf.hash.xxph3_64(key, BigInt(seed))), want);
        }
        check(v, "xxph3_64", "default", hex64(sf.hash.xxph3_64(key)), v.rocksdb_hash64_unseeded);
        for (const [seed, want] of Object.entries(v.rocksdb_hash32)) {
          check(v, "rocksdbLegacy32", seed, hex32(sf.hash.rocksdbLegacy32(key, Number(seed))), want);
        }
        for (const [seed, want] of Object.entries(v.leveldb_hash32 ?? {})) {
          check(v, "leveldb32", seed, hex32(sf.hash.leveldb32(key, Number(seed))), want);
        }
        for (const [seed, want] of Object.entries(v.xxh32)) {
          check(v, "xxh32", seed, hex32(sf.hash.xxh32(key, Number(seed))), want);
        }
        for (const [seed, want] of Object.entries(v.xxh64)) {
          check(v, "xxh64", seed, hex64(sf.hash.xxh64(key, BigInt(seed))), want);
        }
        for (const [seed, want] of Object.entries(v.xxh3_64)) {
          check(v, "xxh3_64", seed, hex64(sf.hash.xxh3_64(key, BigInt(seed))), want);
        }
        const crc = sf.hash.crc32c(key);
        check(v, "crc32c", "-", hex32(crc), v.crc32c);
        check(v, "crc32cMask", "-", hex32(sf.hash.crc32cMask(crc)), v.crc32c_masked);
        check(v, "crc32cUnmask", "-", hex32(sf.hash.crc32cUnmask(sf.hash.crc32cMask(crc))), v.crc32c);
      }
      expect(mismatches.slice(0, 10)).toEqual([]);
      console.log(`[golden] ${name}, ${corpus}: ${vectors.length} hash vectors, ${checked} values identical`);
    },
  );

  test("defaults: Bloom seed for the 32-bit filter hashes, 0 for the others", () => {
    const key = "abc\u00e9";
    expect(sf.hash.leveldb32(key)).toBe(sf.hash.leveldb32(key, 0xbc9f1d34));
    expect(sf.hash.rocksdbLegacy32(key)).toBe(sf.hash.rocksdbLegacy32(key, 0xbc9f1d34));
    expect(sf.hash.xxh64(key)).toBe(sf.hash.xxh64(key, 0n));
    // docs/FORMATS.md 1.2: "\x80" differs between the tail rules.
    expect(hex32(sf.hash.leveldb32(new Uint8Array([0x80])))).toBe("365ee853");
    expect(hex32(sf.hash.rocksdbLegacy32(new Uint8Array([0x80])))).toBe("91b755f4");
    expect(sf.hash.xxph3_64("")).toBe(0x5342c3010fe1dd04n);
    expect(sf.hash.xxph3_64("hello")).toBe(0xa0bbc238c97657b5n);
    expect(sf.hash.crc32c("123456789")).toBe(0xe3069283);
  });

  test("the generated corpus has hash vectors", () => {
    expect(SECTIONS.length).toBeGreaterThan(0);
    expect(SECTIONS[0]!.corpus).toBe("generated");
    console.log(`[golden] hash corpora: ${corporaSummary()}`);
  });

  test("64-bit results are unsigned bigints", () => {
    const values = inputs.slice(0, 64).map((k) => sf.hash.xxph3_64(k));
    expect(values.every((v) => typeof v === "bigint" && v >= 0n && v < 1n << 64n)).toBe(true);
    expect(values.some((v) => v >= 1n << 63n)).toBe(true);
  });

  test("bad seeds and keys are typed errors", () => {
    expect(() => sf.hash.xxh64("k", -1n)).toThrow(expect.objectContaining({ code: "BAD_OPTIONS" }));
    expect(() => sf.hash.xxh64("k", 1n << 64n)).toThrow(expect.objectContaining({ code: "BAD_OPTIONS" }));
    expect(() => sf.hash.leveldb32("k", 2 ** 32)).toThrow(expect.objectContaining({ code: "BAD_OPTIONS" }));
    expect(() => sf.hash.crc32c(42 as unknown as string)).toThrow(
      expect.objectContaining({ code: "BAD_KEY" }),
    );
  });
});
