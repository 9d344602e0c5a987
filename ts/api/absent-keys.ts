// The keys filter-advice probes with (issue 32): absent keys drawn like the input's own, seeded so
// that a seed gives the same keys on every run and platform; and the seeded generator and key
// packing the advice's sampling shares.
import { SstFilterError } from "../core/errors.js";
import type { KeyBatch } from "../core/keys.js";

/**
 * mulberry32 (a public-domain 32-bit generator): small, fast and seedable, so that a seed gives
 * the same sample and absent keys on every run and platform. Numbers in [0, 1).
 */
export function generator(seed: number): () => number {
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

/** `keys` as one KeyBatch, in order. */
export function packed(keys: Uint8Array[]): KeyBatch {
  const offsets = new Uint32Array(keys.length + 1);
  keys.forEach((key, i) => (offsets[i + 1] = offsets[i]! + key.length));
  const data = new Uint8Array(offsets[keys.length]!);
  keys.forEach((key, i) => data.set(key, offsets[i]));
  return { data, offsets };
}

// FNV-1a's 32-bit hash of bytes [from, to): present keys are kept as a sorted array of these, far
// cheaper than a set of keys. Equal keys hash equal, so a draw whose hash is not there is surely
// absent; one whose hash is may be absent too (a collision, about 1 in 4,000 for 10^6 keys) and is
// drawn again, which leaves the drawn keys absent and as they would be.
function keyHash(bytes: Uint8Array, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

function sortedHas(sorted: Uint32Array, value: number): boolean {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return sorted[low] === value;
}

// The byte positions at which `keys` differ from the first key (a position past a key's end
// counts as differing), in ascending order: where drawn keys may vary and stay like the real ones.
function varyingPositions(keys: KeyBatch): number[] {
  const { data, offsets } = keys;
  const first = keyAt(keys, 0);
  let longest = 0;
  for (let i = 0; i + 1 < offsets.length; i++) longest = Math.max(longest, offsets[i + 1]! - offsets[i]!);
  const varies = new Uint8Array(longest);
  for (let i = 1; i + 1 < offsets.length; i++) {
    const start = offsets[i]!;
    const length = offsets[i + 1]! - start;
    for (let at = 0; at < longest; at++) {
      if (at >= length || at >= first.length || data[start + at] !== first[at]) varies[at] = 1;
    }
  }
  return [...varies.keys()].filter((at) => varies[at] === 1);
}

/**
 * `count` absent keys drawn like `keys` (seeded): each starts as a copy of a random key, then the
 * last quarter (at least one) of the positions where the keys differ at all (db_bench's keys end
 * in constant padding, which is kept) take the byte another random key has there, a uniformly
 * random byte past that key's end; so lengths, alphabet and shared prefixes look like the real
 * keys'. A draw that may be one of `keys`, or one drawn before, is rejected (keyHash: the
 * probes are distinct, as the binomial interval assumes); every 8 rejections of a key
 * replace one more position, and once every position varies a random byte is appended, so that a
 * dense key space (every `key%06d`) still yields absent keys.
 */
export function drawAbsentKeys(keys: KeyBatch, count: number, seed: number): KeyBatch {
  const { data, offsets } = keys;
  const n = offsets.length - 1;
  if (n === 0) throw new SstFilterError("BAD_OPTIONS", "absent keys are drawn like keys: no keys given");
  const random = generator(seed ^ 0x5bd1e995);
  const pick = (): number => Math.floor(random() * n);
  const present = Uint32Array.from({ length: n }, (_, i) =>
    keyHash(data, offsets[i]!, offsets[i + 1]!),
  ).sort();
  const varying = varyingPositions(keys);
  const longest = varying.length === 0 ? 0 : varying[varying.length - 1]! + 1;
  let scratch = new Uint8Array(64);
  const drawn: Uint8Array[] = [];
  const drawnHashes = new Set<number>();
  while (drawn.length < count) {
    const base = keyAt(keys, pick());
    const positions = base.length >= longest ? varying : varying.filter((at) => at < base.length);
    for (let attempt = 0; ; attempt++) {
      const replaced = Math.max(1, Math.ceil(positions.length / 4)) + Math.floor(attempt / 8);
      const length = base.length + Math.max(0, replaced - positions.length);
      if (scratch.length < length) scratch = new Uint8Array(2 * length);
      scratch.set(base);
      for (let p = Math.max(0, positions.length - replaced); p < positions.length; p++) {
        const at = positions[p]!;
        const donor = pick();
        const donorAt = offsets[donor]! + at;
        scratch[at] = donorAt < offsets[donor + 1]! ? data[donorAt]! : Math.floor(random() * 256);
      }
      for (let at = base.length; at < length; at++) scratch[at] = Math.floor(random() * 256);
      const hash = keyHash(scratch, 0, length);
      if (sortedHas(present, hash) || drawnHashes.has(hash)) continue;
      drawnHashes.add(hash);
      drawn.push(scratch.slice(0, length));
      break;
    }
  }
  return packed(drawn);
}
