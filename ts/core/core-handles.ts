// The objects the Embind module built from wasm/bindings.cc hands to JavaScript (handles of
// filters, tables, walks, lookups, replays and writers), apart from the module's own exports
// (core-module.ts). Only this package calls them.
import type { LibraryFormat } from "./library-format.js";

/** An object of the wasm module handed to JavaScript (Embind): freed by delete(), never by the GC. */
export interface EmbindHandle {
  /** Frees the C++ object; the handle must not be used after. */
  delete(): void;
  /** Whether delete() was called. */
  isDeleted(): boolean;
}

/** A filter's description as the core reads it from its bytes (FilterHandle.info). */
export interface FilterInfoRaw {
  kind: string;
  numProbes: number;
  dataBytes: number;
  blockBytes: number;
  ribbonSeed: number;
  ribbonBlocks: number;
}

export interface FilterHandle extends EmbindHandle {
  /** The filter's kind (ts/api/filters.ts FilterKind). */
  kind(): string;
  /** The filter's probes, sizes and Ribbon parameters. */
  info(): FilterInfoRaw;
  /** Whether the reader can probe (its ProbeSupport status); false = the reason is the last error. */
  checkProbeSupport(): boolean;
  /** Address of the C++ reader, for the direct probe exports. */
  readerAddress(): number;
}

export interface FilterBlockHandle extends EmbindHandle {
  /** How many filters the LevelDB filter block holds. */
  numFilters(): number;
  /** The block's base_lg: each filter covers 2^baseLg bytes of data-block offsets. */
  baseLg(): number;
  /** The block's filters, null where one is empty. */
  filters(): (Uint8Array | null)[];
  /** Address of the C++ reader, for the direct probe export. */
  readerAddress(): number;
}

/** One resumable table operation (wasm/table_bindings.cc IoHandle). */
export interface IoHandle extends EmbindHandle {
  /** One of ModuleConstants.ioNeeds, or -1 = failed (last error). */
  advance(): number;
  /** Where in the file the bytes asked for start, once advance() asked for bytes. */
  needOffset(): number;
  /** How many bytes are asked for from needOffset() on. */
  needLength(): number;
  /** The length of the read expected after this one, from its end on (0: none): worth reading ahead. */
  needAheadLength(): number;
  /** Where the needLength() bytes go in the module's memory (allocated by this call). */
  supplyBuffer(): number;
  /** Announces the bytes written there; false = failed (last error), e.g. a short read. */
  supplied(size: number): boolean;
}

/**
 * A write-ahead log replay held in wasm memory (wasm/recovery_bindings.cc): its shapes are
 * ts/api/wal-recovery.ts's, which ts/core does not import.
 */
export interface ReplayHandle extends EmbindHandle {
  /** Starts the log `name` (number `number`); its bytes follow through append(). */
  beginLog(name: string, number: bigint): void;
  /** Feeds [data, data + size) of the log begun (copied). */
  append(data: number, size: number): void;
  /** false = the replay failed (last error). */
  endLog(): boolean;
  /** `families`: those holding tables. false = DB::Open's refusal (last error). */
  finish(families: { id: number; name: string; logNumber: bigint }[]): boolean;
  /** RecoveredLog[]. */
  logs(): unknown[];
  /** MemtableLog[]. */
  summaries(): unknown[];
  /** PreparedTransaction[]. */
  preparedUncommitted(): unknown[];
  /** { log, number } or null. */
  unresumedDamage(): unknown;
  /** The memtable's bytes in wasm memory. */
  memoryUsage(): number;
  /** Address of the C++ replay, for the Gets over its memtable (createDbGet). */
  replayAddress(): number;
}

/** A MANIFEST's state kept for database Gets (wasm/db_get_bindings.cc). */
export type ManifestHandle = EmbindHandle;

/** A database Get (wasm/db_get_bindings.cc): bytes of the table it reads, as every IoHandle. */
export interface DbGetHandle extends IoHandle {
  /** Whether the Get has its answer (result() and steps() are ready). */
  done(): boolean;
  /** The number of the table to open and hand over (setTable) before advancing; null: none. */
  tableNeeded(): bigint | null;
  /** `reader`: the opened table's readerAddress(). false = failed (last error). */
  setTable(reader: number): boolean;
  /** ts/api/db-get.ts's GetResult, and whether its value is a blob index. */
  result(): unknown;
  /** RouteStep[]. */
  steps(): unknown[];
}

/** What a walk of entries hands over per batch (TableCursorHandle.takeEntries). */
export interface EntryBatchRaw {
  keys: { data: Uint8Array; offsets: Uint32Array };
  /** 8 little-endian bytes per entry (sequence << 8 | type); null for tables of user keys. */
  tags: Uint8Array | null;
  /** timestampSize bytes per entry: the user-defined timestamps; null for tables without them. */
  timestamps: Uint8Array | null;
  timestampSize: number;
  values: { data: Uint8Array; offsets: Uint32Array };
  blocks: Float64Array;
}

/** A walk of a table's keys or entries (wasm/table_bindings.cc TableCursorHandle). */
export interface TableCursorHandle extends IoHandle {
  /** Whether the walk has passed its last block. */
  atEnd(): boolean;
  /**
   * The keys of the batch gathered (one or more data blocks) and its blocks: [offset, size,
   * keysEnd] per block, keys [previous keysEnd, keysEnd) being the block's.
   */
  takeKeys(): { data: Uint8Array; offsets: Uint32Array; blocks: Float64Array };
  /** The batch's blocks as takeKeys() gives them; its keys are dropped. */
  takeBlocks(): Float64Array;
  /** Key i of the batch, and how many it holds. */
  key(i: number): Uint8Array;
  /** How many keys the batch holds. */
  keyCount(): number;
  /** A walk of entries: the batch's entries and blocks. */
  takeEntries(): EntryBatchRaw;
  /**
   * A walk of entries: the batch as `sst_dump --command=scan` lines (hex: --output_hex, escape:
   * bytes escaped unless hex, decodeBlobIndex: --decode_blob_index), on standard output and
   * standard error.
   */
  takeScanText(
    hex: boolean,
    escape: boolean,
    decodeBlobIndex: boolean,
  ): { out: Uint8Array; errors: Uint8Array };
}

/** A table's point lookup (wasm/table_bindings.cc TableGetHandle). */
export interface TableGetHandle extends IoHandle {
  /**
   * Once advance() returned 0: the key's entries in stored order (newest first), the range
   * deletions covering it (newest first), [offset, size, entriesEnd] per data block read (entries
   * [previous entriesEnd, entriesEnd) came from it), 1 per such block the block cache served, and
   * how the filter answered (as explain()).
   */
  answer(): {
    entries: Omit<EntryBatchRaw, "blocks">;
    covering: { start: Uint8Array; end: Uint8Array; seq: bigint }[];
    blocks: Float64Array;
    blocksFromCache: Uint8Array;
    filter: LookupExplanationRaw;
  };
}

/** A block cache's counters (wasm/block_cache_bindings.cc, sstfilter/block_cache.h BlockCacheStats). */
export interface BlockCacheStatsRaw {
  hits: bigint;
  misses: bigint;
  inserts: bigint;
  evictions: bigint;
  entries: bigint;
  bytesHeld: bigint;
  capacity: bigint;
}

/** A block cache with a byte budget, shared by the lookups given it (wasm/block_cache_bindings.cc). */
export interface BlockCacheHandle extends EmbindHandle {
  /** The cache's hit, miss, insert and eviction counters and what it holds. */
  stats(): BlockCacheStatsRaw;
  /** The cache's address in wasm memory, for createDbGet. */
  address(): number;
  /** The id the database using it names its tables by. */
  owner(): number;
}

export interface BlockReadHandle extends IoHandle {
  /** The block's contents once advance() returned 0. */
  contents(): Uint8Array | null;
}

/** A table's layout listing, packed (wasm/table_bindings.cc LayoutHandle.regions). */
export interface LayoutRaw {
  /** One of ModuleConstants.regionKinds per region. */
  kinds: Uint8Array;
  /** [offset, size, trailer size] per region. */
  handles: Float64Array;
  /** Each region's separator (empty where it has none), packed as a KeyBatch. */
  separators: { data: Uint8Array; offsets: Uint32Array };
  hasSeparator: Uint8Array;
  /** [region index, metaindex name] for the regions a metaindex entry names. */
  names: [number, string][];
}

export interface LayoutHandle extends IoHandle {
  /** The regions once advance() returned 0. */
  regions(): LayoutRaw;
}

/** A probe's answer and the filter partition or data block that gave it (TableHandle.explain). */
export interface LookupExplanationRaw {
  mayContain: boolean;
  route: string;
  filterInUse: boolean;
  partition: number | null;
  dataBlock: [number, number] | null;
  probedSize: number;
}

/** How the database reading a table is configured (sstfilter/table.h TableReadOptions). */
export interface TableReadRaw {
  useFilter: boolean;
  wholeKeyFiltering: boolean;
  /** Absent: the table's own extractor; "": none. */
  prefixExtractor?: string;
}

export interface TableHandle extends IoHandle {
  /** Which library's table this is (wasm/table_bindings.cc). */
  family(): LibraryFormat;
  /** Address of the C++ reader, for a database Get that reads the table (DbGetHandle.setTable). */
  readerAddress(): number;
  /** ts/api/table-types.ts's TableFooter. */
  footer(): unknown;
  /** The metaindex: block name to [offset, size]. */
  metaindex(): unknown;
  /** The properties block, name to value. */
  properties(): unknown;
  /** ts/api/table-types.ts's TableFilterInfo, or null for a table without a filter. */
  filter(): unknown;
  /** The filter's bytes as stored: one per partition, the full filter, or LevelDB's filter block. */
  filterBytes(): Uint8Array[];
  /** The comparator the table is read with, how its order is known, and what the keys look like. */
  keyOrder(): {
    comparator: string;
    source: string;
    known: boolean;
    firstUnorderedSeparator: number | null;
    keysLookLike: string | null;
  };
  /** 1 = may match, 0 = no, -1 = failed (last error). */
  mayContain(key: number, size: number): number;
  /** The prefix filter's answer for a seek key: 1 = may match, 0 = no, -1 = failed (last error). */
  prefixMayMatch(key: number, size: number): number;
  /** null on failure (last error). */
  explain(key: number, size: number, read: TableReadRaw): LookupExplanationRaw | null;
  /** mayContain's answers for `count` packed keys, one byte each at `out`; false = failed (last error). */
  mayContainBatch(data: number, dataSize: number, offsets: number, count: number, out: number): boolean;
  /**
   * A walk over the data blocks at offsets [begin, end); end -1: to the last. `checkOrder`: the walk
   * ends with an error at the first entry out of the table's order (TableCursor::SetOrderCheck).
   */
  keys(begin: number, end: number, checkOrder: boolean): TableCursorHandle;
  /** A walk of the entries in `range` (ts/api/entries.ts); null on error (last error). */
  entries(range: {
    from?: Uint8Array;
    to?: Uint8Array;
    prefix?: Uint8Array;
    exact?: boolean;
    limit?: number;
  }): TableCursorHandle | null;
  /** mayContain's answers for the keys of the batch `cursor` holds, written at `results`. */
  mayContainCursorKeys(cursor: TableCursorHandle, results: number): boolean;
  /** A read of the block at [offset, offset + size): checksum verified, decompressed. */
  readBlock(offset: number, size: number): BlockReadHandle;
  /** The point lookup of the key at [key, key + size), through `cache` where one is given. */
  get(key: number, size: number, read: TableReadRaw, cache?: BlockCacheHandle | null): TableGetHandle;
  /** The layout listing of the table's blocks. */
  layout(): LayoutHandle;
}

/** One table being written (wasm/table_writer_bindings.cc). */
export interface TableWriterHandle extends EmbindHandle {
  /** For _sstfilter_table_writer_add / _pending; valid while the handle lives. */
  writerAddress(): number;
  /** Writes the table's last blocks and footer; false = failed (last error). */
  finish(): boolean;
  /** The bytes finished since the last call (copied out of wasm memory). */
  takeOutput(): Uint8Array;
  /** The table's size so far, in bytes written. */
  fileSize(): number;
  /** How many entries were added. */
  entries(): number;
}
