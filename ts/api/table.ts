// Table files (.ldb / .sst): opened by the core through a resumable protocol (see
// wasm/table_bindings.cc) that the I/O driver (ts/core/io-driver.ts) runs, from a Uint8Array
// (openTable, synchronously) or a ByteSource / Blob (openTableFrom, asynchronously). Checksums and
// decompression are the core's. Table and AsyncTable are one implementation (TableReader) with two
// faces (table-faces.ts); the types are table-types.ts, the walks table-walks.ts.
import type {
  BlockReadHandle,
  LookupExplanationRaw,
  TableCursorHandle,
  TableGetHandle,
  TableHandle,
  TableReadRaw,
} from "../core/core-module.js";
import { checkSource, type ByteSource } from "../core/byte-sources.js";
import { throwComparatorFault } from "../core/comparator-faults.js";
import { SstFilterError } from "../core/errors.js";
import type { WasmHeap } from "../core/heap.js";
import { runAsync, runSync } from "../core/io-driver.js";
import { keyBytes, type Key, type KeyBatch } from "../core/keys.js";
import { WasmObject } from "../core/wasm-object.js";
import { coreComparator, type CoreComparator } from "./comparators.js";
import {
  entriesOf,
  type EntryBatch,
  entryRange,
  entryTypeNames,
  lookupResult,
  type Entry,
  type EntryOptions,
  type RangeDeletion,
} from "./entries.js";
import { regionsOf, type TableRegion } from "./layout.js";
import type {
  BlockRange,
  DataBlockKeys,
  FilterCheckBatch,
  LookupExplanation,
  LookupRoute,
  OpenTableOptions,
  ScanTextOptions,
  TableFilterInfo,
  TableFooter,
  TableFormat,
  TableKeyBatch,
  TableKeyOrder,
  TableLookup,
  TablePropertyValue,
  TableReadOptions,
} from "./table-types.js";
import {
  asyncFace,
  syncFace,
  type Answers,
  type FaceKind,
  type TableFace,
  type Walks,
} from "./table-faces.js";
import { checkBatch, scanTextTaker, takeKeys } from "./table-walks.js";

// Frees the cursor of a key walk abandoned before its end (a finished or returned walk frees it
// itself). Tables are WasmObjects.
const abandonedWalks = new FinalizationRegistry<TableCursorHandle>((cursor) => {
  if (!cursor.isDeleted()) cursor.delete();
});

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

/**
 * What every open table offers, written once for both faces (table-faces.ts): a Table answers at
 * once, an AsyncTable with promises (and async walks), reading its source as the core asks.
 */
class TableReader<F extends FaceKind> extends WasmObject<TableHandle> {
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
    protected readonly face: TableFace<F>,
  ) {
    super(handle, "table");
    this.order = handle.keyOrder() as TableKeyOrder;
    this.format = handle.family();
    this.footer = handle.footer() as TableFooter;
    this.metaindex = handle.metaindex() as Record<string, [number, number]>;
    this.properties = handle.properties() as Record<string, TablePropertyValue>;
    this.filter = handle.filter() as TableFilterInfo | null;
  }

  /**
   * The answer the database's point lookup of `userKey` gets from this file before reading a data
   * block. RocksDB consults the filter first (the whole key, or the prefix when whole-key
   * filtering is off and the key is in the extractor's domain; else no filtering: true). LevelDB
   * seeks the index first: false for keys after the last index entry (not in the file), else the
   * answer of the data block's filter. Never false for a key in the file. Footer, index and filter
   * are in memory: an AsyncTable reads nothing for it today.
   */
  mayContain(userKey: Key): Answers<boolean>[F] {
    return this.face.now(() => this.probe("mayContain", userKey));
  }

  /** One byte per key: mayContain's answers (1 = may contain). */
  mayContainMany(userKeys: Key[] | KeyBatch): Answers<Uint8Array>[F] {
    return this.face.now(() => {
      const handle = this.live();
      const at = this.heap.putProbeKeys(userKeys, "mayContainMany");
      const ok = handle.mayContainBatch(at.data, at.dataSize, at.offsets, at.count, at.extra);
      throwComparatorFault();
      if (!ok) throw this.heap.lastError();
      return this.heap.bytes.slice(at.extra, at.extra + at.count);
    });
  }

  /**
   * What a RocksDB prefix Seek(seekKey) with total_order_seek = false gets from the prefix filter,
   * using the table's own extractor: true without a filter or extractor, and for keys outside its
   * domain. LevelDB has no prefix seek: true.
   */
  prefixMayMatch(seekKey: Key): Answers<boolean>[F] {
    return this.face.now(() => this.probe("prefixMayMatch", seekKey));
  }

  /**
   * mayContain's answer and the filter (partition, data block) that gave it; `read`: as a
   * database configured so reads the table (by default, as the table describes itself).
   */
  explainMayContain(userKey: Key, read: TableReadOptions = {}): Answers<LookupExplanation>[F] {
    return this.face.now(() => {
      const options = tableReadRaw(read);
      const handle = this.live();
      const [ptr, size] = this.heap.putKey(userKey);
      const raw = handle.explain(ptr, size, options);
      throwComparatorFault();
      if (raw === null) throw this.heap.lastError();
      return explanationOf(raw, this.heap.bytes.subarray(ptr, ptr + size));
    });
  }

  /**
   * The former name of explainMayContain (the same answer).
   * @deprecated Use explainMayContain.
   */
  explain(userKey: Key, read?: TableReadOptions): Answers<LookupExplanation>[F] {
    return this.explainMayContain(userKey, read);
  }

  /** Raw filter contents as stored: one per partition, the full filter, or LevelDB's filter block. */
  filterBytes(): Answers<Uint8Array[]>[F] {
    return this.face.now(() => this.live().filterBytes());
  }

  /**
   * The data blocks in file order with their user keys, read (and checksum-verified) as reached;
   * an AsyncTable reads its source in large pieces.
   */
  dataBlocks(): Walks<DataBlockKeys>[F] {
    return this.face.blocks(this.keyBatches());
  }

  /**
   * The user keys of the data blocks in file order, packed a batch of blocks at a time (about
   * 1 MiB of keys): the fastest way through a table's keys. `range` limits the walk to the data
   * blocks at offsets [from, to), so that several walks can share a table.
   */
  keyBatches(range?: BlockRange): Walks<TableKeyBatch>[F] {
    return this.newWalk(this.keyCursor(range), (cursor) => this.face.batches(cursor, takeKeys));
  }

  /**
   * verifyTable's walk: per batch of data blocks (in `range`), the keys the filter rules out,
   * probed in the core without the keys coming to JavaScript. `probe: false` only walks. The keys'
   * order is judged first: the walk ends with an error at an entry out of the table's order
   * (CORRUPT), or out of the bytewise order a LevelDB table was assumed to have (UNSUPPORTED).
   */
  verifyBatches(range?: BlockRange, probe = true): Walks<FilterCheckBatch>[F] {
    const check = checkBatch.bind(null, this.heap, this.live(), { probe });
    return this.newWalk(this.keyCursor(range, true), (cursor) => this.face.batches(cursor, check));
  }

  /**
   * The former name of verifyBatches (the same walk).
   * @deprecated Use verifyBatches.
   */
  checkKeysAgainstFilter(range?: BlockRange, probe = true): Walks<FilterCheckBatch>[F] {
    return this.verifyBatches(range, probe);
  }

  /**
   * User keys in file order (one per entry), reading data blocks as the walk reaches them (an
   * AsyncTable's source in large pieces).
   */
  keys(): Walks<Uint8Array>[F] {
    return this.newWalk(this.keyCursor(), (cursor) => this.face.keys(cursor));
  }

  /**
   * Every entry in file order (user key, sequence number, type, value), or those `opts` names, as
   * `sst_dump --command=scan` lists them; data blocks are read (and checksum-verified) as reached
   * (an AsyncTable's source in large pieces).
   */
  entries(opts?: EntryOptions): Walks<Entry>[F] {
    const cursor = this.entryCursor(opts);
    return this.face.flatten(this.newWalk(cursor, (c) => this.face.batches(c, this.takeEntries)));
  }

  /**
   * @internal entries()'s walk a batch at a time, as the core hands it over: for walks that
   * compare entries in place (diffTables) rather than make an object of each.
   */
  entryBatches(): Walks<EntryBatch>[F] {
    const typeNames = entryTypeNames(this.heap.constants);
    const take = (cursor: TableCursorHandle): EntryBatch => ({ ...cursor.takeEntries(), typeNames });
    return this.newWalk(this.entryCursor(undefined), (c) => this.face.batches(c, take));
  }

  /**
   * The lines `sst_dump --command=scan` prints for the entries `opts` names, a batch at a time
   * (byte for byte; with `output.escape`, bytes a terminal cannot show escaped).
   */
  scanText(opts?: EntryOptions, output: ScanTextOptions = {}): Walks<Uint8Array>[F] {
    const take = scanTextTaker(output);
    return this.newWalk(this.entryCursor(opts), (cursor) => this.face.batches(cursor, take));
  }

  /** The range deletions of the rocksdb.range_del block, in stored order ([] without one). */
  rangeDeletions(): Answers<RangeDeletion[]>[F] {
    const at = this.metaindex["rocksdb.range_del"];
    if (at === undefined) return this.face.now<RangeDeletion[]>(() => []);
    return this.face.run(
      () => this.startBlockRead(at[0], at[1]),
      (read) => {
        const [ptr, size] = this.heap.putKey(read.contents()!);
        const raw = this.heap.module.rangeDeletionsOf(ptr, size);
        if (raw === null) throw this.heap.lastError();
        return raw;
      },
    );
  }

  /**
   * What the table's point lookup of `userKey` finds: where the filter allows, the entries of that
   * user key (newest first), and the range deletions covering it, as "range-delete" entries. With
   * user-defined timestamps `userKey` is without one: every version comes back, the newest
   * timestamp first (each with its `timestamp`), as a read at the largest timestamp sees them.
   * `read`: the filter is consulted as a database configured so does (see explainMayContain).
   */
  get(userKey: Key, read?: TableReadOptions): Answers<Entry[]>[F] {
    return this.face.run(
      () => this.startGet(userKey, read),
      (get) => this.takeAnswer(get, userKey).entries,
    );
  }

  /**
   * Where every block lies, in file order from offset 0 to the end of the footer (regions tile the
   * file; "gap" regions cover bytes no handle names). Data blocks come from the index, unread: only
   * a partitioned index's partitions are read.
   */
  layout(): Answers<TableRegion[]>[F] {
    return this.face.run(
      () => this.live().layout(),
      (read) => regionsOf(read.regions(), this.heap.constants),
    );
  }

  /** The contents of the block at [offset, size]: checksum verified, decompressed. */
  readBlock(offset: number, size: number): Answers<Uint8Array>[F] {
    return this.face.run(
      () => this.startBlockRead(offset, size),
      (read) => read.contents()!,
    );
  }

  /** mayContain's or prefixMayMatch's answer from the core. */
  private probe(which: "mayContain" | "prefixMayMatch", key: Key): boolean {
    const handle = this.live();
    const answer = handle[which](...this.heap.putKey(key));
    throwComparatorFault();
    if (answer < 0) throw this.heap.lastError();
    return answer === 1;
  }

  /** The walk `walkOver` makes over `cursor`; the cursor is freed if the walk is dropped. */
  private newWalk<Walk extends object>(
    cursor: TableCursorHandle,
    walkOver: (cursor: TableCursorHandle) => Walk,
  ): Walk {
    const walk = walkOver(cursor);
    abandonedWalks.register(walk, cursor, walk);
    return walk;
  }

  /** A cursor over the table's data blocks in `range`; `checkOrder`: it judges the keys' order. */
  private keyCursor(range: BlockRange = {}, checkOrder = false): TableCursorHandle {
    return this.live().keys(...rangeBounds(range), checkOrder);
  }

  /** The entries of each batch of a walk. */
  private readonly takeEntries = (cursor: TableCursorHandle): Entry[] =>
    entriesOf(cursor.takeEntries(), entryTypeNames(this.heap.constants));

  /** A cursor over the table's entries `opts` names. */
  private entryCursor(opts: EntryOptions | undefined): TableCursorHandle {
    const range = entryRange(opts);
    const cursor = this.live().entries(range);
    if (cursor === null) throw this.heap.lastError();
    return cursor;
  }

  /** The core's point lookup of `key` (sstfilter/table_get.h), to be run and then answered. */
  protected startGet(key: Key, read: TableReadOptions = {}): TableGetHandle {
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

  /** A read of the block at [offset, offset + size), to be run. */
  private startBlockRead(offset: number, size: number): BlockReadHandle {
    checkBlockHandle(offset, size);
    return this.live().readBlock(offset, size);
  }
}

/** A table whose bytes are in memory (openTable). Keeps a reference to them for its reads. */
export class Table extends TableReader<"sync"> {
  /** @internal */
  constructor(heap: WasmHeap, handle: TableHandle, bytes: Uint8Array) {
    super(heap, handle, syncFace(heap, bytes));
  }
}

/**
 * A table read lazily from a ByteSource (openTableFrom / openTableFile): Table's methods, each
 * answering with a promise (the walks are async iterators).
 */
export class AsyncTable extends TableReader<"async"> {
  /** @internal */
  constructor(
    heap: WasmHeap,
    handle: TableHandle,
    private readonly source: ByteSource,
    private release: (() => void) | undefined,
  ) {
    super(heap, handle, asyncFace(heap, source));
  }

  /**
   * @internal The core's reader and the bytes behind it, for a lookup the core drives over several
   * tables (ts/api/db-get.ts).
   */
  coreReader(): { handle: TableHandle; source: ByteSource } {
    return { handle: this.live(), source: this.source };
  }

  /** @internal get()'s answer with the data blocks it read (db.get's route). */
  pointLookup(userKey: Key, read?: TableReadOptions): Promise<TableLookup> {
    return this.face.run(
      () => this.startGet(userKey, read),
      (get) => this.takeAnswer(get, userKey),
    );
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
