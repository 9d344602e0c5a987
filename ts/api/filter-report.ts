// A table's filter as tools show it (`sstfilter inspect`, the viewer): every filter it holds (the
// full filter, each partition, or each filter of a LevelDB filter block) with its parameters, bit
// density, RocksDB's estimated false-positive rate and the rate measured on sampled absent keys.
import type { SstFilter } from "./api.js";
import { bitDensity, estimateFalsePositiveRate } from "./filter-stats.js";
import type { FilterDetails, FilterKind } from "./filters.js";
import type { KeyBatch } from "../core/keys.js";
import type { AsyncTable, Table } from "./table.js";

/** One part of a table's filter (a partition or the full filter) with its estimated and measured rates. */
export interface FilterPart {
  /** Position among the table's filters (partition number, LevelDB filter number). */
  index: number;
  /** Stored bytes, metadata included. */
  bytes: number;
  /** null when the part cannot be decoded (malformed LevelDB offsets: every key may match). */
  details: FilterDetails | null;
  /** Keys added (known or estimated, see FilterSummary.keysSource), null when unknown. */
  keys: number | null;
  /** Share of bits set per 64-byte block of the bit array / solution. */
  density: Float32Array;
  estimatedFpRate: number | null;
  measuredFpRate: number | null;
}

/** summarizeTableFilter's answer: each part of the filter, and the rates over the whole. */
export interface FilterSummary {
  kind: FilterKind | "mixed" | "custom";
  parts: FilterPart[];
  /** Keys in the filter, all parts together; null when unknown. */
  keys: number | null;
  /**
   * Where `keys` comes from: a RocksDB property, or "counted" (LevelDB: the caller walked the data
   * blocks). Partition key counts are the total spread evenly ("≈").
   */
  keysSource: "rocksdb.num.filter_entries" | "rocksdb.num.entries" | "counted" | null;
  /** Bits of bit array / solution per key, all parts together. */
  bitsPerKey: number | null;
  /** Averages over the parts, weighted by their keys (evenly where keys are unknown). */
  estimatedFpRate: number | null;
  measuredFpRate: number | null;
  /** How many absent keys each part was probed with. */
  samples: number;
}

/** summarizeTableFilter's options: how many absent keys to sample, LevelDB's entries per filter. */
export interface SummarizeOptions {
  /** LevelDB: entries per filter of the filter block (verifyTable's keysPerLevelDbFilter). */
  keysPerLevelDbFilter?: number[] | null;
  /**
   * Absent keys each part is probed with to measure the false-positive rate (0 to skip). Default:
   * 10,000, fewer for many partitions (2 million probes in all, at least 1,000 per part).
   */
  samples?: number;
}

/**
 * `count` pseudo-random 16-byte keys, the same on every run (xorshift32 from a fixed seed) so that
 * measured rates are reproducible. A table holding one of them is astronomically unlikely.
 */
export function sampleAbsentKeys(count: number): KeyBatch {
  const data = new Uint8Array(count * 16);
  let state = 0x2545f491;
  for (let i = 0; i < data.length; i += 4) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    data[i] = state & 0xff;
    data[i + 1] = (state >>> 8) & 0xff;
    data[i + 2] = (state >>> 16) & 0xff;
    data[i + 3] = state >>> 24;
  }
  const offsets = Uint32Array.from({ length: count + 1 }, (_, i) => i * 16);
  return { data, offsets };
}

function numberProperty(table: Table | AsyncTable, name: string): number | null {
  const value = table.properties[name];
  return typeof value === "number" ? value : null;
}

function weightedMean(values: (number | null)[], weights: (number | null)[]): number | null {
  let sum = 0;
  let total = 0;
  values.forEach((value, i) => {
    if (value === null) return;
    const weight = weights[i] ?? 1;
    sum += value * weight;
    total += weight;
  });
  return total > 0 ? sum / total : null;
}

/** Describes the filter of `table` (null when it has none); reads nothing from the file. */
export async function summarizeTableFilter(
  sf: SstFilter,
  table: Table | AsyncTable,
  opts: SummarizeOptions = {},
): Promise<FilterSummary | null> {
  const info = table.filter;
  if (info === null) return null;
  const leveldb = table.format === "leveldb";
  const raw = await table.filterBytes();
  let pieces: (Uint8Array | null)[] = raw;
  if (leveldb && raw[0] !== undefined) {
    const block = sf.openLevelDbFilterBlock(raw[0]);
    pieces = block.filters();
    block.dispose();
  }

  let keys: number | null = null;
  let keysSource: FilterSummary["keysSource"] = null;
  let partKeys: (number | null)[] = pieces.map(() => null);
  if (leveldb) {
    const counted = opts.keysPerLevelDbFilter;
    if (counted) {
      partKeys = pieces.map((_, i) => counted[i] ?? 0);
      keys = counted.reduce((a, b) => a + b, 0);
      keysSource = "counted";
    }
  } else {
    for (const name of ["rocksdb.num.filter_entries", "rocksdb.num.entries"] as const) {
      keys = numberProperty(table, name);
      if (keys !== null) {
        keysSource = name;
        break;
      }
    }
    if (keys !== null) partKeys = pieces.map(() => keys! / Math.max(1, pieces.length));
  }

  const samples = opts.samples ?? Math.max(1000, Math.min(10_000, Math.floor(2e6 / pieces.length)));
  const absent = samples > 0 ? sampleAbsentKeys(samples) : null;
  let dataBytes = 0;
  const parts = pieces.map((bytes, index): FilterPart => {
    const part: FilterPart = {
      index,
      bytes: bytes?.length ?? 0,
      details: null,
      keys: partKeys[index] ?? null,
      density: new Float32Array(0),
      estimatedFpRate: null,
      measuredFpRate: null,
    };
    if (bytes === null || info.kind === "custom") return part;
    const filter = sf.openFilter(bytes, { format: leveldb ? "leveldb" : "rocksdb" });
    try {
      part.details = filter.details;
      dataBytes += part.details.dataBytes;
      part.density = bitDensity(bytes, part.details);
      if (part.keys !== null) part.estimatedFpRate = estimateFalsePositiveRate(part.details, part.keys);
      if (absent !== null) {
        const answers = filter.mayContainMany(absent);
        part.measuredFpRate = answers.reduce((a, b) => a + b, 0) / samples;
      }
    } finally {
      filter.dispose();
    }
    return part;
  });
  const weights = parts.map((p) => p.keys);
  return {
    kind: info.kind,
    parts,
    keys,
    keysSource,
    bitsPerKey: keys ? (8 * dataBytes) / keys : null,
    estimatedFpRate: weightedMean(
      parts.map((p) => p.estimatedFpRate),
      weights,
    ),
    measuredFpRate: weightedMean(
      parts.map((p) => p.measuredFpRate),
      weights,
    ),
    samples: absent === null ? 0 : samples,
  };
}
