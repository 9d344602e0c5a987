// The two comparators of the corpus section custom_comparator (tests/corpus/native/
// custom_comparator_section.cc writes its tables and databases with the same two orders in C++).
// Each is a user-key order as RocksDB's and LevelDB's Comparator::Compare gives it: negative,
// zero or positive.

/** Bytewise order of two byte strings, -1, 0 or 1 (a proper prefix first). */
function bytewise(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** The little-endian u64 in the last 8 bytes of `key` (at least 8 bytes long). */
function lastU64(key: Uint8Array): bigint {
  let v = 0n;
  for (let i = key.length - 1; i >= key.length - 8; i--) v = (v << 8n) | BigInt(key[i]!);
  return v;
}

/**
 * sstfilter.test.U64SuffixComparator: keys of 8 bytes or more by the little-endian u64 in their
 * last 8 bytes, ties by the bytewise order of the whole keys; keys shorter than 8 bytes before
 * all others, bytewise among themselves.
 */
export function compareU64Suffix(a: Uint8Array, b: Uint8Array): number {
  const aLong = a.length >= 8;
  const bLong = b.length >= 8;
  if (aLong !== bLong) return aLong ? 1 : -1;
  if (aLong) {
    const x = lastU64(a);
    const y = lastU64(b);
    if (x !== y) return x < y ? -1 : 1;
  }
  return bytewise(a, b);
}

/**
 * sstfilter.test.ReversePrefixComparator: the first min(4, length) bytes of each key compared
 * bytewise and the result negated (so "ab" sorts after "abcd", and the empty key last); equal
 * prefixes: the rest of the keys (from byte 4 on) compared bytewise.
 */
export function compareReversePrefix(a: Uint8Array, b: Uint8Array): number {
  const pa = Math.min(4, a.length);
  const pb = Math.min(4, b.length);
  const prefix = bytewise(a.subarray(0, pa), b.subarray(0, pb));
  if (prefix !== 0) return -prefix;
  return bytewise(a.subarray(pa), b.subarray(pb));
}

export const U64_SUFFIX_NAME = "sstfilter.test.U64SuffixComparator";
export const REVERSE_PREFIX_NAME = "sstfilter.test.ReversePrefixComparator";

/** The comparators by the name a table's rocksdb.comparator property or a MANIFEST records. */
export const CUSTOM_COMPARATORS: Record<string, (a: Uint8Array, b: Uint8Array) => number> = {
  [U64_SUFFIX_NAME]: compareU64Suffix,
  [REVERSE_PREFIX_NAME]: compareReversePrefix,
};
