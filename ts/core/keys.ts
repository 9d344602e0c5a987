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

/** A key as bytes: a Uint8Array as is, a string UTF-8 encoded; BAD_KEY (naming key `index` when given) for anything else. */
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

/** Whether `value` is a KeyBatch (packed keys: data and n+1 offsets) rather than an array of keys. */
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

/**
 * Bytes the first `count` keys take if every string is ASCII: its length in UTF-16 units, the
 * exact UTF-8 size then. Throws BAD_KEY for anything that is not a key.
 */
export function asciiKeyBytes(keys: readonly unknown[], count: number): number {
  let total = 0;
  for (let i = 0; i < count; i++) {
    const key = keys[i];
    if (typeof key === "string" || key instanceof Uint8Array) total += key.length;
    else keyBytes(key, i);
  }
  if (total > 0xffffffff) throw new SstFilterError("RESOURCE_LIMIT", "a KeyBatch holds at most 4 GiB");
  return total;
}

// Strings are encoded this many at a time, concatenated: one TextEncoder.encodeInto call on the
// joined text costs about a third of a charCodeAt loop over the same characters, and the call's
// own overhead (more than probing a key) is paid once per run. Longer runs stop paying off once
// the joined text outgrows the first-level cache.
const ASCII_RUN = 1024;

// Writes `text` into target[at, at + text.length) if it is all ASCII; false if it is not. Every
// UTF-16 unit takes at least one UTF-8 byte, so the text fits exactly this room only if each unit
// took one, that is, only if all were ASCII; otherwise encodeInto stops before reading it all.
function writeAsciiText(text: string, target: Uint8Array, at: number): boolean {
  return (
    text.length === 0 || utf8.encodeInto(text, target.subarray(at, at + text.length)).read === text.length
  );
}

/**
 * Writes the first offsets.length - 1 keys back to back into target[at, at + limit), key i's end
 * (relative to `at`) going to offsets[i + 1], as long as every string is ASCII so that each takes
 * exactly its length in bytes.
 * Returns how many keys it wrote: all of them, or fewer when a run of strings holds a non-ASCII
 * one or the keys outgrow `limit` (which asciiKeyBytes gave; only keys that change between reads,
 * such as getters, can). Then keys [0, returned) are written and offsets[0 .. returned] hold their
 * ends; the caller packs the rest with packUtf8Keys.
 */
export function writeAsciiKeys(
  keys: readonly Key[],
  target: Uint8Array,
  at: number,
  limit: number,
  offsets: Uint32Array,
): number {
  const count = offsets.length - 1;
  let end = 0;
  let text = ""; // the pending run of strings: keys i - run .. i - 1, to be written at textAt
  let textAt = 0;
  let run = 0;
  offsets[0] = 0;
  for (let i = 0; i < count; i++) {
    const key = keys[i];
    if (typeof key === "string") {
      if (end + key.length > limit) return writeAsciiText(text, target, at + textAt) ? i : i - run;
      text += key;
      end += key.length;
      run += 1;
    } else {
      if (run > 0) {
        if (!writeAsciiText(text, target, at + textAt)) return i - run;
        text = "";
        run = 0;
      }
      if (!(key instanceof Uint8Array) || end + key.length > limit) return i;
      target.set(key, at + end);
      end += key.length;
    }
    offsets[i + 1] = end;
    if (run === ASCII_RUN) {
      if (!writeAsciiText(text, target, at + textAt)) return i + 1 - run;
      text = "";
      run = 0;
    }
    if (run === 0) textAt = end;
  }
  return writeAsciiText(text, target, at + textAt) ? count : count - run;
}

/**
 * Keys [done, count) of `list` packed as UTF-8 after the first `done`, which writeAsciiKeys wrote
 * as `data` with `offsets`: the non-ASCII path, encoding no key twice before `done`.
 */
export function packAfterAscii(
  list: readonly Key[],
  done: number,
  count: number,
  data: Uint8Array,
  offsets: Uint32Array,
): KeyBatch {
  const rest = packUtf8Keys(list.slice(done, count), done);
  const written = offsets[done]!;
  const packed = new Uint8Array(written + rest.data.length);
  packed.set(data.subarray(0, written));
  packed.set(rest.data, written);
  const ends = new Uint32Array(count + 1);
  ends.set(offsets.subarray(0, done + 1));
  for (let i = 1; i < rest.offsets.length; i++) ends[done + i] = written + rest.offsets[i]!;
  if (packed.length > 0xffffffff)
    throw new SstFilterError("RESOURCE_LIMIT", "a KeyBatch holds at most 4 GiB");
  return { data: packed, offsets: ends };
}

/** The keys of an iterable as an array (the array itself if it is one); `caller` names the API. */
export function keyList(keys: Iterable<Key>, caller: string): readonly Key[] {
  if (Array.isArray(keys)) return keys as Key[];
  if (keys === null || typeof keys !== "object" || !(Symbol.iterator in keys)) {
    throw new SstFilterError("BAD_KEY", `${caller} takes an iterable of keys`);
  }
  return Array.from(keys);
}

/** Packs keys into one KeyBatch (strings as UTF-8). */
export function packKeys(keys: Iterable<Key>): KeyBatch {
  const list = keyList(keys, "packKeys");
  const count = list.length;
  const size = asciiKeyBytes(list, count);
  const data = new Uint8Array(size);
  const offsets = new Uint32Array(count + 1);
  const done = writeAsciiKeys(list, data, 0, size, offsets);
  if (done === count) return { data, offsets };
  return packAfterAscii(list, done, count, data, offsets);
}

/**
 * packKeys for keys with non-ASCII strings: each string is written with room for 3 bytes per UTF-16
 * unit, the buffer grown as needed and trimmed at the end. `firstIndex`: the index of keys[0] in
 * the caller's list, for errors.
 */
export function packUtf8Keys(keys: readonly Key[], firstIndex = 0): KeyBatch {
  let data = new Uint8Array(1024);
  const offsets = new Uint32Array(keys.length + 1);
  let used = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const worstCase = typeof key === "string" ? key.length * 3 : keyBytes(key, firstIndex + i).length;
    if (used + worstCase > data.length) {
      const grown = new Uint8Array(Math.max(data.length * 2, used + worstCase));
      grown.set(data.subarray(0, used));
      data = grown;
    }
    if (typeof key === "string") {
      used += writeUtf8(key, data, used);
    } else {
      const bytes = keyBytes(key, firstIndex + i);
      data.set(bytes, used);
      used += bytes.length;
    }
    if (used > 0xffffffff) throw new SstFilterError("RESOURCE_LIMIT", "a KeyBatch holds at most 4 GiB");
    offsets[i + 1] = used;
  }
  return { data: data.slice(0, used), offsets };
}
