// What a filter's bytes say about its quality: the false-positive rate RocksDB itself estimates
// for it, and how full its bit array is, block by block (for pictures of a filter).
import { SstFilterError } from "../core/errors.js";
import type { FilterDetails } from "./filters.js";

// BloomMath (rocksdb util/bloom_impl.h): the standard Bloom FP rate for bits per key and probes.
function standardFpRate(bitsPerKey: number, numProbes: number): number {
  return Math.pow(1 - Math.exp(-numProbes / bitsPerKey), numProbes);
}

// BloomMath::CacheLocalFpRate: probes confined to one 512-bit cache line; the mean of the rates one
// standard deviation above and below the mean number of keys per line.
function cacheLocalFpRate(bitsPerKey: number, numProbes: number): number {
  const lineBits = 512;
  if (bitsPerKey <= 0) return 1;
  const keysPerLine = lineBits / bitsPerKey;
  const stddev = Math.sqrt(keysPerLine);
  const crowded = standardFpRate(lineBits / (keysPerLine + stddev), numProbes);
  const uncrowded = standardFpRate(lineBits / (keysPerLine - stddev), numProbes);
  return (crowded + uncrowded) / 2;
}

// BloomMath::FingerprintFpRate: two keys sharing a `bits`-bit hash are indistinguishable.
function fingerprintFpRate(keys: number, bits: number): number {
  const base = keys * Math.pow(0.5, bits);
  return base > 0.0001 ? 1 - Math.exp(-base) : base - base * base * 0.5;
}

// BloomMath::IndependentProbabilitySum.
function eitherOf(a: number, b: number): number {
  return a + b - a * b;
}

// Standard128Ribbon (rocksdb util/ribbon_impl.h SerializableInterleavedSolution): each block of 128
// slots stores `upperColumns` result bits, blocks before `upperStartBlock` one fewer; every result
// bit halves the FP rate. Layout as ConfigureForNumBlocks derives it from the stored length.
function ribbonFpRate(numBlocks: number, dataBytes: number): number {
  if (numBlocks === 0) return 0; // no slots: nothing was added, every probe says no
  let segments = Math.floor(dataBytes / 16);
  let upperColumns = Math.ceil(segments / numBlocks);
  let upperStartBlock = upperColumns * numBlocks - segments;
  if (upperColumns > 32) {
    upperColumns = 32;
    upperStartBlock = 0;
    segments = 32 * numBlocks;
  }
  if (upperColumns === 0) return 1;
  const numStarts = numBlocks * 128 - 127;
  const lowerPortion = (upperStartBlock * 128) / numStarts;
  return lowerPortion * Math.pow(0.5, upperColumns - 1) + (1 - lowerPortion) * Math.pow(0.5, upperColumns);
}

/**
 * The false-positive rate RocksDB estimates for a filter holding `keys` keys, by the formulas of its
 * own EstimatedFpRate for each kind (rocksdb util/bloom_impl.h, util/ribbon_impl.h, as 7.8.3 has
 * them; RocksDB calls them accurate enough for user feedback): FastLocalBloom, cache-local Bloom
 * plus the 64-bit fingerprint rate; legacy Bloom, cache-local Bloom plus its index-computation
 * flaw plus the 32-bit fingerprint rate; LevelDB, standard Bloom plus the 32-bit fingerprint rate;
 * Ribbon, the weighted result bits of its layout (independent of `keys`).
 */
export function estimateFalsePositiveRate(details: FilterDetails, keys: number): number {
  if (!Number.isFinite(keys) || keys < 0) {
    throw new SstFilterError("BAD_OPTIONS", `keys must be a number >= 0, got ${keys}`);
  }
  const bitsPerKey = (8 * details.dataBytes) / keys;
  switch (details.kind) {
    case "always-match":
      return 1;
    case "never-match":
      return 0;
    case "rocksdb-ribbon":
      return ribbonFpRate(details.ribbonBlocks, details.dataBytes);
    case "rocksdb-bloom":
      if (keys === 0) return 0;
      return eitherOf(cacheLocalFpRate(bitsPerKey, details.numProbes), fingerprintFpRate(keys, 64));
    case "rocksdb-legacy-bloom": {
      if (keys === 0) return 0;
      // LegacyLocalityBloomImpl<false>: "a good estimate of impact of flaw in index computation".
      const flaw = 0.1 / (bitsPerKey * 0.75 + 22);
      return eitherOf(cacheLocalFpRate(bitsPerKey, details.numProbes) + flaw, fingerprintFpRate(keys, 32));
    }
    case "leveldb-bloom":
      if (keys === 0) return 0;
      return eitherOf(standardFpRate(bitsPerKey, details.numProbes), fingerprintFpRate(keys, 32));
  }
}

/**
 * The share of bits set in each `blockBytes`-byte block of a filter's bit array or Ribbon
 * solution (its first `details.dataBytes` bytes; metadata excluded): 64 bytes is the cache line
 * FastLocalBloom and legacy Bloom confine each key's probes to. A healthy Bloom filter is near
 * 1 - e^(-probes / bits per key) everywhere; Ribbon solutions are near 0.5.
 */
export function bitDensity(filter: Uint8Array, details: FilterDetails, blockBytes = 64): Float32Array {
  if (!Number.isSafeInteger(blockBytes) || blockBytes <= 0) {
    throw new SstFilterError("BAD_OPTIONS", `blockBytes must be a whole number > 0, got ${blockBytes}`);
  }
  const data = filter.subarray(0, details.dataBytes);
  const out = new Float32Array(Math.ceil(data.length / blockBytes));
  for (let block = 0; block < out.length; block++) {
    const bytes = data.subarray(block * blockBytes, (block + 1) * blockBytes);
    let ones = 0;
    for (const byte of bytes) ones += POPCOUNT[byte]!;
    out[block] = ones / (8 * bytes.length);
  }
  return out;
}

const POPCOUNT = Uint8Array.from({ length: 256 }, (_, byte) => {
  let n = 0;
  for (let b = byte; b !== 0; b &= b - 1) n++;
  return n;
});
