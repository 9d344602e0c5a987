// Table files (.ldb / .sst): opened by the core through a resumable protocol (see
// wasm/table_bindings.cc). The core asks for file ranges (coalesced: a range may hold many blocks);
// this module reads them from a Uint8Array (openTable, synchronously) or a ByteSource / Blob
// (openTableFrom, asynchronously) into the buffer the core provides. Checksums and decompression
// are the core's.
import type {
  BlockReadHandle,
  IoHandle,
  LayoutHandle,
  LookupExplanationRaw,
  TableCursorHandle,
  TableGetHandle,
  TableHandle,
  TableReadRaw,
} from "../core/core-module.js";
import { SstFilterError } from "../core/errors.js";
import type { FilterKind } from "./filters.js";
import type { WasmHeap } from "../core/heap.js";
import { keyBytes, type Key, type KeyBatch } from "../core/keys.js";
import {
  entriesOf,
  entryRange,
  entryTypeNames,
  lookupResult,
  type Entry,
  type EntryOptions,
  type EntryRangeRaw,
  type RangeDeletion,
} from "./entries.js";
import { regionsOf, type TableRegion } from "./layout.js";
import { WasmObject } from "../core/wasm-object.js";
import {
  coreComparator,
  throwComparatorFault,
  type ComparatorOption,
  type CoreComparator,
} from "./comparators.js";

/** How a table is opened: its key shape and its comparator. */
export interface OpenTableOptions {
  /**
   * true (default): keys carry the 8-byte internal-key tag, as in every file a database or an
   * SstFileWriter writes; false for tables written with a bare TableBuilder.
   */
  internalKeys?: boolean;
  /**
   * The order of the table's keys, as the database that wrote it was opened with (see
   * {@link ComparatorOption}). Without it a RocksDB table is read in the order its
   * `rocksdb.comparator` names when that is built in, and a LevelDB table (which records no
   * comparator) as bytewise when its index separators ascend bytewise; otherwise the order is
   * unknown (`t.order.known` false) and probes are conservative. A RocksDB table that names another
   * comparator, or an index out of this order, is BAD_OPTIONS.
   */
  comparator?: ComparatorOption;
  /**
   * @internal The comparator a database's MANIFEST names for the table: a LevelDB table (which
   * records none) is read as if it named it, never assumed bytewise.
   */
  manifestComparator?: string;
}

/**
 * How a table's keys are ordered, and how the reader knows (`t.order`):
 * - "recorded": RocksDB, the built-in comparator `rocksdb.comparator` names;
 * - "supplied": the `comparator` option;
 * - "separators": LevelDB, none supplied; the index separators ascend bytewise (and are not all
 *   Chrome IndexedDB keys), so the table is read as bytewise (a LevelDB table does not record its
 *   comparator: supply it to be sure);
 * - "unknown": neither. A key is then ruled out only when every filter that could hold it says no
 *   (route "any-filter"), get() reads every block, and walks by key range are UNSUPPORTED.
 */
export interface TableKeyOrder {
  /** The comparator's name; for "unknown" the recorded one (RocksDB), "" for LevelDB. */
  comparator: string;
  source: "recorded" | "supplied" | "separators" | "unknown";
  known: boolean;
  /** LevelDB, "unknown": the first index entry (from 0) that sorts bytewise before the one before it. */
  firstUnorderedSeparator: number | null;
  /**
   * LevelDB, "unknown": the built-in comparator whose key format every index separator has
   * ("idb_cmp1": Chrome IndexedDB's keys), where they all do; supplying it makes answers exact.
   */
  keysLookLike: string | null;
}

/** Anything with a size and ranged reads, e.g. a file handle or an HTTP range reader. */
export interface ByteSource {
  size: number;
  /** The `length` bytes at `offset` (fewer only at the end of the file). */
  read(offset: number, length: number): Promise<Uint8Array>;
  /**
   * Optional: reads from `offset` into `target` (from its start, up to its length) and resolves
   * with the number of bytes read. A walk then reuses one buffer instead of a new one per read.
   */
  readInto?(target: Uint8Array, offset: number): Promise<number>;
}

/** Which library's table a file is. */
export type TableFormat = import("../core/library-format.js").LibraryFormat;

/** What `t.filter` reports about a table's filter. */
export interface TableFilterInfo {
  /** RocksDB: the `rocksdb.filter.policy` property (e.g. "bloomfilter"); LevelDB: the policy name. */
  policy: string;
  /**
   * The kind of the filter (of every partition): "mixed" when partitions differ (Ribbon policies
   * fall back to Bloom for small partitions), "custom" for a policy that is not built in.
   */
  kind: FilterKind | "mixed" | "custom";
  partitioned: boolean;
  /** Number of partitions (0 unless partitioned). */
  partitions: number;
  /** Whole keys were added (RocksDB property; always true for LevelDB). */
  wholeKeyFiltering: boolean;
  /** The table's prefix extractor as its properties name it, e.g. "rocksdb.FixedPrefix.3". */
  prefixExtractor: string | null;
  /** false for custom extractors, whose prefixes cannot be reproduced (prefix probes then throw). */
  prefixExtractorSupported: boolean;
  /** Bytes of filter as stored, without block trailers (partitions plus their index). */
  sizeBytes: number;
  /** The metaindex entry the filter was read from, e.g. "fullfilter.rocksdb.BuiltinBloomFilter". */
  metaBlock: string;
}

/** The footer and index as the table locates them. Handles are [offset, size without trailer]. */
export interface TableFooter {
  /** 0 for LevelDB tables and RocksDB format_version 0. */
  formatVersion: number;
  checksum: "none" | "crc32c" | "xxhash" | "xxhash64" | "xxh3";
  metaindexHandle: [number, number];
  indexHandle: [number, number];
}

/**
 * How a point lookup's answer came about (`t.explainMayContain(key)`):
 * - "full-filter" / "partition" / "block-filter": that filter answered (a RocksDB full filter, a
 *   RocksDB filter partition, the LevelDB filter of one data block);
 * - "no-filter": the table has no filter, or none that can check this key (may match);
 * - "outside-prefix-domain": whole-key filtering is off and the key has no prefix (may match);
 * - "after-last-key": LevelDB, the key sorts after the file's last key (definitely not);
 * - "prefix-extractor-changed": whole-key filtering is off and the reading database's prefix
 *   extractor (TableReadOptions.prefixExtractor) is not the table's: its prefixes are not probed
 *   (may match).
 * - "any-filter": the key order is unknown (`t.order`): every filter that could hold the key was
 *   probed (each of LevelDB's data-block filters, each partition), and the key is ruled out only
 *   when all of them said no.
 */
export type LookupRoute =
  | "any-filter"
  | "full-filter"
  | "partition"
  | "block-filter"
  | "no-filter"
  | "outside-prefix-domain"
  | "after-last-key"
  | "prefix-extractor-changed";

/**
 * How the database reading a RocksDB table is configured, where that decides what a point lookup
 * gets from the filter: RocksDB reads every table with the options it is opened with (its newest
 * OPTIONS file), not those the table was written with (docs/FORMATS.md 6.6.1). Leave a field out
 * to read the table as it describes itself. LevelDB tables ignore these.
 */
export interface TableReadOptions {
  /** false: the database has no filter policy (filter_policy=nullptr): the filter is not read. */
  useFilter?: boolean;
  /** false: no whole-key probe, as with whole_key_filtering=false (true keeps the table's own). */
  wholeKeyFiltering?: boolean;
  /**
   * The database's prefix extractor as OPTIONS names it ("rocksdb.FixedPrefix.3"), null for none.
   * Without whole-key filtering the table's prefixes are probed only under an extractor of the
   * same name.
   */
  prefixExtractor?: string | null;
}

/** What `t.explainMayContain(key)` reports: mayContain's answer and which filter gave it. */
export interface LookupExplanation {
  mayContain: boolean;
  route: LookupRoute;
  /**
   * A filter is in use for the lookup: RocksDB counts it in its filter statistics
   * (BLOOM_FILTER_USEFUL when it said no, else BLOOM_FILTER_FULL_POSITIVE), even where no key or
   * prefix was probed. LevelDB: a data block's filter answered.
   */
  filterInUse: boolean;
  /** The filter partition consulted ("partition" route), else null. */
  partition: number | null;
  /**
   * [offset, size] of a data block: LevelDB, the block whose filter answered; RocksDB with a
   * single-level index, the block the lookup reads when the filter says "may match". Else null.
   */
  dataBlock: [number, number] | null;
  /** The bytes the filter was probed with: the key, or its prefix; empty when none was probed. */
  probed: Uint8Array;
}

/** The user keys of one data block, as `t.dataBlocks()` walks them. */
export interface DataBlockKeys {
  offset: number;
  /** Size without the 5-byte block trailer. */
  size: number;
  keys: Uint8Array[];
}

/** The user keys of consecutive data blocks, packed, as `t.keyBatches()` walks them. */
export interface TableKeyBatch extends KeyBatch {
  /**
   * [offset, size, keysEnd] per data block, in file order: block i holds keys [keysEnd of block
   * i - 1 (0 for the first), keysEnd). Blocks without entries are listed too.
   */
  blocks: Float64Array;
}

/** What `verifyTable` gets from the table per batch of data blocks (`t.verifyBatches`). */
export interface FilterCheckBatch {
  /** [offset, size, keysEnd] per data block, as in TableKeyBatch. */
  blocks: Float64Array;
  /** Keys in the batch. */
  keys: number;
  /** The keys the table's filter rules out although they are in it, with their index in the batch. */
  ruledOut: { index: number; key: Uint8Array }[];
  /** Why this batch's keys (and all later ones) were not probed, or null. */
  unprobed: string | null;
}

/** Which data blocks a walk covers: those whose offset lies in [from, to) (default: all). */
export interface BlockRange {
  from?: number;
  to?: number;
}

/** Property values: varint numbers as numbers (bigint above 2^53), text as strings, else hex. */
export type TablePropertyValue = number | bigint | string | { hex: string };

/** A read the core asks for, and the length of the one it expects next (from its end on; 0: none). */
type ReadRange = { offset: number; length: number; ahead: number };

// Frees the cursor of a key walk abandoned before its end (a finished or returned walk frees it
// itself). Tables are WasmObjects.
const abandonedWalks = new FinalizationRegistry<TableCursorHandle>((cursor) => {
  if (!cursor.isDeleted()) cursor.delete();
});

/** Advances `op` until it needs file bytes (their range) or nothing (null). */
function pump(heap: WasmHeap, op: IoHandle): ReadRange | null {
  const need = op.advance();
  throwComparatorFault();
  const needs = heap.constants.ioNeeds;
  if (need === needs.nothing) return null;
  if (need === needs.bytes) {
    return { offset: op.needOffset(), length: op.needLength(), ahead: op.needAheadLength() };
  }
  throw heap.lastError();
}

function runSync(heap: WasmHeap, op: IoHandle, bytes: Uint8Array): void {
  for (let r = pump(heap, op); r !== null; r = pump(heap, op)) {
    // Shorter than asked where the file is: supplied() reports the short read.
    const piece = bytes.subarray(r.offset, r.offset + r.length);
    const ptr = op.supplyBuffer() >>> 0;
    heap.bytes.set(piece, ptr); // heap.bytes after supplyBuffer(), which may have grown the memory
    if (!op.supplied(piece.length)) throw heap.lastError();
  }
}

// Ranges above this are read from a source piece by piece, each piece copied into the core's buffer
// as it arrives: a large filter never sits in JavaScript memory besides the core's copy. The core's
// largest read-ahead (kMaxReadahead, cpp/table/block_fetcher.h) fits one piece; larger pieces only
// cost memory (each of an operation's two buffers is this size).
const READ_PIECE_BYTES = 1 << 20;

// The buffers sources with readInto read into, one per read in flight: a read holds its buffer from
// the moment it starts until its bytes are copied into the core's buffer, then hands it back here
// for the next read of any operation. A buffer per operation instead (two, with the read ahead) made
// a walk over many tables allocate 2 MiB off the JavaScript heap per table, and V8 answered that
// external memory with a full collection every few tables: a third of a walk's CPU time on the
// 16 tables of bench/db-get-bench.mjs --walks. A fresh buffer's untouched pages cost no memory.
const spareBuffers: Uint8Array[] = [];
// Enough for two walks, each with a read and a read ahead in flight; a spare beyond is dropped.
const SPARE_BUFFERS = 4;

/** Bytes read from a source, in `buffer` (a spare to hand back once they are copied) with readInto. */
interface Piece {
  bytes: Uint8Array;
  buffer: Uint8Array | null;
}

/** Hands `piece`'s buffer back for the next read: its bytes are no longer needed. */
function handBack(piece: Piece): void {
  if (piece.buffer !== null && spareBuffers.length < SPARE_BUFFERS) spareBuffers.push(piece.buffer);
}

/** Copies `piece` (or its first `length` bytes) to the core's memory at `ptr`, then hands it back. */
function copyPiece(heap: WasmHeap, piece: Piece, ptr: number, length = piece.bytes.length): void {
  heap.bytes.set(length < piece.bytes.length ? piece.bytes.subarray(0, length) : piece.bytes, ptr);
  handBack(piece);
}

/** Up to `length` bytes of `source` at `offset` (fewer at its end). */
async function readPiece(source: ByteSource, offset: number, length: number): Promise<Piece> {
  if (source.readInto === undefined) {
    const bytes = await source.read(offset, length);
    if (!(bytes instanceof Uint8Array)) {
      throw new SstFilterError("BAD_OPTIONS", "ByteSource.read must resolve to a Uint8Array", offset);
    }
    return { bytes: bytes.length > length ? bytes.subarray(0, length) : bytes, buffer: null };
  }
  // A read that fails keeps its buffer: the source may still be writing into it.
  const buffer = spareBuffers.pop() ?? new Uint8Array(READ_PIECE_BYTES);
  const read = await source.readInto(buffer.subarray(0, length), offset);
  if (!Number.isSafeInteger(read) || read < 0 || read > length) {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `ByteSource.readInto must resolve to the number of bytes read (0 to ${length}), got ${read}`,
      offset,
    );
  }
  return { bytes: buffer.subarray(0, read), buffer };
}

/**
 * A read started before the core asked for it: the one its previous read announced, of `source`
 * (an operation that reads several files, a database's Get, moves from one source to the next).
 */
interface ReadAhead {
  source: ByteSource;
  offset: number;
  piece: Promise<Piece>;
}
const readAheads = new WeakMap<IoHandle, ReadAhead>();

/** Copies what the read ahead brought for `r` to `ptr`: the bytes copied (0 if it read elsewhere). */
async function takeReadAhead(
  heap: WasmHeap,
  op: IoHandle,
  source: ByteSource,
  ptr: number,
  r: ReadRange,
): Promise<number> {
  const ahead = readAheads.get(op);
  if (ahead === undefined) return 0;
  readAheads.delete(op);
  if (ahead.source !== source || ahead.offset !== r.offset) {
    // Not what the core wants after all: dropped once read, its buffer handed back unused.
    const unused = await ahead.piece.catch(() => null);
    if (unused !== null) handBack(unused);
    return 0;
  }
  const piece = await ahead.piece;
  const n = Math.min(piece.bytes.length, r.length);
  copyPiece(heap, piece, ptr, n);
  return n;
}

/**
 * Reads `r` from `source` into the core's buffer at `ptr` (the bytes read), then starts reading the
 * range it announced, which runs while the core works on this one.
 */
async function readInto(
  heap: WasmHeap,
  op: IoHandle,
  source: ByteSource,
  ptr: number,
  r: ReadRange,
): Promise<number> {
  let got = await takeReadAhead(heap, op, source, ptr, r);
  while (got < r.length) {
    const want = Math.min(READ_PIECE_BYTES, r.length - got);
    const piece = await readPiece(source, r.offset + got, want);
    // heap.bytes afresh after every await (copyPiece): memory may have grown; the buffer at ptr stays.
    copyPiece(heap, piece, ptr + got);
    got += piece.bytes.length;
    if (piece.bytes.length < want) break; // a short read: supplied() reports it
  }
  if (got === r.length && r.ahead > 0 && r.ahead <= READ_PIECE_BYTES) {
    const offset = r.offset + r.length;
    const piece = readPiece(source, offset, r.ahead);
    piece.catch(() => undefined); // its error counts only if the core asks for these bytes
    readAheads.set(op, { source, offset, piece });
  }
  return got;
}

/** @internal Runs `op` to its end, reading what it needs from `source` (ts/api/db-get.ts drives a Get so). */
export async function runAsync(heap: WasmHeap, op: IoHandle, source: ByteSource): Promise<void> {
  for (let r = pump(heap, op); r !== null; r = pump(heap, op)) {
    // The buffer stays where it is while the pieces arrive: nothing else runs on this operation.
    const ptr = op.supplyBuffer() >>> 0;
    const got = await readInto(heap, op, source, ptr, r);
    if (!op.supplied(got)) throw heap.lastError();
  }
}

/** The data blocks of a batch, each with its keys split out. */
function* splitBlocks({ data, offsets, blocks }: TableKeyBatch): Generator<DataBlockKeys> {
  let key = 0;
  for (let b = 0; b < blocks.length; b += 3) {
    const end = blocks[b + 2]!;
    const keys = new Array<Uint8Array>(end - key);
    for (let i = 0; key < end; i++, key++) keys[i] = data.subarray(offsets[key], offsets[key + 1]);
    yield { offset: blocks[b]!, size: blocks[b + 1]!, keys };
  }
}

function* blocksOf(batches: Iterable<TableKeyBatch>): Generator<DataBlockKeys> {
  for (const batch of batches) yield* splitBlocks(batch);
}

async function* blocksOfAsync(batches: AsyncIterable<TableKeyBatch>): AsyncGenerator<DataBlockKeys> {
  for await (const batch of batches) yield* splitBlocks(batch);
}

function* flatten<T>(batches: Iterable<T[]>): Generator<T> {
  for (const batch of batches) yield* batch;
}

async function* flattenAsync<T>(batches: AsyncIterable<T[]>): AsyncGenerator<T> {
  for await (const batch of batches) yield* batch;
}

/** Walks the batches of a table whose bytes are in memory, yielding what `take` makes of each. */
function* walkBatches<Batch>(
  heap: WasmHeap,
  cursor: TableCursorHandle,
  bytes: Uint8Array,
  take: (cursor: TableCursorHandle) => Batch,
): Generator<Batch> {
  try {
    for (;;) {
      runSync(heap, cursor, bytes);
      if (cursor.atEnd()) return;
      yield take(cursor);
    }
  } finally {
    cursor.delete();
  }
}

/** walkBatches over a source. */
async function* walkBatchesAsync<Batch>(
  heap: WasmHeap,
  cursor: TableCursorHandle,
  source: ByteSource,
  take: (cursor: TableCursorHandle) => Batch,
): AsyncGenerator<Batch> {
  try {
    for (;;) {
      await runAsync(heap, cursor, source);
      if (cursor.atEnd()) return;
      yield take(cursor);
    }
  } finally {
    cursor.delete();
  }
}

const takeKeys = (cursor: TableCursorHandle): TableKeyBatch => cursor.takeKeys();

/** How t.scanText() prints: as `sst_dump --command=scan` with these flags. */
export interface ScanTextOptions {
  /** --output_hex: keys and values in upper-case hex. */
  hex?: boolean;
  /** --decode_blob_index: blob indexes decoded, as BlobIndex::DebugString shows them. */
  decodeBlobIndex?: boolean;
  /**
   * Receives the lines sst_dump prints on standard error instead (with decodeBlobIndex: entries
   * whose blob index does not decode), a batch at a time; without it they are dropped.
   */
  onErrorText?: (text: Uint8Array) => void;
}

/** Takes a batch as scan text, handing its standard-error lines to `output.onErrorText`. */
function scanTextTaker(output: ScanTextOptions): (cursor: TableCursorHandle) => Uint8Array {
  const hex = output.hex === true;
  const decodeBlobIndex = output.decodeBlobIndex === true;
  return (cursor) => {
    const { out, errors } = cursor.takeScanText(hex, decodeBlobIndex);
    if (errors.length > 0) output.onErrorText?.(errors);
    return out;
  };
}

/**
 * Probes the keys of the batch `cursor` holds against the table's filter without handing them to
 * JavaScript (only the ruled-out ones come out), then drops them. A filter this library cannot
 * probe turns probing off (`state.probe`) and says why.
 */
function checkBatch(
  heap: WasmHeap,
  table: TableHandle,
  state: { probe: boolean },
  cursor: TableCursorHandle,
): FilterCheckBatch {
  const keys = cursor.keyCount();
  const ruledOut: FilterCheckBatch["ruledOut"] = [];
  let unprobed: string | null = null;
  if (state.probe && keys > 0) {
    const at = heap.scratch(keys);
    if (table.mayContainCursorKeys(cursor, at)) {
      const answers = heap.bytes.subarray(at, at + keys);
      for (let i = answers.indexOf(0); i >= 0; i = answers.indexOf(0, i + 1)) {
        ruledOut.push({ index: i, key: cursor.key(i) });
      }
    } else {
      const error = heap.lastError();
      if (!(error instanceof SstFilterError) || error.code !== "UNSUPPORTED") throw error;
      state.probe = false;
      unprobed = error.message;
    }
  }
  return { blocks: cursor.takeBlocks(), keys, ruledOut, unprobed };
}

const NO_OFFSETS = new Uint32Array(1);

/**
 * The user keys of a walk, a batch of data blocks at a time. A plain iterator rather than a
 * generator: a key walk does little else per key, and a generator's per-key cost would dominate
 * it (an async generator's most of all). Each key is a view of the batch's copy out of the core's
 * memory, which no later batch reuses: keys stay valid after the walk moves on.
 */
abstract class KeyWalk {
  // The batch in hand, as the fields each key reads: a view made with the Uint8Array constructor
  // over `buffer` costs less than data.subarray, which looks up the species constructor per call.
  private buffer: ArrayBufferLike = new ArrayBuffer(0);
  private base = 0;
  private offsets: Uint32Array = NO_OFFSETS;
  protected index = 0;
  protected count = 0;
  private finished = false;

  constructor(protected readonly cursor: TableCursorHandle) {}

  /** The next key of the batch in hand; the caller checked there is one. */
  protected take(): IteratorResult<Uint8Array> {
    const i = this.index++;
    const from = this.offsets[i]!;
    return { done: false, value: new Uint8Array(this.buffer, this.base + from, this.offsets[i + 1]! - from) };
  }

  /** Takes the batch the cursor gathered; false (and the cursor freed) at the end. */
  protected adopt(): boolean {
    if (this.cursor.atEnd()) {
      this.finish();
      return false;
    }
    const { data, offsets } = this.cursor.takeKeys();
    this.buffer = data.buffer;
    this.base = data.byteOffset;
    this.offsets = offsets;
    this.index = 0;
    this.count = offsets.length - 1;
    return true;
  }

  protected finish(): IteratorResult<Uint8Array> {
    if (!this.finished) {
      this.finished = true;
      this.buffer = new ArrayBuffer(0);
      this.offsets = NO_OFFSETS;
      this.index = this.count = 0;
      this.cursor.delete();
    }
    return { done: true, value: undefined };
  }

  protected get ended(): boolean {
    return this.finished;
  }
}

class SyncKeyWalk extends KeyWalk implements IterableIterator<Uint8Array> {
  constructor(
    cursor: TableCursorHandle,
    private readonly heap: WasmHeap,
    private readonly bytes: Uint8Array,
  ) {
    super(cursor);
  }

  next(): IteratorResult<Uint8Array> {
    while (this.index >= this.count) {
      if (this.ended) return this.finish();
      try {
        runSync(this.heap, this.cursor, this.bytes);
      } catch (error) {
        this.finish();
        throw error;
      }
      if (!this.adopt()) return this.finish();
    }
    return this.take();
  }

  return(): IteratorResult<Uint8Array> {
    return this.finish();
  }

  [Symbol.iterator](): IterableIterator<Uint8Array> {
    return this;
  }
}

class AsyncKeyWalk extends KeyWalk implements AsyncIterableIterator<Uint8Array> {
  constructor(
    cursor: TableCursorHandle,
    private readonly heap: WasmHeap,
    private readonly source: ByteSource,
  ) {
    super(cursor);
  }

  // The read of the next batch while it runs. next() calls made meanwhile wait for it, in the order
  // they came, as an async generator queues them: the cursor serves one read at a time.
  private loading: Promise<void> | null = null;

  /** A key of the batch in hand without an async function's frame per key; else the next batch's. */
  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.index < this.count) return Promise.resolve(this.take());
    // After a read, whatever became of it: its error went to the call that started it.
    if (this.loading !== null) return this.loading.then(this.nextAfter, this.nextAfter);
    if (this.ended) return Promise.resolve(this.finish());
    this.loading = this.load();
    return this.loading.then(this.nextAfter);
  }

  private readonly nextAfter = (): Promise<IteratorResult<Uint8Array>> => this.next();

  /** Reads and adopts the next batch (none at the end); an error ends the walk. */
  private async load(): Promise<void> {
    try {
      await runAsync(this.heap, this.cursor, this.source);
      this.adopt();
    } catch (error) {
      this.finish();
      throw error;
    } finally {
      this.loading = null;
    }
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    // The cursor is freed only once a read it serves is over.
    if (this.loading !== null) await this.loading.catch(() => undefined);
    return this.finish();
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Uint8Array> {
    return this;
  }
}

/** @internal The core's TableReadOptions from the caller's. */
export function tableReadRaw(read: TableReadOptions): TableReadRaw {
  if (read === null || typeof read !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "table read options must be an object");
  }
  const { useFilter = true, wholeKeyFiltering = true, prefixExtractor } = read;
  if (typeof useFilter !== "boolean" || typeof wholeKeyFiltering !== "boolean") {
    throw new SstFilterError("BAD_OPTIONS", "useFilter and wholeKeyFiltering must be booleans");
  }
  if (prefixExtractor !== undefined && prefixExtractor !== null && typeof prefixExtractor !== "string") {
    throw new SstFilterError("BAD_OPTIONS", "prefixExtractor must be a string or null");
  }
  return {
    useFilter,
    wholeKeyFiltering,
    ...(prefixExtractor !== undefined ? { prefixExtractor: prefixExtractor ?? "" } : {}),
  };
}

/** @internal What a table's point lookup found and read (AsyncTable.pointLookup). */
export interface TableLookup {
  /** get()'s answer. */
  entries: Entry[];
  /**
   * The data blocks read, in order; the key's entries (not its range deletions) before entriesEnd
   * came from this block and the ones before it.
   */
  blocksRead: { offset: number; size: number; entriesEnd: number }[];
  /**
   * How the filter (or a LevelDB table's index) answered, as explainMayContain(key) does: where
   * mayContain is false no data block was read.
   */
  filter: LookupExplanation;
}

/** A lookup's explanation from the core's trace; the probed bytes are a prefix of `key`. */
function explanationOf(raw: LookupExplanationRaw, key: Uint8Array): LookupExplanation {
  const { probedSize, ...rest } = raw;
  return {
    ...rest,
    route: rest.route as LookupRoute,
    probed: key.slice(0, Math.min(probedSize, key.length)),
  };
}

function checkBlockHandle(offset: number, size: number): void {
  for (const [name, value] of [
    ["offset", offset],
    ["size", size],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new SstFilterError("BAD_OPTIONS", `a block's ${name} must be a whole number >= 0, got ${value}`);
    }
  }
}

/** [from, to] for the core: whole offsets, to = -1 for "to the last block". */
function rangeBounds(range: BlockRange): [number, number] {
  if (range === null || typeof range !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "a block range must be an object { from?, to? }");
  }
  const { from = 0, to } = range;
  for (const [name, value] of [
    ["from", from],
    ["to", to ?? 0],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new SstFilterError("BAD_OPTIONS", `range.${name} must be a whole number >= 0, got ${value}`);
    }
  }
  return [from, to ?? -1];
}

/** What every open table offers synchronously: what the file says about itself, and probes. */
class TableBase extends WasmObject<TableHandle> {
  readonly format: TableFormat;
  readonly footer: TableFooter;
  /** Metaindex entries: block name -> [offset, size]. */
  readonly metaindex: Record<string, [number, number]>;
  /** The RocksDB properties block ({} for LevelDB). */
  readonly properties: Record<string, TablePropertyValue>;
  readonly filter: TableFilterInfo | null;
  /** The order of the keys, and how the reader knows it. */
  readonly order: TableKeyOrder;

  /** @internal */
  constructor(
    protected readonly heap: WasmHeap,
    handle: TableHandle,
  ) {
    super(handle, "table");
    this.order = handle.keyOrder() as TableKeyOrder;
    this.format = handle.family() as TableFormat;
    this.footer = handle.footer() as TableFooter;
    this.metaindex = handle.metaindex() as Record<string, [number, number]>;
    this.properties = handle.properties() as Record<string, TablePropertyValue>;
    this.filter = handle.filter() as TableFilterInfo | null;
  }

  /** mayContain's or prefixMayMatch's answer from the core. */
  protected probe(which: "mayContain" | "prefixMayMatch", key: Key): boolean {
    const handle = this.live();
    const answer = handle[which](...this.heap.putKey(key));
    throwComparatorFault();
    if (answer < 0) throw this.heap.lastError();
    return answer === 1;
  }

  /** explainMayContain's answer from the core. */
  protected explainProbe(key: Key, read: TableReadOptions = {}): LookupExplanation {
    const options = tableReadRaw(read);
    const handle = this.live();
    const [ptr, size] = this.heap.putKey(key);
    const raw = handle.explain(ptr, size, options);
    throwComparatorFault();
    if (raw === null) throw this.heap.lastError();
    return explanationOf(raw, this.heap.bytes.subarray(ptr, ptr + size));
  }

  /** mayContainMany's answers from the core, one byte per key. */
  protected probeMany(keys: Key[] | KeyBatch): Uint8Array {
    const handle = this.live();
    const at = this.heap.putProbeKeys(keys, "mayContainMany");
    const ok = handle.mayContainBatch(at.data, at.dataSize, at.offsets, at.count, at.extra);
    throwComparatorFault();
    if (!ok) throw this.heap.lastError();
    return this.heap.bytes.slice(at.extra, at.extra + at.count);
  }

  /** A walk over a new cursor of the table's data blocks; the cursor is freed if the walk is dropped. */
  protected newWalk<Walk extends object>(
    walkOver: (cursor: TableCursorHandle) => Walk,
    range: BlockRange = {},
    checkOrder = false,
  ): Walk {
    return this.walkWith(this.live().keys(...rangeBounds(range), checkOrder), walkOver);
  }

  /** newWalk over the table's entries in `opts`. */
  protected newEntryWalk<Walk extends object>(
    walkOver: (cursor: TableCursorHandle) => Walk,
    opts: EntryRangeRaw,
  ): Walk {
    const cursor = this.live().entries(opts);
    if (cursor === null) throw this.heap.lastError();
    return this.walkWith(cursor, walkOver);
  }

  private walkWith<Walk extends object>(
    cursor: TableCursorHandle,
    walkOver: (cursor: TableCursorHandle) => Walk,
  ): Walk {
    const walk = walkOver(cursor);
    abandonedWalks.register(walk, cursor, walk);
    return walk;
  }

  /** The entries of each batch of a walk. */
  protected readonly takeEntries = (cursor: TableCursorHandle): Entry[] =>
    entriesOf(cursor.takeEntries(), entryTypeNames(this.heap.constants));

  /** The range deletions of a range_del block's contents. */
  protected decodeRangeDeletions(contents: Uint8Array): RangeDeletion[] {
    const [ptr, size] = this.heap.putKey(contents);
    const raw = this.heap.module.rangeDeletionsOf(ptr, size);
    if (raw === null) throw this.heap.lastError();
    return raw;
  }

  /** The core's point lookup of `key` (sstfilter/table_get.h), to be run and then answered. */
  protected newGet(key: Key, read: TableReadOptions = {}): TableGetHandle {
    const handle = this.live();
    const [ptr, size] = this.heap.putKey(key);
    const get = handle.get(ptr, size, tableReadRaw(read));
    throwComparatorFault();
    return get;
  }

  /** What a finished lookup found: get()'s entries, and the blocks it read. */
  protected takeAnswer(get: TableGetHandle, key: Key): TableLookup {
    const { entries, covering, blocks, filter } = get.answer();
    const found = entriesOf(entries, entryTypeNames(this.heap.constants));
    const blocksRead: TableLookup["blocksRead"] = [];
    for (let b = 0; b < blocks.length; b += 3) {
      blocksRead.push({ offset: blocks[b]!, size: blocks[b + 1]!, entriesEnd: blocks[b + 2]! });
    }
    return {
      entries: lookupResult(found, covering, this.heap.constants.entryTypes["range-delete"]!),
      blocksRead,
      filter: explanationOf(filter, keyBytes(key)),
    };
  }

  /** A layout listing to drive (its reads are the subclass's). */
  protected newLayoutRead(): LayoutHandle {
    return this.live().layout();
  }

  /** The regions of a finished layout listing. */
  protected takeRegions(read: LayoutHandle): TableRegion[] {
    return regionsOf(read.regions(), this.heap.constants);
  }

  /** A read of the block at [offset, offset + size) to drive. */
  protected newBlockRead(offset: number, size: number): BlockReadHandle {
    checkBlockHandle(offset, size);
    return this.live().readBlock(offset, size);
  }
}

/** A table whose bytes are in memory (openTable). Keeps a reference to them for keys(). */
export class Table extends TableBase {
  /** @internal */
  constructor(
    heap: WasmHeap,
    handle: TableHandle,
    private readonly bytes: Uint8Array,
  ) {
    super(heap, handle);
  }

  /**
   * The answer the database's point lookup of `userKey` gets from this file before reading a data
   * block. RocksDB consults the filter first (the whole key, or the prefix when whole-key
   * filtering is off and the key is in the extractor's domain; else no filtering: true). LevelDB
   * seeks the index first: false for keys after the last index entry (not in the file), else the
   * answer of the data block's filter. Never false for a key in the file.
   */
  mayContain(userKey: Key): boolean {
    return this.probe("mayContain", userKey);
  }

  /** One byte per key: mayContain's answers (1 = may contain). */
  mayContainMany(userKeys: Key[] | KeyBatch): Uint8Array {
    return this.probeMany(userKeys);
  }

  /**
   * What a RocksDB prefix Seek(seekKey) with total_order_seek = false gets from the prefix filter,
   * using the table's own extractor: true without a filter or extractor, and for keys outside its
   * domain. LevelDB has no prefix seek: true.
   */
  prefixMayMatch(seekKey: Key): boolean {
    return this.probe("prefixMayMatch", seekKey);
  }

  /**
   * mayContain's answer and the filter (partition, data block) that gave it; `read`: as a
   * database configured so reads the table (by default, as the table describes itself).
   */
  explainMayContain(userKey: Key, read?: TableReadOptions): LookupExplanation {
    return this.explainProbe(userKey, read);
  }

  /**
   * The former name of explainMayContain (the same answer).
   * @deprecated Use explainMayContain.
   */
  explain(userKey: Key, read?: TableReadOptions): LookupExplanation {
    return this.explainMayContain(userKey, read);
  }

  /** Raw filter contents as stored: one per partition, the full filter, or LevelDB's filter block. */
  filterBytes(): Uint8Array[] {
    return this.live().filterBytes();
  }

  /** The data blocks in file order with their user keys, read (and checksum-verified) as reached. */
  dataBlocks(): IterableIterator<DataBlockKeys> {
    return blocksOf(this.keyBatches());
  }

  /**
   * The user keys of the data blocks in file order, packed a batch of blocks at a time (about
   * 1 MiB of keys): the fastest way through a table's keys. `range` limits the walk to the data
   * blocks at offsets [from, to), so that several walks can share a table.
   */
  keyBatches(range?: BlockRange): IterableIterator<TableKeyBatch> {
    return this.newWalk((cursor) => walkBatches(this.heap, cursor, this.bytes, takeKeys), range);
  }

  /**
   * verifyTable's walk: per batch of data blocks (in `range`), the keys the filter rules out,
   * probed in the core without the keys coming to JavaScript. `probe: false` only walks. The keys'
   * order is judged first: the walk ends with an error at an entry out of the table's order
   * (CORRUPT), or out of the bytewise order a LevelDB table was assumed to have (UNSUPPORTED).
   */
  verifyBatches(range?: BlockRange, probe = true): IterableIterator<FilterCheckBatch> {
    const check = checkBatch.bind(null, this.heap, this.live(), { probe });
    return this.newWalk((cursor) => walkBatches(this.heap, cursor, this.bytes, check), range, true);
  }

  /**
   * The former name of verifyBatches (the same walk).
   * @deprecated Use verifyBatches.
   */
  checkKeysAgainstFilter(range?: BlockRange, probe = true): IterableIterator<FilterCheckBatch> {
    return this.verifyBatches(range, probe);
  }

  /** User keys in file order (one per entry), reading data blocks as the walk reaches them. */
  keys(): IterableIterator<Uint8Array> {
    return this.newWalk((cursor) => new SyncKeyWalk(cursor, this.heap, this.bytes));
  }

  /**
   * Every entry in file order (user key, sequence number, type, value), or those `opts` names, as
   * `sst_dump --command=scan` lists them; data blocks are read (and checksum-verified) as reached.
   */
  entries(opts?: EntryOptions): IterableIterator<Entry> {
    return this.entryWalk(entryRange(opts));
  }

  private entryWalk(range: EntryRangeRaw): IterableIterator<Entry> {
    return flatten(
      this.newEntryWalk((cursor) => walkBatches(this.heap, cursor, this.bytes, this.takeEntries), range),
    );
  }

  /** The lines `sst_dump --command=scan` prints for the entries `opts` names, a batch at a time. */
  scanText(opts?: EntryOptions, output: ScanTextOptions = {}): IterableIterator<Uint8Array> {
    const take = scanTextTaker(output);
    return this.newEntryWalk((cursor) => walkBatches(this.heap, cursor, this.bytes, take), entryRange(opts));
  }

  /** The range deletions of the rocksdb.range_del block, in stored order ([] without one). */
  rangeDeletions(): RangeDeletion[] {
    const at = this.metaindex["rocksdb.range_del"];
    return at === undefined ? [] : this.decodeRangeDeletions(this.readBlock(at[0], at[1]));
  }

  /**
   * What the table's point lookup of `userKey` finds: where the filter allows, the entries of that
   * user key (newest first), and the range deletions covering it, as "range-delete" entries. With
   * user-defined timestamps `userKey` is without one: every version comes back, the newest
   * timestamp first (each with its `timestamp`), as a read at the largest timestamp sees them.
   * `read`: the filter is consulted as a database configured so does (see explainMayContain).
   */
  get(userKey: Key, read?: TableReadOptions): Entry[] {
    const get = this.newGet(userKey, read);
    try {
      runSync(this.heap, get, this.bytes);
      return this.takeAnswer(get, userKey).entries;
    } finally {
      get.delete();
    }
  }

  /**
   * Where every block lies, in file order from offset 0 to the end of the footer (regions tile the
   * file; "gap" regions cover bytes no handle names). Data blocks come from the index, unread: only
   * a partitioned index's partitions are read.
   */
  layout(): TableRegion[] {
    const read = this.newLayoutRead();
    try {
      runSync(this.heap, read, this.bytes);
      return this.takeRegions(read);
    } finally {
      read.delete();
    }
  }

  /** The contents of the block at [offset, size]: checksum verified, decompressed. */
  readBlock(offset: number, size: number): Uint8Array {
    const read = this.newBlockRead(offset, size);
    try {
      runSync(this.heap, read, this.bytes);
      return read.contents()!;
    } finally {
      read.delete();
    }
  }
}

/** A table read lazily from a ByteSource (openTableFrom / openTableFile). */
export class AsyncTable extends TableBase {
  /** @internal */
  constructor(
    heap: WasmHeap,
    handle: TableHandle,
    private readonly source: ByteSource,
    private release: (() => void) | undefined,
  ) {
    super(heap, handle);
  }

  /**
   * @internal The core's reader and the bytes behind it, for a lookup the core drives over several
   * tables (ts/api/db-get.ts).
   */
  coreReader(): { handle: TableHandle; source: ByteSource } {
    return { handle: this.live(), source: this.source };
  }

  /** See Table.mayContain. Footer, index and filter are in memory: no read is needed today. */
  async mayContain(userKey: Key): Promise<boolean> {
    return this.probe("mayContain", userKey);
  }

  /** See Table.mayContainMany. */
  async mayContainMany(userKeys: Key[] | KeyBatch): Promise<Uint8Array> {
    return this.probeMany(userKeys);
  }

  /** See Table.prefixMayMatch. */
  async prefixMayMatch(seekKey: Key): Promise<boolean> {
    return this.probe("prefixMayMatch", seekKey);
  }

  /** See Table.explainMayContain. */
  async explainMayContain(userKey: Key, read?: TableReadOptions): Promise<LookupExplanation> {
    return this.explainProbe(userKey, read);
  }

  /**
   * The former name of explainMayContain (the same answer).
   * @deprecated Use explainMayContain.
   */
  explain(userKey: Key, read?: TableReadOptions): Promise<LookupExplanation> {
    return this.explainMayContain(userKey, read);
  }

  /** See Table.filterBytes. */
  async filterBytes(): Promise<Uint8Array[]> {
    return this.live().filterBytes();
  }

  /** The data blocks in file order with their user keys, read from the source in large pieces. */
  dataBlocks(): AsyncIterableIterator<DataBlockKeys> {
    return blocksOfAsync(this.keyBatches());
  }

  /** See Table.keyBatches. */
  keyBatches(range?: BlockRange): AsyncIterableIterator<TableKeyBatch> {
    return this.newWalk((cursor) => walkBatchesAsync(this.heap, cursor, this.source, takeKeys), range);
  }

  /** See Table.verifyBatches. */
  verifyBatches(range?: BlockRange, probe = true): AsyncIterableIterator<FilterCheckBatch> {
    const check = checkBatch.bind(null, this.heap, this.live(), { probe });
    return this.newWalk((cursor) => walkBatchesAsync(this.heap, cursor, this.source, check), range, true);
  }

  /**
   * The former name of verifyBatches (the same walk).
   * @deprecated Use verifyBatches.
   */
  checkKeysAgainstFilter(range?: BlockRange, probe = true): AsyncIterableIterator<FilterCheckBatch> {
    return this.verifyBatches(range, probe);
  }

  /** User keys in file order, reading the source in large pieces as the walk reaches them. */
  keys(): AsyncIterableIterator<Uint8Array> {
    return this.newWalk((cursor) => new AsyncKeyWalk(cursor, this.heap, this.source));
  }

  /** See Table.entries: the source is read in large pieces as the walk reaches them. */
  entries(opts?: EntryOptions): AsyncIterableIterator<Entry> {
    return this.entryWalk(entryRange(opts));
  }

  private entryWalk(range: EntryRangeRaw): AsyncIterableIterator<Entry> {
    return flattenAsync(
      this.newEntryWalk(
        (cursor) => walkBatchesAsync(this.heap, cursor, this.source, this.takeEntries),
        range,
      ),
    );
  }

  /** See Table.scanText. */
  scanText(opts?: EntryOptions, output: ScanTextOptions = {}): AsyncIterableIterator<Uint8Array> {
    const take = scanTextTaker(output);
    return this.newEntryWalk(
      (cursor) => walkBatchesAsync(this.heap, cursor, this.source, take),
      entryRange(opts),
    );
  }

  /** See Table.rangeDeletions. */
  async rangeDeletions(): Promise<RangeDeletion[]> {
    const at = this.metaindex["rocksdb.range_del"];
    return at === undefined ? [] : this.decodeRangeDeletions(await this.readBlock(at[0], at[1]));
  }

  /** See Table.get. */
  async get(userKey: Key, read?: TableReadOptions): Promise<Entry[]> {
    return (await this.pointLookup(userKey, read)).entries;
  }

  /** @internal get()'s answer with the data blocks it read (db.get's route). */
  async pointLookup(userKey: Key, read?: TableReadOptions): Promise<TableLookup> {
    const get = this.newGet(userKey, read);
    try {
      await runAsync(this.heap, get, this.source);
      return this.takeAnswer(get, userKey);
    } finally {
      get.delete();
    }
  }

  /** See Table.layout: a partitioned index's partitions are read from the source. */
  async layout(): Promise<TableRegion[]> {
    const read = this.newLayoutRead();
    try {
      await runAsync(this.heap, read, this.source);
      return this.takeRegions(read);
    } finally {
      read.delete();
    }
  }

  /** See Table.readBlock. */
  async readBlock(offset: number, size: number): Promise<Uint8Array> {
    const read = this.newBlockRead(offset, size);
    try {
      await runAsync(this.heap, read, this.source);
      return read.contents()!;
    } finally {
      read.delete();
    }
  }

  /** Frees the table's wasm memory and closes what openTableFile opened. */
  override dispose(): void {
    super.dispose();
    const release = this.release;
    this.release = undefined;
    release?.();
  }
}

function tableOptions(opts: OpenTableOptions): { internalKeys: boolean; comparator: CoreComparator } {
  if (opts === null || typeof opts !== "object") {
    throw new SstFilterError("BAD_OPTIONS", "table options must be an object");
  }
  if (opts.internalKeys !== undefined && typeof opts.internalKeys !== "boolean") {
    throw new SstFilterError(
      "BAD_OPTIONS",
      `internalKeys must be a boolean, got ${typeof opts.internalKeys}`,
    );
  }
  return { internalKeys: opts.internalKeys ?? true, comparator: coreComparator(opts.comparator) };
}

function createHandle(heap: WasmHeap, size: number, opts: OpenTableOptions): TableHandle {
  const { internalKeys, comparator } = tableOptions(opts);
  if (!Number.isSafeInteger(size) || size < 0) {
    throw new SstFilterError("BAD_OPTIONS", `a table's size must be a whole number >= 0, got ${size}`);
  }
  const handle = heap.module.createTable(
    size,
    internalKeys,
    comparator.name,
    comparator.compare,
    opts.manifestComparator ?? "",
  );
  if (handle === null) throw heap.lastError();
  return handle;
}

/** A table whose bytes are all in memory (sf.openTable). */
export function openTable(heap: WasmHeap, bytes: Uint8Array, opts: OpenTableOptions): Table {
  if (!(bytes instanceof Uint8Array)) {
    throw new SstFilterError("BAD_OPTIONS", "openTable takes the file's bytes as a Uint8Array");
  }
  const handle = createHandle(heap, bytes.length, opts);
  try {
    runSync(heap, handle, bytes);
  } catch (error) {
    handle.delete();
    throw error;
  }
  return new Table(heap, handle, bytes);
}

// A Blob read is a round trip to the browser's file reader: a walk of a 222 MB table in 1 MiB reads
// spent 0.4-0.6 s reading, in 4 MiB reads 0.3 s (headless Chromium 156). A walk's reads (its
// read-ahead window, at least BLOB_WALK_READ) therefore fetch BLOB_PIECE at once, and the walk's
// next reads are served from that piece; smaller reads (a probe's block) fetch only themselves.
const BLOB_PIECE = 4 << 20;
const BLOB_WALK_READ = 256 << 10;

/** A ByteSource over a Blob or File, read in slices (Blob.slice) as the core asks. */
export function blobSource(blob: Blob): ByteSource {
  const fetch = async (start: number, end: number): Promise<Uint8Array> =>
    new Uint8Array(await blob.slice(start, end).arrayBuffer());
  let piece: { start: number; end: number; bytes: Promise<Uint8Array> } | null = null;
  return {
    size: blob.size,
    async read(offset, length) {
      const end = offset + length;
      if (piece === null || offset < piece.start || end > piece.end) {
        if (length < BLOB_WALK_READ) return fetch(offset, end);
        const wide = Math.min(blob.size, offset + Math.max(length, BLOB_PIECE));
        piece = { start: offset, end: wide, bytes: fetch(offset, wide) };
      }
      const { start, bytes } = piece;
      return (await bytes).subarray(offset - start, end - start);
    },
  };
}

/** A ByteSource over bytes already in memory. */
export function memorySource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)),
  };
}

function checkSource(source: unknown): ByteSource {
  if (typeof Blob !== "undefined" && source instanceof Blob) return blobSource(source);
  const s = source as Partial<ByteSource> | null;
  if (s === null || typeof s !== "object" || typeof s.size !== "number" || typeof s.read !== "function") {
    throw new SstFilterError(
      "BAD_OPTIONS",
      "openTableFrom takes a Blob or a { size, read(offset, length) } source",
    );
  }
  return s as ByteSource;
}

/** Opens a table from a source; `release` runs when the table is disposed or opening fails. */
export async function openTableFrom(
  heap: WasmHeap,
  source: ByteSource | Blob,
  opts: OpenTableOptions,
  release?: () => void,
): Promise<AsyncTable> {
  let handle: TableHandle | null = null;
  try {
    const checked = checkSource(source);
    handle = createHandle(heap, checked.size, opts);
    await runAsync(heap, handle, checked);
    return new AsyncTable(heap, handle, checked, release);
  } catch (error) {
    handle?.delete();
    release?.();
    throw error;
  }
}
