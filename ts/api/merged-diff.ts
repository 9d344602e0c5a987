// Two sequences in one order compared by merging them (the entries of two tables, the records of two
// databases' scans, their live files): each walked once with one item of each in hand, so memory
// stays bounded however long they are; only the first few differences of each kind are kept.

/** Two ordered sequences merged: how many items only one has, how many differ, the first few of each. */
export interface MergedDiff<T, C> {
  /** No item only in one sequence, none changed. */
  equal: boolean;
  /** Items in each. */
  countA: number;
  countB: number;
  onlyInA: number;
  onlyInB: number;
  changed: number;
  /** The first `maxReported` of each, in order. */
  onlyInASamples: T[];
  onlyInBSamples: T[];
  changedSamples: C[];
}

/** @internal How diffMerged orders, compares, keeps and reports the items of one kind. */
export interface MergeRules<T, F, C> {
  /** The sequences' order: items comparing 0 are at the same place and are compared. */
  compare(a: T, b: T): number;
  /** What differs between two items at the same place (empty when nothing). */
  differences(a: T, b: T): F[];
  /** An item copied for a report that outlives the walk (a walk may reuse its buffers). */
  kept(item: T): T;
  /** The report of two items at the same place that differ, their copies made by `kept`. */
  change(a: T, b: T, fields: F[]): C;
}

/** A merge's counts so far: items read of each sequence, and the differences found among them. */
export interface MergeProgress {
  countA: number;
  countB: number;
  onlyInA: number;
  onlyInB: number;
  changed: number;
}

// How many steps of the merge pass between two progress reports: few enough that a viewer's worker
// posts a message now and then, not for every entry.
const PROGRESS_STEP = 4096;

/** @internal Sets a finished merge's counts of items read, and whether the sequences were equal. */
export function settle(diff: MergedDiff<unknown, unknown>, countA: number, countB: number): void {
  diff.countA = countA;
  diff.countB = countB;
  diff.equal = diff.onlyInA + diff.onlyInB + diff.changed === 0;
}

/** @internal A merge's progress: items read of each sequence so far, and `diff`'s counts. */
export function progressOf(
  countA: number,
  countB: number,
  diff: MergedDiff<unknown, unknown>,
): MergeProgress {
  return { countA, countB, onlyInA: diff.onlyInA, onlyInB: diff.onlyInB, changed: diff.changed };
}

/** @internal One sequence walked one item at a time, sync or async alike; `done()` frees the walk. */
export class Walk<T> {
  private readonly walk: Iterator<T> | AsyncIterator<T>;
  current: T | null = null;
  count = 0;

  constructor(items: Iterable<T> | AsyncIterable<T>) {
    this.walk =
      Symbol.asyncIterator in items
        ? (items as AsyncIterable<T>)[Symbol.asyncIterator]()
        : (items as Iterable<T>)[Symbol.iterator]();
  }

  /** Moves to the next item (null at the end). */
  async advance(): Promise<void> {
    const next = await this.walk.next();
    this.current = next.done === true ? null : next.value;
    if (this.current !== null) this.count++;
  }

  /** Ends the walk early, freeing its cursor (a finished walk freed it already). */
  async done(): Promise<void> {
    await this.walk.return?.();
  }
}

/** @internal A MergedDiff before the merge: nothing counted yet. */
export function emptyDiff<T, C>(): MergedDiff<T, C> {
  return {
    equal: true,
    countA: 0,
    countB: 0,
    onlyInA: 0,
    onlyInB: 0,
    changed: 0,
    onlyInASamples: [],
    onlyInBSamples: [],
    changedSamples: [],
  };
}

/**
 * @internal Sequences `a` and `b`, both in `rules.compare`'s order, merged: an item before the
 * other's current one is only in its sequence; items at the same place pair up, in order, and are
 * changed when `rules.differences` names something.
 */
export async function diffMerged<T, F, C>(
  a: Iterable<T> | AsyncIterable<T>,
  b: Iterable<T> | AsyncIterable<T>,
  rules: MergeRules<T, F, C>,
  maxReported: number,
  onProgress?: (progress: MergeProgress) => void,
): Promise<MergedDiff<T, C>> {
  const out = emptyDiff<T, C>();
  const walkA = new Walk(a);
  const walkB = new Walk(b);
  const report = (): void => onProgress?.(progressOf(walkA.count, walkB.count, out));
  let steps = 0;
  try {
    await walkA.advance();
    await walkB.advance();
    for (;;) {
      const ia = walkA.current;
      const ib = walkB.current;
      if (ia === null && ib === null) break;
      if (++steps % PROGRESS_STEP === 0) report();
      const c = ia === null ? 1 : ib === null ? -1 : rules.compare(ia, ib);
      if (c < 0) {
        if (out.onlyInA++ < maxReported) out.onlyInASamples.push(rules.kept(ia!));
        await walkA.advance();
      } else if (c > 0) {
        if (out.onlyInB++ < maxReported) out.onlyInBSamples.push(rules.kept(ib!));
        await walkB.advance();
      } else {
        const fields = rules.differences(ia!, ib!);
        if (fields.length > 0 && out.changed++ < maxReported) {
          out.changedSamples.push(rules.change(rules.kept(ia!), rules.kept(ib!), fields));
        }
        await walkA.advance();
        await walkB.advance();
      }
    }
  } finally {
    await walkA.done();
    await walkB.done();
  }
  settle(out, walkA.count, walkB.count);
  report();
  return out;
}
