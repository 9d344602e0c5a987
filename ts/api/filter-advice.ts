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
  /** "whole-key", or the prefix extractor's name whose prefixes the filters hold. */
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

/** filterAdvice's answer: whole-key filtering, then prefix filtering where an extractor is in use. */
export interface FilterAdvice {
  seed: number;
  sets: FilterAdviceSet[];
  /** What the advice leaves out, e.g. a prefix extractor it cannot reproduce. */
  notes: string[];
}

// mulberry32 (a public-domain 32-bit generator): small, fast and seedable, so that a seed gives
// the same sample and absent keys on every run and platform.
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function keyAt(batch: KeyBatch, i: number): Uint8Array {
  return batch.data.subarray(batch.offsets[i]!, batch.offsets[i + 1]!);
}

function packed(keys: Uint8Array[]): KeyBatch {
  const offsets = new Uint32Array(keys.length + 1);
  keys.forEach((key, i) => (offsets[i + 1] = offsets[i]! + key.length));
  const data = new Uint8Array(offsets[keys.length]!);
  keys.forEach((key, i) => data.set(key, offsets[i]));
  return { data, offsets };
}

// A key as a string of its bytes (one char per byte), for sets of keys; in pieces, as
// fromCharCode takes its arguments on the stack.
function asText(key: Uint8Array): string {
  let text = "";
  for (let at = 0; at < key.length; at += 8192) {
    text += String.fromCharCode(...key.subarray(at, at + 8192));
  }
  return text;
}

/**
 * `count` absent keys drawn like `keys`: each starts as a copy of a random key whose last quarter
 * (at least one byte) is replaced, byte by byte, by the byte at the same position of another
 * random key (a uniformly random byte where that key is shorter), so that lengths, alphabet and
 * shared prefixes look like the real keys'. A draw equal to one of `keys` is rejected; every 8
 * rejections of a key widen its replaced tail by a byte, and once the tail is the whole key a
 * random byte is appended, so that a dense key space (every `key%06d`) still yields absent keys.
 */
export function drawAbsentKeys(keys: KeyBatch, count: number, seed: number): KeyBatch {
  const n = keys.offsets.length - 1;
  if (n === 0) throw new SstFilterError("BAD_OPTIONS", "absent keys are drawn like keys: no keys given");
  const random = generator(seed ^ 0x5bd1e995);
  const pick = (): Uint8Array => keyAt(keys, Math.floor(random() * n));
  const present = new Set<string>();
  for (let i = 0; i < n; i++) present.add(asText(keyAt(keys, i)));
  const drawn: Uint8Array[] = [];
  while (drawn.length < count) {
    const base = pick();
    for (let attempt = 0; ; attempt++) {
      const widen = Math.floor(attempt / 8);
      const tail = Math.max(1, Math.ceil(base.length / 4)) + widen;
      const key = new Uint8Array(base.length + Math.max(0, tail - base.length));
      key.set(base.subarray(0, key.length));
      for (let at = Math.max(0, base.length - tail); at < key.length; at++) {
        const donor = at < base.length ? pick() : new Uint8Array(0);
        key[at] = at < donor.length ? donor[at]! : Math.floor(random() * 256);
      }
      const text = asText(key);
      if (present.has(text)) continue;
      drawn.push(key);
      break;
    }
  }
  return packed(drawn);
}

// The Wilson score interval at 95%: unlike the normal approximation, sound at 0 or few hits.
function wilsonInterval(hits: number, trials: number): [number, number] {
  if (trials === 0) return [0, 1];
  const z = 1.959964;
  const p = hits / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denominator;
  const spread = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  return [Math.max(0, centre - spread), Math.min(1, centre + spread)];
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
export function adviseFilterSizes(
  sf: SstFilter,
  keys: KeyBatch,
  opts: KeySetOptions = {},
  filtering = "whole-key",
): FilterAdviceSet {
  const o = checkedOptions(opts);
  const sampled = keys.offsets.length - 1;
  const totalKeys = opts.totalKeys ?? sampled;
  const absent = opts.absent ?? drawAbsentKeys(keys, o.absentKeys, o.seed);
  const probes = absent.offsets.length - 1;
  const rows: FilterAdviceRow[] = [];
  for (const policy of o.policies) {
    for (const bitsPerKey of o.bitsPerKey) {
      const built = sf.buildFilter(keys, { format: policy, bitsPerKey });
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
  }
  const meeting = rows.filter((r) => r.measuredFpRate <= o.fpRate);
  const best = meeting.reduce<FilterAdviceRow | null>(
    (a, r) => (a === null || r.bytes < a.bytes ? r : a),
    null,
  );
  return { filtering, totalKeys, sampledKeys: sampled, fpRate: o.fpRate, rows, best };
}

/**
 * Algorithm R over a stream of keys: the first `size` kept, then key i (0-based) replaces a
 * random kept one with probability size / (i + 1); adjacent repeats are skipped (a table's user
 * key under several sequence numbers enters its filter once).
 */
class Reservoir {
  readonly keys: Uint8Array[] = [];
  seen = 0;
  private last: string | null = null;
  constructor(
    private readonly size: number,
    private readonly random: () => number,
  ) {}

  add(key: Uint8Array): void {
    const text = asText(key);
    if (text === this.last) return;
    this.last = text;
    const i = this.seen++;
    if (i < this.size) this.keys.push(key.slice());
    else {
      const j = Math.floor(this.random() * (i + 1));
      if (j < this.size) this.keys[j] = key.slice();
    }
  }
}

// The prefix of a key under a built-in extractor (rocksdb util/slice.cc; as
// cpp/table/prefix_extractor.cc names them): FixedPrefix.n keys shorter than n have none,
// CappedPrefix.n takes at most n bytes. null for extractors not reproduced here.
function prefixFunction(name: string): ((key: Uint8Array) => Uint8Array | null) | null {
  const fixed = /^rocksdb\.FixedPrefix\.(\d+)$/.exec(name);
  if (fixed !== null) {
    const n = Number(fixed[1]);
    return (key) => (key.length >= n ? key.subarray(0, n) : null);
  }
  const capped = /^rocksdb\.CappedPrefix\.(\d+)$/.exec(name);
  if (capped !== null) {
    const n = Number(capped[1]);
    return (key) => key.subarray(0, Math.min(n, key.length));
  }
  return null;
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
  const extractorName = await prefixExtractorOf(input);
  const prefixOf = extractorName === null ? null : prefixFunction(extractorName);
  if (extractorName !== null && prefixOf === null) {
    notes.push(`the prefix extractor ${extractorName} is not built in: its prefixes are not advised on`);
  }
  const random = generator(o.seed);
  const whole = new Reservoir(o.sample, random);
  const prefixes = prefixOf === null ? null : new Reservoir(o.sample, random);
  for await (const batch of inputKeys(input)) {
    const n = batch.offsets.length - 1;
    for (let i = 0; i < n; i++) {
      const key = keyAt(batch, i);
      whole.add(key);
      const prefix = prefixOf?.(key);
      if (prefix) prefixes!.add(prefix);
    }
  }
  const sets: FilterAdviceSet[] = [];
  for (const [reservoir, filtering] of [
    [whole, "whole-key"],
    [prefixes, extractorName],
  ] as const) {
    if (reservoir === null || filtering === null) continue;
    if (reservoir.seen === 0) {
      notes.push(`${filtering}: no keys, nothing to advise on`);
      continue;
    }
    sets.push(adviseFilterSizes(sf, packed(reservoir.keys), { ...o, totalKeys: reservoir.seen }, filtering));
  }
  return { seed: o.seed, sets, notes };
}
