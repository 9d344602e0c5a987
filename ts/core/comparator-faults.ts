// A caller's comparator runs inside core calls (cpp/include/sstfilter/comparator.h): it is guarded
// so that nothing it throws or returns unwinds through the core. What went wrong is kept here and
// thrown once the core call returns (throwComparatorFault), by every caller of the core, the I/O
// driver (io-driver.ts) included. Which comparators there are, and how options name them, is
// ts/api/comparators.ts.
import { SstFilterError } from "./errors.js";

/**
 * A user-key order: `compare(a, b)` < 0, 0 or > 0 as `a` sorts before, with or after `b`. The
 * arrays are views of the core's memory, valid during the call only: copy what you keep.
 */
export type CompareFunction = (a: Uint8Array, b: Uint8Array) => number;

// The first fault of a caller's comparator since the last check, with its name.
let fault: { comparator: string; problem: string } | null = null;

/**
 * @internal `compare` as the core may call it: never throws, returns -1, 0 or 1; a fault is kept
 * for throwComparatorFault (and every later call answers 0 until then).
 */
export function guardComparator(name: string, compare: CompareFunction): CompareFunction {
  return (a, b) => {
    if (fault !== null) return 0;
    let result: unknown;
    try {
      result = compare(a, b);
    } catch (error) {
      fault = {
        comparator: name,
        problem: `threw ${error instanceof Error ? error.message : String(error)}`,
      };
      return 0;
    }
    if (typeof result !== "number" || Number.isNaN(result)) {
      fault = { comparator: name, problem: `returned ${String(result)}, not a number` };
      return 0;
    }
    return result < 0 ? -1 : result > 0 ? 1 : 0;
  };
}

/**
 * @internal Throws what a caller's comparator threw or returned wrongly during the last core call
 * (BAD_OPTIONS naming the comparator), and forgets it.
 */
export function throwComparatorFault(): void {
  if (fault === null) return;
  const { comparator, problem } = fault;
  fault = null;
  throw new SstFilterError("BAD_OPTIONS", `the comparator "${comparator}" ${problem}`);
}
