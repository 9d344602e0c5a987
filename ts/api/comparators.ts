// Key orders from TypeScript (docs/FORMATS.md 3.4.2): a built-in comparator by the name the files
// record, or a function of the caller's. The core compares with either (cpp/include/sstfilter/
// comparator.h); a caller's function is guarded (ts/core/comparator-faults.ts) so that nothing it
// throws or returns unwinds through the core.
import type { WasmHeap } from "../core/heap.js";
import { compareBytes } from "./entries.js";
import { SstFilterError } from "../core/errors.js";
import { guardComparator, throwComparatorFault, type CompareFunction } from "../core/comparator-faults.js";

export type { CompareFunction };

/** A comparator of your own: the name the database records (RocksDB's Comparator::Name) and its order. */
export interface Comparator {
  name: string;
  compare: CompareFunction;
}

/**
 * What the `comparator` options take: a built-in comparator's name ("leveldb.BytewiseComparator",
 * "rocksdb.ReverseBytewiseComparator", "leveldb.BytewiseComparator.u64ts", "idb_cmp1"), a
 * {@link Comparator}, or a bare function (then named by the table: RocksDB's `rocksdb.comparator`,
 * or "custom" for LevelDB).
 */
export type ComparatorOption = string | Comparator | CompareFunction;

/** A comparator as the core takes it: a built-in name, or a name with a guarded function. */
export interface CoreComparator {
  name: string;
  compare: CompareFunction | null;
}

/**
 * @internal The option as the core takes it. A bare function goes unnamed: the table's recorded
 * name is taken for it (RocksDB), or none (LevelDB).
 */
export function coreComparator(option: ComparatorOption | undefined): CoreComparator {
  if (option === undefined) return { name: "", compare: null };
  if (typeof option === "string") {
    if (option === "") throw new SstFilterError("BAD_OPTIONS", "a comparator name must not be empty");
    return { name: option, compare: null };
  }
  if (typeof option === "function") return { name: "", compare: guardComparator("custom", option) };
  if (option === null || typeof option !== "object" || typeof option.compare !== "function") {
    throw new SstFilterError(
      "BAD_OPTIONS",
      "comparator must be a built-in comparator's name, a function (a, b) => number, or { name, compare }",
    );
  }
  if (typeof option.name !== "string" || option.name === "") {
    throw new SstFilterError("BAD_OPTIONS", "a comparator's name must be a non-empty string");
  }
  return { name: option.name, compare: guardComparator(option.name, option.compare) };
}

/**
 * @internal A TypeScript compare function for the order `name` (a built-in comparator, compared
 * by the core unless it is bytewise), or for the caller's comparator; null when neither.
 */
export function compareFunctionFor(
  heap: WasmHeap,
  name: string,
  supplied: CompareFunction | undefined,
): CompareFunction | null {
  if (supplied !== undefined) {
    const guarded = guardComparator(name, supplied);
    return (a, b) => {
      const c = guarded(a, b);
      throwComparatorFault();
      return c;
    };
  }
  const { bytewise, bytewiseU64Ts } = heap.constants.comparatorNames;
  if (name === bytewise || name === bytewiseU64Ts) return compareBytes;
  if (!heap.module.builtinComparatorNames().includes(name)) return null;
  return (a, b) => {
    const [ptr, aSize, bSize] = heap.putPair(a, b);
    const c = heap.module.compareWithBuiltin(name, ptr, aSize, ptr + aSize, bSize);
    if (c === -2) throw new SstFilterError("BAD_OPTIONS", `"${name}" is not a built-in comparator`);
    return c;
  };
}

/** @internal OpenDatabaseOptions.comparators as compare functions by name; BAD_OPTIONS when malformed. */
export function comparatorsByName(
  option: Record<string, CompareFunction | Comparator> | undefined,
): Map<string, CompareFunction> {
  const out = new Map<string, CompareFunction>();
  if (option === undefined) return out;
  if (option === null || typeof option !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "comparators must be an object: { [name]: (a, b) => number }");
  }
  for (const [name, value] of Object.entries(option)) {
    const compare = typeof value === "function" ? value : (value as Partial<Comparator> | null)?.compare;
    if (typeof compare !== "function") {
      throw new SstFilterError("BAD_OPTIONS", `comparators["${name}"] must be a function (a, b) => number`);
    }
    out.set(name, compare);
  }
  return out;
}
