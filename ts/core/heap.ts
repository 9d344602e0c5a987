import type { CoreModule, ModuleConstants } from "./core-module.js";
import { SstFilterError, type SstFilterErrorCode } from "./errors.js";
import {
  asciiKeyBytes,
  checkKeyBatch,
  isKeyBatch,
  keyBytes,
  keyList,
  packAfterAscii,
  writeAsciiKeys,
  writeUtf8,
  type Key,
  type KeyBatch,
} from "./keys.js";

/** Where putBatch / putKeys put a batch of keys in scratch: addresses, data size and key count. */
export interface PlacedKeys {
  offsets: number;
  data: number;
  dataSize: number;
  extra: number;
  count: number;
}

/**
 * Linear-memory bookkeeping for one module. A single scratch region, grown on demand, carries the
 * inputs of each call; calls are synchronous, so it is never shared by two calls at once.
 * HEAPU8 is read afresh after every allocation because memory growth replaces the buffer.
 */
export class WasmHeap {
  private scratchPtr = 0;
  private scratchSize = 0;

  // The module's HEAPU8, kept here because the Emscripten module object is a dictionary-mode
  // object on which every property read is a hash lookup, too slow for once per key.
  private heapView: Uint8Array;

  /** The bindings' numbers, named (wasm/constants.cc). */
  readonly constants: ModuleConstants;

  constructor(readonly module: CoreModule) {
    this.heapView = module.HEAPU8;
    this.constants = module.constants();
  }

  get bytes(): Uint8Array {
    // Memory growth detaches the old buffer (its views read as empty) and Emscripten's growth
    // hook installs a new HEAPU8.
    if (this.heapView.length === 0) this.heapView = this.module.HEAPU8;
    return this.heapView;
  }

  /** A scratch region of at least `size` bytes, 8-byte aligned; valid until the next call. */
  scratch(size: number): number {
    if (size > this.scratchSize) {
      const capacity = Math.max(size, 4096, Math.min(this.scratchSize * 2, 64 << 20));
      if (this.scratchPtr !== 0) this.module._free(this.scratchPtr);
      this.scratchPtr = 0;
      this.scratchSize = 0;
      // Addresses of 2 GiB and up come back from the i32 export as negative numbers.
      const ptr = this.module._malloc(capacity) >>> 0;
      if (ptr === 0) {
        throw new SstFilterError("RESOURCE_LIMIT", `cannot allocate ${capacity} bytes of wasm memory`);
      }
      this.scratchPtr = ptr;
      this.scratchSize = capacity;
    }
    return this.scratchPtr;
  }

  /**
   * Puts one key into scratch (a string is UTF-8-encoded straight into wasm memory); returns its
   * address and length. The per-key fast path: no intermediate allocation.
   */
  putKey(key: Key): [ptr: number, size: number] {
    if (typeof key === "string") {
      const ptr = this.scratch(key.length * 3);
      return [ptr, writeUtf8(key, this.bytes, ptr)];
    }
    const bytes = keyBytes(key);
    return [this.put(bytes), bytes.length];
  }

  /**
   * Puts two keys (a key and its value) into scratch one after the other, strings UTF-8-encoded
   * straight into wasm memory; returns where the first starts and both lengths. The per-entry
   * path of the table writer: no intermediate allocation.
   */
  putPair(first: Key, second: Key): [ptr: number, firstSize: number, secondSize: number] {
    const a = typeof first === "string" ? first : keyBytes(first);
    const b = typeof second === "string" ? second : keyBytes(second);
    const ptr = this.scratch(room(a) + room(b));
    const heap = this.bytes;
    const firstSize = place(a, heap, ptr);
    return [ptr, firstSize, place(b, heap, ptr + firstSize)];
  }

  /** Copies bytes into scratch; returns their address. */
  put(bytes: Uint8Array): number {
    const ptr = this.scratch(bytes.length);
    this.bytes.set(bytes, ptr);
    return ptr;
  }

  /**
   * Copies a KeyBatch into scratch, followed by `extra` + `extraPerKey` * (number of keys) bytes
   * of room (for results). Layout: offsets (u32, aligned) | data | extra.
   */
  putBatch(batch: KeyBatch, extra = 0, extraPerKey = 0): PlacedKeys {
    const count = batch.offsets.length - 1;
    const offsetsBytes = batch.offsets.length * 4;
    const base = this.scratch(offsetsBytes + batch.data.length + extra + extraPerKey * count);
    const heap = this.bytes;
    new Uint32Array(heap.buffer, heap.byteOffset + base, batch.offsets.length).set(batch.offsets);
    heap.set(batch.data, base + offsetsBytes);
    return this.placed(base, offsetsBytes, batch.data.length, count);
  }

  /**
   * Puts keys in either form the API accepts into scratch, laid out as putBatch does. Keys whose
   * strings are all ASCII are written straight into wasm memory; others are packed first.
   */
  putKeys(keys: Iterable<Key> | KeyBatch, caller: string, extra = 0, extraPerKey = 0): PlacedKeys {
    if (isKeyBatch(keys)) return this.putCheckedBatch(keys, extra, extraPerKey);
    return this.putKeyList(keyList(keys, caller), extra, extraPerKey);
  }

  /** The keys of a batch probe (an array or a KeyBatch), with one byte of room per key for its answers. */
  putProbeKeys(keys: Key[] | KeyBatch, caller: string): PlacedKeys {
    if (Array.isArray(keys)) return this.putKeyList(keys, 0, 1);
    if (isKeyBatch(keys)) return this.putCheckedBatch(keys, 0, 1);
    throw new SstFilterError("BAD_KEY", `${caller} takes an array of keys or a KeyBatch`);
  }

  private putCheckedBatch(batch: KeyBatch, extra: number, extraPerKey: number): PlacedKeys {
    checkKeyBatch(batch);
    return this.putBatch(batch, extra, extraPerKey);
  }

  private putKeyList(list: readonly Key[], extra: number, extraPerKey: number): PlacedKeys {
    // The keys the array holds now: reading them (through getters) cannot add any.
    const count = list.length;
    const size = asciiKeyBytes(list, count);
    const offsetsBytes = (count + 1) * 4;
    const base = this.scratch(offsetsBytes + size + extra + extraPerKey * count);
    const heap = this.bytes;
    const offsets = new Uint32Array(heap.buffer, heap.byteOffset + base, count + 1);
    const data = base + offsetsBytes;
    const done = writeAsciiKeys(list, heap, data, size, offsets);
    if (done === count) return this.placed(base, offsetsBytes, size, count);
    // putBatch reuses scratch: the packed keys hold their own copy of what was written.
    return this.putBatch(
      packAfterAscii(list, done, count, heap.subarray(data, data + size), offsets),
      extra,
      extraPerKey,
    );
  }

  private placed(base: number, offsetsBytes: number, dataSize: number, count: number): PlacedKeys {
    const data = base + offsetsBytes;
    return { offsets: base, data, dataSize, extra: data + dataSize, count };
  }

  /** The error the last failing core call left behind, as an SstFilterError (about `file`, if named). */
  lastError(file?: string): SstFilterError {
    const offset = this.module.lastErrorOffset();
    return new SstFilterError(
      this.module.lastErrorCode() as SstFilterErrorCode,
      this.module.lastErrorMessage(),
      offset >= 0 ? offset : undefined,
      file,
    );
  }
}

/** Bytes of scratch a key may take: a string's UTF-8 form is at most 3 bytes per UTF-16 unit. */
function room(key: string | Uint8Array): number {
  return typeof key === "string" ? key.length * 3 : key.length;
}

/** Writes a key at `at`; returns its length in bytes. */
function place(key: string | Uint8Array, heap: Uint8Array, at: number): number {
  if (typeof key === "string") return writeUtf8(key, heap, at);
  heap.set(key, at);
  return key.length;
}
