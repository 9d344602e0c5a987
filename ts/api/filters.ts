import type { FilterBlockHandle, FilterHandle } from "../core/core-module.js";
import { SstFilterError } from "../core/errors.js";
import type { WasmHeap } from "../core/heap.js";
import { WasmObject } from "../core/wasm-object.js";
import type { Key, KeyBatch } from "../core/keys.js";

/** The filter kinds a reader recognizes from the bytes (RocksDB's metadata) or is told (LevelDB). */
export type FilterKind =
  | "leveldb-bloom"
  | "rocksdb-legacy-bloom"
  | "rocksdb-bloom"
  | "rocksdb-ribbon"
  | "always-match"
  | "never-match";

/** What the filter's own bytes say about it. */
export interface FilterDetails {
  kind: FilterKind;
  /** Bloom kinds: probes per key; 0 otherwise. */
  numProbes: number;
  /** Bytes of bit array or Ribbon solution, without metadata. */
  dataBytes: number;
  /** RocksDB Bloom kinds: cache-line / block size in bytes; 0 otherwise. */
  blockBytes: number;
  /** Ribbon only: the seed and number of 128-slot blocks. */
  ribbonSeed: number;
  ribbonBlocks: number;
}

/** A filter opened from bytes. Dispose it (or let `using` do so) to free its wasm memory. */
export class Filter extends WasmObject<FilterHandle> {
  readonly kind: FilterKind;
  // Why this build cannot probe the filter (a recognised format not implemented yet), or null.
  private readonly probeError: SstFilterError | null;
  private readonly readerAddress: number;

  /** @internal */
  constructor(
    private readonly heap: WasmHeap,
    handle: FilterHandle,
  ) {
    super(handle, "filter");
    this.kind = handle.kind() as FilterKind;
    this.probeError = handle.checkProbeSupport() ? null : heap.lastError();
    this.readerAddress = handle.readerAddress();
  }

  /** Details decoded from the filter's metadata. */
  get details(): FilterDetails {
    return this.live().info() as FilterDetails;
  }

  /** false only when the key is definitely not in the set the filter was built from. */
  mayContain(key: Key): boolean {
    const reader = this.probeable();
    const [ptr, size] = this.heap.putKey(key);
    return this.heap.module._sstfilter_may_match(reader, ptr, size) !== 0;
  }

  /** One byte per key: 1 = may contain, 0 = definitely not. One call into wasm per batch. */
  mayContainMany(keys: Key[] | KeyBatch): Uint8Array {
    const reader = this.probeable();
    const at = this.heap.putProbeKeys(keys, "mayContainMany");
    if (
      !this.heap.module._sstfilter_may_match_batch(
        reader,
        at.data,
        at.dataSize,
        at.offsets,
        at.count,
        at.extra,
      )
    ) {
      throw this.heap.lastError();
    }
    return this.heap.bytes.slice(at.extra, at.extra + at.count);
  }

  /**
   * Answers from precomputed 64-bit key hashes (`sf.hash.xxph3_64(key)`), as RocksDB's
   * HashMayMatch does: FastLocalBloom and Ribbon filters (and the constant kinds) only; filters
   * keyed by a 32-bit hash throw UNSUPPORTED.
   */
  mayContainHashes(hashes: BigUint64Array): Uint8Array {
    const reader = this.probeable();
    if (!(hashes instanceof BigUint64Array)) {
      throw new SstFilterError("BAD_KEY", "mayContainHashes takes a BigUint64Array");
    }
    const count = hashes.length;
    const at = this.heap.scratch(count * 9);
    const heap = this.heap.bytes;
    new BigUint64Array(heap.buffer, heap.byteOffset + at, count).set(hashes);
    if (!this.heap.module._sstfilter_may_match_hashes(reader, at, count, at + count * 8)) {
      throw this.heap.lastError();
    }
    return this.heap.bytes.slice(at + count * 8, at + count * 9);
  }

  /** The reader's address for the direct probe exports, once the filter is known probeable. */
  private probeable(): number {
    this.live();
    if (this.probeError !== null) throw this.probeError;
    return this.readerAddress;
  }
}

/** A LevelDB filter block: one Bloom filter per 2 KiB range of data-block offsets. */
export class LevelDbFilterBlock extends WasmObject<FilterBlockHandle> {
  private readonly readerAddress: number;

  /** @internal */
  constructor(
    private readonly heap: WasmHeap,
    handle: FilterBlockHandle,
  ) {
    super(handle, "filter block");
    this.readerAddress = handle.readerAddress();
  }

  /** Number of filters the block's offset array holds (0 when the block is malformed). */
  get numFilters(): number {
    return this.live().numFilters();
  }

  /** log2 of the data range each filter covers (11, 2 KiB, in every block LevelDB writes). */
  get baseLg(): number {
    return this.live().baseLg();
  }

  /**
   * Each filter's bytes (a LevelDB Bloom filter, for openFilter with format "leveldb"): filter i
   * covers the data blocks starting in [i << baseLg, (i + 1) << baseLg). Empty for an empty
   * filter (matches nothing), null where the offsets are malformed (every key may match).
   */
  filters(): (Uint8Array | null)[] {
    return this.live().filters();
  }

  /**
   * What LevelDB's FilterBlockReader answers for `key` in the data block starting at
   * `blockOffset`: malformed blocks and offsets past the last filter may match, empty filters
   * match nothing.
   */
  mayContain(blockOffset: number, key: Key): boolean {
    this.live();
    if (!Number.isSafeInteger(blockOffset) || blockOffset < 0) {
      throw new SstFilterError("BAD_OPTIONS", `blockOffset must be a whole number >= 0, got ${blockOffset}`);
    }
    const [ptr, size] = this.heap.putKey(key);
    return (
      this.heap.module._sstfilter_filter_block_may_match(this.readerAddress, blockOffset, ptr, size) !== 0
    );
  }
}
