// Table files (.ldb / .sst): opened by the core through a resumable protocol (see
// wasm/table_bindings.cc) that the I/O driver (ts/core/io-driver.ts) runs, from a Uint8Array
// (openTable, synchronously) or a ByteSource / Blob (openTableFrom, asynchronously). Checksums and
// decompression are the core's; the types are table-types.ts, the walks table-walks.ts.
import type {
  BlockReadHandle,
  LayoutHandle,
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
  entryRange,
  entryTypeNames,
  lookupResult,
  type Entry,
  type EntryOptions,
  type EntryRangeRaw,
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
  AsyncKeyWalk,
  SyncKeyWalk,
  blocksOf,
  blocksOfAsync,
  checkBatch,
  flatten,
  flattenAsync,
  scanTextTaker,
  takeKeys,
  walkBatches,
  walkBatchesAsync,
} from "./table-walks.js";

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
