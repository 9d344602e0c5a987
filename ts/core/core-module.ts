// The shape of the Embind module built from wasm/bindings.cc. Only this package calls it.
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
   * A walk of entries: the batch as `sst_dump --command=scan` lines (hex: --output_hex,
   * decodeBlobIndex: --decode_blob_index), on standard output and standard error.
   */
  takeScanText(hex: boolean, decodeBlobIndex: boolean): { out: Uint8Array; errors: Uint8Array };
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

/** The wasm module's exports as the package calls them (wasm/bindings.cc and the files beside it). */
export interface CoreModule {
  HEAPU8: Uint8Array;
  /** Allocates `size` bytes of wasm memory; 0 when none is left. */
  _malloc(size: number): number;
  /** Frees what _malloc allocated. */
  _free(ptr: number): void;

  // Direct exports (wasm/fast_paths.cc): the per-key and per-batch calls, without Embind.
  /** LevelDB's Hash of the key at [ptr, ptr + size). */
  _sstfilter_leveldb_hash32(ptr: number, size: number, seed: number): number;
  /** RocksDB's legacy Hash (trailing bytes sign-extended). */
  _sstfilter_rocksdb_hash32(ptr: number, size: number, seed: number): number;
  /** RocksDB's Hash64: the XXH3 preview. */
  _sstfilter_xxph3_64(ptr: number, size: number, seed: bigint): bigint;
  /** Final XXH3, 64 bits. */
  _sstfilter_xxh3_64(ptr: number, size: number, seed: bigint): bigint;
  /** XXH64. */
  _sstfilter_xxh64(ptr: number, size: number, seed: bigint): bigint;
  /** XXH32. */
  _sstfilter_xxh32(ptr: number, size: number, seed: number): number;
  /** CRC32C, unmasked. */
  _sstfilter_crc32c(ptr: number, size: number): number;
  /** The filter at `reader` (readerAddress()) probed with one key: 1 = may match, 0 = no, -1 = failed. */
  _sstfilter_may_match(reader: number, key: number, size: number): number;
  /** The filter probed with `count` packed keys, one answer byte each at `out`; -1 = failed. */
  _sstfilter_may_match_batch(
    reader: number,
    data: number,
    dataSize: number,
    offsets: number,
    count: number,
    out: number,
  ): number;
  /** The filter probed with `count` precomputed 64-bit hashes, one answer byte each at `out`; -1 = failed. */
  _sstfilter_may_match_hashes(reader: number, hashes: number, count: number, out: number): number;
  /** The LevelDB filter block at `reader` probed for a key of the data block at `blockOffset`. */
  _sstfilter_filter_block_may_match(reader: number, blockOffset: number, key: number, size: number): number;
  /** op 0 put, 1 delete, 2 merge, 3 deleteRange (key = start, value = end). 0 = failed (last error). */
  _sstfilter_table_writer_add(
    writer: number,
    op: number,
    key: number,
    keySize: number,
    value: number,
    valueSize: number,
  ): number;
  /** Finished bytes not taken yet (unsigned: read with >>> 0). */
  _sstfilter_table_writer_pending(writer: number): number;

  /** The code of the last failure (SstFilterErrorCode). */
  lastErrorCode(): string;
  /** The message of the last failure. */
  lastErrorMessage(): string;
  /** The byte offset the last failure is about (negative: none). */
  lastErrorOffset(): number;

  /** A filter of `format` (ModuleConstants.filterFormats) over packed keys; null on bad options (last error). */
  buildFilter(
    format: number,
    bitsPerKey: number,
    data: number,
    dataSize: number,
    offsets: number,
    count: number,
  ): Uint8Array | null;
  /** A reader of LevelDB filter bytes at [ptr, ptr + size) (copied). */
  openLevelDbFilter(ptr: number, size: number): FilterHandle;
  /** A reader of RocksDB filter bytes at [ptr, ptr + size) (copied); the kind comes from its metadata. */
  openRocksDbFilter(ptr: number, size: number): FilterHandle;

  /** A LevelDB filter block over packed keys and the data blocks they belong to; null on bad options (last error). */
  buildLevelDbFilterBlock(
    bitsPerKey: number,
    data: number,
    dataSize: number,
    offsets: number,
    count: number,
    blockOffsets: number,
    blockSizes: number,
    keyCounts: number,
    numBlocks: number,
  ): Uint8Array | null;
  /** A reader of a LevelDB filter block at [ptr, ptr + size) (copied). */
  openLevelDbFilterBlock(ptr: number, size: number): FilterBlockHandle;

  /** `family`: one of ModuleConstants.kernelFamilies. */
  availableKernels(family: number): string[];
  /** The kernel of `family` in use. */
  activeKernel(family: number): string;
  /** Makes the kernel `name` of `family` the one in use; false for an unknown family or kernel. */
  selectKernel(family: number, name: string): boolean;

  /** The numbers the module and this package agree on. */
  constants(): ModuleConstants;

  /**
   * `comparatorName` and `compare`: "" and null for the table's own order, a built-in name and
   * null, or a name and a function that never throws (ts/api/comparators.ts). Null on bad options
   * (last error).
   */
  createTable(
    fileSize: number,
    internalKeys: boolean,
    comparatorName: string,
    compare: ((a: Uint8Array, b: Uint8Array) => number) | null,
    manifestComparator: string,
  ): TableHandle | null;
  /**
   * A replay (ts/api/wal-recovery.ts validates the options): `compare` as createTable takes it, ""
   * and null for bytewise. Null on bad options (last error).
   */
  createWalReplay(options: {
    format: LibraryFormat;
    mode: string;
    paranoidChecks: boolean;
    columnFamilies: {
      id: number;
      logNumber: bigint;
      comparator: string;
      compare: ((a: Uint8Array, b: Uint8Array) => number) | null;
    }[];
    onlyKey?: Uint8Array;
    onlyColumnFamily?: number;
    listRecords: boolean;
  }): ReplayHandle | null;
  /** The MANIFEST at [data, data + size), kept for Gets; null on error (last error). */
  createManifestHandle(data: number, size: number, format: LibraryFormat): ManifestHandle | null;
  /**
   * A Get of the key at [key, key + size) in column family `familyId`, over the memtable of the
   * replay at `replay` (replayAddress(); 0: the tables alone); both must outlive it. Null on bad
   * options (last error).
   */
  createDbGet(
    manifest: ManifestHandle,
    replay: number,
    familyId: number,
    comparatorName: string,
    compare: ((a: Uint8Array, b: Uint8Array) => number) | null,
    read: unknown,
    format: LibraryFormat,
    present: ReadonlySet<string>,
    /** A BlockCacheHandle's address() (0: none) and owner(). */
    cache: number,
    cacheOwner: number,
    key: number,
    size: number,
  ): DbGetHandle | null;
  /** A block cache holding at most `capacity` bytes (0: caches nothing). */
  createBlockCache(capacity: bigint): BlockCacheHandle;
  /** -1, 0 or 1 as the built-in comparator `name` orders the two keys; -2 (last error) for an unknown name. */
  compareWithBuiltin(name: string, a: number, aSize: number, b: number, bSize: number): number;
  /** The names of the built-in comparators. */
  builtinComparatorNames(): string[];
  /** null on bad options (last error). */
  createTableWriter(options: {
    comparator: string;
    compare: ((a: Uint8Array, b: Uint8Array) => number) | null;
    format: string;
    formatVersion: number;
    filter: string;
    bitsPerKey: number;
    prefixExtractor: string;
    wholeKeyFiltering: boolean;
    compression: string;
    checksum: string;
    blockSize: number;
    restartInterval: number;
    indexType: string;
    partitionFilters: boolean;
    metadataBlockSize: number;
    decouplePartitionedFilters: boolean;
    baseContextChecksum: number;
    properties: [string, string][];
  }): TableWriterHandle | null;
  /** sst_dump's scan line for an entry: seq below 2^56, type a byte. */
  formatScanLine(
    key: Uint8Array,
    timestamp: Uint8Array,
    seq: bigint,
    type: number,
    value: Uint8Array,
    hex: boolean,
  ): Uint8Array;
  /**
   * The blob index at [value, value + size): ts/api/values.ts's BlobIndex, as wasm/value_bindings.cc
   * builds it (wasm/marshal.h); null on error (last error). Typed unknown here: the public types
   * are ts/api's, which ts/core does not import.
   */
  decodeBlobIndex(value: number, size: number): unknown;
  /** The columns of the entity at [value, value + size): ts/api/values.ts's WideColumn[]; null on error. */
  decodeWideColumns(value: number, size: number): unknown;
  /** An IndexedDB record (user key, value) as JSON text (wasm/chrome_bindings.cc,
   * docs/FORMATS.md 7.5); null on error (last error). */
  decodeIndexedDbRecord(key: number, keySize: number, value: number, valueSize: number): string | null;
  /** The same with the record's blob entry value, for Blob and File details. */
  decodeIndexedDbRecordWithBlobs(
    key: number,
    keySize: number,
    value: number,
    valueSize: number,
    blobs: number,
    blobsSize: number,
  ): string | null;
  /** A Blink serialized value (a blob-wrapped IndexedDB value's file) as tagged JSON text. */
  decodeSerializedScriptValue(data: number, size: number): string | null;
  /** A localStorage record as JSON text; null on error (last error). */
  decodeLocalStorageRecord(key: number, keySize: number, value: number, valueSize: number): string | null;
  /** A sessionStorage record as JSON text; null on error (last error). */
  decodeSessionStorageRecord(key: number, keySize: number, value: number, valueSize: number): string | null;
  /** Chromium's idb_cmp1 over two user keys: -1, 0 or 1. */
  compareIndexedDbKeys(a: number, aSize: number, b: number, bSize: number): number;
  /** The range deletions of a range_del block's contents; null on error (last error). */
  rangeDeletionsOf(
    contents: number,
    size: number,
  ): { start: Uint8Array; end: Uint8Array; seq: bigint }[] | null;
  /**
   * The state of the MANIFEST at [data, data + size): ts/api/db-types.ts's ManifestState, as
   * wasm/db_bindings.cc builds it, table file names as they are among `present`; null on error.
   */
  readManifest(data: number, size: number, format: LibraryFormat, present: ReadonlySet<string>): unknown;
  /** The MANIFEST file name CURRENT at [data, data + size) names; null on error. */
  parseCurrentFile(data: number, size: number): string | null;
  /**
   * The WAL at [data, data + size) named `name`: ts/api/wal.ts's WalFile, as wasm/db_bindings.cc
   * builds it, its errors made by `makeError`; never null.
   */
  readWriteAheadLog(
    data: number,
    size: number,
    format: LibraryFormat,
    name: string,
    logNumber: bigint,
    readPastDamage: boolean,
    makeError: (code: string, message: string, offset: number) => Error,
  ): unknown;
  /**
   * Reads the log (a WAL or a MANIFEST) at [data, data + size) record by record, checking every
   * fragment (wasm/db_check_bindings.cc); null at the first bad one (last error, with its offset).
   */
  checkLog(data: number, size: number, format: LibraryFormat, logNumber: bigint): LogCheck | null;
  /** Checks the blob file at [data, data + size) (wasm/db_check_bindings.cc); null when it is bad. */
  checkBlobFile(data: number, size: number): BlobFileCheck | null;
  /**
   * The value a blob index names (wasm/db_check_bindings.cc): at `data` the file's header, the
   * record's bytes and the user key; sizes of the file, offset and value; the key's
   * column family id, which the file's header must name. Null when bad.
   */
  readBlobValue(
    data: number,
    headerSize: number,
    recordSize: number,
    keySize: number,
    fileSize: bigint,
    valueOffset: bigint,
    valueSize: bigint,
    compression: number,
    columnFamily: number,
  ): Uint8Array | null;
}

/** What checkBlobFile read. */
export interface BlobFileCheck {
  columnFamilyId: number;
  compression: number;
  hasTtl: boolean;
  blobCount: bigint;
  blobBytes: bigint;
}

/** What checkLog found: the records read and how the log ended (a torn tail is no error). */
export interface LogCheck {
  records: number;
  end: { kind: "clean" | "torn" | "old-record"; offset: number; what: string };
}

/**
 * The numbers the bindings take and return, named; read from the C++ enums at load time
 * (wasm/constants.cc).
 */
export interface ModuleConstants {
  filterFormats: Record<"leveldb" | "rocksdb-legacy-bloom" | "rocksdb-bloom" | "rocksdb-ribbon", number>;
  ioNeeds: Record<"nothing" | "bytes", number>;
  kernelFamilies: Record<"fastLocalBloom" | "ribbon", number>;
  /** EntryType values by name ("put": 1, ...). */
  entryTypes: Record<string, number>;
  /** TableRegionKind values by name ("data": 0, ...). */
  regionKinds: Record<string, number>;
  /** Sizes in bytes of the formats' fixed parts (docs/FORMATS.md 3.1, 6.7). */
  formatSizes: Record<
    "blockTrailer" | "blobFileHeader" | "blobRecordHeader" | "blobFileFooter" | "u64Timestamp",
    number
  >;
  /**
   * The built-in comparators' names (sstfilter/comparator.h), and the suffix of the names of
   * RocksDB's comparators with u64Timestamp-byte timestamps (".u64ts").
   */
  comparatorNames: Record<
    "bytewise" | "reverseBytewise" | "bytewiseU64Ts" | "indexedDb" | "u64TsSuffix",
    string
  >;
}

/** What Emscripten's MODULARIZE factory accepts here (see INCOMING_MODULE_JS_API in CMakeLists). */
export interface ModuleOverrides {
  /** The .wasm bytes, read by the platform (Node) instead of fetched. */
  wasmBinary?: Uint8Array;
  /** Where Emscripten finds a file the module loads (the .wasm), given its name. */
  locateFile?: (path: string, prefix: string) => string;
  /**
   * Instantiates the module itself (an already compiled one): calls `receive` once instantiated and
   * returns {} meanwhile.
   */
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
  ) => object;
}

/** The default export of an Emscripten module file: instantiates the module. */
export type CoreModuleFactory = (overrides: ModuleOverrides) => Promise<CoreModule>;

/**
 * What the test builds of the module (sstfilter-*-testing, wasm/testing/) add to the shipped one;
 * never part of the package.
 */
export interface TestingHooks {
  /** Handles (filters, tables, cursors) created and not yet deleted. */
  liveHandles(): number;
  /** Bytes allocated in the wasm heap and not yet freed (leak tests). */
  heapInUse(): number;
  /** Digests of Standard128Ribbon sizing sweeps, compared with the native build's. */
  ribbonSizingDigest(first: number, last: number, step: number): string;
  /** Digests of Standard128Ribbon's false-positive targets over random sizes, compared with the native build's. */
  ribbonFpRateTargetDigest(randomCount: number): string;
  /** The MANIFEST of a RocksDB database holding only this table (keys as hex internal keys). */
  singleTableManifest(
    fileNumber: number,
    fileSize: number,
    level: number,
    smallestHex: string,
    largestHex: string,
    largestSeqno: number,
  ): Uint8Array | null;
  /** The benchmark's raw random-read loop (bench/wasm-bench.mjs). */
  _sstfilter_bench_random_reads(base: number, lines: number, reads: number, seed: number): number;
}
