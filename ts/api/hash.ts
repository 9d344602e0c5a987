import type { WasmHeap } from "../core/heap.js";
import { SstFilterError } from "../core/errors.js";
import type { Key } from "../core/keys.js";

/** Seed of LevelDB's and RocksDB's BloomHash. */
export const BLOOM_HASH_SEED = 0xbc9f1d34;

const CRC32C_MASK_DELTA = 0xa282ead8;

/** The hashes and checksums LevelDB and RocksDB use, computed by the same core as the filters. */
export interface Hashes {
  /** LevelDB's Hash (trailing bytes zero-extended); seed defaults to the Bloom seed. */
  leveldb32(key: Key, seed?: number): number;
  /** RocksDB's Hash (trailing bytes sign-extended); seed defaults to the Bloom seed. */
  rocksdbLegacy32(key: Key, seed?: number): number;
  /** RocksDB's Hash64: the XXH3 *preview* that FastLocalBloom and Ribbon use (not final XXH3). */
  xxph3_64(key: Key, seed?: bigint | number): bigint;
  /** Final XXH3 64-bit (kXXH3 block checksums). */
  xxh3_64(key: Key, seed?: bigint | number): bigint;
  /** xxHash64 (XXH64) of the key, as an unsigned bigint. */
  xxh64(key: Key, seed?: bigint | number): bigint;
  /** xxHash32 (XXH32) of the key. */
  xxh32(key: Key, seed?: number): number;
  /** CRC-32C (Castagnoli) of the bytes. */
  crc32c(key: Key): number;
  /** The rotation + constant LevelDB/RocksDB apply before storing a CRC. */
  crc32cMask(crc: number): number;
  /** The CRC32C a masked checksum was made from (LevelDB's crc32c::Unmask). */
  crc32cUnmask(masked: number): number;
}

function seed32(seed: number | undefined, fallback: number): number {
  if (seed === undefined) return fallback;
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new SstFilterError("BAD_OPTIONS", `a 32-bit seed must be a whole number in [0, 2^32), got ${seed}`);
  }
  return seed;
}

function seed64(seed: bigint | number | undefined): bigint {
  if (seed === undefined) return 0n;
  const value = typeof seed === "bigint" ? seed : Number.isSafeInteger(seed) ? BigInt(seed) : -1n;
  if (value < 0n || value > 0xffffffffffffffffn) {
    throw new SstFilterError("BAD_OPTIONS", `a 64-bit seed must be a whole number in [0, 2^64), got ${seed}`);
  }
  return value;
}

function u32(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new SstFilterError("BAD_OPTIONS", `${name} must be a 32-bit unsigned integer, got ${value}`);
  }
  return value;
}

/** The hash functions of `sf.hash`, computed in the wasm module over keys placed in its heap. */
export function makeHashes(heap: WasmHeap): Hashes {
  const m = heap.module;
  // Direct wasm exports return i32 results as signed numbers: `>>> 0` makes them unsigned.
  // Embind hands 64-bit results over as signed BigInts; the API promises unsigned ones.
  const unsigned64 = (value: bigint): bigint => BigInt.asUintN(64, value);
  const withKey = <T>(key: Key, fn: (ptr: number, size: number) => T): T => {
    const [ptr, size] = heap.putKey(key);
    return fn(ptr, size);
  };
  return {
    leveldb32: (key, seed) =>
      withKey(key, (p, n) => m._sstfilter_leveldb_hash32(p, n, seed32(seed, BLOOM_HASH_SEED)) >>> 0),
    rocksdbLegacy32: (key, seed) =>
      withKey(key, (p, n) => m._sstfilter_rocksdb_hash32(p, n, seed32(seed, BLOOM_HASH_SEED)) >>> 0),
    xxph3_64: (key, seed) => withKey(key, (p, n) => unsigned64(m._sstfilter_xxph3_64(p, n, seed64(seed)))),
    xxh3_64: (key, seed) => withKey(key, (p, n) => unsigned64(m._sstfilter_xxh3_64(p, n, seed64(seed)))),
    xxh64: (key, seed) => withKey(key, (p, n) => unsigned64(m._sstfilter_xxh64(p, n, seed64(seed)))),
    xxh32: (key, seed) => withKey(key, (p, n) => m._sstfilter_xxh32(p, n, seed32(seed, 0)) >>> 0),
    crc32c: (key) => withKey(key, (p, n) => m._sstfilter_crc32c(p, n) >>> 0),
    crc32cMask: (crc) => {
      const c = u32(crc, "crc");
      return (((c >>> 15) | (c << 17)) + CRC32C_MASK_DELTA) >>> 0;
    },
    crc32cUnmask: (masked) => {
      const rot = (u32(masked, "masked") - CRC32C_MASK_DELTA) >>> 0;
      return ((rot >>> 17) | (rot << 15)) >>> 0;
    },
  };
}
