// The shape of the Embind module built from wasm/bindings.cc: its exports, constants and factory
// (the handles it returns: core-handles.ts, re-exported here). Only this package calls it.
import type { LibraryFormat } from "./library-format.js";
import type {
  FilterHandle,
  FilterBlockHandle,
  ReplayHandle,
  ManifestHandle,
  DbGetHandle,
  BlockCacheHandle,
  TableHandle,
  TableWriterHandle,
} from "./core-handles.js";

export type * from "./core-handles.js";

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
  /**
   * buildFilter at each of `bitsPerKey`, one filter each in order (Ribbon without its Bloom
   * fallback when `ribbonBloomFallback` is false); null on bad options (last error).
   */
  buildFilters(
    format: number,
    bitsPerKey: number[],
    ribbonBloomFallback: boolean,
    data: number,
    dataSize: number,
    offsets: number,
    count: number,
  ): Uint8Array[] | null;
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
    trackAndVerifyWals: boolean;
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
    /** The timestamp to read at, a u64 in decimal; "" for the newest. */
    readTimestamp: string,
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
    separateKeyValueInDataBlock: boolean;
    baseContextChecksum: number;
    properties: [string, string][];
  }): TableWriterHandle | null;
  /** sst_dump's scan line for an entry: seq below 2^56, type a byte; hex and escape as takeScanText's. */
  formatScanLine(
    key: Uint8Array,
    timestamp: Uint8Array,
    seq: bigint,
    type: number,
    value: Uint8Array,
    hex: boolean,
    escape: boolean,
  ): Uint8Array;
  /**
   * The blob index at [value, value + size): ts/api/values.ts's BlobIndex, as wasm/value_bindings.cc
   * builds it (wasm/marshal.h); null on error (last error). Typed unknown here: the public types
   * are ts/api's, which ts/core does not import.
   */
  decodeBlobIndex(value: number, size: number): unknown;
  /** The columns of the entity at [value, value + size): ts/api/values.ts's WideColumn[]; null on error. */
  decodeWideColumns(value: number, size: number): unknown;
  /** The rocksdb.embedded.blob.stats value at [value, value + size): ts/api/values.ts's
   * EmbeddedBlobStats; null on error. */
  decodeEmbeddedBlobStats(value: number, size: number): unknown;
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
  /** Copies of the module's memcpy (wasm/memcpy.cc) that were not exact, over every length up to `maxLength` and alignment. */
  memcpyMismatches(maxLength: number): number;
  /** The benchmark's raw random-read loop (bench/wasm-bench.mjs). */
  _sstfilter_bench_random_reads(base: number, lines: number, reads: number, seed: number): number;
}
