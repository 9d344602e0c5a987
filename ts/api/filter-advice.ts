// How big a filter should be, measured on the input's own keys (`sstfilter filter-advice`, issue
// 32): every built-in filter policy at a range of bits per key, each filter built by this
// package's byte-exact builders, its false-positive rate measured on absent keys drawn like the
// real ones beside RocksDB's own estimate, and the smallest filter that meets a target rate.
import type { SstFilter } from "./api.js";
import type { FilterFormat } from "./api.js";
import type { Database } from "./db.js";
import { SstFilterError } from "../core/errors.js";
import { estimateFalsePositiveRate } from "./filter-stats.js";
import type { FilterKind } from "./filters.js";
import type { KeyBatch } from "../core/keys.js";
import type { AsyncTable, Table } from "./table.js";
import { drawAbsentKeys, generator, packed } from "./absent-keys.js";

/** The policies filter-advice compares, as buildFilter names their formats. */
export const ADVICE_POLICIES: readonly FilterFormat[] = [
  "leveldb",
  "rocksdb-legacy-bloom",
  "rocksdb-bloom",
  "rocksdb-ribbon",
];

/** What adviseFilterSizes and filterAdvice measure, and against which target. */
export interface FilterAdviceOptions {
  /** The false-positive rate to meet (default 0.01). */
  fpRate?: number;
  /** The bits per key to build each policy at (default 4, 5, ..., 20). */
  bitsPerKey?: number[];
  /** The policies to compare (default all of ADVICE_POLICIES). */
  policies?: FilterFormat[];
  /** filterAdvice: keys to build from at most; more are sampled (default 1,000,000). */
  sample?: number;
  /** Absent keys each filter is probed with (default 100,000). */
  absentKeys?: number;
  /** Seed of the sample and of the absent keys (default 1): the same seed, the same advice. */
  seed?: number;
}

/** adviseFilterSizes' own inputs: how many keys the sampled ones stand for, the absent keys. */
export interface KeySetOptions extends FilterAdviceOptions {
  /** Keys the input holds, when `keys` is a sample of them (default: `keys` are all of them). */
  totalKeys?: number;
  /** The absent keys to probe with, instead of drawing them from `keys`. */
  absent?: KeyBatch;
  /** What the keys are, as FilterAdviceSet.filtering names it (default "whole-key"). */
  filtering?: string;
}

/**
 * The series a row belongs to, as the CLI and the viewer name it: its policy, or "rocksdb-ribbon
 * (no Bloom fallback)" for the Ribbon rows built without the fallback.
 */
export function adviceSeries(row: FilterAdviceRow): string {
  return row.bloomFallback === false ? `${row.policy} (no Bloom fallback)` : row.policy;
}

/** One policy at one bits per key. */
export interface FilterAdviceRow {
  policy: FilterFormat;
  bitsPerKey: number;
  /**
   * The kind the built bytes are: a Ribbon policy writes a FastLocalBloom ("rocksdb-bloom") where
   * that is smaller or Ribbon construction fails (its Bloom fallback, rocksdb
   * table/block_based/filter_policy.cc Standard128RibbonBitsBuilder::Finish).
   */
  builtKind: FilterKind;
  /**
   * Present, false, on the rows of "rocksdb-ribbon" built without its Bloom fallback: added beside
   * the policy's own rows where RocksDB's builder fell back to Bloom for some bits per key (key
   * sets of a few hundred keys), to show what the fallback costs or saves.
   */
  bloomFallback?: false;
  /**
   * The filter's size for all the input's keys, metadata included: the built filter's when built
   * on all keys, else the sample filter's bit array scaled by total / sampled keys ("≈").
   */
  bytes: number;
  /** The bytes of the filter built from the keys given (the sample). */
  builtBytes: number;
  /** bytes / keys, and what that comes to for a billion keys. */
  bytesPerKey: number;
  bytesPerBillionKeys: number;
  /** RocksDB's estimate for the built filter (estimateFalsePositiveRate). */
  estimatedFpRate: number;
  /** Absent keys the filter said "may contain" to, of `probes`. */
  falsePositives: number;
  probes: number;
  measuredFpRate: number;
  /** The Wilson 95% confidence interval of the measured rate. */
  interval: [number, number];
}

/** The advice for one set of keys (whole keys, or the prefixes of an extractor). */
export interface FilterAdviceSet {
  /**
   * "whole-key", the prefix extractor's name whose prefixes the filters hold, or "whole-key + " and
   * that name: whole keys and prefixes in one filter, probed with absent whole keys.
   */
  filtering: string;
  /** Entries the filters would hold for the whole input (prefixes: adjacent repeats once). */
  totalKeys: number;
  /** Entries the filters were built from: all of them, or a seeded sample. */
  sampledKeys: number;
  fpRate: number;
  rows: FilterAdviceRow[];
  /** The smallest filter whose measured rate is at most fpRate, null when none is. */
  best: FilterAdviceRow | null;
}

/**
 * filterAdvice's answer: whole-key filtering, then where an extractor is in use prefix filtering
 * and "whole-key + <extractor>" (both in one filter, as RocksDB's whole_key_filtering with a
 * prefix extractor writes it).
 */
export interface FilterAdvice {
  seed: number;
  sets: FilterAdviceSet[];
  /** What the advice leaves out, e.g. a prefix extractor it cannot reproduce. */
  notes: string[];
}

// The Wilson score interval at 95%: unlike the normal approximation, sound at 0 or few hits.
function wilsonInterval(hits: number, trials: number): [number, number] {
  if (trials === 0) return [0, 1];
  const z = 1.959964;
  const p = hits / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denominator;
  const spread = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  // At 0 hits (all hits) the bound is 0 (1) exactly; rounding would leave it a hair off.
  return [hits === 0 ? 0 : Math.max(0, centre - spread), hits === trials ? 1 : Math.min(1, centre + spread)];
}

function checkedOptions(opts: FilterAdviceOptions): Required<FilterAdviceOptions> {
  const fpRate = opts.fpRate ?? 0.01;
  if (!(fpRate > 0 && fpRate < 1))
    throw new SstFilterError("BAD_OPTIONS", `fpRate must be in (0, 1), got ${fpRate}`);
  const bitsPerKey = opts.bitsPerKey ?? Array.from({ length: 17 }, (_, i) => i + 4);
  if (!Array.isArray(bitsPerKey) || bitsPerKey.length === 0 || !bitsPerKey.every((b) => b >= 1 && b <= 100)) {
    throw new SstFilterError("BAD_OPTIONS", "bitsPerKey must be a non-empty list of numbers in [1, 100]");
  }
  const policies = opts.policies ?? [...ADVICE_POLICIES];
  for (const policy of policies) {
    if (!ADVICE_POLICIES.includes(policy)) {
      throw new SstFilterError("BAD_OPTIONS", `policies: no filter policy ${JSON.stringify(policy)}`);
    }
  }
  const counts = {
    sample: opts.sample ?? 1_000_000,
    absentKeys: opts.absentKeys ?? 100_000,
    seed: opts.seed ?? 1,
  };
  for (const [name, value] of Object.entries(counts)) {
    if (!Number.isSafeInteger(value) || value < (name === "seed" ? 0 : 1)) {
      throw new SstFilterError(
        "BAD_OPTIONS",
        `${name} must be a whole number >= ${name === "seed" ? 0 : 1}, got ${value}`,
      );
    }
  }
  return { fpRate, bitsPerKey, policies, ...counts };
}

// The metadata bytes each kind writes after its bit array / solution (rocksdb
// table/block_based/filter_policy.cc: 5 for every RocksDB kind; leveldb util/bloom.cc: 1).
const metadataBytes = (kind: FilterKind): number => (kind === "leveldb-bloom" ? 1 : 5);

/**
 * The advice for one set of keys (in the order a table holds them: adjacent repeats are added
 * once, as the builders do): each policy at each bits per key, built on `keys` and probed with
 * `opts.absent` (default: drawAbsentKeys). With `opts.totalKeys` above the keys given, `keys` are a
 * sample and sizes are scaled to the total. LevelDB's row is one filter over all keys: LevelDB's
 * own filter block splits them per 2 KiB of data, each filter a byte of metadata and 4 of offset.
 */
export function adviseFilterSizes(sf: SstFilter, keys: KeyBatch, opts: KeySetOptions = {}): FilterAdviceSet {
  const o = checkedOptions(opts);
  const sampled = keys.offsets.length - 1;
  const totalKeys = opts.totalKeys ?? sampled;
  const absent = opts.absent ?? drawAbsentKeys(keys, o.absentKeys, o.seed);
  const probes = absent.offsets.length - 1;
  const rows: FilterAdviceRow[] = [];
  const addRows = (policy: FilterFormat, filters: Uint8Array[], pureRibbon: boolean): void => {
    for (const [i, bitsPerKey] of o.bitsPerKey.entries()) {
      const built = filters[i]!;
      const filter = sf.openFilter(built, { format: policy === "leveldb" ? "leveldb" : "rocksdb" });
      try {
        const details = filter.details;
        const falsePositives = filter.mayContainMany(absent).reduce((a, b) => a + b, 0);
        const meta = metadataBytes(details.kind);
        const bytes =
          totalKeys === sampled || sampled === 0
            ? built.length
            : Math.round((details.dataBytes * totalKeys) / sampled) + meta;
        const bytesPerKey = totalKeys > 0 ? bytes / totalKeys : 0;
        rows.push({
          policy,
          bitsPerKey,
          builtKind: details.kind,
          ...(pureRibbon ? { bloomFallback: false as const } : {}),
          bytes,
          builtBytes: built.length,
          bytesPerKey,
          bytesPerBillionKeys: Math.round(bytesPerKey * 1e9),
          estimatedFpRate: estimateFalsePositiveRate(details, sampled),
          falsePositives,
          probes,
          measuredFpRate: probes > 0 ? falsePositives / probes : 0,
          interval: wilsonInterval(falsePositives, probes),
        });
      } finally {
        filter.dispose();
      }
    }
  };
  for (const policy of o.policies) {
    // One call per policy: Ribbon bands the keys once for every bits per key (buildFilters).
    const filters = sf.buildFilters(keys, { format: policy, bitsPerKey: o.bitsPerKey });
    addRows(policy, filters, false);
    const fellBack =
      policy === "rocksdb-ribbon" && rows.some((r) => r.policy === policy && r.builtKind !== policy);
    if (fellBack) {
      const pure = { format: policy, bitsPerKey: o.bitsPerKey, bloomFallback: false };
      try {
        addRows(policy, sf.buildFilters(keys, pure), true);
      } catch (error) {
        // No seed solves these keys: there is no Ribbon filter to show.
        if (!(error instanceof SstFilterError && error.code === "UNSUPPORTED")) throw error;
      }
    }
  }
  // RocksDB never writes a Ribbon filter without its fallback: those rows are no advice.
  const meeting = rows.filter((r) => r.measuredFpRate <= o.fpRate && r.bloomFallback !== false);
  const best = meeting.reduce<FilterAdviceRow | null>(
    (a, r) => (a === null || r.bytes < a.bytes ? r : a),
    null,
  );
  return {
    filtering: opts.filtering ?? "whole-key",
    totalKeys,
    sampledKeys: sampled,
    fpRate: o.fpRate,
    rows,
    best,
  };
}

/**
 * Algorithm R over a stream of keys: the first `size` kept, then key i (0-based) replaces a
 * random kept one with probability size / (i + 1); adjacent repeats are skipped (a table's user
 * key under several sequence numbers enters its filter once). Keys come as byte ranges and are
 * kept in one growing arena (replaced ones left behind: about size * (1 + ln(seen / size)) keys in
 * all), so that millions of keys make no garbage of their own.
 */
class Reservoir {
  seen = 0;
  private arena = new Uint8Array(1 << 16);
  private used = 0;
  private readonly starts: number[] = [];
  private readonly lengths: number[] = [];
  private last = new Uint8Array(64);
  private lastLength = -1;
  constructor(
    private readonly size: number,
    private readonly random: () => number,
  ) {}

  /** Offers the key bytes[from, to). */
  add(bytes: Uint8Array, from: number, to: number): void {
    const length = to - from;
    if (length === this.lastLength && this.isLast(bytes, from)) return;
    if (this.last.length < length) this.last = new Uint8Array(2 * length);
    for (let i = 0; i < length; i++) this.last[i] = bytes[from + i]!;
    this.lastLength = length;
    const i = this.seen++;
    const slot = i < this.size ? i : Math.floor(this.random() * (i + 1));
    if (slot >= this.size) return;
    if (this.arena.length < this.used + length) {
      const grown = new Uint8Array(Math.max(2 * this.arena.length, this.used + length));
      grown.set(this.arena.subarray(0, this.used));
      this.arena = grown;
    }
    this.arena.set(bytes.subarray(from, to), this.used);
    this.starts[slot] = this.used;
    this.lengths[slot] = length;
    this.used += length;
  }

  /** The kept keys, packed. */
  batch(): KeyBatch {
    const offsets = new Uint32Array(this.starts.length + 1);
    this.lengths.forEach((length, i) => (offsets[i + 1] = offsets[i]! + length));
    const data = new Uint8Array(offsets[this.starts.length]!);
    this.starts.forEach((start, i) =>
      data.set(this.arena.subarray(start, start + this.lengths[i]!), offsets[i]),
    );
    return { data, offsets };
  }

  private isLast(bytes: Uint8Array, from: number): boolean {
    for (let i = 0; i < this.lastLength; i++) if (this.last[i] !== bytes[from + i]) return false;
    return true;
  }
}

// The end of the prefix of the key bytes[from, to) under a built-in extractor (rocksdb
// util/slice.cc; as cpp/table/prefix_extractor.cc names them), -1 for none: FixedPrefix.n keys
// shorter than n have none, CappedPrefix.n takes at most n bytes. null for extractors not
// reproduced here.
function prefixFunction(name: string): ((from: number, to: number) => number) | null {
  const fixed = /^rocksdb\.FixedPrefix\.(\d+)$/.exec(name);
  if (fixed !== null) {
    const n = Number(fixed[1]);
    return (from, to) => (to - from >= n ? from + n : -1);
  }
  const capped = /^rocksdb\.CappedPrefix\.(\d+)$/.exec(name);
  if (capped !== null) {
    const n = Number(capped[1]);
    return (from, to) => Math.min(from + n, to);
  }
  return null;
}

// Whether bytes[from, to) equals `other`.
function sameBytes(bytes: Uint8Array, from: number, to: number, other: Uint8Array | null): boolean {
  if (other === null || other.length !== to - from) return false;
  for (let i = 0; i < other.length; i++) if (other[i] !== bytes[from + i]) return false;
  return true;
}

/**
 * The entries of one full filter with whole-key filtering and a prefix extractor, in order, as
 * RocksDB adds them from format_version 6 (cpp/table/full_filter_builder.cc's newer rules: rocksdb
 * table/block_based/full_filter_block.cc FullFilterBlockBuilder::Add calls AddKeyAndAlt(key,
 * prefix) for a key in the extractor's domain, else AddKey(key); filter_policy.cc
 * XXPH3FilterBitsBuilder::AddKeyAndAlt, as cpp/filter/rocksdb_filter_bits_builder.cc): the prefix
 * first unless it equals the previous prefix, its key or the last entry, then the key unless it
 * equals the last entry or the previous prefix; AddKey skips a key equal to the last entry. RocksDB
 * compares hashes where this compares bytes: equal bytes hash equal, and distinct keys' 64-bit
 * hashes practically never do. Entries go to `push` as byte ranges.
 */
class WholeKeyAndPrefixEntries {
  private last: Uint8Array | null = null;
  private previousPrefix: Uint8Array | null = null;
  constructor(private readonly push: (bytes: Uint8Array, from: number, to: number) => void) {}

  /** Adds the key bytes[from, to), whose prefix ends at prefixEnd (-1: none). */
  add(bytes: Uint8Array, from: number, to: number, prefixEnd: number): void {
    const before = this.previousPrefix;
    if (prefixEnd >= 0) {
      const isKey = prefixEnd === to;
      if (
        !sameBytes(bytes, from, prefixEnd, before) &&
        !isKey &&
        !sameBytes(bytes, from, prefixEnd, this.last)
      ) {
        this.entry(bytes, from, prefixEnd);
      }
      this.previousPrefix = bytes.slice(from, prefixEnd);
    }
    if (!sameBytes(bytes, from, to, this.last) && !(prefixEnd >= 0 && sameBytes(bytes, from, to, before))) {
      this.entry(bytes, from, to);
    }
  }

  private entry(bytes: Uint8Array, from: number, to: number): void {
    this.last = bytes.slice(from, to);
    this.push(bytes, from, to);
  }
}

/**
 * The entries RocksDB's full filter holds for `keys` (in table order) with whole-key filtering
 * and the built-in prefix extractor `prefixExtractor` (format_version >= 6): what buildFilter
 * makes the table's filter of.
 */
export function wholeKeyAndPrefixKeys(keys: KeyBatch, prefixExtractor: string): KeyBatch {
  const prefixOf = prefixFunction(prefixExtractor);
  if (prefixOf === null) {
    throw new SstFilterError("BAD_OPTIONS", `the prefix extractor ${prefixExtractor} is not built in`);
  }
  const out: Uint8Array[] = [];
  const entries = new WholeKeyAndPrefixEntries((bytes, from, to) => out.push(bytes.slice(from, to)));
  const { data, offsets } = keys;
  for (let i = 0; i + 1 < offsets.length; i++) {
    entries.add(data, offsets[i]!, offsets[i + 1]!, prefixOf(offsets[i]!, offsets[i + 1]!));
  }
  return packed(out);
}

type AdviceInput = Table | AsyncTable | Database;

function isDatabase(input: AdviceInput): input is Database {
  return "columnFamilies" in input;
}

// Every key of the input in order: a table's, or a database's live tables' (default column
// family, level by level; the memtable's keys, not yet in a table, are left out).
async function* inputKeys(input: AdviceInput): AsyncGenerator<KeyBatch> {
  if (!isDatabase(input)) {
    yield* input.keyBatches();
    return;
  }
  for (const level of input.levels) {
    for (const file of level.files) {
      const table = await input.openTable(file);
      try {
        yield* table.keyBatches();
      } finally {
        table.dispose();
      }
    }
  }
}

// The prefix extractor the input's filters use: the table's, or the first a live table names.
async function prefixExtractorOf(input: AdviceInput): Promise<string | null> {
  if (!isDatabase(input)) return input.filter?.prefixExtractor ?? null;
  const file = input.levels.flatMap((l) => l.files)[0];
  if (file === undefined) return null;
  const table = await input.openTable(file);
  try {
    return table.filter?.prefixExtractor ?? null;
  } finally {
    table.dispose();
  }
}

/**
 * The advice for a table or a database (its live tables' keys): whole-key filtering and, where
 * the table (a database's first live table) names a built-in prefix extractor, filtering on its
 * prefixes. Up to `opts.sample` keys are built from; beyond that a seeded reservoir sample, with
 * sizes scaled to the total (FilterAdviceSet.sampledKeys < totalKeys says so).
 */
export async function filterAdvice(
  sf: SstFilter,
  input: AdviceInput,
  opts: FilterAdviceOptions = {},
): Promise<FilterAdvice> {
  const o = checkedOptions(opts);
  const notes: string[] = [];
  if (isDatabase(input)) {
    notes.push("the keys of the live tables: those only in the write-ahead logs (the memtable) are left out");
  }
  const extractorName = await prefixExtractorOf(input);
  const prefixOf = extractorName === null ? null : prefixFunction(extractorName);
  if (extractorName !== null && prefixOf === null) {
    notes.push(`the prefix extractor ${extractorName} is not built in: its prefixes are not advised on`);
  }
  const random = generator(o.seed);
  const whole = new Reservoir(o.sample, random);
  const prefixes = prefixOf === null ? null : new Reservoir(o.sample, random);
  // Its own generator, so that the other sets' samples stay what they were without it.
  const mixed = prefixOf === null ? null : new Reservoir(o.sample, generator(o.seed ^ 0x2545f491));
  const mixedEntries =
    mixed === null ? null : new WholeKeyAndPrefixEntries((bytes, from, to) => mixed.add(bytes, from, to));
  for await (const batch of inputKeys(input)) {
    const { data, offsets } = batch;
    for (let i = 0; i + 1 < offsets.length; i++) {
      const from = offsets[i]!;
      const to = offsets[i + 1]!;
      whole.add(data, from, to);
      const prefixEnd = prefixOf === null ? -1 : prefixOf(from, to);
      if (prefixEnd >= 0) prefixes!.add(data, from, prefixEnd);
      mixedEntries?.add(data, from, to, prefixEnd);
    }
  }
  const sets: FilterAdviceSet[] = [];
  const wholeKeys = whole.batch();
  for (const [reservoir, filtering] of [
    [whole, "whole-key"],
    [prefixes, extractorName],
    [mixed, `whole-key + ${extractorName}`],
  ] as const) {
    if (reservoir === null || filtering === null) continue;
    if (reservoir.seen === 0) {
      notes.push(`${filtering}: no keys, nothing to advise on`);
      continue;
    }
    // The whole-key + prefix filter answers whole-key queries too: probed with absent whole keys.
    // LevelDB has no prefix extractor, so no such filter.
    const mixedOnly =
      reservoir === mixed
        ? {
            absent: drawAbsentKeys(wholeKeys, o.absentKeys, o.seed),
            policies: o.policies.filter((p) => p !== "leveldb"),
          }
        : {};
    if (mixedOnly.policies?.length === 0) continue;
    const keys = reservoir === whole ? wholeKeys : reservoir.batch();
    sets.push(adviseFilterSizes(sf, keys, { ...o, ...mixedOnly, totalKeys: reservoir.seen, filtering }));
  }
  return { seed: o.seed, sets, notes };
}
