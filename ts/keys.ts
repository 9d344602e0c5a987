import { SstFilterError } from "./errors.js";

/** A key: bytes as given, or a string encoded as UTF-8. */
export type Key = Uint8Array | string;

/** n keys packed in one buffer: key i is data.subarray(offsets[i], offsets[i + 1]). */
export interface KeyBatch {
  data: Uint8Array;
  offsets: Uint32Array;
}

const utf8 = new TextEncoder();

/**
 * Writes `key` as UTF-8 into `target` from `at` on, where key.length * 3 bytes must fit; returns the
 * bytes written. ASCII is copied by a plain loop: one TextEncoder.encodeInto call costs more than
 * probing a key, so it only takes over from the first non-ASCII character on.
 */
export function writeUtf8(key: string, target: Uint8Array, at: number): number {
  const n = key.length;
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c >= 0x80) return i + utf8.encodeInto(key.slice(i), target.subarray(at + i)).written;
    target[at + i] = c;
  }
  return n;
}

export function keyBytes(key: unknown, index?: number): Uint8Array {
  if (key instanceof Uint8Array) return key;
  if (typeof key === "string") return utf8.encode(key);
  const where = index === undefined ? "" : ` at index ${index}`;
  throw new SstFilterError("BAD_KEY", `a key must be a string or a Uint8Array, got ${describe(key)}${where}`);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return value.constructor?.name ?? "object";
  return typeof value;
}

export function isKeyBatch(value: unknown): value is KeyBatch {
  return (
    typeof value === "object" &&
    value !== null &&
    !(Symbol.iterator in value) &&
    "data" in value &&
    "offsets" in value
  );
}

/** Checks a KeyBatch from outside before it is trusted; the core checks the offsets again. */
export function checkKeyBatch(batch: KeyBatch): void {
  if (!(batch.data instanceof Uint8Array) || !(batch.offsets instanceof Uint32Array)) {
    throw new SstFilterError("BAD_KEY", "a KeyBatch needs data: Uint8Array and offsets: Uint32Array");
  }
  if (batch.offsets.length === 0) {
    throw new SstFilterError("BAD_KEY", "a KeyBatch of n keys has n + 1 offsets; got none");
  }
}

/** Packs keys into one KeyBatch (strings as UTF-8). */
export function packKeys(keys: Iterable<Key>): KeyBatch {
  if (keys === null || typeof keys !== "object" || !(Symbol.iterator in keys)) {
    throw new SstFilterError("BAD_KEY", "packKeys takes an iterable of keys");
  }
  let data = new Uint8Array(1024);
  let offsets = new Uint32Array(64);
  let used = 0;
  let count = 0;
  for (const key of keys) {
    if (count + 2 > offsets.length) {
      const grown = new Uint32Array(offsets.length * 2);
      grown.set(offsets);
      offsets = grown;
    }
    const worstCase = typeof key === "string" ? key.length * 3 : keyBytes(key, count).length;
    if (used + worstCase > data.length) {
      const grown = new Uint8Array(Math.max(data.length * 2, used + worstCase));
      grown.set(data.subarray(0, used));
      data = grown;
    }
    if (typeof key === "string") {
      used += writeUtf8(key, data, used);
    } else {
      const bytes = keyBytes(key, count);
      data.set(bytes, used);
      used += bytes.length;
    }
    if (used > 0xffffffff) throw new SstFilterError("RESOURCE_LIMIT", "a KeyBatch holds at most 4 GiB");
    count += 1;
    offsets[count] = used;
  }
  return { data: data.slice(0, used), offsets: offsets.slice(0, count + 1) };
}

/** A KeyBatch from either form the API accepts. */
export function toKeyBatch(keys: Iterable<Key> | KeyBatch): KeyBatch {
  if (isKeyBatch(keys)) {
    checkKeyBatch(keys);
    return keys;
  }
  return packKeys(keys);
}
