// The entries of two tables merged in key order (diffTables' entries, issue 32), a batch of each in
// hand as the core hands it over: keys, values and tags are compared in place in the batches'
// bytes, and an Entry is made only of the few entries a report keeps. Two 200 MB tables hold
// millions of entries, nearly all equal: an object, a promise and a few views per entry cost
// several times the walk itself (bench/diff-bench.mjs). Same answers as diffMerged over
// `t.entries()`: the versions of one user key pair up in stored order (newest first).
import type { CompareFunction } from "./comparators.js";
import { entryOf, tagWordsOf, type Entry, type EntryBatch } from "./entries.js";
import { emptyDiff, progressOf, settle, Walk, type MergedDiff, type MergeProgress } from "./merged-diff.js";

/** An entry of both tables (the same user key, the same place among its versions) that differs. */
export interface EntryChange {
  key: Uint8Array;
  /** What differs, among "value", "type", "seq" (unless ignored) and "timestamp". */
  fields: ("value" | "type" | "seq" | "timestamp")[];
  a: Entry;
  b: Entry;
}

/** The entries of the two tables merged in key order: counts, and the first `maxReported` of each kind. */
export type EntriesDiff = MergedDiff<Entry, EntryChange>;

/** Whether bytes [fromX, toX) of `x` are bytes [fromY, toY) of `y`. */
function sameBytes(
  x: Uint8Array,
  fromX: number,
  toX: number,
  y: Uint8Array,
  fromY: number,
  toY: number,
): boolean {
  if (toX - fromX !== toY - fromY) return false;
  for (let i = fromX, j = fromY; i < toX; i++, j++) if (x[i] !== y[j]) return false;
  return true;
}

// EntryChange's fields as bits, in the order a change lists them.
const VALUE = 1;
const TYPE = 2;
const SEQ = 4;
const TIMESTAMP = 8;
const FIELD_BITS: [number, EntryChange["fields"][number]][] = [
  [VALUE, "value"],
  [TYPE, "type"],
  [SEQ, "seq"],
  [TIMESTAMP, "timestamp"],
];

/** One table's side of the merge: the batch in hand and the entry `i` in it. */
class BatchSide {
  private readonly walk: Walk<EntryBatch>;
  private batch: EntryBatch | null = null;
  /** The tags as 32-bit halves, low first (little-endian, as the core writes them): no BigInt per entry. */
  private tagHalves: Uint32Array | null = null;
  private tagWords: BigUint64Array | null = null;
  private timestampSize = 0;
  keys: Uint8Array = new Uint8Array(0);
  keyOffsets: Uint32Array = new Uint32Array(1);
  i = 0;
  n = 0;
  /** Entries in the batches taken so far. */
  count = 0;

  /** Entries walked past so far: those of the batches taken less what is left of the current one. */
  walked(): number {
    return this.count - (this.n - this.i);
  }
  done = false;

  constructor(batches: Iterable<EntryBatch> | AsyncIterable<EntryBatch>) {
    this.walk = new Walk(batches);
  }

  /** Takes the next batch that holds entries, or marks the side done. */
  async load(): Promise<void> {
    do {
      await this.walk.advance();
      const batch = this.walk.current;
      this.batch = batch;
      if (batch === null) {
        this.done = true;
        this.i = this.n = 0;
        return;
      }
      this.keys = batch.keys.data;
      this.keyOffsets = batch.keys.offsets;
      this.i = 0;
      this.n = this.keyOffsets.length - 1;
      this.count += this.n;
      const tags = batch.tags;
      this.tagHalves = tags === null ? null : new Uint32Array(tags.buffer, tags.byteOffset, 2 * this.n);
      this.tagWords = tagWordsOf(batch);
      this.timestampSize = batch.timestamps === null ? 0 : batch.timestampSize;
    } while (this.n === 0);
  }

  /** The current entry's user key, as a view (for a comparator). */
  key(): Uint8Array {
    return this.keys.subarray(this.keyOffsets[this.i], this.keyOffsets[this.i + 1]);
  }

  /** The current entry, copied out of its batch for a report that outlives the walk. */
  kept(): Entry {
    const e = entryOf(this.batch!, this.i, this.batch!.typeNames, this.tagWords);
    const out: Entry = { ...e, key: e.key.slice(), value: e.value.slice() };
    if (e.timestamp !== undefined) out.timestamp = e.timestamp.slice();
    return out;
  }

  /** Whether the current entries of the two sides have the same user key, byte for byte. */
  sameKey(o: BatchSide): boolean {
    const i = this.i;
    const j = o.i;
    return sameBytes(
      this.keys,
      this.keyOffsets[i]!,
      this.keyOffsets[i + 1]!,
      o.keys,
      o.keyOffsets[j]!,
      o.keyOffsets[j + 1]!,
    );
  }

  /** What differs between the current entries of two sides (same user key), as bits (VALUE, TYPE, SEQ, TIMESTAMP). */
  differences(o: BatchSide, ignoreSeq: boolean): number {
    const a = this.batch!;
    const b = o.batch!;
    const i = this.i;
    const j = o.i;
    let bits = 0;
    const va = a.values.offsets;
    const vb = b.values.offsets;
    if (!sameBytes(a.values.data, va[i]!, va[i + 1]!, b.values.data, vb[j]!, vb[j + 1]!)) bits |= VALUE;
    const ta = this.tagHalves;
    const tb = o.tagHalves;
    if (ta === null || tb === null) {
      // A table of user keys has neither type nor sequence number: they differ from another's.
      if (ta !== tb) bits |= ignoreSeq ? TYPE : TYPE | SEQ;
    } else {
      const lowA = ta[2 * i]!;
      const lowB = tb[2 * j]!;
      // A tag is sequence << 8 | type (db/dbformat.h PackSequenceAndType).
      if ((lowA & 0xff) !== (lowB & 0xff)) bits |= TYPE;
      if (!ignoreSeq && (lowA >>> 8 !== lowB >>> 8 || ta[2 * i + 1] !== tb[2 * j + 1])) bits |= SEQ;
    }
    const sa = this.timestampSize;
    const sb = o.timestampSize;
    if (sa + sb > 0 && !sameBytes(a.timestamps!, i * sa, (i + 1) * sa, b.timestamps!, j * sb, (j + 1) * sb)) {
      bits |= TIMESTAMP;
    }
    return bits;
  }

  /** Ends the walk early, freeing its cursor (a finished walk freed it already). */
  finish(): Promise<void> {
    return this.walk.done();
  }
}

/**
 * @internal The entries of two tables' walks (`t.entryBatches()`), both in `compare`'s order,
 * merged: an entry before the other side's current one is only in its table; entries of the same
 * user key pair up in stored order and are changed when their value, type, sequence number (unless
 * `ignoreSeq`) or timestamp differ. `onProgress` hears the counts so far after each batch, and
 * once at the end.
 */
export async function diffEntryBatches(
  batchesA: Iterable<EntryBatch> | AsyncIterable<EntryBatch>,
  batchesB: Iterable<EntryBatch> | AsyncIterable<EntryBatch>,
  compare: CompareFunction,
  ignoreSeq: boolean,
  maxReported: number,
  onProgress?: (progress: MergeProgress) => void,
): Promise<EntriesDiff> {
  const out = emptyDiff<Entry, EntryChange>();
  const a = new BatchSide(batchesA);
  const b = new BatchSide(batchesB);
  const onlyInA = (): void => {
    if (out.onlyInA++ < maxReported) out.onlyInASamples.push(a.kept());
    a.i++;
  };
  const onlyInB = (): void => {
    if (out.onlyInB++ < maxReported) out.onlyInBSamples.push(b.kept());
    b.i++;
  };
  const report = (): void => onProgress?.(progressOf(a.walked(), b.walked(), out));
  try {
    for (;;) {
      if (a.i === a.n && !a.done) await a.load();
      if (b.i === b.n && !b.done) await b.load();
      if (a.done && b.done) break;
      // The walk awaits only between batches: within them, entry after entry without a promise.
      while (a.i < a.n && b.i < b.n) {
        const c = a.sameKey(b) ? 0 : compare(a.key(), b.key());
        if (c < 0) onlyInA();
        else if (c > 0) onlyInB();
        else {
          const bits = a.differences(b, ignoreSeq);
          if (bits !== 0 && out.changed++ < maxReported) {
            const fields = FIELD_BITS.filter(([bit]) => (bits & bit) !== 0).map(([, name]) => name);
            const keptA = a.kept();
            out.changedSamples.push({ key: keptA.key, fields, a: keptA, b: b.kept() });
          }
          a.i++;
          b.i++;
        }
      }
      // One table ended: the rest of the other's entries are only in it.
      if (b.done) while (a.i < a.n) onlyInA();
      if (a.done) while (b.i < b.n) onlyInB();
      report();
    }
  } finally {
    await a.finish();
    await b.finish();
  }
  settle(out, a.count, b.count);
  report();
  return out;
}
